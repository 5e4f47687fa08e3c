"""One wording per mistake: a bad seed, a bad delay and an unknown bot are refused in the same
sentence by ``caravan``, ``obsession``, ``cardtable play``, the Austerity tools and the
launcher (cardtable.engine.option_refusals), each naming its option or field."""

from __future__ import annotations

import pytest

from cardtable.agents.registry import UnknownBot, bot_names, parse_spec
from cardtable.engine.option_refusals import (
    delay_refusal,
    delay_seconds,
    seed_refusal,
    unknown_bot_message,
)

from .helpers import one_error_line, run

SEED = "--seed must be an integer >= 0 (got 'x1')"
DELAY = "--delay must be a number of seconds from 0 to 86400 (got '-3')"
PROGRAMS = [("caravan", ["caravan", "--plain"]), ("obsession", ["obsession", "--plain"]),
            ("cardtable play", ["cardtable", "play", "obsession", "--plain"])]


@pytest.mark.parametrize(("program", "command"), PROGRAMS)
@pytest.mark.parametrize(("args", "message"), [(["--seed", "x1"], SEED),
                                               (["--delay", "-3"], DELAY)])
def test_a_bad_seed_and_a_bad_delay_in_one_sentence(program: str, command: list[str],
                                                    args: list[str], message: str) -> None:
    done = run(*command, *args)
    assert done.returncode == 1
    assert one_error_line(done, program) == message


@pytest.mark.parametrize(("program", "command", "option", "game"), [
    ("caravan", ["caravan", "--plain"], "-b", "caravan"),
    ("obsession", ["obsession", "--plain"], "--bot", "obsession"),
])
def test_an_unknown_bot_in_the_registrys_sentence(program: str, command: list[str],
                                                  option: str, game: str) -> None:
    done = run(*command, option, "Deep-Blue")
    assert done.returncode == 1
    assert one_error_line(done, program) == unknown_bot_message("Deep-Blue", game,
                                                                bot_names(game))


def test_an_unknown_austerity_player_is_an_unknown_bot() -> None:
    done = run("cardtable", "austerity", "simulate", "--deck", "/dev/null", "--tokens", "3",
               "--points", "3", "--players", "ed,nala")
    assert done.returncode == 1
    assert one_error_line(done, "cardtable austerity simulate") == (
        "Unknown bot 'nala' for austerity (bots: shenzi, banzai, ed).")


def test_the_registry_words_an_unknown_bot_as_every_program() -> None:
    for text in ("bogus", "x" * 80, "two\nlines"):
        with pytest.raises(UnknownBot) as refused:
            parse_spec("caravan", text)
        assert refused.value.message == unknown_bot_message(text, "caravan",
                                                            bot_names("caravan"))
    assert unknown_bot_message("x" * 80, "g", ["a"]) == f"Unknown bot '{'x' * 40}...' for g " \
                                                         "(bots: a)."


def test_the_refusals_name_their_option_or_field_and_echo_one_short_line() -> None:
    assert seed_refusal("Seed", "1\n2") == "Seed must be an integer >= 0 (got '1\\n2')"
    assert delay_refusal("Bot delay", "9" * 50) == (
        f"Bot delay must be a number of seconds from 0 to 86400 (got '{'9' * 40}...')")
    assert [delay_seconds(text) for text in ("0", "86400", "-1", "86401", "nan", "inf", "x")] \
        == [0.0, 86400.0, -1.0, None, None, None, None]


def test_the_launcher_refuses_in_the_same_sentences() -> None:
    pytest.importorskip("textual")
    from cardtable.ui.tui.launcher import build_choice

    base = {"game": "obsession", "seed": "", "delay": "0", "players": "4", "humans": "1",
            "bot": "obsessed", "run_kill": "4"}
    with pytest.raises(ValueError) as refused:
        build_choice({**base, "seed": "٣"})
    assert str(refused.value) == seed_refusal("Seed", "٣")
    with pytest.raises(ValueError) as refused:
        build_choice({**base, "delay": "86401"})
    assert str(refused.value) == delay_refusal("Bot delay", "86401")
