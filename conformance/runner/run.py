"""Run a scenario's steps on an engine; every failure names the step, expected vs actual, the clauses."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from baobei_conform.protocol.client import EngineProblem, Unsupported
from baobei_conform.runner.checks import evaluate
from baobei_conform.runner.diff import diff
from baobei_conform.runner.engine import Engine
from baobei_conform.scenario import Scenario

SHOWN_CHANGES = 12  # changed fields a failed reject step lists


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

    The engine calls of each run of steps are sent together (pipelined over the protocol); a
    shuffle, which needs the engine's state to name its cards, ends a run. ``trace(step, events)``
    is called after each step (for ``explain``). Returns the last events.
    """
    events: list[dict] = []
    start = 0
    while start < len(steps):
        end = next((i for i in range(start, len(steps)) if steps[i]["op"] == "shuffle"), len(steps))
        events = _run_segment(steps[start:end], engine, events, trace)
        if end < len(steps):
            events = _run_segment([_resolved_shuffle(steps[end], engine)], engine, events, trace)
        start = end + 1
    return events


def _resolved_shuffle(step: dict, engine: Engine) -> dict:
    """A shuffle step named by species becomes an apply step with the engine's card ids."""
    try:
        order = resolve_shuffle(step["order"], engine.state())
    except StepFailed as exc:
        exc.line, exc.events = step["line"], []
        raise
    return {**step, "op": "apply", "action": {"type": "shuffle", "order": order}}


def _plan(steps: list[dict]) -> tuple[list[tuple], list[dict]]:
    """The engine calls a run of steps needs, in order, and where each step finds its answers.

    The state is fetched once between two actions: expectations only read it.
    """
    calls: list[tuple] = []
    where: list[dict] = []
    state_at: int | None = None

    def call(*c) -> int:
        calls.append(c)
        return len(calls) - 1

    for step in steps:
        op, need = step["op"], {}
        if op == "setup":
            need["done"], state_at = call("setup", step["state"], step.get("params")), None
        elif op == "new_game":
            need["done"], state_at = call("new_game", step["players"]), None
        elif op == "apply":
            need["apply"], state_at = call("apply", step["action"]), None
        elif op == "reject":
            need["before"] = state_at if state_at is not None else call("state")
            need["apply"] = call("apply", step["action"])
            need["after"] = state_at = call("state")
        elif op == "expect" and step["check"]["what"] == "view":
            need["view"] = call("view", step["check"]["viewer"])
        elif op == "expect" and step["check"]["what"] == "legal":
            need["legal"] = call("legal_actions")
        elif op == "expect":
            if state_at is None:
                state_at = call("state")
            need["state"] = state_at
        where.append(need)
    return calls, where


def _execute(engine: Engine, calls: list[tuple]) -> list:
    """Results of the calls (an exception where one failed): pipelined when the engine can batch."""
    if hasattr(engine, "batch"):
        return engine.batch(calls)
    results: list = []
    for kind, *args in calls:
        try:
            results.append(getattr(engine, kind)(*args))
        except (Unsupported, EngineProblem) as exc:
            results.append(exc)
    return results


def _run_segment(steps: list[dict], engine: Engine, events: list[dict], trace) -> list[dict]:
    calls, where = _plan(steps)
    results = _execute(engine, calls)

    def get(position: int):
        result = results[position]
        if isinstance(result, Exception):
            raise result
        return result

    for step, need in zip(steps, where, strict=True):
        try:
            events = _judge(step, need, get, events)
        except StepFailed as exc:
            exc.line = step["line"]
            exc.events = events
            raise
        if trace:
            trace(step, events)
    return events


def _judge(step: dict, need: dict, get, events: list[dict]) -> list[dict]:
    op = step["op"]
    if "done" in need:
        get(need["done"])
        return []
    if op == "apply":
        new_events, code = get(need["apply"])
        if code is not None:
            raise StepFailed(f"the action was refused with {code!r}", "accepted", f"refused: {code}")
        return new_events
    if op == "reject":
        before = get(need["before"])
        _, code = get(need["apply"])
        if code is None:
            raise StepFailed("the action must be refused", f"refused: {step['code']}", "accepted")
        if code != step["code"]:
            raise StepFailed("refused with the wrong error code", f"refused: {step['code']}", f"refused: {code}")
        changed = diff(before, get(need["after"]))
        if changed:
            shown = changed[:SHOWN_CHANGES]
            if len(changed) > SHOWN_CHANGES:
                shown.append(f"... and {len(changed) - SHOWN_CHANGES} more")
            raise StepFailed(f"the refused action changed the state ({len(changed)} field(s))", "state unchanged",
                             "; ".join(shown))
        return events
    if op == "expect":
        view = get(need["view"]) if "view" in need else None
        state = get(need["state"]) if "state" in need else None
        legal = get(need["legal"]) if "legal" in need else None
        ok, expected, actual = evaluate(step["check"], state, events, lambda player: view, legal)
        if not ok:
            raise StepFailed(f"expect {step['check']['what']}", expected, actual)
        return events
    raise StepFailed(f"unknown step {op!r}")


class _Replay:
    """An engine whose first batch of calls was already answered (pipelined with other scenarios)."""

    def __init__(self, engine: Engine, calls: list[tuple], results: list):
        self.engine, self.calls, self.results = engine, calls, results
        self.name, self.capabilities = engine.name, engine.capabilities

    def batch(self, calls: list[tuple]) -> list:
        if calls == self.calls:
            self.calls = None  # answered once
            return self.results
        return self.engine.batch(calls)

    def state(self) -> dict:
        return self.engine.state()


def prefetch(scenarios: list[Scenario], engine: Engine):
    """Send the calls of several scenarios at once, without waiting (engines that ``send``, scenarios
    without a shuffle). ``replays(ticket)`` later gives each scenario an engine that replays its answers."""
    plans = [_plan(s.steps)[0] for s in scenarios]
    return plans, engine.send([call for plan in plans for call in plan])


def replays(engine: Engine, ticket) -> list[Engine]:
    plans, sent = ticket
    results = engine.collect(sent)
    out, start = [], 0
    for plan in plans:
        out.append(_Replay(engine, plan, results[start:start + len(plan)]))
        start += len(plan)
    return out


def pipelinable(scenario: Scenario) -> bool:
    """One run of steps: its engine calls do not depend on an answer (no shuffle named by species)."""
    return all(step["op"] != "shuffle" for step in scenario.steps)


def needs(scenario: Scenario) -> set[str]:
    """Optional engine capabilities the scenario's checks use."""
    out = set()
    for step in scenario.steps:
        check = step.get("check") or {}
        if check.get("what") == "view":
            out.add("views")
        if check.get("what") == "event":
            out.add("events")
        if check.get("what") == "legal":
            out.add("legal_actions")
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
