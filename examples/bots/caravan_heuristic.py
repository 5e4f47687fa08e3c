#!/usr/bin/env python3
"""A simple Caravan bot for the cardtable bot protocol (docs/bots.md).

It reads only the observation and the legal list it is sent (it keeps no state):
  1. a numeral that brings one of its own caravans into the selling range (21..26 by default)
     without going over it;
  2. otherwise a numeral onto its own caravan with the lowest value that stays at or below 26;
  3. otherwise discard its highest-valued card (a face card when it has one).
"""

import json
import re
import sys

VALUES = {"A": 1, "T": 10, "J": 0, "Q": 0, "K": 0, "JO": 0}


def value(card):
    rank = card[:-1] if card != "JO" else "JO"
    return VALUES.get(rank, int(rank) if rank.isdigit() else 0)


def choose(observation, legal):
    me = observation["seat"]
    rules = message_rules.get(me, {})
    low, high = rules.get("sold_min", 21), rules.get("sold_max", 26)
    hand = observation["hand"]
    mine = {c["name"]: c for c in observation["caravans"] if c["owner"] == me}
    plays = []
    for move in legal:
        found = re.fullmatch(r"P(\d+)([A-F])", move)
        if not found:
            continue
        card = hand[int(found.group(1)) - 1]
        lane = mine.get(found.group(2))
        if lane is None or value(card) == 0 or lane["value"] is None:
            continue
        plays.append((lane["value"] + value(card), move))
    selling = [item for item in plays if low <= item[0] <= high]
    if selling:
        return max(selling)[1]
    safe = [item for item in plays if item[0] <= high]
    if safe:
        return min(safe)[1]
    discards = [move for move in legal if re.fullmatch(r"D\d+", move)]
    if discards:
        return max(discards, key=lambda move: value(hand[int(move[1:]) - 1]) or 11)
    return legal[0]


message_rules = {}


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind in ("hello", "new_game"):
        message_rules = message["rules"]
        if kind == "hello":
            send({"type": "ready", "name": "caravan-heuristic.py"})
    elif kind == "turn":
        send({"type": "move", "move": choose(message["observation"], message["legal"])})
    elif kind == "error":
        send({"type": "info", "text": "refused: " + message["message"]})
        send({"type": "move", "move": "D1"})
    elif kind == "quit":
        break
