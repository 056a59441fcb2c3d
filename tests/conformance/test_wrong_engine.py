"""The suite catches every misreading of the deliberately wrong engine (examples/wrong_engine),
names a clause it breaks, and fails only scenarios the misreading can touch."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from baobei_conform.runner.engine import ReferenceEngine
from baobei_conform.runner.run import run_steps
from baobei_conform.scenario import load_scenario, scenario_files

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "examples" / "wrong_engine" / "engine.py"
sys.path.insert(0, str(ENGINE.parent))
from engine import BUGS  # noqa: E402


def _sp(card: str) -> str:
    return card.rsplit("-", 1)[0]


VALUE = {"shoebill": 13, "toco_toucan": 13}


def _plucks(events, success):
    return [e for e in events if e["kind"] == "pluck" and e["success"] is success]


# bug -> does a scenario's run on the reference go through the situation the misreading changes?
TOUCHES = {
    # the two seen only through views and legal_actions: any scenario checking those may see them
    "view_shows_own_cards": lambda ev: True,
    "take_into_any_slot_listed": lambda ev: True,
    "pelicans_dont_match": lambda ev: any(_sp(c) != _sp(e["reference"]) for e in _plucks(ev, True) for c in e["cards"]),
    "match_by_value": lambda ev: any(_sp(e["reference"]) in VALUE and any(_sp(c) in VALUE for c in e["cards"])
                                     for e in _plucks(ev, False)),
    "active_plucks_own_discard": lambda ev: any(e["kind"] == "discarded" and e["clause"] != "3.5.4" for e in ev),
    "power_on_take": lambda ev: any(e["kind"] == "took_discard" for e in ev),
    "power_on_replaced_card": lambda ev: any(e["kind"] == "kept" for e in ev),
    "bao_tie_succeeds": lambda ev: any(e["kind"] == "bao_scored" and e["clause"] == "5.2.4" for e in ev),
    "bao_no_minimum": lambda ev: any(e["kind"] == "bao_scored" and e["clause"] == "5.2.4" for e in ev),
    "caller_plays_again": lambda ev: any(e["kind"] == "bao" for e in ev),
    "shield_immediate": lambda ev: any(e["kind"] == "bao" for e in ev),
    "no_penalty_in_window": lambda ev: any(not e["own_draw"] for e in _plucks(ev, False)),
    "no_final_phase": lambda ev: any(e["kind"] == "final_phase" for e in ev),
    "ignore_move_limit": lambda ev: sum(e["kind"] in ("swapped", "replaced", "toco_target") for e in ev) > 0,
    "first_discard_not_neutral": lambda ev: any(e["kind"] == "neutral_discard" for e in ev),
    "no_gift": lambda ev: any(e["kind"] == "gift" for e in ev),
    "next_round_lowest_starts": lambda ev: any(e["kind"] == "next_round" for e in ev),
    "brown_pelican_private": lambda ev: any(e["kind"] == "shown" and e["clause"] == "6.4.1" for e in ev),
    "own_discard_window_skipped": lambda ev: any(e["kind"] == "kept" for e in ev),
}


@pytest.fixture(scope="module")
def reference_events() -> dict[str, list[dict]]:
    """Every event of every scenario's run on the reference, and the rejected steps' ids."""
    out = {}
    for path in scenario_files([ROOT / "scenarios"]):
        scenario = load_scenario(path)
        events: list[dict] = []
        run_steps(scenario.steps, ReferenceEngine(), trace=lambda step, ev, acc=events: acc.extend(
            ev if step["op"] in ("apply", "shuffle") else []))
        out[scenario.id] = events
    return out


def test_every_bug_has_a_touch_rule_and_clauses():
    assert set(TOUCHES) == set(BUGS) and len(BUGS) >= 10
    assert all(clauses for _, clauses in BUGS.values())


@pytest.mark.parametrize("bug", sorted(BUGS))
def test_the_suite_catches_the_misreading(bug, tmp_path, reference_events):
    results = tmp_path / "results.json"
    run = subprocess.run(
        [sys.executable, "-m", "baobei_conform.cli", "-q", "--no-report", "-j", "2", "--timeout", "20",
         "--json", str(results), "--", sys.executable, str(ENGINE), "--bug", bug],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert run.returncode == 1, run.stdout + run.stderr
    document = json.loads(results.read_text())
    failed = [r for r in document["results"] if r["status"] in ("fail", "error")]
    breaks = set(BUGS[bug][1])
    assert any(breaks & set(r["clauses"]) for r in failed), f"no failing scenario cites {sorted(breaks)}"
    untouched = [r["id"] for r in failed if not TOUCHES[bug](reference_events[r["id"]])]
    assert untouched == [], f"{bug} made scenarios fail that it cannot touch"


def test_the_wrong_engine_without_bugs_passes_everything(tmp_path):
    results = tmp_path / "results.json"
    run = subprocess.run(
        [sys.executable, "-m", "baobei_conform.cli", "-q", "--no-report", "-j", "2", "--json", str(results),
         "--", sys.executable, str(ENGINE)], cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert json.loads(results.read_text())["summary"]["failed"] == 0
