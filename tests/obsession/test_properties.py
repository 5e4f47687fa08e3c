"""Property-based tests over many random games for 2..10 players.

Invariants: every card is in exactly one place (3s removed at pick-ups and killed cards are
kept aside and counted), every listed legal action applies and other actions are refused
without changing anything, games end (by placings, or marked as a stalemate), replays
reproduce the record, and observations never show a card their seat may not see.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from cardtable.engine.errors import IllegalAction
from cardtable.engine.match import play_match
from cardtable.games.obsession.actions import Action, Blind, Play, Swap
from cardtable.games.obsession.bench import random_game
from cardtable.games.obsession.bots import make_bot
from cardtable.games.obsession.cards import FACE
from cardtable.games.obsession.events import (
    BlindTurned,
    Board,
    Drew,
    Event,
    Played,
    Swapped,
)
from cardtable.games.obsession.observation import Observation
from cardtable.games.obsession.record import Checker, RecordListener, Script, header, load
from cardtable.games.obsession.rules import Rules
from cardtable.games.obsession.state import ObsessionState, seat_name
from counts import count

from .helpers import all_cards
from .strategies import rules_strategy, tuned


def check_conservation(game: ObsessionState) -> None:
    cards = all_cards(game)
    assert sorted(cards) == sorted(game.deck)
    assert all(FACE[card] == 3 for card in game.removed)
    # The faces kept alongside the pile for position keys never drift from the pile.
    assert bytes(game._pile_faces) == bytes(FACE[card] for card in game.pile)


def check_finished(game: ObsessionState) -> None:
    assert game.over and game.to_move is None
    assert sorted(game.placings) == list(range(game.players))
    result = game.result
    assert result is not None
    if game.stalemate is None:
        assert sum(game.out) == game.players - 1 and game.cards_left(game.placings[-1]) > 0
    else:
        assert result.details["stalemate"] is True
        assert game.stalemate in ("cap", "repetition")
        if game.stalemate == "cap":
            assert game.plays == game.rules.max_plays
    assert game.plays <= game.rules.max_plays


@tuned(count(1000, 2500))
@given(rules=rules_strategy, seed=st.integers(0, 2**63 - 1))
def test_random_games_conserve_cards_and_end(rules: Rules, seed: int) -> None:
    game = random_game(rules, seed)
    check_conservation(game)
    check_finished(game)


def snapshot(game: ObsessionState) -> tuple[Any, ...]:
    return (repr(game.hands), repr(game.visible), repr(game.hidden), tuple(game.draw),
            tuple(game.pile), game.active, game.run, game.top_face, game.direction,
            game.current, game.phase, game.plays, game.turns, tuple(game.out),
            tuple(game.placings), len(game.events))


def other_actions(game: ObsessionState, rng: random.Random,
                  legal: Sequence[Action]) -> list[Action]:
    """A sample of actions that are not listed as legal."""
    seat = game.current
    mine = game.hands[seat] + game.visible[seat]
    everything = list(game.deck)
    candidates: list[Action] = [Blind(0), Blind(len(game.hidden[seat]) + 1), Play(())]
    for _ in range(6):
        size = rng.randint(1, 3)
        candidates.append(Play(tuple(rng.sample(mine, min(size, len(mine)))) if mine else ()))
        candidates.append(Play(tuple(rng.sample(everything, size))))
        candidates.append(Swap(tuple(rng.sample(everything, 3))))
    listed = {canonical(action) for action in legal}
    return [action for action in candidates if canonical(action) not in listed]


def canonical(action: Action) -> object:
    from cardtable.games.obsession.cards import TEXT

    if isinstance(action, Play):
        return ("play", tuple(sorted(TEXT[c] for c in action.cards)))
    if isinstance(action, Swap):
        return ("swap", tuple(sorted(TEXT[c] for c in action.visible)))
    return ("blind", action.index)


def ever_public(events: Sequence[Event]) -> set[int]:
    seen: set[int] = set()
    for event in events:
        if isinstance(event, Played):
            seen.update(event.cards)
        elif isinstance(event, Swapped):
            seen.update(event.visible)
        elif isinstance(event, BlindTurned):
            seen.add(event.card)
    return seen


def cards_in(observation: Observation) -> set[int]:
    """Every card id an observation shows, apart from the seat's own hand."""
    shown: set[int] = set(observation.discard)
    for row in observation.visible:
        shown.update(row)
    for event in observation.history:
        assert not isinstance(event, Board | Drew)
        shown |= ever_public([event])
    return shown


def check_observations(game: ObsessionState) -> None:
    # Public: what was ever played, swapped face-up or turned over, and the dealt visible rows.
    public = ever_public(game.events)
    for seat in range(game.players):
        public.update(game.deck[9 * seat + 3:9 * seat + 6])
    for seat in range(game.players):
        observation = game.observe(seat)
        assert list(observation.hand) == game.hands[seat]
        shown = cards_in(observation)
        assert shown <= public
        never_seen = set(game.draw)
        for row in game.hidden:
            never_seen.update(row)
        assert not shown & never_seen
        for other in range(game.players):
            if other != seat:
                assert not shown & (set(game.hands[other]) - public)


@tuned(count(25, 60))
@given(rules=rules_strategy, seed=st.integers(0, 2**32), bots=st.lists(
    st.sampled_from(["random", "obsessed"]), min_size=10, max_size=10))
def test_every_legal_action_applies_and_others_are_refused(
        rules: Rules, seed: int, bots: list[str]) -> None:
    rules = Rules(rules.players, rules.run_kill, rules.kill_order, min(rules.max_plays, 250),
                  rules.repeat_limit)
    game = ObsessionState.new(rules, [False] * rules.players, seed)
    players = [make_bot(bots[seat], seat, seed) for seat in range(rules.players)]
    rng = random.Random(seed)
    step = 0
    while not game.over:
        legal = game.legal_actions()
        assert legal
        sample = legal if len(legal) <= 12 else rng.sample(legal, 12)
        for action in sample:
            trial = game.clone()
            trial.apply(action)
            check_conservation(trial)
        before = snapshot(game)
        for action in other_actions(game, rng, legal):
            try:
                game.apply(action)
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"unlisted action accepted: {action}")
            assert snapshot(game) == before
        if step % 5 == 0:
            check_observations(game)
        action = players[game.current].choose(game.observe(game.current))
        assert canonical(action) in {canonical(a) for a in legal}
        game.apply(action)
        check_conservation(game)
        step += 1
    check_finished(game)
    check_observations(game)


@tuned(count(60, 150))
@given(rules=rules_strategy, seed=st.integers(0, 2**63 - 1), bots=st.lists(
    st.sampled_from(["random", "obsessed"]), min_size=10, max_size=10))
def test_replay_reproduces_the_game(rules: Rules, seed: int, bots: list[str]) -> None:
    kinds = bots[:rules.players]
    game = ObsessionState.new(rules, [False] * rules.players, seed)
    lines: list[str] = []
    seats = {seat_name(s): make_bot(kinds[s], s, seed) for s in range(rules.players)}
    import json

    listener = RecordListener(lambda obj: lines.append(json.dumps(obj)),
                              header(game, seed, kinds))
    play_match(game, seats, (listener,))
    loaded = load(lines)
    replayed = ObsessionState(loaded.rules, loaded.deck, [False] * rules.players)
    script = Script(loaded)
    checker = Checker(loaded)

    class Replayer:
        def choose(self, observation: Observation) -> Action:
            return script.action(observation)

        def rejected(self, error: IllegalAction) -> None:
            script.rejected(error)

    play_match(replayed, {seat_name(s): Replayer() for s in range(rules.players)},
               (RecordListener(checker, header(replayed, seed, kinds)),))
    checker.finish()
    assert replayed.placings == game.placings and replayed.plays == game.plays
