"""spec/vocabulary.yaml is the one list of names: the schemas, the grammar, the compiler and
docs/scenarios.md are checked against it (docs/protocol.md in tests/conformance/test_protocol_doc_and_node.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from baobei_conform.dsl.compile import compile_script
from baobei_conform.dsl.parse import ToAst, parse_script, parser
from baobei_conform.runner.checks import KINDS
from baobei_spec import SPEC_ROOT, default_spec

ROOT = Path(__file__).resolve().parents[2]
VOCABULARY = default_spec().vocabulary
# a hole in each zone: a table past the round's first turn, where no initial peek must be written
SETUP = "setup\n" + "".join(f"  zone p{p}: owl heron eagle sparrow _\n" for p in range(3)) + "end\n"


def schema(name: str) -> dict:
    return json.loads((SPEC_ROOT / "schemas" / name).read_text(encoding="utf-8"))


def grammar_alternatives(rule: str) -> list[str]:
    return [r.expansion[0].name for r in parser().rules if r.origin.name == rule]


def generic(form: str) -> bool:
    """The form's rule is made of ``field_NAME`` rules only (besides keywords): parse.py builds it alone."""
    keywords = {t.name for t in parser().terminals if t.pattern.type == "str"}
    names = [sym.name for r in parser().rules if r.origin.name == form for sym in r.expansion]
    return any(n.startswith("field_") for n in names) and all(n.startswith("field_") or n in keywords for n in names)


def test_a_check_made_of_fields_needs_no_code_in_the_parser():
    """The change walk of a new expectation: such a form is a grammar rule and a vocabulary entry (+ checks.py)."""
    built = [form for form in VOCABULARY.forms() if not hasattr(ToAst, form)]
    assert built and all(generic(form) for form in built)
    assert {"card_count", "score", "sees", "holds_is"} <= set(built)
    (step,) = steps("expect p2 sees p1.1 as owl")
    assert step["check"] == {"what": "view", "viewer": 2, "target": [1, 1], "species": "owl"}
    (step,) = steps("expect round score p0 -5")
    assert step["check"] == {"what": "round_score", "player": 0, "score": -5}


def table(doc: str, heading: str) -> list[list[str]]:
    """The cells of the first table under ``## heading`` (header and rule excluded)."""
    section = (ROOT / "docs" / doc).read_text(encoding="utf-8").split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]
    first = re.search(r"^\|.*\n(?:\|.*\n)*", section, re.M)
    return [[c.strip() for c in ln.strip("|").split(" | ")] for ln in first[0].splitlines()[2:]]


def steps(statement: str) -> list[dict]:
    """The compiled steps of one statement after a 3-player setup (the setup step left out)."""
    return compile_script(parse_script(SETUP + statement))[1:]


def test_steps_schema_enums_are_the_vocabulary():
    branches = {b["properties"]["op"]["const"]: b["properties"] for b in schema("steps.schema.json")["items"]["oneOf"]}
    assert branches["apply"]["action"]["properties"]["type"]["enum"] == list(VOCABULARY.actions)
    statement, raw = branches["reject"]["action"]["anyOf"]  # a decision's statement, or raw JSON (any)
    assert statement["properties"]["type"]["enum"] == list(VOCABULARY.actions) and "type" not in raw
    assert branches["expect"]["check"]["properties"]["what"]["enum"] == list(VOCABULARY.checks)


def test_every_check_kind_is_registered_once_by_its_vocabulary_name():
    """The judge's registry (runner/checks.py) and the vocabulary name the same kinds."""
    assert sorted(KINDS) == sorted(VOCABULARY.checks)


def test_expect_statement_forms_are_the_vocabulary():
    """Every ``expect`` form of the grammar is a vocabulary form; the compiler gives its check kind."""
    assert sorted(grammar_alternatives("_check")) == sorted(VOCABULARY.forms())
    for form, what in VOCABULARY.forms().items():
        assert hasattr(ToAst, form) or generic(form), form  # a method builds it, or its fields alone do
        example = VOCABULARY.checks[what][form]
        (step,) = steps(example)
        assert step["check"]["what"] == what, example


def test_scenarios_doc_expectation_table_is_the_vocabulary():
    rows = table("scenarios.md", "Expectations")
    assert [re.findall(r"`([^`]+)`", row[0]) for row in rows] == [[what] for what in VOCABULARY.checks]
    for row in rows:
        what = row[0].strip("`")
        examples = re.findall(r"`([^`]+)`", row[1])
        assert set(VOCABULARY.checks[what].values()) <= set(examples), what
        for example in examples:
            (step,) = steps(example)
            assert step["check"]["what"] == what, example


def test_scenarios_doc_decision_table_covers_every_action_type():
    """Each example of the Decisions table is one action; together they cover every action type."""
    covered = set()
    for _, cell in table("scenarios.md", "Decisions"):
        for example in re.findall(r"`([^`]+)`", cell):
            if example.startswith(("setup", "new game")):
                continue
            (step,) = steps(example)
            covered.add("shuffle" if step["op"] == "shuffle" else step["action"]["type"])
    assert covered == set(VOCABULARY.actions)


def test_scenarios_doc_setup_table_is_the_grammar():
    rows = table("scenarios.md", "Setting up the table")
    documented = {row[0].replace(" ", "_") for row in rows} - {"block"}
    assert documented == set(grammar_alternatives("_setup_item"))


@pytest.mark.parametrize("kind", ["event", "no_event"])
def test_lint_knows_every_event_kind(kind):
    prefix = "expect event" if kind == "event" else "expect no event"
    for event in VOCABULARY.events:
        (step,) = steps(f"{prefix} {event}")
        assert step["check"]["kind"] == event
