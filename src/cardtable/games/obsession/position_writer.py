"""Writing Obsession positions: a whole game state as one line of text.

``position`` reads the line back and describes the format; this module only writes it. Writing
reads the state's fields and never builds a state, so the state itself can use it
(``ObsessionState.to_position``) while ``position``, which builds states, sits above the state.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cardtable.games.obsession.cards import FACE, JOKER, TEXT, joker
from cardtable.games.obsession.phases import PHASE_NAMES
from cardtable.games.obsession.rules import Rules
from cardtable.games.obsession.seats import seat_name

if TYPE_CHECKING:
    from cardtable.games.obsession.state import ObsessionState

FORMAT = "obsession/1"
"""The first field: the game and the version of this format."""

FIELDS: tuple[str, ...] = (
    "game", "rules", "phase", "to move", "direction", "hands", "visible", "hidden", "draw",
    "pile", "killed", "removed", "placings", "plays", "turns", "stalemate", "humans", "seen",
)
"""The name of each field, in order; errors name the field they are about."""

EMPTY = "-"


def rules_fingerprint(rules: Rules) -> str:
    """Eight hex digits that change whenever any rule field changes."""
    return hashlib.sha256(repr(rules).encode()).hexdigest()[:8]


def card_text(card: int) -> str:
    """The card's text with ``@DECK`` unless it is from the first deck, and ``.2`` for the
    second joker of a deck: ``9H``, ``9H@2``, ``R``, ``R.2``, ``R@3.2``."""
    text = TEXT[card]
    if FACE[card] == JOKER:
        deck, copy = divmod(card - joker(0, 0), 2)
    else:
        deck, copy = card % 8, 0
    if deck:
        text += f"@{deck + 1}"
    if copy:
        text += ".2"
    return text


def _cards(cards: Sequence[int]) -> str:
    return ",".join(map(card_text, cards)) if cards else EMPTY


def _rows(rows: Sequence[Sequence[int]]) -> str:
    return "/".join(map(_cards, rows))


def _seats(seats: Sequence[int]) -> str:
    return ",".join(str(seat + 1) for seat in seats)


def _seen(seen: dict[tuple[object, ...], int]) -> str:
    if not seen:
        return EMPTY
    entries = []
    for key, count in seen.items():
        seat, direction, *parts = key
        assert isinstance(seat, int) and isinstance(direction, int)
        faces = ":".join(bytes(part).hex()[1::2] for part in parts if isinstance(part, bytes))
        entries.append(f"{seat + 1}{'+' if direction > 0 else '-'}{faces}={count}")
    return ",".join(entries)


def to_position(state: ObsessionState) -> str:
    """The whole state of ``state`` as one line (see ``docs/positions.md``)."""
    went_out = [seat for seat in state.placings if state.out[seat]]
    placed = state.placings[len(went_out):]
    placings = _seats(went_out) + "/" + _seats(placed)
    return " ".join((
        FORMAT,
        rules_fingerprint(state.rules),
        PHASE_NAMES[state.phase],
        seat_name(state.current),
        "+" if state.direction > 0 else "-",
        _rows(state.hands),
        _rows(state.visible),
        _rows(state.hidden),
        _cards(state.draw[::-1]),
        _cards(state.pile),
        _cards(state.killed),
        _cards(state.removed),
        placings if state.placings else EMPTY,
        str(state.plays),
        str(state.turns),
        state.stalemate or EMPTY,
        _seats([seat for seat, human in enumerate(state.humans) if human]) or EMPTY,
        _seen(state._seen),
    ))
