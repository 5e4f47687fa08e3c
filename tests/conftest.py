"""Settings every test shares: the hypothesis profiles, a patient clock for the program seats
the tests start, and Ctrl-C for the programs tests start.

Two profiles, both free of the machine's speed (no deadline, no health check that times the
generation of examples):

- ``ci``: the examples come from each test's name (``derandomize``), so a run fails or passes
  the same way every time; no example database; a failure prints the blob that replays it.
- ``dev``: random examples each run (more cases over time), the local example database replays
  a failure first on the next run, and a failure prints its blob too.

``HYPOTHESIS_PROFILE`` names the profile; without it, ``CI`` set (as ``.ci/run`` runs) means
``ci``, anything else ``dev``. A test's own ``@settings(...)`` only replaces what it names.
"""

from __future__ import annotations

import os
import signal

from hypothesis import HealthCheck, settings

SPEED_FREE = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}

settings.register_profile("ci", derandomize=True, database=None, print_blob=True, **SPEED_FREE)
settings.register_profile("dev", print_blob=True, **SPEED_FREE)


def _profile() -> str:
    chosen = os.environ.get("HYPOTHESIS_PROFILE", "").strip()
    if chosen:
        return chosen
    ci = os.environ.get("CI", "").strip().lower()
    return "ci" if ci not in ("", "0", "false", "no") else "dev"


settings.load_profile(_profile())


# A program seat's clock (docs/bots.md) is the wall clock: on a loaded machine a program's move
# can take more than its second, three such moves forfeit, and a whole game against programs
# would end in a forfeit the test did not ask for. Every program the suite starts, in its own
# processes or in the commands they run (which inherit the environment), has a patient clock
# unless the test sets one: the tests of the clock itself give their own limits.
for _variable, _patient in (("CARDTABLE_BOT_STARTUP_S", "120"),
                            ("CARDTABLE_BOT_MOVE_MS", "60000"),
                            ("CARDTABLE_BOT_HARD_MS", "120000")):
    os.environ.setdefault(_variable, _patient)


# A shell without job control starts a command run in the background with SIGINT ignored, and
# its programs inherit that: the tests that press Ctrl-C on a game or a tournament would then
# see it ignored. The suite gives every program it starts the default Ctrl-C, however it was
# itself started.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
