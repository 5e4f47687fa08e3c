"""The explanations are read from the legality table, so they agree with it for every face."""

from __future__ import annotations

import re

import pytest

from cardtable.games.obsession.cards import FACE_NAMES, FACE_OF_NAME, suited
from cardtable.games.obsession.explain import CLIMB, allowed, next_play, ordinal, refusal
from cardtable.games.obsession.legality import LEGAL, NONE

ACTIVE_FACES = (NONE, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14)


def faces_named(text: str) -> set[int]:
    """The faces an ``allowed`` text admits: ``a 9 or higher`` climbs, the rest are listed."""
    if text == "anything":
        return set(range(2, 16))
    faces: set[int] = set()
    higher = re.match(r"an? (\w+) or higher", text)
    if higher:
        start = CLIMB.index(FACE_OF_NAME[higher.group(1)])
        faces.update(CLIMB[start:])
        text = text[higher.end():]
    faces.update(FACE_OF_NAME[name] for name in re.findall(r"\b(10|[2-9JQKAR])\b", text))
    return faces


@pytest.mark.parametrize("active", ACTIVE_FACES)
def test_allowed_text_names_exactly_the_legal_faces(active: int) -> None:
    legal = {face for face in range(2, 16) if LEGAL[active][face]}
    assert faces_named(allowed(active)) == legal


@pytest.mark.parametrize("active", ACTIVE_FACES[1:])
def test_every_illegal_face_gets_a_reason(active: int) -> None:
    for face in range(2, 16):
        if not LEGAL[active][face]:
            message = refusal(active, [face])
            assert message.startswith("Invalid selection: ")
            assert f" {FACE_NAMES[face]} cannot be played on " in message
            assert message.endswith("; play " + allowed(active))


def test_the_examples_read_well() -> None:
    assert refusal(9, [4]) == ("Invalid selection: a 4 cannot be played on a 9; play a 9 or "
                               "higher, or 2, 3, 7, 8, 10 or R")
    assert refusal(7, [8]) == ("Invalid selection: an 8 cannot be played on a 7; play 2, 3, 4, "
                               "5, 6, 7, 10 or R")
    assert refusal(14, [5]).endswith("play an A, or 2, 3, 7, 8, 10 or R")
    assert refusal(3, [10], top_is_joker=True) == (
        "Invalid selection: a 10 cannot be played on a 3 under the joker; play 3 or R")
    assert refusal(9, [4, 5]) == "Invalid selection: cards played together must share one face"
    assert next_play(8, suited(8, 0, 0)) == "Next: anything"
    assert next_play(NONE, None) == "Next: anything (empty pile)"


def test_ordinals() -> None:
    assert [ordinal(n) for n in (1, 2, 3, 4, 10, 11, 12, 13, 21, 22, 23)] == [
        "1st", "2nd", "3rd", "4th", "10th", "11th", "12th", "13th", "21st", "22nd", "23rd"]
