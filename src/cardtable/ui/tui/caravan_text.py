"""What the Caravan screen says, as plain data: seat names, messages (specification §9.3),
caravan titles and slot lines, and the partial reading of a command being typed.

Nothing here imports Textual, so it is cheap to test and to reuse.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text

from cardtable.games.caravan.board import (
    CARAVAN_NAMES,
    DIRECTION_TEXT,
    NO_SUIT,
    Caravan,
    in_range,
    lane_taker,
)
from cardtable.games.caravan.cards import JOKER, RANK_MASK, SUITS, code
from cardtable.games.caravan.events import HistoryEntry, MoveEvent, removed_slots
from cardtable.games.caravan.observation import HIDDEN_CARD, Observation
from cardtable.games.caravan.render import HIDDEN_TEXT, Removals, display_names, history_message
from cardtable.games.caravan.render import move_message as render_move_message
from cardtable.games.caravan.rules import SeatRules
from cardtable.ui.tui.theme import Theme

HUMAN = "human"


def seat_names(players: tuple[str, str]) -> tuple[str, str]:
    """Display names (§9.1): YOU/BOT, PL1/PL2 for two humans, BOT1/BOT2 for two bots."""
    return display_names((players[0] == HUMAN, players[1] == HUMAN))


def card_text(card: int, theme: Theme) -> str:
    if card == HIDDEN_CARD:
        return HIDDEN_TEXT
    return theme.card(code(card))


def styled_card(card: int, theme: Theme) -> Text:
    if card == HIDDEN_CARD:
        return Text(HIDDEN_TEXT)
    text = code(card)
    return Text(theme.card(text), style=theme.card_style(text))


def move_message(name: str, event: MoveEvent, theme: Theme,
                 before: Sequence[Caravan] | None = None) -> str:
    """The log line of a successful move (§9.3), with the theme's suit glyphs. Given the
    board as it stood ``before`` the move, a Jack or Joker also lists what it removed."""
    removals: Removals = ()
    if before is not None and event.removed and event.target is not None:
        removals = removed_slots(before, event.removed, event.move.caravan)
    return render_move_message(name, event.code, event.card, event.target,
                               lambda card: card_text(card, theme), removals)


def history_line(entry: HistoryEntry, event: MoveEvent, names: tuple[str, str], theme: Theme,
                 before: Sequence[Caravan] | None = None) -> str:
    """The log line of a successful move as one seat saw it: ``entry`` is the move's entry
    in that seat's observation (a face-down card shows as ``###``; see
    ``render.message_seat`` for whose), ``event`` tells what a Jack or Joker removed."""
    removals: Removals = ()
    if before is not None and event.removed and event.target is not None:
        removals = removed_slots(before, event.removed, event.move.caravan)
    return history_message(entry, names, lambda card: card_text(card, theme), removals)


def direction_text(direction: int) -> str:
    return DIRECTION_TEXT[direction]


def caravan_title(obs: Observation, index: int, theme: Theme, compact: bool = False) -> str:
    """`` X (value, DIR, suit) `` (compact: `` X value DIR suit ``) or `` X `` when empty,
    as Textual markup."""
    value, size, _last, suit, direction = obs.summaries[index]
    letter = CARAVAN_NAMES[index]
    if not size:
        return f" {letter} "
    state = caravan_state(obs, index)
    suit_text = theme.suit(SUITS[suit]) if suit != NO_SUIT and suit < 4 else "-"
    value_text = str(value)
    if state == "WINS" and theme.colour:
        value_text = f"[underline]{value}[/underline]"
    if compact:
        title = f" {letter} {value_text} {direction_text(direction)} {suit_text} "
    else:
        title = f" {letter} ({value_text}, {direction_text(direction)}, {suit_text}) "
    style = theme.style("win" if state == "WINS" else "bust" if state == "BUST" else "")
    return f"[{style}]{title}[/]" if style else title


def caravan_state(obs: Observation, index: int) -> str:
    """``WINS`` (takes its lane now), ``SOLD`` (in range), ``BUST`` (over), or ``""``."""
    value, size, *_ = obs.summaries[index]
    if not size:
        return ""
    owner = 0 if index < 3 else 1
    rules = obs.rules[owner]
    lane = index % 3
    taker = lane_taker(obs.summaries[lane][0], obs.summaries[lane + 3][0],
                       obs.rules[0], obs.rules[1])
    if taker == owner:
        return "WINS"
    if value > rules.sold_max:
        return "BUST"
    if in_range(value, rules):
        return "SOLD"
    return ""


def slot_line(position: int, slot: tuple[int, tuple[int, ...]], theme: Theme) -> Text:
    """``3 7♠ K♥ Q♠``: position, numeral, attached faces in attachment order."""
    numeral, faces = slot
    line = Text(f"{position:>2} ")
    line.append_text(styled_card(numeral, theme))
    pad = 4 - len(card_text(numeral, theme))
    line.append(" " * max(pad, 1))
    for number, face in enumerate(faces):
        if number:
            line.append(" ")
        line.append_text(styled_card(face, theme))
    return line


def slot_strip(position: int, slot: tuple[int, tuple[int, ...]], theme: Theme) -> list[Text]:
    """The roomy form of a slot (§9.1): position, the numeral in brackets, and a two-line strip
    of faces, ranks above suits (a Joker is "J" over "O")."""
    numeral, faces = slot
    top = Text(f"{position:>2} [")
    top.append_text(styled_card(numeral, theme))
    top.append(" " * max(0, 3 - len(card_text(numeral, theme))) + "] ")
    bottom = Text(" " * 10)
    for face in faces:
        text = code(face)
        style = theme.card_style(text)
        if text == "JO":
            top.append("J ")
            bottom.append("O ")
        else:
            top.append(text[:-1] + " ", style=style)
            bottom.append(theme.suit(text[-1]) + " ", style=style)
    return [top, bottom]


@dataclass(frozen=True)
class Partial:
    """What a command typed so far names: hand position, caravan index and slot (or None)."""

    kind: str | None = None
    hand: int | None = None
    caravan: int | None = None
    slot: int | None = None


def read_partial(text: str, rules: SeatRules, seat: int) -> Partial:
    """Read as much of ``text`` as forms a command (errors of unfinished input suppressed)."""
    text = text.strip().upper()
    if not text or text[0] not in "PDC":
        return Partial()
    kind = text[0]
    at = 1
    hand: int | None = None
    caravan: int | None = None
    slot: int | None = None

    def digits(start: int) -> tuple[int | None, int]:
        end = start
        while end < len(text) and text[end].isdigit():
            end += 1
        run = text[start:end]
        if not run or run[0] == "0":
            return None, start
        return int(run), end

    if kind in "PD":
        hand, at = digits(at)
        if kind == "P" and hand is not None and at < len(text):
            index = CARAVAN_NAMES.find(text[at])
            if index >= 0:
                caravan = index
                slot, _ = digits(at + 1)
    else:
        if at < len(text):
            index = CARAVAN_NAMES.find(text[at])
            if index >= 0:
                caravan = index
                if rules.of(seat).clear_policy == "destroy_restart":
                    hand, _ = digits(at + 1)
    return Partial(kind, hand, caravan, slot)


INPUT_LIMIT = 40
"""Room for any move and a word (``quit``, ``moves``); longer input is refused by the parser,
never cut while typing."""


def is_joker(card: int) -> bool:
    return card & RANK_MASK == JOKER


HELP_COMMANDS = [
    "Commands (the same notation as the line mode):",
    "  P2B    P<h><X>     numeral at hand position h onto caravan X",
    "  P4F3   P<h><X><s>  face card at h onto slot s of caravan X",
    "  D3     D<h>        discard hand position h",
    "  CA     C<X>        clear your caravan X",
    "  CB4    C<X><h>     destroy X, restart it with hand card h",
    "                     (where the rules destroy and restart)",
    "  moves              list your legal moves (also F2)",
    "  help               this page (also ? or F1)",
    "  quit   exit        leave the game (asks first, as Esc)",
    "",
    "Mouse: click a hand card, then a caravan or one of its slots.",
    "Keys: Enter submits, Esc quits (asks first), ? or F1 this help,",
    "  F2 legal moves, arrows / PgUp / PgDn scroll this page.",
    "Markers: WINS takes its lane now, SOLD in the sold range, BUST over it.",
    "Hands: deck N is the cards left to draw, hand N the cards in hand.",
]
