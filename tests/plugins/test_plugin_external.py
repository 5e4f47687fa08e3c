"""An external program (the JSON-lines bot protocol of docs/bots.md) plays Kuhn poker: through
the bot registry's ``make_seat`` and as an ``exec:`` seat of a tournament. It is sent only what
its seat may see."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import cardtable
from cardtable.agents.registry import make_seat
from cardtable.engine.match import play_match

PROGRAM = Path(__file__).with_name("kuhn_program.py")


def command(log: Path) -> str:
    return f"exec:{shlex.quote(sys.executable)} {shlex.quote(str(PROGRAM))} {shlex.quote(str(log))}"


def received(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text().splitlines()]


def test_a_program_plays_and_sees_only_its_card(tmp_path: Path) -> None:
    game = cardtable.load_game("kuhn_poker")
    for seed in range(6):
        log = tmp_path / f"game-{seed}.log"
        state = game.new_state(seed)
        seats = {"P1": make_seat(game, "equilibrium", "P1", seed),
                 "P2": make_seat(game, command(log), "P2", seed)}
        result = play_match(state, seats)
        assert result.reason in ("showdown", "fold"), result
        messages = received(log)
        hello = messages[0]
        assert (hello["type"], hello["game"], hello["seat"], hello["seats"]) == (
            "hello", "kuhn_poker", "P2", ["P1", "P2"])
        own, other = "JQK"[state.cards[1]], "JQK"[state.cards[0]]
        turns = [message for message in messages if message["type"] == "turn"]
        assert turns, messages
        for turn in turns:
            assert turn["observation"]["card"] == own
            assert turn["observation"]["cards"] == {"P1": None, "P2": own}
            assert turn["legal"] == ["pass", "bet"]
        (end,) = [message for message in messages if message["type"] == "result"]
        assert end["details"]["chips"] == result.details["chips"]
        shown = end["observation"]["cards"]["P1"]
        assert shown == (other if result.reason == "showdown" else None)
        # The program's words (bet, call, check, fold) were read as the notation's actions:
        # P2 acts once, second.
        facing = state.history[0] == "b"
        expected = "b" if own == "K" or (own == "Q" and facing) else "p"
        assert state.history[1] == expected

def test_a_program_takes_a_seat_in_a_tournament(tmp_path: Path) -> None:
    log = tmp_path / "tournament.log"
    out = tmp_path / "games.jsonl"
    done = subprocess.run([sys.executable, "-m", "cardtable.cli.main", "tournament", "kuhn_poker",
                           "--seat", command(log), "--seat", "always-bet", "--games", "10",
                           "--out", str(out)], capture_output=True, text=True, timeout=600,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in out.read_text().splitlines()[1:]]
    assert len(lines) == 10
    assert all(line["result"]["reason"] in ("showdown", "fold") for line in lines)
    # Against always-bet the program calls with K and Q and folds a Jack: never a forfeit.
    assert any(message["type"] == "turn" for message in received(log))
