"""The ``caravan`` command (§8) and its plain line mode (§9.2), run as a real program."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cardtable import __version__
from cardtable.games.caravan.cards import code
from cardtable.games.caravan.rules import SeatRules
from cardtable.games.caravan.state import CaravanState

CARAVAN = Path(sys.executable).parent / "caravan"
CARDTABLE = Path(sys.executable).parent / "cardtable"


def run(*args: str, stdin: str = "", program: Path = CARAVAN) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(program), *args], input=stdin, capture_output=True, text=True,
                          timeout=60, check=False)


def fail_line(*args: str) -> str:
    """The message of the one stderr line of a startup failure (status 1, nothing on stdout),
    after the ``caravan: `` that starts every error line."""
    done = run(*args)
    assert done.returncode == 1, done
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    assert done.stderr.endswith("\n") and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("caravan: "), done.stderr
    return done.stderr.removeprefix("caravan: ").rstrip("\n")


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("rec") / "game.jsonl"
    done = run("--bvb", "--seed", "2", "--record", str(path))
    assert done.returncode == 0
    return path


BOTS = "(bots: random, normal, friendly, expert, ismcts, exec)."
STARTUP_ERRORS = [
    (["--rules", "xx"], "Unknown rules preset 'xx' (allowed: power, nv, foxon, karavane)."),
    (["--rule", "nonsense"], "Invalid rule override 'nonsense' (expected FIELD=VALUE)."),
    (["--rule", "xyz.max_faces=3"],
     "Unknown seat prefix 'xyz' in 'xyz.max_faces=3' (allowed: abc, def)."),
    (["--rule", "def.opening_mode=none"],
     "Rule field 'opening_mode' must be the same for both seats."),
    (["--rules-file", "/nonexistent/rules.toml"],
     "Cannot read rules file '/nonexistent/rules.toml': No such file or directory."),
    (["--pvp", "--bvb"], "Game cannot be both Player vs Player and Bot vs Bot."),
    (["-f", "3"], "First player must be either 1 or 2."),
    (["--first", "abc"], "First player must be either 1 or 2."),
    (["-c", "20"], "Caravan decks must have between 30 and 162 cards (inclusive)."),
    (["-c", "many"], "Caravan decks must have between 30 and 162 cards (inclusive)."),
    (["--rules", "nv", "-c", "300"],
     "Caravan decks must have between 30 and 216 cards (inclusive)."),
    (["-s", "4"], "Number of caravan deck samples must be between 1 and 3 (inclusive)."),
    (["-s", "x"], "Number of caravan deck samples must be between 1 and 3 (inclusive)."),
    (["--rule", "def.deck_size=20"],
     "DEF: Caravan decks must have between 30 and 162 cards (inclusive)."),
    (["-d", "-1"], "--delay must be a number of seconds from 0 to 86400 (got '-1')"),
    (["-d", "soon"], "--delay must be a number of seconds from 0 to 86400 (got 'soon')"),
    (["--seed", "x"], "--seed must be an integer >= 0 (got 'x')"),
    (["-b", "Clever"], f"Unknown bot 'Clever' for caravan {BOTS}"),
    (["--bvb", "--bot-def", "NOPE"], f"Unknown bot 'NOPE' for caravan {BOTS}"),
    (["--deck", "/nonexistent/deck.txt"],
     "Cannot read deck file '/nonexistent/deck.txt': No such file or directory."),
    (["-c", "60", "-s", "1"], "There are insufficient cards to sample for the caravan deck."),
    (["--record", "/nonexistent/dir/game.jsonl"],
     "Cannot open record file '/nonexistent/dir/game.jsonl': No such file or directory."),
    (["--replay", "/nonexistent/game.jsonl"],
     "Cannot open record file '/nonexistent/game.jsonl': No such file or directory."),
]


@pytest.mark.parametrize(("args", "message"), STARTUP_ERRORS)
def test_startup_error(args: list[str], message: str) -> None:
    assert fail_line(*args) == message


# Each case has two faults; the one checked earlier (§8 order) is reported.
ORDER = [
    (["--bogus", "--rules", "xx"], "unrecognized arguments: --bogus"),
    (["--rules", "xx", "--pvp", "--bvb"], "Unknown rules preset 'xx'"),
    (["--pvp", "--bvb", "-f", "3"], "Game cannot be both"),
    (["-f", "3", "-c", "20"], "First player must be"),
    (["-c", "20", "-s", "9"], "Caravan decks must have"),
    (["-s", "9", "-d", "-1"], "Number of caravan deck samples"),
    (["-d", "-1", "-b", "nope"], "--delay must be"),
    (["-b", "nope", "--deck", "/nonexistent"], "Unknown bot 'nope'"),
    (["--deck-abc", "/nonexistent", "-c", "60", "-s", "1"], "Cannot read deck file"),
    (["-c", "60", "-s", "1", "--record", "/nonexistent/x"], "There are insufficient cards"),
]


@pytest.mark.parametrize(("args", "start"), ORDER)
def test_startup_validation_order(args: list[str], start: str) -> None:
    assert fail_line(*args).startswith(start)


@pytest.mark.parametrize("args", [["--first"], ["--seed", "-3"], ["--seed", "x"],
                                  ["-d", "soon"], ["--rule"], ["extra"]])
def test_argument_syntax_errors_are_one_line_status_1(args: list[str]) -> None:
    assert fail_line(*args)


def test_replay_and_record_cannot_be_combined(record_file: Path, tmp_path: Path) -> None:
    assert fail_line("--replay", str(record_file), "--record", str(tmp_path / "x")) == (
        "Options --replay and --record cannot be combined."
    )


def test_replay_mismatch_is_status_1(record_file: Path, tmp_path: Path) -> None:
    lines = record_file.read_text().splitlines()
    number = next(n for n, line in enumerate(lines) if json.loads(line)["type"] == "action")
    lines[number] = json.dumps({"type": "action", "seat": "ABC", "action": "C9"})
    broken = tmp_path / "broken.jsonl"
    broken.write_text("\n".join(lines) + "\n")
    assert fail_line("--replay", str(broken)) == (
        f"Replay '{broken}', line {number + 1}: Invalid caravan name '9', must be between: A-F.")


def test_version() -> None:
    for program in (CARAVAN, CARDTABLE):
        args = ("--version",) if program == CARAVAN else ("caravan", "--version")
        done = run(*args, program=program)
        assert (done.returncode, done.stdout, done.stderr) == (0, __version__ + "\n", "")
    assert run("-v").stdout == __version__ + "\n"


def test_help_describes_every_option() -> None:
    done = run("--help")
    assert done.returncode == 0 and done.stderr == ""
    text = " ".join(done.stdout.split())
    for option in ("--pvp", "--bvb", "--bot", "--bot-abc", "--bot-def", "--delay", "--first",
                   "--cards", "--samples", "--imbalanced", "--rules", "--rule", "--rules-file",
                   "--deck", "--deck-abc", "--deck-def", "--seed", "--record", "--replay",
                   "--plain", "--version"):
        assert option in text
    assert "chosen at random" in text and "round robin" in text
    assert "line mode; chosen anyway when stdin or stdout is not a terminal" in text
    assert "--ascii" in text
    assert "3 input ended" in text


# ---------------------------------------------------------------- playing


def opening_hand(seed: int, preset: str = "power") -> list[str]:
    return [code(card) for card in CaravanState.new(SeatRules.preset(preset), seed).hands[0]]


def test_piped_moves_are_played_and_shown() -> None:
    hand = opening_hand(3)
    done = run("--plain", "--seed", "3", stdin="P1A\n")
    out = done.stdout.splitlines()
    assert out[0] == "Welcome to Caravan"
    assert out[1] == "YOU to move first."
    assert out[2].startswith("DEF BOT (54): ") and out[2].endswith(" ".join(["###"] * 8))
    assert out[3:9] == ["D: -", "E: -", "F: -", "A: -", "B: -", "C: -"]
    positions = " ".join(f"{n}:{card}" for n, card in enumerate(hand, 1))
    assert out[9] == f"ABC YOU (54): {positions}"
    assert out[10:12] == ["Decks: ABC 46, DEF 46", "Last moves: ABC -, DEF -"]
    assert out[12] == "YOU > YOU entered: P1A"
    assert out[13] == f"YOU played {hand[0]} on Caravan A."
    assert f"Last moves: ABC P1A {hand[0]}, DEF -" in out
    assert f"A ({int(hand[0][:-1])}, ANY, {hand[0][-1]}): 1:{hand[0]}" in out
    assert "BOT to move next." in out and "BOT is thinking..." in out
    assert out[-2:] == ["YOU > ", "Input ended before the game was over."]
    assert done.returncode == 3
    assert "Traceback" not in done.stderr


def test_the_bot_hand_is_never_shown() -> None:
    done = run("--seed", "3", stdin="P1A\nP2B\nP3C\n")
    bot_lines = [line for line in done.stdout.splitlines() if line.startswith("DEF BOT")]
    assert bot_lines and all(set(line.split(": ", 1)[1].split()) == {"###"}
                             for line in bot_lines)


def test_pvp_shows_only_the_hand_of_the_seat_to_move() -> None:
    done = run("--pvp", "--seed", "3", stdin="P1A\n\n")
    out = done.stdout.splitlines()
    assert out[2].startswith("DEF PL2 (54): ###")
    assert out[9].startswith("ABC PL1 (54): 1:")
    passed = next(n for n, line in enumerate(out) if line.startswith("Pass to PL2"))
    after = out[passed:passed + 8]
    assert after[0].startswith("Pass to PL2 and press Enter. DEF PL2 (54): 1:")
    assert after[-1].startswith("ABC PL1 (53): ###")


def test_pvp_hands_over_before_showing_the_next_hand() -> None:
    """Hot seat: after PL1's move nothing of PL2's hand is printed until PL2 presses Enter."""
    done = run("--pvp", "--seed", "3", stdin="P1A\n")
    out = done.stdout.splitlines()
    moved = out.index("PL1 played " + opening_hand(3)[0] + " on Caravan A.")
    assert out[moved + 1:] == ["PL2 to move next.", "Pass to PL2 and press Enter. ",
                               "Input ended before the game was over."]
    assert not any(line.startswith("DEF PL2 (54): 1:") for line in out)
    assert done.returncode == 3
    quit_at_pass = run("--pvp", "--seed", "3", stdin="P1A\nquit\n")
    assert quit_at_pass.returncode == 0
    assert "Input ended" not in quit_at_pass.stdout


@pytest.mark.parametrize("word", ["help", "?", "HELP"])
def test_help_prints_how_to_play_for_the_rules_in_play(word: str) -> None:
    done = run("--plain", "--seed", "3", "--rules", "foxon", "--rule", "def.king_mode=double",
               stdin=f"{word}\nquit\n")
    out = done.stdout.splitlines()
    start = out.index(f"YOU > YOU entered: {word}")
    page = out[start + 1:]
    assert page[0] == "How to play Caravan - rules: foxon, changed for DEF: king_mode"
    text = "\n".join(page)
    assert "ABC: King: adds the numeral's value again" in text
    assert "DEF: King: doubles the numeral's value" in text
    assert "Destroy and restart: CB4" in text
    assert "  moves list your legal moves" in text
    assert done.returncode == 0


def test_moves_lists_the_legal_moves_of_the_player_to_move() -> None:
    done = run("--plain", "--seed", "3", stdin="moves\nquit\n")
    out = done.stdout.splitlines()
    start = out.index("YOU > YOU entered: moves")
    game = CaravanState.new(SeatRules.preset("power"), 3)
    expected = " ".join(move.notation for move in game.legal_moves())
    listed = " ".join(line.strip() for line in out[start + 1:start + 4]
                      if not line.startswith("YOU >"))
    assert listed == f"Legal moves ({len(game.legal_moves())}): {expected}"
    assert game.plies == 0


def test_joker_lists_every_card_it_removed() -> None:
    done = run("--bvb", "--plain", "--seed", "1", "--delay", "0")
    assert ("BOT2 played JO on 10H on Caravan A. Removed: 10S from Caravan C, "
            "10S from Caravan D.") in done.stdout.splitlines()


def test_face_card_without_slot_asks_for_the_slot_and_discard_says_your() -> None:
    hand = opening_hand(1, "karavane")
    assert hand[:2] == ["7C", "JC"]
    done = run("--plain", "--seed", "1", "--rules", "karavane", stdin="P1A\nP1A\nD1\n")
    out = done.stdout.splitlines()
    face = out.index("YOU > YOU entered: P1A", out.index("YOU played 7C on Caravan A.") + 1)
    assert out[face + 1] == "Face cards are played on a card: give its slot, e.g. P4A2."
    assert "YOU discarded JC from your hand." in out


def test_errors_are_shown_and_the_same_player_is_asked_again() -> None:
    done = run("--seed", "3", stdin="q1\nP9A\nP1D\nD1\n\n\nP1A\n")
    out = done.stdout.splitlines()
    start = out.index("YOU > YOU entered: q1")
    assert out[start:start + 9] == [
        "YOU > YOU entered: q1",
        "Invalid option 'q', must be one of: (P)lay, (D)iscard, (C)lear.",
        "YOU > YOU entered: P9A",
        "The chosen hand position is out of range.",
        "YOU > YOU entered: P1D",
        "A numeral card can only be played on a player's own caravan.",
        "YOU > YOU entered: D1",
        "A player cannot discard a card during the Start round.",
        "YOU > YOU > YOU > YOU entered: P1A",  # empty lines re-prompt silently
    ]
    assert done.returncode == 3


@pytest.mark.parametrize("word", ["quit", "EXIT", "  quit  "])
def test_quit_ends_with_status_0_and_is_recorded(word: str, tmp_path: Path) -> None:
    path = tmp_path / "quit.jsonl"
    done = run("--seed", "3", "--record", str(path), stdin=f"P1A\n{word}\nP2B\n")
    assert done.returncode == 0
    assert "Input ended" not in done.stdout
    assert done.stdout.count("YOU played") == 1
    last = json.loads(path.read_text().splitlines()[-1])
    assert last == {"type": "result", "winners": [], "reason": "abandoned", "cause": "quit",
                    "details": {"lanes": [None, None, None], "plies": 2}}


def test_end_of_input_is_recorded(tmp_path: Path) -> None:
    path = tmp_path / "eof.jsonl"
    done = run("--seed", "3", "--record", str(path), stdin="")
    assert done.returncode == 3
    assert done.stdout.endswith("YOU > \nInput ended before the game was over.\n")
    last = json.loads(path.read_text().splitlines()[-1])
    assert (last["reason"], last["cause"], last["winners"]) == ("abandoned", "eof", [])


def test_bot_game_ends_with_final_board_and_winner() -> None:
    done = run("--bvb", "--seed", "2")
    out = done.stdout.splitlines()
    assert done.returncode == 0 and done.stderr == ""
    assert out[-1] in ("WINNER: BOT1", "WINNER: BOT2", "DRAW")
    final = out[-11:-3]
    assert final[0].startswith("DEF BOT2 (") and final[-1].startswith("ABC BOT1 (")
    assert out[-3].startswith("Decks: ABC ") and out[-2].startswith("Last moves: ABC ")
    # After the end, hand positions are no longer shown.
    assert ":" not in final[0].split(": ", 1)[1]
    assert ":" not in final[-1].split(": ", 1)[1]
    assert "to move next" not in out[-13]


def test_replay_shows_the_recorded_game(record_file: Path) -> None:
    live = run("--bvb", "--seed", "2").stdout
    replayed = run("--replay", str(record_file), "--delay", "0")
    assert replayed.returncode == 0
    expected = "".join(line + "\n" for line in live.splitlines() if "thinking" not in line)
    assert replayed.stdout == expected


def test_record_write_error_is_reported() -> None:
    if not Path("/dev/full").exists():
        pytest.skip("needs /dev/full")
    line = fail_line("--bvb", "--seed", "2", "--record", "/dev/full")
    assert line == "Cannot write record file '/dev/full': No space left on device."


def test_interrupt_is_clean_and_recorded(tmp_path: Path) -> None:
    path = tmp_path / "int.jsonl"
    with subprocess.Popen([str(CARAVAN), "--seed", "3", "--record", str(path)],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True) as process:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (
            path.exists() and path.read_text().count("\n") >= 3
        ):
            time.sleep(0.05)
        time.sleep(0.2)
        os.kill(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=20)
    assert process.returncode == 130
    assert err == "caravan: Game interrupted.\n"
    last = json.loads(path.read_text().splitlines()[-1])
    assert (last["reason"], last["cause"]) == ("abandoned", "interrupt")
    assert out.startswith("Welcome to Caravan")


def test_replay_of_a_cut_record_shows_its_moves_then_fails(
        record_file: Path, tmp_path: Path) -> None:
    lines = record_file.read_text(encoding="utf-8").splitlines()
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(lines[:6]) + "\n", encoding="utf-8")
    done = run("--replay", str(cut), "--delay", "0")
    assert done.returncode == 1
    assert done.stdout.count("Last moves:") == 4  # the dealt board and three moves
    assert done.stderr == f"caravan: Replay '{cut}', line 7: missing result line.\n"


def test_help_says_ascii_replaces_the_borders_too() -> None:
    done = run("--help")
    assert "ASCII only (suits as letters, plain" in done.stdout


def test_line_mode_help_says_the_examples_are_abcs_and_gives_defs() -> None:
    # Between two people PL2 plays DEF: P2B would name the other player's caravan.
    done = run("--plain", "--pvp", "--seed", "3", stdin="P1A\n\nhelp\nquit\n")
    assert "Commands (examples for ABC; DEF's own caravans are D E F: P2E, CD)" in done.stdout


def test_a_named_pipe_as_the_record_is_refused_without_opening_it(tmp_path: Path) -> None:
    # Opening a named pipe for writing waits for a reader: nothing may open it.
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    line = fail_line("--bvb", "--plain", "--seed", "2", "--record", str(pipe))
    assert line == f"Record file '{pipe}' is a named pipe; record to a regular file."


def test_pvp_foxon_opening_is_face_down_in_the_shared_log() -> None:
    """Hot seat under Foxon: both players read one log, so the face-down opening cards of
    either seat are written as ### there (each player sees their own on the board)."""
    hand = opening_hand(3, "foxon")
    numerals = [n for n, card in enumerate(hand, 1) if card[:-1] not in ("J", "Q", "K", "JO")]
    first, second, third = numerals[:3]
    # Each play takes a card out of the hand: later positions move down by one.
    moves = [f"P{first}A", f"P{second - 1}B", f"P{third - 2}C"]
    done = run("--pvp", "--plain", "--rules", "foxon", "--seed", "3",
               stdin="\n".join(moves) + "\n")
    out = done.stdout.splitlines()
    plays = [line for line in out if line.startswith("PL1 played")]
    assert plays == [f"PL1 played ### on Caravan {letter}." for letter in "ABC"]
    assert not any(hand[n - 1] in line.split() for line in out if line.startswith("PL")
                   for n in numerals[:3])
