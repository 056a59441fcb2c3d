"""What a position of the game is, in one place: the setup builder and the validator of a canonical state.

Both read only the spec (the catalog and the rule parameters, as :class:`PositionRules`), so the scenario
compiler, which must not ask any rules engine what a table is, and the reference use the very same code.

    >>> from baobei_spec import default_spec
    >>> from baobei_spec.position import PositionRules, build_position, check_position
    >>> rules = PositionRules.from_spec(default_spec())
    >>> state = build_position({"zones": {0: ["owl", None], 1: ["heron", "eagle"]}}, rules)
    >>> state["zones"]["0"], state["pending"]["kind"]
    ([{'card': 'owl-1', 'species': 'owl'}, None], 'turn')
    >>> try:
    ...     check_position({**state, "shield": "active"}, rules)
    ... except MalformedState as exc:
    ...     print(exc)
    shield: is 'active' without a BAO caller: the shield is the caller's (4.2.1)
"""

from baobei_spec.position.build import SetupOptions, build_position
from baobei_spec.position.check import check_position
from baobei_spec.position.errors import MalformedState
from baobei_spec.position.reach import Unreachable, check_reachable
from baobei_spec.position.rules import PositionRules

__all__ = ["MalformedState", "PositionRules", "SetupOptions", "Unreachable", "build_position", "check_position",
           "check_reachable"]
