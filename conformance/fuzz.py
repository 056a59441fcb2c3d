"""Differential fuzzing: seeded random games played on the reference and on an engine in lockstep.

Scenarios pin what the rulebook says; random play finds what nobody thought to write down. Every
action the reference takes (chance outcomes included) is sent to the engine, and after each one
the two canonical states must be equal; now and then a mutated, illegal action must be refused
with the reference's error code and leave the engine's state unchanged. The first divergence of
each game is reported with its seed and the actions that lead to it, so it can be replayed.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass, field

from baobei_ref import Game, RuleError
from baobei_ref.actions import Action
from baobei_ref.playout import choose

# How the reference schedules the rest of an action is its own business: engines are compared on
# everything else a canonical state says (the table, what each player knows, the pending decision).
INTERNAL = ("agenda", "shield_touched")


def observable(state: dict) -> dict:
    return {k: v for k, v in state.items() if k not in INTERNAL}


@dataclass
class Divergence:
    seed: int
    players: int
    step: int
    message: str
    actions: list[dict] = field(default_factory=list)


def first_difference(a, b, path: str = "") -> str:
    """Where two JSON values first differ, as a readable path."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                return f"{path}.{key}: only in the {'reference' if key in a else 'engine'}"
            if a[key] != b[key]:
                return first_difference(a[key], b[key], f"{path}.{key}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return first_difference(x, y, f"{path}[{i}]")
    return f"{path or 'state'}: reference {a!r}, engine {b!r}"


def mutate(action: Action, rng: random.Random, players: int) -> Action:
    """A near-miss of a legal action: another player, another slot or target."""
    changes = {}
    for f in dataclasses.fields(action):
        value = getattr(action, f.name)
        if f.name == "player":
            changes[f.name] = rng.randrange(players)
        elif f.name == "slot":
            changes[f.name] = rng.randrange(1, 7)
        elif f.name == "targets" and value:
            changes[f.name] = tuple((rng.randrange(players), rng.randrange(1, 7)) for _ in value)
    return dataclasses.replace(action, **changes) if changes else action


def fuzz_game(engine, seed: int, players: int, max_actions: int = 400, probe: float = 0.2) -> Divergence | None:
    """Play one seeded game on the reference and ``engine``; the first divergence, or None."""
    rng = random.Random(seed)
    reference = Game(players=players)
    engine.new_game(players)
    played: list[dict] = []

    def diverged(step: int, message: str) -> Divergence:
        return Divergence(seed, players, step, message, list(played))

    for step in range(max_actions):
        if reference.pending.kind == "game_over":
            return None
        action = choose(reference, rng)
        if rng.random() < probe and reference.pending.player is not None:
            wrong = mutate(action, rng, players)
            try:
                reference.__class__.from_json(reference.to_json(), reference.params, reference.catalog).apply(wrong)
            except RuleError as exc:
                before = observable(engine.state())
                _, code = engine.apply(wrong.to_json())
                if code != exc.code:
                    return diverged(step, f"{wrong.to_json()} must be refused with {exc.code!r}, the engine "
                                          f"{'accepted it' if code is None else f'answered {code!r}'}")
                if observable(engine.state()) != before:
                    return diverged(step, f"the refused {wrong.to_json()} changed the engine's state")
        reference.apply(action)
        played.append(action.to_json())
        _, code = engine.apply(action.to_json())
        if code is not None:
            return diverged(step, f"the engine refused {action.to_json()} with {code!r}; the reference accepts it")
        expected, actual = observable(reference.to_json()), observable(engine.state())
        if expected != actual:
            return diverged(step, f"after {action.to_json()}: {first_difference(expected, actual)}")
    return None


def fuzz(engine, games: int, seed: int = 0, max_actions: int = 400) -> list[Divergence]:
    """``games`` seeded games with 2 to 6 players; every divergence found."""
    found = []
    for g in range(games):
        divergence = fuzz_game(engine, seed + g, 2 + (seed + g) % 5, max_actions)
        if divergence:
            found.append(divergence)
    return found
