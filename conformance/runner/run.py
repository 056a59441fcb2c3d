"""Run a scenario's steps on an engine; every failure names the step, expected vs actual, the clauses."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from baobei_conform.engine_api import Engine, EngineCrashed, EngineProblem, EngineTimeout, Unsupported
from baobei_conform.runner.checks import call_for, capability_for, judge
from baobei_conform.runner.diff import diff
from baobei_conform.runner.driver import Batch, Run, run_one
from baobei_conform.scenario import Scenario
from baobei_conform.variants import engine_readings, steps_for

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
    cause: str = ""  # for errors: timeout | crash | protocol (the harness's circuit breaker counts the first two)
    seconds: float = 0.0
    state: dict | None = None  # the engine's state at a failing expect step (diffed against the reference's)


class StepFailed(Exception):
    def __init__(self, message: str, expected: str = "", actual: str = "", state: dict | None = None,
                 stderr: str = ""):
        self.message, self.expected, self.actual = message, expected, actual
        self.state, self.stderr = state, stderr
        super().__init__(message)


def _refused(message: str, code, expected: str) -> StepFailed:
    """A failure about a refusal, with the engine's own message and stderr tail when it gave them."""
    said = getattr(code, "message", "")
    return StepFailed(message + (f" (the engine said: {said})" if said else ""), expected, f"refused: {code}",
                      stderr=getattr(code, "stderr", ""))


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
    """Execute steps on ``engine`` (``steps_run`` driven alone); raise StepFailed (with ``.line``) at the first one
    that does not hold. Steps ``under`` a reading run only when the engine follows it (conformance/variants.py)."""
    return run_one(steps_run(steps_for(steps, engine_readings(engine)), trace), engine)


def steps_run(steps: list[dict], trace=None) -> Run[list[dict]]:
    """The sans-IO run of steps (runner/driver.py): yields each run of steps' engine calls as one batch, judges
    their results; raises StepFailed (with ``.line``) at the first step that does not hold; returns the last events.

    A shuffle needs the engine's state to name its cards: the batch before it ends by fetching the state, and the
    resolved shuffle opens the next batch, so each shuffle costs one round trip. ``trace(step, events)`` is called
    after each step (for ``explain``)."""
    events: list[dict] = []
    head: list[dict] = []  # the resolved shuffle that opens the next run
    for segment, shuffle in segments(steps):
        steps_now = head + segment
        calls, where = plan_calls(steps_now)
        if shuffle is not None:
            calls.append(("state",))
        results = (yield Batch(calls, more=shuffle is not None)) if calls else []
        events = _judge_segment(steps_now, where, results, events, trace)
        head = [] if shuffle is None else [_resolved_shuffle(shuffle, _value(results[-1]))]
    return events


def segments(steps: list[dict]) -> list[tuple[list[dict], dict | None]]:
    """The runs of steps between shuffles, each with the shuffle that ends it (None for the last)."""
    out, run = [], []
    for step in steps:
        if step["op"] == "shuffle":
            out.append((run, step))
            run = []
        else:
            run.append(step)
    return [*out, (run, None)]


def _value(result):
    if isinstance(result, Exception):
        raise result
    return result


def _resolved_shuffle(step: dict, state: dict) -> dict:
    """A shuffle step named by species becomes an apply step with the engine's card ids."""
    try:
        order = resolve_shuffle(step["order"], state)
    except StepFailed as exc:
        exc.line, exc.events = step["line"], []
        raise
    return {**step, "op": "apply", "action": {"type": "shuffle", "order": order}}


def plan_calls(steps: list[dict]) -> tuple[list[tuple], list[dict]]:
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
        elif op == "expect" and (wanted := call_for(step["check"])) == ("state",):
            if state_at is None:
                state_at = call("state")
            need["answer"] = need["state"] = state_at
        elif op == "expect" and wanted is not None:
            need["answer"] = call(*wanted)
        where.append(need)
    return calls, where


def _judge_segment(steps: list[dict], where: list[dict], results: list, events: list[dict],
                   trace) -> list[dict]:
    """Judge a run of steps on its batch's results, in order."""
    def get(position: int):
        return _value(results[position])

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
        refused = get(need["done"])  # a new_game's error code, or None
        if op == "new_game":
            _judge_new_game(step, refused)
        return []
    if op == "apply":
        new_events, code = get(need["apply"])
        if code is not None:
            raise _refused(f"the action was refused with {str(code)!r}", code, "accepted")
        return new_events
    if op == "reject":
        before = get(need["before"])
        _, code = get(need["apply"])
        if code is None:
            raise StepFailed("the action must be refused", f"refused: {step['code']}", "accepted")
        if code != step["code"]:
            raise _refused("refused with the wrong error code", code, f"refused: {step['code']}")
        changed = diff(before, get(need["after"]))
        if changed:
            shown = changed[:SHOWN_CHANGES]
            if len(changed) > SHOWN_CHANGES:
                shown.append(f"... and {len(changed) - SHOWN_CHANGES} more")
            raise StepFailed(f"the refused action changed the state ({len(changed)} field(s))", "state unchanged",
                             "; ".join(shown))
        return events
    if op == "expect":
        state = get(need["state"]) if "state" in need else None
        ok, expected, actual = judge(step["check"], get(need["answer"]) if "answer" in need else events)
        if not ok:
            raise StepFailed(f"expect {step['check']['what']}", expected, actual, state=state)
        return events
    raise StepFailed(f"unknown step {op!r}")


def _judge_new_game(step: dict, refused: str | None) -> None:
    """``new game N players`` must be accepted; ``reject CODE: new game N players`` refused with CODE."""
    wanted = step.get("code")
    if wanted is None and refused:
        raise StepFailed("the new game was refused", "accepted", f"refused: {refused}")
    if wanted is not None and refused != wanted:
        raise StepFailed("the new game must be refused" if refused is None else "refused with the wrong error code",
                         f"refused: {wanted}", f"refused: {refused}" if refused else "accepted")


def needs(scenario: Scenario) -> set[str]:
    """Optional engine capabilities the scenario's checks use."""
    return {capability for step in scenario.steps if "check" in step
            if (capability := capability_for(step["check"])) is not None}


def problem_outcome(scenario: Scenario, exc: EngineProblem) -> Outcome:
    """The ``error`` outcome of a scenario during which the engine misbehaved."""
    cause = "timeout" if isinstance(exc, EngineTimeout) else "crash" if isinstance(exc, EngineCrashed) else "protocol"
    return Outcome(scenario.id, "error", message=exc.message, stderr=exc.stderr, raw=exc.raw, cause=cause)


def scenario_run(scenario: Scenario, engine: Engine) -> Run[Outcome]:
    """The sans-IO run of one scenario on an engine like ``engine`` (its capabilities and readings): its outcome.
    Never raises for a misbehaving engine (that is an ``error`` outcome)."""
    missing = needs(scenario) - set(engine.capabilities)
    if missing:
        return Outcome(scenario.id, "skip", message=f"the engine lacks the capability {', '.join(sorted(missing))}")
    try:
        yield from steps_run(steps_for(scenario.steps, engine_readings(engine)))
    except StepFailed as exc:
        return Outcome(scenario.id, "fail", scenario.file_line(exc.line), exc.message, exc.expected, exc.actual,
                       exc.events, stderr=exc.stderr, state=exc.state)
    except Unsupported as exc:
        return Outcome(scenario.id, "skip", message=str(exc))
    except EngineProblem as exc:
        return problem_outcome(scenario, exc)
    except Exception as exc:  # noqa: BLE001 - an in-process engine's answer the judging cannot read: its error
        return Outcome(scenario.id, "error", message=f"the engine raised {type(exc).__name__}: {exc}")
    return Outcome(scenario.id, "pass")


def run_scenario(scenario: Scenario, engine: Engine) -> Outcome:
    """Run one scenario alone on ``engine``; never raises for a misbehaving engine."""
    start = time.perf_counter()
    out = run_one(scenario_run(scenario, engine), engine)
    out.seconds = time.perf_counter() - start
    return out
