"""The lobby's "create a table" form, drawn from the catalogue (``games.catalogue``): each
game's parameters as its description writes them (``Param.json()``), so a new parameter of a
game, or a new game, appears in the form without an edit here.

Each game has a fieldset: the number of players (when the seats set it), then one input per
parameter (a number box with the parameter's limits, a choice list, a text box), filled with
the value a new table gets (``table_params``, else the parameter's default); then, folded
away, the game's free rule fields (Caravan's), one input per seat or one for all seats, blank
keeping the rule set's value. The browser sends what is filled in as the game's parameters,
checked by the game's own code.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from cardtable.web.games import offered

Json = dict[str, Any]


def options(values: Sequence[str], selected: str | None = None,
            labels: Sequence[str] | None = None) -> str:
    return "".join(
        f'<option value="{escape(value)}"{" selected" if value == selected else ""}>'
        f"{escape(label)}</option>"
        for value, label in zip(values, labels if labels is not None else values, strict=True)
    )


def game_options(catalogue: Sequence[Json] | None = None) -> str:
    """Every game of ``catalogue`` (by default every game the server offers), by its title."""
    if catalogue is None:
        return options([one.name for one in offered()], labels=[one.title for one in offered()])
    return options([entry["game"] for entry in catalogue],
                   labels=[entry["title"] for entry in catalogue])


def _label(name: str) -> str:
    return name.replace("_", " ").capitalize()


def _text(value: object) -> str:
    return "" if value is None else str(value)


def param_input(param: Json, value: object) -> str:
    """One parameter as a form input holding ``value``."""
    name, help_text = escape(param["name"]), escape(param["help"])
    if param["kind"] == "choice":
        choices = [str(choice) for choice in param["choices"]]
        return (f'<select name="{name}" title="{help_text}">'
                f"{options(choices, _text(value))}</select>")
    if param["kind"] == "int":
        limits = "".join(f' {key}="{param[bound]}"' for key, bound in
                         (("min", "minimum"), ("max", "maximum")) if param[bound] is not None)
        empty = ' placeholder="none"' if param.get("nullable") else ""
        return (f'<input type="number" name="{name}"{limits} value="{escape(_text(value))}"'
                f'{empty} title="{help_text}">')
    return f'<input name="{name}" value="{escape(_text(value))}" title="{help_text}">'


def field_input(param: Json) -> str:
    """A free rule field's input: blank (the rule set's value) or a value of the field."""
    name, label = escape(param["name"]), escape(param["help"])
    if param["kind"] == "choice":
        listed = ["", *(str(choice) for choice in param["choices"])]
        return (f'<select name="{name}" aria-label="{label}">'
                + "".join(f'<option value="{escape(v)}">{escape(v) or "(preset)"}</option>'
                          for v in listed)
                + "</select>")
    placeholder = "number or none" if param.get("nullable") else "number"
    return f'<input name="{name}" size="6" aria-label="{label}" placeholder="{placeholder}">'


def _fields_table(entry: Json) -> str:
    seats = entry["seat_names"][str(entry["seats"][0])]
    rows = []
    for row in entry["fields"]:
        params = row["params"]
        if len(params) == 1:
            cells = f'<td colspan="{len(seats)}">{field_input(params[0])}</td>'
        else:
            cells = "".join(f"<td>{field_input(param)}</td>" for param in params)
        rows.append(f'<tr><th scope="row">{escape(row["field"])}</th>{cells}</tr>')
    head = "".join(f"<th>{escape(seat)}</th>" for seat in seats)
    return ("<details><summary>Change rule fields (per seat; blank keeps the preset)</summary>"
            f'<table class="fields"><thead><tr><th>Field</th>{head}</tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table></details>")


def fieldset(entry: Json, first: bool) -> str:
    """The fieldset of one game of the catalogue (shown for the first game only)."""
    name, title = escape(entry["game"]), escape(entry["title"])
    parts = [f'<fieldset data-game="{name}"{"" if first else " hidden"}>',
             f"<legend>{title} options</legend>"]
    players = entry["players"]
    low, high = entry["seats"]
    if players is not None:
        default = players["default"]
        count = default if isinstance(default, int) and low <= default <= high else low
        parts.append(f'<label>Players <input type="number" name="{escape(players["name"])}" '
                     f'min="{low}" max="{high}" value="{count}"></label>')
    for param in entry["params"]:
        value = entry["table_params"].get(param["name"], param["default"])
        parts.append(f"<label>{escape(_label(param['name']))} "
                     f"{param_input(param, value)}</label>")
    if entry["presets"]:
        parts.append(f'<a href="/howto/{name}" class="small">what the presets mean</a>')
    if entry["fields"]:
        parts.append(_fields_table(entry))
    parts.append("</fieldset>")
    return "\n".join(parts)


def fieldsets(catalogue: Sequence[Json]) -> str:
    return "\n".join(fieldset(entry, index == 0) for index, entry in enumerate(catalogue))
