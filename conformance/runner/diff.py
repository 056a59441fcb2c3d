"""The leaves where two JSON values differ: a failure shows what changed, never two full dumps."""

from __future__ import annotations

import json

MISSING = "(missing)"


class _Absent:
    """A key only one side has (``first_leaf``); no JSON value is it."""

    def __repr__(self) -> str:
        return MISSING


ABSENT = _Absent()


def _show(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _same_leaf(expected: object, actual: object) -> bool:
    """Equal as JSON: ``true`` is not ``1`` (Python says it is)."""
    return expected == actual and isinstance(expected, bool) == isinstance(actual, bool)


def diff(expected: object, actual: object, path: str = "") -> list[str]:
    """One line per differing leaf, ``path: expected -> actual``; objects by key, arrays by index.

    A key or index only one side has shows ``(missing)`` on the other side.
    """
    if expected == actual and repr(expected) == repr(actual):  # the common case, at C speed: repr tells true from 1
        return []
    if isinstance(expected, dict) and isinstance(actual, dict):
        keys = [*expected, *(k for k in actual if k not in expected)]
        pairs = [(f"{path}.{k}" if path else str(k), expected.get(k, MISSING), actual.get(k, MISSING),
                  k in expected, k in actual) for k in keys]
    elif isinstance(expected, list) and isinstance(actual, list):
        pairs = [(f"{path}[{i}]", expected[i] if i < len(expected) else MISSING,
                  actual[i] if i < len(actual) else MISSING, i < len(expected), i < len(actual))
                 for i in range(max(len(expected), len(actual)))]
    else:
        return [] if _same_leaf(expected, actual) else [f"{path or '(value)'}: {_show(expected)} -> {_show(actual)}"]
    out: list[str] = []
    for where, left, right, in_left, in_right in pairs:
        if in_left and in_right:
            out += diff(left, right, where)
        else:
            out.append(f"{where}: {_show(left) if in_left else MISSING} -> {_show(right) if in_right else MISSING}")
    return out


def first_leaf(a: object, b: object, path: str = "") -> tuple[str, object, object] | None:
    """The first place (keys in the first value's order, then the second's others; arrays by index when of one
    length) where two JSON values differ, with both sides' values there (``ABSENT`` for a key only one side has);
    None when they are equal."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in [*a, *(k for k in b if k not in a)]:
            if key not in a or key not in b:
                return f"{path}.{key}", a.get(key, ABSENT), b.get(key, ABSENT)
            if a[key] != b[key]:
                return first_leaf(a[key], b[key], f"{path}.{key}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return first_leaf(x, y, f"{path}[{i}]")
    return None if a == b else (path, a, b)


def first_difference(a: object, b: object, path: str = "") -> str:
    """Where two JSON values first differ, as a readable path."""
    where, left, right = first_leaf(a, b, path) or (path, a, b)
    if left is ABSENT or right is ABSENT:
        return f"{where}: only in the {'engine' if left is ABSENT else 'reference'}"
    return f"{where or 'state'}: reference {left!r}, engine {right!r}"
