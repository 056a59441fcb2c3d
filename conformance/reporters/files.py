"""The outputs a run writes: its results files, rewritten as it goes, and its HTML report at the end."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from baobei_conform.files.outputs import ResultStream, write_each
from baobei_conform.reporters.listener import Finished, Listener, Started
from baobei_conform.results.document import write_json

if TYPE_CHECKING:
    from baobei_conform.results.conform import RunRecord
    from baobei_conform.runner.run import Outcome
    from baobei_conform.suite.scenario import Scenario


class ResultsFile(Listener):
    """A results file (``--json``, ``--junit``): on disk as the run goes, at most every second (a run that dies
    keeps what ran), emptied of the previous run's results as this one starts, written whole at the end."""

    def __init__(self, option: str, path: str, write: Callable[[str, dict], None],
                 record: RunRecord | None = None) -> None:
        self.option, self.path, self.write = option, path, write
        self.written = False  # the end's document is in the file (the report is built from it)
        self.stream = ResultStream(lambda done: write(path, record.document(done, False))) if record else None

    def run_started(self, start: Started) -> None:
        if self.stream:
            self.stream.flush()  # the previous run's results never stay as if current

    def scenario_finished(self, scenario: Scenario, outcome: Outcome) -> None:
        if self.stream:
            self.stream.add(outcome)

    def run_finished(self, end: Finished) -> list[str]:
        problems = write_each([(self.option, self.path, lambda: self.write(self.path, end.document))])
        self.written = not problems
        return problems


class ReportFolder(Listener):
    """The HTML report (``--report``), built at the end from the --json file when that holds the document."""

    def __init__(self, out: str, scenarios_dir: str, results: ResultsFile | None) -> None:
        self.out, self.scenarios_dir, self.results = out, scenarios_dir, results

    def run_finished(self, end: Finished) -> list[str]:
        results = self.results.path if self.results and self.results.written else None
        return write_each([("--report", self.out,
                            lambda: write_run_report(self.out, end.document, self.scenarios_dir, results))])


def write_run_report(out: str, document: dict, scenarios_dir: str, results_file: str | None) -> None:
    """The HTML report of a run, built from its results (the --json file when there is one)."""
    from baobei_conform.report import build_report  # jinja2 only when a report is written

    if results_file:
        index = build_report(out, [results_file], scenarios_dir)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            results = Path(tmp) / "results.json"
            write_json(str(results), document)
            index = build_report(out, [results], scenarios_dir)
    print(f"report: {index}")
