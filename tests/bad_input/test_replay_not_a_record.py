"""A --replay file that is not a record at all (not JSON, JSON that is not a record header,
an empty file) is refused the same way by both games: one line on standard error,
"PROGRAM: Replay 'FILE', line L: REASON.", and exit status 1, before anything is shown."""

from __future__ import annotations

from pathlib import Path

import pytest

from .helpers import one_error_line, run

JUNK = [
    ("hello world\n", 1, "malformed line"),
    ("\n\n{nope\n", 3, "malformed line"),
    ('{"a": 1}\n', 1, 'malformed line (not an object with a "type")'),
    ("[1, 2, 3]\n", 1, 'malformed line (not an object with a "type")'),
    ('"header"\n', 1, 'malformed line (not an object with a "type")'),
    ('{"type": "action", "seat": "P1", "action": "play 9C"}\n', 1,
     "the first line is not a record header"),
    ("", 1, "the record is empty"),
    ("\n  \n", 1, "the record is empty"),
]


@pytest.mark.parametrize("program", ["caravan", "obsession"])
@pytest.mark.parametrize(("text", "line", "reason"), JUNK)
def test_a_file_that_is_not_a_record(tmp_path: Path, program: str, text: str, line: int,
                                     reason: str) -> None:
    path = tmp_path / "junk.jsonl"
    path.write_text(text)
    done = run(program, "--plain", "--replay", str(path))
    assert done.returncode == 1
    assert done.stdout == b""
    assert one_error_line(done, program) == f"Replay '{path}', line {line}: {reason}."
