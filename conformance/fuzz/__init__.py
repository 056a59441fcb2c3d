"""Hypothesis-driven random play against any engine: invariants, differences from the reference, reproducers.

``search(engine)`` plays games on the engine (and the reference, in lockstep) until a problem turns up
or the budget runs out; Hypothesis shrinks the problem to a short game; ``reproduce`` writes it as a
scenario that passes on the reference and fails on the engine.
"""

from baobei_conform.fuzz.compare import Problem, first_difference
from baobei_conform.fuzz.reproduce import Reproducer, reproduce
from baobei_conform.fuzz.search import SearchResult, search
from baobei_conform.fuzz.trial import Coverage, Found

__all__ = ["Coverage", "Found", "Problem", "Reproducer", "SearchResult", "first_difference",
           "reproduce", "search"]
