"""Delays between bot moves are a listener of the match loop (``engine.match.BotPause``)."""

from __future__ import annotations

import io

from cardtable.engine.match import BotPause, play_match
from cardtable.games.caravan.bots import make_bot
from cardtable.games.caravan.rules import SeatRules
from cardtable.games.caravan.state import CaravanState
from cardtable.ui.plain.caravan import PlainCaravan
from cardtable.ui.plain.console import Console


def test_the_pause_comes_before_each_bot_move_only() -> None:
    game = CaravanState.new(SeatRules.preset("power"), seed=3)
    slept: list[tuple[float, int]] = []
    pause = BotPause(["DEF"], 0.25, lambda seconds: slept.append((seconds, game.plies)))
    bots = {"ABC": make_bot("random", 0, 3), "DEF": make_bot("random", 1, 3)}
    play_match(game, bots, (pause,))
    def_moves = [ply for ply, entry in enumerate(game.history, 0) if entry.seat == 1]
    assert [seconds for seconds, _ in slept] == [0.25] * len(def_moves)
    assert [ply for _, ply in slept] == def_moves  # asked before each DEF move, none else
    silent = BotPause(["ABC", "DEF"], 0.0, lambda seconds: slept.append((seconds, -1)))
    play_match(CaravanState.new(SeatRules.preset("power"), seed=4),
               {"ABC": make_bot("random", 0, 4), "DEF": make_bot("random", 1, 4)}, (silent,))
    assert all(ply != -1 for _, ply in slept)


def test_the_line_mode_says_the_bot_is_thinking_then_pauses() -> None:
    out = io.StringIO()
    said: list[str] = []

    class Recording(Console):
        def say(self, text: str = "") -> None:
            said.append(text)
            super().say(text)

    console = Recording(stdin=io.StringIO(""), stdout=out)
    pauses: list[int] = []
    shell = PlainCaravan(console, (False, False), delay=0.5,
                         sleep=lambda seconds: pauses.append(len(said)))
    game = CaravanState.new(SeatRules.preset("power"), seed=3)
    seats = {"ABC": shell.bot(make_bot("random", 0, 3)), "DEF": shell.bot(make_bot("random", 1, 3))}
    assert shell.play(game, seats) == 0
    assert game.result is not None and len(pauses) == game.plies
    for count in pauses:  # each pause right after the "thinking" line
        assert said[count - 1].endswith("is thinking...")
