"""The ISMCTS bot: seeded, blind to hidden cards, legal, by name in every shell."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from typing import Any

import pytest

import cardtable
from cardtable.agents.ismcts import SearchOptions, search
from cardtable.agents.registry import UnknownBot, make_seat
from cardtable.engine.match import play_match
from cardtable.games.caravan import fast as caravan_fast
from cardtable.games.caravan.search import outcome
from cardtable.games.obsession import fast as obsession_fast
from cardtable.games.obsession.cards import FACE
from cardtable.games.obsession.search import PLACE_REWARDS, placing_rewards

pytestmark = pytest.mark.skipif(
    not (caravan_fast.available() and obsession_fast.available()) and not os.environ.get("CI"),
    reason="the compiled cores are not built",
)


def _played(state: Any, moves: int, seed: int) -> Any:
    rng = random.Random(seed)
    for _ in range(moves):
        if state.result is not None:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def _caravan_position(seed: int) -> Any:
    game = cardtable.load_game("caravan")
    return game, _played(game.new_state(seed=seed), 24, seed)


def _obsession_position(seed: int) -> Any:
    game = cardtable.load_game("obsession", players=3)
    state = game.new_state(seed=seed)
    # Play past the swaps into a position where the mover has a choice of plays.
    rng = random.Random(seed)
    while state.result is None and (state.observation(state.current).phase == "swap"
                                    or len(state.legal_actions()) < 3
                                    or state.observation(state.current).source == "hidden"):
        state.apply(rng.choice(state.legal_actions()))
    return game, state


@pytest.mark.parametrize("make", [_caravan_position, _obsession_position])
def test_same_seed_and_iterations_give_the_same_move(make: Any) -> None:
    for seed in range(3):
        game, state = make(seed)
        seat = state.to_move
        observation = state.observation(seat)
        first = make_seat(game, "ismcts:iters=150", seat, seed).choose(observation)
        again = make_seat(game, "ismcts:iters=150", seat, seed).choose(observation)
        assert first == again
        assert first in state.legal_actions()


@pytest.mark.parametrize("make", [_caravan_position, _obsession_position])
def test_hidden_cards_do_not_change_the_move(make: Any) -> None:
    """Two states that differ only in what the seat cannot see get the same move."""
    differing = 0
    for seed in range(4):
        game, state = make(seed)
        seat = state.to_move
        one = state.sample_world(seat, seed=11)
        two = state.sample_world(seat, seed=12)
        assert one.observation(seat) == two.observation(seat)
        if one.to_position() != two.to_position():
            differing += 1
        moves = [make_seat(game, "ismcts:iters=120", seat, 5).choose(world.observation(seat))
                 for world in (one, two)]
        assert moves[0] == moves[1]
    assert differing >= 3  # the pairs really hold different hidden cards


def test_search_statistics_are_consistent() -> None:
    game, state = _caravan_position(4)
    seat = state.to_move
    bot = make_seat(game, "ismcts:iters=300", seat, 1)
    move = bot.choose(state.observation(seat))
    root = bot.last_root
    assert sum(edge.visits for edge in root.values()) == 300
    chosen = state.action_index(move)
    most = max(root.items(), key=lambda item: item[1].visits)[0]
    assert state.action_index(state.index_action(chosen)) == chosen
    assert bot.last_worlds.action(most) == move  # type: ignore[attr-defined]
    for edge in root.values():
        assert 0 <= edge.reward <= edge.visits <= edge.available


@pytest.mark.parametrize("name", ["caravan", "obsession"])
def test_a_whole_game_against_random_is_legal(name: str) -> None:
    game = cardtable.load_game(name) if name == "caravan" else cardtable.load_game(
        name, players=2)
    state = game.new_state(seed=3)
    seats = {seat: make_seat(game, "ismcts:iters=40" if index == 0 else "random", seat, 3)
             for index, seat in enumerate(state.seats)}
    result = play_match(state, seats)
    assert result is not None and state.result == result


def test_time_budget_stops_the_search() -> None:
    game, state = _caravan_position(2)
    seat = state.to_move
    bot = make_seat(game, "ismcts:time=0.05", seat, 1)
    assert bot.choose(state.observation(seat)) in state.legal_actions()
    assert sum(edge.visits for edge in bot.last_root.values()) >= 1


@pytest.mark.parametrize("spec, message", [
    ("ismcts:iters=0", "Invalid value '0' for the option 'iters' of the bot 'ismcts' "
                       "(expected an integer from 1 to 1000000)."),
    ("ismcts:time=-1", "Invalid value '-1' for the option 'time' of the bot 'ismcts' "
                       "(expected a number from 0.001 to 60)."),
    # A budget that would never end is refused too.
    ("ismcts:iters=100000000000000000000000", "Invalid value '100000000000000000000000' for "
     "the option 'iters' of the bot 'ismcts' (expected an integer from 1 to 1000000)."),
    ("ismcts:iters=1000001", "Invalid value '1000001' for the option 'iters' of the bot "
                             "'ismcts' (expected an integer from 1 to 1000000)."),
    ("ismcts:time=1e308", "Invalid value '1e308' for the option 'time' of the bot 'ismcts' "
                          "(expected a number from 0.001 to 60)."),
    ("ismcts:time=61", "Invalid value '61' for the option 'time' of the bot 'ismcts' "
                       "(expected a number from 0.001 to 60)."),
    ("ismcts:rollout=smart", "Unknown rollout 'smart' for the bot 'ismcts' "
                             "(rollouts: greedy, eval, reply, random)."),
    ("ismcts:opponents=psychic", "Unknown opponent model 'psychic' for the bot 'ismcts' "
                                 "(opponents: tree, policy)."),
    ("ismcts:depth=3", "The bot 'ismcts' takes no option 'depth' "
                       "(options: iters, time, c, rollout, root, opponents)."),
])
def test_bad_options_are_refused_in_one_line(spec: str, message: str) -> None:
    with pytest.raises(UnknownBot) as caught:
        make_seat(cardtable.load_game("caravan"), spec, "ABC", 0)
    assert str(caught.value) == message


@pytest.mark.parametrize("spec, message", [
    ("ismcts:reward=most", "Unknown reward 'most' for the bot 'ismcts' "
                           "(rewards: linear, square, ends, win)."),
    ("ismcts:depth=3", "The bot 'ismcts' takes no option 'depth' "
                       "(options: iters, time, c, rollout, root, opponents, reward, swap, "
                       "infer)."),
    ("ismcts:infer=mind", "Unknown infer 'mind' for the bot 'ismcts' "
                          "(infers: policy, rules, none)."),
    ("ismcts:sight=hands", "The bot 'ismcts' takes no option 'sight' "
                          "(options: iters, time, c, rollout, root, opponents, reward, swap, "
                          "infer)."),
    ("omniscient:sight=deck", "Unknown sight 'deck' for the bot 'omniscient' "
                             "(sights: all, hands)."),
])
def test_bad_obsession_options_are_refused_in_one_line(spec: str, message: str) -> None:
    with pytest.raises(UnknownBot) as caught:
        make_seat(cardtable.load_game("obsession", players=4), spec, "P1", 0,
                  calibration=True)
    assert str(caught.value) == message


def test_omniscient_seeing_the_hands_deals_only_the_rest_again() -> None:
    # ``sight=hands``: every world holds the other seats' true hands (by face: suits and decks
    # play alike) and the seat's own, while the draw pile and the hidden rows are dealt again.
    game = cardtable.load_game("obsession", players=4)
    state = game.new_state(seed=8)
    bots = [make_seat(game, "obsessed", seat, 3) for seat in game.seats]
    searched = 0
    while state.result is None and searched < 12:
        seat = game.seats[state.current]
        observation = state.observation(seat)
        if observation.phase != "swap" and observation.source == "hand" \
                and observation.draw_count > 1:
            bot = make_seat(game, "omniscient:sight=hands,iters=10", seat, 1, calibration=True)
            bot.watch(state)  # type: ignore[attr-defined]
            worlds = bot.factory(state, 5, bot.options)  # type: ignore[attr-defined]
            true = obsession_fast.FastGame.from_game(state).export()
            draws = set()
            for world_seed in range(4):
                world = worlds.sample(world_seed).game.export()
                for hand, true_hand in zip(world["hands"], true["hands"], strict=True):
                    assert sorted(map(FACE.__getitem__, hand)) == \
                        sorted(map(FACE.__getitem__, true_hand))
                assert sorted(FACE[card] for card in world["draw"] + sum(world["hidden"], ())) \
                    == sorted(FACE[card] for card in true["draw"] + sum(true["hidden"], ()))
                draws.add(world["draw"])
            assert len(draws) > 1
            searched += 1
        state.apply(bots[state.current].choose(observation))
    assert searched == 12


def test_the_reward_scale_is_an_obsession_option() -> None:
    game = cardtable.load_game("obsession", players=4)
    assert make_seat(game, "ismcts", "P1", 0).options.choice("reward") == "linear"  # type: ignore[attr-defined]
    bot = make_seat(game, "ismcts:reward=win", "P1", 0)
    assert bot.options.choice("reward") == "win"  # type: ignore[attr-defined]
    with pytest.raises(UnknownBot, match="takes no option 'reward'"):
        make_seat(cardtable.load_game("caravan"), "ismcts:reward=win", "ABC", 0)


@pytest.mark.parametrize("make", [_caravan_position, _obsession_position])
def test_opponents_played_by_the_policy_leave_only_own_moves_in_the_tree(make: Any) -> None:
    def movers(edges: dict[Any, Any]) -> set[int]:
        found: set[int] = set()
        for edge in edges.values():
            found |= {edge.mover} | movers(edge.children)
        return found

    for seed in range(2):
        game, state = make(seed)
        seat = state.to_move
        observation = state.observation(seat)
        searched = make_seat(game, "ismcts:iters=300,opponents=tree", seat, seed)
        modelled = make_seat(game, "ismcts:iters=300,opponents=policy", seat, seed)
        move = modelled.choose(observation)
        assert move in state.legal_actions()
        assert move == make_seat(game, "ismcts:iters=300,opponents=policy", seat,
                                 seed).choose(observation)
        searched.choose(observation)
        own = state.seats.index(seat)
        assert movers(modelled.last_root) == {own}  # type: ignore[attr-defined]
        assert len(movers(searched.last_root)) > 1  # type: ignore[attr-defined]


def test_omniscient_needs_the_state_and_plays_legally() -> None:
    game, state = _caravan_position(5)
    seat = state.to_move
    bot = make_seat(game, "omniscient:iters=100", seat, 1, calibration=True)
    with pytest.raises(RuntimeError):
        bot.choose(state.observation(seat))
    bot.watch(state)  # type: ignore[attr-defined]
    assert bot.choose(state.observation(seat)) in state.legal_actions()


def test_outcome_rewards() -> None:
    assert outcome(("ABC",), ("ABC", "DEF")) == [1.0, 0.0]
    assert outcome((), ("ABC", "DEF")) == [0.5, 0.5]


def test_placing_rewards() -> None:
    # Placings (0-based seats, first first) give 1 to the first and 0 to the last.
    assert placing_rewards((1, 2, 0), 3) == (0.0, 1.0, 0.5)
    assert placing_rewards((3, 0, 2, 1), 4) == pytest.approx((2 / 3, 0.0, 1 / 3, 1.0))
    # Seats not placed share the places left.
    assert placing_rewards((2,), 3) == (0.25, 0.25, 1.0)
    assert placing_rewards((), 4) == (0.5, 0.5, 0.5, 0.5)
    # Two seats: the winner 1, the other 0; a stalemate with nobody out shares.
    assert placing_rewards((1,), 2) == (0.0, 1.0)
    assert placing_rewards((), 2) == (0.5, 0.5)
    # Other scales of the same placings.
    assert placing_rewards((3, 0, 2, 1), 4, "square") == pytest.approx((4 / 9, 0.0, 1 / 9, 1.0))
    assert placing_rewards((3, 0, 2, 1), 4, "win") == (0.0, 0.0, 0.0, 1.0)
    assert placing_rewards((3, 0, 2, 1), 4, "ends") == (0.5, 0.0, 0.5, 1.0)
    assert placing_rewards((2,), 4, "ends") == pytest.approx((1 / 3, 1 / 3, 1.0, 1 / 3))
    assert placing_rewards((2,), 4, "square") == pytest.approx((5 / 27, 5 / 27, 1.0, 5 / 27))
    for scale in PLACE_REWARDS:
        assert placing_rewards((1,), 2, scale) == (0.0, 1.0)


def test_search_on_a_finished_world_backs_up_the_result() -> None:
    class Done:
        def mover(self) -> int:
            return -1

        def keys(self) -> list[int]:
            return []

        def play(self, key: object) -> None:
            raise AssertionError

        def rollout(self, seed: int) -> None:
            raise AssertionError

        def rewards(self) -> list[float]:
            return [1.0, 0.0]

    class OneMove:
        seat = 0

        def __init__(self) -> None:
            self.calls = 0

        def sample(self, seed: int) -> Any:
            self.calls += 1
            return Game()

        def action(self, key: object) -> object:
            return key

        def shortcut(self) -> None:
            return None

    class Game:
        def __init__(self) -> None:
            self.over = False

        def mover(self) -> int:
            return -1 if self.over else 0

        def keys(self) -> list[int]:
            return [7, 9]

        def play(self, key: object) -> None:
            self.key = key
            self.over = True

        def rollout(self, seed: int) -> None:
            pass

        def rewards(self) -> list[float]:
            return [1.0 if self.key == 9 else 0.0, 0.0]

    assert Done().mover() == -1
    worlds = OneMove()
    key, root = search(worlds, SearchOptions(iterations=50), 1)
    assert key == 9 and worlds.calls == 50
    assert root[9].visits > root[7].visits


def _script(name: str, *args: str) -> subprocess.CompletedProcess[str]:
    code = f"import sys; from cardtable.cli.{name} import main; sys.exit(main())"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=300)


def test_caravan_command_seats_ismcts() -> None:
    done = _script("caravan", "--bvb", "-b", "ismcts:iters=60", "--bot-abc", "normal",
                   "--seed", "3", "--delay", "0")
    assert done.returncode == 0, done.stderr
    assert "WINNER" in done.stdout
    refused = _script("caravan", "--bvb", "-b", "ismcts:iterz=5")
    assert refused.returncode == 1
    assert refused.stderr.strip() == ("caravan: The bot 'ismcts' takes no option 'iterz' "
                                      "(options: iters, time, c, rollout, root, opponents).")


def test_obsession_command_seats_ismcts() -> None:
    done = _script("obsession", "--players", "2", "--humans", "0", "--bot", "ismcts:iters=60",
                   "--seed", "4", "--delay", "0")
    assert done.returncode == 0, done.stderr
    refused = _script("obsession", "--players", "2", "--humans", "0", "--bot", "ismcts:c=x")
    assert refused.returncode == 1
    assert "Invalid value 'x' for the option 'c' of the bot 'ismcts'" in refused.stderr


def test_a_single_choice_is_taken_without_search() -> None:
    """Where every legal move plays the same card the same way, the move comes at once."""
    from cardtable.games.caravan.search import card_keys

    game = cardtable.load_game("caravan")
    found = 0
    for seed in range(200):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while state.result is None:
            if len(card_keys(state.legal_codes(), state.hands[state.turn])) == 1:
                seat = state.to_move
                bot = make_seat(game, "ismcts:iters=50", seat, seed)
                assert bot.choose(state.observation(seat)) in state.legal_actions()
                assert bot.last_worlds is None
                found += 1
                break
            state.apply(rng.choice(state.legal_actions()))
        if found == 2:
            break
    assert found == 2


def test_card_keys_name_cards_not_hand_positions() -> None:
    from cardtable.games.caravan.notation import pack
    from cardtable.games.caravan.search import card_keys

    five_hearts, king = 5 | 1 << 4, 13 | 2 << 4
    codes = [pack(0, 0, 1), pack(0, 0, 2), pack(0, 3, 2, 1), pack(1, 0, 1)]
    one = card_keys(codes, [five_hearts, king])
    two = card_keys([pack(0, 0, 2), pack(0, 0, 1), pack(0, 3, 1, 1), pack(1, 0, 2)],
                    [king, five_hearts])
    assert sorted(one) == sorted(two)  # the same moves, whatever the order of the hand
    assert len(one) == 4
    assert one[pack(0, 0, five_hearts + 1)] == pack(0, 0, 1)


def test_every_game_names_its_search_bots() -> None:
    from cardtable.agents.registry import bot_names

    assert {"expert", "ismcts"} <= set(bot_names("caravan"))
    assert {"ismcts", "obsessed"} <= set(bot_names("obsession"))
    assert "omniscient" in bot_names("caravan", calibration=True)
    assert "omniscient" in bot_names("obsession", calibration=True)
    assert {"mcts", "shenzi", "banzai", "ed"} <= set(bot_names("austerity"))


def test_bench_ismcts_times_decisions() -> None:
    import json

    done = subprocess.run(
        [sys.executable, "-c", "import sys; from cardtable.cli.main import main; sys.exit(main())",
         "bench", "ismcts", "--iters", "50", "--positions", "3", "--json"],
        capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=300)
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert [row["game"] for row in rows] == ["caravan", "obsession"]
    for row in rows:
        assert row["decisions"] == 3 and row["bot"] == "ismcts:iters=50"
        assert 0 < row["q1_ms"] <= row["median_ms"] <= row["q3_ms"]


@pytest.mark.parametrize("preset", ["power", "nv", "foxon", "karavane"])
def test_every_caravan_preset_ignores_hidden_cards(preset: str) -> None:
    game = cardtable.load_game("caravan", rules=preset)
    for seed in range(2):
        # Early positions too: a simultaneous opening hides the other seat's numerals.
        state = _played(game.new_state(seed=seed), 2 + 9 * seed, seed)
        seat = state.to_move
        worlds = [state.sample_world(seat, seed=20 + index) for index in range(2)]
        assert worlds[0].observation(seat) == worlds[1].observation(seat)
        moves = [make_seat(game, "ismcts:iters=80", seat, 3).choose(world.observation(seat))
                 for world in worlds]
        assert moves[0] == moves[1]
        assert moves[0] in state.legal_actions()


def test_default_budget_grows_with_the_table() -> None:
    from cardtable.agents.search_bots import default_iterations

    assert default_iterations(cardtable.load_game("caravan")) == 1000
    assert default_iterations(cardtable.load_game("obsession", players=2)) == 1000
    assert default_iterations(cardtable.load_game("obsession", players=3)) == 8000
    assert default_iterations(cardtable.load_game("obsession", players=4)) == 12000
    assert default_iterations(cardtable.load_game("obsession", players=10)) == 12000
    game = cardtable.load_game("obsession", players=4)
    bot = make_seat(game, "ismcts", "P1", 0)
    assert bot.options.iterations == 12000  # type: ignore[attr-defined]
    assert make_seat(game, "ismcts:iters=10", "P1", 0).options.iterations == 10  # type: ignore[attr-defined]


def test_obsession_worlds_score_finished_games_on_the_chosen_scale() -> None:
    from cardtable.games.obsession.search import ObsessionWorlds

    game = cardtable.load_game("obsession", players=4)
    state = game.new_state(seed=2)
    rng = random.Random(2)
    while state.observation(state.current).phase == "swap" or len(state.legal_actions()) < 2:
        state.apply(rng.choice(state.legal_actions()))
    observation = state.observation(state.current)
    for scale, values in (("win", [0, 0, 0, 1]), ("square", [0, 1 / 9, 4 / 9, 1]),
                          ("linear", [0, 1 / 3, 2 / 3, 1])):
        worlds = ObsessionWorlds(observation, 3, SearchOptions(choices={"reward": scale}), game)
        scored = 0
        for seed in range(6):
            world = worlds.sample(seed)
            world.rollout(seed)
            if len(world.game.placings) >= 3:  # type: ignore[attr-defined]
                assert sorted(world.rewards()) == pytest.approx(values)
                scored += 1
        assert scored >= 3


def test_a_searched_swap_is_legal_seeded_and_blind_to_hidden_cards() -> None:
    from cardtable.games.obsession.actions import Swap
    from cardtable.games.obsession.bots import obsessed_swap
    from cardtable.games.obsession.search import swap_keys

    game = cardtable.load_game("obsession", players=4)
    for seed in range(2):
        state = game.new_state(seed=seed)
        state.apply(Swap(obsessed_swap(state.observation(state.current).pool)))
        seat = state.to_move
        observation = state.observation(seat)
        assert observation.phase == "swap"
        bot = make_seat(game, "ismcts:iters=200,swap=search", seat, seed)
        move = bot.choose(observation)
        assert move in state.legal_actions()
        assert set(bot.last_root) == set(swap_keys(observation.pool))  # type: ignore[attr-defined]
        assert sum(edge.visits for edge in bot.last_root.values()) == 200  # type: ignore[attr-defined]
        worlds = [state.sample_world(seat, seed=30 + index) for index in range(2)]
        assert worlds[0].observation(seat) == worlds[1].observation(seat)
        assert {make_seat(game, "ismcts:iters=200,swap=search", seat, seed).choose(
            world.observation(seat)) for world in worlds} == {move}
    # By default the swap is the obsessed swap, taken without searching.
    state = game.new_state(seed=5)
    observation = state.observation(state.current)
    bot = make_seat(game, "ismcts", state.to_move, 5)
    assert bot.choose(observation) == Swap(obsessed_swap(observation.pool))
    assert bot.last_worlds is None  # type: ignore[attr-defined]


def test_swap_keys_name_faces() -> None:
    from cardtable.games.obsession.cards import FACE
    from cardtable.games.obsession.search import swap_keys

    state = cardtable.load_game("obsession", players=4).new_state(seed=3)
    pool = state.observation(state.current).pool
    keys = swap_keys(pool)
    assert len(keys) <= 20
    for key, visible in keys.items():
        assert tuple(FACE[card] for card in visible) == key and set(visible) <= set(pool)


@pytest.mark.parametrize("make", [_caravan_position, _obsession_position])
def test_sequential_halving_spends_the_budget_on_the_better_moves(make: Any) -> None:
    for seed in range(2):
        game, state = make(seed)
        seat = state.to_move
        observation = state.observation(seat)
        bot = make_seat(game, "ismcts:iters=400,root=halving", seat, seed)
        move = bot.choose(observation)
        assert move in state.legal_actions()
        assert move == make_seat(game, "ismcts:iters=400,root=halving", seat,
                                 seed).choose(observation)
        root = bot.last_root  # type: ignore[attr-defined]
        visits = sorted((edge.visits for edge in root.values()), reverse=True)
        assert 0.8 * 400 <= sum(visits) <= 400
        assert visits[0] == visits[1] > visits[-1] >= 1  # the last two share the last round
        chosen = next(key for key, edge in root.items()
                      if bot.last_worlds.action(key) == move)  # type: ignore[attr-defined]
        finalists = [edge for edge in root.values() if edge.visits == visits[0]]
        assert root[chosen].visits == visits[0]
        assert root[chosen].reward / root[chosen].visits == max(
            edge.reward / edge.visits for edge in finalists)
