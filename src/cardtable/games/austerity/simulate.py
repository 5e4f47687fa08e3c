"""Many Austerity games in one process: the hub's game state with the players' strategies, no
pipes.

A game is an :class:`~cardtable.games.austerity.state.AusterityState`, the hub's own, and every
move goes through ``state.apply`` (so it is checked as the hub checks it). Every player's view of
the table equals the state's table (the view is updated from the very broadcasts the hub derives
from its state), so the strategies are asked directly on the state's
:class:`~cardtable.games.austerity.rules.Table`. A game here therefore ends exactly as the same
game run by ``austerity`` with the player programs; the tests compare the transcripts.

The loop is this module's own rather than the engine's ``play_match``, for speed: the match
loop builds each seat's observation and the seat a table from it on every turn, which cost
about 2 to 5 times a turn here and grows with the number of players (docs/austerity.md); the
bots in ``bots.py`` play through ``play_match`` and end every game as this loop does (tested).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardtable.engine.errors import IllegalAction
from cardtable.games.austerity.codec import action_line, newcard_line, winners_text
from cardtable.games.austerity.rules import Card
from cardtable.games.austerity.state import AusterityState
from cardtable.games.austerity.strategies import STRATEGIES

DEFAULT_MAX_TURNS = 100_000
PERMUTE_LIMIT = 100_000
SEATINGS = ("fixed", "rotate", "permute")


class InvalidMove(Exception):
    """A strategy chose a move the hub would refuse (never expected; checked in tests)."""


@dataclass(frozen=True)
class GameResult:
    finished: bool
    turns: int
    points: tuple[int, ...]
    winners: tuple[int, ...]


def play_game(
    deck: list[Card],
    tokens: int,
    points: int,
    lineup: Sequence[str],
    max_turns: int = DEFAULT_MAX_TURNS,
    transcript: list[str] | None = None,
    check: bool = False,
) -> GameResult:
    """Play one game; append the hub's stdout lines to ``transcript`` when given.

    Every move is applied with ``state.apply``, which checks it as the hub does; a refused move
    raises :class:`InvalidMove` (``check`` is kept for callers that asked for the check, which
    is now always made).
    """
    count = len(lineup)
    state = AusterityState(deck, tokens, points, count)
    game = state.game
    table = state.table
    # The strategies ask who can afford which market card: the table's index answers without
    # a scan of the players, so a turn costs the same at 2 or 26 players (see
    # ``Table.track_affordability``).
    table.track_affordability()
    choosers = [STRATEGIES[name] for name in lineup]
    if transcript is not None:
        transcript.extend(newcard_line(card) for card in table.market)
    apply = state.apply
    turns = 0
    while turns < max_turns:
        player = game.current
        action = choosers[player](table, player)
        try:
            drawn = apply(action)
        except IllegalAction as error:
            raise InvalidMove(f"{lineup[player]} as player {player}: {action!r}: {error}") \
                from None
        turns += 1
        if transcript is not None:
            transcript.append(action_line(player, action))
            if drawn is not None:
                transcript.append(newcard_line(drawn))
        if game.finished:
            winners = tuple(table.winners())
            if transcript is not None:
                transcript.append(f"Winner(s) {winners_text(list(winners))}\n")
            return GameResult(True, turns, tuple(table.points), winners)
    return GameResult(False, turns, tuple(table.points), ())


# --- line-ups -------------------------------------------------------------------------------


def distinct_permutations(items: Sequence[str]) -> Iterator[tuple[str, ...]]:
    """Every distinct ordering of ``items`` (a multiset), each exactly once."""
    pool = sorted(items)
    size = len(pool)
    while True:
        yield tuple(pool)
        # Next lexicographic permutation (the classic algorithm; handles repeated names).
        pivot = size - 2
        while pivot >= 0 and pool[pivot] >= pool[pivot + 1]:
            pivot -= 1
        if pivot < 0:
            return
        successor = size - 1
        while pool[successor] <= pool[pivot]:
            successor -= 1
        pool[pivot], pool[successor] = pool[successor], pool[pivot]
        pool[pivot + 1:] = reversed(pool[pivot + 1:])


def count_permutations(items: Sequence[str]) -> int:
    """How many distinct orderings ``items`` has: n! / (product of each name's count!)."""
    total = 1
    seen: dict[str, int] = {}
    for position, name in enumerate(items, start=1):
        seen[name] = seen.get(name, 0) + 1
        total = total * position // seen[name]
    return total


def seatings(lineup: Sequence[str], mode: str) -> list[tuple[str, ...]]:
    """The line-ups played for ``mode``: as given, every rotation, or every distinct ordering."""
    if mode == "fixed":
        return [tuple(lineup)]
    if mode == "rotate":
        return [tuple(lineup[i:]) + tuple(lineup[:i]) for i in range(len(lineup))]
    return list(distinct_permutations(lineup))


# --- statistics -----------------------------------------------------------------------------


@dataclass
class Tally:
    """Results of one strategy (or one seat) over many games."""

    seats: int = 0
    outright: int = 0
    shared: int = 0
    share: float = 0.0
    points: int = 0

    def add(self, points: int, winners: int, won: bool) -> None:
        self.seats += 1
        self.points += points
        if won:
            if winners == 1:
                self.outright += 1
            else:
                self.shared += 1
            self.share += 1 / winners

    def as_dict(self) -> dict[str, Any]:
        return {
            "seats": self.seats,
            "outright_wins": self.outright,
            "shared_wins": self.shared,
            "win_share": round(self.share, 6),
            "mean_points": round(self.points / self.seats, 6) if self.seats else 0.0,
        }


@dataclass
class Summary:
    games: int = 0
    unfinished: int = 0
    turns: int = 0
    elapsed: float = 0.0
    by_strategy: dict[str, Tally] = field(default_factory=dict)
    by_seat: dict[str, Tally] = field(default_factory=dict)

    def add(self, lineup: Sequence[str], result: GameResult) -> None:
        self.games += 1
        self.turns += result.turns
        if not result.finished:
            self.unfinished += 1
            return
        winners = len(result.winners)
        for player, name in enumerate(lineup):
            won = player in result.winners
            self.by_strategy.setdefault(name, Tally()).add(result.points[player], winners, won)
            seat = chr(65 + player)
            self.by_seat.setdefault(seat, Tally()).add(result.points[player], winners, won)

    def as_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "unfinished": self.unfinished,
            "turns": self.turns,
            "elapsed_seconds": round(self.elapsed, 6),
            "turns_per_second": round(self.turns / self.elapsed, 1) if self.elapsed else 0.0,
            "games_per_second": round(self.games / self.elapsed, 1) if self.elapsed else 0.0,
            "strategies": {name: tally.as_dict() for name, tally in self.by_strategy.items()},
            "seats": {seat: tally.as_dict() for seat, tally in self.by_seat.items()},
        }

    def table(self) -> str:
        """The report as aligned text."""
        lines = [
            f"games {self.games}, unfinished {self.unfinished}, turns {self.turns}, "
            f"elapsed {self.elapsed:.3f} s, "
            f"{self.turns / self.elapsed if self.elapsed else 0:,.0f} turns/s, "
            f"{self.games / self.elapsed if self.elapsed else 0:,.1f} games/s",
        ]
        for title, tallies in (("strategy", self.by_strategy), ("seat", self.by_seat)):
            lines.append("")
            lines.append(f"{title:<8} {'seats':>8} {'outright':>9} {'shared':>8} "
                         f"{'win share':>10} {'share %':>8} {'mean pts':>9}")
            for name in sorted(tallies):
                tally = tallies[name]
                percent = 100 * tally.share / tally.seats if tally.seats else 0.0
                mean = tally.points / tally.seats if tally.seats else 0.0
                lines.append(f"{name:<8} {tally.seats:>8} {tally.outright:>9} {tally.shared:>8} "
                             f"{tally.share:>10.2f} {percent:>7.1f}% {mean:>9.2f}")
        return "\n".join(lines) + "\n"


def plan(
    decks: Sequence[list[Card]],
    tokens: Sequence[range],
    points: Sequence[range],
    lineups: Sequence[tuple[str, ...]],
) -> Iterator[tuple[list[Card], int, int, tuple[str, ...]]]:
    """Every game to play: deck x tokens x points x seating, in that nesting order.

    Ranges are walked lazily (``itertools.product`` would copy a range of a billion values).
    """
    for deck in decks:
        for token_range in tokens:
            for token_count in token_range:
                for point_range in points:
                    for target in point_range:
                        for lineup in lineups:
                            yield deck, token_count, target, lineup


def plan_size(
    decks: Sequence[list[Card]],
    tokens: Sequence[range],
    points: Sequence[range],
    lineups: Sequence[tuple[str, ...]],
) -> int:
    return (len(decks) * sum(len(r) for r in tokens) * sum(len(r) for r in points)
            * len(lineups))


def run(
    games: Iterable[tuple[list[Card], int, int, tuple[str, ...]]],
    max_turns: int = DEFAULT_MAX_TURNS,
    on_game: Callable[[], None] | None = None,
) -> Summary:
    """Play every planned game and tally the results; ``on_game()`` is called after each."""
    summary = Summary()
    started = time.perf_counter()
    for deck, tokens, points, lineup in games:
        summary.add(lineup, play_game(deck, tokens, points, lineup, max_turns))
        if on_game is not None:
            on_game()
    summary.elapsed = time.perf_counter() - started
    return summary
