"""The one validator of a canonical state: ``check_position`` raises MalformedState (the field's path and why)
unless the state is a position of the game.

Called by the setup builder (so a scenario's ``setup`` block that names no position is a lint error), by the
reference's ``Game.from_json`` (and so by ``baobei-ref serve``'s ``setup``), and held to
``spec/schemas/state.schema.json`` by tests. It checks, in this order: every field's type and range
(shape.py), the pending decision's data (decision.py), every card of the catalog in exactly one place
(table.py), the counts and flags against the moment of the round and the scores against the seats (phase.py),
who knows which card and what a power moved (knowledge.py), the decision against the table (decision.py) and
what is still owed (owed.py). A state that passes is one the reference continues from exactly: ``to_json()``
of the game it sets up gives the state back.
"""

from __future__ import annotations

from typing import Any

from baobei_spec.position.decision import check_decision, check_decision_shape
from baobei_spec.position.knowledge import check_knowledge
from baobei_spec.position.owed import check_owed
from baobei_spec.position.phase import check_phase, check_scores
from baobei_spec.position.rules import PositionRules
from baobei_spec.position.shape import check_shape
from baobei_spec.position.table import Table, locate


def check_position(state: Any, rules: PositionRules) -> None:
    """Raise MalformedState unless ``state`` is a position of the game under ``rules``."""
    frame = check_shape(state, rules)
    table = Table(state, rules)
    check_decision_shape(table, frame)
    locate(table)
    check_phase(table)
    check_scores(table)
    check_knowledge(table)
    check_decision(table)
    check_owed(table)
