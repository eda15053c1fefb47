"""Fixtures of the research API tests: `config` runs a test for every configuration."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo", reason="the rl extra is not installed (make test installs it)")

from rl_configs import CONFIGS, config_id  # noqa: E402


def pytest_generate_tests(metafunc):
    if "config" in metafunc.fixturenames:
        metafunc.parametrize("config", CONFIGS, ids=[config_id(c) for c in CONFIGS])
