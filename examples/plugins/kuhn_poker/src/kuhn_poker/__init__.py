"""Kuhn poker for cardtable: a game that plugs in from outside.

Installing this package registers the game under cardtable's entry-point group
``cardtable.games`` as ``kuhn_poker``; then ``cardtable.load_game("kuhn_poker")`` loads it and
every shell of cardtable (tournaments, the web server, RL environments, external bots, replays)
offers it, through its description (:mod:`kuhn_poker.description`) alone.
"""

__version__ = "0.1.0"
