"""Rulings as readings (issue 12): the reference's switches, the impact run, the consistency check both
ways, per-reading steps in the DSL, and engines that declare the readings they follow."""

from __future__ import annotations

import json
import re
import sys
import textwrap
from pathlib import Path

import pytest

from baobei_conform.cli.main import main
from baobei_conform.cli.rulings import BUDGET, impact, random_play
from baobei_conform.dsl.errors import ScenarioError
from baobei_conform.engines.reference import ReferenceEngine, params_to_json
from baobei_conform.files.inputs import checked
from baobei_conform.harness.run import Selection, load_suite, run_suite
from baobei_conform.protocol.client import ProtocolError, StdioEngine
from baobei_conform.suite.scenario import load_scenario
from baobei_ref.readings import SWITCHES
from baobei_spec import default_spec

ROOT = Path(__file__).resolve().parents[2]
ENGINES = Path(__file__).resolve().parent / "engines"
KEEPS = "deck-final-phase-after-bao-keeps-the-last-turns"
LAST = "deck-final-phase-in-the-last-bao-turn-ends-the-round"
SCORED = "deck-final-phase-after-bao-successful-caller-scores-the-total"  # A, C, D: the caller's score
TIE = "scoring-tie-for-win-decisive-round-tied-only"
SHIELD = "deck-final-phase-shield-no-longer-applies"  # R-05 C keeps the shield through the final phase
DECISIVE = ["scoring-decisive-round-new-tie-replayed-among-still-tied",
            "scoring-decisive-round-winner-by-decisive-score-only"]
NO_GAMES = {**BUDGET, "games": 0}

# The last-turn scenario with only the adopted reading's expectations, as a scenario that pins R-05
# without per-reading steps would be written (and, without `rulings`, as one that forgets to cite it).
ADOPTED_ONLY = """\
id: {id}
title: The second recycle in the last BAO turn ends the round after it
clauses: ["7.2.2"]
rulings: {rulings}
script: |
  setup
    zone p0: owl heron _ _
    zone p1: kingfisher swallow _ _
    zone p2: _ _ _ _
    deck:
    discard: sparrow
    rest in discard
    recycles 1
    bao p0
    active p2
  end
  p2 draws
  shuffle: hummingbird sparrow sparrow
  p2 discards
  nobody plucks
  expect pending deal
  expect round score p0 11
"""
# A scenario citing R-05 that no reading changes: nothing in it reaches a second recycle.
UNAFFECTED = """\
id: {id}
title: A draw, nothing more
clauses: ["2.7.1"]
rulings: ["R-05"]
{notes}script: |
  setup
    zone p0: owl heron _ _ _
    zone p1: kingfisher swallow _ _ _
    deck: eagle
  end
  p0 draws
  expect holds eagle
"""


def write(folder: Path, template: str, sid: str, **kw) -> Path:
    path = folder / f"{sid}.yaml"
    path.write_text(template.format(id=sid, **kw), encoding="utf-8")
    return path


# --- the register and the reference ----------------------------------------------------------------
def test_switches_are_the_registers_switch_readings():
    marked = {r.id: tuple(x.id for x in r.readings if x.switch) for r in default_spec().rulings.values()}
    assert {rid: ids for rid, ids in marked.items() if ids} == SWITCHES


def test_r05_adopts_the_reading_that_contradicts_fewest_lines():
    r05 = default_spec().rulings["R-05"]
    fewest = min(r05.readings, key=lambda r: len(r.contradicts))
    assert r05.adopted == fewest.id == "B"
    assert {155, 156, 346} <= set(fewest.supports) and {290, 291} <= set(fewest.supports)


# --- the impact run -------------------------------------------------------------------------------
def test_every_ruling_is_listed_with_its_readings_and_lines(review):
    spec = default_spec()
    assert [r["id"] for r in review["rulings"]] == list(spec.rulings)
    for r in review["rulings"]:
        assert [x["id"] for x in r["readings"]] == [x.id for x in spec.rulings[r["id"]].readings]
        assert sum(x["adopted"] for x in r["readings"]) == 1
        for x in r["readings"]:
            assert ("changed_scenarios" in x) == x["switch"] == x["measured"]


def test_each_switch_changes_exactly_the_scenarios_that_depend_on_it(review):
    changed = {(r["id"], x["id"]): x["changed_scenarios"] for r in review["rulings"] for x in r["readings"]
               if "changed_scenarios" in x}
    assert changed[("R-05", "A")] == [KEEPS, SCORED, LAST] and changed[("R-05", "D")] == [SCORED, LAST]
    assert {KEEPS, LAST, SHIELD, SCORED} <= set(changed[("R-05", "C")])  # C keeps the shield through the final phase
    assert {*DECISIVE, TIE} <= set(changed[("R-07", "B")])
    assert {"deck-draw-rejected-when-nothing-to-recycle", "deck-impossible-turn-draw-zero-cards-turn-passes",
            "deck-zero-card-player-without-draw-goes-to-end-of-turn"} <= set(changed[("R-09", "B")])
    assert {"powers-order-window-pluck-before-active-discard", "pluck-double-window-active-discard-power-after"} \
        <= set(changed[("R-04", "A")])
    assert {"turn-deal-two-players-five-cards-each", "turn-first-player-may-take-the-neutral-discard"} \
        <= set(changed[("R-15", "A")])
    assert {"deck-second-recycle-starts-final-phase-without-bao", TIE} <= set(changed[("R-17", "A")])
    assert review["baseline_failures"] == []


def test_the_consistency_check_passes_on_the_scenarios(review):
    assert review["consistency"] == []


def test_the_consistency_check_works_both_ways(tmp_path):
    write(tmp_path, ADOPTED_ONLY, "uncited", rulings="[]")
    write(tmp_path, UNAFFECTED, "unaffected", notes="")
    write(tmp_path, UNAFFECTED, "explained", notes='ruling_notes: {R-05: "no second recycle happens here"}\n')
    scenarios, broken = load_suite([tmp_path], Selection())
    assert not broken
    problems = impact(scenarios, NO_GAMES)["consistency"]
    assert sorted(problems) == [
        "unaffected: cites R-05, but no reading of it changes the verdict; say why in its ruling_notes",
        *(f"uncited: its verdict changes under R-05 reading {x}, but it does not cite R-05 in rulings" for x in "ACD"),
    ]


def test_random_play_diverges_only_under_an_alternative():
    budget = {**BUDGET, "games": 12}
    assert random_play({"R-05": "B"}, budget)["diverged"] == 0  # the adopted reading named explicitly
    diverging = random_play({"R-05": "A"}, BUDGET)
    assert diverging["diverged"] >= 1 and diverging["earliest"] > 0
    assert diverging["rate"] == round(diverging["diverged"] / BUDGET["games"], 4)


def test_cli_rulings_json(capsys):
    assert main(["rulings", "--games", "0", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["schema"] == "baobei-rulings/1" and doc["consistency"] == []
    assert checked(doc, "rulings.schema.json", "stdout", "a rulings document") is doc  # what `report --rulings` reads
    r05 = next(r for r in doc["rulings"] if r["id"] == "R-05")
    assert r05["adopted"] == "B" and {KEEPS, LAST, SHIELD} <= set(r05["cited_by"])


# --- per-reading steps in the DSL -------------------------------------------------------------------
def test_under_blocks_compile_to_tagged_steps():
    steps = load_scenario(ROOT / "scenarios" / "7-deck" / f"{LAST}.yaml").steps
    tags = [s.get("under") for s in steps]
    assert ["R-05", "B", "C"] in tags and ["R-05", "A", "D"] in tags and None in tags


def test_the_documented_example_is_the_scenario(tmp_path):
    doc = (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8")
    example = doc.split("## Expectations per reading")[1].split("```yaml\n")[1].split("```")[0]
    path = tmp_path / f"{LAST}.yaml"
    path.write_text(f"id: {LAST}\ntitle: t\nclauses: [\"7.2.2\"]\n" + example, encoding="utf-8")

    def steps(p):
        return [{k: v for k, v in step.items() if k != "line"} for step in load_scenario(p).steps]

    assert steps(path) == steps(ROOT / "scenarios" / "7-deck" / f"{LAST}.yaml")


@pytest.mark.parametrize(("under", "rulings", "message"), [
    ("R-05 Z", '["R-05"]', "R-05 has no reading 'Z'; its readings are A, B, C, D"),
    ("R-05 A", "[]", "steps under R-05 need R-05 in the scenario's rulings"),
    ("R-99 A", '["R-05"]', "unknown ruling 'R-99'"),
])
def test_under_block_errors_name_file_line_and_column(tmp_path, under, rulings, message):
    path = tmp_path / "bad.yaml"
    path.write_text(textwrap.dedent(f"""\
        id: bad
        title: bad
        clauses: ["2.7.1"]
        rulings: {rulings}
        script: |
          setup
            zone p0: owl _ _ _ _
            zone p1: owl _ _ _ _
          end
          under {under}
            p0 draws
          end
        """), encoding="utf-8")
    with pytest.raises(ScenarioError) as exc:
        load_scenario(path)
    assert str(exc.value).startswith(f"{path}:11:3: {message}")


# --- engines that declare readings ----------------------------------------------------------------
def statuses(outcomes) -> dict[str, str]:
    return {o.scenario: o.status for o in outcomes}


def test_an_engine_declaring_r05_a_is_judged_by_that_reading(suite, tmp_path):
    outcomes, _ = run_suite(suite, lambda: ReferenceEngine({"R-05": "A"}))
    assert set(statuses(outcomes).values()) == {"pass"}  # the R-05 scenarios state A's expectations
    assert all(o.message.startswith("judged under R-05 reading A") for o in outcomes
               if o.scenario in (KEEPS, LAST, SCORED))
    adopted_only = load_scenario(write(tmp_path, ADOPTED_ONLY, "adopted-only", rulings='["R-05"]'))
    (outcome,), _ = run_suite([adopted_only], lambda: ReferenceEngine({"R-05": "A"}))
    assert outcome.status == "variant" and "follows R-05 reading A" in outcome.message


def test_the_same_engine_without_the_declaration_fails_the_r05_scenarios(suite):
    # the written expectations alone: with agreement, every step where reading A acts differs too
    outcomes, _ = run_suite(suite, lambda: ReferenceEngine({"R-05": "A"}, declare=False), agree=False)
    failing = {sid for sid, status in statuses(outcomes).items() if status != "pass"}
    assert failing == {KEEPS, LAST, SCORED} and {statuses(outcomes)[s] for s in failing} == {"fail"}


def test_a_declared_reading_without_own_steps_is_variant_even_when_it_passes(suite, tmp_path):
    unaffected = load_scenario(write(tmp_path, UNAFFECTED, "unaffected", notes=""))
    (outcome,), _ = run_suite([unaffected], lambda: ReferenceEngine({"R-05": "A"}))
    assert outcome.status == "variant" and "the adopted expectations held" in outcome.message
    (plain,), _ = run_suite([s for s in suite if s.id == TIE], lambda: ReferenceEngine({"R-05": "A"}))
    assert plain.status == "pass"  # a scenario that does not cite R-05 is judged as usual


def test_stdio_engine_declares_readings_and_results_show_them(tmp_path):
    results = tmp_path / "results.json"
    write(tmp_path, ADOPTED_ONLY, "adopted-only", rulings='["R-05"]')
    code = main(["--scenarios", str(ROOT / "scenarios" / "7-deck"), str(tmp_path), "-k", "deck-final-phase*",
                 "-k", "adopted-only", "--json", str(results), "--no-report", "-q", "--",
                 sys.executable, "-m", "baobei_conform.protocol.server", "serve", "--reading", "R-05=A"])
    doc = json.loads(results.read_text(encoding="utf-8"))
    assert code == 0 and doc["engine"]["readings"] == {"R-05": "A"}
    got = {r["id"]: r["status"] for r in doc["results"]}
    assert {sid: got[sid] for sid in (KEEPS, LAST, "adopted-only")} == {KEEPS: "pass", LAST: "pass",
                                                                         "adopted-only": "variant"}
    assert doc["summary"]["variants"] == 1


def test_a_hello_declaring_an_unknown_reading_is_a_protocol_error(tmp_path):
    double = tmp_path / "bad_readings.py"
    double.write_text(textwrap.dedent(f"""\
        import json, sys
        sys.path.insert(0, {str(ENGINES)!r})
        from _serve import run

        def tamper(request, reply):
            if request.get("cmd") == "hello":
                return json.dumps({{**reply, "readings": {{"R-05": "Z", "R-99": "A"}}}})
            return None

        run(tamper)
        """), encoding="utf-8")
    engine = StdioEngine([sys.executable, str(double)], params_to_json(), timeout=10)
    with pytest.raises(ProtocolError, match=re.escape("bad readings: R-05 has no reading 'Z'; unknown ruling 'R-99'")):
        engine.start()
    assert engine.process is None  # stopped, not left running


def test_the_report_shows_readings_lines_impact_and_declarations(tmp_path):
    from baobei_conform.report import build_report

    results, impact_file = tmp_path / "results.json", tmp_path / "impact.json"
    main(["--scenarios", str(ROOT / "scenarios"), "-k", "deck-final-phase*", "--json", str(results), "--no-report",
          "-q", "--", sys.executable, "-m", "baobei_conform.protocol.server", "serve", "--reading", "R-05=A"])
    scenarios = [s for s in load_suite([ROOT / "scenarios"], Selection())[0] if s.id in (KEEPS, LAST)]
    impact_file.write_text(json.dumps(impact(scenarios, NO_GAMES)), encoding="utf-8")
    index = build_report(tmp_path / "report", [results], str(ROOT / "scenarios"), impact_file)
    rulings = (index.parent / "rulings.html").read_text(encoding="utf-8")
    row = rulings[rulings.index('id="R-05-A"'):rulings.index('id="R-05-B"')]
    assert "supports 286, 289, 290, 291, 354" in row and "contradicts 155, 156, 158, 346" in row
    assert default_spec().lines_nl[155] in row  # line 156 in Dutch, next to the Spanish
    assert f"scenarios/{LAST}.html" in row and "baobei-ref" in row  # changed scenario; the engine following A
    assert 'href="rulings.html#R-05-A"' in index.read_text(encoding="utf-8")
    witness = rulings[rulings.index('id="R-05-A-witness"'):rulings.index('id="R-05-C-witness"')]
    assert 'data-witness="verified"' in witness and "first part ways at action" in witness
    assert witness.count('<figure class="tb"') == 3  # before the diverging step, then after it under B and under A
