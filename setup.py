"""Build the optional compiled cores next to their games.

Every ``src/cardtable/games/<game>/_core.c`` becomes the extension module
``cardtable.games.<game>._core``. The extensions are optional: where no C compiler or no
Python headers are available the install still succeeds and the games run on their pure
Python engines (see docs/engine.md, "Compiled cores").
"""

from pathlib import Path

from setuptools import Extension, setup

CORES = sorted(Path("src/cardtable/games").glob("*/_core.c"))

setup(
    ext_modules=[
        Extension(
            f"cardtable.games.{source.parent.name}._core",
            [source.as_posix()],
            include_dirs=["src/cardtable/engine"],  # xoshiro.h, shared by the cores
            # xoshiro.h and the game's own headers (_worlds.h: sampled worlds)
            depends=["src/cardtable/engine/xoshiro.h",
                     *(path.as_posix() for path in sorted(source.parent.glob("_*.h")))],
            extra_compile_args=["-O2"],
            optional=True,
        )
        for source in CORES
    ]
)
