"""Patch mutants: a misreading no named rule reaches, patched into the reference's modules in memory.

:func:`applied` snapshots every module of ``baobei_ref`` (its namespace, its dicts, its classes) first and
restores it afterwards, so no file is touched and patches never leak into each other. Variants and rule
parameters need none of this: they change only the games the reference engine plays.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import fields

from baobei_ref import game

from .mutant import Change

PATCHABLE = "baobei_ref"  # the package a patch may change
TABLES = ("steps", "answers", "legal")  # what a patch changes in place through its ``rules``


def _modules() -> list:
    return [m for name, m in sorted(sys.modules.items())
            if m is not None and (name == PATCHABLE or name.startswith(PATCHABLE + "."))]


def snapshot() -> list[tuple]:
    """Every module namespace, module-level dict and class of the reference, as it is now."""
    saved = []
    for module in _modules():
        space = vars(module)
        saved.append((space, dict(space)))
        for key, value in list(space.items()):
            if key.startswith("__"):
                continue
            if isinstance(value, dict):
                saved.append((value, dict(value)))
            elif isinstance(value, type) and value.__module__ == module.__name__:
                saved.append((value, dict(vars(value))))
    return saved


def restore(saved: list[tuple]) -> None:
    """Put back what :func:`snapshot` saw."""
    for target, before in saved:
        if isinstance(target, type):
            for key in set(vars(target)) - set(before):
                delattr(target, key)
            for key, value in before.items():
                if vars(target).get(key) is not value:
                    setattr(target, key, value)
        else:
            target.clear()
            target.update(before)


@contextmanager
def applied(patch: Change | None) -> Iterator[None]:
    """The reference with ``patch`` switched on (None: nothing to patch), restored on exit."""
    saved = snapshot()
    try:
        if patch is not None:
            rules = game.reference_rules()
            named = {f.name: getattr(rules, f.name) for f in fields(rules) if f.name not in TABLES}
            patch(rules)
            lost = [name for name, fn in named.items() if getattr(rules, name) is not fn]
            if lost:  # reference_rules() reads the modules again for every game: the change would be lost
                raise ValueError(f"{getattr(patch, '__name__', patch)} sets the named rules {', '.join(lost)} on the "
                                 "reference's tables: a patch changes modules; make it a @variant")
        yield
    finally:
        restore(saved)
