"""Austerity: the hub ``austerity``, the player programs ``shenzi``, ``banzai``, ``ed`` and the
in-process simulator.

This package must import nothing here: the player programs start by importing only the few
small modules they need, and their start-up time is part of every game's wall time.
"""
