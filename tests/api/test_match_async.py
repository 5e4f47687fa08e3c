"""The async match loop plays the same game as the plain one, refusals and abandonment included."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import cardtable
from cardtable.engine import (
    AwaitedSeat,
    IllegalAction,
    MatchAbandoned,
    MatchListener,
    play_match,
    play_match_async,
)


class FirstLegal:
    """Plays the first legal action."""

    def __init__(self, state: Any) -> None:
        self.state = state
        self.refusals: list[str] = []

    def choose(self, observation: Any) -> Any:
        return self.state.legal_actions()[0]

    def rejected(self, error: IllegalAction) -> None:
        self.refusals.append(str(error))


class Log(MatchListener):
    def __init__(self) -> None:
        self.lines: list[str] = []

    def on_turn(self, state: Any, seat: str) -> None:
        self.lines.append(f"turn {seat}")

    def on_action(self, state: Any, seat: str, action: Any, event: Any) -> None:
        self.lines.append(f"{seat} {state.action_text(action)}")

    def on_rejected(self, state: Any, seat: str, error: IllegalAction) -> None:
        self.lines.append(f"refused {seat}")

    def on_end(self, state: Any, result: Any) -> None:
        self.lines.append(f"end {result}")


@pytest.mark.parametrize("name", ["caravan", "obsession"])
def test_both_loops_play_the_same_game(name: str) -> None:
    game = cardtable.load_game(name)
    plain_state, async_state = game.new_state(7), game.new_state(7)
    plain_log, async_log = Log(), Log()
    plain = play_match(plain_state, {s: FirstLegal(plain_state) for s in plain_state.seats},
                       (plain_log,))
    seats = {s: AwaitedSeat(FirstLegal(async_state)) for s in async_state.seats}
    awaited = asyncio.run(play_match_async(async_state, seats, (async_log,)))
    assert plain == awaited
    assert plain_log.lines == async_log.lines
    assert plain_state.to_position() == async_state.to_position()


class Awaiting:
    """An async seat fed from a queue, as a web table's person is."""

    def __init__(self, queue: asyncio.Queue[Any]) -> None:
        self.queue = queue
        self.refusals: list[str] = []

    async def choose(self, observation: Any) -> Any:
        item = await self.queue.get()
        if isinstance(item, BaseException):
            raise item
        return item

    def rejected(self, error: IllegalAction) -> None:
        self.refusals.append(str(error))


def test_a_refused_awaited_move_changes_nothing_and_asks_again() -> None:
    state = cardtable.load_game("caravan").new_state(3)
    before = state.to_position()

    async def run() -> tuple[list[str], str]:
        queue: asyncio.Queue[Any] = asyncio.Queue()
        seat = Awaiting(queue)
        seats: dict[str, Any] = {s: AwaitedSeat(FirstLegal(state)) for s in state.seats}
        first = state.to_move
        assert first is not None
        seats[first] = seat
        task = asyncio.create_task(play_match_async(state, seats))
        await queue.put(state.parse_action("D1"))
        await asyncio.sleep(0)
        while not seat.refusals:
            await asyncio.sleep(0)
        position = state.to_position()
        await queue.put(MatchAbandoned(first, "quit"))
        with pytest.raises(MatchAbandoned):
            await task
        return seat.refusals, position

    refusals, position = asyncio.run(run())
    assert len(refusals) == 1 and refusals[0]
    assert position == before
