"""Obsession: shed your hand, then your face-up row, then your face-down row.

The last player left with cards loses.

Modules: ``cards`` (compact card ids), ``rules`` (options), ``legality`` (the play matrix),
``state`` (the game state machine), ``fast`` (the optional compiled core of the play phase,
``_core.c``), ``selection`` (the selection grammar shared by every
interface), ``bots``, ``render`` (text of boards and events), ``record`` (records and replay)
and ``bench``.
"""
