"""The largest budgets a search bot takes for one decision, in every game: ``iters`` and
``time`` beyond them would make a decision that, for anyone waiting, never returns.

A million iterations take some 40 seconds a decision on one core in Caravan and two-player
Obsession (``cardtable bench ismcts``: about 45 ms per 1000), more at larger tables; a minute
is longer than any table's clock. ``ismcts`` and ``omniscient`` (Caravan, Obsession) and
Austerity's ``mcts`` refuse more with a one-line message.
"""

MAX_ITERATIONS = 1_000_000
MAX_SECONDS = 60.0
