"""The search bots through the state protocol alone, on a game registered by the test.

The game is a small hidden-information Nim (``take1``/``take2`` from a pile, the last token
wins; each seat also holds a card nobody else sees, which changes nothing): ``ismcts`` must
play it through ``game.sample_world``, ``omniscient`` through the state, the bots are listed
for it after its own, and its description's ``observation_json`` alone gives external
programs a way to play it.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from cardtable.agents.external_games import adapter
from cardtable.agents.protocol_search import ProtocolWorld
from cardtable.agents.registry import UnknownBot, bot_names, make_seat, show_state
from cardtable.engine import game_registry
from cardtable.engine.description import Bot, BotSpec, GameDescription, no_options
from cardtable.engine.errors import IllegalAction, NotationError
from cardtable.engine.match import play_match
from cardtable.engine.protocol import Result
from cardtable.engine.search import shared_rewards

SEATS = ("N", "S")


@dataclass(frozen=True)
class PileObservation:
    seat: int
    to_move: int | None
    pile: int
    card: int
    """The seat's own hidden card: nothing in the rules depends on it."""

    def legal_actions(self) -> list[list[int]]:
        return _legal(self.pile) if self.to_move == self.seat else []


def _legal(pile: int) -> list[list[int]]:
    # Lists on purpose: actions that cannot be dict keys, which the search keys by notation.
    return [[take] for take in (1, 2) if take <= pile]


class PileState:
    def __init__(self, pile: int, cards: tuple[int, int], mover: int = 0) -> None:
        self.pile = pile
        self.cards = cards
        self.mover = mover
        self.winner: int | None = None

    @property
    def seats(self) -> tuple[str, ...]:
        return SEATS

    @property
    def to_move(self) -> str | None:
        return None if self.winner is not None else SEATS[self.mover]

    @property
    def result(self) -> Result | None:
        return None if self.winner is None else Result((SEATS[self.winner],), "last")

    def legal_actions(self) -> list[list[int]]:
        return [] if self.winner is not None else _legal(self.pile)

    def apply(self, action: list[int]) -> None:
        if action not in self.legal_actions():
            raise IllegalAction(f"Cannot {self.action_text(action)} now.")
        self.pile -= action[0]
        if self.pile == 0:
            self.winner = self.mover
        self.mover = 1 - self.mover

    def observation(self, seat: str | int) -> PileObservation:
        number = self.seat_number(seat)
        return PileObservation(number, None if self.winner is not None else self.mover,
                               self.pile, self.cards[number])

    def clone(self) -> PileState:
        other = PileState(self.pile, self.cards, self.mover)
        other.winner = self.winner
        return other

    def parse_action(self, text: str) -> list[int]:
        if text.strip() in ("take1", "take2"):
            return [int(text.strip()[-1])]
        raise NotationError(f"Not a move: '{text}' (take1 or take2).")

    def action_text(self, action: list[int]) -> str:
        return f"take{action[0]}"

    def seat_number(self, seat: str | int) -> int:
        return seat if isinstance(seat, int) else SEATS.index(seat)

    def to_position(self) -> str:
        return f"{self.pile} {self.cards} {self.mover} {self.winner}"


@dataclass(frozen=True)
class BlindPileGame:
    """The game without ``sample_world``: the search cannot deal its worlds."""

    size: int = 7
    name: str = "test_blind_pile"

    @property
    def seats(self) -> tuple[str, ...]:
        return SEATS

    def new_state(self, seed: Any = None) -> PileState:
        rng = random.Random(seed)
        return PileState(self.size, (rng.randrange(10), rng.randrange(10)))

    def state_from_position(self, text: str) -> PileState:
        raise NotImplementedError

    def num_actions(self) -> int:
        return 2


@dataclass(frozen=True)
class PileGame(BlindPileGame):
    name: str = "test_pile"

    def sample_world(self, observation: PileObservation, seed: int | str) -> PileState:
        """The other seat's card dealt from ``seed``; everything else as seen."""
        other = random.Random(seed).randrange(10)
        cards = (observation.card, other) if observation.seat == 0 else \
            (other, observation.card)
        mover = observation.seat if observation.to_move is None else observation.to_move
        return PileState(observation.pile, cards, mover)


class TakeAll:
    """The game's own bot: always the largest take."""

    name = "greedy"

    def choose(self, observation: PileObservation) -> list[int]:
        return observation.legal_actions()[-1]

    def rejected(self, error: IllegalAction) -> None:
        raise error


def _greedy(game: Any, spec: BotSpec, seat: str, seed: int | str) -> TakeAll:
    no_options(spec)
    return TakeAll()


class PileDescription(GameDescription):
    name = "test_pile"
    title = "Pile"

    def load(self, **params: Any) -> Any:
        return PileGame(**params)

    def bots(self) -> Sequence[Bot]:
        return [Bot("greedy", _greedy, "the largest take")]

    def observation_json(self, observation: Any) -> dict[str, Any]:
        return {"seat": SEATS[observation.seat], "pile": observation.pile,
                "card": observation.card}

    def rules_json(self, game: Any) -> dict[str, Any]:
        return {"size": game.size}


class BlindPileDescription(PileDescription):
    name = "test_blind_pile"

    def load(self, **params: Any) -> Any:
        return BlindPileGame(**params)


@pytest.fixture(autouse=True)
def registered() -> Iterator[None]:
    from cardtable.agents import registry

    for described in (PileDescription(), BlindPileDescription()):
        game_registry.register(described)
    yield
    for name in ("test_pile", "test_blind_pile"):
        game_registry.unregister(name)
        registry._cache.pop(name, None)


def test_every_game_is_offered_the_search_bots_after_its_own() -> None:
    assert bot_names("test_pile") == ("greedy", "ismcts", "random", "exec")
    assert bot_names("test_pile", calibration=True) == (
        "greedy", "ismcts", "omniscient", "random", "exec")


def test_the_search_takes_the_generic_options_only() -> None:
    game = PileGame()
    with pytest.raises(UnknownBot, match=r"takes no option 'reward' \(options: iters, time, c, "
                                         r"rollout, root, opponents\)"):
        make_seat(game, "ismcts:reward=win", "N", 0)
    with pytest.raises(UnknownBot, match=r"Unknown rollout 'greedy' .*\(rollouts: random\)"):
        make_seat(game, "ismcts:rollout=greedy", "N", 0)
    assert make_seat(game, "ismcts", "N", 0).options.exploration == 0.7  # type: ignore[attr-defined]


@pytest.mark.parametrize("pile", [4, 5, 7, 8, 10, 11])
def test_ismcts_finds_the_winning_take_through_sampled_worlds(pile: int) -> None:
    game = PileGame(size=pile)
    state = game.new_state(pile)
    bot = make_seat(game, "ismcts:iters=400", "N", 1)
    move = bot.choose(state.observation("N"))
    assert move == [pile % 3]  # leave the other seat a multiple of three


def test_the_move_depends_on_the_observation_only() -> None:
    game = PileGame(size=8)
    one, two = PileState(8, (1, 2)), PileState(8, (1, 9))
    moves = [make_seat(game, "ismcts:iters=60,c=3", "N", seed).choose(state.observation("N"))
             for state in (one, two) for seed in (4, 4)]
    assert moves[0] == moves[1] == moves[2] == moves[3]


def test_omniscient_searches_the_state_it_is_shown() -> None:
    game = PileGame(size=7)
    state = game.new_state(3)
    seats = {"N": make_seat(game, "omniscient:iters=300", "N", 3, calibration=True),
             "S": make_seat(game, "random", "S", 3)}
    with pytest.raises(RuntimeError, match="must be shown"):
        seats["N"].choose(state.observation("N"))
    show_state(seats, state)
    result = play_match(state, seats)
    assert result.winners == ("N",)  # the first seat wins a pile of 7 with the right takes


def test_ismcts_beats_random_over_whole_games() -> None:
    game = PileGame(size=11)
    wins = 0
    for seed in range(6):
        state = game.new_state(seed)
        seats = {"N": make_seat(game, "random", "N", seed),
                 "S": make_seat(game, "ismcts:iters=300", "S", seed)}
        wins += play_match(state, seats).winners == ("S",)
    assert wins >= 5  # N, first from 11, wins only if it finds 11 % 3 and never errs


def test_a_game_that_deals_no_world_is_refused_in_one_line() -> None:
    game = BlindPileGame()
    with pytest.raises(UnknownBot, match=r"cannot play test_blind_pile: the game deals no "
                                         r"world"):
        make_seat(game, "ismcts", "N", 0)
    assert make_seat(game, "omniscient:iters=10", "N", 0, calibration=True)


def test_a_rollout_cut_short_scores_every_seat_alike() -> None:
    from cardtable.engine.game_registry import description

    world = ProtocolWorld(PileState(50, (0, 0)), SEATS, {"N": 0, "S": 1},
                          description("test_pile").places, True, 3)
    world.rollout(1)
    assert world.state.pile >= 50 - 6 and world.state.result is None
    assert list(world.rewards()) == [0.5, 0.5]
    world.play("take1")  # keys are notation: the game's actions are lists
    assert world.state.pile < 50 - 3 + 1


def test_places_become_rewards_with_ties_shared() -> None:
    assert shared_rewards([0, 1]) == [1.0, 0.0]
    assert shared_rewards([0, 0]) == [0.5, 0.5]
    assert shared_rewards([1, 0, 2]) == [0.5, 1.0, 0.0]
    assert shared_rewards([0, 0, 2, 3]) == pytest.approx([5 / 6, 5 / 6, 1 / 3, 0.0])
    assert shared_rewards([0, 1, 1, 1]) == pytest.approx([1.0, 1 / 3, 1 / 3, 1 / 3])


# --- the default adapter for external programs ---------------------------------------------


def test_observation_json_alone_gives_external_programs_a_way_in() -> None:
    found = adapter("test_pile")
    assert found is not None
    game = PileGame(size=5)
    state = game.new_state(2)
    observation = state.observation("N")
    assert found.observation_json(observation) == {"seat": "N", "pile": 5,
                                                   "card": state.cards[0]}
    assert found.rules_json(game) == {"size": 5}
    assert found.legal(game, observation) == {"take1": [1], "take2": [2]}
    assert found.parse(game, observation, " take2 ") == [2]
    with pytest.raises(NotationError, match="Not a move"):
        found.parse(game, observation, "take everything")
    assert GameDescription().external() is None


BOT = """
import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "ready", "name": "last-legal"}), flush=True)
    elif message["type"] == "turn":
        print(json.dumps({"type": "move", "move": message["legal"][-1]}), flush=True)
    elif message["type"] == "quit":
        break
"""


def test_an_external_program_plays_a_whole_game_through_the_default_adapter(
        tmp_path: Path) -> None:
    script = tmp_path / "last_legal.py"
    script.write_text(BOT)
    game = PileGame(size=9)
    state = game.new_state(1)
    seats = {"N": make_seat(game, f"exec:{sys.executable} {script}", "N", 1),
             "S": make_seat(game, "greedy", "S", 1)}
    result = play_match(state, seats)
    # Both take two a turn: 9, 7, 5, 3, 1 -> N takes the last token.
    assert result.winners == ("N",)
    assert json.dumps(result.details) == "{}"



# --- Austerity, a built-in game searched through the protocol -----------------------------


def _austerity(seed: int, moves: int) -> tuple[Any, Any]:
    import cardtable

    game = cardtable.load_game("austerity", deal="shuffled")
    state = game.new_state(seed)
    rng = random.Random(seed)
    for _ in range(moves):
        state.apply(rng.choice(state.legal_actions()))
    return game, state


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_ismcts_plays_austerity_from_what_the_seat_sees(seed: int) -> None:
    game, state = _austerity(seed, 2 * seed)
    seat = state.to_move
    worlds = [state, state.sample_world(seat, 50), state.sample_world(seat, 51)]
    assert worlds[1].to_position() != worlds[2].to_position()  # the hidden order differs
    moves = [make_seat(game, "ismcts:iters=80", seat, seed).choose(world.observation(seat))
             for world in worlds]
    assert moves[0] == moves[1] == moves[2]
    assert moves[0] in state.legal_actions()


def test_ismcts_beats_random_at_austerity() -> None:
    game, _ = _austerity(0, 0)
    wins = 0
    for seed in range(4):
        state = game.new_state(seed)
        first, second = ("ismcts:iters=60", "random") if seed % 2 == 0 else \
            ("random", "ismcts:iters=60")
        seats = {"A": make_seat(game, first, "A", seed), "B": make_seat(game, second, "B", seed)}
        searcher = "A" if seed % 2 == 0 else "B"
        wins += play_match(state, seats).winners == (searcher,)
    assert wins >= 3
