"""``cardtable bench web`` runs with the server's rate limits on: room is made for its tables
and WebSockets from one client, and the report says which limits were in effect."""

from __future__ import annotations

import re
import subprocess
import sys

from cardtable.web.bench import bench_limits
from cardtable.web.limits import Limits, Rate


def test_the_bench_raises_only_what_one_client_needs() -> None:
    assert bench_limits(500) == Limits(create=Rate(500, 60), sockets=500)
    assert bench_limits(4) == Limits()


def test_more_tables_and_sockets_than_the_defaults_allow_one_client() -> None:
    defaults = Limits()
    assert defaults.create is not None and defaults.sockets is not None
    tables = max(defaults.create.count, defaults.sockets) + 5
    done = subprocess.run([sys.executable, "-m", "cardtable.cli.main", "bench", "web",
                           "--tables", str(tables), "--moves", "1"], capture_output=True,
                          text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (f"rate limits create={tables}/60s,join=30/60s,chat=5/5s,signin=10/900s,names=20/3600s,"
            f"sockets={tables}") in done.stdout
    assert re.search(rf", {tables} moves\)", done.stdout), done.stdout


def test_the_bench_refuses_a_bad_limit_spec() -> None:
    done = subprocess.run([sys.executable, "-m", "cardtable.cli.main", "bench", "web",
                           "--rate-limits", "sockets=none"], capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == 1
    assert done.stderr == ("cardtable bench web: --rate-limits: sockets is a count from 1 to "
                           "1000000 or off (got 'none')\n")
