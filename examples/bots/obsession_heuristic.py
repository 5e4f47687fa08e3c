#!/usr/bin/env python3
"""A simple Obsession bot for the cardtable bot protocol (docs/bots.md).

Stateless: from the legal list alone it
  * swaps its three highest cards into its visible row (2, 10 and jokers rank highest);
  * plays the lowest plain card it may, with every copy of it it may play at once;
  * keeps specials (2, 3, 7, 8, 10, jokers) until nothing else is legal;
  * turns its hidden cards over in order.
"""

import json
import sys

ORDER = {"4": 4, "5": 5, "6": 6, "9": 9, "J": 11, "Q": 12, "K": 13, "A": 14,
         "3": 15, "7": 16, "8": 17, "2": 18, "10": 19, "R": 20}


def strength(card):
    return ORDER.get(card.split("#")[0][:-1] if card[0] != "R" else "R", 0)


def choose(legal):
    if legal[0].startswith("blind"):
        return legal[0]
    if legal[0].startswith("swap"):
        return max(legal, key=lambda action: sorted(map(strength, action.split()[1:])))
    def key(action):
        cards = action.split()[1:]
        return (strength(cards[0]), -len(cards))
    return min(legal, key=key)


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        send({"type": "ready", "name": "obsession-heuristic.py", "game": "obsession"})
    elif kind == "turn":
        send({"type": "move", "move": choose(message["legal"])})
    elif kind == "quit":
        break
