"""The Makefile: `make run` installs what running needs (the package and its extra `server`, no
test extras), `make test` adds the test extras
(read from what make would run, `make -n`, in a fresh copy with no environment yet)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _plan(target: str, tmp_path: Path) -> list[str]:
    for name in ("Makefile", "pyproject.toml"):
        shutil.copy(ROOT / name, tmp_path / name)
    proc = subprocess.run(["make", "-n", "-C", str(tmp_path), target], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return [line for line in proc.stdout.splitlines() if "pip install" in line]


def _extras(lines: list[str]) -> set[str]:
    found = set()
    for line in lines:
        for group in re.findall(r"-e '?\.\[([^\]]*)\]", line):
            found.update(x.strip() for x in group.split(","))
    return found


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
@pytest.mark.parametrize("target", ["run", "play"])
def test_run_installs_no_test_extras(target, tmp_path):
    lines = _plan(target, tmp_path)
    assert any(re.search(r"install --quiet -e '\.\[server\]'$", x) for x in lines), lines
    assert _extras(lines) == {"server"}, lines


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_test_installs_the_dev_extras(tmp_path):
    assert "dev" in _extras(_plan("test", tmp_path))


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_test_full_runs_every_test_at_full_size_and_ci_runs_both(tmp_path):
    """`make test` samples (no CARDTABLE_FULL), `make test-full` sets CARDTABLE_FULL=1 with the
    same extras; .ci/run runs both."""
    for name in ("Makefile", "pyproject.toml"):
        shutil.copy(ROOT / name, tmp_path / name)

    def commands(target: str) -> list[str]:
        proc = subprocess.run(["make", "-n", "-C", str(tmp_path), target], capture_output=True,
                              text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        return [x for x in proc.stdout.splitlines() if "-m pytest" in x]

    quick, full = commands("test"), commands("test-full")
    assert len(quick) == 1 and "CARDTABLE_FULL" not in quick[0], quick
    assert len(full) == 1 and "CARDTABLE_FULL=1 " in full[0], full
    assert "dev" in _extras(_plan("test-full", tmp_path))
    ci = [x.strip() for x in (ROOT / ".ci" / "run").read_text().splitlines()]
    assert ci.index("make test") < ci.index("make test-full"), ci


def test_the_full_marker_is_deselected_unless_full():
    """tests/conftest.py drops the tests marked `full` from `make test` (reported as
    deselected), and keeps them all in `make test-full`."""
    import sizes

    class Item:
        def __init__(self, full):
            self.full = full

        def get_closest_marker(self, name):
            return object() if name == "full" and self.full else None

    class Config:
        class hook:
            deselected: list = []

            @staticmethod
            def pytest_deselected(items):
                Config.hook.deselected.extend(items)

    items = [Item(False), Item(True), Item(False)]
    sizes.deselect_full(Config, items, full=False)
    assert [i.full for i in items] == [False, False] and len(Config.hook.deselected) == 1
    items = [Item(False), Item(True)]
    sizes.deselect_full(Config, items, full=True)
    assert len(items) == 2 and len(Config.hook.deselected) == 1
    assert sizes.sample(500, 150) == (500 if sizes.FULL else 150)


def test_each_database_test_runs_on_one_database_in_make_test_and_on_both_in_full():
    """tests/server/conftest.py marks `full` one database cell of each test that takes the
    `database` fixture, the same one on every run; the tests of a file fall on both databases,
    and a test without the fixture is left alone."""
    import sizes

    class Spec:
        def __init__(self, db):
            self.params = {"database": db} if db else {}

    class Item:
        def __init__(self, name, db):
            self.path = Path("tests/server/test_x.py")
            self.originalname = name
            self.name = f"{name}[{db}]"
            self.callspec = Spec(db)
            self.marks: list = []

        def add_marker(self, mark):
            self.marks.append(mark.name)

    dbs = ["sqlite", "postgresql"]

    def run() -> list:
        items = [Item(f"test_{i}", db) for i in range(12) for db in dbs] + [Item("test_n", None)]
        sizes.database_sample(items, dbs)
        return items

    items = run()
    kept = [it.callspec.params["database"] for it in items[:-1] if not it.marks]
    assert len(kept) == 12 and set(kept) == set(dbs)         # one cell each, both databases
    for i in range(0, 24, 2):                                # the other cell is marked full
        assert sorted([items[i].marks, items[i + 1].marks]) == [[], ["full"]]
    assert items[-1].marks == []
    assert [it.marks for it in run()] == [it.marks for it in items]


def test_the_slowest_folders_run_first():
    """tests/conftest.py puts the tests of SLOW_FIRST's folders first, in that order, the
    browser tests last, and keeps the order within a folder and among the others."""
    import sizes

    class Item:
        def __init__(self, path):
            self.path = ROOT / "tests" / path

    names = ["abluxxen/test_a.py", "web/test_b.py", "server/test_c.py", "i18n/test_d.py",
             "test_make.py", "web/test_a.py"]
    items = [Item(n) for n in names]
    sizes.slow_first(items, ROOT / "tests")
    assert [str(it.path.relative_to(ROOT / "tests")) for it in items] == [
        "server/test_c.py", "abluxxen/test_a.py", "i18n/test_d.py", "test_make.py",
        "web/test_b.py", "web/test_a.py"]


def test_what_make_test_leaves_to_the_full_run_exists_and_says_what_covers_it():
    """Each entry of tests/sizes.py's LEFT_TO_FULL names a test function that exists (a renamed
    test must not silently come back into `make test`, nor a stale entry stay), with its
    parameters as pytest writes them, and the test that covers the same feature in `make test`."""
    import re

    import sizes

    tests = ROOT / "tests"
    for key, covered_by in sizes.LEFT_TO_FULL.items():
        path, _, name = key.partition("::")
        func, _, params = name.partition("[")
        source = (tests / path).read_text()
        assert re.search(rf"^def {re.escape(func)}\(", source, re.M), key
        assert not params or params.endswith("]"), key
        assert covered_by.strip(), key

    class Item:
        def __init__(self, rel: str, name: str):
            self.path = tests / rel
            self.name = name
            self.originalname = name.partition("[")[0]
            self.marks: list = []

        def add_marker(self, mark):
            self.marks.append(mark.name)

    left = Item("web/test_journeys.py", "test_friends_at_a_private_table[duel]")
    kept = Item("web/test_journeys.py", "test_friends_at_a_private_table[kombio]")
    whole = Item("sim/test_tournament.py", "test_ray_gives_the_results_of_jobs_1")
    sizes.leave_to_full([left, kept, whole], tests)
    assert (left.marks, kept.marks, whole.marks) == (["full"], [], ["full"])
