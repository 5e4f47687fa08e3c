"""``cardtable tournament`` through real processes: output, resume, jobs, bad input."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from cardtable.engine.game_registry import names
from waiting import wait_until

COMMAND = [sys.executable, "-m", "cardtable.cli.main", "tournament"]
RULE_BOTS = ["--seat", "random", "--seat", "normal", "--seat", "friendly"]


def run(*args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    # A bound against a hung command only: on a shared, loaded machine a run of a few thousand
    # games can take minutes of wall-clock time.
    return subprocess.run([*COMMAND, *args], capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL)


def games_in(path: Path) -> list[dict[str, Any]]:
    """The game lines of a results file, without their wall-clock times, in a fixed order."""
    lines = [json.loads(line) for line in path.read_text().splitlines()[1:]]
    for line in lines:
        del line["time"]
    return sorted(lines, key=lambda line: (line["deal"], line["seats"]))


def without_times(summary: dict[str, Any]) -> dict[str, Any]:
    summary = dict(summary)
    del summary["seconds_per_game"]
    return summary


def test_json_summary_shape() -> None:
    done = run("caravan", *RULE_BOTS, "--games", "6", "--json")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    summary = json.loads(done.stdout)
    assert summary["games"] == summary["planned"] == 18
    names = [player["name"] for player in summary["players"]]
    assert names == ["random", "normal", "friendly"]
    for player in summary["players"]:
        assert {"name", "games", "wins", "draws", "losses", "win_rate", "ci95", "elo",
                "elo_ci95"} <= set(player)
        assert player["games"] == 12 == player["wins"] + player["draws"] + player["losses"]
        low, high = player["ci95"]
        assert low <= player["win_rate"] <= high
        elo_low, elo_high = player["elo_ci95"]
        assert elo_low < player["elo"] < elo_high
        assert player["first_seat_games"] == 6
    assert sum(player["elo"] for player in summary["players"]) == pytest.approx(0, abs=0.05)
    assert len(summary["pairings"]) == 3


def test_text_summary_and_plot(tmp_path: Path) -> None:
    plot = tmp_path / "ratings.png"
    done = run("caravan", "--seat", "random", "--seat", "normal", "--games", "4",
               "--plot", str(plot))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("caravan: 4 of 4 games")
    assert "Elo (95% CI)" in done.stdout
    assert "random vs normal: 4 games" in done.stdout
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_multi_player_obsession_gets_openskill_ratings(tmp_path: Path) -> None:
    done = run("obsession", "--seat", "obsessed", "--seat", "random", "--seat", "random",
               "--games", "3", "--json", "--plot", str(tmp_path / "os.png"))
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["players_per_game"] == 3
    assert [player["name"] for player in summary["players"]] == ["obsessed", "random",
                                                                  "random#2"]
    for player in summary["players"]:
        assert player["elo"] is None
        assert set(player["openskill"]) == {"mu", "sigma", "ordinal"}
        assert player["games"] == 3
        assert 1 <= player["mean_place"] <= 3


def test_jobs_2_plays_the_same_games_as_jobs_1(tmp_path: Path) -> None:
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    first = run("caravan", *RULE_BOTS, "--games", "12", "--out", str(one), "--json")
    second = run("caravan", *RULE_BOTS, "--games", "12", "--out", str(two), "--json",
                 "--jobs", "2")
    assert first.returncode == second.returncode == 0, second.stderr
    assert games_in(one) == games_in(two)
    assert len(games_in(one)) == 36
    assert without_times(json.loads(first.stdout)) == without_times(json.loads(second.stdout))


def test_jobs_2_plays_the_same_shuffled_austerity_deals_as_jobs_1(tmp_path: Path) -> None:
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    seats = ["--seat", "shenzi", "--seat", "banzai", "--seat", "ed", "--players", "2"]
    first = run("austerity", *seats, "--games", "20", "--out", str(one), "--json")
    second = run("austerity", *seats, "--games", "20", "--out", str(two), "--json",
                 "--jobs", "2")
    assert first.returncode == second.returncode == 0, second.stderr
    assert json.loads(one.read_text().splitlines()[0])["params"]["deal"] == "shuffled"
    assert games_in(one) == games_in(two)
    assert len(games_in(one)) == 60
    assert len({str(line["details"]) for line in games_in(one)}) > 10
    assert without_times(json.loads(first.stdout)) == without_times(json.loads(second.stdout))


def test_rerun_skips_games_already_played_and_extends(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    assert run("caravan", *RULE_BOTS, "--games", "4", "--out", str(out)).returncode == 0
    before = out.read_text()
    again = run("caravan", *RULE_BOTS, "--games", "4", "--out", str(out), "--json")
    assert again.returncode == 0
    assert out.read_text() == before
    assert json.loads(again.stdout)["games"] == 12
    more = run("caravan", *RULE_BOTS, "--games", "8", "--out", str(out), "--json")
    assert json.loads(more.stdout)["games"] == 24
    assert out.read_text().startswith(before)
    fresh = tmp_path / "fresh.jsonl"
    run("caravan", *RULE_BOTS, "--games", "8", "--out", str(fresh))
    assert games_in(out) == games_in(fresh)


def test_a_cut_last_line_is_dropped_and_played_again(tmp_path: Path) -> None:
    out = tmp_path / "cut.jsonl"
    run("caravan", "--seat", "random", "--seat", "normal", "--games", "6", "--out", str(out))
    whole = games_in(out)
    text = out.read_text()
    out.write_text(text[: len(text) - 40])  # a stop in the middle of the last line
    done = run("caravan", "--seat", "random", "--seat", "normal", "--games", "6", "--out",
               str(out))
    assert done.returncode == 0, done.stderr
    assert games_in(out) == whole
    assert len(out.read_text().splitlines()) == 7


def test_ctrl_c_keeps_finished_games_and_the_same_command_resumes(tmp_path: Path) -> None:
    out, reference = tmp_path / "int.jsonl", tmp_path / "ref.jsonl"
    args = ["caravan", *RULE_BOTS, "--games", "30", "--jobs", "2", "--out"]
    process = subprocess.Popen([*COMMAND, *args, str(out)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL)
    wait_until(lambda: out.exists() and len(out.read_bytes().splitlines()) > 10,
               "more than 10 finished games", timeout=300)
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=300)
    assert process.returncode == 130, stderr
    assert stderr.startswith("cardtable tournament: Interrupted: ")
    assert "run the same command again to resume" in stderr
    assert "Traceback" not in stderr
    assert stdout == ""
    kept = games_in(out)
    assert 10 <= len(kept) < 90
    resumed = run(*args, str(out), "--json")
    assert resumed.returncode == 0, resumed.stderr
    assert run(*args[:-3], "--out", str(reference)).returncode == 0
    assert games_in(out) == games_in(reference)
    assert json.loads(resumed.stdout)["games"] == 90


def test_sprt_stops_early_at_the_same_game_whatever_the_jobs(tmp_path: Path) -> None:
    args = ["caravan", "--seat", "normal", "--seat", "random", "--games", "2000",
            "--sprt", "0,100", "--json"]
    one, two = run(*args), run(*args, "--jobs", "2")
    assert one.returncode == two.returncode == 0, two.stderr
    summary = json.loads(one.stdout)
    assert summary["stopped"] == "sprt"
    assert summary["sprt"]["verdict"] == "H1"
    assert summary["sprt"]["llr"] >= summary["sprt"]["bounds"][1]
    assert summary["games"] < 200
    assert without_times(json.loads(two.stdout)) == without_times(summary)


@pytest.mark.parametrize(("args", "status", "message"), [
    (["chess", "--seat", "a", "--seat", "b", "--games", "2"], 1,
     f"Unknown game 'chess' (allowed: {', '.join(names())})."),
    (["caravan", "--seat", "random", "--seat", "deep-blue", "--games", "2"], 1,
     "Unknown bot 'deep-blue' for caravan"),
    (["caravan", "--seat", "random", "--seat", "normal:depth=3", "--games", "2"], 1,
     "The bot 'normal' takes no option 'depth'."),
    (["caravan", "--seat", "random", "--seat", "normal", "--games", "0"], 1,
     "--games must be at least 1 (got 0)."),
    (["caravan", "--seat", "random", "--seat", "normal", "--games", "99999999"], 1,
     "--games 99999999 makes 100,000,000 games; at most 10,000,000 in one tournament."),
    (["caravan", "--seat", "random", "--seat", "normal", "--games", "2", "--jobs", "0"], 1,
     "--jobs must be from 1 to 256 (got 0)."),
    (["caravan", "--seat", "random", "--seat", "normal", "--games", "x"], 1,
     "Argument --games: invalid int value: 'x'."),
    (["caravan", "--seat", "random", "--games", "2"], 1,
     "A tournament needs at least two --seat options."),
    (["caravan", "--seat", "random", "--seat", "normal", "--games", "2", "--sprt", "50,0"], 1,
     "--sprt takes ELO0,ELO1 with ELO0 < ELO1, such as 0,50 (got '50,0')."),
    (["caravan", "--seat", "random", "--seat", "normal", "--games", "2", "--sprt", "x"], 1,
     "--sprt takes ELO0,ELO1"),
    (["caravan", *RULE_BOTS, "--games", "2", "--sprt", "0,50"], 1,
     "--sprt tests one seat against another"),
    (["caravan", "--seat", "random", "--seat", "normal", "--games", "2", "--rules", "nope"], 1,
     "nope"),
    (["caravan", "--seat", "random", "--seat", "normal", "--games", "2", "--players", "3"], 1,
     "Caravan is a two-player game"),
    (["obsession", "--seat", "random", "--seat", "obsessed", "--games", "2", "--players", "4"],
     1, "A 4-player game needs at least 4 --seat options (got 2)."),
    (["obsession", "--seat", "random", "--seat", "obsessed", "--games", "2", "--rules", "nv"],
     1, "--rules is a Caravan option, not one of obsession."),
    (["austerity", "--seat", "shenzi", "--seat", "ed", "--games", "2", "--deal", "sorted"], 1,
     "--deal must be file or shuffled (got 'sorted')"),
    (["caravan", "--seat", "random", "--seat", "normal", "--games", "2", "--deal", "file"], 1,
     "--deal is an Austerity option, not one of caravan."),
    (["austerity", "--seat", "shenzi", "--seat", "ed", "--games", "2", "--points", "-1"], 1,
     "--points must be an integer >= 0 (got '-1')"),
    (["obsession", "--seat", "random", "--seat", "obsessed", "--games", "2", "--humans", "1"],
     1, "Unrecognized arguments: --humans 1."),
    (["caravan", "--seat", "random", "--seat", "normal", "--games", "2", "--stuck-plies", "0"],
     1, "--stuck-plies must be an integer >= 1 or none (got '0')"),
    (["caravan", "--seat", "random", "--seat", "normal", "--games", "2", "--gauntlet", "x"], 1,
     "--gauntlet 'x' is none of the seats (random, normal)."),
    (["caravan", "--seat", "random", "--seat", "normal", "--games", "2", "--out", "/"], 2,
     "Cannot write results file '/': it is a directory."),
    (["caravan", "--seat", "random", "--seat", "normal", "--games", "2", "--out",
      "/no/such/folder/r.jsonl"], 2, "Cannot write results file '/no/such/folder/r.jsonl': no "
     "folder"),
    (["caravan", "--seat", "random", "--seat", "normal", "--games", "2", "--backend", "ray",
      "--address", "127.0.0.1:1"], 2, "Cannot reach a Ray cluster at '127.0.0.1:1': "),
])
def test_bad_input_is_one_line_and_a_documented_status(args: list[str], status: int,
                                                        message: str) -> None:
    done = run(*args)
    assert done.returncode == status, done.stderr
    assert done.stdout == ""
    assert done.stderr.startswith("cardtable tournament: ")
    assert message in done.stderr
    assert done.stderr.count("\n") == 1


def test_a_results_file_of_another_tournament_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "other.jsonl"
    run("caravan", "--seat", "random", "--seat", "normal", "--games", "2", "--out", str(out))
    before = out.read_text()
    for args in (["--seat", "random", "--seat", "friendly"], ["--seed", "9"],
                 ["--rules", "nv"]):
        base = ["--seat", "random", "--seat", "normal"] if "--seat" not in args else []
        done = run("caravan", *base, *args, "--games", "2", "--out", str(out))
        assert done.returncode == 2
        assert "holds a tournament with " in done.stderr
        assert done.stderr.count("\n") == 1
    assert out.read_text() == before
    (tmp_path / "notes.txt").write_text("hello\n")
    done = run("caravan", "--seat", "random", "--seat", "normal", "--games", "2", "--out",
               str(tmp_path / "notes.txt"))
    assert done.returncode == 2
    assert "is not a tournament results file." in done.stderr


def test_no_progress_bar_when_standard_error_is_not_a_terminal() -> None:
    done = run("caravan", "--seat", "random", "--seat", "normal", "--games", "20")
    assert done.returncode == 0
    assert done.stderr == ""


def test_progress_bar_on_a_terminal() -> None:
    import pty

    leader, follower = pty.openpty()
    env = {**os.environ, "COLUMNS": "100"}
    process = subprocess.Popen([*COMMAND, "caravan", *RULE_BOTS, "--games", "40"],
                               stdout=subprocess.DEVNULL, stderr=follower,
                               stdin=subprocess.DEVNULL, env=env)
    os.close(follower)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    process.wait(timeout=60)
    os.close(leader)
    assert process.returncode == 0
    assert b"games" in seen and b"/s" in seen and b"ETA" in seen


def test_gauntlet_plays_one_seat_against_the_rest() -> None:
    done = run("caravan", *RULE_BOTS, "--games", "4", "--gauntlet", "normal", "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert [(pair["a"], pair["b"]) for pair in summary["pairings"]] == [
        ("random", "normal"), ("normal", "friendly")]
    games = {player["name"]: player["games"] for player in summary["players"]}
    assert games == {"random": 4, "normal": 8, "friendly": 4}


def _children(pid: int) -> list[int]:
    """The processes ``pid`` started (Linux's /proc)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(child) for child in (task / "children").read_text().split()]
    return found


def _started(pid: int) -> str | None:
    """When process ``pid`` started, or None when it is gone (a zombie is gone too)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return None
    return None if fields[0] == "Z" else fields[19]


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux's /proc")
@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGHUP])
def test_sigterm_and_sighup_end_every_worker_and_keep_the_games(tmp_path: Path,
                                                                 number: int) -> None:
    out = tmp_path / "stopped.jsonl"
    args = ["caravan", *RULE_BOTS, "--games", "2000", "--jobs", "2", "--out", str(out)]
    process = subprocess.Popen([*COMMAND, *args], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL)
    workers: dict[int, str | None] = {}
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:  # games written: the workers are playing
            # The header, 20 games and perhaps a line being written.
            if out.exists() and len(out.read_bytes().splitlines()) > 21:
                workers = {pid: _started(pid) for pid in _children(process.pid)}
                break
            time.sleep(0.02)
        assert len(workers) == 2, "the workers never started"
        process.send_signal(number)
        stdout, stderr = process.communicate(timeout=60)
        assert process.returncode == 128 + number, stderr
        name = signal.Signals(number).name
        assert stderr.startswith(f"cardtable tournament: Interrupted by {name}: ")
        assert "run the same command again to resume" in stderr
        assert stderr.count("\n") == 1, stderr
        assert stdout == ""
        wait_until(lambda: not [pid for pid, started in workers.items()
                                if _started(pid) == started], "the workers to end")
        assert len(games_in(out)) >= 20
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        for pid, started in workers.items():
            if started is not None and _started(pid) == started:
                os.kill(pid, signal.SIGKILL)
