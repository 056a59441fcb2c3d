"""``run_conformance``: the one way a run becomes a results document (command line, report, benchmarks)."""

from __future__ import annotations

import json

import jsonschema
from referencing import Registry, Resource

from baobei_conform.engines.reference import ReferenceEngine
from baobei_conform.harness.run import Selection, load_suite
from baobei_conform.report.model import run_reference
from baobei_conform.results.conform import RunRecord, run_conformance
from baobei_scenarios import SUITE_ROOT
from baobei_spec import SPEC_ROOT


def _schema_valid(document: dict) -> None:
    schema = json.loads((SPEC_ROOT / "schemas" / "results.schema.json").read_text(encoding="utf-8"))
    registry = Registry().with_resource(schema["$id"], Resource.from_contents(schema))
    jsonschema.Draft202012Validator(schema, registry=registry).validate(document)


def _suite(glob: str):
    scenarios, _ = load_suite([SUITE_ROOT], Selection(ids=[glob]))
    assert scenarios
    return scenarios


def test_a_run_is_a_results_document_with_its_facts():
    scenarios = _suite("pluck-*")
    document = run_conformance(RunRecord(scenarios, {"command": "reference"}, {"argv": ["x"]}), ReferenceEngine)
    _schema_valid(document)
    assert document["summary"]["passed"] == document["run"]["selected"] == document["run"]["ran"] == len(scenarios)
    assert [r["id"] for r in document["results"]] == [s.id for s in scenarios]
    assert document["run"]["complete"] and document["run"]["argv"] == ["x"]


def test_a_run_cut_short_says_so_and_keeps_what_ran():
    scenarios = _suite("pluck-*")

    class Wrong(ReferenceEngine):  # refuses every action: each scenario fails
        def apply(self, action):
            return None, "wrong_decision"

    document = run_conformance(RunRecord(scenarios, {"command": "wrong"}), Wrong, max_fail=2)
    assert not document["run"]["complete"] and document["run"]["ran"] == 2 < document["run"]["selected"]
    assert document["summary"]["failed"] == 2


def test_the_report_runs_the_reference_through_it():
    scenarios = _suite("pluck-double-*")
    document = run_reference(scenarios, broken=3)
    _schema_valid(document)
    assert document["run"]["broken_files"] == 3 and document["run"]["argv"] == ["report"]
    assert document["summary"]["passed"] == len(scenarios)
