"""One PettingZoo AEC environment for every game: ``cardtable.envs.env(name, **params)``.

What a game adds (its encoder, and optionally its text rendering, rewards and step cap) is the
part its description names (:mod:`cardtable.envs.parts`); everything else comes from the
description itself. Agents are ``player_0``, ``player_1``, ... for the game's seats in order
(``ABC``/``DEF``, ``P1``.., ``A``..). ``agent_selection`` is always the seat the game waits
for, so a seat that moves again (Obsession's extra plays, Caravan's simultaneous opening) is
selected again.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from cardtable.engine.description import GameDescription
from cardtable.engine.errors import IllegalAction
from cardtable.engine.protocol import Result
from cardtable.envs.parts import MAX_STEPS, Encoder, final_rewards, generic_render, part_of

__all__ = ["ActionSpace", "CardTableEnv", "Encoder", "wrap"]

AgentID = str
ObsDict = dict[str, np.ndarray]

DEFAULT = -1
"""``max_steps`` when not given: the game's part's own (see :mod:`cardtable.envs.parts`)."""


class ActionSpace(spaces.Discrete):  # type: ignore[type-arg,unused-ignore]  # generic before 1.3
    """``Discrete(n)`` whose membership test of a plain int skips numpy (the wrappers ask it at
    every step); everything else is Gymnasium's."""

    def contains(self, x: Any) -> bool:
        if type(x) is int:
            return 0 <= x < self._n
        return bool(super().contains(x))

    def __init__(self, n: int) -> None:
        super().__init__(n)
        self._n = n


class CardTableEnv(AECEnv):  # type: ignore[misc]  # PettingZoo is untyped
    """The game ``game`` (a name or a description) as an AEC environment
    (``cardtable.envs.raw_env(name)``).

    ``params`` are the game's parameters for ``cardtable.load_game``, over the description's
    ``bot_params`` and ``table_params`` (the length caps and deals of games between bots);
    ``max_steps`` truncates an episode after that many actions (None: only the game's own
    caps; not given: the game's part's default).
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - the PettingZoo attribute
        "render_modes": ["human", "ansi"], "is_parallelizable": False,
        "render_fps": 1}

    def __init__(self, game: str | GameDescription, render_mode: str | None = None,
                 max_steps: int | None = DEFAULT, **params: Any) -> None:
        super().__init__()
        described, part = part_of(game)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or "
                             f"None (got {render_mode!r})")
        if max_steps == DEFAULT:
            max_steps = getattr(part, "max_steps", MAX_STEPS)
        if max_steps is not None and (type(max_steps) is not int or max_steps < 1):
            raise ValueError(f"max_steps must be a positive integer or None (got {max_steps!r})")
        self.metadata = {**self.metadata, "name": f"{described.name}_v0"}
        self.description = described
        self.part = part
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.game: Any = described.load(**{**described.bot_params, **described.table_params,
                                           **params})
        self.encoder = part.encoder(self.game)
        seats = tuple(self.game.seats)
        self.seat_names = seats
        self.possible_agents = [f"player_{index}" for index in range(len(seats))]
        self._seat_of = {agent: index for index, agent in enumerate(self.possible_agents)}
        self._agent_of = dict(zip(seats, self.possible_agents, strict=True))
        self.num_actions = int(self.game.num_actions())
        self.action_spaces = {agent: ActionSpace(self.num_actions)
                              for agent in self.possible_agents}
        self.observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(self.encoder.low, self.encoder.high,
                                          dtype=self.encoder.low.dtype.type),
                "action_mask": spaces.Box(0, 1, (self.num_actions,), dtype=np.int8),
            })
            for agent in self.possible_agents
        }
        self.np_random, _ = seeding.np_random()
        self.state: Any = None
        self.game_seed = 0
        """The seed of the game in play (drawn from ``np_random`` by ``reset``)."""
        self.steps = 0
        self._last_mask: tuple[tuple[int, int, int], np.ndarray] = (
            (0, -1, -1), np.zeros(0, dtype=np.int8))

    # --- spaces ----------------------------------------------------------------------------

    def observation_space(self, agent: AgentID) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: AgentID) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # --- the AEC protocol -------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game. ``seed`` seeds the environment's generator, which deals this game and
        the following ones (each later reset without a seed deals the next game)."""
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        game_seed = int(self.np_random.integers(2**62))
        self.game_seed = game_seed
        self.state = self.game.new_state(game_seed)
        self.steps = 0
        self._last_mask = ((0, -1, -1), np.zeros(0, dtype=np.int8))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[AgentID, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[0]
        if self.state.result is not None:
            self._finish(self.state.result)
        else:
            self.agent_selection = self._agent_of[self.state.to_move]
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: AgentID) -> ObsDict:
        seat = self._seat_of[agent]
        observation = self.state.observation(seat)
        return {"observation": self.encoder.encode(observation),
                "action_mask": self._mask(seat, observation)}

    def _mask(self, seat: int, observation: Any) -> np.ndarray:
        state = self.state
        key = (id(state), self.steps, seat)
        cached = self._last_mask
        if cached[0] == key:
            return cached[1].copy()
        if observation is None:
            observation = state.observation(seat)
        mask = self.encoder.legal_mask(observation)
        if mask is None:
            if state.to_move == self.seat_names[seat]:
                mask = np.frombuffer(bytearray(state.legal_mask()), dtype=np.int8)
            else:
                mask = np.zeros(self.num_actions, dtype=np.int8)
        self._last_mask = (key, mask)
        return mask.copy()

    def legal_mask(self, agent: AgentID) -> np.ndarray:
        """The agent's legal actions now (``int8``, all 0 when it is not to move)."""
        return self._mask(self._seat_of[agent], None)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move: None is only for finished agents")
        state = self.state
        index = int(action)
        seat = self._seat_of[agent]
        if not 0 <= index < self.num_actions or not self.legal_mask(agent)[index]:
            raise ValueError(f"Illegal action {index} for {agent} ({self.seat_names[seat]}): "
                             "not in its action mask")
        try:
            state.apply(state.index_action(index))
        except (IllegalAction, ValueError) as error:  # not reached: the mask is the game's
            raise ValueError(f"Illegal action {index} for {agent} "
                             f"({self.seat_names[seat]}): {error}") from None
        self.steps += 1
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        result = state.result
        if result is not None:
            self._finish(result)
        elif self.max_steps is not None and self.steps >= self.max_steps:
            self._stop("max_steps")
        else:
            self.agent_selection = self._agent_of[state.to_move]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _stop(self, reason: str) -> None:
        """Truncate a game the rules would let go on: rewards stay 0."""
        self.truncations = dict.fromkeys(self.agents, True)
        for agent in self.agents:
            self.infos[agent] = {"result": reason, "winners": []}
        self._deads_step_first()

    def _finish(self, result: Result) -> None:
        rewards = final_rewards(self.description, self.part, self.game, result,
                                self.seat_names)
        self.rewards = {agent: rewards[index] for index, agent in enumerate(self.possible_agents)
                        if agent in self.rewards}
        stopped = self.description.stopped(result)
        if stopped:
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            self.terminations = dict.fromkeys(self.agents, True)
        # A game its rules stopped names the cause (Caravan's ``stuck_plies``: "stalemate").
        reason = result.details.get("cause", result.reason) if stopped else result.reason
        for agent in self.agents:
            self.infos[agent] = {"result": reason, "winners": list(result.winners)}
        self._deads_step_first()

    def render(self) -> str | None:
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() was called without a render_mode "
                                  f"(choose one of {self.metadata['render_modes']}).")
            return None
        if self.state is None:
            text = "No game yet: call reset()."
        else:
            to_move = self.state.to_move
            seat = 0 if to_move is None else self.seat_names.index(to_move)
            text = self.render_seat(seat)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def render_seat(self, seat: int) -> str:
        """The game as the 0-based ``seat`` sees it, as text: the part's ``render``, or the
        seat's view one key a line."""
        own = getattr(self.part, "render", None)
        if own is not None:
            text: str = own(self.state, seat)
            return text
        return generic_render(self.description, self.state, seat)

    def close(self) -> None:
        self.state = None


_FORWARDED = ("agent_selection", "agents", "num_agents", "rewards", "_cumulative_rewards",
              "terminations", "truncations", "infos")
"""What ``last()``, ``step()`` and ``agent_iter()`` read from a wrapper on every step."""


class _NotReset:
    """Stands for the environment in an order-enforcing wrapper until its first ``reset()``."""

    def __getattr__(self, name: str) -> Any:
        raise AttributeError(f"{name} cannot be accessed before reset")


def _forwarding(base: type[Any], checked: bool) -> type[Any]:
    """``base`` (a PettingZoo wrapper) reading the per-step attributes straight from the
    unwrapped environment (``operator.attrgetter``, no Python frame) instead of through one
    ``__getattr__`` per wrapper layer, which costs more than the game's own move. Behaviour is
    unchanged: the order-enforcing wrapper still refuses them before ``reset()``."""

    def __init__(self: Any, env: Any, *args: Any, **kwargs: Any) -> None:
        base.__init__(self, env, *args, **kwargs)
        if not checked:
            self._raw = env.unwrapped

    namespace: dict[str, Any] = {name: property(attrgetter(f"_raw.{name}"))
                                 for name in _FORWARDED}
    namespace["__init__"] = __init__
    namespace["__doc__"] = base.__doc__
    if checked:
        def reset(self: Any, seed: int | None = None,
                  options: dict[str, Any] | None = None) -> None:
            base.reset(self, seed=seed, options=options)
            self._raw = self.env.unwrapped

        namespace["_raw"] = _NotReset()
        namespace["reset"] = reset
        # PettingZoo's __str__ names only its own class's instances by the environment's name.
        namespace["__str__"] = lambda self: str(self.env)
    return type(base.__name__, (base,), namespace)


TerminateIllegalWrapper = _forwarding(wrappers.TerminateIllegalWrapper, checked=False)
AssertOutOfBoundsWrapper = _forwarding(wrappers.AssertOutOfBoundsWrapper, checked=False)
OrderEnforcingWrapper = _forwarding(wrappers.OrderEnforcingWrapper, checked=True)


def wrap(raw: CardTableEnv) -> AECEnv:
    """The wrappers PettingZoo's classic games use: an illegal action ends the game with −1 for
    its agent, an action outside the space is an assertion error, and calls out of order
    (``step`` before ``reset`` ...) are errors. They are PettingZoo's own classes, only
    reading the per-step attributes faster (see :func:`_forwarding`)."""
    env = TerminateIllegalWrapper(raw, illegal_reward=-1)
    env = AssertOutOfBoundsWrapper(env)
    return OrderEnforcingWrapper(env)
