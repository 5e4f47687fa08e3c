"""A random bot (any game: it picks one of the legal moves) that misbehaves around its process,
for the containment tests: ``unruly.py HOW ARG``.

* ``setsid PIDFILE``: before it plays, it starts a child that leaves the process group and the
  session (``os.setsid()``) and sleeps for ten minutes; the child's pid goes to PIDFILE.
* ``daemon PIDFILE``: the same child forks once more and exits, so the grandchild (whose pid goes
  to PIDFILE) is an orphan in a session of its own, as a daemon would be.
* ``stderr BYTES``: before it plays, it writes BYTES bytes to its standard error, starting with a
  line ``FIRST`` and ending with a line ``LAST`` (lines of ``x`` between them).
* ``info COUNT``: before its first move, it sends COUNT ``info`` lines.

``UNRULY_DELAY`` (seconds) makes it wait that long before each move.
"""

import json
import os
import random
import sys
import time

how, argument = sys.argv[1], sys.argv[2]


def sleep_in_a_session_of_its_own(pidfile, forks):
    if os.fork() == 0:
        os.setsid()
        if forks > 1 and os.fork() != 0:
            os._exit(0)
        with open(pidfile + ".part", "w", encoding="utf-8") as file:
            file.write(f"{os.getpid()}\n")
        os.rename(pidfile + ".part", pidfile)
        time.sleep(600)
        os._exit(0)
    # Plays only once the pid is known (a game over sooner would end the child unseen).
    deadline = time.monotonic() + 60
    while not os.path.exists(pidfile) and time.monotonic() < deadline:
        time.sleep(0.01)


if how in ("setsid", "daemon"):
    sleep_in_a_session_of_its_own(argument, 1 if how == "setsid" else 2)
elif how == "stderr":
    body = int(argument) - len(b"FIRST\n") - len(b"LAST\n")
    sys.stderr.buffer.write(b"FIRST\n" + (b"x" * 99 + b"\n") * (body // 100)
                            + b"y" * (body % 100) + b"LAST\n")
    sys.stderr.buffer.flush()

rng = random.Random(3)
last = []
for text in sys.stdin:
    message = json.loads(text)
    if message["type"] == "hello":
        print(json.dumps({"type": "ready", "name": "unruly"}), flush=True)
    elif message["type"] in ("turn", "error"):
        time.sleep(float(os.environ.get("UNRULY_DELAY", "0")))
        if how == "info" and not last:
            for number in range(int(argument)):
                print(json.dumps({"type": "info", "text": f"note {number}"}))
        legal = message.get("legal") or last
        last = legal
        print(json.dumps({"type": "move", "move": rng.choice(legal)}), flush=True)
    elif message["type"] == "quit":
        break
