"""Running the real ``obsession`` entry point as a subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(sys.executable).parent / ("obsession.exe" if os.name == "nt" else "obsession")


def run(args: list[str], stdin: str = "", timeout: float = 60) -> subprocess.CompletedProcess[str]:
    command = [str(SCRIPT)] if SCRIPT.exists() else [
        sys.executable, "-c", "import sys; from cardtable.cli.obsession import main; "
        "sys.exit(main())"]
    return subprocess.run([*command, *args], input=stdin, capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, "PYTHONIOENCODING": "utf-8"},
                          check=False)
