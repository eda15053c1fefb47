"""The accessibility check of the browser tests: axe-core (through axe-playwright-python, a
dev dependency) on the page as it is; any violation of impact "serious" or "critical" fails."""

from __future__ import annotations

from axe_playwright_python.sync_playwright import Axe

_axe = Axe()


def violations(page) -> list[dict]:
    res = _axe.run(page)
    return [v for v in res.response["violations"] if v.get("impact") in ("serious", "critical")]


def assert_accessible(page, where: str) -> None:
    bad = violations(page)
    assert not bad, (where, [(v["id"], v["impact"], v["help"],
                              [n["target"] for n in v["nodes"][:4]],
                              v["nodes"][0].get("failureSummary", "")[:300]) for v in bad])
