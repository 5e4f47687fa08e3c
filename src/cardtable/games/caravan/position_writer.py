"""Writing Caravan positions: a whole game state as one line of text.

``position`` reads the line back and describes the format; this module only writes it. Writing
reads the state's fields and never builds a state, so the state itself can use it
(``CaravanState.to_position``) while ``position``, which builds states, sits above the state.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TYPE_CHECKING
from urllib.parse import quote

from cardtable.engine.protocol import Result
from cardtable.engine.randomness import GameRandom
from cardtable.games.caravan.board import ANY, ASC, CARAVAN_NAMES, DESC, Caravan
from cardtable.games.caravan.cards import (
    JOKER,
    RANK_MASK,
    SEATS,
    code,
    copy_of,
    owner_of,
    sample_of,
)
from cardtable.games.caravan.rules import SeatRules

if TYPE_CHECKING:
    from cardtable.games.caravan.state import CaravanState

FORMAT = "caravan/1"
"""The first field: the game and the version of this format."""

FIELDS: tuple[str, ...] = (
    "game", "rules", "to move",
    "deck ABC", "hand ABC", "pile ABC", "deck DEF", "hand DEF", "pile DEF",
    *(f"caravan {name}" for name in CARAVAN_NAMES),
    "held", "cards", "placed", "moves", "plies", "jack as joker", "first", "seed", "random",
    "result",
)
"""The name of each field, in order; errors name the field they are about."""

EMPTY = "-"
RUNNING = "*"
NO_RANDOM = "-"
"""The ``random`` field of a game whose random source is not a generator (a replayed record)."""

HELD_TEXT = {None: "-", ANY: "n", ASC: "a", DESC: "d"}
"""The letter of each caravan's direction in the ``held`` field."""


def rules_fingerprint(rules: SeatRules) -> str:
    """Eight hex digits that change whenever any rule field of either seat changes."""
    return hashlib.sha256(repr(rules).encode()).hexdigest()[:8]


def card_text(card: int) -> str:
    """The card's code, with ``@SAMPLE`` unless it is from sample 1 and ``.COPY`` for a second
    Joker: ``7S``, ``7S@2``, ``JO``, ``JO.2``, ``JO@3.2``. The owner is not part of it."""
    text = code(card)
    sample = sample_of(card)
    if sample != 1:
        text += f"@{sample}"
    if card & RANK_MASK == JOKER and copy_of(card) != 1:
        text += f".{copy_of(card)}"
    return text


def _cards(cards: Sequence[int]) -> str:
    return ",".join(map(card_text, cards)) if cards else EMPTY


def _caravan(caravan: Caravan, owner: int) -> str:
    if not caravan:
        return EMPTY

    def one(card: int) -> str:
        return card_text(card) if owner_of(card) == owner else "~" + card_text(card)

    return ",".join("+".join((one(numeral), *map(one, faces))) for numeral, faces in caravan)


def _result(result: Result | None) -> str:
    if result is None:
        return RUNNING
    text = result.reason
    if result.winners:
        text += "=" + "+".join(result.winners)
    cause = result.details.get("cause")
    if cause is not None:
        text += "/" + quote(str(cause), safe="")
    return text


def to_position(state: CaravanState) -> str:
    """The whole state of ``state`` as one line (see the docstring of ``position``)."""
    rng = state.rng
    random_text = rng.state_text(state.seed) if isinstance(rng, GameRandom) else NO_RANDOM
    fields = [
        FORMAT,
        rules_fingerprint(state.seat_rules),
        SEATS[state.turn],
    ]
    for seat in (0, 1):
        fields += [_cards(state.decks[seat][::-1]), _cards(state.hands[seat]),
                   _cards(state.piles[seat])]
    fields += [_caravan(caravan, index // 3) for index, caravan in enumerate(state.caravans)]
    fields += [
        "".join(HELD_TEXT[held] for held in state.held),
        "{},{}".format(*card_counts(state.decks, state.hands, state.piles, state.caravans)),
        f"{state.placed[0]},{state.placed[1]}",
        f"{state.moves_made[0]},{state.moves_made[1]}",
        str(state.plies),
        "".join("y" if flag else "n" for flag in state.jack_as_joker),
        SEATS[state.first],
        str(state.seed),
        random_text,
        _result(state.result),
    ]
    return " ".join(fields)


def card_counts(decks: Sequence[list[int]], hands: Sequence[list[int]],
                piles: Sequence[list[int]], caravans: Sequence[Caravan]) -> tuple[int, int]:
    """How many cards of each seat's deck the game holds, wherever they are."""
    counts = [len(decks[seat]) + len(hands[seat]) + len(piles[seat]) for seat in (0, 1)]
    for caravan in caravans:
        for numeral, faces in caravan:
            for card in (numeral, *faces):
                counts[owner_of(card)] += 1
    return counts[0], counts[1]
