"""``cardtable bench ismcts`` and ``cardtable bench austerity``: a bad option is one error
line and status 1, as every command's (README, "Errors and limits"); a budget that would never
end is refused."""

from __future__ import annotations

import pytest

from .helpers import one_error_line, run


@pytest.mark.parametrize(("bench", "args", "message"), [
    ("ismcts", ["--bogus"], "unrecognized arguments: --bogus"),
    ("ismcts", ["--iters", "x"], "argument --iters: invalid int value: 'x'"),
    ("ismcts", ["--iters", "0"], "--iters must be from 1 to 1000000 (got 0)"),
    ("ismcts", ["--iters", "1" + "0" * 23],
     f"--iters must be from 1 to 1000000 (got 1{'0' * 23})"),
    ("ismcts", ["--positions", "0"], "--positions must be from 1 to 10000 (got 0)"),
    ("ismcts", ["--seed", "-1"], "--seed must be 0 or more (got -1)"),
    ("austerity", ["--bogus"], "the following arguments are required: --deck"),
    ("austerity", ["--deck", "d", "--runs", "x"], "argument --runs: invalid int value: 'x'"),
])
def test_a_bad_benchmark_option_is_one_line_and_status_1(bench: str, args: list[str],
                                                        message: str) -> None:
    done = run("cardtable", "bench", bench, *args)
    assert done.returncode == 1
    assert done.stdout == b""
    assert one_error_line(done, f"cardtable bench {bench}") == message


@pytest.mark.parametrize("spec", ["ismcts:iters=" + "1" * 24, "ismcts:time=1e308",
                                  "ismcts:time=61", "omniscient:iters=1000001"])
def test_a_search_budget_that_never_ends_is_refused_before_playing(spec: str) -> None:
    done = run("cardtable", "tournament", "caravan", "--seat", spec, "--seat", "random",
               "--games", "2")
    assert done.returncode == 1
    assert done.stdout == b""
    assert "(expected " in one_error_line(done, "cardtable tournament")


def test_a_game_without_a_benchmark_says_so_in_one_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    from cardtable.cli.bench import main
    from generic_table.nim import registered

    with registered():
        assert main(["test_nim"]) == 1
        assert capsys.readouterr().err == (
            "cardtable bench: the game 'test_nim' has no benchmark (benchmarks: caravan, "
            "obsession, austerity, ismcts, env, web).\n")
        assert main(["--help"]) == 0
        assert "test_nim" not in capsys.readouterr().out


def test_a_games_benchmark_is_the_one_its_description_names(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from cardtable.cli.bench import main
    from generic_table.nim import NIM, registered

    ran: list[list[str]] = []
    monkeypatch.setattr(NIM, "bench", f"{__name__}:fake_bench", raising=False)
    monkeypatch.setitem(globals(), "fake_bench", lambda argv: ran.append(argv) or 0)
    with registered():
        assert main(["test_nim", "--games", "2"]) == 0
    assert ran == [["--games", "2"]]
