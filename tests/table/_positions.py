"""Positions for the table's tests, built from setup options as the scenario compiler builds them."""

from __future__ import annotations

from baobei_spec import default_spec
from baobei_spec.position import PositionRules, build_position


def setup_state(options: dict) -> dict:
    """The canonical state of a scenario's setup options (zones by species, deck, discard, ...)."""
    return build_position(options, PositionRules.from_spec(default_spec()))
