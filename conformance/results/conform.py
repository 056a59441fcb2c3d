"""One conformance run: scenarios on an engine -> the results document (spec/schemas/results.schema.json).

The command line, the report's reference run and the benchmarks all run the suite through
``run_conformance``, so a results document is always made the same way: the same workers, known
failures, readings and sanitizing (harness/run.py), the same run facts (when, how long, what was selected
and ran, the broken files).
"""

from __future__ import annotations

import datetime
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from baobei_conform.dsl.errors import ScenarioError
from baobei_conform.harness.run import BREAKER, Report, run_suite
from baobei_conform.results.document import results_document
from baobei_conform.runner.run import Outcome
from baobei_conform.suite.identity import suite_identity
from baobei_conform.suite.scenario import Scenario


@dataclass
class RunRecord:
    """What a run's results document says besides the outcomes; ``document`` can be asked at any moment
    (the command line rewrites its results as scenarios finish)."""

    scenarios: list[Scenario]
    engine_info: dict
    run_info: dict = field(default_factory=dict)  # argv, shard, ...: how the run was asked for
    broken: Sequence[ScenarioError] = ()
    roots: Sequence[str | Path] = ()  # the scenario folders loaded from (none: the scenarios' own files)
    interrupted: threading.Event = field(default_factory=threading.Event)
    started: datetime.datetime = field(default_factory=lambda: datetime.datetime.now(datetime.UTC))
    clock: float = field(default_factory=time.perf_counter)
    suite: dict = field(init=False)  # suite/identity.py: computed once, at the start of the run

    def __post_init__(self) -> None:
        self.suite = suite_identity(self.roots or [s.path for s in self.scenarios])

    def document(self, outcomes: list[Outcome], complete: bool) -> dict:
        ran = {o.scenario for o in outcomes}
        order = {s.id: i for i, s in enumerate(self.scenarios)}
        facts = {"started": self.started.isoformat(timespec="seconds"),
                 "seconds": round(time.perf_counter() - self.clock, 3), "complete": complete,
                 "interrupted": self.interrupted.is_set(), "selected": len(self.scenarios), "ran": len(ran),
                 "broken_files": len(self.broken), **self.run_info}
        return results_document([s for s in self.scenarios if s.id in ran],
                                sorted(outcomes, key=lambda o: order[o.scenario]), self.engine_info, facts, self.broken,
                                self.suite)


def run_conformance(record: RunRecord, factory: Callable[[], Any], jobs: int = 1, max_fail: int | None = None,
                    expected: dict | None = None, report: Report | None = None, stop: threading.Event | None = None,
                    breaker: int = BREAKER, agree: bool = True) -> dict:
    """Run ``record.scenarios`` on engines from ``factory`` (harness.run_suite); the results document (its
    ``run.agreement`` says whether the steps were held to agreement with the reference)."""
    outcomes, complete = run_suite(record.scenarios, factory, jobs=jobs, max_fail=max_fail, expected=expected,
                                   report=report, stop=stop, breaker=breaker, agree=agree)
    record.run_info["agreement"] = agree
    return record.document(outcomes, complete)
