#!/usr/bin/env python3
"""A simple Caravan bot for the cardtable bot protocol (docs/bots.md).

It reads only the observation and the legal list it is sent (it keeps no state). It only
plays numerals onto its own caravans and never goes over the selling range (21..26 by
default):
  1. a numeral that sells one of its caravans, or outbids the other seat's caravan opposite;
  2. otherwise a numeral onto its lowest caravan that is not already winning its lane;
  3. otherwise it discards its highest card (face cards first).
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
    caravans = {c["name"]: c for c in observation["caravans"]}
    opposite = dict(zip("ABCDEF", "DEFABC", strict=True))
    best = None
    for move in legal:
        found = re.fullmatch(r"P(\d+)([A-F])", move)
        if not found:
            continue
        card = hand[int(found.group(1)) - 1]
        lane = caravans[found.group(2)]
        if lane["owner"] != me or value(card) == 0 or lane["value"] is None:
            continue
        total = lane["value"] + value(card)
        if total > high:
            continue
        theirs = caravans[opposite[found.group(2)]]["value"] or 0
        sold_before = low <= lane["value"] <= high and lane["value"] > theirs
        if low <= total and (total > theirs or not low <= theirs <= high):
            score = (3, total)  # sells the lane, or outbids the other seat on it
        elif sold_before:
            continue  # already winning this lane: leave it alone
        else:
            score = (2, -lane["value"])  # build the lowest lane
        if best is None or score > best[0]:
            best = (score, move)
    if best is not None:
        return best[1]
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
            send({"type": "ready", "name": "caravan-heuristic.py", "game": "caravan"})
    elif kind == "turn":
        send({"type": "move", "move": choose(message["observation"], message["legal"])})
    elif kind == "error":
        send({"type": "info", "text": "refused: " + message["message"]})
        send({"type": "move", "move": "D1"})
    elif kind == "quit":
        break
