"""Human-readable failures and step-by-step explanations, each tied to the clauses' English rules."""

from __future__ import annotations

from pathlib import Path

from baobei_conform.runner.context import DIFF_LIMIT, engine_diff, reference_context
from baobei_conform.runner.engine import Engine, ReferenceEngine
from baobei_conform.runner.run import Outcome, run_steps
from baobei_conform.scenario import Scenario
from baobei_spec import Spec


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


def clause_lines(ids, spec: Spec, lang: str = "en") -> list[str]:
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


def event_text(event: dict) -> str:
    """``kind [clause] field=value, ...``: one event on one line."""
    return f"{event.get('kind')} [{event.get('clause')}] {_data(event)}".rstrip()


def _data(event: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in event.items() if k not in ("kind", "clause", "also", "ruling"))


def explain(scenario: Scenario, engine: Engine, spec: Spec, out) -> bool:
    """Print the run step by step: each step's source line, then each event with its clause's rule."""
    print(f"{scenario.id}: {scenario.title}", file=out)
    print("checks: " + ", ".join(scenario.clauses + scenario.faq + scenario.rulings), file=out)

    def trace(step: dict, events: list[dict]) -> None:
        line = scenario.file_line(step["line"])
        print(f"\n{scenario.path}:{line}  {_source(scenario.path, line)}", file=out)
        if step["op"] in ("apply", "shuffle"):
            for e in events:
                clause = spec.clauses.get(e.get("clause"))
                print(f"  -> {e['kind']} [{e.get('clause')}] {_data(e)}", file=out)
                if clause:
                    print(f"     {clause.en}", file=out)
                if e.get("also"):
                    print(f"     also: {', '.join(e['also'])}", file=out)
                if e.get("ruling") in spec.rulings:
                    print(f"     ruling {e['ruling']}: {spec.rulings[e['ruling']].ruling}", file=out)
        elif step["op"] in ("reject", "expect"):
            print("  ok", file=out)

    try:
        run_steps(scenario.steps, engine, trace=trace)
    except OSError:
        raise
    except Exception as exc:  # a failing step or a crashing engine: say what stopped the run
        print(f"\nstopped: {getattr(exc, 'message', exc)}", file=out)
        if getattr(exc, "expected", ""):
            print(f"  expected: {exc.expected}\n  actual:   {exc.actual}", file=out)
        return False
    return True


def _steps_seen(scenario: Scenario, engine: Engine) -> tuple[dict[int, list[dict]], str]:
    """Each step's events (by its script line) and why the run stopped ('' if it went through)."""
    seen: dict[int, list[dict]] = {}

    def trace(step: dict, events: list[dict]) -> None:
        seen[step["line"]] = list(events)

    try:
        run_steps(scenario.steps, engine, trace=trace)
    except Exception as exc:  # noqa: BLE001 - where the engine stops is what this shows
        detail = f" (expected {exc.expected}, actual {exc.actual})" if getattr(exc, "expected", "") else ""
        return seen, f"{getattr(exc, 'message', exc)}{detail}"
    return seen, ""


def side_by_side(scenario: Scenario, engine: Engine, spec: Spec, out) -> bool:
    """Run one scenario on the engine and on the reference; print each step with both sides' events,
    marking the first step where they part. True when the engine goes through like the reference."""
    reference, _ = _steps_seen(scenario, ReferenceEngine())
    mine, stopped = _steps_seen(scenario, engine)
    print(f"{scenario.id}: {scenario.title}", file=out)
    print(f"engine: {getattr(engine, 'name', 'engine')}; reference: baobei-ref", file=out)
    parted = False
    for step in scenario.steps:
        i, line = step["line"], scenario.file_line(step["line"])
        print(f"\n{scenario.path}:{line}  {_source(scenario.path, line)}", file=out)
        if i not in mine:
            print(f"  engine STOPPED here: {stopped}", file=out)
            for cid in relevant_first(scenario, _cited(reference.get(i, []))):
                print(f"    {cid}: {clause_text(cid, spec)}", file=out)
            break
        if step["op"] in ("apply", "shuffle"):
            same = mine[i] == reference.get(i)
            mark = "" if same or parted else "   <- the events part here"
            parted = parted or not same
            print(f"  reference: {'; '.join(event_text(e) for e in reference.get(i, [])) or 'no events'}", file=out)
            print(f"  engine:    {'; '.join(event_text(e) for e in mine[i]) or 'no events'}{mark}", file=out)
        else:
            print("  ok on both", file=out)
    return not stopped and not parted


def _cited(events: list[dict]) -> list[str]:
    return [str(e["clause"]) for e in events if e.get("clause")]
