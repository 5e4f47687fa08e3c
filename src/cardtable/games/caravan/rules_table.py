"""The rules presets side by side, as the Markdown table of docs/rules/caravan.md.

The table is written from the :class:`Rules` instances of :data:`PRESETS`, one row per field in
field order, so the page cannot disagree with the game; a test checks that the page holds
exactly this table. ``python -m cardtable.games.caravan.rules_table`` prints it.
"""

from __future__ import annotations

from dataclasses import fields

from cardtable.games.caravan.rules import PRESETS, Rules
from cardtable.games.caravan.rules_assembly import field_text


def preset_table(presets: dict[str, Rules] = PRESETS) -> str:
    """Every field of every preset; a field the presets do not all share is in bold."""
    names = list(presets)
    lines = ["| Field | " + " | ".join(names) + " |",
             "|---|" + "---|" * len(names)]
    for field in fields(Rules):
        values = [field_text(presets[name], field.name) for name in names]
        label = f"`{field.name}`"
        if len(set(values)) > 1:
            label = f"**{label}**"
        lines.append(f"| {label} | " + " | ".join(values) + " |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(preset_table(), end="")
