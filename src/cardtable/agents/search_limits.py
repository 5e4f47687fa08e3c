"""The largest budgets a search bot takes for one decision, in every game: ``iters`` and
``time`` beyond them would make a decision that, for anyone waiting, never returns.

A million iterations take from about half a minute (Caravan, two-player Obsession) to a few
minutes (Obsession at ten, Austerity) a decision on one core, and a minute is longer than any
table's clock; ``ismcts``/``omniscient`` (Caravan, Obsession) and Austerity's ``mcts`` refuse
more with a one-line message.
"""

MAX_ITERATIONS = 1_000_000
MAX_SECONDS = 60.0
