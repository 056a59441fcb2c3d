"""``compile --expected``: the reference's observation after every action step, published beside the steps, checked
by schema, held to the contract, and enough for a runner in another language to catch what the suite's own
expectations miss."""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

import jsonschema
import pytest
from referencing import Registry, Resource

from baobei_conform.cli.expected import OBSERVED, comparison
from baobei_conform.cli.main import main
from baobei_conform.engines.reference import ReferenceEngine
from baobei_conform.runner.agreement import differences
from baobei_conform.runner.walk import observe
from baobei_conform.suite.scenario import scenario_files
from baobei_scenarios import SUITE_ROOT
from baobei_spec import SPEC_ROOT, default_spec

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "examples" / "wrong_engine"))
from engine import BUGS  # noqa: E402

SCHEMAS = ("compiled.schema.json", "steps.schema.json", "state.schema.json", "expected.schema.json")
READINGS = "7-deck/deck-final-phase-after-bao-keeps-the-last-turns"  # steps under R-05 A, A B D, B C D, C


def _schemas() -> dict[str, dict]:
    return {n: json.loads((SPEC_ROOT / "schemas" / n).read_text(encoding="utf-8")) for n in SCHEMAS}


def _validator(name: str = "compiled.schema.json") -> jsonschema.Draft202012Validator:
    schemas = _schemas()
    registry = Registry().with_resources((s["$id"], Resource.from_contents(s)) for s in schemas.values())
    return jsonschema.Draft202012Validator(schemas[name], registry=registry)


@pytest.fixture(scope="module")
def published(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("published") / "compiled"
    assert main(["compile", str(SUITE_ROOT), "--out", str(out), "--expected"]) == 0
    return out


def _document(out: Path, source: str) -> dict:
    return json.loads((out / f"{source}.json").read_text(encoding="utf-8"))


# The suite's parts (its top folders), one test each: validating every file takes minutes, and parts spread over the
# workers of ``pytest -n``. The next test holds the parts to cover every file.
PARTS = sorted(p.name for p in SUITE_ROOT.iterdir() if p.is_dir() and not p.name.startswith("__"))


def test_the_parts_hold_every_scenario():
    files = scenario_files([SUITE_ROOT])
    assert len(files) > 400 and {path.relative_to(SUITE_ROOT).parts[0] for path in files} <= set(PARTS)


@pytest.mark.parametrize("part", PARTS)
def test_every_scenario_carries_an_observation_after_each_accepted_action_and_matches_the_schema(published, part):
    validator = _validator()
    files = scenario_files([SUITE_ROOT / part])
    for path in files:
        document = _document(published, path.relative_to(SUITE_ROOT).with_suffix("").as_posix())
        validator.validate(document)
        steps, (adopted, *others) = document["steps"], document["expected"]["runs"]
        assert adopted["readings"] == {} and all(run["readings"] for run in others)
        accepted = [i for i, s in enumerate(steps) if s["op"] in OBSERVED and "code" not in s and "under" not in s]
        got = [o["step"] for o in adopted["observations"]]
        assert set(accepted) <= set(got), (path, accepted, got)  # every step all readings run, observed
        for observation in adopted["observations"]:
            step = steps[observation["step"]]
            assert step["op"] in OBSERVED and step["line"] == observation["line"]
            assert sorted(observation["views"], key=int) == [str(p) for p in observation["state"]["players"]]
            assert [v["player"] for v in observation["views"].values()] == observation["state"]["players"]
            if step["op"] == "setup":  # the table set up is the table observed (the position builder's state)
                assert observation["state"]["zones"] == step["state"]["zones"] and observation["events"] == []
        last = adopted["observations"][-1]["state"]
        assert last["pending"]["kind"] in {"game_over", *default_spec().vocabulary.decisions}
    assert files


def test_a_scenario_under_readings_gets_a_run_per_reading_and_the_runs_differ(published):
    document = _document(published, READINGS)
    runs = {json.dumps(r["readings"]): r["observations"] for r in document["expected"]["runs"]}
    assert list(runs) == ["{}", '{"R-05": "A"}', '{"R-05": "D"}', '{"R-05": "C"}']  # B is adopted: the first run's
    only_a = {i for i, s in enumerate(document["steps"]) if s.get("under") == ["R-05", "A"] and s["op"] in OBSERVED}
    assert only_a and only_a <= {o["step"] for o in runs['{"R-05": "A"}']}  # the caller's extra turn under A
    assert not only_a & {o["step"] for o in runs["{}"]}
    assert sorted(o["step"] for o in runs['{"R-05": "A"}']) == sorted({o["step"] for o in runs["{}"]} | only_a)


def test_the_schema_refuses_a_wrong_observation(published):
    document = _document(published, "3-pluck/pluck-double-both-family-matches-succeed")
    validator = _validator()
    assert validator.is_valid(document)
    observation = next(o for o in document["expected"]["runs"][0]["observations"] if o["events"])

    def broken(change) -> dict:
        wrong = copy.deepcopy(document)
        change(next(o for o in wrong["expected"]["runs"][0]["observations"] if o["events"]))
        return wrong

    player = next(iter(observation["views"]))
    for change in (lambda o: o.pop("legal_actions"),  # a field missing
                   lambda o: o["events"].append({"kind": "teleported", "clause": "2.7.1"}),  # no such event
                   lambda o: o["events"][0].update(colour="red"),  # a field the event kind does not have
                   lambda o: o["events"][0].pop("clause"),  # an event without its clause
                   lambda o: o["views"][player].pop("deck_count"),  # a view without one of its fields
                   lambda o: o["views"][player].update(deck=[]),  # a view showing what views never show
                   lambda o: o["legal_actions"].append({"type": "draw", "player": 0, "slot": 1}),  # not a draw's shape
                   lambda o: o["state"].pop("pending"),  # a state that is not canonical
                   lambda o: o.update(step=-1)):
        assert not validator.is_valid(broken(change))


def test_the_schema_names_what_the_contract_names():
    """Event kinds and their fields, action shapes and view fields: as spec/contract.yaml has them."""
    schema, contract = _schemas()["expected.schema.json"], default_spec().contract
    events = {e["properties"]["kind"]["const"]: set(e["properties"]) - {"kind", "clause", *contract.informational}
              for e in schema["$defs"]["event"]["anyOf"]}
    assert events == {kind: set(e.fields) for kind, e in contract.events.items()}
    actions = {a["properties"]["type"]["const"]: set(a["required"]) - {"type"}
               for a in schema["$defs"]["action"]["anyOf"]}
    assert actions == {t: set(fields) for t, fields in contract.shapes.items()}
    assert schema["$defs"]["view"]["required"] == list(contract.view_fields)


def _observed(steps: list[dict], engine) -> list[dict]:
    return [w.observation() for w in observe(steps, engine) if w.action and "code" not in w.step]


def test_a_runner_of_the_published_files_catches_what_the_expectations_miss(published):
    """A view that shows the viewer's own cards passes this scenario's checks; the observations catch it."""
    document = _document(published, "2-turn/slots-given-away-slot-takes-a-later-penalty")
    expected = document["expected"]["runs"][0]["observations"]
    capabilities = ReferenceEngine.capabilities
    honest = _observed(document["steps"], ReferenceEngine())  # walks without failing: the steps hold
    assert [differences(e, o, capabilities) for e, o in zip(expected, honest, strict=True)] == [[]] * len(expected)
    wrong = _observed(document["steps"], ReferenceEngine(variants=[BUGS["view_shows_own_cards"][0]]))
    found = [d for e, o in zip(expected, wrong, strict=True) for d in differences(e, o, capabilities)]
    assert found and all(d.startswith("views.p") for d in found)
    assert 'views.p0.zones.0[2].card: null -> "' in found[0]  # slots 1 and 2 seen in the initial peek (line 16)


def test_a_listing_difference_is_found_as_a_set(published):
    document = _document(published, "2-turn/slots-given-away-slot-takes-a-later-penalty")
    expected = document["expected"]["runs"][0]["observations"]
    wrong = _observed(document["steps"], ReferenceEngine(variants=[BUGS["take_into_any_slot_listed"][0]]))
    found = [d for e, o in zip(expected, wrong, strict=True) for d in differences(e, o, {"legal_actions"})]
    assert found and all(d.startswith("legal_actions: (not listed) -> {") for d in found)
    shuffled = [{**o, "legal_actions": [{k: a[k] for k in reversed(a)} for a in reversed(o["legal_actions"])]}
                for o in expected]  # another order, and each action's keys in another order: the same set
    assert not [d for e, o in zip(expected, shuffled, strict=True) for d in differences(e, o, {"legal_actions"})]


def test_a_scenario_the_reference_fails_is_named_and_nothing_is_written(tmp_path, capsys):
    folder = tmp_path / "suite"
    folder.mkdir()
    (folder / "wrong.yaml").write_text("id: wrong\ntitle: t\nclauses: ['2.7.1']\nscript: |\n  setup\n"
                                       "    zone p0: owl heron sparrow eagle swallow\n"
                                       "    zone p1: owl heron sparrow eagle swallow\n"
                                       "    p0 knows p0.1 p0.2\n    p1 knows p1.1 p1.2\n  end\n  p0 draws\n"
                                       "  expect pending turn p1\n", encoding="utf-8")
    out = tmp_path / "compiled"
    assert main(["compile", str(folder), "--out", str(out)]) == 0  # it compiles: the steps need no reference
    assert main(["compile", str(folder), "--out", str(out), "--expected"]) == 1
    err = capsys.readouterr().err
    assert f"{folder / 'wrong.yaml'}:12: the reference under the adopted readings does not go through" in err
    assert "nothing written" in err and "expected" not in _document(out, "wrong")


def test_the_format_document_says_how_each_field_is_compared_as_the_files_do():
    text = (ROOT / "docs" / "published.md").read_text(encoding="utf-8")
    for key, how in comparison().items():
        assert f'"{key}": {json.dumps(how)}' in text, key


def test_the_output_folder_rule_holds_with_expected(tmp_path, capsys):
    out = tmp_path / "compiled"
    scenario = SUITE_ROOT / "2-turn" / "slots-penalty-fills-the-only-hole-without-asking.yaml"
    assert main(["compile", str(scenario), "--out", str(out)]) == 0
    assert main(["compile", str(scenario), "--out", str(out), "--expected"]) == 0  # an earlier compile's: replaced
    assert "expected" in _document(out, scenario.stem)
    (out / "notes.txt").write_text("mine\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["compile", str(scenario), "--out", str(out), "--expected"]) == 2
    assert "holds notes.txt, which this tool did not write" in capsys.readouterr().err
    assert (out / "notes.txt").read_text(encoding="utf-8") == "mine\n" and (out / f"{scenario.stem}.json").is_file()
