"""The obsession command through its real entry point: options, input, errors, exit status."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .cli_helpers import run


def test_help_names_every_option_and_the_line_mode() -> None:
    done = run(["--help"])
    assert done.returncode == 0
    for option in ("--players", "--humans", "--bot", "--seats", "--run-kill", "--kill-order",
                   "--max-plays", "--repeat-limit", "--seed", "--plain", "--record", "--replay",
                   "--quiet", "--delay", "--version"):
        assert option in done.stdout
    assert "line mode" in done.stdout


def test_version() -> None:
    done = run(["-v"])
    assert done.returncode == 0 and done.stdout.startswith("obsession (cardtable) ")


@pytest.mark.parametrize(("args", "message"), [
    (["--players", "11"], "--players must be an integer from 2 to 10 (got '11')"),
    (["--players", "x"], "--players must be an integer from 2 to 10 (got 'x')"),
    (["--humans", "5"], "--humans must be an integer from 0 to 4 (got '5')"),
    (["--bot", "clever"],
     "Unknown bot 'clever' for obsession (bots: obsessed, random, ismcts, exec)."),
    (["--seats", "human,robot"], "--seats must list human, obsessed, random"),
    (["--seats", "human"], "--seats must name 2 to 10 seats (got 1)"),
    (["--run-kill", "9"], "--run-kill must be an integer from 2 to 8 (got '9')"),
    (["--kill-order", "late"], "--kill-order must be effect-first or kill-first"),
    (["--max-plays", "0"], "--max-plays must be an integer >= 1 (got '0')"),
    (["--repeat-limit", "-1"], "--repeat-limit must be an integer >= 0 (got '-1')"),
    (["--seed", "abc"], "--seed must be an integer >= 0 (got 'abc')"),
    (["--delay", "-2"], "--delay must be a number of seconds from 0 to 86400 (got '-2')"),
    (["--delay", "nan"], "--delay must be a number of seconds from 0 to 86400 (got 'nan')"),
    (["--quiet"], "--quiet is for bots-only games"),
    (["--bogus"], "unrecognized arguments: --bogus"),
    (["--players"], "expected one argument"),
    (["--record", "/nonexistent/dir/r.jsonl", "--humans", "0"],
     "Cannot open record file '/nonexistent/dir/r.jsonl': No such file"),
    (["--replay", "/nonexistent/r.jsonl"], "--replay: cannot read"),
])
def test_invalid_values_give_one_line_and_status_1(args: list[str], message: str) -> None:
    done = run(args)
    assert done.returncode == 1
    assert done.stderr.startswith("obsession: ") and message in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


def test_bots_only_game_reads_nothing_and_ends_with_placings() -> None:
    done = run(["--humans", "0", "--seed", "3"], stdin="")
    assert done.returncode == 0
    out = done.stdout.splitlines()
    assert out[0] == "@@@ Starting a new game with 4 players"
    assert out[-3:] == ["=================", "=== Game Over ===", "================="]
    assert not any(line != line.rstrip() for line in out)


def test_quiet_prints_only_the_final_block() -> None:
    done = run(["--humans", "0", "--seed", "3", "--quiet"])
    assert done.returncode == 0 and done.stdout.splitlines()[0] == "================="
    assert len(done.stdout.splitlines()) == 4 + 4


def test_same_seed_same_transcript() -> None:
    first = run(["--humans", "0", "--seed", "12", "--players", "6", "--bot", "random"])
    second = run(["--humans", "0", "--seed", "12", "--players", "6", "--bot", "random"])
    assert first.stdout == second.stdout


def test_end_of_input_abandons_with_status_3() -> None:
    done = run(["--players", "2", "--seed", "1"], stdin="")
    assert done.returncode == 3
    assert done.stdout.splitlines()[-1] == "!!! End of input, game abandoned"
    assert "Traceback" not in done.stderr


def test_swap_selection_errors_then_a_valid_swap() -> None:
    done = run(["--players", "2", "--seed", "1"], stdin="\nx\n7\n1 1 2\n1 2\n1 2 3\n")
    out = done.stdout
    prompt = "+++ Enter card number(s): "
    # A blank line asks again in silence; a line without a number says what to type.
    assert (f"{prompt}{prompt}!!! Type the numbers of 3 different cards (1 to 6), or help\n"
            f"{prompt}!!! Invalid card selection") in out
    assert f"{prompt}!!! Duplicate card selection" in out
    assert f"{prompt}!!! You must select 3 cards" in out
    assert "*** Starting with Player" in out and done.returncode == 3


def test_play_errors_repeat_the_whole_prompt() -> None:
    # Seed 4: P1 (human) keeps its dealt split; the play prompt comes after the opening.
    # Its hand is 7D 7H 10C on a 9S: "1 3" mixes faces, "5" is out of range.
    done = run(["--players", "2", "--seed", "4", "--bot", "random"], stdin="4 5 6\n1 3\n5\n1\n")
    prompt = "+++ Enter card number(s): "
    assert (f"+++ Select cards from your hand\n{prompt}!!! Invalid selection: cards played "
            "together must share one face\n"
            f"+++ Select cards from your hand\n{prompt}!!! Invalid card selection\n"
            f"{prompt}*** Played a 7D\n") in done.stdout
    assert done.returncode == 3


def test_hot_seat_shows_pass_screens_before_swaps_and_turns() -> None:
    done = run(["--players", "3", "--humans", "2", "--seed", "2"], stdin="\n1 2 3\n\n1 2 3\n")
    out = done.stdout
    assert out.count("+++ Pass to Player 1, press Enter: ") >= 1
    assert "+++ Pass to Player 2, press Enter: " in out


def test_single_human_sees_no_pass_screen() -> None:
    done = run(["--players", "3", "--humans", "1", "--seed", "2"], stdin="1 2 3\n")
    assert "Pass to" not in done.stdout


def test_human_hand_is_listed_and_bot_hands_are_not() -> None:
    done = run(["--players", "2", "--humans", "1", "--seed", "8"], stdin="1 2 3\n")
    boards = done.stdout.split("=== PLAYER ")
    for board in boards[1:]:
        line = next(item for item in board.splitlines() if item.startswith("### Hand:"))
        if board.startswith("1"):
            assert line.count(":") >= 2 or line.endswith("0 cards")
        else:
            assert line.count(":") == 1


def test_cardtable_obsession_is_the_same_command() -> None:
    import subprocess
    import sys
    from pathlib import Path

    cardtable = Path(sys.executable).parent / "cardtable"
    if not cardtable.exists():
        pytest.skip("cardtable script not installed next to the interpreter")
    done = subprocess.run([str(cardtable), "obsession", "--humans", "0", "--seed", "3"],
                          capture_output=True, text=True, check=False, timeout=60)
    assert done.stdout == run(["--humans", "0", "--seed", "3"]).stdout


def test_interrupt_prints_a_message_records_it_and_exits_130(tmp_path: Path) -> None:
    import os
    import signal
    import subprocess

    from .cli_helpers import SCRIPT

    if not SCRIPT.exists() or os.name == "nt":
        pytest.skip("needs the installed script and POSIX signals")
    record = tmp_path / "game.jsonl"
    process = subprocess.Popen([str(SCRIPT), "--players", "2", "--seed", "1", "--record",
                                str(record)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    assert process.stdout is not None
    seen = ""
    while not seen.endswith("+++ Enter card number(s): "):
        char = process.stdout.read(1)
        assert char, "the game ended before asking"
        seen += char
    process.send_signal(signal.SIGINT)
    rest, errors = process.communicate(timeout=30)
    assert process.returncode == 130
    assert rest.splitlines()[-1] == "!!! Interrupted" and "Traceback" not in errors
    last = json.loads(record.read_text(encoding="utf-8").splitlines()[-1])
    assert (last["type"], last["reason"], last["cause"]) == ("result", "abandoned", "interrupt")


def bench_rows(output: str) -> list[list[str]]:
    """The table rows of the bench output (lines that start with a seat count)."""
    return [line.split() for line in output.splitlines() if line[:7].strip().isdigit()]


def test_bench_command_prints_rates_for_2_and_4_players() -> None:
    import subprocess
    import sys

    from cardtable.games.obsession import fast
    from cardtable.games.obsession.bench import main as bench_main

    cardtable = Path(sys.executable).parent / "cardtable"
    if cardtable.exists():
        done = subprocess.run([str(cardtable), "bench", "obsession", "--games", "3",
                               "--repeats", "1"], capture_output=True, text=True, check=False,
                              timeout=120)
        assert done.returncode == 0
        rows = bench_rows(done.stdout)
        # With the core: its complete games, then the pure Python fast path.
        sections = 2 if fast.available() else 1
        assert [row[0] for row in rows] == ["2", "4"] * sections
        assert all(float(row[1]) > 0 and float(row[2]) > 0 for row in rows)
        engine = "compiled core" if fast.available() else "pure Python"
        assert done.stdout.splitlines()[1].startswith(f"engine: {engine}")
    assert bench_main(["--players", "11"]) == 1
    assert bench_main(["--games", "0"]) == 1
    assert bench_main(["--players", "2,x"]) == 1
    assert bench_main(["--seed", "-1"]) == 1
    assert bench_main(["--versus", "-3"]) == 1


def test_bench_falls_back_to_pure_python_when_asked() -> None:
    import os
    import subprocess
    import sys

    environment = {**os.environ, "CARDTABLE_PURE": "1"}
    done = subprocess.run([sys.executable, "-m", "cardtable.cli.main", "bench", "obsession",
                           "--games", "2", "--repeats", "1", "--players", "3"],
                          capture_output=True, text=True, check=False, timeout=120,
                          env=environment)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1] == (
        "engine: pure Python — core not built or CARDTABLE_PURE=1")
    assert [row[0] for row in bench_rows(done.stdout)] == ["3"]


def test_bench_core_games_are_complete() -> None:
    from cardtable.games.obsession import fast
    from cardtable.games.obsession.bench import core_game
    from cardtable.games.obsession.rules import Rules

    if not fast.available():
        pytest.skip("the compiled Obsession core is not built or is switched off")
    for seed in range(20):
        game = core_game(Rules(players=4), seed)
        assert game.over and sorted(game.placings) == [0, 1, 2, 3]


def test_moves_lists_the_legal_moves_at_the_swap_and_in_play() -> None:
    # Seed 4: P1's swap pool is 7D 7H 10C JS QD R; after "4 5 6" its hand is 7D 7H 10C on a 9S.
    done = run(["--players", "2", "--seed", "4", "--bot", "random"],
               stdin="moves\n4 5 6\nmoves\n")
    prompt = "+++ Enter card number(s): "
    assert (f"{prompt}+++ Legal moves: any 3 different numbers from 1 to 6 (20 moves), "
            "e.g. 1 2 3\n") in done.stdout
    assert f"{prompt}+++ Legal moves: 1 (7D), 1 2 (7D 7H), 2 (7H), 3 (10C)\n" in done.stdout
    assert done.returncode == 3


@pytest.mark.parametrize("word", ["quit", "EXIT"])
def test_quit_or_exit_leaves_the_line_mode_game_recorded_as_quit(tmp_path: Path,
                                                                 word: str) -> None:
    record = tmp_path / "quit.jsonl"
    done = run(["--plain", "--seed", "3", "--players", "3", "--record", str(record)],
               stdin=f"1 2 3\n{word}\n")
    assert done.returncode == 0, done.stdout
    assert done.stdout.endswith("!!! Game abandoned\n")
    last = json.loads(record.read_text().splitlines()[-1])
    assert (last["type"], last["reason"], last["cause"]) == ("result", "abandoned", "quit")
    again = run(["--plain", "--replay", str(record)])
    assert again.returncode == 0
    assert again.stdout.endswith("!!! The recorded game was not finished (quit).\n")


def test_the_hot_seat_pass_prompt_ignores_its_line_and_quit_works_after_it() -> None:
    done = run(["--plain", "--seed", "3", "--players", "2", "--humans", "2"],
               stdin="quit\nquit\n")
    assert done.returncode == 0
    assert done.stdout.count("+++ Pass to Player 1, press Enter: ") == 1
    assert done.stdout.endswith("!!! Game abandoned\n")


@pytest.mark.parametrize("word", ["help", "?"])
def test_help_in_line_mode_prints_how_to_play_and_asks_again(word: str) -> None:
    done = run(["--plain", "--seed", "3", "--players", "3"], stdin=f"{word}\n")
    assert done.returncode == 3
    assert "+++ How to play: play out your hand" in done.stdout
    assert "so on a 9: a 9 or higher, or 2, 3, 7, 8, 10 or R;" in done.stdout
    assert done.stdout.count("+++ Enter card number(s): ") == 2


def test_help_says_ascii_replaces_the_borders_too() -> None:
    done = run(["--help"])
    assert "ASCII only (suit letters, plain borders" in done.stdout


def test_a_line_without_a_number_says_what_to_type_and_digits_still_count() -> None:
    # Seed 4, P1 human: "abc" at the swap is answered; "xyz 1 2 3" reads as 1 2 3 (digit runs).
    done = run(["--players", "2", "--seed", "4", "--bot", "random"],
               stdin="abc\nxyz 1 2 3\nabc\n")
    prompt = "+++ Enter card number(s): "
    lines = done.stdout.splitlines()
    assert f"{prompt}!!! Type the numbers of 3 different cards (1 to 6), or help" in lines
    assert f"{prompt}*** Starting with Player 2" in lines  # the swap 1 2 3 was taken
    assert f"{prompt}!!! Type the number of a card (1 to 3), or help" in lines
    assert done.returncode == 3


def test_help_at_the_swap_prompt_shows_the_rules_in_play() -> None:
    done = run(["--players", "3", "--seed", "4", "--run-kill", "3"], stdin="help\n")
    out = done.stdout
    assert "+++ How to play:" in out and "the 3s of a picked-up pile leave the game" in out
    rules = "+++ Rules in play: 3 players, 2 deck(s), run-kill 3, effect-first.\n"
    # Then the swap again: what is chosen, and from which cards.
    assert f"{rules}+++ Select your 3 VISIBLE cards\n### Cards:\t6 cards\t1:" in out


def test_quit_at_a_hot_seat_pass_prompt_leaves_the_game(tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"
    done = run(["--players", "3", "--humans", "2", "--seed", "2", "--record", str(record)],
               stdin="?\n\n1 2 3\nquit\n")
    pass_prompt = "+++ Pass to Player 1, press Enter: "
    assert done.stdout.count(pass_prompt) == 2  # help at the pass prompt, then it asks again
    assert f"{pass_prompt}+++ How to play:" in done.stdout
    assert done.stdout.endswith("+++ Pass to Player 2, press Enter: !!! Game abandoned\n")
    assert done.returncode == 0
    assert json.loads(record.read_text().splitlines()[-1])["cause"] == "quit"


def test_a_forfeit_in_a_four_player_game_still_shows_the_places() -> None:
    import shlex
    import sys

    misbehave = Path(__file__).parents[1] / "external_bots" / "scripts" / "misbehave.py"
    program = "exec:" + shlex.join([sys.executable, str(misbehave), "junk"])
    done = run(["--seats", f"obsessed,{program},random,obsessed", "--seed", "4",
                "--delay", "0"])
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    at = lines.index("!!! P2 forfeits: a line that is not JSON: no json here")
    assert lines[at + 1:at + 3] == ["", "================="]
    assert lines[at + 3:at + 6] == [f"{place}. Player {seat} (9 cards left)"
                                    for place, seat in ((1, 1), (2, 3), (3, 4))]
    assert lines[at + 6:] == ["4. Player 2 (forfeit)", "=================",
                              "=== Game Over ===", "================="]


def test_forfeit_places_keep_the_places_already_won() -> None:
    from cardtable.games.obsession.render import forfeit_block

    # Player 3 went out first; Player 1 forfeits; Players 2 and 4 by cards left.
    assert forfeit_block([2], [5, 9, 0, 4], 0)[1:5] == [
        "1. Player 3", "2. Player 4 (4 cards left)", "3. Player 2 (9 cards left)",
        "4. Player 1 (forfeit)"]
