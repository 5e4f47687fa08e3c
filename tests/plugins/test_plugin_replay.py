"""Kuhn poker's records: a web table's record, in the one record format (its rules, seed,
seats, an action line per move and the result), replays with the generic ``cardtable replay
FILE``, and an edited record is refused at the line that does not fit."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from cardtable.engine.game_registry import description
from cardtable.engine.record_replay import replay_record
from waiting import wait_until
from web_browser.conftest import Server, running_server

REPLAY = [sys.executable, "-m", "cardtable.cli.main", "replay"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from running_server(tmp_path_factory)


def call(server: Server, path: str, body: dict[str, Any] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(server.base + path, data=data,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        text = answer.read().decode()
    return json.loads(text) if answer.headers.get_content_type() == "application/json" else text


@pytest.fixture(scope="module")
def record(server: Server, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The record of a finished web table of two bots."""
    table = call(server, "/api/tables", {"game": "kuhn_poker",
                                         "seats": ["bot:equilibrium", "bot:random"]})["table"]
    wait_until(lambda: call(server, f"/api/tables/{table}")["status"] == "finished",
               "the bots' game to end")
    path = tmp_path_factory.mktemp("record") / "kuhn.jsonl"
    path.write_text(call(server, f"/api/tables/{table}/record"), encoding="utf-8")
    return path


def test_the_record_is_the_one_format(record: Path) -> None:
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    header, *actions, result = lines
    assert (header["type"], header["game"], header["rules"]) == ("header", "kuhn_poker", {})
    assert [seat["seat"] for seat in header["seats"]] == ["P1", "P2"]
    assert actions and all(line["type"] == "action" and line["action"] in ("pass", "bet")
                           for line in actions)
    assert result["type"] == "result" and sum(result["details"]["chips"]) == 0


def test_the_record_replays_through_the_description(record: Path) -> None:
    text = record.read_text()
    replayed = replay_record(description("kuhn_poker"), str(record), text.splitlines())
    final = json.loads(text.splitlines()[-1])
    assert replayed.result is not None
    assert list(replayed.result.winners) == final["winners"]
    assert replayed.result.details["chips"] == final["details"]["chips"]


def test_cardtable_replay_shows_the_record(record: Path) -> None:
    done = subprocess.run([*REPLAY, str(record)], capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    final = json.loads(record.read_text().splitlines()[-1])
    assert final["reason"] in done.stdout, done.stdout


def test_an_edited_record_is_refused_in_one_line(record: Path, tmp_path: Path) -> None:
    lines = record.read_text().splitlines()
    first = json.loads(lines[1])
    first["action"] = "pass" if first["action"] == "bet" else "bet"  # another game follows
    edited = tmp_path / "edited.jsonl"
    edited.write_text("\n".join([lines[0], json.dumps(first), *lines[2:]]) + "\n")
    done = subprocess.run([*REPLAY, str(edited)], capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL)
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    assert f"Replay '{edited}', line " in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
