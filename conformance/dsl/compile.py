"""AST -> JSON steps: the one vocabulary the runner executes and the engine protocol carries.

Steps (``spec/schemas/steps.schema.json``), each with the script ``line`` it comes from:
``setup`` (a canonical state, optional ``params`` overrides), ``new_game``, ``apply`` (an action),
``shuffle`` (a chance outcome by species, top first), ``reject`` (an action and the error code it
must get, the state unchanged), ``replay`` (the start and every action since sent again: the same state)
and ``expect`` (a check). Steps of an ``under R-05 A`` block carry
``"under": ["R-05", "A", ...]``: they run only when the engine follows one of those readings
(conformance/suite/variants.py).
"""

from __future__ import annotations

from functools import cache
from typing import Any, cast

from baobei_conform.dsl.ast import (
    Act,
    Expect,
    NewGame,
    Reject,
    Replay,
    Setup,
    SetupState,
    ShuffleSpecies,
    Statement,
    Under,
)
from baobei_conform.dsl.errors import ScenarioError
from baobei_conform.dsl.overrides import rule_overrides
from baobei_spec import default_spec
from baobei_spec.conditions import Json
from baobei_spec.position import (
    MalformedState,
    PositionRules,
    SetupOptions,
    Unreachable,
    build_position,
    check_position,
    check_reachable,
)

Step = dict[str, Any]  # a compiled step: JSON (spec/schemas/steps.schema.json)


@cache
def _spec_rules() -> PositionRules:
    return PositionRules.from_spec(default_spec())


def _rules(overrides: dict[str, Any]) -> PositionRules:
    """What the position may hold under the setup's rule-parameter and card-value overrides."""
    if not overrides:
        return _spec_rules()
    changed = {k: v for k, v in overrides.items() if k != "catalog"}
    values = {entry["species"]: entry["value"] for entry in overrides.get("catalog", ())}
    spec = default_spec()
    return PositionRules.from_spec(spec, spec.params.with_overrides(changed), values)


def _place(stmt: Setup, path: str) -> tuple[int, int]:
    """Where the item a state field's error is about is written (``zones.1[3]`` -> p1's zone line, ``p1 knows`` -> p1's
    first ``knows`` line; a field no item sets, the ``setup`` line)."""
    head = path.split("[", 1)[0]
    key = head if head.startswith("zones.") or head.endswith(" knows") else head.split(".", 1)[0]
    return stmt.places.get(key, (stmt.line, 1))


def _setup_step(stmt: Setup) -> Step:
    """The setup step: the position the block describes (``baobei_spec.position``, the one builder) and its overrides.
    A block that names no position of the game is an error at its item's line; so is one no game reaches, unless it
    says ``unreachable: "why"`` (the scenario lists those reasons: ``Scenario.unreachable``)."""
    options = dict(stmt.options)
    threshold = options.pop("threshold", None)
    unreachable = options.pop("unreachable", None)
    zones = options.get("zones") or {}
    overrides = rule_overrides(options.pop("values", {}), options.pop("rules", {}), len(zones))
    if threshold is not None:
        overrides["threshold"] = {str(len(zones)): threshold}
    rules = _rules(overrides)
    try:
        state = build_position(cast(SetupOptions, options), rules)
        if unreachable is None:
            check_reachable(state, rules)
    except Unreachable as exc:
        line, column = _place(stmt, exc.path)
        raise ScenarioError(f"unreachable setup: {exc}; a setup that must be so says 'unreachable: \"why\"'",
                            line=line, column=column) from None
    except MalformedState as exc:
        line, column = _place(stmt, exc.path)
        raise ScenarioError(f"impossible setup: {exc}", line=line, column=column) from None
    if unreachable is not None and not unreachable:
        line, column = stmt.places["unreachable"]
        raise ScenarioError("unreachable: says why the position must be one no game reaches", line=line,
                            column=column)
    step: Step = {"op": "setup", "line": stmt.line, "state": state}
    if overrides:
        step["params"] = overrides
    return step


def _state_step(stmt: SetupState) -> Step:
    """``setup raw JSON``: the state as written, once the one validator (``check_position``) takes it for a position
    of the game; one it refuses is an error at its line."""
    try:
        check_position(stmt.state, _spec_rules())
    except MalformedState as exc:
        raise ScenarioError(f"impossible setup: {exc}", line=stmt.line, column=1) from None
    return {"op": "setup", "line": stmt.line, "state": stmt.state}


def _steps(statements: list[Statement]) -> list[Step]:
    steps: list[Step] = []
    for stmt in statements:
        if isinstance(stmt, Under):
            steps += [{**step, "under": [stmt.ruling, *stmt.readings]} for step in _steps(list(stmt.statements))]
        elif isinstance(stmt, Setup):
            steps.append(_setup_step(stmt))
        elif isinstance(stmt, SetupState):
            steps.append(_state_step(stmt))
        elif isinstance(stmt, NewGame):
            steps.append({"op": "new_game", "line": stmt.line, "players": stmt.players}
                         | ({"code": stmt.code} if stmt.code else {}))
        elif isinstance(stmt, Act) and isinstance(stmt.action, ShuffleSpecies):
            steps.append({"op": "shuffle", "line": stmt.line, "order": list(stmt.action.order)})
        elif isinstance(stmt, Act):
            steps.append({"op": "apply", "line": stmt.line, "action": stmt.action})
        elif isinstance(stmt, Reject):
            steps.append({"op": "reject", "line": stmt.line, "code": stmt.code, "action": stmt.action})
        elif isinstance(stmt, Replay):
            steps.append({"op": "replay", "line": stmt.line})
        elif isinstance(stmt, Expect):
            steps.append({"op": "expect", "line": stmt.line, "check": {"what": stmt.check.what, **stmt.check.args}})
    return steps


def compile_script(statements: list[Statement]) -> list[Step]:
    """The JSON steps of a parsed script, which must start the game."""
    steps = _steps(statements)
    if steps and steps[0]["op"] not in ("setup", "new_game"):
        raise ScenarioError("a script starts with 'setup' or 'new game N players'", line=steps[0]["line"], column=1)
    _replays_something(steps)
    return steps


def _replays_something(steps: list[Json]) -> None:
    """A ``replay`` needs an action since the start to play again (one right after it compares nothing)."""
    played = False
    for step in steps:
        if step["op"] in ("setup", "new_game"):
            played = False
        elif step["op"] in ("apply", "shuffle"):
            played = True
        elif step["op"] == "replay" and not played:
            raise ScenarioError("'replay' plays the actions since the start again, but none was played yet",
                                line=step["line"], column=1)
