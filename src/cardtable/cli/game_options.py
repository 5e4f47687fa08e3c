"""A game's parameters as command-line options: ``--run-kill N`` for the parameter
``run_kill``, its help, default and allowed values read from the game's description
(:class:`~cardtable.engine.description.Param`), so a parameter is written once for every shell.

The options are read as text; the parameter's :meth:`~cardtable.engine.description.Param.check`
turns each into its value or refuses it with the parameter's one message.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from cardtable.engine.description import Param
from cardtable.engine.option_refusals import (
    delay_refusal,
    delay_seconds,
    seed_refusal,
    seed_value,
)
from cardtable.engine.randomness import fresh_seed

METAVARS = {"int": "N", "file": "FILE", "text": "TEXT"}


class UsageError(Exception):
    """A mistake on the command line: one line on standard error, status 1."""


def seed_option(text: str | None) -> int:
    """``--seed``'s value (a fresh seed when the option was not given); raises
    :class:`UsageError` with the message every program gives."""
    seed = fresh_seed() if text is None else seed_value(text)
    if seed is None:
        raise UsageError(seed_refusal("--seed", str(text)))
    return seed


def delay_option(text: str | None) -> float | None:
    """``--delay``'s seconds (None when the option was not given); raises
    :class:`UsageError` with the message every program gives."""
    if text is None:
        return None
    delay = delay_seconds(text)
    if delay is None or delay < 0:
        raise UsageError(delay_refusal("--delay", text))
    return delay


def terminal_for_full_screen(plain: bool) -> bool:
    """Whether a game plays full screen: for a person at a terminal (standard input and
    output both one) who did not ask for lines (``--plain``), where Textual is installed."""
    if plain or not all(stream is not None and stream.isatty()
                        for stream in (sys.stdin, sys.stdout)):
        return False
    return importlib.util.find_spec("textual") is not None


def default_text(value: Any) -> str | None:
    """A default as the option would be typed (``none`` for None where None is a value)."""
    return None if value is None else str(value)


def option_help(param: Param, default: Any) -> str:
    """``a run of this many equal faces kills the pile: an integer from 2 to 8 (default 4)``."""
    shown = default_text(default)
    return f"{param.help}: {param.allowed}" + ("" if shown is None else f" (default {shown})")


def add_param_options(parser: argparse.ArgumentParser | Any, params: Sequence[Param],
                      defaults: Mapping[str, Any] | None = None, *, fill: bool = True) -> None:
    """An option per parameter (``dest`` its name), whose value is the text given, or the
    default as text (``defaults`` overrides a parameter's own default for this program);
    without ``fill``, None when not given (the help still says the default)."""
    for param in params:
        default = (defaults or {}).get(param.name, param.default)
        metavar = "|".join(param.choices) if param.kind == "choice" else METAVARS[param.kind]
        parser.add_argument(param.option, dest=param.name, metavar=metavar,
                            default=default_text(default) if fill else None,
                            help=option_help(param, default))


def checked_options(options: argparse.Namespace, params: Sequence[Param]) -> dict[str, Any]:
    """The parameters given on the command line (the defaults left to the game), each checked
    by its parameter; raises :class:`~cardtable.engine.errors.GameParamsError`."""
    return {param.name: param.check(getattr(options, param.name)) for param in params
            if getattr(options, param.name) is not None}
