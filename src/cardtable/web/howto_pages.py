"""The how-to-play pages: the terminal's help text (``cardtable.web.games.howto``) as HTML.

Caravan's text is written from the rules fields (one page per preset): its unindented lines
are section titles and its indented lines the sentences. Obsession's and Austerity's are the
terminal help's lines, an indented line continuing the one before it. Only the layout is HTML;
the words are the terminal's.
"""

from __future__ import annotations

from html import escape
from typing import Any

from cardtable.games.caravan.rules import PRESETS

SITE_NOTES = {
    "caravan": "Click a card of your hand, then a caravan (a numeral) or a card in a caravan "
               "(a face card on it); or type the move in the move box: P2B plays hand card 2 on "
               "caravan B, P4F3 plays card 4 on slot 3 of F, D3 discards card 3, CA clears "
               "caravan A. The Legal moves list under the box shows every move you may make.",
    "obsession": "Click your cards to select them (several of one face go down together), "
                 "then Play selected; at the deal choose the 3 cards to lie face up; with hand "
                 "and visible cards gone, click a hidden card to play it blind.",
    "austerity": "Take a seat against the shenzi, banzai and ed programs, or watch a table of "
                 "bots: press a Take button for three colours or a wild, or click a market "
                 "card to buy it.",
}


def _caravan_body(lines: list[str]) -> str:
    parts: list[str] = []
    items: list[str] = []

    def close() -> None:
        if items:
            parts.append("<ul>" + "".join(f"<li>{item}</li>" for item in items) + "</ul>")
            items.clear()

    for line in lines:
        if not line.strip():
            continue
        if line.startswith("    ") and items:
            items[-1] += " " + escape(line.strip())
        elif line.startswith("  "):
            items.append(escape(line.strip()))
        else:
            close()
            parts.append(f"<h2>{escape(line.strip())}</h2>")
    close()
    return "".join(parts)


def _listed_body(lines: list[str]) -> str:
    items: list[str] = []
    for line in lines:
        if not line.strip():
            continue
        if line.startswith("  ") and items:
            items[-1] += " " + escape(line.strip())
        else:
            items.append(escape(line.strip()))
    return "<ul>" + "".join(f"<li>{item}</li>" for item in items) + "</ul>"


def howto_html(howto: dict[str, Any]) -> str:
    """The page body from the data of ``games.howto(game, preset)``."""
    game = howto["game"]
    lines = list(howto["lines"])
    body = _caravan_body(lines) if game == "caravan" else _listed_body(lines)
    presets = ""
    if howto.get("presets"):
        presets = "<p class=\"small\">Other presets: " + " · ".join(
            f'<a href="/howto/caravan/{escape(name)}">{escape(name)}</a>'
            for name in howto["presets"] if name != howto.get("preset")) + "</p>"
    return (f"<p class=\"hint\">{escape(howto['title'])}</p>{presets}{body}"
            f"<h2>On this site</h2><p>{escape(SITE_NOTES[game])}</p>")


def index_html() -> str:
    presets = "".join(
        f'<li><a href="/howto/caravan/{escape(name)}">Caravan — {escape(name)} rules</a></li>'
        for name in PRESETS)
    return ("<ul class=\"howto-index\">" + presets
            + '<li><a href="/howto/obsession">Obsession</a></li>'
            + '<li><a href="/howto/austerity">Austerity</a></li></ul>')
