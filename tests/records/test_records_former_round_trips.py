"""Records of the former dialects, written for many games, upgrade to exactly the record the
game's recorder writes today, and both replay to the same game, move by move.

Each game is played once with two listeners: one writes the former dialect as the programs
wrote it (Caravan ``"format": 1``, Obsession ``t``/``v``, the hub's ``ev`` events), the other
the one format (the game's recorder today). The upgrade of the first must be the second, line
for line, and the replays of both must make the same moves and reach the same end.
"""

from __future__ import annotations

import contextlib
import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtable.engine.match import MatchAbandoned, MatchListener, play_match
from cardtable.engine.record import encode_line
from cardtable.engine.record_upgrade import aligned, upgrade
from counts import count

LEGACY = Path(__file__).parent / "legacy"
SETTINGS = settings(max_examples=count(10, 25), deadline=None, derandomize=True,
                    database=None, suppress_health_check=[HealthCheck.too_slow])


def texts(objects: list[dict[str, Any]]) -> list[str]:
    return [encode_line(obj).rstrip("\n") for obj in objects]


def same_json(objects: tuple[dict[str, Any], ...] | list[dict[str, Any]]) -> list[Any]:
    return [json.loads(json.dumps(obj)) for obj in objects]


# ------------------------------------------------------------------ Caravan


class FormerCaravan(MatchListener):
    """Writes a Caravan game in the former dialect, as ``caravan --record`` wrote it."""

    def __init__(self, game: Any, players: dict[str, str]) -> None:
        from cardtable.games.caravan.cards import SEATS, identity
        from cardtable.games.caravan.rules_assembly import rules_to_json

        self.identity = identity
        self.seats = SEATS
        self.lines: list[dict[str, Any]] = [{
            "type": "header", "game": "caravan", "format": 1, "version": "0.1.0",
            "seed": game.seed, "first": SEATS[game.first],
            "rules": {"ABC": rules_to_json(game.seat_rules.abc),
                      "DEF": rules_to_json(game.seat_rules.def_)},
            "players": players}]
        for seat in (0, 1):
            self.lines.append({"type": "deck", "seat": SEATS[seat], "source": "random",
                               "cards": self.cards(game.initial_decks[seat])})
        for seat, hand, deck in game.mulligans:
            self.lines.append({"type": "mulligan", "seat": SEATS[seat], "hand": self.cards(hand),
                               "deck": self.cards(deck)})
        self.ply = 0

    def cards(self, cards: Any) -> list[str]:
        return [self.identity(card) for card in cards]

    def on_action(self, state: Any, seat: str, action: Any, event: Any) -> None:
        self.ply += 1
        self.lines.append({
            "type": "move", "ply": self.ply, "move": str(event.move),
            "card": None if event.card is None else self.identity(event.card),
            "target": None if event.target is None else self.identity(event.target)})
        for shuffled, deck in event.shuffles:
            self.lines.append({"type": "shuffle", "seat": self.seats[shuffled],
                               "deck": self.cards(deck)})

    def finish(self, game: Any) -> None:
        from cardtable.games.caravan.former_record import result_fields

        self.lines.append(result_fields(game))


@SETTINGS
@given(seed=st.integers(0, 2**31), preset=st.sampled_from(["power", "nv", "foxon", "karavane"]),
       bots=st.sampled_from([("friendly", "random"), ("random", "friendly")]),
       first=st.integers(0, 1), stop=st.sampled_from([None, 7]))
def test_former_caravan_records_upgrade_to_todays_record(
        tmp_path_factory: Any, seed: int, preset: str, bots: tuple[str, str], first: int,
        stop: int | None) -> None:
    from cardtable.games.caravan.bots import make_bot
    from cardtable.games.caravan.record import GameRecorder, check, load_replay, read_replay
    from cardtable.games.caravan.rules import SeatRules
    from cardtable.games.caravan.state import CaravanState

    game = CaravanState.new(replace(SeatRules.preset(preset), stuck_plies=200), seed, first)
    players = {"ABC": f"bot:{bots[0]}", "DEF": f"bot:{bots[1]}"}
    former = FormerCaravan(game, players)

    class Today:
        def __init__(self) -> None:
            self.lines: list[dict[str, Any]] = []

        def write(self, obj: dict[str, Any]) -> None:
            self.lines.append(obj)

    today = Today()
    recorder = GameRecorder(today, "today", players, ("random", "random"))
    recorder.start(game)
    seats: dict[str, Any] = {"ABC": make_bot(bots[0], 0, seed), "DEF": make_bot(bots[1], 1, seed)}
    if stop is not None:  # a person who quits after a few moves
        quitter, limit = seats["DEF"], stop

        class Quits:
            moves = 0

            def choose(self, observation: Any) -> Any:
                Quits.moves += 1
                if Quits.moves > limit:
                    raise MatchAbandoned("DEF", "quit")
                return quitter.choose(observation)

            def rejected(self, error: Exception) -> None:
                quitter.rejected(error)

        seats["DEF"] = Quits()
    try:
        play_match(game, seats, (recorder, former))
    except MatchAbandoned as stopped:
        game.abandon(stopped.cause)
        recorder.abandon(game, stopped.cause)
    former.finish(game)
    upgraded = upgrade("former.jsonl", texts(former.lines))
    assert upgraded is not None and upgraded.complete
    assert same_json(upgraded.lines) == same_json(today.lines)
    # Both replay to the same game, move by move.
    path = tmp_path_factory.mktemp("caravan") / "former.jsonl"
    path.write_text("\n".join(texts(former.lines)) + "\n", encoding="utf-8")
    from_former = load_replay(path)
    from_today = read_replay("today", texts(today.lines))
    check(from_today)
    one, two = from_former.start(), from_today.start()
    assert [step.move.notation for step in from_former.moves] == [
        step.move.notation for step in from_today.moves]
    for step_one, step_two in zip(from_former.moves, from_today.moves, strict=True):
        from_former.apply(one, step_one)
        from_today.apply(two, step_two)
        assert (one.caravans, one.hands, one.decks) == (two.caravans, two.hands, two.decks)
    from_former.finish(one)
    from_today.finish(two)
    assert one.result == two.result == game.result


# ------------------------------------------------------------------ Obsession


@SETTINGS
@given(seed=st.integers(0, 2**31), players=st.integers(2, 10), run_kill=st.integers(3, 4),
       kill_order=st.sampled_from(["effect-first", "kill-first"]),
       max_plays=st.sampled_from([30, 5000]), quit_after=st.sampled_from([None, 9]))
def test_former_obsession_records_upgrade_to_todays_record(
        seed: int, players: int, run_kill: int, kill_order: str, max_plays: int,
        quit_after: int | None) -> None:
    from cardtable.games.obsession.bots import make_bot
    from cardtable.games.obsession.checked_replay import check_replay
    from cardtable.games.obsession.former_record import FormerListener
    from cardtable.games.obsession.record import RecordListener, header, load
    from cardtable.games.obsession.rules import Rules
    from cardtable.games.obsession.state import ObsessionState, seat_name

    rules = Rules(players=players, run_kill=run_kill, kill_order=kill_order,
                  max_plays=max_plays)
    kinds = [("obsessed", "random")[(seed + seat) % 2] for seat in range(players)]
    game = ObsessionState.new(rules, [False] * players, seed)
    former: list[dict[str, Any]] = []
    today: list[dict[str, Any]] = []
    seats: dict[str, Any] = {seat_name(seat): make_bot(kind, seed, seat)
                             for seat, kind in enumerate(kinds)}
    if quit_after is not None:
        bot, limit = seats["P1"], quit_after

        class Quits:
            moves = 0

            def choose(self, observation: Any) -> Any:
                Quits.moves += 1
                if Quits.moves > limit:
                    raise MatchAbandoned("P1", "eof")
                return bot.choose(observation)

            def rejected(self, error: Exception) -> None:
                bot.rejected(error)

        seats["P1"] = Quits()
    listeners = (FormerListener(former.append, header(game, seed, kinds)),  # type: ignore[arg-type]
                 RecordListener(today.append, header(game, seed, kinds)))
    with contextlib.suppress(MatchAbandoned):
        play_match(game, seats, listeners)
    upgraded = upgrade("former.jsonl", texts(former))
    assert upgraded is not None and upgraded.complete
    if rules.decks == 1:
        assert same_json(upgraded.lines) == same_json(today)
    # else the former lines name a card by its face alone: the upgrade takes the first copy
    # of a face where the game may have taken the second, as the former replay did.
    # The in-memory upgrade puts its last line on the file's last line (or after it).
    laid_out = aligned(upgraded, texts(former))
    assert len(laid_out) >= len(former) and laid_out[-1] == texts(list(upgraded.lines))[-1]
    replay_former = check_replay(load(texts(former), "former.jsonl"))
    replay_upgraded = check_replay(load(texts(list(upgraded.lines)), "upgraded.jsonl"))
    replay_today = check_replay(load(texts(today), "today.jsonl"))
    assert replay_former.actions == replay_upgraded.actions
    assert (replay_former.ending, replay_former.cause) == (replay_today.ending,
                                                           replay_today.cause)
    # Played again, the upgraded record says every line the former record said.
    again: list[dict[str, Any]] = []
    start = replay_upgraded.start()
    script = iter(replay_upgraded.actions)

    class Replayed:
        def choose(self, observation: Any) -> Any:
            action = next(script, None)
            if action is None:
                raise MatchAbandoned("P1", str(replay_upgraded.cause))
            return action

        def rejected(self, error: Exception) -> None:
            raise error

    with contextlib.suppress(MatchAbandoned):
        play_match(start, {seat_name(seat): Replayed() for seat in range(players)},
                   (FormerListener(again.append, header(start, seed, kinds)),))  # type: ignore[arg-type]
    assert again == same_json(former)
    if rules.decks == 1:
        assert replay_today.actions == replay_former.actions


# ------------------------------------------------------------------ the Austerity hub


def hub_events(seed: int, tokens: int, points: int,
               players: int) -> list[tuple[str, dict[str, Any]]]:
    """The events a hub gives its recorder for a game played by random legal actions (some
    refused replies among them), stopped like an interrupted hub after 300 turns."""
    from cardtable.games.austerity.deck import load_deck
    from cardtable.games.austerity.state import AusterityState

    deck = load_deck(str(LEGACY / "austerity-small.deck"))
    state = AusterityState(list(deck), tokens, points, players)
    events: list[tuple[str, dict[str, Any]]] = [
        ("start", {"version": 1, "tokens": tokens, "points": points,
                   "deck": [card.text() for card in deck],
                   "players": [f"player-{n}" for n in range(players)]}),
        ("send", {"to": "*", "msg": f"tokens{tokens}"})]
    rng = random.Random(seed)
    while state.result is None and state.turns < 300:
        seat = state.to_move
        assert seat is not None
        if rng.random() < 0.1:
            events.append(("recv", {"from": seat, "msg": "bogus", "valid": False}))
        action = rng.choice(state.legal_actions())
        events.append(("recv", {"from": seat, "msg": state.action_text(action), "valid": True}))
        state.apply(action)
    ended = state.result
    events.append(("end", {"reason": "normal" if ended else "sigint", "exit": 0 if ended else 130,
                           "winners": list(ended.winners) if ended else [],
                           "points": list(state.game.table.points),
                           "status": ["exit 0"] * players}))
    return events


@SETTINGS
@given(seed=st.integers(0, 2**31), tokens=st.integers(1, 8), points=st.integers(1, 12),
       players=st.integers(2, 5), cut=st.sampled_from([None, 5]))
def test_former_hub_records_upgrade_to_todays_record(tmp_path_factory: Any, seed: int,
                                                     tokens: int, points: int, players: int,
                                                     cut: int | None) -> None:
    from cardtable.engine.record import read_lines
    from cardtable.games.austerity.record import Recorder, read_hub_record, replay_hub_record

    events = hub_events(seed, tokens, points, players)
    if cut is not None:
        events = events[:cut]  # a hub killed before its game ended: no end line
    former = [{"ev": ev, **fields} for ev, fields in events]
    path = tmp_path_factory.mktemp("hub") / "today.jsonl"
    recorder = Recorder(str(path))
    for ev, fields in events:
        recorder.write(ev, **fields)
    recorder.close()
    today = read_lines(path)
    upgraded = upgrade("former.jsonl", texts(former))
    assert upgraded is not None and upgraded.complete == (cut is None)
    assert texts(list(upgraded.lines)) == today
    if cut is None:
        from_former = read_hub_record("former.jsonl", texts(former))
        from_today = read_hub_record(str(path), today)
        assert [(seat, text) for _, seat, text in from_former.actions] == [
            (seat, text) for _, seat, text in from_today.actions]
        one, two = replay_hub_record(from_former), replay_hub_record(from_today)
        assert one.result == two.result and one.to_position() == two.to_position()
