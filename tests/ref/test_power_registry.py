"""The power registry (baobei_ref.powers): one module per power of the catalog, and everything the
game knows of a power comes from that module's record."""

from __future__ import annotations

from dataclasses import fields

from baobei_ref import game
from baobei_ref.actions import ACTIONS
from baobei_ref.powers import POWERS
from baobei_spec import default_spec


def test_every_power_of_the_catalog_has_its_module_and_no_module_is_unused():
    catalog = {sp.power for sp in default_spec().species_list if sp.power}
    assert set(POWERS) == catalog
    assert all(power.name == name for name, power in POWERS.items())


def test_a_powers_decisions_actions_and_steps_are_in_the_vocabulary_and_the_game_tables():
    vocabulary = default_spec().vocabulary
    for power in POWERS.values():
        answered = {kind for kind, _ in power.answers}
        assert power.decision in answered, power.name
        assert answered <= set(vocabulary.decisions) and set(power.legal) == answered, power.name
        for name, cls in power.actions.items():
            assert ACTIONS[name] is cls
            assert [f.name for f in fields(cls)] == list(vocabulary.actions[name]), name
            assert any(name in vocabulary.decisions[kind] for kind in answered), name
        assert all(game.ANSWERS[key] == answer for key, answer in power.answers.items())
        assert all(game.LEGAL[kind] is legal for kind, legal in power.legal.items())
        assert all(game.STEPS[name] is step for name, step in power.steps.items())
