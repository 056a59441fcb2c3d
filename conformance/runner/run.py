"""Run a scenario's steps on an engine; every failure names the step, expected vs actual, the clauses."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from baobei_conform.protocol.client import EngineProblem, Unsupported
from baobei_conform.runner.checks import evaluate
from baobei_conform.runner.engine import Engine
from baobei_conform.scenario import Scenario


@dataclass
class Outcome:
    """The result of one scenario on one engine."""

    scenario: str
    status: str  # pass | fail | error | skip (then xfail / xpass after known failures are applied)
    line: int | None = None  # file line of the failing step
    message: str = ""
    expected: str = ""
    actual: str = ""
    events: list[dict] = field(default_factory=list)
    stderr: str = ""  # the engine's stderr tail, for errors
    raw: str = ""  # the offending raw line, for protocol errors
    seconds: float = 0.0


class StepFailed(Exception):
    def __init__(self, message: str, expected: str = "", actual: str = ""):
        self.message, self.expected, self.actual = message, expected, actual
        super().__init__(message)


def resolve_shuffle(order: list[str], state: dict) -> list[str]:
    """Species (top first) -> card ids among the cards to shuffle; the rest follow in their listed order."""
    pending = state["pending"]
    if pending["kind"] not in ("deal", "recycle"):
        raise StepFailed(f"a shuffle answers a deal or a recycle, but the engine waits for {pending['kind']!r}")
    left = list(pending["data"]["cards"])
    chosen = []
    for sp in order:
        match = next((c for c in left if c.rsplit("-", 1)[0] == sp), None)
        if match is None:
            raise StepFailed(f"no {sp!r} card is left among the cards to shuffle")
        left.remove(match)
        chosen.append(match)
    return chosen + left


def run_steps(steps: list[dict], engine: Engine, trace=None) -> list[dict]:
    """Execute steps; raise StepFailed (with ``.line``) at the first one that does not hold.

    ``trace(step, events)`` is called after each step (for ``explain``). Returns the last events.
    """
    events: list[dict] = []
    state = _StateCache(engine)
    for step in steps:
        try:
            events = _run_step(step, engine, events, state)
        except StepFailed as exc:
            exc.line = step["line"]
            exc.events = events
            raise
        if trace:
            trace(step, events)
    return events


class _StateCache:
    """The engine's canonical state, fetched once between two actions (expectations only read it)."""

    def __init__(self, engine: Engine):
        self.engine, self.value = engine, None

    def get(self) -> dict:
        if self.value is None:
            self.value = self.engine.state()
        return self.value

    def clear(self) -> None:
        self.value = None


def _run_step(step: dict, engine: Engine, events: list[dict], state: _StateCache) -> list[dict]:
    op = step["op"]
    if op != "expect":
        state_before = state.get() if op == "reject" else None
        state.clear()
    if op == "setup":
        engine.setup(step["state"], step.get("params"))
        return []
    if op == "new_game":
        engine.new_game(step["players"])
        return []
    if op in ("apply", "shuffle"):
        action = step.get("action") or {"type": "shuffle", "order": resolve_shuffle(step["order"], engine.state())}
        new_events, code = engine.apply(action)
        if code is not None:
            raise StepFailed(f"the action was refused with {code!r}", "accepted", f"refused: {code}")
        return new_events
    if op == "reject":
        new_events, code = engine.apply(step["action"])
        if code is None:
            raise StepFailed("the action must be refused", f"refused: {step['code']}", "accepted")
        if code != step["code"]:
            raise StepFailed("refused with the wrong error code", f"refused: {step['code']}", f"refused: {code}")
        if state.get() != state_before:
            raise StepFailed("the refused action changed the state", "state unchanged", "state changed")
        return events
    if op == "expect":
        ok, expected, actual = evaluate(step["check"], state.get(), events, engine.view)
        if not ok:
            raise StepFailed(f"expect {step['check']['what']}", expected, actual)
        return events
    raise StepFailed(f"unknown step {op!r}")


def needs(scenario: Scenario) -> set[str]:
    """Optional engine capabilities the scenario's checks use."""
    out = set()
    for step in scenario.steps:
        check = step.get("check") or {}
        if check.get("what") == "view":
            out.add("views")
        if check.get("what") == "event":
            out.add("events")
    return out


def run_scenario(scenario: Scenario, engine: Engine) -> Outcome:
    """Run one scenario; never raises for a misbehaving engine (that is an ``error`` outcome)."""
    missing = needs(scenario) - set(engine.capabilities)
    if missing:
        return Outcome(scenario.id, "skip", message=f"the engine lacks the capability {', '.join(sorted(missing))}")
    start = time.perf_counter()
    try:
        run_steps(scenario.steps, engine)
    except StepFailed as exc:
        out = Outcome(scenario.id, "fail", scenario.file_line(exc.line), exc.message, exc.expected, exc.actual,
                      exc.events)
    except Unsupported as exc:
        out = Outcome(scenario.id, "skip", message=str(exc))
    except EngineProblem as exc:
        out = Outcome(scenario.id, "error", message=exc.message, stderr=exc.stderr, raw=exc.raw)
    except Exception as exc:  # an in-process engine that crashes must not stop the run
        out = Outcome(scenario.id, "error", message=f"the engine raised {type(exc).__name__}: {exc}")
    else:
        out = Outcome(scenario.id, "pass")
    out.seconds = time.perf_counter() - start
    return out
