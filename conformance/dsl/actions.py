"""Actions in their wire form (docs/protocol.md): what a script's decisions compile to, without any engine.

An action is ``{"type": ..., field: value, ...}`` with the fields ``spec/vocabulary.yaml`` lists for its
type, in that order; targets and tuples are JSON lists. Engines (the reference's in-process adapter
included) read this form, so the scenario compiler needs no engine's own action classes.
"""

from __future__ import annotations

from functools import cache

from baobei_conform.dsl.ast import Action
from baobei_spec import default_spec


@cache
def _fields(kind: str) -> tuple[str, ...]:
    return tuple(default_spec().vocabulary.actions[kind])


def _json(value: object) -> object:
    return [_json(v) for v in value] if isinstance(value, tuple | list) else value


def action(kind: str, *values: object) -> Action:
    """The wire form of a ``kind`` action whose fields, in the vocabulary's order, hold ``values``."""
    fields = _fields(kind)
    if len(values) != len(fields):
        raise ValueError(f"{kind} has the fields {', '.join(fields) or 'none'}, not {len(values)} values")
    return {"type": kind, **{name: _json(value) for name, value in zip(fields, values, strict=True)}}


def claims(plucks: list[Action]) -> Action:
    """Simultaneous claims: each pluck's fields without its type (docs/protocol.md, simultaneous_plucks)."""
    return action("simultaneous_plucks", [{k: v for k, v in p.items() if k != "type"} for p in plucks])
