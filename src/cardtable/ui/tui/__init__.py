"""The full-screen terminal interface (Textual): Caravan, Obsession and the launcher.

Textual is an optional dependency (the ``tui`` extra); nothing outside this package imports
it, so the plain line mode and the Austerity players start without it.
"""
