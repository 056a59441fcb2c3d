"""The client's expected-reply shortcut (``Engine.send(calls, expected)``): a reply line byte-identical to the
reference's line for the expected result is that result; every other line is decoded and judged as usual."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest

from baobei_conform.protocol.client import StdioEngine
from baobei_conform.runner.engine import params_to_json
from baobei_ref import Game

ENGINES = Path(__file__).resolve().parent / "engines"
SERVE = [sys.executable, "-m", "baobei_conform.protocol.server", "serve"]


@pytest.fixture
def game():
    return Game(players=3)


def started(command: list[str]) -> StdioEngine:
    engine = StdioEngine(command, params_to_json(), timeout=10)
    assert engine.batch([("new_game", 3)]) == [None]
    return engine


def test_the_line_the_reference_writes_is_the_expected_object(game):
    engine = started(SERVE)
    try:
        state, view = game.to_json(), game.view(0)
        results = engine.collect(engine.send([("state",), ("view", 0), ("state",)], [state, view, None]))
        assert results[0] is state and results[1] is view  # not decoded
        assert results[2] == state and results[2] is not state  # nothing expected: decoded
        assert not engine.expected  # nothing left over
    finally:
        engine.stop()


def test_any_other_answer_is_decoded_and_differs_where_the_engine_differs(game):
    engine = started(SERVE)
    try:
        state, view = game.to_json(), game.view(0)
        wrong_state, wrong_view = copy.deepcopy(state), copy.deepcopy(view)
        wrong_state["round"], wrong_view["turn"] = 7, 9  # what the caller expects is not what the engine says
        results = engine.collect(engine.send([("state",), ("view", 0)], [wrong_state, wrong_view]))
        assert results == [state, view]  # the engine's own answers, decoded
        assert results[0] != wrong_state and results[1] != wrong_view
    finally:
        engine.stop()


def test_the_same_value_written_otherwise_is_decoded_equal(game):
    engine = started([sys.executable, str(ENGINES / "refuse_discard.py")])  # writes json.dumps: with spaces
    try:
        state = game.to_json()
        (result,) = engine.collect(engine.send([("state",)], [state]))
        assert result == state and result is not state
    finally:
        engine.stop()


def test_refusals_and_failures_are_never_taken_from_the_expectation(game):
    engine = started(SERVE)
    try:
        draw = {"type": "draw", "player": 0}  # the first player is not chosen yet: refused
        (applied,) = engine.collect(engine.send([("apply", draw)], [([], None)]))
        assert applied[0] is None and applied[1] == "wrong_decision", applied
    finally:
        engine.stop()
