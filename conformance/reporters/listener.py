"""The events of one run and the outputs that listen to them, registered in one place.

A run tells its outputs three things: it started (on what engine, how many scenarios), a scenario finished (with
its outcome), it finished (the results document). Each output is a ``Listener`` that acts on the events it cares
about; ``run_outputs`` is the one place that says which outputs a run has and in which order they hear each event:
the console first (its summary before the files are written), then the --json file, the --junit file and the
report, which is built from the --json file when that was written.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from baobei_conform.dsl.errors import ScenarioError
    from baobei_conform.results.conform import RunRecord
    from baobei_conform.runner.run import Outcome
    from baobei_conform.suite.scenario import Scenario


@dataclass(frozen=True)
class Started:
    """The run is under way: what runs on what."""

    engine: dict  # the results document's ``engine``: command, name, version, capabilities, readings
    suite: list[str]  # the scenario folders or files given
    selected: int
    jobs: int
    broken: int  # scenario files that do not load


@dataclass(frozen=True)
class Finished:
    """The run is over (or never started: an engine that fails its handshake): its results document."""

    document: dict
    broken: list[ScenarioError]
    interrupted: bool


class Listener:
    """One output of a run; an event it does not care about does nothing."""

    def run_started(self, start: Started) -> None:
        """The run is under way."""

    def scenario_finished(self, scenario: Scenario, outcome: Outcome) -> None:
        """One scenario has its outcome (called from the harness's workers, one at a time)."""

    def run_finished(self, end: Finished) -> list[str]:
        """The run is over; the outputs that could not be written (a full disk), one line each."""
        return []


class Listeners(Listener):
    """Every output of a run, each told every event in the order they were registered."""

    def __init__(self, listeners: Iterable[Listener]) -> None:
        self.listeners = list(listeners)

    def run_started(self, start: Started) -> None:
        for listener in self.listeners:
            listener.run_started(start)

    def scenario_finished(self, scenario: Scenario, outcome: Outcome) -> None:
        for listener in self.listeners:
            listener.scenario_finished(scenario, outcome)

    def run_finished(self, end: Finished) -> list[str]:
        return [problem for listener in self.listeners for problem in listener.run_finished(end)]


def run_outputs(console: Listener | None, json_file: str | None, junit_file: str | None, report_dir: str | None,
                scenarios_dir: str, record: RunRecord | None = None) -> Listeners:
    """The outputs of a run (``record``: its results files are rewritten as scenarios finish) or of a merge (no
    record: only ``run_finished`` is told), in the order they hear each event."""
    from baobei_conform.reporters.files import ReportFolder, ResultsFile
    from baobei_conform.results.document import write_json, write_junit

    results = ResultsFile("--json", json_file, write_json, record) if json_file else None
    junit = ResultsFile("--junit", junit_file, write_junit, record) if junit_file else None
    report = ReportFolder(report_dir, scenarios_dir, results) if report_dir else None
    return Listeners(listener for listener in (console, results, junit, report) if listener is not None)
