"""Pipelining, in one place: the engine calls of several scenarios go out in one batch, answered later.

The first calls of every scenario are known before any answer (``first_calls``): all of them when
the scenario has no shuffle named by species; up to its first shuffle otherwise (such a scenario is
*open*: its later calls need the engine's answers, so it ends a chunk and nothing is sent after it
until it is judged). The harness sends a chunk of scenarios at once and, while the engine works on
them, judges the previous chunk. Each scenario is then judged on a ``Prefetched`` engine that hands
back the answers already read.
"""

from __future__ import annotations

import time
from typing import Any

from baobei_conform.engine_api import Call, Engine
from baobei_conform.runner.run import first_calls
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

    def batch(self, calls: list[Call]) -> list:
        if calls == self.calls:
            self.calls = None  # answered once
            return self.results
        return self.engine.batch(calls)

    def send(self, calls: list[Call], expected: list | None = None) -> Any:
        return self.engine.send(calls, expected)

    def collect(self, ticket: Any) -> list:
        return self.engine.collect(ticket)


def send_chunk(scenarios: list[Scenario], engine: Engine) -> tuple[list[list[Call]], Any]:
    """Send the calls of several scenarios at once, without waiting; ``receive_chunk`` reads the answers."""
    readings = engine_readings(engine)
    plans = [first_calls(steps_for(s.steps, readings)) for s in scenarios]
    return plans, engine.send([call for plan in plans for call in plan])


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
