"""The scenario loader refuses a setup no game reaches (``baobei_spec.position.reach``), at the item's file, line and
column and with the rulebook lines of the rule it breaks, unless the setup says ``unreachable: "why"``."""

from __future__ import annotations

import re

import pytest

from baobei_conform.cli.main import main
from baobei_conform.dsl.errors import ScenarioError
from baobei_conform.suite.scenario import load_scenario
from baobei_spec import default_spec
from baobei_spec.position import PositionRules, Unreachable, build_position, check_reachable

RULES = PositionRules.from_spec(default_spec())
HEAD = 'id: {id}\ntitle: t\nclauses: ["2.1.2"]\nscript: |\n  setup\n'  # the setup's items start at file line 6


def _scenario(tmp_path, items: str, sid: str = "x") -> str:
    path = tmp_path / f"{sid}.yaml"
    body = "".join(f"    {line}\n" for line in items.strip().splitlines())
    path.write_text(HEAD.format(id=sid) + body + "  end\n  expect deck has 1 cards\n", encoding="utf-8")
    return str(path)


def _refusal(path: str) -> ScenarioError:
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    return caught.value


def test_a_two_player_zone_of_four_slots_is_refused_at_its_line_and_column(tmp_path):
    path = _scenario(tmp_path, "zone p0: owl heron eagle kingfisher _\nzone p1: owl heron eagle kingfisher")
    error = _refusal(path)
    assert (error.file, error.line, error.column) == (path, 7, 5)
    assert str(error).startswith(f"{path}:7:5: unreachable setup: zones.1: player 1 has 4 slot(s), but a round of 2 "
                                 "players deals 5 cards each")
    assert "(rulebook lines 13, 14, 24, 356)" in error.message


def test_a_three_player_zone_of_three_slots_needs_its_hole(tmp_path):
    zones = "zone p0: owl heron eagle kingfisher\nzone p1: owl heron eagle{}\nzone p2: owl heron eagle kingfisher"
    error = _refusal(_scenario(tmp_path, zones.format("")))
    assert (error.line, error.column) == (7, 5)
    assert error.message.startswith("unreachable setup: zones.1: player 1 has 3 slot(s), but a round of 3 players "
                                    "deals 4 cards each")
    load_scenario(_scenario(tmp_path, zones.format(" _"), "y"))  # the removed card written as a hole: reachable


def test_a_round_starting_with_a_score_at_the_threshold_is_refused(tmp_path):
    zones = "zone p0: owl heron eagle kingfisher _\nzone p1: owl heron eagle kingfisher _\nround 4\n"
    error = _refusal(_scenario(tmp_path, zones + "threshold 40\nscores 12 40"))
    assert (error.line, error.column) == (10, 5)
    assert error.message.startswith("unreachable setup: scores.1: player 1 has 40, at or over the threshold 40 for "
                                    "2 players: the game would have ended")
    assert "(rulebook line 198)" in error.message
    load_scenario(_scenario(tmp_path, zones + "threshold 40\nscores 12 39", "y"))


def test_unreachable_says_why_and_the_scenario_keeps_the_reason(tmp_path):
    zones = "zone p0: owl heron eagle kingfisher _\nzone p1: owl heron eagle kingfisher\n"
    scenario = load_scenario(_scenario(tmp_path, zones + 'unreachable: "a zone of 4: # the deal of 3.4"'))
    assert scenario.unreachable == ("a zone of 4: # the deal of 3.4",)
    error = _refusal(_scenario(tmp_path, zones + 'unreachable: " "', "y"))
    assert (error.line, error.column, error.message) == (8, 5, "unreachable: says why the position must be one no "
                                                              "game reaches")
    assert load_scenario(_scenario(tmp_path, zones.replace("kingfisher\n", "kingfisher _\n"), "z")).unreachable == ()


PEEKS = {0: [(0, 1), (0, 2)], 1: [(1, 4), (1, 5)]}  # the initial peek: two own cards each (line 16)


def _state(**options) -> dict:
    return build_position({"zones": {0: ["owl"] * 5, 1: ["heron"] * 5}, "known": PEEKS, **options}, RULES)


def _unreachable(state: dict) -> str:
    with pytest.raises(Unreachable) as caught:
        check_reachable(state, RULES)
    return str(caught.value)


def test_scores_are_those_of_the_rounds_already_scored():
    assert re.match(r"scores\.1: round 1 starts every cumulative score at 0.*\(rulebook lines 9, 196\)$",
                    _unreachable(_state(scores=[0, 3])))
    check_reachable(_state(scores=[0, 3], round=2), RULES)
    assert _unreachable(_state(scores=[-6, 3], round=2)).startswith("scores.0: player 0 has -6, but 1 scored round(s) "
                                                                    "give at least -5")
    check_reachable(_state(scores=[-10, 3], round=3), RULES)
    assert _unreachable(_state(scores=[-5, -1], round=2)).startswith("scores: the scores add up to -6")
    assert _unreachable(_state(scores=[99, 100], round=9)).startswith("scores.1: player 1 has 100, at or over the "
                                                                      "threshold 100 for 2 players")


def test_the_turn_follows_the_first_player_clockwise_and_turn_one_is_the_deal():
    dealt = build_position({"zones": {p: ["owl", "heron", "eagle", "sparrow"] for p in range(3)}, "active": 1,
                            "known": {p: [(p, 1), (p, 4)] for p in range(3)}}, RULES)
    assert (dealt["turn"], dealt["first"]) == (1, 1)  # the table the deal leaves: the round's first turn
    check_reachable(dealt, RULES)
    played = _state(discard=["eagle", "sparrow"])
    assert played["turn"] == 3  # the active player's next turn: a discard beyond the first card is history
    check_reachable(played, RULES)
    assert _unreachable({**played, "turn": 2}).startswith("active: turn 2 of a round that player 0 started is "
                                                          "player 1's")
    assert _unreachable({**played, "turn": 1}).startswith("turn: is the round's first, but the table is not the one")
    recycled = _state(recycles=1)
    assert recycled["turn"] > len(RULES.cards) - 11  # enough turns, one draw each, to empty the dealt deck


def test_at_the_first_turn_each_player_knows_exactly_the_initial_peek_of_their_own_cards():
    check_reachable(_state(), RULES)
    assert re.match(r"p1 knows: player 1 knows 1 of their own cards at the round's first turn: the initial peek looks "
                    r"at exactly 2 .*\(rulebook line 16\)$", _unreachable(_state(known={**PEEKS, 1: [(1, 4)]})))
    assert _unreachable(_state(known={**PEEKS, 1: [(1, 1), (1, 4), (1, 5)]})).startswith("p1 knows: player 1 knows 3")
    # a rival's card known: a later turn (turns that only took the discard leave the table as dealt, line 51)
    later = _state(known={**PEEKS, 1: [(0, 3), (1, 4), (1, 5)]})
    assert later["turn"] == 3
    check_reachable(later, RULES)
    assert _unreachable({**later, "turn": 1}).startswith("p1 knows: player 1 knows a card of player 0 at the round's "
                                                         "first turn")
    check_reachable(_state(known={**PEEKS, 1: [(0, 3), (1, 4), (1, 5)]}, discard=["white_pelican", "eagle"]), RULES)


def test_the_bao_caller_plays_no_other_turn_but_in_the_final_phase():
    assert _unreachable(_state(bao=0, last_turns=[1])).startswith("bao: player 0 called BAO and plays no other "
                                                                  "normal turn")
    check_reachable(_state(bao=1), RULES)


def test_the_spec_summary_counts_the_scenarios_that_say_unreachable(capsys):
    assert main(["spec"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^scenarios with an unreachable setup: \d+ of \d+$", out, re.M), out
