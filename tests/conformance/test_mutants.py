"""The mutation tool: mutants switch on and off cleanly, the suite kills a known one, the table names clauses."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from baobei_conform.harness import Selection, load_suite
from baobei_conform.mutants import MUTANTS, applied
from baobei_conform.mutants.coverage import ALONE, by_clause, markdown, unbroken
from baobei_conform.mutants.patching import Mutant, step
from baobei_conform.mutants.run import MutantResult, run_mutants, summary
from baobei_ref import cards, game
from baobei_ref.agenda import Window
from baobei_spec import default_spec

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import mutate  # noqa: E402


@pytest.fixture(scope="module")
def suite():
    scenarios, broken = load_suite([ROOT / "scenarios"], Selection())
    assert not broken
    return scenarios


def test_every_mutant_names_real_clauses_and_says_what_it_misreads():
    spec = default_spec()
    assert len(MUTANTS) >= 150
    for m in MUTANTS.values():
        assert m.clauses and all(c in spec.clauses for c in m.clauses), m.name
        assert m.doc, m.name
    assert {m.name for m in MUTANTS.values() if m.origin == "wrong_engine"} >= {"pelicans_dont_match", "no_gift"}


def test_every_normative_clause_is_broken_by_a_mutant_or_says_why_not():
    spec = default_spec()
    results = [MutantResult(m) for m in MUTANTS.values()]
    assert unbroken(spec, results) == []
    assert all(spec.clauses[c].kind == "normative" and c not in by_clause(results) for c in ALONE)


def test_applied_restores_the_reference():
    answers, steps, matches = dict(game.ANSWERS), dict(game.STEPS), cards.Catalog.matches
    for name in ("pelicans_dont_match", "no_own_draw_pluck", "golden_toucan_plus_five",
                 "first_recycle_starts_final_phase"):
        with applied(MUTANTS[name]):
            pass
        assert game.ANSWERS == answers and game.STEPS == steps and cards.Catalog.matches is matches, name


def test_known_mutants_are_killed_and_tabulated(suite):
    chosen = [MUTANTS[n] for n in ("pelicans_dont_match", "bao_failure_plain_total", "shield_applies_in_final_phase")]
    results = run_mutants(chosen, suite)
    assert all(r.status == "killed" for r in results)
    by_name = {r.mutant.name: r for r in results}
    assert "pluck-own-draw-pelican-family" in by_name["pelicans_dont_match"].killed_by
    assert "scoring-bao-fail-9-vs-7-scores-18" in by_name["bao_failure_plain_total"].killed_by
    assert "deck-final-phase-ends-the-shield" in by_name["shield_applies_in_final_phase"].killed_by
    figures = summary(results)
    assert (figures["mutants"], figures["mutants_killed"], figures["survivors"]) == (3, 3, [])
    table = markdown(default_spec(), results, figures)
    assert "| `pelicans_dont_match` |" in table and "3.1.7 6.3.2" in table and "| 72, 222" in table


def test_a_survivor_is_listed(suite):
    scenarios = [s for s in suite if s.id == "turn-keep-replaces-exactly-the-chosen-slot"]
    assert scenarios
    figures = summary(run_mutants([MUTANTS["bao_no_minimum"]], scenarios))
    assert figures["survivors"] == ["bao_no_minimum"] and figures["mutants_killed"] == 0


WINDOWS = ("turn-direct-discard-power-waits-for-the-window", "turn-take-discard-window-rival-double-pluck")


def window_scenarios(suite):
    """Scenarios that open a reaction window (their ids checked, so the tests below cannot run on nothing)."""
    chosen = [s for s in suite if s.id in WINDOWS]
    assert len(chosen) == len(WINDOWS)
    return chosen


def test_a_mutant_that_only_makes_the_reference_raise_is_no_kill(suite, capsys, monkeypatch):
    """A patch that breaks the reference instead of misreading a rule (the wrongly keyed step once registered by
    penalty_drawn_before_reference_discarded) makes scenarios error, not fail: no check caught anything."""
    def broken():
        step("window", lambda old, g, reference: {}[reference])
    mutant = Mutant("raises_in_windows", "Raises a KeyError in every window.", ("3.2.3",), broken)
    [result] = run_mutants([mutant], window_scenarios(suite))
    assert result.status == "survived" and result.killed_by == []
    assert [sid for sid, _ in result.crashed_in] == sorted(WINDOWS, key=[s.id for s in suite].index)
    assert all("the engine raised KeyError" in error for _, error in result.crashed_in)
    assert summary([result])["survivors"] == ["raises_in_windows"]
    assert result.to_json()["crashed_in"][0]["error"].startswith("the engine raised KeyError")
    monkeypatch.setitem(MUTANTS, mutant.name, mutant)
    monkeypatch.setattr(mutate, "load_suite", lambda paths, selection: (window_scenarios(suite), []))
    assert mutate.main(["-k", "raises_in_windows"]) == 1
    assert "it only made the reference raise, in 2 scenarios" in capsys.readouterr().out


def test_a_mutant_that_loops_is_killed(suite):
    def loops():
        step("window", lambda old, g, reference: g.state.agenda.append(Window(reference)))
    [result] = run_mutants([Mutant("window_forever", "Opens the window again and again.", ("3.2.3",), loops)],
                           window_scenarios(suite))
    assert result.status == "killed" and result.crashed_in == []
    assert result.killed_by == [s.id for s in window_scenarios(suite)]


def test_the_tool_writes_table_and_json(tmp_path, capsys):
    table, data = tmp_path / "m.md", tmp_path / "m.json"
    status = mutate.main(["-k", "no_gift", "-k", "toucans_dont_match", "--table", str(table), "--json", str(data)])
    assert status == 0
    assert "2 of 2 mutants killed" in capsys.readouterr().out
    document = json.loads(data.read_text())
    assert {m["mutant"] for m in document["mutants"]} == {"no_gift", "toucans_dont_match"}
    assert all(m["status"] == "killed" and m["killed_by"] for m in document["mutants"])
    assert "3.1.8" in table.read_text()


def test_equivalent_mutants_are_listed_not_counted(suite):
    from baobei_conform.mutants.patching import Mutant

    same = Mutant("sorted_nothing", "Sorts nothing.", ("2.5.1",), lambda: None, equivalent="changes no behaviour")
    results = run_mutants([same, MUTANTS["no_gift"]], suite)
    assert [r.status for r in results] == ["equivalent", "killed"]
    figures = summary(results)
    assert (figures["mutants"], figures["mutants_killed"]) == (1, 1)
    assert figures["equivalent"] == {"sorted_nothing": "changes no behaviour"}
    assert "- `sorted_nothing`: changes no behaviour" in markdown(default_spec(), results, figures)
