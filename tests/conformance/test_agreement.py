"""Agreement, step by step, in every scenario run: what the engine shows after each action must be what the
reference shows (conformance/agreement.py); the written expectations are judged first."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from baobei_conform.engines.api import InProcess
from baobei_conform.engines.reference import ReferenceEngine
from baobei_conform.harness.run import Selection, load_suite, run_suite
from baobei_conform.results.conform import RunRecord, run_conformance
from baobei_scenarios import SUITE_ROOT

ENGINE = Path(__file__).resolve().parents[2] / "examples" / "wrong_engine" / "engine.py"
sys.path.insert(0, str(ENGINE.parent))
from engine import BUGS  # noqa: E402


@pytest.fixture(scope="module")
def scenarios():
    return load_suite([SUITE_ROOT], Selection())[0]


def verdicts(scenarios, factory, agree: bool) -> dict[str, tuple]:
    outcomes, complete = run_suite(scenarios, factory, agree=agree)
    assert complete
    return {o.scenario: (o.status, o.message, o.line, o.check) for o in outcomes}


class ExtraEvent:
    """The reference, but every accepted action also emits an event the reference does not: a representation
    difference no written expectation of the suite states."""

    name, info = "extra-event", {"name": "extra-event"}

    def __init__(self) -> None:
        self.inner = ReferenceEngine()
        self.capabilities = self.inner.capabilities

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def apply(self, action):
        events, code = self.inner.apply(action)
        return (None if events is None else [*events, {"kind": "noise", "clause": "1.1"}]), code


def test_the_reference_agrees_with_itself_in_process(scenarios):
    document = run_conformance(RunRecord(scenarios, {"command": "test"}), ReferenceEngine)
    assert document["summary"]["passed"] == len(scenarios) and document["run"]["agreement"] is True


def test_a_representation_difference_fails_as_agreement_with_path_values_and_clauses(scenarios):
    chosen = scenarios[:60]
    rules = verdicts(chosen, lambda: InProcess(ExtraEvent()), agree=False)
    agreed = verdicts(chosen, lambda: InProcess(ExtraEvent()), agree=True)
    failed = {sid: v for sid, v in agreed.items() if v[0] == "fail" and v[3] == "agreement"}
    assert len(failed) > len(chosen) // 2
    assert all(v[1].startswith("agree events") for v in failed.values())
    assert all(rules[sid][0] == "pass" for sid in failed)  # no written expectation caught it
    outcome = next(o for o in run_suite(chosen[:10], lambda: InProcess(ExtraEvent()))[0] if o.check == "agreement")
    assert outcome.expected.startswith("events[") and outcome.actual.endswith('{"clause": "1.1", "kind": "noise"}')
    assert "the reference's events cite" in outcome.message and outcome.line
    # The failure keeps what the engine showed at that step, for the report to draw beside the reference's.
    assert outcome.events and outcome.events[-1] == {"kind": "noise", "clause": "1.1"}
    assert isinstance(outcome.state, dict) and "pending" in outcome.state


@pytest.mark.parametrize("bug", sorted(BUGS))
def test_each_misreading_still_fails_and_rules_only_keeps_the_written_verdicts(bug, scenarios):
    """With agreement on, every scenario a written expectation fails fails the same way (rules are judged first);
    agreement only turns passes into agreement failures. Each misreading fails at least one scenario."""
    def factory():
        return ReferenceEngine(variants=[BUGS[bug][0]])
    rules = verdicts(scenarios, factory, agree=False)
    agreed = verdicts(scenarios, factory, agree=True)
    assert any(v[0] == "fail" for v in agreed.values())
    for sid, verdict in rules.items():
        if verdict[0] != "pass":
            assert agreed[sid] == verdict, sid
        else:
            assert agreed[sid][0] == "pass" or agreed[sid][3] == "agreement", (sid, agreed[sid])
    assert all(v[3] in ("", "rule") for v in rules.values())
