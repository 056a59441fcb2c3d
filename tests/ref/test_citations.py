"""Traceability: every normative clause of parts 1-7 and annex B is cited by the reference's code,
and every clause or ruling id the code cites exists in the spec."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import baobei_ref
from baobei_spec import load_spec
from baobei_spec.summary import part_of

CODE = "\n".join(p.read_text(encoding="utf-8") for p in Path(baobei_ref.__file__).parent.glob("*.py"))
CLAUSE_ID = re.compile(r"(?<![\w.])(\d\.\d{1,2}\.\d{1,2}|B\.\d)(?![\d])")
RULING_ID = re.compile(r"\bR-\d{2}\b")


@pytest.fixture(scope="module")
def spec():
    return load_spec()


def test_every_normative_clause_is_cited_in_the_reference(spec):
    cited = set(CLAUSE_ID.findall(CODE))
    normative = [c.id for c in spec.clauses.values() if c.kind == "normative" and part_of(c.id) in "1234567B"]
    assert len(normative) > 100
    assert [c for c in normative if c not in cited] == []


def test_every_id_the_reference_cites_exists(spec):
    unknown = sorted(set(CLAUSE_ID.findall(CODE)) - set(spec.clauses))
    assert unknown == []
    assert sorted(set(RULING_ID.findall(CODE)) - set(spec.rulings)) == []


def test_every_event_clause_exists(spec):
    """Events cite clause ids as string literals in emit(...) calls; all must exist."""
    emitted = re.findall(r'emit\(\s*"[a-z_]+",\s*(?:"([^"]+)"|[^,]+ if [^,]+ else [^,]+)', CODE)
    literal = {c for c in emitted if c}
    assert literal and literal <= set(spec.clauses)
