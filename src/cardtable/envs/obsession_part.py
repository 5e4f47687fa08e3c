"""Obsession's part of its reinforcement-learning environment (``cardtable.envs.env
("obsession")``), named by its description: the vector of
:mod:`cardtable.envs.obsession_encoding` and the line mode's board as text.

No step cap of the environment's own: the rules' cap on plays (``max_plays``) and the
repetition guard end every game, and a game they stop is truncated (the description's
``stopped``), its seats still in placed by the rules (fewest cards left first).
"""

from __future__ import annotations

from typing import Any

from cardtable.envs.obsession_encoding import ObsessionEncoder
from cardtable.games.obsession.cards import TEXT
from cardtable.games.obsession.events import Board
from cardtable.games.obsession.render import board_lines, cards_count


class ObsessionPart:
    max_steps: int | None = None

    def encoder(self, game: Any) -> ObsessionEncoder:
        return ObsessionEncoder(game)

    def render(self, state: Any, seat: int) -> str:
        """The line mode's board of ``seat`` (its hand shown) and a line per other seat."""
        obs = state.observation(seat)
        board = Board(seat, obs.draw_count, len(obs.discard), tuple(obs.discard[:5]), obs.hand,
                      obs.visible[seat], obs.hidden_counts[seat])
        lines = [f"=== Player {seat + 1} ({obs.phase}, play {obs.play_number})"]
        lines += board_lines(board, show_hand=True)
        for other in range(len(obs.out)):
            if other == seat:
                continue
            visible = " ".join(TEXT[card] for card in obs.visible[other]) or "-"
            state_text = "out" if obs.out[other] else (
                f"hand {cards_count(obs.hand_counts[other])}, visible {visible}, "
                f"hidden {obs.hidden_counts[other]}")
            lines.append(f"--- Player {other + 1}: {state_text}")
        result = state.result
        if result is not None:
            order = ", ".join(f"P{number}" for number in result.details["placings"])
            lines.append(f"Game over ({result.reason}): placings {order}.")
        return "\n".join(lines)


PART = ObsessionPart()
