"""Mutation testing of the scenario suite: realistic misreadings of the rulebook, patched into the
reference in process, each naming the clauses it breaks; the suite must fail on every one of them.

``MUTANTS`` maps each name to its :class:`~baobei_conform.mutants.patching.Mutant`: those of the
part modules here and the misreadings of ``examples/wrong_engine`` (reused, not copied). See ``docs/mutants.md``.
"""

from baobei_conform.mutants import part2, part3, part4_5, part6, part7_b  # noqa: F401 - they register mutants
from baobei_conform.mutants.patching import REGISTRY, Mutant, applied
from baobei_conform.mutants.wrong_engine import wrong_engine_mutants

MUTANTS: dict[str, Mutant] = {**wrong_engine_mutants(), **REGISTRY}

__all__ = ["MUTANTS", "Mutant", "applied"]
