"""A bot that breaks the protocol in one way, named by argv[1], for the forfeit tests.

argv[2], when given, is a file where it writes its process id.
"""

import json
import os
import sys
import time

how = sys.argv[1]
if len(sys.argv) > 2:
    with open(sys.argv[2], "w", encoding="utf-8") as pids:
        pids.write(f"{os.getpid()}\n")


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


turns = 0
message_legal = ["D1"]
for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        if how == "silent_start":
            time.sleep(60)
        send({"type": "ready", "name": how})
        continue
    if kind == "quit":
        break
    if kind not in ("turn", "error"):
        continue
    turns += 1
    legal = message.get("legal") or ["D1"]
    if how == "slow":  # over the move limit on every move, under the hard limit
        time.sleep(float(os.environ.get("SLOW_SECONDS", "0.3")))
        send({"type": "move", "move": legal[0]})
    elif how == "very_slow":
        time.sleep(60)
    elif how == "crash":
        sys.stderr.write("about to crash\n")
        sys.exit(3)
    elif how == "eof":
        os.close(1)
        time.sleep(60)
    elif how == "junk":
        sys.stdout.write("no json here\n")
        sys.stdout.flush()
    elif how == "wrong_type":
        send({"type": "ready", "name": "again"})
    elif how == "no_move":
        send({"type": "move", "move": 17})
    elif how == "refused":  # an illegal move, then another after the error
        send({"type": "move", "move": "D1" if kind == "turn" else "X9"})
    elif how == "illegal":  # Obsession: a move the notation reads and the rules refuse, twice
        send({"type": "move", "move": "blind 1"})
    elif how == "illegal_once":
        send({"type": "move", "move": "blind 1" if kind == "turn" else message_legal[0]})
    elif how == "refused_once":  # an illegal move, then a legal one after the error
        send({"type": "move", "move": "D1" if kind == "turn" else message_legal[0]})
    if kind == "turn":
        message_legal = legal
