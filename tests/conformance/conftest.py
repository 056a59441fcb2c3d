"""Fixtures shared by the tests of the judge's commands."""

from __future__ import annotations

from pathlib import Path

import pytest

from baobei_conform.cli.rulings import BUDGET, impact
from baobei_conform.harness.run import Selection, load_suite

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def suite():
    """The whole suite, loaded once per test process (every file loads)."""
    scenarios, broken = load_suite([ROOT / "scenarios"], Selection())
    assert not broken
    return scenarios


@pytest.fixture(scope="session")
def review(suite) -> dict:
    """The rulings document of the whole suite, without random play (the installed witnesses, re-verified): each
    switch reading's changed scenarios and witness game, the consistency check."""
    return impact(suite, {**BUDGET, "games": 0})
