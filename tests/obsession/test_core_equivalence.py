"""The compiled core plays exactly the Python engine's game.

Many random games over 2..10 players and every rule option are played in both engines in
lockstep: at every step the legal actions are equal (same order), other actions are refused
by both with the same message and leave the state unchanged, the same chosen action gives the
same whole state (cards, pile, runs, direction, seat to move, counters, placings, the
positions counted by the repetition guard) and the same result. The core's own playouts are
replayed in Python and must end in the same state, with every card accounted for. The core's
``obsessed`` policy, fed the bots' own generators, plays the very games of ``ObsessedBot``
seats, move for move.

Without the built core these tests are skipped, except under CI (the ``CI`` environment
variable), where the core must be tested.
"""

from __future__ import annotations

import os
import random
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardtable.engine.errors import IllegalAction
from cardtable.games.obsession import fast
from cardtable.games.obsession.actions import Action, Blind, Play, Swap
from cardtable.games.obsession.bots import ObsessedBot, bot_random, obsessed_swap
from cardtable.games.obsession.cards import FACE, TEXT, canonical_deck
from cardtable.games.obsession.rules import KILL_ORDERS, Rules
from cardtable.games.obsession.selection import GAME_OVER, INVALID_SELECTION
from cardtable.games.obsession.state import SWAP, ObsessionState
from counts import count

from .helpers import position
from .strategies import rules_strategy, tuned


@pytest.fixture(autouse=True)
def _core_built() -> Iterator[None]:
    if not fast.available():
        reason = ("the compiled Obsession core is not built (no C compiler at install time) "
                  "or CARDTABLE_PURE=1 switches it off")
        if os.environ.get("CI"):
            pytest.fail(f"CI must test the compiled core: {reason}")
        pytest.skip(reason)
    yield


def dealt(rules: Rules, seed: int, humans: tuple[bool, ...] | None = None) -> ObsessionState:
    """A new game after the swaps, each seat keeping its dealt split."""
    game = ObsessionState.new(rules, humans or (False,) * rules.players, seed, log=False)
    for seat in range(rules.players):
        game.apply(Swap(tuple(game.visible[seat])))
    return game


def refusal(game: ObsessionState, action: Action) -> str | None:
    """The Python engine's message for ``action``, or None when it is accepted."""
    try:
        game.clone().apply(action)
    except IllegalAction as error:
        return error.message
    return None


def other_actions(game: ObsessionState, rng: random.Random) -> list[Action]:
    """Legal and illegal actions that the listing does not produce as such: other copies
    of the same texts, strangers, duplicates, mixed faces, bad positions, swaps."""
    seat = game.current
    mine = game.hands[seat] + game.visible[seat]
    everything = list(game.deck)
    actions: list[Action] = [Play(()), Blind(0), Blind(len(game.hidden[seat]) + 1),
                             Blind(1), Swap(tuple(everything[:3]))]
    for _ in range(4):
        size = rng.randint(1, 3)
        if mine:
            picked = rng.sample(mine, min(size, len(mine)))
            actions.append(Play(tuple(picked)))
            actions.append(Play(tuple(reversed(picked))))
            actions.append(Play((picked[0], picked[0])))
            # Every copy of one face: the listing takes first copies, apply takes any.
            face = FACE[picked[0]]
            actions.append(Play(tuple(c for c in mine if FACE[c] == face)[::-1]))
        actions.append(Play(tuple(rng.sample(everything, size))))
    return actions


def same_state(game: ObsessionState, core: fast.FastGame) -> None:
    assert core.export() == fast.export_game(game)


def lockstep(game: ObsessionState, rng: random.Random) -> fast.FastGame:
    """Plays ``game`` to its end with uniformly chosen legal actions, the core alongside."""
    core = fast.FastGame.from_game(game)
    same_state(game, core)
    step = 0
    while not game.over:
        legal = game.legal_actions()
        assert core.legal_actions() == legal
        for action in rng.sample(legal, min(4, len(legal))):
            assert core.is_legal(action)
        before = core.export()
        for action in other_actions(game, rng):
            message = refusal(game, action)
            assert core.is_legal(action) == (message is None), action
            if message is not None:
                with pytest.raises(IllegalAction) as refused:
                    core.apply(action)
                assert refused.value.message == message
        assert core.export() == before
        if step % 7 == 3:
            # A clone goes its own way; the original does not move.
            trial = core.clone()
            trial.apply(legal[-1])
            assert core.export() == before
            # The core takes over at any point of play, guard counts included.
            assert fast.FastGame.from_game(game).export() == before
        action = rng.choice(legal)
        game.apply(action)
        core.apply(action)
        same_state(game, core)
        step += 1
    assert core.result == game.result
    assert core.legal_actions() == []
    return core


@tuned(count(25, 60))
@given(rules=rules_strategy, seed=st.integers(0, 2**63 - 1),
       humans=st.lists(st.booleans(), min_size=10, max_size=10))
def test_core_and_python_agree_at_every_step(rules: Rules, seed: int,
                                              humans: list[bool]) -> None:
    # Mostly bots only: the repetition guard watches bots-only games.
    seats = tuple(humans[:rules.players]) if seed % 4 == 0 else None
    game = dealt(rules, seed, seats)
    lockstep(game, random.Random(seed))


def all_cards(exported: dict[str, Any]) -> list[int]:
    cards: list[int] = []
    for name in ("hands", "visible", "hidden"):
        for row in exported[name]:
            cards.extend(row)
    for name in ("draw", "pile", "removed", "killed"):
        cards.extend(exported[name])
    return cards


def check_finished(core: fast.FastGame, game: ObsessionState) -> None:
    exported = core.export()
    assert sorted(all_cards(exported)) == sorted(game.deck)
    assert all(FACE[card] == 3 for card in exported["removed"])
    assert core.over and sorted(core.placings) == list(range(game.players))
    assert core.plays <= game.rules.max_plays
    if core.stalemate is None:
        assert sum(exported["out"]) == game.players - 1
    elif core.stalemate == "cap":
        assert core.plays == game.rules.max_plays
    else:
        assert core.stalemate == "repetition"
    result = core.result
    assert result is not None and result.details["stalemate"] == (core.stalemate is not None)


@tuned(300)
@given(rules=rules_strategy, seed=st.integers(0, 2**63 - 1), head=st.integers(0, 80))
def test_playouts_replay_identically_in_python(rules: Rules, seed: int, head: int) -> None:
    game = dealt(rules, seed)
    rng = random.Random(seed)
    # The core may take over at any point of play.
    for _ in range(head):
        if game.over:
            break
        game.apply(rng.choice(game.legal_actions()))
    core = fast.FastGame.from_game(game)
    for action in core.playout_actions(seed):
        game.apply(action)
    assert game.over
    same_state(game, core)
    assert core.result == game.result
    check_finished(core, game)


@tuned(1500)
@given(rules=rules_strategy, seed=st.integers(0, 2**63 - 1))
def test_playouts_end_and_account_for_every_card(rules: Rules, seed: int) -> None:
    game = dealt(rules, seed)
    core = fast.FastGame.from_game(game)
    core.playout(seed)
    check_finished(core, game)
    # The playout is a function of the state and the seed.
    again = fast.FastGame.from_game(game)
    again.playout(seed)
    assert again.export() == core.export()


def test_repetition_stalemates_agree() -> None:
    # Random bots repeat positions often enough with a limit of 2 to exercise the guard.
    endings: dict[str | None, int] = {}
    for seed in range(240):
        rules = Rules(players=2 + seed % 3, run_kill=2 + seed % 7, repeat_limit=2)
        game = dealt(rules, seed)
        core = fast.FastGame.from_game(game)
        for action in core.playout_actions(seed):
            game.apply(action)
        same_state(game, core)
        assert core.result == game.result
        endings[core.stalemate] = endings.get(core.stalemate, 0) + 1
    assert endings.get("repetition", 0) >= 5


def test_random_playout_draws_uniformly_among_legal_cards() -> None:
    # Hand {4C 4D 9H} on an empty pile: legal cards 4C, 4D, 9H, so the plays (4C), (4C 4D)
    # and (9H) each come with probability 1/3.
    game = position(2, hands={0: "4C 4D 9H", 1: "5C"}, visible={0: "KS", 1: "KD"})
    counts: dict[tuple[str, ...], int] = {}
    for seed in range(3000):
        core = fast.FastGame.from_game(game)
        first = core.playout_actions(seed)[0]
        assert isinstance(first, Play)
        key = tuple(TEXT[card] for card in first.cards)
        counts[key] = counts.get(key, 0) + 1
    assert set(counts) == {("4C",), ("4C", "4D"), ("9H",)}
    assert all(900 < count < 1100 for count in counts.values())


# --- the worked examples of the rules, played in both engines ---------------------------


def both(game: ObsessionState) -> tuple[ObsessionState, fast.FastGame]:
    return game, fast.FastGame.from_game(game)


def play_both(game: ObsessionState, core: fast.FastGame, names: str) -> None:
    """Play the cards with these texts (first copies) in both engines."""
    seat = game.current
    source = game.hands[seat] or game.visible[seat]
    chosen: list[int] = []
    for name in names.split():
        chosen.append(next(c for c in source if TEXT[c] == name and c not in chosen))
    game.apply(Play(tuple(chosen)))
    core.apply(Play(tuple(chosen)))
    same_state(game, core)


def blind_both(game: ObsessionState, core: fast.FastGame, index: int) -> None:
    game.apply(Blind(index))
    core.apply(Blind(index))
    same_state(game, core)


def test_example_pick_up_removes_threes_in_both() -> None:
    game, core = both(position(4, hands={0: "4S 9H KC", 1: "5C 6C", 3: "3S"},
                               visible={2: "7C", 3: "KS"}, pile="3H R 3C QS 6D", to_move=3))
    play_both(game, core, "3S")
    assert len(game.removed) == 3 and core.current == 1


@pytest.mark.parametrize("order", KILL_ORDERS)
def test_example_joker_run_kills_with_and_without_reversal(order: str) -> None:
    rules = Rules(players=5, kill_order=order)
    game, core = both(position(5, rules=rules, hands={0: "R R R 5D", 1: "6C", 4: "6D"},
                               visible={2: "6H", 3: "6S"}, pile="R 9C"))
    play_both(game, core, "R R R")
    play_both(game, core, "5D")
    assert core.current == (4 if order == "effect-first" else 1)


def test_example_blind_attempts_in_both() -> None:
    def start() -> tuple[ObsessionState, fast.FastGame]:
        return both(position(4, hidden={2: "4C 8H KS"}, hands={0: "5C", 1: "5D", 3: "5H"},
                             pile="JD", to_move=2))

    game, core = start()
    blind_both(game, core, 2)  # 8H: legal, extra play
    blind_both(game, core, 2)  # KS on the 8
    game, core = start()
    blind_both(game, core, 1)  # 4C on J: picked up
    assert game.hands[2] and core.current == 3


def test_example_next_seat_after_going_out_in_reverse() -> None:
    game, core = both(position(5, hands={0: "9C", 2: "KC", 3: "KD", 4: "KH"}, out=(1,),
                               direction=-1, pile="5S"))
    play_both(game, core, "9C")
    assert core.current == 4 and core.placings == (1, 0)


# --- what the core refuses -----------------------------------------------------------------


def test_core_takes_over_only_after_the_swaps() -> None:
    game = ObsessionState.new(Rules(players=3), (False,) * 3, 5, log=False)
    with pytest.raises(ValueError, match="swap"):
        fast.FastGame.from_game(game)


def test_inconsistent_games_are_refused_with_a_message() -> None:
    game = dealt(Rules(players=4), 11)
    broken = game.clone()
    broken.hands[0] = sorted(broken.hands[0] + broken.hands[1][:1])
    with pytest.raises(ValueError, match="twice"):
        fast.FastGame.from_game(broken)
    broken = game.clone()
    broken.hands[1] = [*broken.hands[1], 9999]
    with pytest.raises(ValueError, match="not a card id"):
        fast.FastGame.from_game(broken)
    broken = game.clone()
    broken.hands[1] = [*broken.hands[1], "9H"]  # type: ignore[list-item]
    with pytest.raises(TypeError):
        fast.FastGame.from_game(broken)
    broken = game.clone()
    broken.hands[2] = sorted(broken.hands[2], reverse=True)
    with pytest.raises(ValueError, match="sorted"):
        fast.FastGame.from_game(broken)
    broken = game.clone()
    broken.current = 7
    with pytest.raises(ValueError, match="current"):
        fast.FastGame.from_game(broken)
    broken = game.clone()
    broken._seen = {("key",): 1}
    with pytest.raises(ValueError, match="_seen"):
        fast.FastGame.from_game(broken)


def test_refusals_carry_the_engine_messages() -> None:
    game = dealt(Rules(players=2), 3)
    core = fast.FastGame.from_game(game)
    with pytest.raises(IllegalAction, match=INVALID_SELECTION):
        core.apply(Swap(tuple(game.visible[0])))
    with pytest.raises(TypeError):
        core._state.apply("9H")
    core.playout(3)
    assert core.over
    for action in (Play((1,)), Blind(1), Swap((1, 2, 3))):
        with pytest.raises(IllegalAction, match=GAME_OVER):
            core.apply(action)
        assert not core.is_legal(action)


# --- the obsessed policy ---------------------------------------------------------------------


def obsessed_game(rules: Rules, seed: int) -> tuple[ObsessionState, list[ObsessedBot]]:
    """A new game of ``obsessed`` seats (their own generators), before the swaps."""
    game = ObsessionState.new(rules, (False,) * rules.players, seed, log=False)
    return game, [ObsessedBot(bot_random(seed, seat)) for seat in range(rules.players)]


@tuned(300)
@given(rules=rules_strategy, seed=st.integers(0, 2**63 - 1), head=st.integers(0, 60))
def test_obsessed_playouts_are_the_bots_games_move_for_move(rules: Rules, seed: int,
                                                            head: int) -> None:
    # The reference: ObsessedBot seats through their observations, in Python.
    reference, bots = obsessed_game(rules, seed)
    expected: list[Action] = []
    while not reference.over:
        action = bots[reference.current].choose(reference.observe(reference.current))
        expected.append(action)
        reference.apply(action)
    # The same seats again; the core takes over after the swaps and ``head`` more decisions,
    # drawing on from the very same generators.
    game, bots = obsessed_game(rules, seed)
    taken: list[Action] = []
    while not game.over and (game.phase == SWAP or len(taken) < rules.players + head):
        action = bots[game.current].choose(game.observe(game.current))
        taken.append(action)
        game.apply(action)
    core = fast.FastGame.from_game(game)
    taken += core.playout_obsessed_actions([bot.rng.random for bot in bots])
    assert taken == expected
    same_state(reference, core)
    assert core.result == reference.result
    check_finished(core, game)


def test_obsessed_playout_without_actions_ends_in_the_same_state() -> None:
    for seed in range(20):
        rules = Rules(players=2 + seed % 9)
        game = obsessed_game(rules, seed)[0]
        for seat in range(rules.players):
            game.apply(Swap(obsessed_swap(sorted(game.hands[seat] + game.visible[seat]))))
        recorded, quiet = fast.FastGame.from_game(game), fast.FastGame.from_game(game)
        seats = range(rules.players)
        recorded.playout_obsessed_actions([bot_random(seed, s).random for s in seats])
        quiet.playout_obsessed([bot_random(seed, s).random for s in seats])
        assert quiet.export() == recorded.export()


def test_obsessed_playout_refuses_bad_draws() -> None:
    core = fast.FastGame.from_game(dealt(Rules(players=3), 5))
    before = core.export()
    with pytest.raises(ValueError, match="one callable per seat"):
        core.playout_obsessed([random.random])
    assert core.export() == before
    with pytest.raises(ValueError, match=r"in \[0, 1\)"):
        core.playout_obsessed([lambda: 1.5] * 3)
    with pytest.raises(ZeroDivisionError):
        core.playout_obsessed([lambda: 1 / 0] * 3)


def test_core_state_is_sized_by_the_game() -> None:
    sizes = {}
    for players in (2, 4, 10):
        core = fast.FastGame.from_game(dealt(Rules(players=players), players))
        sizes[players] = sys.getsizeof(core.clone()._state)
    assert sizes[4] <= 4096
    assert sizes[2] < sizes[4] < sizes[10]


def test_games_that_do_not_fit_their_decks_are_refused() -> None:
    game = dealt(Rules(players=2), 4)
    extra = [card for card in canonical_deck(2) if card not in game.deck]
    broken = game.clone()
    broken.draw = [*broken.draw, *extra[:3]]
    with pytest.raises(ValueError, match="holds 57 cards, more than the 54 of its decks"):
        fast.FastGame.from_game(broken)
    broken = game.clone()
    broken.hidden[0] = [*broken.hidden[0], broken.draw.pop()]
    with pytest.raises(ValueError, match="hidden holds more than 3 cards"):
        fast.FastGame.from_game(broken)
