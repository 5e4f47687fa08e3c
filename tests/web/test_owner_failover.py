"""Leases and failover between servers on one PostgreSQL: a stale owner stores nothing and
steps down, the tables of a server gone silent are taken over by the living (each by one),
even when it froze inside a transaction holding the table's row, a move handed to an owner
that does not answer is refused with the usual message, and a program seat starts again at
the new owner (or forfeits when it cannot start there)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import shlex
import sys
import threading
import time
import types
from pathlib import Path
from typing import Any

import pytest
from owner_nodes import STEADY_LEASE, Node, recorders, told_once_in_order, wait_for_owner
from webplay import Viewer, play_through, random_chooser

from cardtable.web import hand_over
from cardtable.web.live import SAVE_FAILED
from cardtable.web.store import LeaseLost, SeatRow, Store, TableRow
from waiting import TIMEOUT, wait_until

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from external_bots.helpers import SCRIPTS, command, pids_in, wait_gone


@pytest.fixture
def url(pg_cluster: Any) -> str:
    database: str = pg_cluster.new_database()
    return database


def finished(node: Node, table: str) -> TableRow | None:
    """The table's row once its game is over."""
    row = node.store.table(table)
    return row if row is not None and row.status == "finished" else None


def _steal(store: Store, table: str, server_id: str) -> int:
    """Make ``server_id`` the table's owner behind everyone's back; its new epoch."""
    from sqlalchemy import update

    from cardtable.web import schema

    tables = schema.tables
    with store.engine.begin() as conn:
        epoch: int = conn.execute(update(tables).where(tables.c.id == table)
                             .values(owner=server_id, epoch=tables.c.epoch + 1)
                             .returning(tables.c.epoch)).scalar_one()
    return int(epoch)


def test_a_write_under_a_lease_the_table_no_longer_holds_is_refused(url: str) -> None:
    with Node(url) as one:
        table, _tokens = one.create("caravan", ["human", "human"], {"rules": "nv"})
        lease = one.live(table).lease
        assert lease == (one.id, 1)
        one.store.add_move(table, 1, "ABC", "P1A", lease=lease, deadline=None)
        epoch = _steal(one.store, table, "another")
        with pytest.raises(LeaseLost):
            one.store.add_move(table, 2, "DEF", "P1D", lease=lease)
        with pytest.raises(LeaseLost):
            one.store.finish(table, {"winners": [], "reason": "abandoned"}, lease)
        assert one.store.moves(table) == [("ABC", "P1A")]
        assert one.store.table(table).status != "finished"  # type: ignore[union-attr]
        one.store.add_move(table, 2, "DEF", "P1D", lease=("another", epoch))
        assert len(one.store.moves(table)) == 2


@pytest.mark.parametrize("mover_at", ["owner", "mirror"])
def test_a_stale_owner_stores_nothing_steps_down_and_the_move_goes_to_the_new_owner(
        url: str, mover_at: str) -> None:
    """A move the stale owner cannot store (another server took the table meanwhile) is handed
    to the new owner once it drives the table, and played there: nobody is told "could not
    save", whether the move was made at the stale owner or at the other server."""
    with Node(url, STEADY_LEASE) as one, Node(url, STEADY_LEASE) as two:
        table, tokens = one.create("caravan", ["human", "human"], {"rules": "nv"})
        with recorders(table, tokens, {"ABC": one, "DEF": two}) as viewers:
            choose = random_chooser(7)
            frame = play_through(viewers, {"ABC", "DEF"}, choose, stop_after=3)
            wanted = "ABC" if mover_at == "owner" else "DEF"
            while frame["to_move"] != wanted:
                frame = play_through(viewers, {"ABC", "DEF"}, choose,
                                     stop_after=frame["ply"] + 1)
            ply = frame["ply"]
            # Another server takes the lease, and the owner has not heard of it yet.
            epoch = _steal(one.store, table, two.id)
            mover = viewers[wanted]
            assert mover.last is not None
            move = mover.last["legal"][0]
            mover.socket.send_json({"type": "move", "move": move})
            wait_until(lambda: not one.live(table).owner, "the stale owner to step down")
            assert len(one.store.moves(table)) == ply
            assert one.live(table).task is None
            assert two.call(two.hub.owners.take_over, table, epoch)
            wait_for_owner(two, table)
            for viewer in viewers.values():
                after = viewer.until_state(lambda state: state["ply"] == ply + 1)
                assert viewer.errors == [] and after["to_move"] != wanted
            assert two.store.moves(table)[-1] == (wanted, move)
            last = play_through(viewers, {"ABC", "DEF"}, random_chooser(8))
        assert last["result"] is not None
        assert not one.live(table).owner and two.live(table).owner
        stored = two.store.moves(table)
        for viewer in viewers.values():
            told_once_in_order(viewer, len(stored))


def test_a_move_handed_to_a_server_that_takes_the_table_over_meanwhile_is_played_there(
        url: str) -> None:
    """The stale owner hands its person's move to the server that took the table, which gets
    it before it drives the table and answers after: the news that it drives the table now
    (the very server asked) does not give up the move as unanswered ("could not save")."""
    with Node(url, STEADY_LEASE) as one, Node(url, STEADY_LEASE) as two:
        table, tokens = one.create("caravan", ["human", "human"], {"rules": "nv"})
        with recorders(table, tokens, {"ABC": one, "DEF": two}) as viewers:
            choose = random_chooser(7)
            frame = play_through(viewers, {"ABC", "DEF"}, choose, stop_after=3)
            while frame["to_move"] != "ABC":
                frame = play_through(viewers, {"ABC", "DEF"}, choose,
                                     stop_after=frame["ply"] + 1)
            ply = frame["ply"]
            # The stale owner's own reading of the table is held back (it would learn the new
            # owner's epoch first, and its news would then be no news), and the move's
            # request waits at the new owner until it drives the table.
            reading, read = threading.Event(), one.store.table_parts
            arrived, answering = threading.Event(), threading.Event()

            def held_reading(*args: Any, **kwargs: Any) -> Any:
                if kwargs.get("seats", True):  # (its catch-up after stepping down)
                    reading.wait(TIMEOUT)
                return read(*args, **kwargs)

            handler = two.cluster.handler

            async def held_answer(body: dict[str, Any]) -> Any:
                if body.get("op") == "move":
                    arrived.set()
                    await asyncio.to_thread(answering.wait, TIMEOUT)
                return await handler(body)

            one.store.table_parts, two.cluster.handler = held_reading, held_answer
            try:
                epoch = _steal(one.store, table, two.id)
                mover = viewers["ABC"]
                assert mover.last is not None
                move = mover.last["legal"][0]
                mover.socket.send_json({"type": "move", "move": move})
                assert arrived.wait(TIMEOUT), "the move never reached the new owner"
                assert two.call(two.hub.owners.take_over, table, epoch)
                wait_until(lambda: one.live(table).row.epoch == epoch,
                           "the stale owner to hear of the new one")
            finally:
                answering.set()
                reading.set()
            for viewer in viewers.values():
                after = viewer.until_state(lambda state: state["ply"] == ply + 1)
                assert viewer.errors == [] and after["to_move"] == "DEF"
            assert two.store.moves(table)[-1] == ("ABC", move)


def test_the_tables_of_a_dead_server_go_to_the_living_each_to_one(url: str) -> None:
    from sqlalchemy import insert

    from cardtable.web import schema

    store, other = Store(url), Store(url)
    try:
        now = time.time()
        with store.engine.begin() as conn:
            conn.execute(insert(schema.servers), [
                {"id": name, "host": "h", "pid": 1, "started": now, "heartbeat": beat}
                for name, beat in (("dead", now - 60), ("a", now), ("b", now), ("busy", now))])
        tables = []
        for index in range(30):
            row = TableRow(f"t{index}", "caravan", {"rules": "nv"}, index, "playing", False,
                           True, None, now, None, None, None, None)
            store.add_table(row, [SeatRow("ABC", 0, "bot:random", None, None, None),
                                  SeatRow("DEF", 1, "bot:random", None, None, None)])
            tables.append(row.id)
        for index, table in enumerate(tables):
            _steal(store, table, "busy" if index % 10 == 0 else "dead")
        store.finish("t1", {"winners": [], "reason": "abandoned"})
        orphans = {table for index, table in enumerate(tables) if index % 10 and index != 1}
        claimed: dict[str, list[tuple[str, int]]] = {}
        start = threading.Barrier(2)

        def claim(name: str, by: Store) -> None:
            start.wait()
            claimed[name] = []
            while found := by.claim_orphans(name, now - 5, 4):
                claimed[name] += found

        threads = [threading.Thread(target=claim, args=(name, by))
                   for name, by in (("a", store), ("b", other))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        mine, theirs = ({table for table, _epoch in claimed[name]} for name in ("a", "b"))
        assert mine | theirs == orphans and not mine & theirs
        assert {epoch for name in claimed for _table, epoch in claimed[name]} == {3}
        assert store.claim_orphans("b", now - 5, None) == []
        for table in orphans:
            found = store.table(table)
            assert found is not None and found.owner in ("a", "b") and found.epoch == 3
        # A server that stops hands its tables over: anyone claims them at once.
        assert store.release("a") == len(mine)
        assert {table for table, _ in other.claim_orphans("b", now - 5, None)} == mine
    finally:
        store.close()
        other.close()


def test_a_silent_owners_table_is_taken_over_and_played_to_the_end(url: str) -> None:
    with Node(url) as one, Node(url) as two:
        table, tokens = one.create("caravan", ["human", "human"], {"rules": "nv"})
        with recorders(table, tokens, {"ABC": one, "DEF": two, None: two}) as viewers:
            play_through(viewers, {"ABC", "DEF"}, random_chooser(9), stop_after=4)
            # The owner can no longer write its heartbeat: it stops driving at once, and the
            # other server takes the table over once the lease has run out.
            one.stop_heartbeat()
            wait_until(lambda: not one.live(table).owner, "the silent owner to step down")
            wait_for_owner(two, table)
            one.start_heartbeat()
            last = play_through(viewers, {"ABC", "DEF"}, random_chooser(10))
        assert last["result"] is not None
        assert two.live(table).owner and not one.live(table).owner
        stored = two.store.moves(table)
        for viewer in viewers.values():
            told_once_in_order(viewer, len(stored))
            assert viewer.errors == []


def test_a_move_stored_as_its_owner_steps_down_is_told_everywhere(url: str) -> None:
    """The owner steps down while a move is being written: the write still lands (its lease
    holds until another server claims the table), after the step-down's own catch-up read.
    Nobody told that move; the new owner plays it from the database, and every server learns
    of it once the table changes hands."""
    with Node(url, STEADY_LEASE) as one, Node(url, STEADY_LEASE) as two:
        table, tokens = one.create("caravan", ["human", "human"], {"rules": "nv"})
        with recorders(table, tokens, {"ABC": one, "DEF": two, None: two}) as viewers:
            abc, choose = viewers["ABC"], random_chooser(11)
            frame = play_through(viewers, {"ABC", "DEF"}, choose, stop_after=2)
            while frame["to_move"] != "ABC":
                frame = play_through(viewers, {"ABC", "DEF"}, choose,
                                     stop_after=frame["ply"] + 1)
            live, adding = one.live(table), one.store.add_move
            entered, go = threading.Event(), threading.Event()

            def held_back(*args: Any, **kwargs: Any) -> None:
                entered.set()
                assert go.wait(60)
                adding(*args, **kwargs)

            one.store.add_move = held_back  # type: ignore[method-assign]
            assert abc.last is not None
            abc.socket.send_json({"type": "move", "move": abc.last["legal"][0]})
            assert entered.wait(60)
            one.call(live.step_down)
            wait_until(lambda: live.syncing is None or live.syncing.done(),
                       "the step-down's catch-up")
            go.set()
            wait_until(lambda: len(one.store.moves(table)) == frame["ply"] + 1,
                       "the move held back to be stored")
            assert live.ply == frame["ply"]  # (nobody told it)
            epoch = _steal(one.store, table, two.id)
            assert two.call(two.hub.owners.take_over, table, epoch)
            for viewer in viewers.values():
                viewer.until_state(lambda state: state["ply"] == frame["ply"] + 1)
            last = play_through(viewers, {"ABC", "DEF"}, random_chooser(12))
        assert last["result"] is not None
        stored = two.store.moves(table)
        for viewer in viewers.values():
            told_once_in_order(viewer, len(stored))
            assert viewer.errors == []


def test_a_table_claimed_by_a_try_whose_answer_was_lost_is_driven_all_the_same(
        url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A round's claim commits and its answer is lost (the connection drops as the database
    commits): the store's retry finds nothing left to claim. The server then finds the
    table its own and not driven, and takes it over."""
    from sqlalchemy.exc import OperationalError

    from cardtable.web import store as store_module

    with Node(url) as one, Node(url) as two:
        table, tokens = one.create("caravan", ["human", "human"], {"rules": "nv"})
        with recorders(table, tokens, {"ABC": one, "DEF": two}) as viewers:
            play_through(viewers, {"ABC", "DEF"}, random_chooser(13), stop_after=3)
            claim = Store.claim_orphans.__wrapped__  # type: ignore[attr-defined]
            lost: list[list[tuple[str, int]]] = []

            def answer_lost(store: Store, *args: Any) -> list[tuple[str, int]]:
                claimed: list[tuple[str, int]] = claim(store, *args)
                if claimed and not lost:
                    lost.append(claimed)
                    raise OperationalError("COMMIT", {},
                                           OSError("server closed the connection unexpectedly"))
                return claimed

            monkeypatch.setattr(two.store, "claim_orphans",
                                types.MethodType(store_module._retried(answer_lost), two.store))
            one.stop_heartbeat()
            wait_until(lambda: not one.live(table).owner, "the silent owner to step down")
            wait_for_owner(two, table)
            assert lost == [[(table, 2)]]
            one.start_heartbeat()
            last = play_through(viewers, {"ABC", "DEF"}, random_chooser(14))
        assert last["result"] is not None
        stored = two.store.moves(table)
        for viewer in viewers.values():
            told_once_in_order(viewer, len(stored))


def test_an_owner_frozen_inside_a_transaction_loses_its_table_all_the_same(url: str) -> None:
    from sqlalchemy import select, text
    from sqlalchemy.exc import DBAPIError

    from cardtable.web import schema

    with Node(url) as one, Node(url) as two:
        table, _tokens = one.create("caravan", ["bot:random", "human"],
                                    {"rules": "nv", "first": "DEF"})
        two.call(lambda: two.hub.get(table))  # (a mirror on the other server)
        # The owner freezes with the table's row locked (a transaction begun, never ended)
        # and its heartbeat stopped: the database ends that transaction after the lease.
        frozen = one.store.engine.connect()
        try:
            transaction = frozen.begin()
            frozen.execute(select(schema.tables.c.id).where(schema.tables.c.id == table)
                           .with_for_update())

            one.stop_heartbeat("the machine hangs")
            wait_for_owner(two, table)
            with pytest.raises(DBAPIError):  # (its session was ended: the lock went with it)
                frozen.execute(text("SELECT 1"))
            with contextlib.suppress(DBAPIError):
                transaction.rollback()
        finally:
            frozen.close()
        row = two.store.table(table)
        assert row is not None and row.owner == two.id and row.epoch == 2


def test_a_move_handed_to_an_owner_that_does_not_answer_is_refused(
        url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hand_over, "FORWARD_LEASES", 2)  # (waits 10 s for the answer)
    with Node(url) as one, Node(url) as two:
        table, tokens = one.create("caravan", ["human", "human"], {"rules": "nv"})
        with recorders(table, tokens, {"ABC": one, "DEF": two}) as viewers:
            def_ = viewers["DEF"]
            choose = random_chooser(12)
            frame = play_through(viewers, {"ABC", "DEF"}, choose, stop_after=1)
            while frame["to_move"] != "DEF":
                frame = play_through(viewers, {"ABC", "DEF"}, choose,
                                     stop_after=frame["ply"] + 1)
            assert def_.last is not None
            answering = one.cluster.handler

            async def never(body: dict[str, Any]) -> dict[str, Any]:
                await asyncio.Event().wait()  # (until the server stops)
                return {}

            one.cluster.handler = never
            move = def_.last["legal"][0]
            def_.socket.send_json({"type": "move", "move": move})
            assert def_.until("error")["message"] == SAVE_FAILED
            assert len(one.store.moves(table)) == frame["ply"]  # nothing happened
            one.cluster.handler = answering
            def_.socket.send_json({"type": "move", "move": move})
            after = def_.until_state(lambda state: state["ply"] == frame["ply"] + 1)
            assert after["to_move"] == "ABC"
        assert one.store.moves(table)[-1] == ("DEF", move)


@pytest.mark.parametrize("there", [True, False], ids=["starts-again", "cannot-start"])
def test_a_program_seat_moves_with_its_table_or_forfeits_there(url: str, tmp_path: Path,
                                                              there: bool) -> None:
    def spy(name: str) -> dict[str, str]:
        return {"spy": shlex.join(command(SCRIPTS / "spy.py", tmp_path / f"{name}.log",
                                          tmp_path / f"{name}.pids"))}

    with Node(url, programs=spy("one")) as one, \
            Node(url, programs=spy("two") if there else {}) as two:
        table, tokens = one.create("caravan", ["human", "bot:exec:spy"],
                                   {"rules": "nv", "first": "ABC"})
        with recorders(table, tokens, {"ABC": one}) as viewers:
            first = pids_in(tmp_path / "one.pids", 1)  # (started: its person is here)
            play_through(viewers, {"ABC"}, random_chooser(3), stop_after=6)
            two.call(lambda: two.hub.get(table))  # (a mirror on the other server)

            one.stop_heartbeat()
            wait_until(lambda: not one.live(table).owner, "the silent owner to step down")
            assert wait_gone(first) == []  # (its program ended with its drive)
            if not there:  # the program cannot start at the new owner: it forfeits
                row = wait_until(lambda: finished(two, table), "the forfeit")
                result = row.result
                assert result["reason"] == "forfeit" and result["winners"] == ["ABC"], result
                return
            wait_for_owner(two, table)
            again = pids_in(tmp_path / "two.pids", 1)
            assert again != first
            last = play_through(viewers, {"ABC"}, random_chooser(4))
        assert last["result"] is not None and last["result"]["reason"] != "forfeit"
        told_once_in_order(viewers["ABC"], len(two.store.moves(table)))
        # The program at the new owner began as after a restart: hello, then its turns, each
        # with its seat's view of the game as it stood.
        lines = [json.loads(line) for line in
                 (tmp_path / "two.log").read_text().splitlines()]
        assert lines[0]["type"] == "hello" and lines[0]["seat"] == "DEF"
        assert any(line["type"] == "turn" for line in lines)
        assert wait_gone(again) == []


def test_the_turn_timer_moves_with_its_table_a_whole_turn_afresh(url: str) -> None:
    with Node(url) as one, Node(url) as two:
        table, tokens = one.create("caravan", ["human", "human"],
                                   {"rules": "nv", "first": "ABC"}, turn_seconds=120)
        with recorders(table, tokens, {"ABC": one, "DEF": two}) as viewers:
            abc, def_ = viewers["ABC"], viewers["DEF"]
            last = play_through(viewers, {"ABC", "DEF"}, random_chooser(5), stop_after=4)
            told = one.live(table).deadline
            assert told is not None
            for viewer in (abc, def_):  # (the mirror was told the owner's deadline)
                assert shown_deadline(viewer, told)["ply"] == last["ply"]

            one.stop_heartbeat()
            wait_until(lambda: not one.live(table).owner, "the silent owner to step down")
            silenced = time.time()
            wait_for_owner(two, table)
            afresh = wait_until(lambda: two.live(table).deadline, "the new owner's timer")
            assert afresh > told and afresh >= silenced + 120 - 1
            for viewer in (def_, abc):  # (each seat is shown the new deadline)
                assert shown_deadline(viewer, afresh)["ply"] == last["ply"]


def shown_deadline(viewer: Viewer, deadline: float) -> dict[str, Any]:
    """The state frame ``viewer`` got last, or the next it gets, that shows ``deadline``."""
    if viewer.last is not None and viewer.last["deadline"] == deadline:
        return viewer.last
    return viewer.until_state(lambda frame: frame["deadline"] == deadline)
