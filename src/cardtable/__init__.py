"""cardtable: Caravan, Obsession and Austerity at one table."""

__version__ = "0.1.0"
