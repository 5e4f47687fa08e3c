"""How to play Obsession, in the words the line mode's ``help`` prints and the web's how-to
page shows: one sentence a line, an indented line continuing the one before it.

What goes on which face is read from the legality table (:mod:`explain`), as in the game's
messages.
"""

from __future__ import annotations

from cardtable.games.obsession import explain
from cardtable.games.obsession.cards import FACE_NAMES

TITLE = "How to play Obsession"

HELP = (
    "How to play: play out your hand, then your visible cards, then your hidden",
    "  cards; the last player left holding cards loses.",
    "Type the numbers of the cards to play (1 3 or 4,5); cards played together",
    "  must share one face. At the deal pick the 3 cards that lie face up; with",
    "  hand and visible cards gone, pick 1 hidden card blind. When nothing you",
    "  hold may be played, the pile is picked up for you;",
    f"  {explain.THREES_RULE} (a lone 3 gives 0 cards).",
    f"On {explain.words(explain.ANYTHING_FACES)} or an empty pile anything goes;",
    f"  plain faces climb ({' < '.join(FACE_NAMES[face] for face in explain.CLIMB)}),",
    f"  so on a 9: {explain.allowed(9)};",
    f"  on a 3 only {explain.allowed(3)}; on a 7 only {explain.allowed(7)};",
    "  a joker (R) is see-through: the face under it counts.",
    "8 plays again, 10 kills the pile and plays again, R reverses the direction;",
    "  a run of equal faces on top (run-kill) kills the pile too.",
)
"""The rules in a few lines (a shell adds its own commands after them)."""


def howto_lines() -> list[str]:
    """The title, then :data:`HELP`."""
    return [TITLE, *HELP]
