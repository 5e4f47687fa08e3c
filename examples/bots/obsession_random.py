#!/usr/bin/env python3
"""An Obsession bot for the cardtable bot protocol (docs/bots.md): a random legal action.

Run by the table: obsession --bot "exec:python3 examples/bots/obsession_random.py"
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
        send({"type": "ready", "name": "obsession-random.py", "game": "obsession"})
    elif kind == "turn":
        send({"type": "move", "move": rng.choice(message["legal"])})
    elif kind == "quit":
        break
