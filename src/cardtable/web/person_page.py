"""The pages of accounts: ``/account`` (sign up, sign in, sign out) and a person's page
``/people/{name}`` (written here from :func:`cardtable.web.people.person`: their ratings, a
chart of each game's rating history as inline SVG, and their games with a link to each
replay). Everything from the database is escaped; the pages hold no script of their own but the
static ``account.js``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from html import escape
from typing import Any
from urllib.parse import quote

from fastapi.responses import HTMLResponse

from cardtable.web.pages import _template, not_found, page

Json = dict[str, Any]

CHART_WIDTH = 560
CHART_HEIGHT = 140
CHART_PAD = 28


def account_page() -> HTMLResponse:
    return page("Account", "account", _template("account.html").template, ("account.js",))


def missing(name: str) -> HTMLResponse:
    return not_found("No such player", f"There is no player named {escape(name[:40])}.")


def when(seconds: float | None) -> str:
    if seconds is None:
        return ""
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(seconds))


def person_html(found: Json) -> HTMLResponse:
    name = str(found["name"])
    kind = "Account" if found["account"] else "Guest (games of guests are not rated)"
    return page(name, "person", _template("person.html").substitute(
        name=escape(name), kind=escape(kind), since=escape(when(found.get("since"))),
        ratings=ratings_html(found), games=games_html(found), pager=pager_html(found)))


def ratings_html(found: Json) -> str:
    if not found["ratings"]:
        return '<p class="hint">No rated games yet.</p>'
    rows = "".join(
        f'<tr data-game="{escape(entry["game"])}"><td>{escape(entry["title"])}</td>'
        f'<td title="mu {entry["mu"]}, sigma {entry["sigma"]}">{entry["rating"]}</td>'
        f'<td>{entry["games"]}</td></tr>' for entry in found["ratings"])
    charts = "".join(chart_html(entry["title"], [point for point in found["history"]
                                                 if point["game"] == entry["game"]])
                     for entry in found["ratings"])
    return ('<table class="list" id="ratings"><thead><tr><th>Game</th><th>Rating</th>'
            f'<th>Rated games</th></tr></thead><tbody>{rows}</tbody></table>{charts}')


def chart_html(title: str, points: Sequence[Json]) -> str:
    """The game's rating after each rated game, as a line (an inline SVG), with the same
    figures as a table for those who cannot see it."""
    if not points:
        return ""
    values = [float(point["rating"]) for point in points]
    low, high = min(*values, 0.0), max(*values, 0.0)
    span = (high - low) or 1.0
    step = (CHART_WIDTH - 2 * CHART_PAD) / max(1, len(values) - 1)

    def x(index: int) -> float:
        return CHART_PAD + index * step if len(values) > 1 else CHART_WIDTH / 2

    def y(value: float) -> float:
        return CHART_HEIGHT - CHART_PAD / 2 - (value - low) / span * (CHART_HEIGHT - CHART_PAD)

    line = " ".join(f"{x(index):.1f},{y(value):.1f}" for index, value in enumerate(values))
    dots = "".join(f'<circle cx="{x(index):.1f}" cy="{y(value):.1f}" r="3" fill="#1d6b3a">'
                   f"<title>{value}</title></circle>" for index, value in enumerate(values))
    zero = y(0.0)
    label = f"{title}: rating after each of {len(values)} rated games, from {values[0]} to " \
            f"{values[-1]}"
    rows = "".join(f'<tr><td>{escape(when(point["at"]))}</td><td>{point["rating"]}</td>'
                   f"<td>{replay_link(point['table'], 'replay')}</td></tr>"
                   for point in reversed(points))
    return (f'<figure class="rating-chart"><figcaption>{escape(title)}</figcaption>'
            f'<svg role="img" aria-label="{escape(label)}" width="{CHART_WIDTH}" '
            f'height="{CHART_HEIGHT}" viewBox="0 0 {CHART_WIDTH} {CHART_HEIGHT}">'
            f'<rect x="0" y="0" width="{CHART_WIDTH}" height="{CHART_HEIGHT}" fill="#fffdf6"/>'
            f'<line x1="{CHART_PAD}" x2="{CHART_WIDTH - CHART_PAD}" y1="{zero:.1f}" '
            f'y2="{zero:.1f}" stroke="#b9b3a4" stroke-dasharray="4 4"/>'
            f'<polyline points="{line}" fill="none" stroke="#1d6b3a" stroke-width="2"/>'
            f'{dots}<text x="4" y="{zero - 3:.1f}" font-size="11" fill="#5d5a52">0</text>'
            f'<text x="{min(x(len(values) - 1) + 6, CHART_WIDTH - 40):.1f}" '
            f'y="{max(y(values[-1]) - 6, 11):.1f}" font-size="12" fill="#1d1d1b">'
            f"{values[-1]}</text></svg>"
            f"<details><summary>Rating history of {escape(title)}</summary>"
            '<table class="list history"><thead><tr><th>When</th><th>Rating</th><th></th>'
            f"</tr></thead><tbody>{rows}</tbody></table></details></figure>")


def replay_link(table: str | None, text: str) -> str:
    """A link to the replay of ``table`` (none for a private table's)."""
    if table is None:
        return '<span class="hint">private table</span>'
    return f'<a class="replay-link" href="/replay/{quote(table, safe="")}">{escape(text)}</a>'


def place_text(game: Json) -> str:
    place, of = game.get("place"), game.get("of")
    if place is None:
        return escape(str(game.get("reason") or "finished"))
    if place == 1:
        return f"won (1st of {of})" if of != 2 else "won"
    suffix = {2: "nd", 3: "rd"}.get(place, "th")
    return f"{place}{suffix} of {of}"


def games_html(found: Json) -> str:
    if not found["games"]:
        return '<p class="hint">No finished games yet.</p>'
    rows = []
    for game in found["games"]:
        others = ", ".join(f'{other["seat"]} {other["name"] or "(free)"}'
                           for other in game["others"])
        rows.append(
            f'<tr data-table="{escape(game["table"])}"><td>{escape(when(game["finished"]))}</td>'
            f'<td>{escape(game["title"])}</td><td>{escape(game["seat"])}</td>'
            f"<td>{escape(others)}</td><td>{place_text(game)}</td>"
            f"<td>{replay_link(game['table'], 'Replay')}</td></tr>")
    return ('<table class="list" id="games"><thead><tr><th>Finished</th><th>Game</th>'
            "<th>Seat</th><th>Against</th><th>Result</th><th></th></tr></thead>"
            f'<tbody>{"".join(rows)}</tbody></table>')


def pager_html(found: Json) -> str:
    number = int(found["page"])
    base = f'/people/{quote(str(found["name"]), safe="")}'
    links = []
    if number > 1:
        links.append(f'<a rel="prev" href="{base}?page={number - 1}">Newer games</a>')
    if found["more"]:
        links.append(f'<a rel="next" href="{base}?page={number + 1}">Older games</a>')
    if not links:
        return ""
    return f'<nav class="row pager">Page {number} {" ".join(links)}</nav>'
