"""A scenario's steps one table at a time: the state after every step that changes it, for the pictures of the
report and of ``explain --table``.

``run_steps`` judges a run of steps after sending all of it (a trace sees the engine at the end of the run), so
the table after each step needs the run cut where the table changes: each *action* (setup, new game, apply,
shuffle) with the checks that follow it (expect, reject: they leave the table as it is) is run and judged as one
run, then the state is read. The steps are judged exactly as ``run_steps`` judges the whole scenario: a check
still sees the events of the action before it. ``observe`` reads, after every action, all an engine shows (its
state, every player's view, its legal actions): the published expectations and ``explain`` compare those.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from baobei_conform.engines.api import Call, Engine
from baobei_conform.runner.checks import call_for
from baobei_conform.runner.run import ACTIONS, groups, run_steps
from baobei_conform.suite.variants import engine_readings, steps_for
from baobei_spec.conditions import Json


@dataclass
class Walked:
    """One step as walked: the events of its action (none for a check), the table after it, views read there."""

    step: Json
    events: list[Json]
    state: Json | None  # None: no game (a refused new game), or the engine could not give its state
    views: dict[int, Json] = field(default_factory=dict)
    legal: list[Any] | None = None  # the legal actions after it (``observe`` only; None: not read, or not given)
    whole: bool = True  # False: a later step of its run failed, and the state is the engine's after all it was sent

    @property
    def action(self) -> bool:
        return self.step["op"] in ACTIONS

    def observation(self) -> Json:
        """What the engine showed after the step, as the published expectations write it (runner/agreement.py
        compares two): ``state``, ``events``, ``views`` (player as a decimal string -> view), ``legal_actions``."""
        return {"state": self.state, "events": self.events,
                "views": {str(p): self.views[p] for p in sorted(self.views)}, "legal_actions": self.legal}


def walk(steps: list[Json], engine: Engine, viewers: Iterable[int] = (), everything: bool = False
         ) -> Iterator[Walked]:
    """Yield every step the engine passes, in order, then raise what stopped it (as ``run_steps`` would).

    ``viewers``: players whose views are read after every action, besides those a view check of the step names
    (engines with the capability ``views`` only). ``everything``: every player of the round's view and the legal
    actions too, after every action (``observe``)."""
    viewers = tuple(viewers)
    state: Json | None = None
    history: list[Call] = []  # the changes sent so far, for a ``replay``
    for group in groups(steps_for(steps, engine_readings(engine))):
        passed: list[tuple[Json, list[Json]]] = []
        try:
            run_steps(group, engine, trace=partial(_passed, passed), history=history)
        except Exception:
            if passed:
                yield from _walked(group, passed, _state(engine), {}, whole=False)
            raise
        state = _state(engine)
        wanted = dict.fromkeys([*viewers, *(call[1] for s in group if s["op"] == "expect"
                                            if (call := call_for(s["check"])) and call[0] == "view"),
                                *(state["players"] if everything and state is not None else ())])
        views = _views(engine, wanted) if state is not None else {}
        legal = _legal(engine) if everything and state is not None else None
        yield from _walked(group, passed, state, views, legal)


def _passed(passed: list[tuple[Json, list[Json]]], step: Json, events: list[Json]) -> None:
    passed.append((step, events))


def observe(steps: list[Json], engine: Engine) -> Iterator[Walked]:
    """``walk`` reading all the engine shows after every action: its state (the pending decision in it), every
    player of the round's view and its legal actions, each where the engine has the capability."""
    return walk(steps, engine, everything=True)


def _walked(group: list[Json], passed: list[tuple[Json, list[Json]]], state: Json | None, views: dict[int, Json],
            legal: list[Any] | None = None, whole: bool = True) -> Iterator[Walked]:
    """The group's steps that passed (the trace sees them in order; a shuffle as the apply step it resolves to),
    each as the scenario wrote it, the events with the action that caused them."""
    for i, (_, events) in enumerate(passed):
        step = group[i]
        yield Walked(step, list(events) if i == 0 and step["op"] in ("apply", "shuffle") else [], state, views,
                     legal, whole)


def _state(engine: Engine) -> Json | None:
    try:
        state = engine.state()
    except Exception:  # noqa: BLE001 - no game to read (a refused new game), or an engine that fails here
        return None
    return state if isinstance(state, dict) else None


def _views(engine: Engine, players: Iterable[int]) -> dict[int, Json]:
    if "views" not in engine.capabilities:
        return {}
    views = {}
    for player in players:
        try:
            view = engine.view(player)
        except Exception:  # noqa: BLE001 - a view the engine cannot give is not drawn
            continue
        if isinstance(view, dict):
            views[player] = view
    return views


def _legal(engine: Engine) -> list[Any] | None:
    if "legal_actions" not in engine.capabilities:
        return None
    try:
        listed = engine.legal_actions()
    except Exception:  # noqa: BLE001 - legal actions the engine cannot give are not compared
        return None
    return listed if isinstance(listed, list) else None
