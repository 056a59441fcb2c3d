"""runner/walk.py: a scenario one action at a time, the table after each, judged as ``run_steps`` judges it."""

from __future__ import annotations

from pathlib import Path

import pytest

from baobei_conform.engines.reference import ReferenceEngine
from baobei_conform.runner.run import StepFailed, run_steps
from baobei_conform.runner.walk import groups, walk
from baobei_conform.suite.scenario import load_scenario, scenario_files

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def suite():
    return [load_scenario(p) for p in scenario_files([ROOT / "scenarios"])]


def test_every_step_sees_the_events_a_traced_run_sees(suite):
    """The same events, step by step, as one pipelined run of the whole scenario traced (shuffles included:
    the trace sees a shuffle as the apply step it resolves to); and a table after every action."""
    shuffles = 0
    for scenario in suite:
        traced = []
        run_steps(scenario.steps, ReferenceEngine(), trace=lambda step, events, traced=traced: traced.append(
            (step["line"], list(events) if step["op"] in ("apply",) else [])))
        walked = list(walk(scenario.steps, ReferenceEngine()))
        assert [(w.step["line"], w.events) for w in walked] == traced, scenario.id
        assert all(w.state is not None for w in walked if w.action and w.step["op"] != "new_game"), scenario.id
        shuffles += sum(w.step["op"] == "shuffle" and bool(w.events) for w in walked)
    assert shuffles >= 80  # the deals and recycles, with their events


def test_the_state_after_an_action_is_the_table_its_checks_read(suite):
    scenario = next(s for s in suite if s.id == "bao-call-after-taking-discard-and-window")
    walked = list(walk(scenario.steps, ReferenceEngine()))
    take = next(w for w in walked if w.step["op"] == "apply")
    assert take.state["top"] == "heron-1" and take.state["pending"]["kind"] == "window"
    checks = walked[walked.index(take) + 1:walked.index(take) + 4]
    assert [w.step["op"] for w in checks] == ["expect", "expect", "reject"]
    assert all(w.state is take.state for w in checks)
    assert [len(g) for g in groups(scenario.steps)] == [1, 4, 2, 2, 3]


def test_a_failing_step_ends_the_walk_after_the_steps_that_passed(suite):
    scenario = next(s for s in suite if s.id == "bao-call-after-taking-discard-and-window")
    steps = [dict(s) for s in scenario.steps]
    steps[2] = {**steps[2], "check": {**steps[2]["check"], "species": "eagle"}}  # expect top is eagle: wrong
    seen = []
    with pytest.raises(StepFailed) as failed:
        for w in walk(steps, ReferenceEngine()):
            seen.append(w.step["op"])
    assert seen == ["setup", "apply"] and failed.value.line == steps[2]["line"]


def test_views_are_read_for_the_players_asked_and_those_a_check_names(suite):
    scenario = next(s for s in suite if s.id == "pluck-offensive-gift-given-unseen")
    walked = list(walk(scenario.steps, ReferenceEngine(), viewers=[2]))
    assert all(2 in w.views for w in walked if w.state is not None)
    gift = next(w for w in walked if w.step["op"] == "apply" and w.step["action"]["type"] == "gift")
    assert sorted(gift.views) == [0, 1, 2]  # the checks after the gift ask what p0, p1 and p2 see
    assert gift.views[1]["zones"]["2"][1] == {"card": None, "species": None}  # the given card: unseen by p1
