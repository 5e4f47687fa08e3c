"""``cardtable serve [--host H] [--port P] [--db URL]``: the web server (lobby at ``/``).

``--workers N`` (PostgreSQL only) binds the address once and runs N server processes on it,
each a full server of its own (``cardtable.cli.serve_workers``); ``--lease SECONDS`` is how
long a server that stopped answering keeps its tables before another one takes them over.
On SQLite one process serves a database: a second one is refused.

``--behind-proxy`` (with ``--forwarded-allow-ips``) trusts a reverse proxy's forwarded client
address and scheme (docs/web.md has an nginx example). Seat tokens never reach the log.

``--allow-exec NAME=COMMAND`` (repeatable) offers a program at the server's tables
(docs/web.md): web users pick it by its name, ``bot:exec:NAME``, and never type a command,
since a program a web user could name is code run on the server. None is offered by default.

Exit status: 0 after Ctrl-C or SIGTERM, 1 for bad arguments or a missing ``web`` extra (or
several processes on SQLite), 2 when the database cannot be opened or migrated or another
server process uses its SQLite file, 3 when the address cannot be listened on.
"""

from __future__ import annotations

import argparse
import ipaddress
import logging
import os
import shutil
import signal
import socket
import sys

from cardtable.engine.error_line import OneLineArgumentParser, print_error

PROG = "cardtable serve"
EXIT_USAGE, EXIT_DATABASE, EXIT_LISTEN = 1, 2, 3
MAX_WORKERS = 64
LISTEN_BACKLOG = 8192
"""Connections waiting to be accepted: a burst (thousands of pages opening their WebSockets at
once, or coming back after a restart) waits in the queue instead of being dropped and tried
again by the clients seconds later. The kernel caps it (Linux: ``net.core.somaxconn``, 4096
by default)."""
MAX_LEASE = 600.0


def parser() -> OneLineArgumentParser:
    parse = OneLineArgumentParser(
        prog=PROG, description="Run the web server: play Caravan, Obsession and Austerity in "
        "the browser (lobby at http://HOST:PORT/).")
    parse.add_argument("--host", default="127.0.0.1", help="address to listen on "
                       "(default 127.0.0.1; 0.0.0.0 for every interface)")
    parse.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parse.add_argument("--db", metavar="URL", default=None,
                       help="database: sqlite:///FILE or postgresql://USER:PASSWORD@HOST/NAME "
                       "(default: a SQLite file in $XDG_DATA_HOME/cardtable, else "
                       "~/.local/share/cardtable)")
    parse.add_argument("--bot-delay", type=float, default=0.6, metavar="SECONDS",
                       help="pause before each bot move, so people can follow (default 0.6)")
    parse.add_argument("--max-messages", type=int, default=20, metavar="N",
                       help="close a WebSocket that sends more than N messages within a "
                       "second (default 20)")
    parse.add_argument("--allow-exec", action="append", default=[],
                       metavar="NAME=COMMAND",
                       help="offer the program COMMAND (docs/bots.md) at the tables as the bot "
                       "exec:NAME; repeatable. Web users choose it by name and never type a "
                       "command: only the operator decides what runs on the server (default: "
                       "no program)")
    parse.add_argument("--rate-limits", default=None, metavar="SPEC",
                       help="limits per client (a known player, else an address), "
                       "comma-separated NAME=N/SECONDS: create (new tables, default 10/60), "
                       "join (seats taken, 30/60), chat (lines, 5/5), signin (attempts, "
                       "10/900), names (new guest names, 20/3600), and sockets=N "
                       "(WebSockets open at once, 20); a NAME=off lifts one, 'off' lifts "
                       "them all (benchmarks)")
    parse.add_argument("--behind-proxy", action="store_true",
                       help="the server runs behind a reverse proxy (docs/web.md): trust its "
                       "X-Forwarded-For (the client's address) and X-Forwarded-Proto (https: "
                       "cookies are Secure) from the addresses of --forwarded-allow-ips")
    parse.add_argument("--forwarded-allow-ips", default=None, metavar="IPS",
                       help="comma-separated addresses or networks of the proxy, or '*' for "
                       "any (default 127.0.0.1 and ::1; implies --behind-proxy)")
    parse.add_argument("--abandon-before-start", type=float, default=600, metavar="SECONDS",
                       help="close a table as abandoned when none of its people has been at it "
                       "for SECONDS before its first move, a table still waiting for a person "
                       "to join too (default 600)")
    parse.add_argument("--abandon-after-start", type=float, default=1800, metavar="SECONDS",
                       help="the same for a game under way (default 1800)")
    parse.add_argument("--max-programs", type=int, default=16, metavar="N",
                       help="at most N program seats (--allow-exec) at the server's unfinished "
                       "tables; a new table over it is refused (default 16)")
    parse.add_argument("--max-programs-per-client", type=int, default=2, metavar="N",
                       help="at most N program seats at the unfinished tables of one client "
                       "(a known player, else an address) (default 2)")
    parse.add_argument("--workers", type=int, default=1, metavar="N",
                       help="run N server processes on the one address (PostgreSQL only; "
                       "docs/web.md, 'Running several servers'); one that dies is started "
                       "again (default 1)")
    parse.add_argument("--lease", type=float, default=5.0, metavar="SECONDS",
                       help="a server whose heartbeat stopped this long is gone, and another "
                       "server takes its tables over (at least 1, default 5)")
    # A process started by --workers: it serves on this inherited listening socket.
    parse.add_argument("--worker-fd", type=int, default=None, help=argparse.SUPPRESS)
    parse.add_argument("--log-level", default="warning",
                       choices=("critical", "error", "warning", "info", "debug"))
    return parse


def programs_option(values: list[str]) -> dict[str, str]:
    """The programs of ``--allow-exec NAME=COMMAND`` options, name → command; raises
    ValueError with the message for one that is malformed or whose program is not found."""
    from cardtable.agents.external import split_command
    from cardtable.agents.registry import UnknownBot
    from cardtable.web.games import PROGRAM_NAME

    programs: dict[str, str] = {}
    for value in values:
        name, equals, command = value.partition("=")
        name = name.strip()
        if not equals or not command.strip():
            raise ValueError(f"--allow-exec takes NAME=COMMAND (got '{value[:40]}')")
        if not PROGRAM_NAME.fullmatch(name):
            raise ValueError(f"--allow-exec: a program's name is 1 to 20 of a-z 0-9 _ - "
                             f"(got '{name[:40]}')")
        if name in programs:
            raise ValueError(f"--allow-exec: the name '{name}' is given twice")
        try:
            program = split_command(command)[0]
        except UnknownBot as error:
            raise ValueError(f"--allow-exec {name}: {error.message}") from None
        found = (os.path.isfile(program) and os.access(program, os.X_OK) if "/" in program
                 else shutil.which(program) is not None)
        if not found:
            raise ValueError(f"--allow-exec {name}: no program '{program[:60]}' to run")
        programs[name] = command.strip()
    return programs


def proxy_option(value: str | None) -> list[str]:
    """The proxy addresses of ``--forwarded-allow-ips`` (default: this machine's); raises
    ValueError with the message for one that is no address or network."""
    if value is None:
        return ["127.0.0.1", "::1"]
    allowed = [item.strip() for item in value.split(",") if item.strip()]
    if not allowed:
        raise ValueError("--forwarded-allow-ips needs an address, a network or '*'")
    for item in allowed:
        if item != "*":
            try:
                ipaddress.ip_network(item, strict=False)
            except ValueError:
                raise ValueError(f"--forwarded-allow-ips: '{item[:60]}' is no address or "
                                 "network") from None
    return allowed


def guard_logs(level: str) -> None:
    """cardtable's log lines at ``level``, written as uvicorn writes its own, and no seat's
    token in any line at any level (uvicorn's access log shows URLs)."""
    from uvicorn.logging import DefaultFormatter

    from cardtable.web.security import redact_logs

    own = logging.getLogger("cardtable")
    if not own.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(DefaultFormatter("%(levelprefix)s %(message)s", use_colors=False))
        own.addHandler(handler)
        own.propagate = False
    own.setLevel(level.upper())
    redact_logs(("uvicorn", "uvicorn.error", "uvicorn.access", "uvicorn.asgi", "cardtable"))


def is_sqlite(url: str) -> bool:
    """Whether ``url`` names a SQLite database (an invalid URL is left to the store)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        return make_url(url).get_backend_name() == "sqlite"
    except ArgumentError:
        return False


def listen(host: str, port: int) -> socket.socket:
    """A listening socket; OSError when the address is taken or cannot be used."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(LISTEN_BACKLOG)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def main(argv: list[str]) -> int:
    options = parser().parse_args(argv)
    if not 0 <= options.port <= 65535:
        print_error(PROG, f"--port must be 0 to 65535 (got {options.port})")
        return EXIT_USAGE
    if options.max_messages < 1:
        print_error(PROG, "--max-messages must be at least 1")
        return EXIT_USAGE
    if not 0 <= options.bot_delay <= 60:
        print_error(PROG, "--bot-delay must be 0 to 60 seconds")
        return EXIT_USAGE
    if not 1 <= options.workers <= MAX_WORKERS:
        print_error(PROG, f"--workers must be 1 to {MAX_WORKERS}")
        return EXIT_USAGE
    if not 1 <= options.lease <= MAX_LEASE:
        print_error(PROG, f"--lease must be 1 to {MAX_LEASE:.0f} seconds")
        return EXIT_USAGE
    supervisor = options.workers > 1 and options.worker_fd is None
    try:
        programs = programs_option(options.allow_exec)
        proxies = proxy_option(options.forwarded_allow_ips)
        from cardtable.web.table_policy import from_options

        policy = from_options(options.abandon_before_start, options.abandon_after_start,
                              options.max_programs, options.max_programs_per_client)
    except ValueError as error:
        print_error(PROG, str(error))
        return EXIT_USAGE
    behind_proxy = options.behind_proxy or options.forwarded_allow_ips is not None
    try:
        import uvicorn

        from cardtable.web.app import create_app
        from cardtable.web.cluster import AnotherServer, LocalCluster, cluster_for
        from cardtable.web.limits import Limits
        from cardtable.web.store import Store, StoreError, default_url
    except ImportError as error:
        print_error(PROG, f"the web extra is not installed ({error.name}): "
                          "pip install 'cardtable[web]'")
        return EXIT_USAGE
    try:
        limits = Limits() if options.rate_limits is None else Limits.parse(options.rate_limits)
    except ValueError as error:
        print_error(PROG, f"--rate-limits: {error}")
        return EXIT_USAGE
    url = options.db or default_url()
    if supervisor and is_sqlite(url):
        print_error(PROG, f"Several server processes need PostgreSQL: --workers "
                          f"{options.workers} cannot share a SQLite file (use --db "
                          "postgresql://USER:PASSWORD@HOST/NAME, or --workers 1)")
        return EXIT_USAGE
    try:
        store = Store(url)
    except StoreError as error:
        print_error(PROG, str(error))
        return EXIT_DATABASE
    cluster = None if supervisor else cluster_for(store, options.lease)
    if isinstance(cluster, LocalCluster):
        # One process per SQLite file: refused before it listens, while the other serves.
        try:
            cluster.register()
        except AnotherServer as error:
            store.close()
            print_error(PROG, str(error))
            return EXIT_DATABASE
        except Exception as error:
            store.close()
            print_error(PROG, f"cannot write to the database: {error}")
            return EXIT_DATABASE
    try:
        sock = (listen(options.host, options.port) if options.worker_fd is None
                else socket.socket(fileno=options.worker_fd))
    except OSError as error:
        if isinstance(cluster, LocalCluster):
            cluster.unregister()
        store.close()
        print_error(PROG, f"cannot listen on {options.host}:{options.port}: "
                          f"{error.strerror or error}")
        return EXIT_LISTEN
    if options.worker_fd is None:
        port = sock.getsockname()[1]
        shown = f"[{options.host}]" if ":" in options.host else options.host
        print(f"cardtable: lobby at http://{shown}:{port}/ (database: "
              f"{store.engine.url.render_as_string(hide_password=True)})", flush=True)
        if programs:
            print(f"cardtable: programs offered at the tables: {', '.join(sorted(programs))}",
                  flush=True)
    if supervisor:
        # The database is made and migrated: the server processes find it ready.
        store.close()
        from cardtable.cli.serve_workers import supervise

        try:
            return supervise(argv, sock, options.workers)
        finally:
            sock.close()
    app = create_app(store, bot_delay=options.bot_delay, flood_limit=options.max_messages,
                     programs=programs, limits=limits, policy=policy, cluster=cluster)
    # Forwarded headers are trusted only behind a proxy, and only from its addresses: else
    # any local process could claim another client's address or HTTPS.
    config = uvicorn.Config(app, log_level=options.log_level, ws_max_size=1 << 16,
                            ws_per_message_deflate=False, backlog=LISTEN_BACKLOG,
                            timeout_graceful_shutdown=3, proxy_headers=behind_proxy,
                            forwarded_allow_ips=proxies)
    guard_logs(options.log_level)  # (after uvicorn's Config, which sets up its loggers)
    server = uvicorn.Server(config)
    # uvicorn stops on SIGINT/SIGTERM and then raises the signal again for the handler that
    # was there before it: that handler ends the process normally (status 0).
    signal.signal(signal.SIGTERM, lambda _number, _frame: None)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    except SystemExit:
        # uvicorn's way to say the app did not start (it logged why): the database did not
        # answer the server's first steps.
        print_error(PROG, "the server could not start (the log above says why)")
        return EXIT_DATABASE
    finally:
        sock.close()
        store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
