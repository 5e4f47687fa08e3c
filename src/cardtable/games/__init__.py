"""The built-in games, one package each. Each registers its description
(``<game>/description.py``) under the entry-point group ``cardtable.games``.

Nothing is imported here: the Austerity programs start through this package.
"""
