"""Text of the board, prompts and event lines of the plain interface (reusable by other shells).

Fields on board lines are separated by one TAB. Nothing here prints: functions return lines.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from cardtable.engine.match import FORFEIT
from cardtable.engine.protocol import Result
from cardtable.games.obsession import explain
from cardtable.games.obsession.cards import TEXT
from cardtable.games.obsession.events import (
    BlindTurned,
    Board,
    Drew,
    Ended,
    Event,
    PickedUp,
    Played,
    Stalemate,
    Started,
    TurnStarted,
    WentOut,
)
from cardtable.games.obsession.observation import Observation

if TYPE_CHECKING:
    from cardtable.games.obsession.state import ObsessionState

INPUT_PROMPT = "+++ Enter card number(s): "
SWAP_PROMPT = "+++ Select your 3 VISIBLE cards"
BLIND_PROMPT = "+++ Select a card from your hidden cards"
RULE = "================="
TOP_SHOWN = 5


def cards_count(count: int) -> str:
    return f"{count} card" if count == 1 else f"{count} cards"


def item_list(cards: Sequence[int]) -> str:
    return " ".join(f"{number}:{TEXT[card]}" for number, card in enumerate(cards, start=1))


def pile_line(label: str, count: int, shown: Sequence[int] | None) -> str:
    """``### Label:<TAB>N cards[<TAB>1:.. 2:..]``; no items, no trailing TAB."""
    line = f"### {label}:\t{cards_count(count)}"
    if shown:
        line += "\t" + item_list(shown)
    return line


def board_lines(board: Board, show_hand: bool) -> list[str]:
    return [
        pile_line("Draw", board.draw, None),
        pile_line("Discard", board.discard, board.top),
        pile_line("Hand", len(board.hand), board.hand if show_hand else None),
        pile_line("Visible", len(board.visible), board.visible),
        pile_line("Hidden", board.hidden, None),
    ]


def play_prompt(source: str) -> str:
    if source == "hidden":
        return BLIND_PROMPT
    return "+++ Select cards from your " + ("hand" if source == "hand" else "visible cards")


def swap_lines(pool: Sequence[int]) -> list[str]:
    return [SWAP_PROMPT, pile_line("Cards", len(pool), pool)]


def prompt_lines(observation: Observation) -> list[str]:
    """What a person is shown before the input prompt of a decision."""
    if observation.phase == "swap":
        return swap_lines(observation.pool)
    return [play_prompt(observation.source)]


def pass_prompt(seat: int) -> str:
    return f"+++ Pass to Player {seat + 1}, press Enter: "


AN_BEFORE = ("A", "8", "R")
"""Card texts read aloud with a vowel sound first (ace, eight, the letter R of a joker)."""


def with_article(text: str) -> str:
    """``a 9H``, ``an AD``, ``an 8♥``, ``an R``: the article a reader says before the card."""
    return f"{'an' if text.startswith(AN_BEFORE) else 'a'} {text}"


def event_lines(event: Event, humans: Sequence[bool],
                texts: Sequence[str] = TEXT) -> list[str]:
    """The lines of one event; ``humans`` decides what only a human owner is shown.

    ``texts`` writes a card id (the line mode's ``9H``; the full screen passes ``9♥``).
    """
    if isinstance(event, Board):
        return board_lines(event, humans[event.seat])
    if isinstance(event, Played):
        lines = []
        if event.source == "visible" and not humans[event.seat]:
            lines.append(f"*** Drawing from visible cards ({event.left} left)")
        lines += [f"*** Played {with_article(texts[card])}" for card in event.cards]
        for effect in event.effects:
            if effect == "reverse":
                lines.append("*** Direction reversed!")
            elif effect == "kill":
                lines.append("*** Killed pile")
        again = explain.plays_again(event)
        if again is not None:
            lines.append(f"*** {again}")
        return lines
    if isinstance(event, TurnStarted):
        return ["", f"=== PLAYER {event.seat + 1}"]
    if isinstance(event, Drew):
        if not humans[event.seat]:
            return []
        return [f"*** Drew {with_article(texts[card])} from the draw pile" for card in event.cards]
    if isinstance(event, PickedUp):
        return [f"*** {explain.picked_up(event)}"]
    if isinstance(event, BlindTurned):
        if humans[event.seat]:
            return [f"*** Drew {with_article(texts[event.card])} from your hidden cards"]
        return [f"*** Drawing from hidden cards ({event.left} left)"]
    if isinstance(event, WentOut):
        return [f"*** {explain.went_out(event)}"]
    if isinstance(event, Started):
        return [f"*** Starting with Player {event.seat + 1}"]
    if isinstance(event, Stalemate):
        if event.reason == "cap":
            return [f"*** Stalemate after {event.plays} plays"]
        return [f"*** Stalemate: position repeated {event.limit} times"]
    if isinstance(event, Ended):
        last = explain.last_left(event)
        return [*([f"*** {last}"] if last is not None else []), "", *placings_block(event)]
    return []


def placings_block(ended: Ended) -> list[str]:
    lines = [RULE]
    for place, seat in enumerate(ended.placings, start=1):
        line = f"{place}. Player {seat + 1}"
        if ended.stalemate and place > ended.finished:
            line += f" (stalemate, {cards_count(ended.cards_left[seat])} left)"
        lines.append(line)
    return [*lines, RULE, "=== Game Over ===", RULE]


def forfeit_block(placings: Sequence[int], cards_left: Sequence[int], forfeited: int) -> list[str]:
    """The places when seat ``forfeited`` forfeits: the seats already out keep theirs, the
    others still in follow by fewest cards left (then seat number, as after a stalemate), and
    the seat that forfeited comes last."""
    still = sorted((seat for seat in range(len(cards_left))
                    if seat not in placings and seat != forfeited),
                   key=lambda seat: (cards_left[seat], seat))
    lines = [RULE]
    lines += [f"{place}. Player {seat + 1}" for place, seat in enumerate(placings, start=1)
              if seat != forfeited]
    first = len(lines)
    for place, seat in enumerate(still, start=first):
        lines.append(f"{place}. Player {seat + 1} ({cards_count(cards_left[seat])} left)")
    lines.append(f"{len(lines)}. Player {forfeited + 1} (forfeit)")
    return [*lines, RULE, "=== Game Over ===", RULE]


def forfeit_places(game: ObsessionState, result: Result) -> list[str]:
    """:func:`forfeit_block` for ``game`` ended by the forfeit ``result``, after a blank
    line; nothing for another result or a seat the game does not have."""
    name = str(result.details.get("seat", ""))
    seats = [f"P{seat + 1}" for seat in range(game.players)]
    if result.reason != FORFEIT or name not in seats:
        return []
    cards_left = [game.cards_left(seat) for seat in range(game.players)]
    return ["", *forfeit_block(game.placings, cards_left, seats.index(name))]
