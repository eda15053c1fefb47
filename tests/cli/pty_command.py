"""The installed `cardtable` console script (beside this Python), for tests that start it
themselves; a module of its own, so that it imports the same in any collection order."""

from __future__ import annotations

import sys
from pathlib import Path

VENV_SCRIPT = Path(sys.executable).parent / "cardtable"


def command() -> list[str]:
    if VENV_SCRIPT.exists():
        return [str(VENV_SCRIPT)]
    return [sys.executable, "-c",
            "import sys; from cardtable.cli.main import main; sys.exit(main())"]
