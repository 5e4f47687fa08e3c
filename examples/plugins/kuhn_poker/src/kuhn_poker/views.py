"""Kuhn poker as JSON: a seat's view (from its observation only), the public view, the rules.

A seat's view is what the web page of that seat draws and what an external program is sent::

    {"seat": "P2", "card": "Q", "cards": {"P1": null, "P2": "Q"}, "to_move": "P2",
     "facing_bet": true, "pot": 3, "bets": {"P1": 2, "P2": 1},
     "history": [{"seat": "P1", "move": "bet"}], "chips": null}

``cards`` shows the other seat's card only after a showdown; ``chips`` is each seat's gain once
the game is over. The public view is the same without ``seat`` and ``card``, and shows no card
before the showdown.
"""

from __future__ import annotations

from typing import Any

from kuhn_poker import rules
from kuhn_poker.rules import SEATS, Action
from kuhn_poker.state import KuhnState, Observation

Json = dict[str, Any]


def _betting(history: str, to_move: str | None, chips: tuple[int, int] | None) -> Json:
    """The public part of every view: whose turn, the pot, the actions, the outcome."""
    put = rules.contributions(history)
    return {
        "to_move": to_move,
        "facing_bet": rules.facing_bet(history) and to_move is not None,
        "pot": sum(put),
        "bets": dict(zip(SEATS, put, strict=True)),
        "history": [{"seat": SEATS[number % 2], "move": Action("pb".index(letter)).word}
                    for number, letter in enumerate(history)],
        "chips": None if chips is None else dict(zip(SEATS, chips, strict=True)),
    }


def said_word(before: list[str], word: str) -> str:
    """An action as a poker player says it: ``checks`` or ``folds`` for a pass, ``bets`` or
    ``calls`` for a bet, by whether a bet was faced."""
    facing = "bet" in before
    if word == "pass":
        return "folds" if facing else "checks"
    return "calls" if facing else "bets"


def view_lines(view: Json) -> list[str]:
    """A view in a few lines of words (the RL environments' text rendering)."""
    lines = [] if view.get("card") is None else [f"Your card: {view['card']}"]
    words = [entry["move"] for entry in view["history"]]
    said = [f"{entry['seat']} {said_word(words[:number], entry['move'])}"
            for number, entry in enumerate(view["history"])]
    lines.append("Betting: " + (", ".join(said) if said else "nobody has acted yet"))
    lines.append(f"Pot: {view['pot']} chips")
    shown = [f"{seat} {card}" for seat, card in view["cards"].items() if card is not None]
    if view["chips"] is not None:
        if len(shown) == len(SEATS):
            lines.append("Showdown: " + ", ".join(shown))
        gains = ", ".join(f"{seat} {value:+d}" for seat, value in view["chips"].items())
        lines.append(f"Game over: {gains}")
    elif view["to_move"] is not None:
        lines.append(f"{view['to_move']} to act" + (" (facing a bet)" if view["facing_bet"]
                                                     else ""))
    return lines


def observation_json(observation: Observation) -> Json:
    """A seat's view, from its observation alone."""
    number = observation.number
    cards: list[str | None] = [None, None]
    cards[number] = observation.card
    cards[1 - number] = observation.other_card
    return {"seat": observation.seat, "card": observation.card,
            "cards": dict(zip(SEATS, cards, strict=True)),
            **_betting(observation.history, observation.to_move, observation.chips())}


def public_view(state: KuhnState) -> Json:
    """What anyone watching sees: the betting, and both cards only after a showdown."""
    result = state.result
    shown = result is not None and result.reason == "showdown"
    chips = None if result is None else rules.chips(state.history, state.cards)
    return {"cards": {seat: rules.CARDS[card] if shown else None
                      for seat, card in zip(SEATS, state.cards, strict=True)},
            **_betting(state.history, state.to_move, chips)}


def rules_json(game: Any) -> Json:
    """The rules an external program is told in ``hello``."""
    return {"cards": list(rules.CARDS), "ante": rules.ANTE, "bet": rules.BET_SIZE,
            "seats": list(SEATS), "actions": [action.word for action in Action]}
