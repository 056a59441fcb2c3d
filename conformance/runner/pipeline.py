"""Pipelining, in one place: the engine calls of several scenarios go out in one batch, answered later.

The first calls of every scenario are known before any answer (``first_calls``): all of them when
the scenario has no shuffle named by species; up to its first shuffle otherwise (such a scenario is
*open*: its later calls need the engine's answers, so it ends a chunk and nothing is sent after it
until its later calls are). The harness sends a chunk of scenarios at once and, while the engine works
on them, judges the previous chunk. Each scenario is then judged on a ``Prefetched`` engine that hands
back the answers already read. When a chunk ending with an open scenario is answered, ``follow_up``
sends that scenario's second run at once (its shuffle resolved from the state the first run ended
with); with a single shuffle nothing of it waits for an answer any more, and the next chunk can go.
"""

from __future__ import annotations

import time
from typing import Any

from baobei_conform.engine_api import Call, Engine, EngineProblem
from baobei_conform.runner.run import first_calls, second_calls
from baobei_conform.scenario import Scenario
from baobei_conform.variants import engine_readings, steps_for

CHUNK = 6  # scenarios whose engine calls go out in one pipelined batch


def is_open(scenario: Scenario) -> bool:
    """Some of its engine calls depend on an answer (a shuffle named by species)."""
    return any(step["op"] == "shuffle" for step in scenario.steps)


class Prefetched(Engine):
    """An engine whose first batch of calls was already answered (pipelined with other scenarios)."""

    def __init__(self, engine: Engine, calls: list[Call], results: list, waited: float = 0.0):
        self.engine, self.calls, self.results = engine, calls, results
        self.name, self.capabilities, self.info = engine.name, engine.capabilities, engine.info
        self.readings = engine_readings(engine)
        self.waited = waited  # this scenario's share of the wait for the engine's answers (its real time)
        self.ahead: tuple[list[Call], Any] | None = None  # its second run, sent before it was asked for

    def batch(self, calls: list[Call]) -> list:
        if calls == self.calls:
            self.calls = None  # answered once
            return self.results
        if self.ahead is not None and calls == self.ahead[0]:
            ticket, self.ahead = self.ahead[1], None
            return self.engine.collect(ticket)
        self.drain()
        return self.engine.batch(calls)

    def drain(self) -> EngineProblem | None:
        """Read the answers sent ahead and not asked for (the scenario stopped first): the engine's next
        answers are then the next scenario's. The engine's problem while answering them, if any."""
        if self.ahead is None:
            return None
        ticket, self.ahead = self.ahead[1], None
        return next((r for r in self.engine.collect(ticket) if isinstance(r, EngineProblem)), None)

    def send(self, calls: list[Call], expected: list | None = None) -> Any:
        return self.engine.send(calls, expected)

    def collect(self, ticket: Any) -> list:
        return self.engine.collect(ticket)


def send_chunk(scenarios: list[Scenario], engine: Engine) -> tuple[list[list[Call]], Any]:
    """Send the calls of several scenarios at once, without waiting; ``receive_chunk`` reads the answers."""
    readings = engine_readings(engine)
    plans = [first_calls(steps_for(s.steps, readings)) for s in scenarios]
    return plans, engine.send([call for plan in plans for call in plan])


def follow_up(scenario: Scenario, engine: Engine, answered: Prefetched) -> bool:
    """Send the second run of an open scenario whose first run ``answered`` holds; True when nothing of it waits
    for an answer any more (it has one shuffle). False, with nothing sent, when its shuffle does not resolve in
    the state the engine answered (judging says why) or the engine cannot take more."""
    plan = second_calls(steps_for(scenario.steps, engine_readings(engine)), answered.results[-1])
    if plan is None:
        return False
    calls, more = plan
    try:
        answered.ahead = (calls, engine.send(calls))
    except EngineProblem:
        return False
    return not more


def receive_chunk(engine: Engine, ticket: tuple[list[list[Call]], Any]) -> list[Engine]:
    """One engine per scenario of a sent chunk, replaying that scenario's answers."""
    plans, sent = ticket
    clock = time.perf_counter()
    results = engine.collect(sent)
    per_call = (time.perf_counter() - clock) / max(1, len(results))
    out, start = [], 0
    for plan in plans:
        out.append(Prefetched(engine, plan, results[start:start + len(plan)], per_call * len(plan)))
        start += len(plan)
    return out
