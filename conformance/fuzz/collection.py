"""Garbage collection for the fuzzing loop, set for its allocation pattern.

Each action allocates and frees thousands of small dicts and lists (states, views, replies). CPython's
default collects the youngest generation every 700 net allocations, which the loop exceeds several
times per action, and each collection re-scans everything allocated since: the fuzzer spent about a tenth
of its time there (35 us of ~300 per action, measured with ``gc.callbacks``). ``fewer_collections``
freezes what exists (the scenario corpus, Hypothesis' state: long-lived, never garbage) and collects the
youngest generation every ``YOUNGEST`` net allocations; garbage cycles are still collected.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

YOUNGEST = 10_000


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Within the block: long-lived objects frozen, the youngest generation collected less often; restored after."""
    saved = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNGEST, *saved[1:])
    try:
        yield
    finally:
        gc.set_threshold(*saved)
        gc.unfreeze()
