"""How-to text is the game's own (its description's ``howto``), written once in the game
package: the web's pages show it, and Obsession's line mode prints the same words."""

from __future__ import annotations

import pytest
from webplay import Server

from cardtable.engine import game_registry
from cardtable.games.obsession.howto import HELP
from cardtable.ui.plain.obsession import HELP_LINES
from cardtable.web import howto_pages


@pytest.mark.parametrize("game", ["caravan", "obsession", "austerity"])
def test_the_api_gives_the_descriptions_text(sqlite_server: Server, game: str) -> None:
    description = game_registry.description(game)
    answer = sqlite_server.client.get(f"/api/howto/{game}").json()
    preset = description.presets[0] if description.presets else None
    assert answer["preset"] == preset
    assert [answer["title"], *answer["lines"]] == description.howto(preset)
    page = sqlite_server.client.get(f"/howto/{game}").text
    assert howto_pages.body_html(answer["lines"]) in page
    assert description.web_notes and description.web_notes in page


def test_the_line_mode_prints_the_games_words() -> None:
    assert HELP_LINES[:len(HELP)] == tuple(f"+++ {line}" for line in HELP)
    assert game_registry.description("obsession").howto()[1:] == list(HELP)


def test_a_game_without_presets_takes_none(sqlite_server: Server) -> None:
    answer = sqlite_server.client.get("/api/howto/obsession?preset=foxon")
    assert answer.status_code == 404
    assert answer.json()["error"] == "Obsession has no presets (got 'foxon')."
    assert sqlite_server.client.get("/howto/obsession/foxon").status_code == 404


def test_sections_and_sentences() -> None:
    lines = ["", "Goal", "  one", "    more", "  two", "", "Next", "  three"]
    assert howto_pages.body_html(lines) == (
        "<h2>Goal</h2><ul><li>one more</li><li>two</li></ul><h2>Next</h2><ul><li>three</li></ul>")
    assert howto_pages.body_html(["a", "  b", "c"]) == "<ul><li>a b</li><li>c</li></ul>"
