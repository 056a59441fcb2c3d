"""Mutation testing of the scenario suite: realistic misreadings of the rulebook switched on in the reference,
each naming the clauses it breaks; the suite must fail on every one of them.

A development tool of the checkout (``python tools/mutate.py``), not part of the installed package:
``baobei-conform report --mutants`` reads the file ``tools/mutate.py --json`` writes. ``MUTANTS`` maps each
name to its :class:`~mutants.mutant.Mutant`: those of the part modules here and the misreadings of
``examples/wrong_engine`` (reused, not copied). See ``docs/mutants.md``.
"""

from . import part2, part3, part4_5, part6, part7_b  # noqa: F401 - they register mutants
from .mutant import REGISTRY, Mutant
from .wrong_engine import wrong_engine_mutants

MUTANTS: dict[str, Mutant] = {**wrong_engine_mutants(), **REGISTRY}

__all__ = ["MUTANTS", "Mutant"]
