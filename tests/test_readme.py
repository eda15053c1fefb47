"""The README's Python example runs as written (so the documented API stays true)."""

from __future__ import annotations

import re
from pathlib import Path


def test_readme_python_examples_run(capsys):
    text = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks, "the README has no Python example"
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {"__name__": "readme"})
    out = capsys.readouterr().out
    assert "refused:" in out
