"""The operator's rules for the life of a table: when a table its people left is closed as
abandoned, how a quick match is timed, how many programs may run (``cardtable serve`` options;
docs/web.md gives the defaults and why)."""

from __future__ import annotations

from dataclasses import dataclass

ABANDON_BEFORE_START = 600.0
ABANDON_AFTER_START = 1800.0
QUICK_TURN_SECONDS = 60
QUICK_WAIT = 30.0
MAX_PROGRAMS = 16
MAX_PROGRAMS_PER_CLIENT = 2


@dataclass(frozen=True)
class TablePolicy:
    """How a server keeps its tables; each limit in seconds unless it says otherwise."""

    abandon_before_start: float = ABANDON_BEFORE_START
    """A table nobody has been at for this long before its first move is closed as
    abandoned (one still waiting for a person to join, too)."""
    abandon_after_start: float = ABANDON_AFTER_START
    """The same once moves were played: a game going on is given longer."""
    sweep_every: float = 15.0
    """How often the server looks for abandoned tables and writes the tables' activity."""
    quick_turn_seconds: int = QUICK_TURN_SECONDS
    """The turn timer of a table a quick match opens: nobody waits for a gone partner."""
    quick_wait: float = QUICK_WAIT
    """How long a person who asked for a quick match counts as waiting before their page
    connects (it connects within a second or two; a person whose page closed is gone)."""
    max_programs: int | None = MAX_PROGRAMS
    """Program seats (``bot:exec:NAME``) at the server's unfinished tables, in all."""
    max_programs_per_client: int | None = MAX_PROGRAMS_PER_CLIENT
    """Program seats at the unfinished tables one client made (its player, else its
    address)."""

    def abandon_limit(self, ply: int) -> float:
        """How long a table at ``ply`` may stay without its people."""
        return self.abandon_before_start if ply == 0 else self.abandon_after_start


MAX_ABANDON_SECONDS = 30 * 24 * 3600
MAX_PROGRAMS_CAP = 10_000


def from_options(abandon_before_start: float, abandon_after_start: float, max_programs: int,
                 max_programs_per_client: int) -> TablePolicy:
    """The policy of ``cardtable serve``'s options; ValueError with the message for a value
    out of its range."""
    for option, seconds in (("--abandon-before-start", abandon_before_start),
                            ("--abandon-after-start", abandon_after_start)):
        if not 1 <= seconds <= MAX_ABANDON_SECONDS:
            raise ValueError(f"{option} must be 1 to {MAX_ABANDON_SECONDS} seconds "
                             f"(got {seconds:g})")
    for option, count in (("--max-programs", max_programs),
                          ("--max-programs-per-client", max_programs_per_client)):
        if not 0 <= count <= MAX_PROGRAMS_CAP:
            raise ValueError(f"{option} must be 0 to {MAX_PROGRAMS_CAP} (got {count})")
    return TablePolicy(abandon_before_start=abandon_before_start,
                       abandon_after_start=abandon_after_start, max_programs=max_programs,
                       max_programs_per_client=max_programs_per_client)
