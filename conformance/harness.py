"""Run a selection of scenarios on an engine: workers, restarts, known failures, a circuit breaker, never hang.

Each worker owns one engine at a time and feeds it chunks of scenarios (runner/pipeline.py); an
engine that misbehaves is stopped (its whole process group killed) and replaced. Every outcome is
made safe for the outputs here, where the engine's text enters the results (sanitize.py).
"""

from __future__ import annotations

import fnmatch
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from baobei_conform import signals
from baobei_conform.dsl.errors import ScenarioError
from baobei_conform.engine_api import Engine, EngineProblem, as_engine
from baobei_conform.runner.pipeline import CHUNK, Prefetched, follow_up, is_open, receive_chunk, send_chunk
from baobei_conform.runner.run import Outcome, problem_outcome, run_scenario
from baobei_conform.sanitize import clean, clean_tail, clean_value
from baobei_conform.scenario import Scenario, load_scenario, scenario_files
from baobei_conform.variants import engine_readings, judge_readings

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
                 stop: threading.Event, breaker: int):
        self.todo = deque(enumerate(scenarios))
        self.results: dict[int, Outcome] = {}
        self.expected, self.max_fail, self.report, self.stop, self.breaker = expected, max_fail, report, stop, breaker
        self.lock = threading.Lock()
        self.failures = self.in_a_row = 0
        self.interrupted = False  # Ctrl-C: outcomes of scenarios cut short are not results
        self.engines: set[Engine] = set()  # engines in use, so an interrupt can kill them from the main thread
        self.engines_lock = threading.Lock()  # apart: an interrupt may land while a report holds ``lock``

    def take(self, most: int = CHUNK) -> list[tuple[int, Scenario]]:
        """The next scenarios to run: at most ``most``, ending at the first open one (pipeline.py)."""
        with self.lock:
            chunk: list[tuple[int, Scenario]] = []
            while self.todo and len(chunk) < most and not self.stop.is_set():
                chunk.append(self.todo.popleft())
                if is_open(chunk[-1][1]):
                    break
            return chunk

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
    """One engine at a time; chunks of scenarios sent ahead while the previous chunk is judged."""

    def __init__(self, run: Run, factory: Callable[[], Any]):
        self.run, self.factory = run, factory
        self.engine: Engine | None = None
        self.done = threading.Event()

    def main(self) -> None:
        try:
            self.loop()
        finally:
            self.release()
            self.done.set()

    def loop(self) -> None:
        pending = None  # (chunk, ticket): sent to the engine, not judged yet; the ticket answered: its runners
        while not self.run.stop.is_set():
            if pending is not None and isinstance(pending[1], tuple) and is_open(pending[0][-1][1]):
                # It goes on past what was sent: its next calls go now, or it is judged first.
                runners = receive_chunk(self.engine, pending[1])
                if follow_up(pending[0][-1][1], self.engine, runners[-1]):
                    pending = (pending[0], runners)
                else:
                    done, pending = self.judge(pending[0], runners), None
                    if not done:
                        self.release()
                        continue
            chunk = self.run.take(CHUNK if self.engine is None or self.engine.works_apart else 1)
            if chunk and self.engine is None and not self.start(chunk):
                continue
            if len(chunk) > 1 and not self.engine.works_apart:  # the first chunk, taken before the engine started
                self.run.requeue(chunk[1:])
                chunk = chunk[:1]
            ticket = self.send(chunk) if chunk and self.engine.works_apart else None
            if pending is not None:  # judge the previous chunk while the engine works on this one
                runners = pending[1] if isinstance(pending[1], list) else receive_chunk(self.engine, pending[1])
                done, pending = self.judge(pending[0], runners), None
                if not done:
                    self.run.requeue(chunk)  # sent to an engine that broke: sent again to a fresh one
                    self.release()
                    continue
            if ticket is not None:
                pending = (chunk, ticket)
            elif not chunk:
                return
            elif not self.judge(chunk, [self.engine] * len(chunk)):
                self.release()
        if pending is not None:
            self.run.requeue(pending[0])

    def start(self, chunk: list[tuple[int, Scenario]]) -> bool:
        """A fresh engine; False (the first scenario an error, the rest requeued) when it does not start."""
        index, scenario = chunk[0]
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
            return True
        self.run.finish(index, scenario, outcome)
        self.run.requeue(chunk[1:])
        return False

    def send(self, chunk: list[tuple[int, Scenario]]) -> Any:
        try:
            return send_chunk([s for _, s in chunk], self.engine)
        except EngineProblem:
            return None  # judged one by one: each reports the problem

    def judge(self, chunk: list[tuple[int, Scenario]], runners: list[Engine]) -> bool:
        """Run and record each scenario; False (the rest requeued) when the engine broke."""
        for position, ((index, scenario), runner) in enumerate(zip(chunk, runners, strict=True)):
            if self.run.stop.is_set():
                self.run.requeue(chunk[position:])
                return True
            outcome = judge_readings(scenario, run_scenario(scenario, runner), engine_readings(self.engine))
            broke = runner.drain() if isinstance(runner, Prefetched) and outcome.status != "error" else None
            self.run.finish(index, scenario, outcome)
            if broke is not None:  # answering what was sent ahead for it: the next scenarios go to a fresh engine
                self.run.requeue(chunk[position + 1:])
                return False
            if outcome.status == "error":
                self.run.requeue(chunk[position + 1:])  # their answers came from the broken engine
                return False
        return True

    def release(self) -> None:
        """Stop the engine (a process: its group killed and reaped)."""
        engine, self.engine = self.engine, None
        if engine is not None:
            with self.run.engines_lock:
                self.run.engines.discard(engine)
            engine.stop()


def run_suite(scenarios: list[Scenario], factory: Callable[[], Any], jobs: int = 1,
              max_fail: int | None = None, expected: dict | None = None, report: Report | None = None,
              stop: threading.Event | None = None, breaker: int = BREAKER) -> tuple[list[Outcome], bool]:
    """Run on ``jobs`` engines at once; returns the outcomes (in scenario order) and whether all ran.

    ``factory`` makes an engine: an ``Engine``, or any object with the engine's methods (run in process).
    ``breaker``: consecutive timeouts or crashes that stop the run (0: never).
    """
    run = Run(scenarios, expected or {}, max_fail, report, stop or threading.Event(), breaker)
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
