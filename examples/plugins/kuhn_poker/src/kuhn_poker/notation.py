"""The notation: ``pass`` and ``bet``, their letters ``p`` and ``b``, and poker's words.

``check`` is a pass with no bet to face, ``fold`` a pass facing one, ``call`` a bet facing one:
each is accepted only where a poker player would say it, so a word never means something the
player did not intend (``fold`` with nothing to fold to is refused, not read as a check).
Case and surrounding spaces do not matter.
"""

from __future__ import annotations

from cardtable.engine.errors import NotationError
from cardtable.engine.one_line import one_line, shortened

from kuhn_poker.rules import Action, facing_bet, is_over

WORDS = {"pass": Action.PASS, "p": Action.PASS, "bet": Action.BET, "b": Action.BET}
ALIASES = {"check": (Action.PASS, False), "fold": (Action.PASS, True),
           "call": (Action.BET, True)}
"""Poker's words: the action and whether the word is said facing a bet."""


def parse_action(text: str, history: str) -> Action:
    """The action ``text`` names after ``history``, or :class:`NotationError`."""
    if not isinstance(text, str):
        raise NotationError(f"An action is text, not {type(text).__name__}.")
    word = text.strip().lower()
    action = WORDS.get(word)
    if action is not None:
        return action
    alias = ALIASES.get(word)
    if alias is None:
        shown = shortened(one_line(text.strip()), 20)
        raise NotationError(f"Unknown action '{shown}' (allowed: pass, bet; also check, call, "
                            "fold).")
    action, facing = alias
    if is_over(history) or facing == facing_bet(history):
        return action
    if facing:
        raise NotationError(f"There is no bet to {word}: check (pass) or bet.")
    raise NotationError("You face a bet: call (bet) or fold (pass).")


def action_text(action: Action) -> str:
    return Action(action).word
