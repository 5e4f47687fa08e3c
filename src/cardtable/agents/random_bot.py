"""The ``random`` seat for any game: a uniformly random legal action, seen from its observation.

The bot never sees the state. It asks its observation for the seat's legal actions
(``observation.legal_actions()``, which a game's observation offers when the seat can tell
them from what it sees); for a game whose observation does not list them, it asks a world
sampled from the observation (``game.sample_world(observation, seed).legal_actions()``): the
seat to move's legal actions depend only on what that seat sees, so any world agreeing with
the observation lists the same ones.

The choice is ``legal[rng.randrange(len(legal))]`` over the game's canonical legal order,
with the generator ``derived_random(seed, "bot", seat)``; Caravan's own ``random`` bot makes
exactly this choice (it counts the moves without listing them), so the two play the same
games from the same seed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from cardtable.engine.description import Bot, BotSpec, no_options
from cardtable.engine.errors import IllegalAction
from cardtable.engine.randomness import derived_random

NAME = "random"


def observed_legal_actions(observation: Any, game: Any = None) -> Sequence[Any]:
    """The legal actions of the observation's seat, from the observation alone (see the module
    docstring); ``game`` serves games whose observations do not list them (any sampled world
    lists the same actions, so the world's seed does not matter)."""
    listed = getattr(observation, "legal_actions", None)
    if callable(listed):
        actions: Sequence[Any] = listed()
        return actions
    if game is None or not hasattr(game, "sample_world"):
        raise TypeError(
            f"{type(observation).__name__} lists no legal actions and no game samples a world "
            "from it")
    world_actions: Sequence[Any] = game.sample_world(observation, 0).legal_actions()
    return world_actions


class RandomBot:
    """Picks uniformly among the legal actions its observation shows, in the game's order."""

    name = NAME

    def __init__(self, rng: random.Random, game: Any = None) -> None:
        self.rng = rng
        self.game = game

    def choose(self, observation: Any) -> Any:
        legal = observed_legal_actions(observation, self.game)
        if not legal:
            raise RuntimeError("the random bot was asked to move with no legal action")
        return legal[self.rng.randrange(len(legal))]

    def rejected(self, error: IllegalAction) -> None:
        # It only proposes actions the game listed as legal; a refusal is a bug to surface.
        raise RuntimeError(f"bot {self.name} proposed an illegal action: {error}")


def make_random_bot(seat: str, seed: int | str, game: Any = None) -> RandomBot:
    """The ``random`` bot for the seat named ``seat``, with its own generator."""
    return RandomBot(derived_random(seed, "bot", seat), game)


def described_bot() -> Bot:
    """``random``, for every game (a game offering its own ``random`` keeps it)."""
    def factory(game: Any, spec: BotSpec, seat: str, seed: int | str) -> RandomBot:
        no_options(spec)
        return make_random_bot(seat, seed, game)

    return Bot(NAME, factory, "a uniformly random legal action (any game)", instant=True)
