"""The how-to-play pages: each game's own how-to text (``GameDescription.howto``, the words
the terminal's help prints) as HTML, then how to play it on this site.

Only the layout is HTML; the words are the game's. The lines are read as the terminal prints
them: an unindented line after a blank line is a section title; in each section (or in a text
without sections) the lines at its first indentation are the sentences of a list, and a line
indented further continues the sentence before it.
"""

from __future__ import annotations

from html import escape
from typing import Any

from cardtable.engine import game_registry
from cardtable.engine.description import GameDescription

GENERIC_NOTES = ("On your turn your legal moves are buttons under the table: press one to "
                 "play it, or type the move in the move box. The table shows what your seat "
                 "sees, whose turn it is and the last moves.")
"""How a game without a page of its own is played here (the generic table page)."""


def site_notes(description: GameDescription) -> str:
    """How a person plays the game on this site: its page's own notes, or the generic
    page's."""
    if description.web_page is None:
        return GENERIC_NOTES
    return description.web_notes


def body_html(lines: list[str]) -> str:
    """The how-to lines as sections of lists (see the module's docstring)."""
    parts: list[str] = []
    items: list[str] = []
    base: int | None = None
    after_blank = False

    def close() -> None:
        if items:
            parts.append("<ul>" + "".join(f"<li>{item}</li>" for item in items) + "</ul>")
            items.clear()

    for line in lines:
        if not line.strip():
            after_blank = True
            continue
        indent = len(line) - len(line.lstrip(" "))
        if indent == 0 and after_blank:
            close()
            parts.append(f"<h2>{escape(line.strip())}</h2>")
            base = None
        elif base is None or indent <= base or not items:
            if base is None:
                base = indent
            items.append(escape(line.strip()))
        else:
            items[-1] += " " + escape(line.strip())
        after_blank = False
    close()
    return "".join(parts)


def howto_html(howto: dict[str, Any]) -> str:
    """The page body from the data of ``games.howto(game, preset)``."""
    description = game_registry.description(howto["game"])
    presets = ""
    if howto.get("presets"):
        presets = "<p class=\"small\">Other presets: " + " · ".join(
            f'<a href="/howto/{escape(description.name)}/{escape(name)}">{escape(name)}</a>'
            for name in howto["presets"] if name != howto.get("preset")) + "</p>"
    notes = site_notes(description)
    on_site = f"<h2>On this site</h2><p>{escape(notes)}</p>" if notes else ""
    return (f"<p class=\"hint\">{escape(howto['title'])}</p>{presets}"
            f"{body_html(list(howto['lines']))}{on_site}")


def index_html() -> str:
    """Every game's how-to page, one per preset for a game with presets."""
    items: list[str] = []
    for description in game_registry.descriptions():
        name, title = escape(description.name), escape(description.title)
        if description.presets:
            items += [f'<li><a href="/howto/{name}/{escape(preset)}">{title} — '
                      f"{escape(preset)} rules</a></li>" for preset in description.presets]
        else:
            items.append(f'<li><a href="/howto/{name}">{title}</a></li>')
    return "<ul class=\"howto-index\">" + "".join(items) + "</ul>"
