"""Differential fuzzing finds engines that depart from the reference in random play."""

from __future__ import annotations

import sys
from pathlib import Path

from baobei_conform.cli import main
from baobei_conform.engines import engine_factory
from baobei_conform.fuzz import first_difference, fuzz
from baobei_conform.runner.engine import ReferenceEngine

ROOT = Path(__file__).resolve().parents[2]
WRONG = ROOT / "examples" / "wrong_engine" / "engine.py"


def _stdio(*argv: str):
    factory, _ = engine_factory(None, [sys.executable, *argv])
    return factory()


def test_the_reference_over_the_protocol_never_diverges():
    engine = _stdio("-m", "baobei_conform.protocol.server", "serve")
    try:
        assert fuzz(engine, games=40) == []
    finally:
        engine.stop()


def test_a_misreading_is_found_with_its_seed_and_the_field_that_differs():
    engine = _stdio(str(WRONG), "--bug", "caller_plays_again")
    try:
        found = fuzz(engine, games=10)
    finally:
        engine.stop()
    assert found, "every game with a BAO call diverges"
    first = found[0]
    assert first.actions[-1]["type"] == "call_bao"
    assert ".last_turns" in first.message and str(first.actions[-1]["player"]) in first.message


class WrongCodes(ReferenceEngine):
    """Refuses the right actions, but answers every refusal with the same code."""

    def apply(self, action):
        events, code = super().apply(action)
        return (events, None) if code is None else (None, "illegal_target")


def test_an_engine_refusing_with_the_wrong_code_is_found():
    found = fuzz(WrongCodes(), games=20)
    assert found and "must be refused with" in found[0].message and "illegal_target" in found[0].message


def test_first_difference_names_the_path():
    assert first_difference({"a": {"b": [1, 2]}}, {"a": {"b": [1, 3]}}) == ".a.b[1]: reference 2, engine 3"
    assert first_difference({"a": 1}, {}) == ".a: only in the reference"


def test_the_command_reports_and_exits(capsys):
    assert main(["fuzz", "--games", "5", "--", sys.executable, str(WRONG), "--bug", "shield_immediate"]) == 1
    out = capsys.readouterr().out
    assert "DIVERGENCE seed" in out and ".shield" in out and "5 games from seed 0: 5 diverged" in out
    assert main(["fuzz", "--games", "5"]) == 0
