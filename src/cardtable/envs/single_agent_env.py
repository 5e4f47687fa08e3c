"""One seat against built-in bots, as a Gymnasium environment (``cardtable.envs.single_agent``).

The learner's observation is its seat's vector from the game's AEC environment (docs/rl.md);
the bots in the other seats are chosen by name (``cardtable.agents.registry``), see only their
own observations, and move until the learner is to move again. The legal moves come as
``info["action_mask"]`` and from :meth:`SingleAgentEnv.action_masks` (the convention of
sb3-contrib's ``MaskablePPO``). The reward is 0 until the game ends, then the learner's
final reward of the AEC environment; an illegal action ends the episode with
``illegal_reward``.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from cardtable.agents.registry import UnknownBot, bot_names, make_seat
from cardtable.engine.game_registry import description
from cardtable.engine.match import Seat
from cardtable.envs.aec import CardTableEnv

ORDINARY = "normal"
"""The opponent asked for by default: the game's bot of that name, or else its first own bot
that is neither ``random`` nor a calibration bot (Obsession's ``obsessed``, Austerity's
``shenzi``): the game's heuristic bot."""


def ordinary_bot(game: str) -> str:
    """The bot :data:`ORDINARY` stands for in ``game``."""
    if ORDINARY in bot_names(game):
        return ORDINARY
    own = [bot.name.lower() for bot in description(game).bots() if not bot.calibration]
    return next((name for name in own if name != "random"), "random")


class SingleAgentEnv(gymnasium.Env[np.ndarray, np.int64]):
    """``game`` with the learner in ``seat`` (0-based) and ``opponents`` (one bot name for
    every other seat, or one per other seat in seat order) in the others.

    ``params`` are the game's rule parameters and the AEC environment's ``max_steps``.
    """

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"],  # noqa: RUF012
                                "render_fps": 1}

    def __init__(self, game: str, opponents: str | list[str] = "normal", *, seat: int = 0,
                 render_mode: str | None = None, illegal_reward: float = -1.0,
                 **params: Any) -> None:
        description(game)  # an unknown game first, with the registry's message
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or "
                             f"None (got {render_mode!r})")
        self.aec = CardTableEnv(game, **params)
        seats = len(self.aec.possible_agents)
        if type(seat) is not int or not 0 <= seat < seats:
            raise ValueError(f"seat must be a seat index from 0 to {seats - 1} (got {seat!r})")
        names = [opponents] * (seats - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != seats - 1:
            raise ValueError(f"{game} with {seats} seats needs {seats - 1} opponents "
                             f"(got {len(names)})")
        self.game_name = game
        self.seat = seat
        self.agent = self.aec.possible_agents[seat]
        self.opponents = [self._resolve(name) for name in names]
        self.render_mode = render_mode
        self.illegal_reward = float(illegal_reward)
        encoder = self.aec.encoder
        self.observation_space = spaces.Box(encoder.low, encoder.high,
                                            dtype=encoder.low.dtype.type)
        self.action_space = spaces.Discrete(self.aec.num_actions)
        self._bots: dict[int, Seat] = {}
        self._mask = np.zeros(self.aec.num_actions, dtype=np.int8)
        self._observation = np.zeros(encoder.size, dtype=encoder.low.dtype)
        self._done = True

    def _resolve(self, name: str) -> str:
        """The bot spec for ``name`` (checked now, so that a typo fails at construction)."""
        game = self.game_name
        spec = name.strip().lower()
        if spec == ORDINARY:
            spec = ordinary_bot(game)
        try:
            from cardtable.agents.registry import parse_spec

            parse_spec(game, spec)
        except UnknownBot as error:
            raise ValueError(error.message) from None
        return spec

    def _make_bot(self, seat: int, spec: str) -> Seat:
        aec = self.aec
        return make_seat(aec.game, spec, aec.seat_names[seat], aec.game_seed)

    # --- Gymnasium ---------------------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        aec = self.aec
        aec.reset(seed=int(self.np_random.integers(2**62)))
        others = [index for index in range(len(aec.possible_agents)) if index != self.seat]
        self._bots = {index: self._make_bot(index, spec)
                      for index, spec in zip(others, self.opponents, strict=True)}
        self._play_bots()
        if self.render_mode == "human":
            self.render()
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self._done:
            raise RuntimeError("The episode is over: call reset() first.")
        index = int(action)
        if not 0 <= index < self.aec.num_actions or not self._mask[index]:
            self._done = True
            info = self._info()
            info["illegal_action"] = True
            return self._observation.copy(), self.illegal_reward, True, False, info
        self.aec.step(index)
        self._play_bots()
        observation = self._observe()
        aec = self.aec
        agent = self.agent
        terminated = aec.terminations[agent]
        truncated = aec.truncations[agent]
        reward = float(aec._cumulative_rewards[agent]) if terminated or truncated else 0.0
        if self.render_mode == "human":
            self.render()
        return observation, reward, terminated, truncated, self._info()

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions now, as booleans (sb3-contrib's ``MaskablePPO``)."""
        return self._mask.astype(bool)

    def render(self) -> str | None:  # type: ignore[override,unused-ignore]  # typed apart before 1.3
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode.")
            return None
        state = self.aec.state
        text = ("No game yet: call reset()." if state is None
                else self.aec.render_seat(self.seat))
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        self.aec.close()

    # --- inside ------------------------------------------------------------------------------

    def _play_bots(self) -> None:
        """Let the bots move until the learner is to move or the game is over."""
        aec = self.aec
        agent = self.agent
        while not (aec.terminations[agent] or aec.truncations[agent]) \
                and aec.agent_selection != agent:
            seat = aec._seat_of[aec.agent_selection]
            state = aec.state
            choice = self._bots[seat].choose(state.observation(seat))
            aec.step(state.action_index(choice))
        self._done = aec.terminations[agent] or aec.truncations[agent]

    def _observe(self) -> np.ndarray:
        observed = self.aec.observe(self.agent)
        self._observation = observed["observation"]
        self._mask = observed["action_mask"]
        return self._observation

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self._mask.copy()}
        if self._done:
            info.update(self.aec.infos.get(self.agent, {}))
        return info
