"""Austerity actions as fixed integer indices, for learning agents and search
(docs/action-indices.md).

A turn is one of three kinds of action, and the range is the same for every deck, pile size,
target and number of players::

    take      the three colours taken     0..3   (the colour left out: Red, Yellow, Brown, Purple)
    purchase  market position k           4 + k  (k = 0..7)
    wild                                  12

A take is one token from each of three colours, so it is named by the colour it leaves out;
the four takes come in the order of the legal list (``take1,1,1,0`` first, ``take0,1,1,1``
last). A purchase is named by its market position only: the rules fix its payment (coloured
tokens first, wilds for the shortfall), so a purchase with any other payment is an action with
no index.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardtable.games.austerity.codec import format_action, parse_action
from cardtable.games.austerity.rules import (
    MARKET_LIMIT,
    PURCHASE,
    TAKE,
    TAKE_VALUES,
    WILD,
    WILD_ACTION,
    Action,
)

if TYPE_CHECKING:
    from cardtable.games.austerity.game import AusterityGame
    from cardtable.games.austerity.state import AusterityState

TAKES = len(TAKE_VALUES)
PURCHASE_BASE = TAKES
WILD_INDEX = PURCHASE_BASE + MARKET_LIMIT
NUM_ACTIONS = WILD_INDEX + 1
_TAKE_INDEX = {values: index for index, values in enumerate(TAKE_VALUES)}


def num_actions(game: AusterityGame | None = None) -> int:
    """How many action indices games of Austerity have: 13, whatever their parameters."""
    return NUM_ACTIONS


def _text(action: Action) -> str:
    """The action in notation when it has one, else the tuple itself."""
    try:
        line = format_action(action)
    except (TypeError, ValueError, IndexError):
        return repr(action)
    if parse_action(line.rstrip(b"\n")) != action:
        return repr(action)
    return repr(line.decode().rstrip("\n"))


def action_index(state: AusterityState, action: Action) -> int:
    """The index of ``action``, an action of the player to move (legal or not)."""
    kind, index, values = action
    if type(values) is not tuple:
        raise ValueError(f"the action {action!r} has no action index")
    if kind == WILD and index == 0 and values == ():
        return WILD_INDEX
    if kind == TAKE and index == 0:
        found = _TAKE_INDEX.get(values)
        if found is not None:
            return found
    if kind == PURCHASE and type(index) is int and 0 <= index < MARKET_LIMIT:
        table = state.game.table
        if index >= len(table.market):
            raise ValueError(f"the action {_text(action)} has no action index: there is no "
                             f"market card {index}")
        payment = table.payment(state.game.current, table.market[index])
        if values == payment:
            return PURCHASE_BASE + index
        raise ValueError(f"the action {_text(action)} has no action index: the payment for "
                         f"market card {index} is {','.join(map(str, payment))}")
    raise ValueError(f"the action {_text(action)} has no action index")


def index_action(state: AusterityState, index: int) -> Action:
    """The action of the player to move at ``index`` (which need not be legal now); a purchase
    of a market position without a card has no action and raises :class:`ValueError`."""
    if type(index) is not int or not 0 <= index < NUM_ACTIONS:
        raise ValueError(f"action index {index!r} is outside 0..{NUM_ACTIONS - 1}")
    if index < PURCHASE_BASE:
        return (TAKE, 0, TAKE_VALUES[index])
    if index == WILD_INDEX:
        return WILD_ACTION
    position = index - PURCHASE_BASE
    table = state.game.table
    if position >= len(table.market):
        raise ValueError(f"action index {index} is a purchase of market card {position}, "
                         f"and the market holds {len(table.market)} cards")
    return (PURCHASE, position, table.payment(state.game.current, table.market[position]))


def legal_mask(state: AusterityState) -> bytes:
    """``num_actions`` bytes, 1 at the index of every legal action and 0 elsewhere."""
    mask = bytearray(NUM_ACTIONS)
    game = state.game
    if game.finished:
        return bytes(mask)
    table = game.table
    piles = table.piles
    for index, values in enumerate(TAKE_VALUES):
        if all(piles[colour] > 0 for colour in range(4) if values[colour]):
            mask[index] = 1
    player = game.current
    for position, card in enumerate(table.market):
        if table.can_afford(player, card):
            mask[PURCHASE_BASE + position] = 1
    mask[WILD_INDEX] = 1
    return bytes(mask)
