"""Human-readable failures and step-by-step explanations, each tied to the clauses' English rules."""

from __future__ import annotations

from pathlib import Path

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


def clause_lines(ids, spec: Spec) -> list[str]:
    out = []
    for cid in ids:
        c = spec.clauses.get(cid) or spec.rulings.get(cid)
        text = getattr(c, "en", None) or getattr(c, "ruling", "")
        out.append(f"    {cid}: {text}")
    return out


def describe_failure(scenario: Scenario, outcome: Outcome, spec: Spec) -> str:
    """What failed, where, expected vs actual, the clauses it checks, and the engine's events."""
    where = f"{scenario.path}:{outcome.line}" if outcome.line else scenario.path
    lines = [f"{outcome.status.upper()} {scenario.id} ({where}): {scenario.title}"]
    if outcome.line:
        lines.append(f"  step:     {_source(scenario.path, outcome.line)}")
    lines.append(f"  problem:  {outcome.message}")
    if outcome.expected or outcome.actual:
        lines += [f"  expected: {outcome.expected}", f"  actual:   {outcome.actual}"]
    lines.append("  clauses:")
    lines += clause_lines(scenario.clauses + scenario.rulings, spec)
    if outcome.events:
        lines.append("  events of the last action:")
        lines += [f"    {e.get('kind')} [{e.get('clause')}] {_data(e)}" for e in outcome.events]
    return "\n".join(lines)


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
