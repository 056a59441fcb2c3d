"""Run a selection of scenarios on an engine: workers, restarts, known failures, a circuit breaker, never hang.

Each worker owns one engine at a time and drives several scenarios in flight on it (runner/driver.py); an
engine that misbehaves is stopped (its whole process group killed) and replaced. Every outcome is
made safe for the outputs here, where the engine's text enters the results (sanitize.py).
"""

from __future__ import annotations

import fnmatch
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from baobei_conform import signals
from baobei_conform.dsl.errors import ScenarioError
from baobei_conform.engines.api import Engine, EngineProblem, as_engine
from baobei_conform.engines.sanitize import clean, clean_tail, clean_value
from baobei_conform.runner.driver import Run as ScenarioRun
from baobei_conform.runner.driver import drive
from baobei_conform.runner.run import Outcome, problem_outcome, scenario_run
from baobei_conform.suite.scenario import Scenario, load_scenario, scenario_files
from baobei_conform.suite.variants import engine_readings, judge_readings

UNEXPECTED = ("fail", "error", "xpass")
BREAKER = 5  # consecutive timeouts or crashes of the engine that stop a run
STOP_WAIT = 1.5  # seconds the workers get, together, to end after Ctrl-C or SIGTERM (their engines are dead by then)
Report = Callable[[Scenario, Outcome], None]


@dataclass
class Selection:
    ids: list[str] = field(default_factory=list)  # id globs
    clauses: list[str] = field(default_factory=list)  # clause prefixes: "3.6" selects 3.6.x
    faq: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    shard: tuple[int, int] | None = None  # (k, n): the k-th of n shards, 1-based

    def keeps(self, s: Scenario) -> bool:
        if self.ids and not any(fnmatch.fnmatch(s.id, g) for g in self.ids):
            return False
        if self.clauses and not any(c == p or c.startswith(p + ".") for c in s.clauses for p in self.clauses):
            return False
        if self.faq and not set(self.faq) & set(s.faq):
            return False
        return not self.tags or bool(set(self.tags) & set(s.tags))


def load_suite(paths, selection: Selection) -> tuple[list[Scenario], list[ScenarioError]]:
    """Every scenario under ``paths`` that the selection keeps (broken files are returned apart)."""
    kept, broken = [], []
    for path in scenario_files(paths):
        try:
            scenario = load_scenario(path)
        except ScenarioError as exc:
            broken.append(exc)
            continue
        if selection.keeps(scenario):
            kept.append(scenario)
    kept.sort(key=lambda s: s.id)
    if selection.shard:
        k, n = selection.shard
        kept = [s for i, s in enumerate(kept) if i % n == k - 1]
    return kept, broken


def apply_expectations(outcome: Outcome, expected: dict[str, dict]) -> Outcome:
    """A known failure excuses only that very status: a known ``fail`` becomes ``xfail``, but an ``error``
    in its place stays an error (a crash is not the known wrong answer). A known failure that passes
    becomes ``xpass`` (reported)."""
    known = expected.get(outcome.scenario)
    if not known:
        return outcome
    if outcome.status == known["status"]:
        outcome.status = "xfail"
        outcome.message = f"known: {known.get('reason', '')} {outcome.message}".strip()
    elif outcome.status == "pass":
        outcome.status = "xpass"
        outcome.message = f"expected {known['status']} ({known.get('reason', '')}) but passed"
    elif outcome.status in ("fail", "error"):
        outcome.message += f" (a known {known['status']} excuses only a {known['status']}, not this {outcome.status})"
    return outcome


def sanitized(outcome: Outcome) -> Outcome:
    """The outcome with every engine-supplied text safe for JSON, XML, HTML and the terminal."""
    outcome.message, outcome.expected, outcome.actual = (clean(t) for t in (outcome.message, outcome.expected,
                                                                            outcome.actual))
    outcome.stderr, outcome.raw = clean_tail(outcome.stderr), clean(outcome.raw)
    outcome.events = clean_value(outcome.events)
    outcome.state = clean_value(outcome.state) if outcome.state is not None else None
    return outcome


class Run:
    """What the workers of one run share: the scenarios to do, the results, the stop flag, the breaker."""

    def __init__(self, scenarios: list[Scenario], expected: dict, max_fail: int | None, report: Report | None,
                 stop: threading.Event, breaker: int, agree: bool = True):
        self.scenarios, self.agree = scenarios, agree
        self.todo = deque(enumerate(scenarios))
        self.results: dict[int, Outcome] = {}
        self.expected, self.max_fail, self.report, self.stop, self.breaker = expected, max_fail, report, stop, breaker
        self.lock = threading.Lock()
        self.failures = self.in_a_row = 0
        self.interrupted = False  # Ctrl-C: outcomes of scenarios cut short are not results
        self.engines: set[Engine] = set()  # engines in use, so an interrupt can kill them from the main thread
        self.engines_lock = threading.Lock()  # apart: an interrupt may land while a report holds ``lock``

    def take(self) -> tuple[int, Scenario] | None:
        """The next scenario to run (None: none left, or the run is stopping)."""
        with self.lock:
            return self.todo.popleft() if self.todo and not self.stop.is_set() else None

    def requeue(self, items: list[tuple[int, Scenario]]) -> None:
        with self.lock:
            self.todo.extendleft(reversed(items))

    def finish(self, index: int, scenario: Scenario, outcome: Outcome) -> None:
        outcome = apply_expectations(sanitized(outcome), self.expected)
        with self.lock:
            if self.interrupted:
                return
            self.results[index] = outcome
            if outcome.status in ("fail", "error"):
                self.failures += 1
                if self.max_fail is not None and self.failures >= self.max_fail:
                    self.stop.set()
            self.in_a_row = self.in_a_row + 1 if outcome.cause in ("timeout", "crash") else 0
            if self.breaker and self.in_a_row >= self.breaker and not self.stop.is_set():
                self.stop.set()
                print(f"baobei-conform: stopping the run: the engine timed out or crashed in {self.in_a_row} "
                      f"scenarios in a row (--breaker {self.breaker})", file=sys.stderr, flush=True)
            if self.report:
                self.report(scenario, outcome)

    def interrupt(self) -> None:
        """Ctrl-C: stop taking scenarios and kill every engine in use (its worker then ends at once)."""
        self.interrupted = True
        self.stop.set()
        with self.engines_lock:
            engines = list(self.engines)
        for engine in engines:
            engine.abort()


class Worker:
    """One engine at a time, several scenarios in flight on it (runner/driver.py)."""

    def __init__(self, run: Run, factory: Callable[[], Any]):
        self.run, self.factory = run, factory
        self.engine: Engine | None = None
        self.broke = False  # the engine gave an error: the next scenario gets a fresh one
        self.done = threading.Event()

    def main(self) -> None:
        try:
            self.loop()
        finally:
            self.release()
            self.done.set()

    def loop(self) -> None:
        while (first := self.run.take()) is not None:
            engine = self.engine if self.engine is not None else self.start(first)
            if engine is None:
                continue
            left = drive(self.scenarios(first, engine), engine, self.finished)
            if left or self.broke:  # the engine broke (or the run stops): the rest go again, to a fresh engine
                self.run.requeue([(index, self.run.scenarios[index]) for index in left])
                self.release()
                self.broke = False

    def scenarios(self, first: tuple[int, Scenario], engine: Engine) -> Iterator[tuple[int, ScenarioRun[Outcome]]]:
        """(index, the scenario's run on ``engine``) for ``first`` and then every scenario the run still has."""
        item: tuple[int, Scenario] | None = first
        while item is not None:
            yield item[0], self.scenario_run(item[1], engine)
            item = self.run.take()

    def scenario_run(self, scenario: Scenario, engine: Engine) -> ScenarioRun[Outcome]:
        outcome = yield from scenario_run(scenario, engine, self.run.agree)
        return judge_readings(scenario, outcome, engine_readings(engine))

    def finished(self, index: int, outcome: Outcome, seconds: float) -> bool:
        """Record a scenario's outcome; False (the drive stops) once the run stops or the engine broke."""
        if self.run.stop.is_set():
            return False
        outcome.seconds = seconds
        self.run.finish(index, self.run.scenarios[index], outcome)
        self.broke = outcome.status == "error"  # in process nothing else is in flight, so nothing is left over
        return not self.broke

    def start(self, item: tuple[int, Scenario]) -> Engine | None:
        """A fresh engine; None (the scenario an error) when it does not start."""
        index, scenario = item
        try:
            engine = as_engine(self.factory())
        except EngineProblem as exc:
            outcome = problem_outcome(scenario, exc)
        except Exception as exc:  # noqa: BLE001 - an in-process factory that raises: an error, not a dead worker
            outcome = Outcome(scenario.id, "error", message=f"the engine did not start: {exc!r}", cause="crash")
        else:
            with self.run.engines_lock:
                self.engine = engine
                self.run.engines.add(engine)
            return engine
        self.run.finish(index, scenario, outcome)
        return None

    def release(self) -> None:
        """Stop the engine (a process: its group killed and reaped)."""
        engine, self.engine = self.engine, None
        if engine is not None:
            with self.run.engines_lock:
                self.run.engines.discard(engine)
            engine.stop()


def run_suite(scenarios: list[Scenario], factory: Callable[[], Any], jobs: int = 1,
              max_fail: int | None = None, expected: dict | None = None, report: Report | None = None,
              stop: threading.Event | None = None, breaker: int = BREAKER,
              agree: bool = True) -> tuple[list[Outcome], bool]:
    """Run on ``jobs`` engines at once; returns the outcomes (in scenario order) and whether all ran.

    ``factory`` makes an engine: an ``Engine``, or any object with the engine's methods (run in process).
    ``breaker``: consecutive timeouts or crashes that stop the run (0: never). ``agree``: hold every step to
    agreement with the reference too (false: ``--rules-only``, the written expectations alone).
    """
    run = Run(scenarios, expected or {}, max_fail, report, stop or threading.Event(), breaker, agree)
    workers = [Worker(run, factory) for _ in range(max(1, jobs))]
    try:  # Ctrl-C may land while the workers are still starting (a fast first scenario): keep what ran
        # At a signal (signals.py) the run is marked interrupted before the engines are killed: the errors their
        # deaths cause are not taken for results.
        with signals.on_signal(run.interrupt):
            for worker in workers:
                threading.Thread(target=worker.main, name="baobei-worker", daemon=True).start()
            for worker in workers:  # an Event, not Thread.join: on 3.11 an interrupted join makes a thread look ended
                while not worker.done.wait(0.2):
                    pass
    except KeyboardInterrupt:
        run.interrupt()
        deadline = time.monotonic() + STOP_WAIT
        for worker in workers:
            worker.done.wait(max(0.0, deadline - time.monotonic()))
    outcomes = [run.results[i] for i in sorted(run.results)]
    return outcomes, len(outcomes) == len(scenarios)
