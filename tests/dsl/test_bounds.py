"""Every number the grammar accepts is bounded (conformance/dsl/bounds.py): each out-of-bounds number is an error at
its line and column, found before the names and the table, and each bound's edge is still accepted."""

from __future__ import annotations

import pytest

from baobei_conform.dsl.errors import ScenarioError
from baobei_conform.dsl.parse import parse_script

TABLE = "setup\n  zone p0: owl heron\n  zone p1: eagle sparrow\n  deck: shoebill\nend\n"


@pytest.mark.parametrize(("script", "line", "column", "message"), [
    ("new game 100000000 players", 1, 10, "a game of 100000000 players: a script writes 1 to 7"),
    ("new game 0 players", 1, 10, "a game of 0 players"),
    ("new game 7 players", 1, 10, "BAO BEI is played by 2 to 6 players (2.1.1): a game of 7 can only be refused"),
    ("new game 1 players", 1, 10, "BAO BEI is played by 2 to 6 players"),
    ("reject malformed_action: new game 8 players", 1, 35, "a game of 8 players"),
    ("new game 2 players\np1234567890 draws", 2, 1, "a number of 10 digits (at most 9)"),
    ("new game 2 players\nexpect p0.1234567890 empty", 2, 8, "a number of 10 digits"),
    ("new game 2 players\nexpect score p0 " + "9" * 5000, 2, 17, "a number of 5000 digits"),
    ("new game 2 players\nreject illegal_target: p67 draws", 2, 24, "p67 cannot exist: no table seats more than 66"),
    ("new game 2 players\nreject illegal_target: p0 takes discard into 67", 2, 46, "slot 67 cannot exist"),
    ("new game 2 players\nreject illegal_target: p1 plucks p0.67", 2, 34, "slot 67 cannot exist"),
    ("new game 2 players\nexpect not legal p0 gives 67", 2, 27, "slot 67 cannot exist"),
    ("new game 2 players\nexpect deck has 67 cards", 2, 17, "a count of 67: nothing holds more than"),
    ("new game 2 players\nexpect recycles 67", 2, 17, "a count of 67"),
    (TABLE + "p0 draws\np0 replaces p0.1 with drawn 3", 7, 29, "drawn 3: the Shoebill draws 2 cards (6.9.2)"),
    (TABLE + "p0 draws\np0 replaces p0.1 with drawn 0", 7, 29, "drawn 0"),
    (TABLE.replace("end", "  round 0\nend"), 5, 9, "round 0: it counts from 1"),
    (TABLE.replace("end", "  threshold 0\nend"), 5, 13, "threshold 0: it counts from 1"),
    (TABLE.replace("end", "  recycles 67\nend"), 5, 12, "a count of 67"),
    (TABLE.replace("end", "  rule hand_size 33\nend"), 5, 18, "hand_size 33: the catalog's 66 cards deal 2 players "
                                                               "at most 32 each"),
    (TABLE.replace("end", "  rule decisive_hand_size 0\nend"), 5, 27, "decisive_hand_size 0"),
    (TABLE.replace("end", "  rule initial_peek 67\nend"), 5, 21, "initial_peek 67: from 0 to the catalog's 66"),
    (TABLE.replace("end", "  rule final_phase_recycle 0\nend"), 5, 28, "final_phase_recycle 0: from 1"),
    ("new game 2 players\nunder R-05 A\n  reject x: p0 takes discard into 67\nend", 3, 35, "slot 67 cannot exist"),
])
def test_a_number_out_of_its_bounds_is_an_error_at_its_column(script, line, column, message):
    with pytest.raises(ScenarioError) as caught:
        parse_script(script + "\n")
    assert (caught.value.line, caught.value.column) == (line, column), str(caught.value)
    assert caught.value.message.startswith(message), caught.value.message


@pytest.mark.parametrize("script", [
    "new game 2 players", "new game 6 players", "reject malformed_action: new game 1 players",
    "reject malformed_action: new game 7 players",
    "new game 2 players\nreject illegal_target: p66 draws\nreject illegal_target: p1 plucks p0.66",
    "new game 2 players\nreject illegal_target: p1 plucks p1.0\nexpect not legal p0 takes discard into 66",
    "new game 2 players\nexpect deck has 66 cards\nexpect recycles 0\nexpect score p0 -999999999",
    TABLE + "p0 draws\np0 replaces p0.1 with drawn 1, p1.1 with drawn 2",
    TABLE + "p0 draws\nreject illegal_target: p0 replaces p0.1 with drawn 3",
    TABLE.replace("end", "  round 1\n  threshold 1\n  recycles 66\n  rule hand_size 32\n  rule initial_peek 0\n"
                         "  rule final_phase_recycle 66\n  rule bao_failure_factor 999999999\n  scores -5 7\n"
                         "  value owl -999999999\nend"),
])
def test_each_bound_s_edge_is_accepted(script):
    assert parse_script(script + "\n")
