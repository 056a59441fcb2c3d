"""Shorten a found failure: start it from the latest turn whose position still reproduces it.

Hypothesis minimises the choices it made, not the game: a failure late in a game keeps the whole
game before it. Every turn boundary of that game is a position a scenario can set up, so the failure
is replayed from the latest such position where it still happens; the reproducer then holds only the
actions of the failing turn.
"""

from __future__ import annotations

from baobei_conform.engines.reference import params_with
from baobei_conform.fuzz.compare import Problem
from baobei_conform.fuzz.dsl_text import representable, setup_text
from baobei_conform.fuzz.positions import compiled
from baobei_conform.fuzz.trial import Found, Trial
from baobei_ref import Game
from baobei_ref.actions import Shuffle


def tighten(found: Found, trial: Trial, attempts: int = 12) -> Found:
    """The same problem from a later start (or ``found`` itself when no later start reproduces it)."""
    start = found.start
    if start.step is None:
        ref = Game(players=start.players)
        threshold = None
    else:
        ref = Game.from_json(start.step["state"], params=params_with(start.step.get("params")))
        threshold = next(iter(((start.step.get("params") or {}).get("threshold") or {}).values()), None)
    boundaries: list[tuple[int, dict]] = []
    cited: list[str] = []
    for index, action in enumerate(found.actions):
        state = ref.to_json()
        if index and ref.pending.kind == "turn" and representable(state):
            boundaries.append((index, state))
        if isinstance(action, Shuffle):
            action = Shuffle(tuple(Trial._resolve([c.rsplit("-", 1)[0] for c in action.order], ref)))
        cited = [c for e in ref.apply(action) for c in (e.clause, *e.also)]
    if not found.clauses:  # found without the reference: cite what the reference cites at the failing step
        found.clauses = cited
    for index, state in reversed(boundaries[-attempts:]):
        later = compiled(setup_text(state, threshold))
        try:
            trial.replay(later, found.actions[index:], found.probe)
        except Found as again:
            if again.problem.group == found.problem.group:  # the same problem, said as first found
                again.problem = Problem(found.problem.check, found.problem.message, again.problem.expect,
                                        found.problem.where)
                return again
    return found
