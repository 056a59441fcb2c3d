"""The suite catches every misreading of the deliberately wrong engine (examples/wrong_engine): each rule
misreading by the scenarios' written expectations, naming a clause it breaks and failing only scenarios it can
touch; each representation misreading by what the engine shows at a scenario's steps, which agreement with the
reference (issue 22 item 1) holds it to."""

from __future__ import annotations

import dataclasses
import functools
import json
import subprocess
import sys
from pathlib import Path

import pytest

from baobei_conform.engines.reference import ReferenceEngine
from baobei_conform.runner.run import run_scenario, run_steps
from baobei_conform.suite.scenario import load_scenario, scenario_files

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "examples" / "wrong_engine" / "engine.py"
sys.path.insert(0, str(ENGINE.parent))
from engine import AGAIN, BUGS, MISREADINGS, SHOWN, WrongEngine  # noqa: E402


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
    # the two seen only through refusals (a reject step leaves no event): any scenario may reject such an action
    "bao_at_another_moment_wrong_decision": lambda ev: True,
    "zero_card_claimant_not_eligible": lambda ev: True,
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
        [sys.executable, "-m", "baobei_conform.cli.main", "-q", "--no-report", "-j", "2", "--timeout", "20",
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
        [sys.executable, "-m", "baobei_conform.cli.main", "-q", "--no-report", "-j", "2", "--json", str(results),
         "--", sys.executable, str(ENGINE)], cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert json.loads(results.read_text())["summary"]["failed"] == 0


# representation misreading -> (a scenario whose steps show it, the answers it changes)
SHOWS_IN = {
    "window_players_seat_order": ("pluck-simultaneous-nearest-clockwise-wins", {"state", "views"}),
    "seen_by_every_seat": ("scoring-tie-for-win-decisive-round-tied-only", {"state"}),
    "zones_of_every_seat": ("scoring-tie-for-win-decisive-round-tied-only", {"state", "views"}),
    "toco_card_moved_when_placed": ("powers-toco-rival-chooses-among-empty-slots", {"state"}),
    "no_window_closed_without_window": ("powers-activation-direct-discard-without-window", {"events"}),
    "window_closed_after_pluck": ("pluck-window-any-non-active-player-may-claim", {"events"}),
    "legal_without_permutations": ("turn-order-first-player-then-clockwise", {"legal_actions"}),
    "view_hides_shoebill_cards": ("pluck-shoebill-matches-shoebill", {"views"}),
    "gift_slots_swapped": ("pluck-double-both-family-matches-succeed", {"events"}),
    "rival_removed_cites_own_pluck": ("turn-taken-card-is-an-ordinary-face-down-card", {"events"}),
}
CHANCE = ("deal", "recycle", "first_player")
PARTS = ("events", "state", "views", "legal_actions")


def _shown(engine) -> list[dict]:
    """``engine`` records what it shows after every accepted action: the four answers agreement compares."""
    shown: list[dict] = []
    apply = engine.apply

    def recording(action):
        events, code = apply(action)
        if code is None:
            state = engine.state()
            legal = None if state["pending"]["kind"] in CHANCE else sorted(
                json.dumps(a, sort_keys=True) for a in engine.legal_actions())  # compared as a set
            shown.append({"events": events, "state": state, "views": {p: engine.view(p) for p in state["players"]},
                          "legal_actions": legal})
        return events, code
    engine.apply = recording
    return shown


@functools.cache
def _scenarios() -> dict:
    return {s.id: s for s in map(load_scenario, scenario_files([ROOT / "scenarios"]))}


def test_every_representation_misreading_has_a_scenario_and_cites_the_contract():
    assert set(SHOWS_IN) == set(SHOWN) and len(SHOWN) >= 8
    assert set(MISREADINGS) == set(BUGS) | set(SHOWN) | set(AGAIN) and not set(BUGS) & set(SHOWN)
    for name, (misreading, clauses) in SHOWN.items():
        assert "spec/contract.yaml" in (type(misreading).__doc__ or ""), f"{name} cites no point of the contract"
        assert clauses and SHOWS_IN[name][0] in _scenarios()


@pytest.mark.parametrize("bug", sorted(SHOWN))
def test_a_representation_misreading_changes_only_what_it_says_and_reads_itself_back(bug):
    """At its scenario's steps the wrong engine shows what the reference shows but for the answers the misreading
    changes, which differ at some step; and every state it shows sets it up again, unchanged. (The scenario's
    written expectations may pass: the runner's agreement with the reference is what holds an engine to these.)"""
    scenario, parts = SHOWS_IN[bug]
    reference, wrong = ReferenceEngine(), WrongEngine([], [SHOWN[bug][0]])
    want, got = _shown(reference), _shown(wrong)
    assert run_scenario(_scenarios()[scenario], reference).status == "pass"
    run_scenario(_scenarios()[scenario], wrong)
    assert len(want) == len(got)
    differing = {p for w, g in zip(want, got, strict=True) for p in PARTS if w[p] != g[p]}
    assert differing == parts, f"{bug} changes {sorted(differing)}, not {sorted(parts)}"
    for step in got:
        again = WrongEngine([], [SHOWN[bug][0]])
        again.setup(step["state"], _scenarios()[scenario].steps[0].get("params"))
        assert again.state() == step["state"]


REPLAYED_IN = {"setup_again_keeps_the_played_game": "turn-same-actions-from-the-same-start-give-the-same-game"}


@pytest.mark.parametrize("bug", sorted(AGAIN))
def test_a_determinism_misreading_plays_right_once_and_fails_at_the_replay(bug):
    """Every first play is the reference's (agreement holds up to the replay); the scenario fails at its first
    ``replay``, and without its replays it passes: only the same actions played again show the misreading."""
    scenario = _scenarios()[REPLAYED_IN[bug]]
    replays = [s["line"] for s in scenario.steps if s["op"] == "replay"]
    outcome = run_scenario(scenario, WrongEngine([], [AGAIN[bug][0]]), agree=True)
    assert (outcome.status, outcome.check, outcome.line) == ("fail", "rule", scenario.file_line(replays[0]))
    assert outcome.message.startswith("the replay: action 1 was refused")
    once = dataclasses.replace(scenario, steps=[s for s in scenario.steps if s["op"] != "replay"])
    assert run_scenario(once, WrongEngine([], [AGAIN[bug][0]]), agree=True).status == "pass"
    assert set(REPLAYED_IN) == set(AGAIN)


# A rule misreading's run is test_the_suite_catches_the_misreading's (the same command, agreement on by default):
# that test's assertions imply this one's, so only the representation misreadings run here. The assertion (the
# scenario whose steps show the misreading fails) implies "a scenario fails", so the run needs that scenario alone.
@pytest.mark.parametrize("bug", sorted(SHOWN))
def test_with_agreement_the_suite_alone_fails_a_scenario_for_every_misreading(bug, tmp_path):
    results = tmp_path / "results.json"
    run = subprocess.run(
        [sys.executable, "-m", "baobei_conform.cli.main", "-q", "--no-report", "--timeout", "20", "-k",
         SHOWS_IN[bug][0], "--json", str(results), "--", sys.executable, str(ENGINE), "--bug", bug],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert run.returncode == 1, run.stdout[-3000:] + run.stderr[-3000:]
    failed = [r for r in json.loads(results.read_text())["results"] if r["status"] in ("fail", "error")]
    assert [r["id"] for r in failed] == [SHOWS_IN[bug][0]], f"{bug}: its scenario does not fail"
