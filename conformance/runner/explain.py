"""Human-readable failures and step-by-step explanations, each tied to the clauses' English rules."""

from __future__ import annotations

from pathlib import Path

from baobei_conform.runner.context import DIFF_LIMIT, reference_context, state_diff
from baobei_conform.runner.engine import Engine
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
    first = [c for c in cited_at_step if c in own]
    return first + [c for c in own if c not in first] + list(scenario.rulings)


def one_line(scenario: Scenario, outcome: Outcome) -> str:
    """``FAIL file:line id: problem (expected X, actual Y)``: one failure per line."""
    where = f"{scenario.path}:{outcome.line}" if outcome.line else scenario.path
    detail = f" (expected {outcome.expected}, actual {outcome.actual})" if outcome.expected or outcome.actual else ""
    return f"{outcome.status.upper()} {where} {scenario.id}: {outcome.message}{detail}"


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
    if context and context.state is not None and outcome.state is not None:
        diff = state_diff(outcome.state, context.state)
        if diff:
            lines.append("  state differs from the reference's here:")
            lines += [f"    {d}" for d in diff[:DIFF_LIMIT]]
            if len(diff) > DIFF_LIMIT:
                lines.append(f"    ... and {len(diff) - DIFF_LIMIT} more fields")
    if outcome.events or context:
        lines.append("  engine events (last action):")
        lines += [f"    {_event(e)}" for e in outcome.events] or ["    none"]
    if context:
        lines.append("  reference events (same step):")
        lines += [f"    {_event(e)}" for e in context.events] or ["    none"]
    if outcome.stderr:
        tail = outcome.stderr.rstrip("\n").split("\n")[-STDERR_LINES:]
        lines.append("  engine stderr (tail):")
        lines += [f"    {t}" for t in tail]
    if outcome.raw:
        lines.append(f"  raw line: {outcome.raw}")
    lines.append("  clauses (most relevant first):")
    lines += clause_lines(relevant_first(scenario, context.clauses if context else []), spec, lang)
    return "\n".join(lines)


def _event(event: dict) -> str:
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
