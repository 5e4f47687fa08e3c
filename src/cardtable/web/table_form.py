"""The lobby's "create a table" form, written from the games' own option lists.

Caravan's rule fields come from the ``Rules`` dataclass (a choice list for a ``Literal`` or a
``bool``, a text box for a number), so a new rule field appears in the form without an edit
here. The browser sends what is filled in as the game's parameters (``rules``, ``abc.FIELD``,
``def.FIELD``, ``FIELD`` for the fields both seats share), checked by the game's own code.
"""

from __future__ import annotations

import types
from dataclasses import fields
from html import escape
from typing import Literal, get_args, get_origin, get_type_hints

from cardtable.games.caravan.rules import DEFAULT_PRESET, GLOBAL_FIELDS, PRESETS, Rules
from cardtable.games.obsession.rules import KILL_ORDERS

GAMES = ("caravan", "obsession", "austerity")
SEAT_NAMES = {"caravan": ["ABC", "DEF"]}
"""Fixed seat names; Obsession's (P1..Pn) and Austerity's (A, B, ...) follow the player count."""


def options(values: list[str] | tuple[str, ...], selected: str | None = None) -> str:
    return "".join(
        f'<option value="{escape(value)}"{" selected" if value == selected else ""}>'
        f"{escape(value)}</option>"
        for value in values
    )


def field_choices(hint: object) -> tuple[list[str], bool] | None:
    """The spelled choices of a field type (``None`` for a number) and whether it is nullable."""
    args = get_args(hint)
    nullable = isinstance(hint, types.UnionType) and type(None) in args
    if nullable:
        (hint,) = (arg for arg in args if arg is not type(None))
    if hint is bool:
        return ["yes", "no"], nullable
    if get_origin(hint) is Literal:
        return [str(arg) for arg in get_args(hint)], nullable
    return None


def _input(name: str, hint: object, label: str) -> str:
    choices = field_choices(hint)
    if choices is None:
        nullable = isinstance(hint, types.UnionType)
        placeholder = "number or none" if nullable else "number"
        return (f'<input name="{escape(name)}" size="6" aria-label="{escape(label)}" '
                f'placeholder="{placeholder}">')
    values, nullable = choices
    listed = ["", *values, *(["none"] if nullable else [])]
    return (f'<select name="{escape(name)}" aria-label="{escape(label)}">'
            + "".join(f'<option value="{escape(v)}">{escape(v) or "(preset)"}</option>'
                      for v in listed)
            + "</select>")


def caravan_field_rows() -> str:
    """One row per rule field: an ABC and a DEF input, or one input for a shared field."""
    hints = get_type_hints(Rules)
    rows = []
    for field in fields(Rules):
        name, hint = field.name, hints[field.name]
        if name in GLOBAL_FIELDS:
            cells = f'<td colspan="2">{_input(name, hint, name + " (both seats)")}</td>'
        else:
            cells = (f"<td>{_input('abc.' + name, hint, name + ' for ABC')}</td>"
                     f"<td>{_input('def.' + name, hint, name + ' for DEF')}</td>")
        rows.append(f"<tr><th scope=\"row\">{escape(name)}</th>{cells}</tr>")
    return "".join(rows)


def caravan_preset_options() -> str:
    return options(list(PRESETS), DEFAULT_PRESET)


def kill_order_options() -> str:
    return options(KILL_ORDERS)
