"""How to play Austerity, as a player reads it: the web's how-to page and the terminal's help.

The first line is the title. Then sections, each after a blank line: an unindented title, its
sentences indented by two spaces, a sentence's continuation by four (the how-to page makes
each section a list).
"""

from __future__ import annotations

HOWTO = (
    "How to play Austerity",
    "",
    "The goal",
    "  Collect points by buying cards from the market. When the game ends, the player",
    "    with the most points wins (players with equal points share the win).",
    "  Everything is on the table for everyone to see: the token piles, the market and",
    "    every player's tokens, cards and points. Only the order of the deck is unknown.",
    "",
    "Your turn: do one of three things",
    "  Take three tokens: one each from three different colours (Purple, Brown, Yellow,",
    "    Red). A colour whose pile is empty cannot be taken.",
    "  Take a wild: one wild token, which can stand in for any colour when you buy.",
    "    The wild pile never runs out.",
    "  Buy a card from the market, if you can pay for it. The card's points are yours,",
    "    and a new card from the deck takes its place in the market.",
    "",
    "Costs and discounts",
    "  Each card shows its points, its colour and its cost in tokens of each colour.",
    "  Every card you own makes the cards you buy later one token cheaper in its own",
    "    colour: two Brown cards take two Brown tokens off every later price.",
    "  You pay with your coloured tokens first and with wilds only for what you are",
    "    missing. The tokens you pay go back to their piles.",
    "  On your turn the market cards you can afford are outlined: click one to buy it.",
    "",
    "The end",
    "  When a player reaches the target points, the round is played to its end, so that",
    "    everyone has had the same number of turns; then the game is over.",
    "  The game also ends at once when a purchase empties the market (the deck has run",
    "    out).",
    "",
    "Typing moves",
    "  On the web you press the buttons and click the cards. The move box (and the",
    "    programs) take the moves as words: take1,1,1,0 takes one Purple, Brown and",
    "    Yellow token; wild takes a wild; purchase2:1,0,0,0,1 buys market card 2,",
    "    paying one Purple token and one wild.",
    "  The bots: shenzi buys the most points it can afford, banzai saves for dear",
    "    cards, ed takes in the order Yellow, Red, Brown, Purple.",
)
