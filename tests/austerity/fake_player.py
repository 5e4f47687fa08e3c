"""A scripted Austerity player for the hub tests: ``fake_player.py SPEC.json pcount myid``.

SPEC keys (all optional):

* ``replies``: what to do at each ``dowhat``, in order; after the list, ``@auto``.
  A plain string is written as given (latin-1, so bytes and missing newlines are possible);
  ``@auto`` plays shenzi's move with a newline; ``@exit:N`` exits with status N at once;
  ``@close`` closes stdout and goes on reading; ``@hang`` answers nothing and goes on
  reading; ``@fuzz`` picks a random misbehaviour (seeded by ``seed`` and the player id).
* ``eog``: ``exit:N`` (default ``exit:0``) or ``ignore`` (stay alive, ignoring ``eog``).
* ``log``: a file to which every received line is appended as it arrives.
* ``pidfile``: a file to write the process id to at start.
* ``seed``: for ``@fuzz``.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sys
import time

from cardtable.games.austerity.codec import (
    DOWHAT,
    EOG,
    NEWCARD,
    PURCHASED,
    TOKENS,
    TOOK,
    format_action,
    parse_message,
)
from cardtable.games.austerity.rules import Table
from cardtable.games.austerity.strategies import shenzi


def fuzz_reply(rng: random.Random, valid: bytes) -> str:
    """A misbehaviour, or sometimes the valid move, for ``@fuzz``."""
    roll = rng.random()
    if roll < 0.55:
        return valid.decode()
    if roll < 0.75:
        size = rng.randint(0, 30)
        junk = bytes(rng.randrange(256) for _ in range(size)).replace(b"\n", b"")
        return junk.decode("latin-1") + "\n"
    if roll < 0.85:
        # A valid move changed by one byte (or with a byte inserted).
        data = bytearray(valid[:-1])
        position = rng.randrange(len(data) + 1)
        data[position:position] = bytes([rng.choice(b"0123456789,: +-\rAZaz")])
        return data.decode("latin-1") + "\n"
    if roll < 0.92:
        return "@trunc:" + valid[: rng.randrange(1, len(valid))].decode()
    if roll < 0.96:
        return f"@exit:{rng.choice([0, 1, 3, 6])}"
    return "@close"


def main() -> int:
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    with open(sys.argv[1]) as stream:
        spec = json.load(stream)
    count, me = int(sys.argv[2]), int(sys.argv[3])
    replies = list(spec.get("replies", []))
    rng = random.Random(f"{spec.get('seed', 0)}:{me}")
    if spec.get("pidfile"):
        with open(spec["pidfile"], "w") as stream:
            stream.write(str(os.getpid()))
    log = open(spec["log"], "ab", buffering=0) if spec.get("log") else None  # noqa: SIM115
    table = Table(count)
    stdout_open = True
    while True:
        line = sys.stdin.buffer.readline()
        if log is not None and line:
            log.write(line if line.endswith(b"\n") else line + b"\n")
        if not line.endswith(b"\n"):
            return 6
        message = parse_message(line[:-1], count)
        if message is None:
            return 6
        kind, player, number, values, card = message
        if kind == EOG:
            if spec.get("eog") == "ignore":
                signal.signal(signal.SIGTERM, signal.SIG_IGN)
                while True:
                    time.sleep(60)
            return int(spec.get("eog", "exit:0").split(":")[1])
        if kind == TOKENS:
            table.piles = [number] * 4
        elif kind == NEWCARD and card is not None:
            table.market.append(card)
        elif kind == PURCHASED:
            table.record_purchase(player, number, values)
        elif kind == TOOK:
            table.record_take(player, values)
        elif kind == DOWHAT:
            step = replies.pop(0) if replies else "@auto"
            valid = format_action(shenzi(table, me))
            if step == "@fuzz":
                step = fuzz_reply(rng, valid)
            if step == "@auto":
                data = valid
            elif step.startswith("@exit:"):
                return int(step[6:])
            elif step == "@close":
                os.close(1)
                stdout_open = False
                continue
            elif step == "@hang":
                continue
            elif step.startswith("@trunc:"):
                # Part of a line, then exit: the hub must see EOF after a partial line.
                os.write(1, step[7:].encode())
                return 0
            else:
                data = step.encode("latin-1")
            if stdout_open:
                os.write(1, data)
        else:
            table.record_wild(player)


if __name__ == "__main__":
    sys.exit(main())
