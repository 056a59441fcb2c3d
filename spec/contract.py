"""The observable contract's functions, for whoever compares two engines' answers (``contract.yaml``).

    >>> from baobei_spec.contract import compared_event, action_key, refusal_code
    >>> compared_event({"kind": "drew", "clause": "2.7.1", "player": 0, "also": ["2.6.1"]})
    (('clause', '2.7.1'), ('kind', 'drew'), ('player', 0))
    >>> action_key({"player": 0, "type": "draw"}) == action_key({"type": "draw", "player": 0})
    True

The fuzzer and the agreement checks compare events through ``compared_event`` (in the events' order) and
legal actions through ``action_key`` (as sets); ``refusal_for`` gives the row of the refusal precedence an
action meets, ``shape_problem`` what makes a JSON value no action at all (the reference parses with it).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from typing import Any

import orjson

from baobei_spec.conditions import REFUSAL, SITUATION, EventContext, Json, Refusing
from baobei_spec.model import Contract, Refusal, Situation


def contract() -> Contract:
    """The package's contract (loaded and checked once with the spec)."""
    from baobei_spec.load import default_spec

    return default_spec().contract


def compared_event(event: Json) -> tuple[tuple[str, Any], ...]:
    """The part of an event that must agree: every key but ``also`` and ``ruling``, as sorted (key, value) pairs."""
    return contract().compared_event(event)


def compared_events(events: list[Json]) -> list[tuple[tuple[str, Any], ...]]:
    """A reply's events as they are compared: in order, each by ``compared_event``."""
    return [compared_event(e) for e in events]


def action_key(action: Any) -> bytes:
    """An action's identity: its canonical JSON (keys sorted). Ordered permutations are distinct actions."""
    try:
        return orjson.dumps(action, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # what orjson does not write (an integer beyond 64 bits): the standard library's JSON
        return json.dumps(action, sort_keys=True, separators=(",", ":")).encode()


# --- shapes ---------------------------------------------------------------------------------------------
def _integer(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _ints(n: int) -> Callable[[Any], bool]:
    return lambda v: isinstance(v, list) and len(v) == n and all(_integer(x) for x in v)


def _claim(v: Any) -> bool:
    return isinstance(v, dict) and set(v) == {"player", "targets"} and _integer(v["player"]) \
        and isinstance(v["targets"], list) and all(_ints(2)(t) for t in v["targets"])


TYPES: dict[str, Callable[[Any], bool]] = {
    "integer": _integer,
    "boolean": lambda v: isinstance(v, bool),
    "string": lambda v: isinstance(v, str),
    "target": _ints(2),
    "claim": _claim,
    "own choice": lambda v: v is None or _ints(2)(v),
    "rival choice": lambda v: v is None or _ints(3)(v),
}


def type_check(name: str) -> Callable[[Any], bool] | None:
    """The check of a shape's type name (``list of T`` included); None for a name the contract does not define."""
    if name.startswith("list of "):
        item = TYPES.get(name[len("list of "):])
        return None if item is None else (lambda v: isinstance(v, list) and all(item(x) for x in v))
    return TYPES.get(name)


@cache
def _shape_checks() -> dict[str, dict[str, Callable[[Any], bool]]]:
    """Each action type's field checks, built once (actions are parsed thousands of times a second while fuzzing)."""
    shapes = contract().shapes
    return {t: {f: type_check(name) or (lambda v: False) for f, name in fields.items()} for t, fields in shapes.items()}


def shape_problem(action: Any) -> str | None:
    """What makes a JSON value no action of the protocol (an unknown type, a missing or extra field, a field of
    another JSON type), or None: such a value is ``malformed_action``, before any rule."""
    if not isinstance(action, dict):
        return f"an action is a JSON object, not {type(action).__name__}"
    checks = _shape_checks().get(str(action.get("type")))
    if checks is None:
        return f"unknown action type {action.get('type')!r}"
    for name, ok in checks.items():
        if name not in action:
            return f"{action['type']}: missing field {name!r}"
        if not ok(action[name]):
            return f"{action['type']}: {name!r} must be {contract().shapes[action['type']][name]}, not {action[name]!r}"
    extra = sorted(set(action) - set(checks) - {"type"})
    return f"{action['type']}: unknown field(s) {', '.join(extra)}" if extra else None


# --- refusals and situations -------------------------------------------------------------------------------
def refusal_rows(state: Json, action: Json, rules: Contract | None = None) -> list[Refusal]:
    """The rows of the refusal precedence ``action`` meets at the canonical ``state``: empty when it is accepted;
    the first row that holds, and when that row reads another action (``as_``: a set of simultaneous claims gets
    its first claim's refusal, as a window pluck) that action's rows after it. The last row gives the code."""
    from baobei_spec.load import default_spec

    rules = rules or contract()
    answers = default_spec().vocabulary.decisions.get(state["pending"]["kind"], ())
    shape = shape_problem(action)
    kind, act = state["pending"]["kind"], action.get("type") if isinstance(action, dict) else None
    for row in rules.refusals:
        if row.decisions and kind not in row.decisions or row.actions and act not in row.actions:
            continue
        refusing = Refusing(state, action, row.of, answers, shape, lambda s, a: bool(refusal_rows(s, a, rules)))
        if REFUSAL[row.when](refusing):
            if row.as_ is not None:
                return [row, *refusal_rows(state, {"type": row.as_, **action["claims"][0]}, rules)]
            return [row]
        if shape is not None:
            break  # only the first row reads a value that is no action
    return []


def refusal_for(state: Json, action: Json, rules: Contract | None = None) -> Refusal | None:
    """The row of the refusal precedence that gives ``action``'s code at ``state``, or None (it is accepted)."""
    rows = refusal_rows(state, action, rules)
    return rows[-1] if rows else None


def refusal_code(state: Json, action: Json) -> str | None:
    """The error code the contract refuses ``action`` with at ``state``; None when it is accepted."""
    row = refusal_for(state, action)
    return None if row is None else row.code


def situations_of(ctx: EventContext, rules: Contract | None = None) -> list[Situation]:
    """Every situation of the event's kind whose conditions all hold (the contract means exactly one)."""
    rules = rules or contract()
    kind = rules.events.get(str(ctx.event.get("kind")))
    if kind is None:
        return []
    return [s for s in kind.situations if all(SITUATION[name](ctx, value) for name, value in s.match.items())]


def view_data(kind: str, viewer: int, decider: int | None) -> set[str]:
    """The keys of a pending decision's data a view of ``viewer`` shows (``views.pending_data``)."""
    shown = contract().pending_data.get(kind, {})
    return {k for k, who in shown.items() if who == "all" or who == "decider" and viewer == decider}
