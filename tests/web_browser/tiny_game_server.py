"""``cardtable serve`` with the tiny test game registered in the server's process first (as a
notebook or a test would: ``game_registry.register``); the arguments are ``serve``'s."""

from __future__ import annotations

import sys

from tiny_game import TINY_DUEL

from cardtable.cli.main import main
from cardtable.engine.game_registry import register

if __name__ == "__main__":
    register(TINY_DUEL)
    sys.exit(main(sys.argv[1:]))
