"""The one statement <-> action table (``dsl/statements.py``): every action type of the vocabulary is written as a
statement and read back as the same action, and every action statement of the grammar has its form."""

from __future__ import annotations

import re

import pytest

from baobei_conform.dsl.ast import Act, ShuffleSpecies
from baobei_conform.dsl.parse import GRAMMAR, parse_script
from baobei_conform.dsl.statements import BY_RULE, FORMS, statement
from baobei_conform.fuzz.dsl_text import action_text
from baobei_ref.actions import ACTIONS, action_from_json
from baobei_spec import default_spec

VOCABULARY = default_spec().vocabulary.actions
TABLE = "setup\n" + "".join(f"  zone p{p}: owl heron eagle sparrow\n" for p in range(6)) + "end\n"
PARTS = {"pluck", "simultaneous", "shoebill", "shoebill_nothing", "shuffle"}  # statements made of parts
EXAMPLES = [  # at least one of every action type; every form; every shape of the composite ones
    {"type": "choose_first_player", "first": 2},
    {"type": "initial_peek", "player": 1, "slots": [1, 3]},
    {"type": "draw", "player": 0},
    {"type": "take_discard", "player": 0, "slot": 3},
    {"type": "keep", "player": 5, "slot": 2},
    {"type": "discard", "player": 0},
    {"type": "pluck", "player": 2, "targets": [[0, 4]]},
    {"type": "pluck", "player": 2, "targets": [[0, 4], [2, 1]]},
    {"type": "simultaneous_plucks", "claims": [{"player": 1, "targets": [[0, 2]]},
                                               {"player": 2, "targets": [[2, 1], [3, 3]]}]},
    {"type": "close_window"},
    {"type": "gift", "player": 1, "slot": 3},
    {"type": "place", "player": 1, "slot": 5},
    {"type": "peek_at", "player": 0, "target": [1, 2]},
    {"type": "show_card", "player": 0, "target": [2, 1]},
    {"type": "blind_swap", "player": 0, "first": [0, 4], "second": [1, 3]},
    {"type": "macaw_look", "player": 0, "first": [1, 1], "second": [2, 3]},
    {"type": "macaw_swap", "player": 0, "swap": True},
    {"type": "macaw_swap", "player": 3, "swap": False},
    {"type": "toco_add", "player": 0, "rival": 2},
    {"type": "shoebill_replace", "player": 0, "own": [1, 2], "rival": [0, 1, 4]},
    {"type": "shoebill_replace", "player": 0, "own": None, "rival": [0, 2, 3]},
    {"type": "shoebill_replace", "player": 4, "own": [0, 1], "rival": None},
    {"type": "shoebill_replace", "player": 0, "own": None, "rival": None},
    {"type": "call_bao", "player": 0},
    {"type": "end_turn", "player": 0},
]


def _read(text: str):
    *_, act = parse_script(TABLE + text + "\n")
    assert isinstance(act, Act)
    return act.action


@pytest.mark.parametrize("wire", EXAMPLES, ids=lambda a: a["type"])
def test_every_action_is_written_and_read_back_as_itself(wire):
    assert _read(statement(wire, str)) == wire


def test_a_shuffle_is_written_by_species_and_read_as_species():
    wire = {"type": "shuffle", "order": ["owl-3", "heron-2", "cuckoo-1"]}
    text = statement(wire, lambda card: card.rsplit("-", 1)[0])
    assert text == "shuffle: owl heron cuckoo" and _read(text) == ShuffleSpecies(("owl", "heron", "cuckoo"))


def test_the_examples_cover_every_action_type_and_every_form():
    assert {a["type"] for a in EXAMPLES} | {"shuffle"} == set(VOCABULARY)
    for form in FORMS:
        assert any(form.write(a) is not None for a in EXAMPLES), form.rule


def test_every_action_statement_of_the_grammar_has_its_form():
    grammar = GRAMMAR.read_text(encoding="utf-8")
    alternatives = re.search(r"^_action:((?:.|\n(?=\s+\|))*)", grammar, re.M).group(1)
    rules = {name.strip() for name in alternatives.split("|")}
    assert rules == (set(BY_RULE) - {"claim"}) | PARTS
    assert {form.kind for form in FORMS} | {"simultaneous_plucks", "shoebill_replace", "shuffle"} == set(VOCABULARY)


def test_every_reference_action_class_round_trips_through_the_fuzzers_text():
    """The fuzzer writes the reference's actions (its reproducers): each one reads back as the same action."""
    assert set(ACTIONS) == set(VOCABULARY)
    for wire in EXAMPLES:
        act = action_from_json(wire)
        assert action_from_json(_read(action_text(act, str))) == act


def test_a_form_that_fixes_a_field_writes_only_actions_with_that_value():
    swaps = BY_RULE["macaw_swap"]
    assert swaps.write({"type": "macaw_swap", "player": 1, "swap": False}) is None
    assert swaps.write({"type": "macaw_swap", "player": 1, "swap": True}) == "p1 swaps them"
    with pytest.raises(ValueError, match="no DSL statement"):
        statement({"type": "teleport", "player": 0}, str)
