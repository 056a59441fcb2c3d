"""Traceability: every normative clause of parts 1-7 and annex B is cited by the reference's code,
and every clause or ruling id the code cites exists in the spec."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import baobei_ref
from baobei_ref import Game
from baobei_ref.playout import random_play
from baobei_spec import load_spec
from baobei_spec.summary import part_of

ROOT = Path(__file__).resolve().parents[2]
CODE = "\n".join(p.read_text(encoding="utf-8") for p in sorted(Path(baobei_ref.__file__).parent.rglob("*.py")))
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


@pytest.fixture(scope="module")
def emitted() -> list[tuple]:
    """(kind, clause, also, ruling, fields) of every event of 50 seeded random games and every scenario."""
    from baobei_conform.engines.reference import ReferenceEngine
    from baobei_conform.runner.run import run_scenario
    from baobei_conform.suite.scenario import load_scenario, scenario_files

    seen: list[tuple] = []
    real = Game.emit

    def record(self, kind, clause, ruling=None, also=(), **data):
        seen.append((kind, clause, tuple(also), ruling, tuple(data)))
        real(self, kind, clause, ruling, also, **data)

    Game.emit = record
    try:
        for seed in range(50):
            for _ in random_play(Game(players=2 + seed % 5), random.Random(seed), max_actions=600):
                pass
        for path in scenario_files([ROOT / "scenarios"]):
            run_scenario(load_scenario(path), ReferenceEngine())
    finally:
        Game.emit = real
    return seen


def test_every_event_cites_existing_clauses_and_rulings(spec, emitted):
    assert len(emitted) > 1000
    clauses = {c for _, clause, also, _, _ in emitted for c in (clause, *also)}
    assert sorted(clauses - set(spec.clauses)) == []
    assert sorted({r for *_, r, _ in emitted if r} - set(spec.rulings)) == []


def test_every_vocabulary_event_kind_is_emitted(spec, emitted):
    """The vocabulary lists no kind the reference never emits (and emit refuses any kind it lacks)."""
    assert sorted(set(spec.vocabulary.events) - {kind for kind, *_ in emitted}) == []


def test_emit_refuses_a_kind_or_field_the_vocabulary_lacks():
    g = Game(players=3)
    g.events = []
    g.emit("penalty", "3.5.5", player=1)
    with pytest.raises(ValueError, match="'penalti' is not in spec/vocabulary.yaml"):
        g.emit("penalti", "3.5.5", player=1)
    with pytest.raises(ValueError, match="field.* victim not in spec/vocabulary.yaml"):
        g.emit("penalty", "3.5.5", player=1, victim=2)
    assert [e.kind for e in g.events] == ["penalty"]
