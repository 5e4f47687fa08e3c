"""cardtable's version, below every layer: the package (``cardtable.__version__``), the records'
headers and the command lines all say this one."""

__version__ = "0.1.0"
