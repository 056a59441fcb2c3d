"""What the reference does at a scenario's failing step: the decision pending just before it, the events
it emits, its state there (to diff the engine's against), and the clauses those events cite."""

from __future__ import annotations

from dataclasses import dataclass, field

from baobei_conform.engines.reference import ReferenceEngine
from baobei_conform.runner.run import Outcome, run_steps
from baobei_conform.suite.scenario import Scenario
from baobei_spec.conditions import Json

DIFF_LIMIT = 12  # differing fields shown at most; the rest are counted


@dataclass
class StepContext:
    pending: str = ""  # the decision pending on the reference just before the step
    events: list[Json] = field(default_factory=list)  # the reference's events at the step (its last action's)
    state: Json | None = None  # the reference's state after the step
    clauses: list[str] = field(default_factory=list)  # clauses the reference's events at the step cite


def pending_text(pending: Json | None) -> str:
    """``turn p0``, ``window p1 p2``, ``none``: who must decide what."""
    if not isinstance(pending, dict):
        return "none"
    players = pending.get("players") or ([] if pending.get("player") is None else [pending.get("player")])
    return str(pending.get("kind", "?")) + "".join(f" p{p}" for p in players)


def reference_context(scenario: Scenario, line: int | None) -> StepContext | None:
    """The reference's view of the step at file line ``line``; None when no step is there.

    The steps before it run first, so the pending decision is read exactly before the step (a run of
    steps is executed before it is judged: a trace would see the state at the end of the run)."""
    index = next((i for i, s in enumerate(scenario.steps) if line and scenario.file_line(s["line"]) == line), None)
    if index is None:
        return None
    engine = ReferenceEngine()
    step = scenario.steps[index]
    try:
        events = run_steps(scenario.steps[:index], engine) if index else []
        pending = pending_text(engine.state()["pending"]) if engine.game else ""
        if step["op"] in ("apply", "shuffle"):
            events = run_steps([step], engine)
        state = engine.state() if engine.game else None
    except Exception:  # noqa: BLE001 - the reference stops before this step: no context to show
        return None
    return StepContext(pending, events, state, _cited(events))


def engine_diff(outcome: Outcome, context: StepContext | None) -> list[str]:
    """How the engine's state at the failing step differs from the reference's (the fields both keep)."""
    if context is None or context.state is None or outcome.state is None:
        return []
    return state_diff(outcome.state, context.state)


def failure_facts(scenario: Scenario, outcome: Outcome) -> Json:
    """What the results document keeps about a failure besides expected/actual: ``due``, ``differs``,
    ``reference_events`` (the same facts the console shows)."""
    context = reference_context(scenario, outcome.line)
    if context is None:
        return {}
    return {"due": context.pending, "differs": engine_diff(outcome, context), "reference_events": context.events}


def _cited(events: list[Json]) -> list[str]:
    out: list[str] = []
    for e in events:
        for cid in [e.get("clause"), *(e.get("also") or ())]:
            if cid and cid not in out:
                out.append(str(cid))
    return out


def state_diff(engine: Json, reference: Json, path: str = "") -> list[str]:
    """``field: engine X, reference Y`` for each leaf that differs (dict keys and list items by position)."""
    if isinstance(engine, dict) and isinstance(reference, dict):
        out = []
        for key in sorted(set(engine) | set(reference), key=str):
            out += state_diff(engine.get(key, "<missing>"), reference.get(key, "<missing>"), f"{path}.{key}")
        return out
    if isinstance(engine, list) and isinstance(reference, list) and len(engine) == len(reference):
        out = []
        for i, (a, b) in enumerate(zip(engine, reference, strict=True)):
            out += state_diff(a, b, f"{path}[{i}]")
        return out
    if engine == reference:
        return []
    return [f"{path.lstrip('.')}: engine {_short(engine)}, reference {_short(reference)}"]


def _short(value: object) -> str:
    text = "null" if value is None else str(value)
    return text if len(text) <= 80 else text[:77] + "..."
