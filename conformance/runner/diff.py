"""The leaves where two JSON values differ: a failure shows what changed, never two full dumps."""

from __future__ import annotations

import json
from collections.abc import Iterator

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
    return [f"{where or '(value)'}: {shown(left)} -> {shown(right)}"
            for where, left, right in leaves(expected, actual, path)]


def shown(value: object, absent: str = MISSING) -> str:
    """A leaf as a difference shows it: its JSON, ``absent`` for a key or index its side lacks."""
    return absent if value is ABSENT else _show(value)


def leaves(expected: object, actual: object, path: str = "") -> Iterator[tuple[str, object, object]]:
    """Every leaf where two JSON values differ, ``(path, expected, actual)``, in order: objects by key (the first
    value's keys, then the second's others), arrays by index; ``ABSENT`` on the side that lacks a key or index."""
    if expected == actual and repr(expected) == repr(actual):  # the common case, at C speed: repr tells true from 1
        return
    if isinstance(expected, dict) and isinstance(actual, dict):
        keys = [*expected, *(k for k in actual if k not in expected)]
        pairs = [(f"{path}.{k}" if path else str(k), expected.get(k, ABSENT), actual.get(k, ABSENT)) for k in keys]
    elif isinstance(expected, list) and isinstance(actual, list):
        pairs = [(f"{path}[{i}]", expected[i] if i < len(expected) else ABSENT,
                  actual[i] if i < len(actual) else ABSENT) for i in range(max(len(expected), len(actual)))]
    else:
        if not _same_leaf(expected, actual):
            yield path, expected, actual
        return
    for where, left, right in pairs:
        if left is ABSENT or right is ABSENT:
            yield where, left, right
        else:
            yield from leaves(left, right, where)


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
