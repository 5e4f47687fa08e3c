"""How to play Obsession and Austerity: the terminal's help text, without its line prefixes."""

from __future__ import annotations

from typing import Any


def obsession_lines(rules: Any | None = None) -> list[str]:
    """The plain line mode's help (``help`` or ``?``), then the table's rule options."""
    from cardtable.ui.plain.obsession import HELP_LINES

    lines = ["How to play Obsession"]
    for line in HELP_LINES:
        text = line.removeprefix("+++ ")
        if text.startswith("Commands:") or text.strip().startswith("leaves the game"):
            continue
        lines.append(text.strip() if not text.startswith("  ") else "  " + text.strip())
    lines.append("In the browser, click the cards to play (or type their numbers in the move "
                 "box: play 9C 9H, swap 4C 9H KS, blind 2).")
    if rules is not None:
        lines.append(f"This table: a run of {rules.run_kill} equal faces kills the pile; "
                     f"kill order {rules.kill_order}; at most {rules.max_plays} plays.")
    return lines


AUSTERITY = (
    "How to play Austerity",
    "On a turn a player takes one token from three different coloured piles (P B Y R), "
    "takes a wild (W), or buys a market card. Each owned card lowers later costs by one "
    "token of its colour. The game ends at the end of a round in which someone reached the "
    "target, or when a purchase empties the market. Most points win.",
    "Moves are the player protocol's replies: take1,1,1,0 (one Purple, Brown and Yellow "
    "token), purchase2:1,0,0,0,1 (market card 2 paid with one Purple token and one wild), "
    "wild.",
    "Bots: shenzi buys the most points it can afford, banzai saves for dear cards, ed takes "
    "in the order Y R B P.",
)


def austerity_lines() -> list[str]:
    return list(AUSTERITY)
