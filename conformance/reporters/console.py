"""The run's console, like a test runner's: a header saying what runs on what, progress (``[37/412]`` on a
terminal), then the failures by rulebook part, skip reasons grouped, the failing clauses, broken files and a
summary. Colour only on a terminal, never when ``NO_COLOR`` is set (https://no-color.org)."""

from __future__ import annotations

import sys
from collections import Counter
from typing import TextIO

from baobei_conform import __version__
from baobei_conform.harness.run import UNEXPECTED
from baobei_conform.reporters.listener import Finished, Listener, Started
from baobei_conform.results.document import part, render_summary
from baobei_conform.runner.explain import describe_failure, failure_table, one_line
from baobei_conform.runner.run import Outcome
from baobei_conform.suite.scenario import Scenario
from baobei_conform.table.text import Screen, wants_colour
from baobei_spec import Spec

COLOURS = {"pass": "32", "fail": "31", "error": "31", "xpass": "31", "skip": "33", "xfail": "33", "variant": "36",
           "bold": "1"}
MARKS = {"pass": ".", "fail": "F", "error": "E", "skip": "s", "xfail": "x", "xpass": "X", "variant": "v"}


def part_order(p: str) -> tuple:
    """Rulebook order of parts: 1..7, then the annexes and the rest."""
    return (0, int(p), "") if p.isdigit() else (1, 0, p)


class Console(Listener):
    def __init__(self, spec: Spec, stream: TextIO | None = None, quiet: bool = False, brief: bool = False,
                 lang: str = "en", show_table: bool = False) -> None:
        self.spec, self.stream, self.quiet, self.brief, self.lang = spec, stream or sys.stdout, quiet, brief, lang
        self.tty = self.stream.isatty()
        self.colour = wants_colour(self.stream)
        self.screen = Screen.of(self.stream) if show_table else None
        self.total = self.done = 0
        self.failures: list[tuple[Scenario, Outcome]] = []
        self.skips: dict[str, list[str]] = {}

    def paint(self, text: str, style: str) -> str:
        return f"\033[{COLOURS[style]}m{text}\033[0m" if self.colour and style in COLOURS else text

    def say(self, text: str = "", end: str = "\n") -> None:
        print(text, end=end, file=self.stream, flush=True)

    def run_started(self, start: Started) -> None:
        """The header: the tool, the engine, its capabilities, the suite and how many scenarios run."""
        engine, self.total = start.engine, start.selected
        if self.quiet:
            return
        name = " ".join(str(engine.get(k)) for k in ("name", "version") if engine.get(k)) or engine.get("command")
        language = f" ({engine['language']})" if engine.get("language") else ""
        self.say(self.paint(f"baobei-conform {__version__}", "bold") + f": engine {name}{language}: "
                 f"{engine.get('command', '')}")
        self.say(f"capabilities: {', '.join(engine.get('capabilities') or []) or 'none'}")
        self.say(f"suite: {', '.join(start.suite)}: {start.selected} scenarios selected"
                 + (f", {start.broken} broken files" if start.broken else "") + f"; jobs: {start.jobs}")

    def scenario_finished(self, scenario: Scenario, outcome: Outcome) -> None:
        """One finished scenario: remembered for the end, shown as progress."""
        self.done += 1
        if outcome.status in UNEXPECTED:
            self.failures.append((scenario, outcome))
        elif outcome.status == "skip":
            self.skips.setdefault(outcome.message or "no reason given", []).append(scenario.id)
        if self.quiet:
            return
        if self.tty:
            width = len(str(self.total))
            self.say(f"\r[{self.done:>{width}}/{self.total}] {self.paint(outcome.status, outcome.status):<5} "
                     f"{scenario.id[:60]:<60}", end="")
        else:
            self.say(MARKS.get(outcome.status, "?"), end="\n" if self.done % 80 == 0 else "")

    def run_finished(self, end: Finished) -> list[str]:
        """Failures in rulebook order, skip reasons, failing clauses, broken files, the summary."""
        document = end.document
        self.say()
        if not self.quiet:
            for scenario, outcome in sorted(self.failures, key=lambda f: (part_order(part(f[0])), f[0].id)):
                self.say(one_line(scenario, outcome) if self.brief
                         else describe_failure(scenario, outcome, self.spec, self.lang) + "\n")
                if self.screen and outcome.line:
                    table = failure_table(scenario, outcome, self.spec, self.screen)
                    self.say("".join(f"  {line}\n" for line in table))
        for reason, ids in sorted(self.skips.items(), key=lambda kv: -len(kv[1])):
            listed = "" if len(ids) > 3 else f" ({', '.join(ids)})"
            self.say(self.paint(f"skipped {len(ids)}: {reason}", "skip") + listed)
        failing = Counter(c for s, _ in self.failures for c in s.clauses)
        if failing:
            self.say("failing clauses: " + ", ".join(f"{c} ({n})" for c, n in sorted(failing.items())))
        for exc in end.broken:
            self.say(self.paint(f"broken scenario file: {exc}", "error"))
        self.say(render_summary(document))
        run = document["run"]
        if not run.get("complete", True):
            why = "interrupted" if end.interrupted else "stopped early"
            self.say(self.paint(f"INCOMPLETE: {why}; {run.get('ran')} of {run.get('selected')} scenarios ran",
                                "fail"))
        return []
