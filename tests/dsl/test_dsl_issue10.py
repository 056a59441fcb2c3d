"""DSL constructs of issue 10: event fields, negative table checks, the cards under the pile, rule-parameter
overrides in a setup. Each check holds on the reference and fails when the table says otherwise."""

from __future__ import annotations

import textwrap

import pytest

from baobei_conform.dsl.ast import Check
from baobei_conform.dsl.errors import ScenarioError
from baobei_conform.dsl.parse import parse_script
from baobei_conform.engines.reference import ReferenceEngine
from baobei_conform.runner.run import StepFailed, run_scenario, run_steps
from baobei_conform.suite.scenario import load_scenario

SETUP = """\
setup
  zone p0: owl heron _ eagle _
  zone p1: white_pelican sparrow swallow kingfisher _
  deck: owl
  discard: eagle
  active p0
end
"""


def _run(tmp_path, script: str, setup: str = SETUP):
    path = tmp_path / "s.yaml"
    path.write_text('id: s\ntitle: t\nclauses: ["3.3.1"]\nscript: |\n' + textwrap.indent(setup + script, "  "),
                    encoding="utf-8")
    return run_scenario(load_scenario(path), ReferenceEngine())


@pytest.mark.parametrize(("text", "check"), [
    ("expect event removed for p0 with slot 1, card owl, by p0",
     Check("event", {"kind": "removed", "present": True, "player": 0, "fields": {"slot": 1, "card": "owl", "by": 0}})),
    ("expect no event gift with rival p1",
     Check("event", {"kind": "gift", "present": False, "fields": {"rival": 1}})),
    ("expect event peeked with target p1.2", Check("event", {"kind": "peeked", "present": True,
                                                             "fields": {"target": [1, 2]}})),
    ("expect no final phase", Check("final_phase", {"value": False})),
    ("expect no bao", Check("bao", {"player": None})),
    ("expect under is: shoebill owl", Check("under", {"species": ["shoebill", "owl"]})),
    ("expect under is:", Check("under", {"species": []})),
])
def test_new_expectations_parse(text, check):
    assert parse_script(SETUP + text)[-1].check == check


def test_event_fields_hold_and_fail(tmp_path):
    good = "p0 draws\np0 plucks p0.1\nexpect event removed for p0 with slot 1, card owl, by p0\n" \
           "expect event pluck with success true, reference owl\nexpect no event removed with slot 2\n"
    assert _run(tmp_path, good).status == "pass"
    for wrong in ("with slot 2", "with card heron", "with by p1", "with success false"):
        outcome = _run(tmp_path, f"p0 draws\np0 plucks p0.1\nexpect event removed {wrong}\n".replace(
            "removed with success", "pluck with success"))
        assert outcome.status == "fail", wrong
        assert "with" in outcome.expected
    assert _run(tmp_path, "p0 draws\np0 plucks p0.1\nexpect no event removed with card owl\n").status == "fail"
    with pytest.raises(ScenarioError, match="a 'removed' event has no field 'nothing'"):  # lint, before any run
        _run(tmp_path, "p0 draws\np0 plucks p0.1\nexpect event removed with nothing 1\n")


def test_negative_table_checks(tmp_path):
    assert _run(tmp_path, "expect no final phase\nexpect no bao\nexpect shield none\n").status == "pass"
    final = SETUP.replace("  active p0\n", "  active p0\n  recycles 2\n  final phase\n  last turns p1\n")
    outcome = _run(tmp_path, "expect no final phase\n", final)
    assert (outcome.status, outcome.expected, outcome.actual) == ("fail", "no final phase", "final phase")
    called = SETUP.replace("  active p0\n", "  active p0\n  bao p1\n")
    outcome = _run(tmp_path, "expect no bao\n", called)
    assert (outcome.status, outcome.expected, outcome.actual) == ("fail", "none", "p1")


def test_cards_under_the_pile(tmp_path):
    shoebill = SETUP.replace("  deck: owl\n", "  deck: heron swallow\n  holds shoebill\n")
    script = "p0 discards\nnobody plucks\np0 replaces p0.1 with drawn 1, p1.2 with drawn 2\n"
    assert _run(tmp_path, script + "expect under is: owl sparrow\n", shoebill).status == "pass"  # slid in that order
    outcome = _run(tmp_path, script + "expect under is: owl heron\n", shoebill)
    assert (outcome.status, outcome.actual) == ("fail", "owl sparrow")
    outcome = _run(tmp_path, script + "expect under is: sparrow owl\n", shoebill)  # the cards, in another order
    assert (outcome.status, outcome.expected, outcome.actual) == ("fail", "sparrow owl", "owl sparrow")


def test_rule_and_value_overrides(tmp_path):
    ending = """\
setup
  zone p0: owl _ _ _ _
  zone p1: eagle _ _ _ _
  deck: swallow
  value owl 30
  value eagle 1
  threshold 200
  rule bao_failure_minimum 40
  active p0
end
"""
    script = "p0 draws\np0 discards\nnobody plucks\np0 calls bao\np1 draws\np1 discards\nnobody plucks\n"
    # the Owl is worth 30 and the Eagle 1 here: p0's BAO fails and scores max(2 x 30, 40) = 60
    assert _run(tmp_path, script + "expect round score p0 60\nexpect round score p1 1\n", ending).status == "pass"
    minimum = ending.replace("value owl 30", "value owl 10")
    assert _run(tmp_path, script + "expect round score p0 40\n", minimum).status == "pass"
    assert _run(tmp_path, script + "expect round score p0 10\n", ending).status == "fail"


def test_unknown_overrides_name_the_line(tmp_path):
    for bad, message in (("rule hand_sizes 4", "unknown rule parameter 'hand_sizes'"),
                         ("value dodo 3", "unknown species 'dodo'")):
        path = tmp_path / "bad.yaml"
        path.write_text('id: bad\ntitle: t\nclauses: ["3.3.1"]\nscript: |\n'
                        + textwrap.indent(SETUP.replace("  active p0\n", f"  active p0\n  {bad}\n"), "  "))
        with pytest.raises(ScenarioError, match=message) as err:
            load_scenario(path)
        assert str(err.value).startswith(f"{path}:11:")  # the script's line 7


def test_reject_new_game(tmp_path):
    from baobei_conform.dsl.ast import NewGame

    assert parse_script("reject malformed_action: new game 7 players\n") == [NewGame(1, 7, "malformed_action")]
    assert _run(tmp_path, "reject malformed_action: new game 7 players\nnew game 3 players\n", "").status == "pass"
    accepted = _run(tmp_path, "reject malformed_action: new game 3 players\n", "")
    assert (accepted.status, accepted.message, accepted.actual) == ("fail", "the new game must be refused", "accepted")
    wrong = _run(tmp_path, "reject not_your_decision: new game 1 players\n", "")
    assert (wrong.status, wrong.actual) == ("fail", "refused: malformed_action")
    with pytest.raises(ScenarioError, match="BAO BEI is played by 2 to 6 players"):  # a script cannot ask it
        _run(tmp_path, "new game 7 players\n", "")
    with pytest.raises(StepFailed, match="the new game was refused"):  # a compiled step can (dsl/bounds.py)
        run_steps([{"op": "new_game", "line": 1, "players": 7}], ReferenceEngine())


def test_round_table_after_the_last_turn(tmp_path):
    bao_round = """\
setup
  zone p0: owl _ heron _ _
  zone p1: eagle sparrow _ _ _
  deck: swallow kingfisher
  bao p0
  active p1
end
"""
    assert parse_script(bao_round + "expect round table p0: owl _ heron _ _\n")[-1].check == Check(
        "round_table", {"player": 0, "species": ["owl", None, "heron", None, None]})
    script = "p1 draws\np1 keeps into 2\nnobody plucks\n"
    # the round is over and the next one waits for its deal: the zones are empty, the final table kept
    good = script + "expect pending deal\nexpect p1 has 0 cards\nexpect round table p0: owl _ heron _ _\n" \
                    "expect round table p1: eagle swallow _ _ _\n"
    assert _run(tmp_path, good, bao_round).status == "pass"
    outcome = _run(tmp_path, script + "expect round table p1: eagle sparrow _ _ _\n", bao_round)
    assert (outcome.status, outcome.actual) == ("fail", "eagle swallow _ _ _")
    outcome = _run(tmp_path, "expect round table p0: owl _ heron _ _\n", bao_round)
    assert (outcome.status, outcome.actual) == ("fail", "no scored round")


def test_rule_hand_size_applies_to_the_next_deal(tmp_path):
    ending = """\
setup
  zone p0: owl _ _ _ _
  zone p1: eagle _ _ _ _
  deck: swallow
  recycles 2
  final phase
  last turns
  rule hand_size 3
  active p0
end
"""
    script = "p0 draws\np0 discards\nnobody plucks\nexpect pending deal\nshuffle:\n"
    assert _run(tmp_path, script + "expect p0 has 3 cards\nexpect p1 has 3 cards\n", ending).status == "pass"
    assert _run(tmp_path, script + "expect p0 has 5 cards\n", ending).status == "fail"
