"""A frame's text on the WebSocket (``frame_text``) reads back as the standard library's JSON
of the same frame: every value a frame holds, non-ASCII text and numeric keys included."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from cardtable.web.routes.table_socket import frame_text

LEAVES = (st.none() | st.booleans() | st.integers(-(2**53), 2**53)
          | st.floats(allow_nan=False, allow_infinity=False) | st.text())
VALUES = st.recursive(LEAVES, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
    st.text(max_size=8) | st.integers(0, 99), inner, max_size=4), max_leaves=30)


@given(st.dictionaries(st.text(max_size=8), VALUES, max_size=6))
def test_a_frame_reads_back_as_the_standard_json_of_it(frame: dict[str, Any]) -> None:
    text = frame_text(frame)
    assert isinstance(text, str)
    assert json.loads(text) == json.loads(json.dumps(frame))


def test_a_state_frame_is_compact_utf8_text() -> None:
    frame = {"type": "state", "observation": {"history_text": ["You played K♥ on 9♣"]},
             "legal": [], "ply": 3, "result": None, "deadline": 1.5}
    assert frame_text(frame) == ('{"type":"state","observation":{"history_text":'
                                 '["You played K♥ on 9♣"]},"legal":[],"ply":3,'
                                 '"result":null,"deadline":1.5}')
