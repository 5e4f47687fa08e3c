"""An external Kuhn poker player in plain Python (docs/bots.md, protocol version 1): it bets or
calls with a King, calls with a Queen, checks or folds a Jack, speaking poker's words, and logs
every line it receives to the file named by its first argument."""

import json
import sys

log = open(sys.argv[1], "a", encoding="utf-8")  # noqa: SIM115 - open for the whole run


def send(message: dict[str, object]) -> None:
    print(json.dumps(message), flush=True)


for line in sys.stdin:
    log.write(line)
    log.flush()
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        send({"type": "ready", "name": "kuhn-words", "game": "kuhn_poker"})
    elif kind == "turn":
        seen = message["observation"]
        facing = seen["facing_bet"]
        if seen["card"] == "K" or (seen["card"] == "Q" and facing):
            word = "call" if facing else "bet"
        else:
            word = "fold" if facing else "check"
        send({"type": "move", "move": word})
    elif kind == "quit":
        break
