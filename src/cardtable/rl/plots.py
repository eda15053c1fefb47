"""The training runs' outputs (rl/train.py, rl/imitate.py, rl/finetune.py): a learning curve
drawn with matplotlib without a display and saved as PNG, and its numbers as JSON."""

from __future__ import annotations

import json
from pathlib import Path


def figure(*args, **kwargs):
    """(pyplot, fig, axes): `plt.subplots(*args, **kwargs)` on the file-only backend."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(*args, **kwargs)
    return plt, fig, axes


def save(plt, fig, path: Path) -> None:
    """Lay out `fig`, write it to `path` as PNG (its folder made) and close it."""
    fig.tight_layout()
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, format="png")
    plt.close(fig)


def write_log(path: Path, numbers: dict) -> None:
    """The run's numbers as indented JSON at `path` (its folder made)."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(json.dumps(numbers, indent=1) + "\n")
