"""How to play Austerity, as the web's how-to page shows it: the title, then one paragraph a
line."""

from __future__ import annotations

HOWTO = (
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
