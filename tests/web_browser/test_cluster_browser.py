"""Two people play a whole Caravan game by clicking, each in a browser connected to a server
process of its own, while a third server process serves a spectator's page; the three servers
share one PostgreSQL database. Every page is told every move once, in order, each frame the
stored game at its ply as its viewer may see it."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

WEB_TESTS = str(Path(__file__).resolve().parents[1] / "web")
if WEB_TESTS not in sys.path:  # (the web tests import their neighbours as top-level modules)
    sys.path.append(WEB_TESTS)

from web.cluster_servers import Servers, Truth, plies_rise_by_one  # noqa: E402

from .harness import (  # noqa: E402
    Recorder,
    caravan_choice,
    click_caravan_move,
    play_turns,
    say_my_name,
)


@pytest.fixture(scope="module")
def postgresql() -> Iterator[Any]:
    """A throwaway PostgreSQL cluster (the web tests' own, as they start it)."""
    from web.conftest import Cluster

    cluster = Cluster()
    try:
        yield cluster
    finally:
        cluster.stop()


def test_two_people_on_two_servers_and_a_spectator_on_a_third(postgresql: Any, browser: Any,
                                                              tmp_path: Path) -> None:
    with Servers(postgresql.new_database(), tmp_path, 3) as servers:
        first, second, third = servers[0], servers[1], servers[2]
        contexts = [browser.new_context(viewport={"width": 1280, "height": 900})
                    for _ in range(3)]
        alice, bob, watcher = (context.new_page() for context in contexts)
        recorders = {name: Recorder(name).attach(page)
                     for name, page in (("alice", alice), ("bob", bob), ("watcher", watcher))}

        # Alice makes a table on the first server, a seat for her and one for a person.
        alice.goto(first.base + "/")
        say_my_name(alice)
        alice.locator("#create-form button[type=submit]").click()
        alice.wait_for_url(re.compile(r"/tables/"))
        table = alice.url.rsplit("/", 1)[1]
        alice.locator("#status").filter(has_text="Waiting").wait_for()

        # Bob finds it in the second server's lobby and sits down there.
        bob.goto(second.base + "/")
        row = bob.locator(f'#open-tables tr[data-table="{table}"]')
        row.wait_for()
        say_my_name(bob)
        row.locator("button.join").click()
        bob.wait_for_url(re.compile(rf"{second.base}/tables/{table}$"))
        bob.locator("#seat-line").filter(has_text="You are DEF").wait_for()
        alice.locator("#players-line").filter(has_text="DEF").wait_for()

        # A spectator opens the table on the third server.
        watcher.goto(f"{third.base}/tables/{table}")
        watcher.locator("#seat-line").filter(has_text="watching").wait_for()

        players = {"ABC": (alice, recorders["alice"]), "DEF": (bob, recorders["bob"])}

        def choose(seat: str, frame: dict[str, Any]) -> str:
            return caravan_choice(frame["observation"], frame["legal"], seat)

        made = play_turns(players, choose, click_caravan_move)
        assert made >= 6
        for page in (alice, bob, watcher):
            page.locator("#status").filter(has_text="Game over").wait_for()

        truth = Truth(servers, table)
        assert truth.over and servers.owner_of(table) is first
        # The spectator was shown every move, and the players each one, once, in order.
        for name, seat in (("alice", "ABC"), ("bob", "DEF"), ("watcher", None)):
            states = [frame for frame in recorders[name].states()
                      if frame.get("table") == table]
            assert plies_rise_by_one(states)[-1] == len(truth.moves), name
            for frame in states:
                truth.check(frame, seat)
            assert recorders[name].page_errors() == []
        assert "Game over" in watcher.inner_text("#status")
        # The players, at other servers, see the spectator counted.
        for page in (alice, bob):
            page.locator("#watching").filter(has_text="1 watching").wait_for()
        for context in contexts:
            context.close()
