"""Both full-screen apps play through the engine's ``play_match_async``: a listener added to
the match hears every action the game applies, every refusal, the end or the abandonment, and
the record written on the screen holds the same actions."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from cardtable.engine.errors import IllegalAction
from cardtable.engine.match import AwaitedSeat, MatchAbandoned, MatchListener, play_match_async
from cardtable.engine.protocol import GameState, Result
from cardtable.games.caravan.rules import SeatRules
from cardtable.games.obsession.rules import Rules
from cardtable.ui.tui import caravan_app, obsession_app
from cardtable.ui.tui.caravan_app import CaravanApp
from cardtable.ui.tui.common import ConfirmQuit
from cardtable.ui.tui.obsession_app import ObsessionApp
from cardtable.ui.tui.screen_match import Answer, ScreenMatch

from .pilot import type_line
from .test_caravan_tui import play_whole_game, settle, until_over
from .test_obsession_tui import play_out
from .test_obsession_tui import settle as settle_obsession

POWER = SeatRules.preset("power")


class Heard(MatchListener):
    """Everything a listener of the screen's match hears."""

    def __init__(self) -> None:
        self.turns: list[str] = []
        self.actions: list[tuple[str, str]] = []
        self.refusals: list[str] = []
        self.ended: Result | None = None
        self.abandoned: MatchAbandoned | None = None

    def on_turn(self, state: GameState[Any, Any], seat: str) -> None:
        self.turns.append(seat)

    def on_action(self, state: GameState[Any, Any], seat: str, action: Any, event: Any) -> None:
        self.actions.append((seat, str(action)))

    def on_rejected(self, state: GameState[Any, Any], seat: str, error: IllegalAction) -> None:
        self.refusals.append(error.message)

    def on_end(self, state: GameState[Any, Any], result: Result) -> None:
        self.ended = result

    def on_abandon(self, state: GameState[Any, Any], abandoned: MatchAbandoned) -> None:
        self.abandoned = abandoned


def spy(monkeypatch: pytest.MonkeyPatch, module: Any) -> list[tuple[Any, Heard]]:
    """Wrap ``module.play_match_async`` to add a :class:`Heard` listener to each match."""
    calls: list[tuple[Any, Heard]] = []

    def wrapped(state: Any, seats: Any, listeners: tuple[MatchListener, ...] = ()) -> Any:
        heard = Heard()
        calls.append((state, heard))
        return play_match_async(state, seats, (*listeners, heard))

    monkeypatch.setattr(module, "play_match_async", wrapped)
    return calls


# --- Caravan ---------------------------------------------------------------------------------


def test_caravan_human_against_a_bot_plays_the_whole_game_through_the_match_loop(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, brisk_keys: None) -> None:
    calls = spy(monkeypatch, caravan_app)
    record = tmp_path / "game.jsonl"

    async def scenario() -> CaravanApp:
        app = CaravanApp(POWER, ("human", "bot:normal"), 7, 0, 0.0, None, str(record), True)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await type_line(pilot, "D1")  # a move, but not one the Start round allows
            await settle(app, pilot)
            await play_whole_game(app, pilot)
        return app

    app = asyncio.run(scenario())
    assert len(calls) == 1
    state, heard = calls[0]
    assert state is app.game and app.game.result is not None
    assert heard.refusals == ["A player cannot discard a card during the Start round."]
    assert len(heard.actions) == app.game.plies == len(heard.turns)  # a refusal: same turn
    assert {seat for seat, _ in heard.actions} == {"ABC", "DEF"}
    assert heard.ended == app.game.result and heard.abandoned is None
    lines = [json.loads(line) for line in record.read_text(encoding="utf-8").splitlines()]
    assert [f"{line['seat']}:{line['action']}" for line in lines if line["type"] == "action"] == [
        move for _, move in heard.actions]
    assert lines[-1]["type"] == "result"


def test_caravan_bots_only_game_and_the_stalemate_come_through_the_match_loop(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from dataclasses import replace

    calls = spy(monkeypatch, caravan_app)

    async def scenario() -> CaravanApp:
        rules = replace(SeatRules.preset("foxon"), stuck_plies=30)
        app = CaravanApp(rules, ("bot:normal", "bot:normal"), 4, 0, 0.0, None, None, True)
        async with app.run_test(size=(100, 30)) as pilot:
            await until_over(app, pilot, 400)
        return app

    app = asyncio.run(scenario())
    (state, heard), = calls
    assert state is app.game and len(heard.actions) == app.game.plies
    result = app.game.result
    assert heard.ended == result and result is not None
    assert result.details["cause"] == "stalemate"


def test_caravan_quit_reaches_the_listeners_as_an_abandoned_match(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = spy(monkeypatch, caravan_app)
    record = tmp_path / "quit.jsonl"

    async def scenario() -> CaravanApp:
        app = CaravanApp(POWER, ("human", "bot:normal"), 7, 0, 0.0, None, str(record), True)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await type_line(pilot, "P1A")
            await settle(app, pilot)
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, ConfirmQuit)
            await pilot.press("y")
            await pilot.pause()
        return app

    app = asyncio.run(scenario())
    (_, heard), = calls
    assert heard.abandoned is not None
    assert (heard.abandoned.seat, heard.abandoned.cause) == ("ABC", "quit")
    assert heard.ended is None and len(heard.actions) == 2
    last = json.loads(record.read_text(encoding="utf-8").splitlines()[-1])
    assert (last["type"], last["reason"], last["cause"]) == ("result", "abandoned", "quit")
    assert last["details"]["plies"] == 2
    assert app.game.result is not None and app.game.result.reason == "quit"


# --- Obsession -------------------------------------------------------------------------------


def test_obsession_human_and_bots_play_the_whole_game_through_the_match_loop(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, brisk_keys: None) -> None:
    calls = spy(monkeypatch, obsession_app)
    record = tmp_path / "game.jsonl"

    async def scenario() -> ObsessionApp:
        app = ObsessionApp(Rules(players=3), ("human", "obsessed", "random"), 11, 0.0,
                           str(record), ascii_only=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle_obsession(app, pilot)
            await play_out(app, pilot)
        return app

    app = asyncio.run(scenario())
    (state, heard), = calls
    assert state is app.game and app.game.over
    assert heard.ended == app.game.result and heard.abandoned is None
    assert {seat for seat, _ in heard.actions} == {"P1", "P2", "P3"}
    lines = [json.loads(line) for line in record.read_text(encoding="utf-8").splitlines()]
    assert lines[-1]["type"] == "result" and lines[-1]["reason"] != "abandoned"


def test_obsession_refusal_and_quit_reach_the_listeners(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = spy(monkeypatch, obsession_app)
    record = tmp_path / "quit.jsonl"

    async def scenario() -> ObsessionApp:
        app = ObsessionApp(Rules(players=2), ("human", "obsessed"), 4, 0.0, str(record),
                           ascii_only=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle_obsession(app, pilot)
            await type_line(pilot, "1 2 3")  # the swap: keep three cards
            await settle_obsession(app, pilot)
            await pilot.press("escape")
            await pilot.pause()
            await pilot.press("y")
            await pilot.pause()
        return app

    app = asyncio.run(scenario())
    (_, heard), = calls
    assert heard.actions and heard.actions[0][0] == "P1"
    assert heard.abandoned is not None and heard.abandoned.cause == "quit"
    assert not app.game.over
    last = json.loads(record.read_text(encoding="utf-8").splitlines()[-1])
    assert (last["type"], last["reason"], last["cause"]) == ("result", "abandoned", "quit")


# --- the stepper itself ----------------------------------------------------------------------


class Waiting:
    """A seat whose moves the test gives through ``answer``."""

    def __init__(self) -> None:
        self.answer: Answer[Any] | None = None
        self.refused: list[str] = []

    async def choose(self, observation: Any) -> Any:
        self.answer = Answer()
        return await self.answer

    def rejected(self, error: IllegalAction) -> None:
        self.refused.append(error.message)


def test_screen_match_steps_only_when_its_answer_is_given() -> None:
    from cardtable.games.caravan.bots import make_bot
    from cardtable.games.caravan.state import CaravanState

    game = CaravanState.new(POWER, seed=3)
    person = Waiting()
    heard = Heard()
    match = ScreenMatch(play_match_async(game, {"ABC": person,
                                                "DEF": AwaitedSeat(make_bot("normal", 1, 3))},
                                         (heard,)))
    assert not match.running
    match.start()
    assert match.running and match.waiting is person.answer is not None
    first = person.answer
    assert not match.give(Answer(), game.legal_moves()[0])  # not the answer it waits for
    assert game.plies == 0
    assert match.give(first, game.parse_action("D1"))  # refused: asked again
    assert person.refused == ["A player cannot discard a card during the Start round."]
    assert person.answer is not first and game.plies == 0
    assert not match.give(first, game.legal_moves()[0])  # an answer given already
    assert match.give(person.answer, game.legal_moves()[0])
    assert game.plies == 2 and heard.actions[1][0] == "DEF"  # the bot answered at once
    assert match.abandon("ABC", "quit") and not match.running
    assert heard.abandoned is not None and heard.abandoned.cause == "quit"
    assert not match.abandon("ABC", "quit")


def test_screen_match_refuses_a_seat_awaiting_anything_else() -> None:
    from cardtable.games.caravan.state import CaravanState

    class Sleeper:
        async def choose(self, observation: Any) -> Any:
            await asyncio.sleep(0)

        def rejected(self, error: IllegalAction) -> None:
            raise error

    game = CaravanState.new(POWER, seed=3)
    match = ScreenMatch(play_match_async(game, {"ABC": Sleeper(), "DEF": Sleeper()}))
    with pytest.raises(TypeError, match="not an Answer"):
        match.start()
    assert not match.running
