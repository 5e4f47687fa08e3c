"""The Ray backend on a local Ray instance: the same games as local processes.

Ray starts slowly (seconds), so these tests are few and small.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import ray

from cardtable.tournament.backends import InProcess
from cardtable.tournament.ray_backend import RayBackend
from cardtable.tournament.runner import run
from cardtable.tournament.schedule import Config, Entrant


@pytest.fixture(scope="module")
def local_ray() -> Iterator[Any]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def _without_times(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{key: value for key, value in line.items() if key != "time"} for line in lines]


def test_ray_plays_the_same_games_as_local(local_ray: Any, tmp_path: Path) -> None:
    config = Config("obsession", {"players": 3}, 3,
                    (Entrant("obsessed", "obsessed"), Entrant("random", "random"),
                     Entrant("random#2", "random")), None, 5)
    out = tmp_path / "ray.jsonl"
    remote = run(config, 6, RayBackend(2, None), out)
    local = run(config, 6, InProcess())
    assert remote.played == len(remote.lines) == 6
    assert _without_times(remote.lines) == _without_times(local.lines)
    summary = dict(remote.summary)
    expected = dict(local.summary)
    del summary["seconds_per_game"], expected["seconds_per_game"]
    assert summary == expected
    assert len(out.read_text().splitlines()) == 7
    assert local_ray.is_initialized()  # a cluster it did not start is left running


def test_the_command_starts_and_stops_its_own_local_ray(tmp_path: Path) -> None:
    args = [sys.executable, "-m", "cardtable.cli.main", "tournament", "caravan",
            "--seat", "random", "--seat", "normal", "--games", "10", "--json"]
    remote = subprocess.run([*args, "--backend", "ray", "--jobs", "2"], capture_output=True,
                            text=True, timeout=300, stdin=subprocess.DEVNULL)
    local = subprocess.run(args, capture_output=True, text=True, timeout=60,
                           stdin=subprocess.DEVNULL)
    assert remote.returncode == 0, remote.stderr
    one, two = json.loads(remote.stdout), json.loads(local.stdout)
    del one["seconds_per_game"], two["seconds_per_game"]
    assert one == two
