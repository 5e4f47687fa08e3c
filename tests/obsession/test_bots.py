"""The random and obsessed bots: their policies, their fast path, their character."""

from __future__ import annotations

import random
from dataclasses import fields

import pytest

from cardtable.games.obsession import bench, fast
from cardtable.games.obsession.actions import Blind, Play, Swap
from cardtable.games.obsession.bench import random_game
from cardtable.games.obsession.bots import ObsessedBot, RandomBot, bot_random, make_bot, random_play
from cardtable.games.obsession.cards import FACE
from cardtable.games.obsession.legality import LEGAL
from cardtable.games.obsession.observation import Observation
from cardtable.games.obsession.rules import Rules
from cardtable.games.obsession.state import ObsessionState

from .helpers import position, texts


class Fixed(random.Random):
    """A generator whose next draws are given."""

    def __init__(self, *draws: float) -> None:
        super().__init__(0)
        self.draws = list(draws)
        self.calls: list[str] = []

    def random(self) -> float:
        self.calls.append("random")
        return self.draws.pop(0)

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:  # type: ignore[override]
        self.calls.append(f"randrange({start})")
        return int(self.draws.pop(0))


def test_bot_generators_are_seeded_per_seat_from_the_game_seed() -> None:
    assert bot_random(42, 0).random() == random.Random("42/seat1").random()
    assert bot_random(42, 2).random() == random.Random("42/seat3").random()


# --- random ----------------------------------------------------------------------------------

def test_random_swap_keeps_the_dealt_split_without_drawing() -> None:
    game = ObsessionState.new(Rules(players=2), [False, False], 5)
    rng = Fixed()
    action = RandomBot(rng).choose(game.observe(0))
    assert action == Swap(tuple(game.visible[0])) and rng.calls == []


@pytest.mark.parametrize(("draw", "expected"), [(0, ["6C"]), (1, ["6C", "6D"]), (2, ["9C"])])
def test_random_lists_face_and_count_options_sorted_by_rank_then_count(
        draw: int, expected: list[str]) -> None:
    game = position(hands={0: "4C 6C 6D 9C"}, pile="5S", draw="2C 2D")
    rng = Fixed(draw)
    action = RandomBot(rng).choose(game.observe(0))
    assert isinstance(action, Play) and texts(action.cards) == expected
    assert rng.calls == ["randrange(3)"]


def test_random_draws_even_for_a_single_option() -> None:
    game = position(hands={0: "4C 9C"}, pile="5S", draw="2C 2D")
    rng = Fixed(0)
    RandomBot(rng).choose(game.observe(0))
    assert rng.calls == ["randrange(1)"]


def test_random_blind_attempt_is_uniform_over_hidden_positions() -> None:
    game = position(hands={0: "4C"}, hidden={1: "9C 9D 9H"}, pile="5S", to_move=1)
    assert RandomBot(Fixed(2)).choose(game.observe(1)) == Blind(3)


def test_random_fast_path_makes_the_same_choices_as_the_observation_path() -> None:
    for seed in range(40):
        players = 2 + seed % 9
        game = ObsessionState.new(Rules(players=players), [False] * players, seed)
        bots = [make_bot("random", s, seed) for s in range(players)]
        twins = [bot_random(seed, s) for s in range(players)]
        while not game.over:
            seat = game.current
            action = bots[seat].choose(game.observe(seat))
            if isinstance(action, Play):
                fast = random_play(game.source_cards(seat), game.active, twins[seat])
                assert fast == action.cards
            elif isinstance(action, Blind):
                assert twins[seat].randrange(len(game.hidden[seat])) + 1 == action.index
            game.apply(action)
        fast_game = random_game(Rules(players=players), seed)
        assert (fast_game.plays, fast_game.placings) == (game.plays, game.placings)


# --- obsessed --------------------------------------------------------------------------------

def test_obsessed_swap_puts_expensive_cards_face_up() -> None:
    game = position(2, hands={0: "4C R 9D"}, visible={0: "10S 5C 2H"})
    game.phase = 0
    action = ObsessedBot(Fixed()).choose(game.observe(0))
    assert isinstance(action, Swap) and texts(action.visible) == ["2H", "10S", "R"]


def _e8(next_hand: str = "5C 5D", draw: str = "") -> ObsessionState:
    return position(hands={0: "9C 9H QD 7S 7H R", 1: next_hand}, visible={1: "KC"},
                    pile="9S 9D 6C", draw=draw)


def _choice(game: ObsessionState, draw: float) -> list[str]:
    action = ObsessedBot(Fixed(draw)).choose(game.observe(0))
    assert isinstance(action, Play)
    return texts(action.cards)


def test_obsessed_seeks_the_kill_when_late() -> None:
    # E8: order 9(0) Q(5) 7(9) R(12); the last option is never chosen.
    game = _e8()
    assert _choice(game, 0.0) == ["9C", "9H"]
    assert _choice(game, 0.93) == ["QD"]
    assert _choice(game, 0.99) == ["7H", "7S"]
    assert _choice(game, 0.999999) == ["7H", "7S"]


def test_obsessed_attacks_a_next_player_with_an_empty_hand() -> None:
    game = _e8(next_hand="")
    assert _choice(game, 0.0) == ["7H", "7S"]  # 7(0) 9(0) R(0) Q(5); all copies when late
    assert _choice(game, 0.93) == ["9C", "9H"]
    assert _choice(game, 0.99) == ["R"]


def test_obsessed_plays_a_single_special_while_the_draw_pile_lasts() -> None:
    # E8 variant: 30 cards in the draw pile: neither late nor behind; order 9 Q 7 R.
    game = _e8(draw=" ".join(f"{face}{suit}" for face in "2345JKA8" for suit in "CDHS")[:89])
    assert len(game.draw) == 30
    assert _choice(game, 0.0) == ["9C", "9H"]
    assert _choice(game, 0.99) == ["7H"]


def test_obsessed_draws_one_number_per_face_choice_even_with_one_option() -> None:
    game = position(hands={0: "9C KD"}, pile="QS")
    rng = Fixed(0.5)
    ObsessedBot(rng).choose(game.observe(0))
    assert rng.calls == ["random"]


def test_obsessed_blind_attempt_is_always_position_1() -> None:
    game = position(hands={0: "4C"}, hidden={1: "9C 9D 9H"}, pile="5S", to_move=1)
    assert ObsessedBot(Fixed()).choose(game.observe(1)) == Blind(1)


def test_obsessed_prefers_its_lowest_legal_face() -> None:
    # Statistical character test over seeded games: with n valid faces the bot takes the
    # first of its ordering with probability >= .87 (1 for two faces); the cheapest face
    # is the first unless kill-seeking or an attack moved another face ahead.
    lowest = decisions = 0
    for seed in range(60):
        game = ObsessionState.new(Rules(players=4), [False] * 4, 1000 + seed)
        bots = [make_bot("obsessed", s, seed) for s in range(4)]
        while not game.over:
            seat = game.current
            observation = game.observe(seat)
            action = bots[seat].choose(observation)
            if isinstance(action, Play) and observation.draw_count > 12:
                row = LEGAL[observation.active_face]
                valid = {FACE[c] for c in observation.pool if row[FACE[c]]}
                if len(valid) >= 2:
                    decisions += 1
                    order = sorted(valid, key=lambda f: (ObsessedWeights[f], f))
                    lowest += FACE[action.cards[0]] == order[0]
            game.apply(action)
    assert decisions > 500
    assert 0.80 < lowest / decisions < 0.99


ObsessedWeights = {4: 1, 5: 2, 6: 3, 9: 3, 11: 4, 12: 5, 13: 6, 14: 7, 2: 8, 7: 9, 8: 10,
                   10: 11, 3: 12, 15: 12}


def test_bots_are_given_observations_that_do_not_reach_the_state() -> None:
    game = ObsessionState.new(Rules(players=3), [False] * 3, 11)
    observation = game.observe(0)
    assert isinstance(observation, Observation)
    internal = [game.hands, game.visible, game.hidden, game.draw, game.pile, *game.hands,
                *game.hidden]
    for field in fields(observation):
        value = getattr(observation, field.name)
        assert not isinstance(value, ObsessionState)
        assert all(value is not item for item in internal)
        assert not isinstance(value, list)  # tuples only: nothing a bot could change
    with pytest.raises(AttributeError):
        observation.seat = 1  # type: ignore[misc]


# --- the obsessed benchmark ------------------------------------------------------------------


@pytest.mark.skipif(not fast.available(), reason="the compiled core is not built")
def test_obsessed_bench_plays_the_bots_games_in_the_core() -> None:
    for players in (2, 4, 7):
        for seed in range(5):
            core = bench.obsessed_core_game(Rules(players=players), seed)
            game = bench.bot_game(Rules(players=players), seed, "obsessed")
            assert core.result == game.result
            assert core.export() == fast.export_game(game)


@pytest.mark.skipif(not fast.available(), reason="the compiled core is not built")
def test_obsessed_bench_prints_the_core_headline_and_the_clone_size(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--bot", "obsessed", "--games", "3", "--repeats", "1",
                       "--players", "4"]) == 0
    out = capsys.readouterr().out
    assert "engine: compiled core" in out
    size_line = next(line for line in out.splitlines() if line.startswith("core state"))
    size = int(size_line.split("4 players ")[1].split(" B")[0])
    assert 0 < size <= 4096
    assert "the obsessed policy in the compiled core (the exact ObsessedBot games)" in out
    assert "obsessed bots through their observations (pure Python)" in out
