"""The BAO BEI reference interpreter: every rule of the rulebook, every event cited by clause.

One object per concept: :class:`Game` (driven one :class:`Action` at a time), its
:class:`State`, the pending :class:`Decision`, and the :class:`Event` list each action returns.
See ``docs/reference.md`` for a walk-through.
"""

from baobei_ref.actions import *  # noqa: F403 - every action class is public API
from baobei_ref.actions import Action, action_from_json
from baobei_ref.cards import Catalog
from baobei_ref.errors import RuleError
from baobei_ref.game import Game, default_catalog, default_params
from baobei_ref.playout import CHANCE
from baobei_ref.readings import unknown_readings
from baobei_ref.state import Decision, Event, State

# The reference's public surface, with the actions' module: what the conformance tool may import from it
# (tests/test_architecture.py names the few modules that need more, and why).
__all__ = ["CHANCE", "Action", "Catalog", "Decision", "Event", "Game", "RuleError", "State", "action_from_json",
           "default_catalog", "default_params", "unknown_readings"]
