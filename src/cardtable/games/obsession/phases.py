"""The phases of an Obsession game: the swap at the deal, play, and the game over."""

from __future__ import annotations

SWAP, PLAY, OVER = 0, 1, 2
PHASE_NAMES = ("swap", "play", "over")
"""Each phase's name in text (positions, observations), indexed by the phase."""
