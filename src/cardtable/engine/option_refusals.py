"""The refusals every program words alike: a bad seed, a bad delay, an unknown bot.

``caravan``, ``obsession``, the Austerity tools and the launcher each read these values their
own way (an option, a form field), but a person who mistypes one gets the same sentence
everywhere, in the form of the game parameters' messages
(:meth:`cardtable.engine.description.Param.message`): ``NAME must be ALLOWED (got 'VALUE')``,
``NAME`` being the option (``--seed``) or the form's field (``Seed``). The value is echoed on
one line and cut to :data:`SHOWN` characters. The bot registry (``cardtable.agents``) words an
unknown bot with :func:`unknown_bot_message` too.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from cardtable.engine.one_line import one_line, shortened
from cardtable.engine.seed_option import SEED_ALLOWED, seed_value

__all__ = ["DELAY_ALLOWED", "MAX_DELAY_SECONDS", "SHOWN", "delay_refusal", "delay_seconds",
           "seed_refusal", "seed_value", "shown", "unknown_bot_message"]

SHOWN = 40
"""How much of a refused value a message echoes."""

MAX_DELAY_SECONDS = 86400.0
"""The longest pause between two moves: ``time.sleep`` and the event loop's timers refuse
(``OverflowError``) pauses past what the system clock counts, and nobody waits a day between
two moves, so a longer delay is refused when the program starts rather than in mid-game."""

DELAY_ALLOWED = f"a number of seconds from 0 to {MAX_DELAY_SECONDS:g}"


def shown(value: str) -> str:
    """``value`` as a refusal echoes it: on one line, cut to :data:`SHOWN` characters."""
    return shortened(one_line(value), SHOWN)


def seed_refusal(name: str, value: str) -> str:
    """``--seed must be an integer >= 0 (got 'x')``: ``value`` is no seed (see
    :func:`~cardtable.engine.seed_option.seed_value`)."""
    return f"{name} must be {SEED_ALLOWED} (got '{shown(value)}')"


def delay_seconds(text: str) -> float | None:
    """The pause ``text`` names, or None when it names none (not a number, NaN, past a day);
    a negative number is returned, for the caller to refuse where its order of checks says."""
    try:
        value = float(text)
    except ValueError:
        return None
    if math.isnan(value) or value == -math.inf or value > MAX_DELAY_SECONDS:
        return None  # "inf" and numbers too long for a float are past a day too
    return value


def delay_refusal(name: str, value: str) -> str:
    """``--delay must be a number of seconds from 0 to 86400 (got 'x')``."""
    return f"{name} must be {DELAY_ALLOWED} (got '{shown(value)}')"


def unknown_bot_message(name: str, game: str, bots: Sequence[str]) -> str:
    """``Unknown bot 'x' for caravan (bots: normal, expert, ...).``: ``bots`` are the ones
    the place that refuses ``name`` takes."""
    return f"Unknown bot '{shown(name)}' for {game} (bots: {', '.join(bots)})."
