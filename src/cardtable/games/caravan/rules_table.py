"""The rules presets side by side, as the Markdown table of docs/rules/caravan.md.

The table is written from the :class:`Rules` instances of :data:`PRESETS`, one row per field in
field order, so the page cannot disagree with the game; a test checks that the page holds
exactly this table. ``python -m cardtable.games.caravan.rules_table`` prints it.
"""

from __future__ import annotations

from dataclasses import fields

from cardtable.games.caravan.deck import resolved_samples
from cardtable.games.caravan.rules import PRESETS, Rules


def value_text(value: object) -> str:
    """A field's value as rule options write it: ``none``, ``true``, ``8``, ``keep_previous``."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def cell(rules: Rules, name: str) -> str:
    """One preset's value of one field, with what ``none`` stands for where it is a number."""
    text = value_text(getattr(rules, name))
    if name == "opening_hand_size" and rules.opening_hand_size is None:
        text += f" ({rules.opening_hand})"
    elif name == "samples" and rules.samples is None:
        text += f" ({resolved_samples(rules, rules.deck_size)})"
    elif name == "deck_size" and rules.deck_size is None:
        text += f" (random {rules.deck_min}..{rules.deck_max})"
    return text


def preset_table(presets: dict[str, Rules] = PRESETS) -> str:
    """Every field of every preset; a field the presets do not all share is in bold."""
    names = list(presets)
    lines = ["| Field | " + " | ".join(names) + " |",
             "|---|" + "---|" * len(names)]
    for field in fields(Rules):
        values = [cell(presets[name], field.name) for name in names]
        label = f"`{field.name}`"
        if len(set(values)) > 1:
            label = f"**{label}**"
        lines.append(f"| {label} | " + " | ".join(values) + " |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(preset_table(), end="")
