"""Human-readable failures and step-by-step explanations, each tied to the clauses' English rules."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from baobei_conform.engines.api import Engine
from baobei_conform.engines.reference import ReferenceEngine
from baobei_conform.runner.agreement import compared_fields, differences, informational_differences
from baobei_conform.runner.context import DIFF_LIMIT, engine_diff, reference_context
from baobei_conform.runner.run import Outcome
from baobei_conform.runner.walk import Walked, observe, walk
from baobei_conform.suite.scenario import Scenario
from baobei_conform.suite.variants import engine_readings
from baobei_conform.table import DIFFERS, Faces, compare, text
from baobei_conform.table.steps import StepTables
from baobei_conform.table.text import Screen
from baobei_spec import Spec
from baobei_spec.conditions import Json


def _source(path: str, line: int | None) -> str:
    if not line:
        return ""
    try:
        return Path(path).read_text(encoding="utf-8").split("\n")[line - 1].strip()
    except (OSError, IndexError):
        return ""


LANGS = ("en", "es", "nl")
STDERR_LINES = 10  # the engine's stderr tail shown with a failure


def clause_text(cid: str, spec: Spec, lang: str = "en") -> str:
    """A clause in the chosen language (es and nl are the rulebook's own words), or a ruling's decision."""
    clause = spec.clauses.get(cid)
    if clause is not None:
        return getattr(clause, lang) or clause.en
    ruling = spec.rulings.get(cid)
    return ruling.ruling if ruling else "(unknown id)"


def clause_lines(ids: Iterable[str], spec: Spec, lang: str = "en") -> list[str]:
    return [f"    {cid}: {clause_text(cid, spec, lang)}" for cid in ids]


def relevant_first(scenario: Scenario, cited_at_step: list[str]) -> list[str]:
    """The scenario's clauses, those the reference cites at the failing step first, then its rulings."""
    own = list(scenario.clauses)
    first = [c for c in dict.fromkeys(cited_at_step) if c in own]
    return first + [c for c in own if c not in first] + list(scenario.rulings)


def one_line(scenario: Scenario, outcome: Outcome) -> str:
    """``FAIL file:line id: problem (expected X, actual Y) [due: window p1]``: one failure per line, with the
    decision the reference has pending before the failing step (what a refused action should have answered)."""
    where = f"{scenario.path}:{outcome.line}" if outcome.line else scenario.path
    detail = f" (expected {outcome.expected}, actual {outcome.actual})" if outcome.expected or outcome.actual else ""
    context = reference_context(scenario, outcome.line)
    due = f" [due: {context.pending}]" if context and context.pending else ""
    return f"{outcome.status.upper()} {where} {scenario.id}: {outcome.message}{detail}{due}"


def describe_failure(scenario: Scenario, outcome: Outcome, spec: Spec, lang: str = "en") -> str:
    """What failed, where, the decision pending there, expected vs actual, how the engine's state differs
    from the reference's, both sides' events, the engine's stderr, and the clauses most relevant first."""
    where = f"{scenario.path}:{outcome.line}" if outcome.line else scenario.path
    lines = [f"{outcome.status.upper()} {scenario.id} ({where}): {scenario.title}"]
    context = reference_context(scenario, outcome.line)
    if outcome.line:
        lines.append(f"  step:     {_source(scenario.path, outcome.line)}")
    if context:
        lines.append(f"  pending:  {context.pending or 'none'} (the decision due before this step, per the reference)")
    lines.append(f"  problem:  {outcome.message}")
    if outcome.expected or outcome.actual:
        lines += [f"  expected: {outcome.expected}", f"  actual:   {outcome.actual}"]
    diff = engine_diff(outcome, context)
    if diff:
        lines.append("  state differs from the reference's here:")
        lines += [f"    {d}" for d in diff[:DIFF_LIMIT]]
        if len(diff) > DIFF_LIMIT:
            lines.append(f"    ... and {len(diff) - DIFF_LIMIT} more fields")
    if outcome.events or context:
        lines.append("  engine events (last action):")
        lines += [f"    {event_text(e)}" for e in outcome.events] or ["    none"]
    if context:
        lines.append("  reference events (same step):")
        lines += [f"    {event_text(e)}" for e in context.events] or ["    none"]
    if outcome.stderr:
        tail = outcome.stderr.rstrip("\n").split("\n")[-STDERR_LINES:]
        lines.append("  engine stderr (tail):")
        lines += [f"    {t}" for t in tail]
    if outcome.raw:
        lines.append(f"  raw line: {outcome.raw}")
    lines.append("  clauses (most relevant first):")
    lines += clause_lines(relevant_first(scenario, context.clauses if context else []), spec, lang)
    return "\n".join(lines)


def failure_table(scenario: Scenario, outcome: Outcome, spec: Spec, screen: Screen) -> list[str]:
    """The engine's table beside the reference's at the failing step, what differs marked ``!`` (the reference's
    alone where the engine's state was not read there: only an ``expect`` step reads it)."""
    context = reference_context(scenario, outcome.line)
    if context is None or context.state is None:
        return []
    tables = StepTables(spec, scenario.deck_named)
    for step in scenario.steps:  # the setup in force there: its value overrides and named deck cards
        if step["op"] == "setup" and outcome.line and scenario.file_line(step["line"]) <= outcome.line:
            tables.after(step, None)
    reference = tables.draw(context.state)
    if not isinstance(outcome.state, dict):
        return [f"the reference's table at line {outcome.line} (the engine's state is read at expect steps only):",
                *("  " + line for line in text.render(reference, screen.width - 2, screen.colour))]
    engine = tables.draw(outcome.state)
    count = compare(reference, engine, DIFFERS, both=True)
    half = (screen.width - 3) // 2
    return [f"the tables at line {outcome.line} ({count} differences marked !):",
            *text.beside([("engine", text.render(engine, half, screen.colour)),
                           ("reference", text.render(reference, half, screen.colour))], screen.width)]


def event_text(event: Json) -> str:
    """``kind [clause] field=value, ...``: one event on one line."""
    return f"{event.get('kind')} [{event.get('clause')}] {_data(event)}".rstrip()


def _data(event: Json) -> str:
    return ", ".join(f"{k}={v}" for k, v in event.items() if k not in ("kind", "clause", "also", "ruling"))


def explain(scenario: Scenario, engine: Engine, spec: Spec, out: TextIO, screen: Screen | None = None,
            viewer: int | None = None) -> bool:
    """Print the run step by step: each step's source line, then each event with its clause's rule. With a
    ``screen``, the table after every action (``viewer``: that player's view of it instead)."""
    print(f"{scenario.id}: {scenario.title}", file=out)
    print("checks: " + ", ".join(scenario.clauses + scenario.faq + scenario.rulings), file=out)
    drawing = _Drawing(scenario, spec, screen, viewer)
    drawing.legend(out)
    try:
        for walked in walk(scenario.steps, engine, drawing.viewers):
            step, line = walked.step, scenario.file_line(walked.step["line"])
            print(f"\n{scenario.path}:{line}  {_source(scenario.path, line)}", file=out)
            if step["op"] in ("apply", "shuffle"):
                for e in walked.events:
                    clause = spec.clauses.get(e.get("clause") or "")
                    print(f"  -> {e['kind']} [{e.get('clause')}] {_data(e)}", file=out)
                    if clause:
                        print(f"     {clause.en}", file=out)
                    if e.get("also"):
                        print(f"     also: {', '.join(e['also'])}", file=out)
                    if e.get("ruling") in spec.rulings:
                        print(f"     ruling {e['ruling']}: {spec.rulings[e['ruling']].ruling}", file=out)
            elif step["op"] in ("reject", "replay", "expect"):
                print("  ok", file=out)
            drawing.show(out, [("", walked)])
    except OSError:
        raise
    except Exception as exc:  # a failing step or a crashing engine: say what stopped the run
        print(f"\nstopped: {getattr(exc, 'message', exc)}", file=out)
        expected, actual = getattr(exc, "expected", ""), getattr(exc, "actual", "")
        if expected:
            print(f"  expected: {expected}\n  actual:   {actual}", file=out)
        return False
    return True


class _Drawing:
    """The tables ``explain`` prints after each action: one per side (the reference, the engine), each marked with
    what the action changed, and with what differs from the other side when there are two."""

    def __init__(self, scenario: Scenario, spec: Spec, screen: Screen | None, viewer: int | None):
        self.screen, self.viewer, self.spec = screen, viewer, spec
        self.viewers = [] if viewer is None or screen is None else [viewer]
        self.faces = Faces(spec)
        self.sides: dict[str, StepTables] = {}
        self.deck_named = scenario.deck_named

    def legend(self, out: TextIO) -> None:
        if self.screen:
            print("\ntables: " + ("the table" if self.viewer is None else f"what p{self.viewer} sees")
                  + " after every action; legend:", file=out)
            for line in text.legend(self.faces, self.screen.width - 2):
                print(f"  {line}", file=out)

    def show(self, out: TextIO, sides: list[tuple[str, Walked]], always: bool = False) -> None:
        """The table after each side's step, side by side, when the step is an action (or ``always``)."""
        if not self.screen or not (always or all(w.action for _, w in sides)):
            return
        tables = []
        for name, walked in sides:
            steps = self.sides.setdefault(name, StepTables(self.spec, self.deck_named, self.faces))
            table = steps.after(walked.step, walked.state)
            if self.viewer is not None:
                view = walked.views.get(self.viewer)
                table = steps.draw(view) if view is not None else None
            tables.append((name, table))
        if len(tables) == 2 and tables[0][1] is not None and tables[1][1] is not None:
            compare(tables[0][1], tables[1][1], DIFFERS, both=True)
        width = self.screen.width - 4
        blocks = [(name, text.render(t, width // len(tables), self.screen.colour) if t else ["(no table)"])
                  for name, t in tables]
        lines = blocks[0][1] if len(blocks) == 1 else text.beside(blocks, width)
        print("", *(f"    {line}" for line in lines), sep="\n", file=out)


def _steps_seen(scenario: Scenario, engine: Engine) -> tuple[dict[int, Walked], str]:
    """Each step as walked with all the engine shows after it (by its script line), and why the run stopped ('' if
    it went through)."""
    seen: dict[int, Walked] = {}
    try:
        for walked in observe(scenario.steps, engine):
            seen[walked.step["line"]] = walked
    except Exception as exc:  # noqa: BLE001 - where the engine stops is what this shows
        expected, actual = getattr(exc, "expected", ""), getattr(exc, "actual", "")
        detail = f" (expected {expected}, actual {actual})" if expected else ""
        return seen, f"{getattr(exc, 'message', exc)}{detail}"
    return seen, ""


def side_by_side(scenario: Scenario, engine: Engine, spec: Spec, out: TextIO, screen: Screen | None = None,
                 viewer: int | None = None) -> bool:
    """Run one scenario on the engine and on the reference (following the engine's declared readings); print each
    step with both sides' events, and after every action the fields the contract compares that differ, with both
    values (runner/agreement.py: the one comparison), the informational ones apart. A step is marked only where
    a compared field differs. With a ``screen``, both tables after every action, what differs marked (``viewer``:
    both views of that player). True when the engine goes through and agrees with the reference at every step."""
    drawing = _Drawing(scenario, spec, screen, viewer)
    reference, _ = _steps_seen(scenario, ReferenceEngine(engine_readings(engine)))
    mine, stopped = _steps_seen(scenario, engine)
    capabilities = set(engine.capabilities)
    compared, other = compared_fields(capabilities)
    print(f"{scenario.id}: {scenario.title}", file=out)
    print(f"engine: {getattr(engine, 'name', 'engine')}; reference: baobei-ref", file=out)
    print(f"compared after every action: {'; '.join(compared)}", file=out)
    print(f"not compared: {'; '.join(other)}", file=out)
    drawing.legend(out)
    differing, before = 0, _Before()
    for step in scenario.steps:
        i, line = step["line"], scenario.file_line(step["line"])
        if i not in mine and i not in reference:
            continue  # a step under a reading neither side follows
        print(f"\n{scenario.path}:{line}  {_source(scenario.path, line)}", file=out)
        if i not in mine:
            print(f"  engine STOPPED here: {stopped}", file=out)
            for cid in relevant_first(scenario, _cited(reference[i].events if i in reference else [])):
                print(f"    {cid}: {clause_text(cid, spec)}", file=out)
            if i in reference and mine:  # the engine's table as it was left, beside the reference's after the step
                last = list(mine.values())[-1]
                drawing.show(out, [("reference", reference[i]), ("engine", Walked(step, [], last.state, last.views))],
                             True)
            break
        theirs = reference.get(i)
        if step["op"] in ("apply", "shuffle"):
            told = "; ".join(event_text(e) for e in theirs.events) or "no events" if theirs else "(not reached)"
            print(f"  reference: {told}", file=out)
            print(f"  engine:    {'; '.join(event_text(e) for e in mine[i].events) or 'no events'}", file=out)
        if theirs is not None and mine[i].action:
            differing += _differences(theirs, mine[i], capabilities, out, before, line)
        elif not mine[i].action:
            print("  ok on both" if theirs else "  ok on the engine", file=out)
        if theirs is not None:
            drawing.show(out, [("reference", theirs), ("engine", mine[i])])
    if differing:
        print(f"\n{differing} steps where a compared field differs from the reference", file=out)
    return not stopped and not differing


@dataclass
class _Before:
    """The differences printed at the previous action and its line: the same ones again are named, not repeated."""

    lines: list[str] = field(default_factory=list)
    line: int = 0


def _differences(reference: Walked, engine: Walked, capabilities: set[str], out: TextIO, before: _Before,
                 line: int) -> int:
    """Print what differs after one action (the compared fields, then the informational ones); 1 when a compared
    field differs (the step is marked), else 0."""
    ours, theirs = reference.observation(), engine.observation()
    if not engine.whole:  # a later check of its run failed: the state read is after all the run sent; its events hold
        ours, theirs, capabilities = {**ours, "state": None}, {**theirs, "state": None}, capabilities & {"events"}
    lines = differences(ours, theirs, capabilities)
    before.lines = before.lines if lines else []
    aside = informational_differences(reference.events, engine.events)
    same = bool(lines) and lines == before.lines
    if lines and not same:
        before.lines, before.line = lines, line
    if same:
        print(f"  <- DIFFERS: the same {len(lines)} compared fields as after line {before.line}", file=out)
    elif lines:
        print(f"  <- DIFFERS: {len(lines)} compared field{'s' if len(lines) > 1 else ''} (reference -> engine):",
              file=out)
        print(*(f"     {d}" for d in lines[:DIFF_LIMIT]), sep="\n", file=out)
        if len(lines) > DIFF_LIMIT:
            print(f"     ... and {len(lines) - DIFF_LIMIT} more", file=out)
    if aside:
        print("  informational, not compared (reference -> engine):", *(f"     {d}" for d in aside[:DIFF_LIMIT]),
              sep="\n", file=out)
    return 1 if lines else 0


def _cited(events: list[Json]) -> list[str]:
    return [str(e["clause"]) for e in events if e.get("clause")]
