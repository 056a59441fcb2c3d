"""The canonical state always matches its JSON Schema in spec/schemas/."""

from __future__ import annotations

import json
import random

import jsonschema
import pytest

from baobei_ref import Game
from baobei_ref.playout import random_play
from baobei_spec import SPEC_ROOT, default_spec

SCHEMA = json.loads((SPEC_ROOT / "schemas" / "state.schema.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("seed", range(20))
def test_every_state_of_a_random_game_matches_the_schema(seed):
    validator = jsonschema.Draft202012Validator(SCHEMA)
    g = Game(players=2 + seed % 5)
    validator.validate(g.to_json())
    for _ in random_play(g, random.Random(seed), max_actions=400):
        validator.validate(g.to_json())


def test_the_schema_names_every_decision_kind():
    assert SCHEMA["properties"]["pending"]["properties"]["kind"]["enum"] == list(default_spec().vocabulary.decisions)


def test_the_schema_rejects_a_broken_state():
    state = Game(players=3).to_json()
    state["shield"] = "half"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(state, SCHEMA)
