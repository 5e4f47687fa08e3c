"""The same schedule on Ray: each game is a Ray task, on this machine or across a cluster.

``--address`` joins a running cluster (``ray start --head`` on one machine, ``ray start
--address HEAD:6379`` on the others; every machine needs cardtable installed, at the same
version); without it a local Ray instance is started for the command (``--jobs`` CPUs) and
stopped at its end. A game is the same game wherever it runs, so the results equal local ones.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterable, Iterator
from typing import Any

from cardtable.engine.one_line import one_line
from cardtable.tournament.batches import Batches, failed, play_batch
from cardtable.tournament.errors import TournamentError
from cardtable.tournament.schedule import Config, Task

Finished = tuple[Task, dict[str, Any]]


def _play_remote(config: Config, tasks: list[Task]) -> list[dict[str, Any]]:
    return play_batch(config, tasks)


DEFAULT_PORT = 6379
CLIENT_PORT = 10001
CONNECT_SECONDS = 5.0
RAY_BATCH_SECONDS = 0.5


def unreachable(address: str) -> str | None:
    """Why nothing answers at ``address`` (``HOST[:PORT]`` or ``ray://HOST[:PORT]``), or None.

    Ray itself retries an address that does not answer for minutes; one TCP connection
    with a short timeout tells at once.
    """
    import socket

    text = address.strip()
    port = DEFAULT_PORT
    if text.startswith("ray://"):
        text = text[len("ray://"):]
        port = CLIENT_PORT
    host, colon, port_text = text.rpartition(":")
    if not colon:
        host = text
    else:
        try:
            port = int(port_text)
        except ValueError:
            return f"'{one_line(port_text)}' is not a port number"
        if not 0 < port < 65536:
            return f"{port} is not a port number"
    host = host.strip("[]")
    if not host:
        return "no host name"
    try:
        with socket.create_connection((host, port), timeout=CONNECT_SECONDS):
            return None
    except UnicodeError:  # a name that IDNA cannot encode, such as one with an empty label
        return f"'{one_line(host)}' is not a host name"
    except OSError as error:
        return error.strerror or str(error) or type(error).__name__


class RayBackend:
    def __init__(self, jobs: int, address: str | None) -> None:
        self.jobs = jobs
        self.address = address
        self.started = False
        self.pending: list[Any] = []
        self.ray: Any = None

    def _connect(self) -> Any:
        if self.address is not None and self.address != "auto":
            problem = unreachable(self.address)
            if problem is not None:
                raise TournamentError(f"Cannot reach a Ray cluster at '{one_line(self.address)}'"
                                      f": {problem}.", TournamentError.CANNOT_RUN)
        try:
            import ray
        except ImportError:
            raise TournamentError("--backend ray needs Ray: pip install 'cardtable[dist]'.",
                                  TournamentError.CANNOT_RUN) from None
        if ray.is_initialized():
            return ray
        try:
            if self.address is not None:
                ray.init(address=self.address, logging_level=logging.ERROR,
                         log_to_driver=False)
            else:
                ray.init(num_cpus=self.jobs, include_dashboard=False,
                         logging_level=logging.ERROR, log_to_driver=False)
                self.started = True
        except Exception as error:  # Ray raises ConnectionError, RuntimeError, ValueError ...
            where = f"at '{one_line(self.address)}'" if self.address else "on this machine"
            raise TournamentError(f"Cannot reach a Ray cluster {where}: "
                                  f"{one_line(str(error)).rstrip('.')}.",
                                  TournamentError.CANNOT_RUN) from None
        return ray

    def run(self, config: Config, tasks: Iterable[Task]) -> Iterator[Finished]:
        ray = self.ray = self._connect()
        remote = ray.remote(num_cpus=1, max_retries=0)(_play_remote)
        config_ref = ray.put(config)
        width = max(2, 2 * int(ray.cluster_resources().get("CPU", self.jobs)))
        by_ref: dict[Any, list[Task]] = {}
        source = Batches(tasks, RAY_BATCH_SECONDS)  # a Ray task costs more than a message
        exhausted = False
        while True:
            while not exhausted and len(by_ref) < width:
                batch = source.take()
                if batch is None:
                    exhausted = True
                    break
                by_ref[remote.remote(config_ref, batch)] = batch
            if not by_ref:
                break
            self.pending = list(by_ref)
            ready: list[Any] = []
            while not ready:  # short waits, so that Ctrl+C is seen at once
                ready, _ = ray.wait(list(by_ref), num_returns=1, timeout=0.2)
            ref = ready[0]
            batch = by_ref.pop(ref)
            try:
                lines = ray.get(ref)
            except Exception as error:
                cause = getattr(error, "cause", None) or error
                raise failed(batch, cause) from None
            source.measured(lines)
            yield from zip(batch, lines, strict=True)
        self.pending = []
        self.close()

    def close(self) -> None:
        ray = self.ray
        if ray is None:
            return
        for ref in self.pending:
            with contextlib.suppress(Exception):
                ray.cancel(ref, force=True)
        self.pending = []
        if self.started:
            ray.shutdown()
            self.started = False
        self.ray = None
