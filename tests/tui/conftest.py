"""Skip the full-screen tests where Textual is not installed."""

import pytest

pytest.importorskip("textual")
