"""The judge builds setup positions from the spec alone (``baobei_spec.position``, the one builder), and they are
positions the reference continues from exactly."""

from __future__ import annotations

import pytest

from baobei_conform.dsl.ast import Setup, Under
from baobei_conform.dsl.compile import compile_script
from baobei_conform.dsl.errors import ScenarioError
from baobei_conform.dsl.parse import parse_script
from baobei_conform.suite.scenario import load_scenario, scenario_files
from baobei_ref import Game
from baobei_ref.agenda import TurnStart
from baobei_ref.errors import RuleError
from baobei_ref.setup import position
from baobei_scenarios import SUITE_ROOT
from baobei_spec import default_spec
from baobei_spec.position import MalformedState, PositionRules, build_position

PLAYED = ("threshold", "values", "rules", "unreachable")  # rule-parameter overrides: the step's params, not its state
RULES = PositionRules.from_spec(default_spec())


def _build(options: dict) -> dict:
    return build_position({k: v for k, v in options.items() if k not in PLAYED}, RULES)


def _turn_start_of_the_reference(state: dict) -> tuple:
    """The decision the reference's own turn start (2.6.1, 7.1.8) asks on this table."""
    g = Game.from_json({**state, "pending": {"kind": "turn", "player": state["active"], "players": [], "data": {}}})
    g.state.pending, g.state.agenda = None, [TurnStart()]
    g.run()
    return g.pending.kind, g.pending.player


def _setups(statements) -> list[Setup]:
    found = []
    for stmt in statements:
        if isinstance(stmt, Setup):
            found.append(stmt)
        elif isinstance(stmt, Under):
            found += _setups(stmt.statements)
    return found


def test_every_scenario_setup_is_a_position_the_reference_continues_exactly():
    compared = 0
    for path in scenario_files([SUITE_ROOT]):
        scenario = load_scenario(path)
        for stmt in _setups(parse_script(scenario.script)):
            state = _build(stmt.options)
            where = f"{path}:{scenario.file_line(stmt.line)}"
            assert Game.from_json(state).to_json() == state, where
            if state["pending"]["kind"] == "turn":
                assert _turn_start_of_the_reference(state) == ("turn", state["active"]), where
            compared += 1
    assert compared > 400  # every setup of the suite, not a vacuous pass


TABLE = "setup\n  zone p0: owl heron\n  zone p1: eagle sparrow\n  deck: macaw\n  discard: flamingo\n  active p1\n"


@pytest.mark.parametrize("extra", ["", "  holds cuckoo\n", "  rest in discard\n", "  p0 knows p1.2\n  scores 3 -4\n",
                                   "  bao p0\n", "  bao p1\n  shield active\n",
                                   "  recycles 2\n  final phase\n  last turns p0\n",
                                   "  under: owl heron\n  recycles 1\n  round 3\n"])
def test_every_setup_item_builds_a_position_the_reference_gives_back(extra):
    (stmt,) = parse_script(TABLE + extra + "end\n")
    state = _build(stmt.options)
    assert Game.from_json(state).to_json() == state


@pytest.mark.parametrize(("table", "message"), [
    ("setup\n  zone p0: golden_toucan golden_toucan\n  zone p1: owl\nend\n",
     "zone p0 slot 2: the catalog has no more 'golden_toucan'"),
    ("setup\n  zone p0: owl\n  zone p1: owl _\n  p0 knows p1.2\nend\n", "p0 knows: player 0 cannot know an empty slot"),
    ("setup\n  zone p0: owl\nend\n", "played by 2 to 6 players, not 1"),
    ("setup\n  zone p0: owl\n  zone p1: owl\n  final phase\n  last turns\nend\n",
     "final_phase: starts at recycle 2 of the round"),
    ("setup\n  zone p0: owl\n  zone p1: owl\n  shield active\nend\n", "shield: is 'active' without a BAO caller"),
    ("setup\n  zone p0: owl\n  zone p1: owl\n  scores 3\nend\n", "scores: must hold one cumulative score per seat"),
])
def test_an_impossible_setup_is_refused_by_the_builder_and_by_the_reference(table, message):
    (stmt,) = parse_script(table)
    with pytest.raises(MalformedState, match=message):
        _build(stmt.options)
    options = {k: v for k, v in stmt.options.items() if k not in PLAYED}
    if "scores" in options:
        options["scores"] = dict(enumerate(options["scores"]))
    with pytest.raises(RuleError, match=message) as refused:
        position(**options)
    assert refused.value.code == "malformed_state"


def test_an_impossible_setup_is_a_scenario_error_at_its_line():
    script = "# a comment\nsetup\n  zone p0: owl\n  zone p1: owl\n  bao p1\n  shield none\nend\n"
    # at the item the field comes from: the shield line
    with pytest.raises(ScenarioError, match=r":6:3: impossible setup: shield: is 'none' after a BAO call"):
        compile_script(parse_script(script))


def test_a_turn_that_passes_on_at_once_is_refused_at_its_line():
    """Zero cards, no deck, nothing to recycle and no BAO to call: the turn would pass on (7.1.8)."""
    cards = [s.id for s in default_spec().species_list for _ in range(s.count)]
    cards.remove("eagle")
    table = f"setup\n  zone p0: _ _ _ _ _\n  zone p1: {' '.join(cards)}\n  deck:\n  discard: eagle\n  active p0\n"
    assert compile_script(parse_script(table + "end\n"))[0]["state"]["pending"]["kind"] == "end_turn"
    with pytest.raises(ScenarioError, match=r":1:1: impossible setup: player 0 can neither draw nor take"):
        compile_script(parse_script(table + "  bao p1\nend\n"))
