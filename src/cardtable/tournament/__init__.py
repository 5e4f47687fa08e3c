"""Tournaments between bots: round robins and gauntlets, played in pairs of swapped seats (or
rotations of every deal), in several processes or on a Ray cluster, with results in a JSON
Lines file that a rerun resumes, and ratings (Wilson intervals, Bradley–Terry Elo, openskill,
SPRT). ``cardtable tournament`` is its command line; docs/tournaments.md describes it.
"""
