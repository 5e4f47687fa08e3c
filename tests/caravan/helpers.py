"""Builders for Caravan positions written as text, shared by the Caravan tests.

Cards are written as codes (``7S``, ``10H``, ``QD``, ``JO``). A card belongs to the seat
of the caravan or hand it is written in, unless the code ends with ``@ABC`` or ``@DEF``.
A caravan is written slot by slot from position 1: ``"4H 9C+QH+KS"``; ``+`` attaches faces.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from cardtable.engine.randomness import GameRandom
from cardtable.games.caravan.board import CARAVAN_NAMES, Caravan
from cardtable.games.caravan.bots import make_bot
from cardtable.games.caravan.cards import code, make, parse_code
from cardtable.games.caravan.notation import Move, parse_move
from cardtable.games.caravan.rules import PRESETS, Rules, SeatRules
from cardtable.games.caravan.state import CaravanState

PRESET_NAMES = ("power", "nv", "foxon", "karavane")
SEAT_OF = {"ABC": 0, "DEF": 1}


def seat_rules(rules: str | Rules | SeatRules, **overrides: object) -> SeatRules:
    """Rules for both seats from a preset name, one Rules, or SeatRules; overrides apply to both."""
    if isinstance(rules, str):
        rules = PRESETS[rules]
    if isinstance(rules, Rules):
        rules = SeatRules.both(rules)
    if overrides:
        rules = SeatRules(replace(rules.abc, **overrides), replace(rules.def_, **overrides))
    return rules


def card(text: str, owner: int = 0, sample: int = 1, copy: int = 1) -> int:
    """The card written ``text`` (optionally ``@ABC``/``@DEF`` for its owner)."""
    head, _, seat = text.partition("@")
    if seat:
        owner = SEAT_OF[seat.upper()]
    parsed = parse_code(head)
    assert parsed is not None, text
    return make(parsed[0], parsed[1], owner, sample, copy)


def cards(text: str, owner: int = 0, sample: int = 1) -> list[int]:
    return [card(token, owner, sample) for token in text.replace(",", " ").split()]


def caravan(text: str, owner: int) -> Caravan:
    text = text.strip()
    if text in ("", "-"):
        return ()
    slots = []
    for token in text.replace(",", " ").split():
        numeral, *faces = token.split("+")
        slots.append((card(numeral, owner), tuple(card(face, owner) for face in faces)))
    return tuple(slots)


def codes(cards_: Sequence[int]) -> list[str]:
    return [code(c) for c in cards_]


def show(game: CaravanState, index: int | str) -> str:
    """A caravan as text, the inverse of :func:`caravan` (owners not shown)."""
    if isinstance(index, str):
        index = CARAVAN_NAMES.index(index)
    return " ".join(
        "+".join([code(numeral), *(code(face) for face in faces)])
        for numeral, faces in game.caravans[index]
    )


def _filler(owner: int, count: int) -> list[int]:
    # Numerals of a sample no test uses, so they never collide with written cards.
    return [make(1 + i % 10, i % 4, owner, 9) for i in range(count)]


def position(
    rules: str | Rules | SeatRules = "power",
    board: Mapping[str, str] | None = None,
    abc: str = "",
    def_: str = "",
    turn: str = "ABC",
    placed: tuple[int, int] = (3, 3),
    decks: tuple[Sequence[int], Sequence[int]] | None = None,
    held: Mapping[str, int | None] | None = None,
    jokerless: tuple[bool, bool] = (False, False),
    seed: int = 0,
) -> CaravanState:
    """A game in the given position: caravans from ``board`` (``{"A": "4H 9C"}``), hands
    ``abc``/``def_``, ``turn`` to move, placements ``placed`` (3, 3 = out of the opening),
    decks (top card last; empty unless given)."""
    rules = seat_rules(rules)
    game = CaravanState.start(
        rules, seed, SEAT_OF[turn], [_filler(0, 30), _filler(1, 30)], jokerless, GameRandom(seed)
    )
    game.hands = [cards(abc, 0), cards(def_, 1)]
    game.decks = [list(decks[0]), list(decks[1])] if decks is not None else [[], []]
    game.piles = [[], []]
    game.placed = list(placed)
    game.turn = SEAT_OF[turn]
    game.history = ()
    game.result = None
    for index, name in enumerate(CARAVAN_NAMES):
        text = (board or {}).get(name, "")
        game.caravans[index] = caravan(text, 0 if index < 3 else 1)
        game.held[index] = (held or {}).get(name)
        game._refresh(index)
    return game


def move(game: CaravanState, text: str) -> Move:
    """The move ``text`` typed by the seat to move."""
    parsed = parse_move(text, game.seat_rules, game.turn)
    assert parsed is not None
    return parsed


def play(game: CaravanState, text: str) -> None:
    game.play(move(game, text))


def snapshot(game: CaravanState) -> tuple[object, ...]:
    """Everything a move may change, for comparing a state before and after."""
    return (
        tuple(game.caravans), tuple(game.summaries), tuple(game.held),
        tuple(map(tuple, game.hands)), tuple(map(tuple, game.decks)),
        tuple(map(tuple, game.piles)), tuple(game.placed), tuple(game.moves_made),
        game.turn, game.plies, game.result, game.history,
    )


def random_bots_game(preset: str, discard_mulligan: bool,
                     seed: int) -> tuple[CaravanState, tuple[Any, Any]]:
    """A game under ``preset`` (or, with ``discard_mulligan``, the Start round's discard
    mulligan, which no preset uses) and two seeded ``random`` bots to play it."""
    base = PRESETS[preset]
    if discard_mulligan:
        base = replace(base, mulligan="discard", opening_mode="alternate")
    game = CaravanState.new(SeatRules.both(base), seed=seed)
    return game, (make_bot("random", 0, seed), make_bot("random", 1, seed))
