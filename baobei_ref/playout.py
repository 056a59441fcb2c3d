"""Seeded random play: every choice uniform over ``legal_actions()``, chance from the same RNG.

Used by the invariant tests, the benchmarks and fuzzing, so all of them play the same way.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from baobei_ref.actions import Action
from baobei_ref.game import Game
from baobei_ref.state import Event

CHANCE = ("first_player", "deal", "recycle")


def choose(g: Game, rng: random.Random) -> Action:
    """A uniformly random legal action (or chance outcome) for the pending decision."""
    if g.pending.kind in CHANCE:
        return g.sample_chance(rng)
    return rng.choice(g.legal_actions())


def random_play(g: Game, rng: random.Random, max_actions: int = 100_000) -> Iterator[tuple[Action, list[Event]]]:
    """Play ``g`` until the game is over (or ``max_actions``), yielding each action and its events."""
    for _ in range(max_actions):
        if g.pending.kind == "game_over":
            return
        action = choose(g, rng)
        yield action, g.apply(action)
