"""The mutation tool (tools/mutants, run by tools/mutate.py): mutants switch on and off cleanly, a variant changes
no module, the suite kills a known one, the table names clauses."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

from baobei_conform.files.inputs import checked
from baobei_conform.harness.run import Selection, load_suite
from baobei_ref import Game, cards, game, zones
from baobei_ref.agenda import Window
from baobei_ref.playout import random_play
from baobei_ref.rules import Variant
from baobei_spec import default_spec

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import mutate  # noqa: E402

from mutants import MUTANTS, Mutant  # noqa: E402
from mutants.change import step  # noqa: E402
from mutants.coverage import ALONE, by_clause, markdown, unbroken  # noqa: E402
from mutants.patching import applied, snapshot  # noqa: E402
from mutants.run import BUDGET, MutantResult, engine_for, run_mutants, summary  # noqa: E402


def as_variant(name: str, doc: str, change) -> Mutant:
    """A mutant of the test's own, as a variant of the rules."""
    return Mutant(name, doc, ("3.2.3",), variant=Variant(name, doc, change))


def changed_since(saved: list[tuple]) -> list[str]:
    """What differs in the reference's modules, dicts and classes from the snapshot."""
    out = []
    for target, before in saved:
        now = dict(vars(target)) if isinstance(target, type) else target
        where = target.__qualname__ if isinstance(target, type) else target.get("__name__", "a dict")  # a module's
        out += [f"{where}.{key}" for key in set(before) | set(now)
                if key != "__dict__" and now.get(key) is not before.get(key)]
    return out


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
    wrong = {m.name for m in MUTANTS.values() if m.origin == "wrong_engine"}
    assert len(wrong) == 21 and {"pelicans_dont_match", "no_gift", "zero_card_claimant_not_eligible"} <= wrong
    assert all(MUTANTS[name].kind == "variant" for name in wrong)
    kinds = summary([MutantResult(m) for m in MUTANTS.values()])["kinds"]
    assert kinds["variant"] > 3 * kinds["patch"] and kinds["parameters"] > 0, kinds


def test_a_mutant_is_switched_on_exactly_one_way():
    with pytest.raises(ValueError, match="exactly one"):
        Mutant("both", "Two ways.", ("3.2.3",), variant=Variant("both", "", lambda rules: None),
               patch=lambda rules: None)
    with pytest.raises(ValueError, match="exactly one"):
        Mutant("none", "No way.", ("3.2.3",))


def test_every_normative_clause_is_broken_by_a_mutant_or_says_why_not():
    spec = default_spec()
    results = [MutantResult(m) for m in MUTANTS.values()]
    assert unbroken(spec, results) == []
    assert all(spec.clauses[c].kind == "normative" and c not in by_clause(results) for c in ALONE)


def test_applied_patches_and_restores_the_reference():
    answers, value, remove = dict(game.ANSWERS), cards.Catalog.value, zones.remove
    patched = {"golden_toucan_plus_five": lambda: cards.Catalog.value is not value,
               "removal_closes_the_gap": lambda: zones.remove is not remove,
               "shield_blocks_only_plucks": lambda: game.ANSWERS != answers}  # a module and a table
    for name, changed in patched.items():
        assert MUTANTS[name].kind == "patch"
        with applied(MUTANTS[name].patch):
            assert changed(), name
        assert not changed() and game.ANSWERS == answers, name


def test_a_patch_may_not_set_a_named_rule():
    """reference_rules() reads the named rules from the modules for every game: set on the tables, it would be lost."""
    def lost(rules):
        rules.matches = lambda g, reference, target: True
    with pytest.raises(ValueError, match="named rules matches"):
        with applied(lost):
            pass


def played(players: int, variants: list[Variant], seed: int) -> None:
    """A few dozen seeded random actions under ``variants`` (a misreading may refuse its own legal action or raise:
    how the game goes does not matter here, only what the variant touches outside it)."""
    g = Game(players=players, variants=[*variants, BUDGET])
    try:
        for _ in random_play(g, random.Random(seed), max_actions=60):
            pass
    except Exception:  # see the docstring
        pass


def test_variants_and_parameters_change_no_module_of_the_reference():
    """Every variant mutant, in games of 2 and 6 players, and every parameters mutant, leave every module, table
    and class of baobei_ref as they were: they change only the games they play (agenda._ARGS, the cache of each
    step class's fields, fills as new step classes run)."""
    saved = snapshot()
    for m in MUTANTS.values():
        if m.kind == "variant":
            assert m.variant is not None
            for seed, players in enumerate((2, 6)):
                played(players, [m.variant], seed)
        elif m.kind == "parameters":
            assert engine_for(m).new_game(2) is None
    assert [name for name in changed_since(saved) if not name.startswith("a dict.<class")] == []


def test_the_check_sees_a_variant_that_patches_a_module():
    """The test above would pass vacuously if the comparison missed a patch: this variant patches zones."""
    saved, remove = snapshot(), zones.remove
    try:
        Game(players=2, variants=[Variant("sneaky", "", lambda rules: setattr(zones, "remove", len))])
        assert changed_since(saved) == ["baobei_ref.zones.remove"]
    finally:
        zones.remove = remove


def test_parameters_go_to_the_engine_only():
    engine = engine_for(MUTANTS["bao_failure_plain_total"])
    assert engine.params.bao_failure_factor == 1
    assert engine_for(None).params.bao_failure_factor == game.default_params().bao_failure_factor == 2


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
    def broken(rules):
        step(rules, "window", lambda old, g, reference: {}[reference])
    mutant = as_variant("raises_in_windows", "Raises a KeyError in every window.", broken)
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
    def loops(rules):
        step(rules, "window", lambda old, g, reference: g.state.agenda.append(Window(reference)))
    [result] = run_mutants([as_variant("window_forever", "Opens the window again and again.", loops)],
                           window_scenarios(suite))
    assert result.status == "killed" and result.crashed_in == []
    assert result.killed_by == [s.id for s in window_scenarios(suite)]


def test_the_tool_writes_table_and_json(tmp_path, capsys):
    table, data = tmp_path / "m.md", tmp_path / "m.json"
    status = mutate.main(["-k", "no_gift", "-k", "toucans_dont_match", "--table", str(table), "--json", str(data)])
    assert status == 0
    out = capsys.readouterr().out
    assert "2 of 2 mutants killed" in out and "switched on as 2 variants of the rules, 0 sets" in out
    document = json.loads(data.read_text())
    assert checked(document, "mutants.schema.json", str(data), "a mutants document") is document  # `report --mutants`
    assert {m["mutant"] for m in document["mutants"]} == {"no_gift", "toucans_dont_match"}
    assert all(m["status"] == "killed" and m["killed_by"] and m["kind"] == "variant" for m in document["mutants"])
    assert "3.1.8" in table.read_text()


def test_equivalent_mutants_are_listed_not_counted(suite):
    same = Mutant("sorted_nothing", "Sorts nothing.", ("2.5.1",), variant=Variant("sorted_nothing", "", lambda r: None),
                  equivalent="changes no behaviour")
    results = run_mutants([same, MUTANTS["no_gift"]], suite)
    assert [r.status for r in results] == ["equivalent", "killed"]
    figures = summary(results)
    assert (figures["mutants"], figures["mutants_killed"]) == (1, 1)
    assert figures["equivalent"] == {"sorted_nothing": "changes no behaviour"}
    assert "- `sorted_nothing`: changes no behaviour" in markdown(default_spec(), results, figures)
