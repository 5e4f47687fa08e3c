"""Text for people: the plain board block (§9.2) and every message of §9.3.

Everything here is a pure function of observations and display names, so the plain line
mode and a full-screen interface can share it. Nothing here prints, reads or sleeps.

Hiding is decided by the caller through the observations it passes: a
:class:`BoardView` combines the observations of the seats whose hands may be shown (one
seat's for a human against a bot, the seat to move in a game between two people, both
seats between two bots). A seat's own caravans are taken from its own observation when it
is given, so nothing a seat may not see (the other seat's simultaneous opening) is shown
unless that seat's observation is passed as well.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from cardtable.engine.protocol import Result
from cardtable.games.caravan.board import (
    CARAVAN_NAMES,
    DIRECTION_TEXT,
    NO_SUIT,
    Caravan,
    Summary,
)
from cardtable.games.caravan.cards import SEATS, SUITS, code
from cardtable.games.caravan.events import HistoryEntry, Slot
from cardtable.games.caravan.notation import CLEAR, DISCARD, PLAY, unpack
from cardtable.games.caravan.observation import HIDDEN_CARD, Observation

HIDDEN_TEXT = "###"
"""How a card the viewer may not see is written."""

EMPTY_TEXT = "-"
"""How an empty caravan or an empty hand is written."""

SEAT_ORDER = (1, 0)
"""Board block order of the seat lines: DEF on top, ABC at the bottom."""

# ------------------------------------------------------------------------ names


YOU = "YOU"
"""The name of the one human against a bot; messages about that seat say "your"."""


def display_names(humans: tuple[bool, bool]) -> tuple[str, str]:
    """Display names of ABC and DEF (§9.1): YOU/BOT, PL1/PL2 or BOT1/BOT2."""
    if humans[0] and humans[1]:
        return ("PL1", "PL2")
    if not humans[0] and not humans[1]:
        return ("BOT1", "BOT2")
    return (YOU, "BOT") if humans[0] else ("BOT", YOU)


def message_seat(humans: tuple[bool, bool], mover: int, over: bool, reveal: bool = False) -> int:
    """The seat whose observation writes the log line of ``mover``'s move, so that the line
    shows no card a person watching may not see (a face-down opening card): the move's own
    seat when nobody hides anything (bots only, a replay, a game over); the human facing a
    bot; at a hot seat, where both players read the one log, the other seat, which sees of
    the move only what is public. Every shell asks this one question here."""
    if reveal or over or humans == (False, False):
        return mover
    if humans == (True, True):
        return 1 - mover
    return 0 if humans[0] else 1


def possessive(name: str) -> str:
    """``your`` for the human facing a bot, ``their`` for anyone else."""
    return "your" if name == YOU else "their"


# --------------------------------------------------------------------- messages

WELCOME = "Welcome to Caravan"
DRAW = "DRAW"
PRESS_ESC = "Press Esc to exit."
FATAL_ERROR = "A fatal error occurred."
INPUT_ENDED = "Input ended before the game was over."


def welcome() -> str:
    return WELCOME


def to_move_first(name: str) -> str:
    return f"{name} to move first."


def to_move_next(name: str) -> str:
    return f"{name} to move next."


def entered(name: str, command: str) -> str:
    """``command`` is the raw input line."""
    return f"{name} entered: {command}"


def thinking(name: str) -> str:
    return f"{name} is thinking..."


def card_text(card: int) -> str:
    """A card code, or ``###`` for a card the viewer may not see."""
    return HIDDEN_TEXT if card == HIDDEN_CARD else code(card)


def caravan_name(caravan: int) -> str:
    return CARAVAN_NAMES[caravan]


def played(name: str, card: str, caravan: str) -> str:
    return f"{name} played {card} on Caravan {caravan}."


def played_face(name: str, face: str, target: str, caravan: str) -> str:
    return f"{name} played {face} on {target} on Caravan {caravan}."


def discarded(name: str, card: str) -> str:
    return f"{name} discarded {card} from {possessive(name)} hand."


def cleared(name: str, caravan: str) -> str:
    return f"{name} cleared Caravan {caravan}."


def destroyed(name: str, caravan: str, card: str) -> str:
    return f"{name} destroyed Caravan {caravan} and started it again with {card}."


def shows_hand(name: str) -> str:
    if name == YOU:
        return f"{name} show your hand and reshuffle."
    return f"{name} shows their hand and reshuffles."


def shown_cards(name: str, cards: Sequence[int]) -> str:
    """The hand a mulligan showed, on the line after :func:`shows_hand`."""
    return f"{name} showed: {' '.join(card_text(card) for card in cards)}"


def winner(name: str) -> str:
    return f"WINNER: {name}"


def result_line(result: Result, names: tuple[str, str]) -> str | None:
    """``WINNER: NAME`` or ``DRAW`` for a finished game; None for an abandoned one."""
    if result.reason == "quit":
        return None
    if not result.winners:
        return DRAW
    return winner(names[SEATS.index(result.winners[0])])


CardFormat = Callable[[int], str]
"""How a message writes a card: :func:`card_text` (ASCII codes) or a screen's own glyphs."""

Removals = Sequence[tuple[int, Sequence[Slot]]]
"""What a face play removed, per caravan (:func:`events.removed_slots`)."""


def removed_text(removals: Removals, text: CardFormat = card_text) -> str:
    """``Removed: 10S from Caravan C, 10D[KH] 10C from Caravan D.`` (each numeral with the
    faces that went with it), or ``""`` when nothing was removed."""
    parts = []
    for caravan, slots in removals:
        cards = " ".join(
            text(numeral) + ("[" + ",".join(text(face) for face in faces) + "]" if faces else "")
            for numeral, faces in slots
        )
        parts.append(f"{cards} from Caravan {caravan_name(caravan)}")
    return f"Removed: {', '.join(parts)}." if parts else ""


def move_message(
    name: str, code: int, card: int | None, target: int | None,
    text: CardFormat = card_text, removals: Removals = (),
) -> str:
    """The log line of one move (§9.3): ``card`` is the card played, discarded or restarting
    a destroyed caravan (None for a plain clear), ``target`` the numeral a face went on,
    ``removals`` what a Jack or a Joker took off the table (listed after the move)."""
    kind, caravan, hand, _slot = unpack(code)
    letter = caravan_name(caravan)
    if kind == DISCARD and card is not None:
        return discarded(name, text(card))
    if kind == CLEAR or card is None:
        if hand and card is not None:
            return destroyed(name, letter, text(card))
        return cleared(name, letter)
    if target is not None:
        line = played_face(name, text(card), text(target), letter)
        if [(c, list(slots)) for c, slots in removals] == [(caravan, [(target, ())])]:
            return line  # a Jack on a bare numeral: the line says it all
        gone = removed_text(removals, text)
        return f"{line} {gone}" if gone else line
    return played(name, text(card), letter)


def history_message(
    entry: HistoryEntry, names: tuple[str, str], text: CardFormat = card_text,
    removals: Removals = (),
) -> str:
    """The log line of one public event as the viewer saw it (hidden cards as ``###``).

    A move's ``cards`` are, by kind: a numeral play ``(card,)``; a face play
    ``(face, target)``; a discard ``(card,)``; a clear the removed cards, followed by the
    restart card under destroy-and-restart. A mulligan (no move) shows the hand.
    """
    name = names[entry.seat]
    if entry.code is None:
        return shows_hand(name)  # followed by shown_cards() where there is room
    kind, _caravan, hand, _slot = unpack(entry.code)
    cards = entry.cards
    if kind == CLEAR:
        return move_message(name, entry.code, cards[-1] if hand and cards else None, None, text)
    target = cards[1] if kind != DISCARD and len(cards) >= 2 else None
    return move_message(name, entry.code, cards[0], target, text, removals)


# ------------------------------------------------------------------------ board


@dataclass(frozen=True, slots=True)
class BoardView:
    """What a board shows: the six caravans, each seat's deck and hand sizes, the hands that
    may be shown (None for a hidden hand, drawn as ``###`` per card) and each seat's latest
    move."""

    caravans: tuple[Caravan, ...]
    summaries: tuple[Summary, ...]
    deck_sizes: tuple[int, int]
    hand_sizes: tuple[int, int]
    hands: tuple[tuple[int, ...] | None, tuple[int, ...] | None]
    over: bool
    last_moves: tuple[HistoryEntry | None, HistoryEntry | None]

    @property
    def card_counts(self) -> tuple[int, int]:
        """The cards each seat has left: deck plus hand."""
        return (self.deck_sizes[0] + self.hand_sizes[0], self.deck_sizes[1] + self.hand_sizes[1])

    @classmethod
    def of(cls, observations: Sequence[Observation]) -> BoardView:
        """Combine the observations of the seats whose hands may be shown (at least one).

        Each seat's caravans come from that seat's own observation when given, else from
        the first observation; each given seat's hand is shown, the others are hidden.
        """
        if not observations:
            raise ValueError("a board needs at least one observation")
        by_seat = {obs.seat: obs for obs in observations}
        base = observations[0]
        caravans: list[Caravan] = []
        summaries: list[Summary] = []
        for index in range(6):
            source = by_seat.get(index // 3, base)
            caravans.append(source.caravans[index])
            summaries.append(source.summaries[index])
        hands = (
            by_seat[0].hand if 0 in by_seat else None,
            by_seat[1].hand if 1 in by_seat else None,
        )
        last = (_last_move(by_seat.get(0, base).history, 0),
                _last_move(by_seat.get(1, base).history, 1))
        return cls(tuple(caravans), tuple(summaries), base.deck_sizes, base.hand_sizes, hands,
                   base.result is not None, last)


def _last_move(history: Sequence[HistoryEntry], seat: int) -> HistoryEntry | None:
    for entry in reversed(history):
        if entry.seat == seat and entry.code is not None:
            return entry
    return None


def slot_text(position: int, slot: tuple[int, tuple[int, ...]]) -> str:
    """``2:5S[KH,QD]``: position, numeral, attached faces in attachment order."""
    numeral, faces = slot
    text = f"{position}:{card_text(numeral)}"
    if faces:
        text += "[" + ",".join(card_text(face) for face in faces) + "]"
    return text


def caravan_line(index: int, caravan: Caravan, summary: Summary) -> str:
    """``D (15, DES, S): 1:10S 2:5S[KH]``, ``E: -`` when empty, ``D (?, ?, ?): 1:###`` while
    its numerals are hidden from the viewer."""
    letter = caravan_name(index)
    if not caravan:
        return f"{letter}: {EMPTY_TEXT}"
    slots = " ".join(slot_text(position, slot) for position, slot in enumerate(caravan, 1))
    if any(slot[0] == HIDDEN_CARD for slot in caravan):
        return f"{letter} (?, ?, ?): {slots}"
    value, _size, _last, suit, direction = summary
    suit_text = SUITS[suit] if suit != NO_SUIT else EMPTY_TEXT
    return f"{letter} ({value}, {DIRECTION_TEXT[direction]}, {suit_text}): {slots}"


def hand_text(hand: Sequence[int] | None, size: int, positions: bool) -> str:
    """A hand as ``1:7S 2:QH`` (``7S QH`` without positions), ``### ###`` when hidden."""
    if hand is None:
        return " ".join([HIDDEN_TEXT] * size) if size else EMPTY_TEXT
    if not hand:
        return EMPTY_TEXT
    if positions:
        return " ".join(f"{position}:{card_text(card)}" for position, card in enumerate(hand, 1))
    return " ".join(card_text(card) for card in hand)


def seat_line(view: BoardView, seat: int, name: str) -> str:
    """``DEF BOT (27): ### ### ###``; N counts the deck and the hand."""
    cards = hand_text(view.hands[seat], view.hand_sizes[seat], positions=not view.over)
    return f"{SEATS[seat]} {name} ({view.card_counts[seat]}): {cards}"


def board_lines(view: BoardView, names: tuple[str, str]) -> list[str]:
    """The board block of §9.2, top to bottom: DEF's hand, D E F, A B C, ABC's hand."""
    lines = [seat_line(view, 1, names[1])]
    lines += [caravan_line(index, view.caravans[index], view.summaries[index])
              for index in (3, 4, 5, 0, 1, 2)]
    lines.append(seat_line(view, 0, names[0]))
    return lines



def last_move_text(entry: HistoryEntry | None) -> str:
    """A seat's latest move in short form: ``P2B 7S``, ``P4F3 KH on 7S``, ``D1 4H``, ``CA``,
    ``CB4 5H`` (``-`` before its first move)."""
    if entry is None or entry.move is None:
        return EMPTY_TEXT
    move = entry.move
    cards = entry.cards
    if move.kind == CLEAR:
        return f"{move.notation} {card_text(cards[-1])}" if move.hand and cards else move.notation
    if move.kind == PLAY and len(cards) >= 2:
        return f"{move.notation} {card_text(cards[0])} on {card_text(cards[1])}"
    return f"{move.notation} {card_text(cards[0])}"


def status_lines(view: BoardView) -> list[str]:
    """The two lines under the board block: both deck sizes, and each seat's latest move."""
    return [
        f"Decks: ABC {view.deck_sizes[0]}, DEF {view.deck_sizes[1]}",
        f"Last moves: ABC {last_move_text(view.last_moves[0])}, "
        f"DEF {last_move_text(view.last_moves[1])}",
    ]


def legal_moves_lines(moves: Sequence[str], width: int = 76) -> list[str]:
    """``Legal moves (12): P1A P1B ...`` wrapped to ``width``; the notations come from the
    game's own list of legal moves, in its order."""
    if not moves:
        return ["No legal moves."]
    return textwrap.wrap(f"Legal moves ({len(moves)}): " + " ".join(moves), max(width, 20),
                         subsequent_indent="  ", break_on_hyphens=False)
