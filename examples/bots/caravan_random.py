#!/usr/bin/env python3
"""A Caravan bot for the cardtable bot protocol (docs/bots.md): a uniformly random legal move.

Run by the table: caravan -b "exec:python3 examples/bots/caravan_random.py"
"""

import json
import random
import sys

rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else None)


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        send({"type": "ready", "name": "caravan-random.py", "game": "caravan"})
    elif kind == "turn":
        send({"type": "move", "move": rng.choice(message["legal"])})
    elif kind == "error":
        # Every move offered was legal; should one be refused anyway, discard the first card.
        send({"type": "move", "move": "D1"})
    elif kind == "quit":
        break
