"""Run a selection of scenarios on an engine: workers, restarts, known failures, never hang."""

from __future__ import annotations

import fnmatch
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from baobei_conform.dsl.errors import ScenarioError
from baobei_conform.protocol.client import EngineProblem
from baobei_conform.runner.engine import Engine
from baobei_conform.runner.run import Outcome, pipelinable, prefetch, replays, run_scenario
from baobei_conform.scenario import Scenario, load_scenario, scenario_files

UNEXPECTED = ("fail", "error", "xpass")
CHUNK = 6  # scenarios whose engine calls go out in one pipelined batch


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


def load_expectations(path: str | Path) -> dict[str, dict]:
    """Known failures: ``{scenario id: {status: fail|error|skip, reason, link}}`` from YAML."""
    data = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
    expected = data.get("expected", data)
    if not isinstance(expected, dict):
        raise ValueError(f"{path}: expected a mapping of scenario id -> {{status, reason, link}}")
    for sid, entry in expected.items():
        if not isinstance(entry, dict) or entry.get("status") not in ("fail", "error", "skip"):
            raise ValueError(f"{path}: {sid}: status must be fail, error or skip")
    return expected


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


def run_suite(scenarios: list[Scenario], factory: Callable[[], Engine], jobs: int = 1,
              max_fail: int | None = None, expected: dict | None = None,
              report: Callable[[Scenario, Outcome], None] | None = None,
              stop: threading.Event | None = None) -> tuple[list[Outcome], bool]:
    """Run on ``jobs`` engines at once; returns the outcomes (in scenario order) and whether all ran."""
    expected = expected or {}
    stop = stop or threading.Event()
    todo = list(enumerate(scenarios))
    results: dict[int, Outcome] = {}
    lock = threading.Lock()
    failures = 0

    def take() -> list:
        """The next scenarios to run: a chunk of pipelinable ones, or a single one."""
        with lock:
            if not todo:
                return []
            chunk = [todo.pop(0)]
            while todo and len(chunk) < CHUNK and pipelinable(todo[0][1]) and pipelinable(chunk[0][1]):
                chunk.append(todo.pop(0))
            return chunk

    def judge(chunk: list, runners: list, engine) -> bool:
        """Run and record each scenario; False (the rest requeued) when the engine broke."""
        for position, ((index, scenario), runner) in enumerate(zip(chunk, runners, strict=True)):
            if stop.is_set():
                return True
            outcome = apply_expectations(run_scenario(scenario, runner), expected)
            _finish(index, scenario, outcome)
            if outcome.status == "error" and hasattr(engine, "stop"):
                _requeue(chunk[position + 1:])  # their answers came from the broken engine
                return False
        return True

    def worker() -> None:
        engine = None
        pending = None  # (chunk, ticket): sent to the engine, not judged yet
        try:
            while not stop.is_set():
                chunk = take()
                if chunk and engine is None:
                    index, scenario = chunk[0]
                    try:
                        engine = factory()
                    except EngineProblem as exc:
                        _finish(index, scenario, Outcome(scenario.id, "error", message=exc.message,
                                                         stderr=exc.stderr, raw=exc.raw))
                        _requeue(chunk[1:])
                        continue
                    except Exception as exc:  # an in-process factory that raises: an error, not a dead worker
                        _finish(index, scenario, Outcome(scenario.id, "error",
                                                         message=f"the engine did not start: {exc!r}"))
                        _requeue(chunk[1:])
                        continue
                ticket = None
                if len(chunk) > 1 and hasattr(engine, "send"):
                    try:
                        ticket = prefetch([s for _, s in chunk], engine)
                    except EngineProblem:
                        ticket = None  # judged one by one below: each reports the problem
                if pending is not None:  # judge the previous chunk while the engine works on this one
                    done = judge(pending[0], replays(engine, pending[1]), engine)
                    pending = None
                    if not done:
                        _requeue(chunk)
                        engine.stop()  # a crashed, hung or lying engine is restarted for the next scenario
                        engine = None
                        continue
                if ticket is not None:
                    pending = (chunk, ticket)
                    continue
                if not chunk:
                    return
                if not judge(chunk, [engine] * len(chunk), engine):
                    engine.stop()
                    engine = None
        finally:
            if engine is not None and hasattr(engine, "stop"):
                engine.stop()

    def _requeue(items) -> None:
        with lock:
            todo[:0] = items

    def _finish(index: int, scenario: Scenario, outcome: Outcome) -> None:
        nonlocal failures
        with lock:
            results[index] = outcome
            if outcome.status in ("fail", "error"):
                failures += 1
                if max_fail is not None and failures >= max_fail:
                    stop.set()
            if report:
                report(scenario, outcome)

    threads = [threading.Thread(target=worker, daemon=True) for _ in range(max(1, jobs))]
    try:  # Ctrl-C may land while the workers are still starting (a fast first scenario): keep what ran
        for t in threads:
            t.start()
        for t in threads:
            while t.is_alive():
                t.join(0.2)
    except KeyboardInterrupt:
        stop.set()
        for t in threads:
            if t.is_alive():
                t.join(5)
    outcomes = [results[i] for i in sorted(results)]
    return outcomes, len(outcomes) == len(scenarios)
