"""The rules of Kuhn poker as OpenSpiel's ``kuhn_poker`` plays them, on a betting history.

Three cards, Jack < Queen < King (OpenSpiel's cards 0, 1, 2); two players, ``P1`` (OpenSpiel's
player 0) and ``P2`` (player 1); each antes 1 chip and is dealt one card. ``P1`` acts first and
the players alternate: ``pass`` (check, or fold when facing a bet) or ``bet`` 1 chip (or call
one). A history is the string of their actions, ``p`` and ``b``; the game ends after

- ``pp``: both check, showdown for a pot of 2 (the higher card wins 1 chip);
- ``bp`` and ``pbp``: the bet is folded to, the bettor wins the folder's ante (1 chip);
- ``bb`` and ``pbb``: the bet is called, showdown for a pot of 4 (the higher card wins 2 chips).

Everything here is a pure function of a history (and, for a showdown, the cards), so the state,
the observations and the bots share one statement of the rules.
"""

from __future__ import annotations

from enum import IntEnum

SEATS = ("P1", "P2")
"""The seats in playing order: ``P1`` is OpenSpiel's player 0, ``P2`` its player 1."""
CARDS = ("J", "Q", "K")
"""The cards by rank, lowest first: OpenSpiel's cards 0, 1 and 2."""
ANTE = 1
BET_SIZE = 1
TERMINAL = frozenset({"pp", "bp", "pbp", "bb", "pbb"})
"""Every history that ends the game."""


class Action(IntEnum):
    """The two actions, numbered as OpenSpiel numbers them (also their action indices)."""

    PASS = 0
    BET = 1

    @property
    def letter(self) -> str:
        """The action in a history: ``p`` or ``b``."""
        return "pb"[self]

    @property
    def word(self) -> str:
        """The action in the notation: ``pass`` or ``bet``."""
        return ("pass", "bet")[self]


def is_over(history: str) -> bool:
    return history in TERMINAL


def is_history(history: str) -> bool:
    """Whether ``history`` is reachable: a prefix of a game, the whole game included."""
    return any(ending.startswith(history) for ending in TERMINAL)


def mover(history: str) -> int | None:
    """The 0-based player to act after ``history``, or None once the game is over."""
    return None if is_over(history) else len(history) % 2


def facing_bet(history: str) -> bool:
    """Whether the player to act faces a bet (its ``pass`` folds, its ``bet`` calls)."""
    return "b" in history


def contributions(history: str) -> tuple[int, int]:
    """The chips each player has put in the pot: the ante and any bet or call."""
    put = [ANTE, ANTE]
    for number, letter in enumerate(history):
        if letter == "b":
            put[number % 2] += BET_SIZE
    return put[0], put[1]


def folder(history: str) -> int | None:
    """The player who folded a finished ``history``, or None for a showdown."""
    if history in ("bp", "pbp"):
        return (len(history) - 1) % 2
    return None


def winner(history: str, cards: tuple[int, int]) -> int:
    """The winner of the finished ``history``: the one who did not fold, else the higher card."""
    folded = folder(history)
    if folded is not None:
        return 1 - folded
    return 0 if cards[0] > cards[1] else 1


def chips(history: str, cards: tuple[int, int]) -> tuple[int, int]:
    """What each player won (+) or lost (-) in the finished ``history``: the winner takes the
    loser's contribution to the pot (OpenSpiel's returns)."""
    won = winner(history, cards)
    lost = contributions(history)[1 - won]
    return (lost, -lost) if won == 0 else (-lost, lost)
