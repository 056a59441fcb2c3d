"""The console reads like a test runner's: a header, progress on a terminal, colour only on a terminal and
never with NO_COLOR, failures in rulebook order at the end, skip reasons grouped, failing clauses, broken
scenario files, a summary that says when the run is incomplete."""

from __future__ import annotations

import io

import pytest
from test_harness import SCENARIOS, write_scenarios

from baobei_conform.dsl.errors import ScenarioError
from baobei_conform.reporters.console import Console
from baobei_conform.reporters.listener import Finished, Started
from baobei_conform.results.document import results_document
from baobei_conform.runner.run import Outcome
from baobei_conform.suite.scenario import load_scenario
from baobei_spec import default_spec

ENGINE = {"name": "my-engine", "version": "2.1", "language": "rust", "command": "./my_engine",
          "capabilities": ["events", "views"]}


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def scenarios(tmp_path):
    folder = write_scenarios(tmp_path / "s", SCENARIOS)
    return {p.stem: load_scenario(p) for p in folder.glob("*.yaml")}


def play(console: Console, scenarios, outcomes: list[Outcome], broken=(), complete=True, interrupted=False) -> str:
    console.run_started(Started(ENGINE, ["suite/"], len(outcomes) + (0 if complete else 2), 2, len(broken)))
    for o in outcomes:
        console.scenario_finished(scenarios[o.scenario], o)
    run = {"complete": complete, "interrupted": interrupted, "selected": len(outcomes) + (0 if complete else 2),
           "ran": len(outcomes)}
    document = results_document([scenarios[o.scenario] for o in outcomes], outcomes, ENGINE, run, broken)
    assert console.run_finished(Finished(document, list(broken), interrupted)) == []
    return console.stream.getvalue()


def outcomes() -> list[Outcome]:
    return [Outcome("view-peek", "skip", message="the engine does not support 'view'"),
            Outcome("event-power", "fail", line=14, message="expect event", expected="power", actual="no events"),
            Outcome("basic-draw-discard", "pass"),
            Outcome("broken-top", "fail", line=16, message="expect top", expected="owl", actual="swallow")]


def test_header_progress_and_colour_on_a_terminal(scenarios, monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    out = play(Console(default_spec(), Terminal()), scenarios, outcomes())
    assert out.startswith("\033[1mbaobei-conform ")
    assert "engine my-engine 2.1 (rust): ./my_engine\ncapabilities: events, views\n" in out
    assert "suite: suite/: 4 scenarios selected; jobs: 2\n" in out
    assert "\r[1/4] \033[33mskip\033[0m view-peek" in out and "\r[4/4] \033[31mfail\033[0m broken-top" in out


def test_no_colour_with_no_color_or_off_a_terminal(scenarios, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    assert "\033[" not in play(Console(default_spec(), Terminal()), scenarios, outcomes())
    monkeypatch.delenv("NO_COLOR")
    out = play(Console(default_spec(), io.StringIO()), scenarios, outcomes())
    assert "\033[" not in out and "\nsFF.\n" not in out and "sF.F" in out  # one mark per scenario, as they end


def test_the_end_failures_in_rulebook_order_skips_grouped_failing_clauses_broken_files(scenarios):
    broken = [ScenarioError("not valid YAML: found unexpected end of stream", "suite/bad.yaml", 2, 1, "x: [")]
    out = play(Console(default_spec(), io.StringIO()), scenarios, outcomes(), broken)
    # broken-top cites 3.2.5 (part 3), event-power 3.3.6 (part 3 too): then by id
    assert out.index("FAIL broken-top") < out.index("FAIL event-power")
    assert "skipped 1: the engine does not support 'view' (view-peek)" in out
    assert "failing clauses: 3.2.5 (1), 3.3.6 (1), 6.10.3 (1)" in out
    assert "broken scenario file: suite/bad.yaml:2:1: not valid YAML" in out
    assert "4 scenarios: 1 passed, 2 failed, 0 errors, 1 skipped" in out


def test_failures_of_a_later_part_come_later(scenarios):
    first = Outcome("view-peek", "fail", line=16, message="expect view")  # 6.10.3: part 6
    later = Outcome("basic-draw-discard", "fail", line=14, message="expect top")  # 3.1.7: part 3
    out = play(Console(default_spec(), io.StringIO()), scenarios, [first, later])
    assert out.index("FAIL basic-draw-discard") < out.index("FAIL view-peek")


def test_many_skips_with_one_reason_are_one_line(scenarios):
    skip = [Outcome(sid, "skip", message="the engine lacks the capability views") for sid in scenarios]
    out = play(Console(default_spec(), io.StringIO(), quiet=True), scenarios, skip)
    assert "skipped 4: the engine lacks the capability views\n" in out
    assert "baobei-conform" not in out  # quiet: no header


def test_an_incomplete_run_says_so(scenarios):
    out = play(Console(default_spec(), io.StringIO()), scenarios, outcomes()[:2], complete=False, interrupted=True)
    assert "INCOMPLETE: interrupted; 2 of 4 scenarios ran" in out
