"""Austerity's part of its reinforcement-learning environment (``cardtable.envs.env
("austerity")``), named by its description: the vector of
:mod:`cardtable.envs.austerity_encoding` and the player programs' status block as text.

The game has no length cap of its own, so an episode is truncated after
:data:`~cardtable.envs.parts.MAX_STEPS` actions unless ``max_steps`` says otherwise. Its
description's ``table_params`` deal the deck shuffled from each game's seed.
"""

from __future__ import annotations

from typing import Any

from cardtable.envs.austerity_encoding import AusterityEncoder
from cardtable.envs.parts import MAX_STEPS
from cardtable.games.austerity.player import status_block
from cardtable.games.austerity.rules import letter


class AusterityPart:
    max_steps: int | None = MAX_STEPS

    def encoder(self, game: Any) -> AusterityEncoder:
        return AusterityEncoder(game)

    def render(self, state: Any, seat: int) -> str:
        """The player programs' status block (market, then every player), and who moves."""
        text = status_block(state.game.table).rstrip("\n")
        result = state.result
        if result is not None:
            winners = ", ".join(result.winners)
            return f"{text}\nGame over ({result.reason}): won by {winners}."
        return f"{text}\nPlayer {letter(seat)} to move."


PART = AusterityPart()
