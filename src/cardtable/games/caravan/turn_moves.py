"""The legality of one turn, worked out once for the seat to move.

In a match the seat to move lists its legal moves (a bot picks among them) and the game then
validates the move it is given. Both ask about the same position, so what answers them is
kept for the turn in a :class:`TurnMoves`: each observation of the seat to move starts a new
one, which the game keeps until the next move. The first question fills it: with the compiled
core, the core's state of the mover's table (``State.of_table``: the public table and the
mover's hand), which lists, counts, picks and checks moves in C; without the core, or while
the other seat's opening cards are hidden, the legal moves as ``legality.legal_parts`` gives
them. The game then accepts a move found legal there without asking the Python rules again
(the tests check that the core refuses exactly what ``legality.move_error`` refuses, with the
same message); any other move goes to ``move_error``, the reference, which refuses it with
its message.

What it holds shows what the mover's hand allows, so no other seat's observation gets it.
Code that edits a game's fields directly (tests setting up a position) takes the mover's
observation after the edit, as the match loop does.
"""

from __future__ import annotations

from typing import Any

from cardtable.games.caravan.legality import LegalParts


class TurnMoves:
    """What one turn's legality questions were answered from, once asked; None until then.

    ``table``: the compiled core's state of the mover's table; ``parts``: the legal moves
    from the Python rules (without the core, or when the table holds hidden cards). Both
    are shared: nobody may change them."""

    # Class-level defaults and no __init__: one is made for every move of a match, and
    # making it this way costs least.
    table: Any = None
    parts: LegalParts | None = None

    def allows(self, code: int) -> bool:
        """Whether ``code`` is known to be legal this turn (False: not known, ask the rules)."""
        table = self.table
        if table is not None:
            legal: bool = table.is_legal(code)
            return legal
        parts = self.parts
        # Without face plays (the Start round) every legal move is in the two lists.
        return parts is not None and not parts[1] and (code in parts[0] or code in parts[2])
