"""Every random choice of a fuzzed game, read from Hypothesis in blocks of bytes.

A Hypothesis draw costs hundreds of microseconds, far more than an action; one draw of a block
serves ``PER_BLOCK`` choices. Shrinking still works: Hypothesis shortens blocks and lowers their
bytes, and a missing or zero byte always means the plainest choice (the first option). A game longer
than Hypothesis' buffer allows goes on with a seeded generator once ``BLOCKS`` blocks are used.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol, TypeVar

from hypothesis import strategies as st

PER_BLOCK = 64  # choices per draw
WIDTH = 2  # bytes per choice
BLOCKS = 48  # 48 * 64 * 2 bytes: well inside Hypothesis' 8 KiB buffer
T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)


class Options(Protocol[T_co]):
    """What a choice is made among: its size and its members by index (a list, or one built lazily, policy.py)."""

    def __len__(self) -> int: ...

    def __getitem__(self, i: int, /) -> T_co: ...


class Seeded:
    """The same interface on a seeded generator: warm-up play, and the long tail of a game."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def _next(self) -> int:
        return self.rng.getrandbits(8 * WIDTH)

    def below(self, n: int) -> int:
        """A choice in ``range(n)``, 0 when shrunk."""
        return (self._next() * n) >> (8 * WIDTH) if n > 1 else 0

    def pick(self, options: Options[T]) -> T:
        return options[self.below(len(options))]

    def weighted(self, groups: Sequence[tuple[int, Options[T]]]) -> T:
        """A member of one group, the group chosen by weight; shrinks to the first group's first member."""
        chosen = [(w, g) for w, g in groups if w > 0 and len(g)]
        point = self.below(sum(w for w, _ in chosen))
        for weight, group in chosen:
            if point < weight:
                return group[0] if len(group) == 1 else group[self.below(len(group))]
            point -= weight
        raise AssertionError("unreachable")


class Choices(Seeded):
    def __init__(self, data):
        self.data, self.block, self.used, self.blocks = data, b"", PER_BLOCK, 0
        self.tail: random.Random | None = None  # the seeded generator once the blocks are used up

    def _next(self) -> int:
        if self.tail is not None:
            return self.tail.getrandbits(8 * WIDTH)
        if self.used == PER_BLOCK:
            if self.blocks == BLOCKS:
                self.tail = random.Random(int.from_bytes(self.block, "big"))
                return self._next()
            self.block = self.data.draw(st.binary(min_size=PER_BLOCK * WIDTH, max_size=PER_BLOCK * WIDTH))
            self.used, self.blocks = 0, self.blocks + 1
        at = self.used * WIDTH
        self.used += 1
        return int.from_bytes(self.block[at:at + WIDTH].ljust(WIDTH, b"\0"), "big")
