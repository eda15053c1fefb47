"""docs/research.md's Python examples run as written (the batched API, issue 35), so the
documented API stays true."""

from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "research.md"


def test_research_examples_run():
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert len(blocks) >= 2, "docs/research.md shows no runnable example"
    for i, block in enumerate(blocks):
        exec(compile(block, f"docs/research.md (example {i + 1})", "exec"), {"__name__": "doc"})
