"""The judge builds setup positions from the spec alone, and they are the very states the reference built."""

from __future__ import annotations

import pytest

from baobei_conform.dsl.ast import Setup, Under
from baobei_conform.dsl.compile import compile_script
from baobei_conform.dsl.errors import ScenarioError
from baobei_conform.dsl.parse import parse_script
from baobei_conform.dsl.position import ImpossibleSetup, setup_state
from baobei_conform.scenario import load_scenario, scenario_files
from baobei_ref.errors import RuleError
from baobei_ref.setup import position
from baobei_scenarios import SUITE_ROOT
from baobei_spec import default_spec

PLAYED = ("threshold", "values", "rules")  # rule-parameter overrides: the step's params, not its state


def _reference_state(options: dict) -> dict:
    """What the compiler used to build: ``baobei_ref.setup.position`` (kept here only, as the witness)."""
    options = {k: v for k, v in options.items() if k not in PLAYED}
    if "scores" in options:
        options["scores"] = dict(enumerate(options["scores"]))
    return position(**options).to_json()


def _setups(statements) -> list[Setup]:
    found = []
    for stmt in statements:
        if isinstance(stmt, Setup):
            found.append(stmt)
        elif isinstance(stmt, Under):
            found += _setups(stmt.statements)
    return found


def test_every_scenario_setup_is_the_state_the_reference_built():
    files = scenario_files([SUITE_ROOT])
    compared = 0
    for path in files:
        scenario = load_scenario(path)
        for stmt in _setups(parse_script(scenario.script)):
            options = {k: v for k, v in stmt.options.items() if k not in PLAYED}
            assert setup_state(options) == _reference_state(stmt.options), f"{path}:{scenario.file_line(stmt.line)}"
            compared += 1
    assert compared > 400  # every setup of the suite, not a vacuous pass


TABLE = "setup\n  zone p0: owl heron\n  zone p1: eagle sparrow\n  deck: macaw\n  discard: flamingo\n  active p1\n"


@pytest.mark.parametrize("extra", ["", "  holds cuckoo\n", "  rest in discard\n", "  p0 knows p1.2\n  scores 3 -4\n",
                                   "  bao p0\n", "  bao p1\n  shield active\n", "  final phase\n  last turns p0\n",
                                   "  under: owl heron\n  recycles 1\n  round 3\n"])
def test_every_setup_item_builds_the_reference_state(extra):
    (stmt,) = parse_script(TABLE + extra + "end\n")
    assert setup_state(stmt.options) == _reference_state(stmt.options)


@pytest.mark.parametrize(("table", "message"), [
    ("setup\n  zone p0: golden_toucan golden_toucan\n  zone p1: owl\nend\n", "no more 'golden_toucan'"),
    ("setup\n  zone p0: owl\n  zone p1: owl _\n  p0 knows p1.2\nend\n", "cannot know an empty slot"),
    ("setup\n  zone p0: owl\nend\n", "played by 2 to 6 players, not 1"),
])
def test_an_impossible_setup_is_refused_like_the_reference_refused_it(table, message):
    (stmt,) = parse_script(table)
    with pytest.raises(ImpossibleSetup, match=message):
        setup_state(stmt.options)
    with pytest.raises(RuleError, match=message):
        _reference_state(stmt.options)


def test_a_turn_that_passes_on_at_once_is_refused_at_its_line():
    """Zero cards, no deck, nothing to recycle and no BAO to call: the turn would pass on (7.1.8)."""
    cards = [s.id for s in default_spec().species_list for _ in range(s.count)]
    cards.remove("eagle")
    table = f"setup\n  zone p0: _\n  zone p1: {' '.join(cards)}\n  deck:\n  discard: eagle\n  active p0\n"
    assert compile_script(parse_script(table + "end\n"))[0]["state"]["pending"]["kind"] == "end_turn"
    with pytest.raises(ScenarioError, match=r":1:1: impossible setup: player 0 can neither draw nor take"):
        compile_script(parse_script(table + "  bao p1\nend\n"))
