"""Lint checks every name a script uses: a typo is an error at file:line:col with the nearest valid
names, never a check that holds vacuously (and it is reported by `baobei-conform lint` and before a run)."""

from __future__ import annotations

import textwrap

import pytest

from baobei_conform.cli.main import main
from baobei_conform.dsl.errors import ScenarioError
from baobei_conform.dsl.parse import parse_script
from baobei_conform.harness.run import Selection, load_suite

# a hole in each zone: a table past the round's first turn, where no initial peek must be written
THREE = "setup\n" + "".join(f"  zone p{p}: owl heron eagle sparrow _\n" for p in range(3)) + "end\n"


def scenario_file(tmp_path, script: str, name: str = "typo"):
    path = tmp_path / f"{name}.yaml"
    body = textwrap.indent(script, "  ")
    path.write_text(f'id: {name}\ntitle: t\nclauses: ["3.5.5"]\nscript: |\n{body}', encoding="utf-8")
    return path


def problems(script: str) -> list[tuple[int, int, str]]:
    """(line, column, message) of every error lint finds in a script."""
    with pytest.raises(ScenarioError) as caught:
        parse_script(script)
    return [(e.line, e.column, e.message) for e in (caught.value, *caught.value.more)]


def test_acceptance_unknown_event_and_player_beyond_the_table(tmp_path, capsys):
    path = scenario_file(tmp_path, THREE + "p0 draws\nexpect no event penalti for p7\n")
    assert main(["lint", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"{path}:11:19: unknown event kind 'penalti'; nearest: penalty" in err
    assert f"{path}:11:31: p7 is not at the table: the scenario seats 3 players (p0-p2)" in err
    assert "Traceback" not in err


def test_a_misspelt_name_stops_the_run_before_anything_runs(tmp_path):
    scenario_file(tmp_path, THREE + "expect no event penalti\n", "typo")
    scenario_file(tmp_path, THREE + "expect no event penalty\n", "fine")
    kept, broken = load_suite([tmp_path], Selection())
    assert [s.id for s in kept] == ["fine"]
    assert [e.line for e in broken] == [10] and "nearest: penalty" in broken[0].message


@pytest.mark.parametrize("statement, column, message", [
    ("expect p1.2 is owel", 16, "unknown species 'owel'; nearest: owl"),
    ("expect holds shoebil", 14, "unknown species 'shoebil'; nearest: shoebill"),
    ("shuffle: heron owel", 16, "unknown species 'owel'"),
    ("expect event penalti for p1", 14, "unknown event kind 'penalti'; nearest: penalty"),
    ("expect pending windw p1", 16, "unknown decision kind 'windw'; nearest: window"),
    ("reject shieldd: p0 draws", 8, "unknown error code 'shieldd'; nearest: shielded"),
    ("expect event penalty for p1 clause 3.5.55", 36, "unknown clause '3.5.55'; nearest: 3.5.5"),
    ("expect no event draw_impossible for p1", 37, "a 'draw_impossible' event has no player (its fields: none)"),
    ("expect event round_scored for p1", 31, "a 'round_scored' event has no player (its fields: totals, scores)"),
    ("expect p3 has 2 cards", 8, "p3 is not at the table: the scenario seats 3 players (p0-p2)"),
    ("expect pending window p1 p3", 26, "p3 is not at the table"),
    ("p4 draws", 1, "p4 is not at the table"),
    ("p0 peeks at p5.1", 13, "p5.1: p5 is not at the table"),
    ("expect p1.0 empty", 8, "slot 0 of p1 cannot exist: slots number from 1"),
    ("expect p1.6 empty", 8, "slot 6 of p1 cannot exist: p1 has at most 5 slots at this point of the script"),
    ("p0 keeps into 0", 15, "slot 0 of p0 cannot exist: slots number from 1"),
    ("p0 takes discard into 9", 23, "slot 9 of p0 cannot exist"),
])
def test_each_kind_of_name_is_checked(statement, column, message):
    ((line, col, text),) = problems(THREE + statement)
    assert (line, col) == (6, column)
    assert text.startswith(message)


def test_setup_names_are_checked_against_its_own_zones():
    script = "setup\n  zone p0: owl heron\n  zone p1: owel _\n  active p2\n  p0 knows p1.3\nend\n"
    assert problems(script) == [
        (3, 12, "unknown species 'owel'; nearest: owl, shoebill"),
        (4, 10, "p2 is not at the table: the scenario seats 2 players (p0-p1)"),
        (5, 12, "slot 3 of p1 cannot exist: p1 has at most 2 slots in the setup"),
    ]


def test_slots_may_grow_one_per_action():
    """A card added to a full zone makes a new slot (2.5.4): slot 6 of a 4-slot zone after two actions."""
    parse_script(THREE + "p0 draws\np0 discards\nexpect p1.6 empty\n")
    assert problems(THREE + "p0 draws\nexpect p1.7 empty\n")[0][2].startswith("slot 7 of p1 cannot exist")


def test_new_game_seats_its_players():
    parse_script("new game 4 players\nfirst player p3\n")
    ((line, col, text),) = problems("new game 2 players\nfirst player p3\n")
    assert (line, col) == (2, 14) and text.startswith("p3 is not at the table: the scenario seats 2 players")


def test_a_reject_may_name_a_player_or_slot_that_does_not_exist():
    parse_script(THREE + "reject not_your_decision: p5 draws\nreject illegal_target: p0 peeks at p1.9\n")


def test_every_problem_of_a_script_is_reported_at_once():
    found = problems(THREE + "expect no event penalti for p7\nexpect top is owel\n")
    assert [(line, col) for line, col, _ in found] == [(6, 17), (6, 29), (7, 15)]
