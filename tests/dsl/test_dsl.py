"""The scenario language: every construct parses to its AST, errors point at file:line:col, steps run."""

from __future__ import annotations

import json
import textwrap

import jsonschema
import pytest
from referencing import Registry, Resource

from baobei_conform.cli.main import main
from baobei_conform.dsl.ast import Act, Check, Expect, NewGame, Reject, Setup, ShuffleSpecies
from baobei_conform.dsl.errors import ScenarioError
from baobei_conform.dsl.parse import parse_script
from baobei_conform.engines.reference import ReferenceEngine
from baobei_conform.runner.explain import describe_failure
from baobei_conform.runner.run import run_scenario
from baobei_conform.suite.scenario import load_scenario, scenario_files
from baobei_ref import actions as A
from baobei_ref.powers import add_to_rival, blind_swap, double_replace, peek, peek_two_swap, show
from baobei_spec import SPEC_ROOT, load_spec

SETUP = """\
setup
  zone p0: owl heron _ eagle
  zone p1: white_pelican sparrow swallow kingfisher
  zone p2: owl flamingo hummingbird macaw
  deck: white_pelican
  discard: eagle
  active p0
end
"""

ACTIONS = [
    ("p0 draws", A.Draw(0)),
    ("p1 takes discard into 2", A.TakeDiscard(1, 2)),
    ("p0 keeps into 3", A.Keep(0, 3)),
    ("p0 discards", A.Discard(0)),
    ("p1 plucks p0.2", A.Pluck(1, ((0, 2),))),
    ("p1 plucks p0.2 then p2.1", A.Pluck(1, ((0, 2), (2, 1)))),
    ("simultaneously p1 plucks p0.2, p2 plucks p2.1",
     A.SimultaneousPlucks((A.Pluck(1, ((0, 2),)), A.Pluck(2, ((2, 1),))))),
    ("nobody plucks", A.CloseWindow()),
    ("p1 gives 3", A.Gift(1, 3)),
    ("p1 places into 5", A.Place(1, 5)),
    ("p0 peeks at p1.2", peek.PeekAt(0, (1, 2))),
    ("p0 shows p1.2", show.ShowCard(0, (1, 2))),
    ("p0 swaps p1.2 with p2.1", blind_swap.BlindSwap(0, (1, 2), (2, 1))),
    ("p0 looks at p1.2 and p2.1", peek_two_swap.MacawLook(0, (1, 2), (2, 1))),
    ("p0 swaps them", peek_two_swap.MacawSwap(0, True)),
    ("p0 leaves them", peek_two_swap.MacawSwap(0, False)),
    ("p0 adds to p2", add_to_rival.TocoAdd(0, 2)),
    ("p0 replaces p0.3 with drawn 1, p2.1 with drawn 2", double_replace.ShoebillReplace(0, (0, 3), (1, 2, 1))),
    ("p0 replaces p2.1 with drawn 1", double_replace.ShoebillReplace(0, None, (0, 2, 1))),
    ("p0 replaces nothing", double_replace.ShoebillReplace(0, None, None)),
    ("p0 calls bao", A.CallBao(0)),
    ("p0 ends turn", A.EndTurn(0)),
    ("p0 peeks at slots 1 3", A.InitialPeek(0, (1, 3))),
    ("first player p2", A.ChooseFirstPlayer(2)),
]


@pytest.mark.parametrize(("line", "action"), ACTIONS, ids=[a[0] for a in ACTIONS])
def test_every_decision_parses_to_its_action(line, action):
    """The DSL builds the wire form itself; it must be exactly what the reference's action writes."""
    (stmt,) = parse_script(line)
    assert stmt == Act(1, action.to_json())


def test_reject_shuffle_and_new_game():
    stmts = parse_script("new game 3 players\nshuffle: owl heron\nreject shielded: p1 plucks p0.1\n")
    assert stmts == [NewGame(1, 3), Act(2, ShuffleSpecies(("owl", "heron"))),
                     Reject(3, "shielded", A.Pluck(1, ((0, 1),)).to_json())]


CHECKS = [
    ("p1.2 is owl", Check("slot", {"target": [1, 2], "species": "owl"})),
    ("p1.2 empty", Check("slot", {"target": [1, 2], "species": None})),
    ("p1 has 3 cards", Check("card_count", {"player": 1, "count": 3})),
    ("p1 has 5 slots", Check("slot_count", {"player": 1, "count": 5})),
    ("deck has 10 cards", Check("deck_count", {"count": 10})),
    ("deck top is owl", Check("deck_top", {"species": "owl"})),
    ("top is owl", Check("top", {"species": "owl"})),
    ("discard is: eagle owl", Check("discard", {"species": ["eagle", "owl"]})),
    ("discard has 3 cards", Check("discard_count", {"count": 3})),
    ("under has 2 cards", Check("under_count", {"count": 2})),
    ("pending window p1 p2", Check("pending", {"kind": "window", "players": [1, 2]})),
    ("event power for p0 clause 6.10.3",
     Check("event", {"kind": "power", "present": True, "player": 0, "clause": "6.10.3"})),
    ("no event power", Check("event", {"kind": "power", "present": False})),
    ("round score p0 -3", Check("round_score", {"player": 0, "score": -3})),
    ("score p0 30", Check("score", {"player": 0, "score": 30})),
    ("first player p2", Check("first", {"player": 2})),
    ("winner p1", Check("winner", {"player": 1})),
    ("p2 sees p1.1 as owl", Check("view", {"viewer": 2, "target": [1, 1], "species": "owl"})),
    ("p2 sees p1.1 hidden", Check("view", {"viewer": 2, "target": [1, 1], "species": None})),
    ("shield active", Check("shield", {"state": "active"})),
    ("bao p0", Check("bao", {"player": 0})),
    ("recycles 1", Check("recycles", {"count": 1})),
    ("final phase", Check("final_phase", {"value": True})),
    ("holds owl", Check("drawn", {"species": "owl"})),
]


@pytest.mark.parametrize(("text", "check"), CHECKS, ids=[c[0] for c in CHECKS])
def test_every_expectation_parses_to_its_check(text, check):
    assert parse_script(f"expect {text}") == [Expect(1, check)]


def test_setup_items_become_position_options():
    (stmt,) = parse_script(SETUP.replace("end", "  p0 knows p1.1 p2.4\n  scores 3 -2 7\n  bao p1\n"
                                          "  shield active\n  recycles 1\n  last turns p2\n  threshold 40\nend"))
    assert isinstance(stmt, Setup)
    assert stmt.options["zones"][0] == ["owl", "heron", None, "eagle"]
    assert stmt.options["known"] == {0: [(1, 1), (2, 4)]}
    assert stmt.options["scores"] == [3, -2, 7]
    assert (stmt.options["bao"], stmt.options["shield"], stmt.options["threshold"]) == (1, "active", 40)


def _write(tmp_path, name: str, script: str, clauses: str = '["3.3.1"]', extra: str = "") -> str:
    body = textwrap.indent(script, "  ")
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"id: {name}\ntitle: t\nclauses: {clauses}\n{extra}script: |\n{body}", encoding="utf-8")
    return str(path)


def test_syntax_error_names_file_line_column_with_a_caret(tmp_path):
    path = _write(tmp_path, "typo", SETUP + "p0 draws\np0 plucks p0.2 than p1.1\n")
    with pytest.raises(ScenarioError) as err:
        load_scenario(path)
    # the script starts on file line 5; its line 10 is file line 14; 'than' is at script column 16, file column 18
    text = str(err.value)
    assert text.startswith(f"{path}:14:18: unexpected 'than'; expected ")
    assert "'then'" in text
    assert text.endswith("    p0 plucks p0.2 than p1.1\n" + " " * (4 + 17) + "^")


def test_unknown_clause_names_the_nearest_ids(tmp_path):
    path = _write(tmp_path, "bad-clause", SETUP, clauses='["3.3.1", "3.5.55"]')
    with pytest.raises(ScenarioError, match=r":3:20: unknown clause '3\.5\.55'; nearest: 3\.5\.5"):
        load_scenario(path)


@pytest.mark.parametrize(("extra", "message"), [
    ("faq: [FAQ-99]\n", r"unknown FAQ entry 'FAQ-99'"),
    ("rulings: [R-99]\n", r"unknown ruling 'R-99'"),
    ("author: me\n", r"unknown field 'author'"),
])
def test_bad_metadata_is_reported(tmp_path, extra, message):
    with pytest.raises(ScenarioError, match=message):
        load_scenario(_write(tmp_path, "meta", SETUP, extra=extra))


def test_id_must_be_the_file_name(tmp_path):
    path = tmp_path / "name.yaml"
    path.write_text(f"id: other\ntitle: t\nclauses: ['3.3.1']\nscript: |\n{textwrap.indent(SETUP, '  ')}")
    with pytest.raises(ScenarioError, match=r"name.yaml:1:5: the id 'other' must equal the file name 'name'"):
        load_scenario(path)


def test_impossible_setup_is_reported_at_its_line(tmp_path):
    path = _write(tmp_path, "six-toucans", SETUP.replace("zone p2: owl", "zone p2: golden_toucan golden_toucan"))
    with pytest.raises(ScenarioError, match=r":5:3: impossible setup: zone p2 slot 2: the catalog has no more "
                                            "'golden_toucan'"):
        load_scenario(path)


def test_a_wrong_expectation_fails_with_line_expected_actual_and_the_clause_text(tmp_path):
    path = _write(tmp_path, "wrong", SETUP + "p0 draws\np0 discards\nexpect top is owl\n")
    scenario = load_scenario(path)
    outcome = run_scenario(scenario, ReferenceEngine())
    assert (outcome.status, outcome.line, outcome.expected, outcome.actual) == ("fail", 15, "owl", "white_pelican")
    text = describe_failure(scenario, outcome, load_spec())
    assert f"{path}:15" in text and "expect top is owl" in text
    assert load_spec().clause("3.3.1").en in text


@pytest.mark.parametrize(("line", "expected"), [
    ("reject wrong_decision: p0 keeps into 1", "pass"),          # keep before drawing: refused
    ("reject shielded: p0 keeps into 1", "fail"),                # refused, but with another code
    ("reject wrong_decision: p0 draws", "fail"),                 # drawing is legal: not refused
])
def test_reject_steps(tmp_path, line, expected):
    outcome = run_scenario(load_scenario(_write(tmp_path, "rej", SETUP + line + "\n")), ReferenceEngine())
    assert outcome.status == expected


def test_every_scenario_compiles_to_steps_matching_the_schema():
    schemas = {n: json.loads((SPEC_ROOT / "schemas" / n).read_text()) for n in ("steps.schema.json",
                                                                             "state.schema.json")}
    registry = Registry().with_resources(
        (f"https://baobei.invalid/schemas/{n}", Resource.from_contents(s)) for n, s in schemas.items()
    )
    validator = jsonschema.Draft202012Validator(schemas["steps.schema.json"], registry=registry)
    files = scenario_files([SPEC_ROOT.parent / "scenarios"])
    assert files
    for path in files:
        validator.validate(load_scenario(path).steps)


def test_lint_prints_the_error_with_a_caret(tmp_path, capsys):
    path = _write(tmp_path, "typo", SETUP + "p0 drawz\n")
    assert main(["lint", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert f"{path}:13:6: unexpected 'drawz'" in err and "    p0 drawz\n" + " " * 9 + "^" in err


def test_explain_prints_events_with_their_rules(tmp_path, capsys):
    path = _write(tmp_path, "ex", SETUP + "p0 draws\np0 discards\n")
    assert main(["explain", path]) == 0
    out = capsys.readouterr().out
    assert "discarded [2.7.4]" in out and load_spec().clause("2.7.4").en in out


def test_raw_json_that_is_no_json_is_an_error_at_its_column(tmp_path):
    path = _write(tmp_path, "raw", SETUP + 'reject malformed_action: raw {"type": draw}\n')
    with pytest.raises(ScenarioError) as err:
        load_scenario(path)
    # at "draw" (the file indents the script by 2)
    assert (err.value.line, err.value.column) == (13, 41) and "not JSON" in err.value.message


def test_raw_json_is_sent_as_written_and_judged_as_json(tmp_path):
    script = SETUP + ('reject malformed_action: raw {"type": "draw"}\nexpect state pending.kind is "turn"\n'
                      'p0 draws\nexpect events are [{"kind": "drew", "clause": "2.7.1", "player": 0}]\n')
    assert run_scenario(load_scenario(_write(tmp_path, "raw", script)), ReferenceEngine()).status == "pass"
    wrong = script.replace('"player": 0}]', '"player": 1}]')
    outcome = run_scenario(load_scenario(_write(tmp_path, "raw", wrong)), ReferenceEngine())
    assert (outcome.status, outcome.line) == ("fail", 16)


def test_a_raw_setup_is_checked_by_the_one_validator_and_sent_as_written(tmp_path):
    state = load_scenario(_write(tmp_path, "blk", SETUP + "p0 draws\n")).steps[0]["state"]
    raw = load_scenario(_write(tmp_path, "raw", f"setup raw {json.dumps(state)}\np0 draws\nexpect p0 has 3 cards\n"))
    assert raw.steps[0] == {"op": "setup", "line": 1, "state": state}
    assert run_scenario(raw, ReferenceEngine()).status == "pass"
    with pytest.raises(ScenarioError) as err:
        load_scenario(_write(tmp_path, "bad", f"setup raw {json.dumps({**state, 'shield': 'up'})}\np0 draws\n"))
    assert err.value.line == 5 and "impossible setup: shield" in err.value.message
    with pytest.raises(ScenarioError) as err:
        load_scenario(_write(tmp_path, "far", f"setup raw {json.dumps(state)}\nexpect p7 has 3 cards\n"))
    assert "p7 is not at the table: the scenario seats 3 players" in err.value.message
