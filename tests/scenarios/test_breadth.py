"""Issue 10's breadth, counted from the scenario files: size, negatives, first-cited clauses, FAQ, rulings."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from baobei_conform.suite.scenario import load_scenario, scenario_files
from baobei_spec import default_spec

ROOT = Path(__file__).resolve().parents[2] / "scenarios"


@pytest.fixture(scope="module")
def suite():
    return [load_scenario(p) for p in scenario_files([ROOT])]


def negative(scenario) -> bool:
    """Something must not happen: a refused action, or an event that must be absent."""
    return any(s["op"] == "reject" or (s.get("check") or {}).get("present") is False for s in scenario.steps)


def test_at_least_400_scenarios_a_quarter_negative(suite):
    assert len(suite) >= 400, len(suite)
    negatives = sum(negative(s) for s in suite)
    assert negatives >= len(suite) / 4, f"{negatives} negative of {len(suite)}"


def test_each_normative_clause_is_first_cited_somewhere(suite):
    first = {s.clauses[0] for s in suite if s.clauses}
    normative = {c.id for c in default_spec().clauses.values() if c.kind == "normative"}
    assert not sorted(normative - first)


def test_a_faq_scenario_for_each_entry():
    files = sorted(p.name for p in (ROOT / "faq").glob("faq-*.yaml"))
    numbers = {int(re.match(r"faq-(\d\d)-", f).group(1)) for f in files}
    assert numbers >= set(range(1, 22)), sorted(set(range(1, 22)) - numbers)
    for path in (ROOT / "faq").glob("faq-*.yaml"):
        n = int(path.name[4:6])
        assert f"FAQ-{n:02d}" in load_scenario(path).faq, path.name


def test_each_ruling_cited_by_two_scenarios(suite):
    cited = Counter(r for s in suite for r in s.rulings)
    rulings = list(default_spec().rulings)
    assert [r for r in rulings if cited[r] < 2] == []
