"""Run a scenario's steps on an engine; every failure names the step, expected vs actual, the clauses."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from baobei_conform.engines.api import Call, Engine, EngineCrashed, EngineProblem, EngineTimeout, Results, Unsupported
from baobei_conform.runner import agreement
from baobei_conform.runner.checks import call_for, capability_for, judge
from baobei_conform.runner.diff import diff
from baobei_conform.runner.driver import Batch, Run, run_one
from baobei_conform.suite.scenario import Scenario
from baobei_conform.suite.variants import engine_readings, steps_for
from baobei_spec.conditions import Json

SHOWN_CHANGES = 12  # changed fields a failed reject step lists
Trace = Callable[[Json, list[Json]], None]  # (step, the events so far) after each step passed
Need = dict[str, int]  # what a step reads (done, apply, before, after, state, answer) -> its call's index


@dataclass
class Outcome:
    """The result of one scenario on one engine."""

    scenario: str
    status: str  # pass | fail | error | skip (then xfail / xpass after known failures are applied)
    line: int | None = None  # file line of the failing step
    message: str = ""
    expected: str = ""
    actual: str = ""
    events: list[Json] = field(default_factory=list)
    stderr: str = ""  # the engine's stderr tail, for errors
    raw: str = ""  # the offending raw line, for protocol errors
    cause: str = ""  # for errors: timeout | crash | protocol (the harness's circuit breaker counts the first two)
    seconds: float = 0.0
    state: Json | None = None  # the engine's state at a failing expect or agreement step (drawn beside the reference's)
    check: str = ""  # for a failure: rule (a written expectation) | agreement (a difference from the reference)


class StepFailed(Exception):
    def __init__(self, message: str, expected: str = "", actual: str = "", state: Json | None = None,
                 stderr: str = "", check: str = "rule"):
        self.message, self.expected, self.actual = message, expected, actual
        self.state, self.stderr = state, stderr
        self.check = check  # rule: a written expectation; agreement: a difference from the reference
        self.line: int | None = None  # the script line of the step, and the events then: set where it is judged
        self.events: list[Json] = []
        super().__init__(message)


def _refused(message: str, code: str, expected: str) -> StepFailed:
    """A failure about a refusal, with the engine's own message and stderr tail when it gave them."""
    said = getattr(code, "message", "")
    return StepFailed(message + (f" (the engine said: {said})" if said else ""), expected, f"refused: {code}",
                      stderr=getattr(code, "stderr", ""))


def resolve_shuffle(order: list[str], state: Json) -> list[str]:
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


def run_steps(steps: list[Json], engine: Engine, trace: Trace | None = None,
              history: list[Call] | None = None) -> list[Json]:
    """Execute steps on ``engine`` (``steps_run`` driven alone); raise StepFailed (with ``.line``) at the first one
    that does not hold. Steps ``under`` a reading run only when the engine follows it (conformance/suite/variants.py).
    ``history``: the changes sent before these steps (a run cut in parts: ``replay`` plays them again)."""
    return run_one(steps_run(steps_for(steps, engine_readings(engine)), trace, history=history), engine)


def steps_run(steps: list[Json], trace: Trace | None = None, reference: Engine | None = None,
              capabilities: Iterable[str] = (), history: list[Call] | None = None) -> Run[list[Json]]:
    """The sans-IO run of steps (runner/driver.py): yields each run of steps' engine calls as one batch, judges
    their results; raises StepFailed (with ``.line``) at the first step that does not hold; returns the last events.

    A shuffle needs the engine's state to name its cards: the batch before it ends by fetching the state, and the
    resolved shuffle opens the next batch, so each shuffle costs one round trip. ``trace(step, events)`` is called
    after each step (for ``explain``). With a ``reference`` (in process, switched to the engine's readings and
    parameters), every action's answers are also held to agreement with the reference's (agreement.py, where the
    engine has the ``capabilities``); the written expectations are judged first: a disagreement fails the run only
    when they all hold, as the first one found (check ``agree KIND``)."""
    events: list[Json] = []
    head: list[Json] = []  # the resolved shuffle that opens the next run
    history = [] if history is None else history
    agreeing = Agreeing(reference, capabilities) if reference is not None else None
    for segment, shuffle in segments(steps):
        steps_now = head + segment
        calls, where = plan_calls(steps_now, history) if agreeing is None else agreeing.plan(steps_now, history)
        if shuffle is not None:
            calls.append(("state",))
        results: Results = (yield Batch(calls, more=shuffle is not None)) if calls else []
        events = _judge_segment(steps_now, where, results, events, trace)
        if agreeing is not None:
            agreeing.judge(calls, results)
        head = [] if shuffle is None else [_resolved_shuffle(shuffle, _value(results[-1]))]
    if agreeing is not None and agreeing.first is not None:
        raise agreeing.first
    return events


ACTIONS = ("setup", "new_game", "apply", "shuffle")  # the steps that change the table


def groups(steps: list[Json]) -> list[list[Json]]:
    """Each action with the checks after it."""
    out: list[list[Json]] = []
    for step in steps:
        if step["op"] in ACTIONS or not out:
            out.append([step])
        else:
            out[-1].append(step)
    return out


def segments(steps: list[Json]) -> list[tuple[list[Json], Json | None]]:
    """The runs of steps between shuffles, each with the shuffle that ends it (None for the last)."""
    out: list[tuple[list[Json], Json | None]] = []
    run: list[Json] = []
    for step in steps:
        if step["op"] == "shuffle":
            out.append((run, step))
            run = []
        else:
            run.append(step)
    return [*out, (run, None)]


def _value(result: Any) -> Any:
    if isinstance(result, Exception):
        raise result
    return result


def _resolved_shuffle(step: Json, state: Json) -> Json:
    """A shuffle step named by species becomes an apply step with the engine's card ids."""
    try:
        order = resolve_shuffle(step["order"], state)
    except StepFailed as exc:
        exc.line, exc.events = step["line"], []
        raise
    return {**step, "op": "apply", "action": {"type": "shuffle", "order": order}}


def plan_calls(steps: list[Json], history: list[Call] | None = None) -> tuple[list[Call], list[Need]]:
    """The engine calls a run of steps needs, in order, and where each step finds its answers.

    The state is fetched once between two actions: expectations only read it. ``history`` (kept up to date): the
    table's changes since the start, the setup or new game and every action, which a ``replay`` sends again.
    """
    history = [] if history is None else history
    calls: list[Call] = []
    where: list[Need] = []
    state_at: int | None = None

    def call(c: Call) -> int:
        calls.append(c)
        return len(calls) - 1

    for step in steps:
        op = step["op"]
        need: Need = {}
        if op == "setup":
            need["done"], state_at = call(("setup", step["state"], step.get("params"))), None
            history[:] = [calls[-1]]
        elif op == "new_game":
            need["done"], state_at = call(("new_game", step["players"])), None
            history[:] = [calls[-1]]
        elif op == "apply":
            need["apply"], state_at = call(("apply", step["action"])), None
            history.append(calls[-1])
        elif op == "replay":
            need["before"] = state_at if state_at is not None else call(("state",))
            need["replay_from"] = len(calls)
            for change in history:
                call(change)
            need["replay_to"] = len(calls)
            need["after"] = state_at = call(("state",))
        elif op == "reject":
            need["before"] = state_at if state_at is not None else call(("state",))
            need["apply"] = call(("apply", step["action"]))
            need["after"] = state_at = call(("state",))
        elif op == "expect" and (wanted := call_for(step["check"])) == ("state",):
            if state_at is None:
                state_at = call(("state",))
            need["answer"] = need["state"] = state_at
        elif op == "expect" and wanted is not None:
            need["answer"] = call(wanted)
        where.append(need)
    return calls, where


class Agreeing:
    """Agreement with the reference after every action of a run (runner/agreement.py): the engine's answers to the
    reads after each action, the reference's observation at the same point, the first disagreement."""

    def __init__(self, reference: Engine, capabilities: Iterable[str]) -> None:
        self.reference, self.capabilities = reference, set(capabilities)
        # (action step, its apply call, the reference's observation, where the engine's reads are)
        self.at: list[tuple[Json, int | None, Json, Reads]] = []
        self.first: StepFailed | None = None

    def plan(self, steps: list[Json], history: list[Call]) -> tuple[list[Call], list[Need]]:
        """``plan_calls`` of each action with its checks, then the reads of the table after them (the checks leave
        it as it is): a read a check already made after the group's last change is not made again. The reference
        plays each group's changes at once (in process) and is read there: every player's view, the legal actions
        where they are listed (``agreement.listed``)."""
        calls: list[Call] = []
        where: list[Need] = []
        self.at = []
        for group in groups(steps):
            planned, needs_at = plan_calls(group, history)
            offset = len(calls)
            calls += planned
            answers = self.reference.batch([c for c in planned if c[0] in CHANGES])
            where += [{k: v + offset for k, v in need.items()} for need in needs_at]
            game = getattr(self.reference, "game", None)
            if group[0]["op"] not in ACTIONS or game is None:
                continue
            state = game.to_json()
            viewers = [int(p) for p in state["players"]] if "views" in self.capabilities else []
            legal = agreement.listed(game) if "legal_actions" in self.capabilities else None
            events = answers[0][0] if planned[0][0] == "apply" and _answer(answers[0]) else None
            seen = {"state": state, "events": events, "views": {str(p): game.view(p) for p in viewers},
                    "legal_actions": legal}
            last = max(i for i, c in enumerate(planned) if c[0] in CHANGES)
            reads = _Reads(calls, offset + last + 1)
            self.at.append((group[0], offset if events is not None else None, seen,
                            (reads.at(("state",)), {p: reads.at(("view", p)) for p in viewers},
                             reads.at(("legal_actions",)) if legal is not None else None)))
        return calls, where

    def judge(self, calls: list[Call], results: Results) -> None:
        """Compare the engine's answers with the reference's; keep the first disagreement."""
        if self.first is not None:
            return
        for step, applied, seen, reads in self.at:
            found = self._differs(step, applied, seen, reads, results)
            if found is not None:
                self.first = found
                return

    def _differs(self, step: Json, applied: int | None, seen: Json, reads: Reads,
                 results: Results) -> StepFailed | None:
        """The first disagreement of the engine's answers after one action with the reference's observation."""
        state_at, views_at, legal_at = reads
        if not _answer(results[state_at]):
            return None
        compared = set(self.capabilities)
        if applied is None or not _answer(results[applied]):
            compared.discard("events")
        views = {p: results[i] for p, i in views_at.items() if _answer(results[i])}
        shown = {"state": results[state_at],
                 "events": results[applied][0] if applied is not None and "events" in compared else None,
                 "views": {str(p): v for p, v in views.items()},
                 "legal_actions": results[legal_at] if legal_at is not None else None}
        ours = {**seen, "views": {p: v for p, v in seen["views"].items() if int(p) in views},
                "legal_actions": seen["legal_actions"] if legal_at is not None and _answer(results[legal_at]) else None}
        differs = next(agreement.observation_differences(ours, shown, compared), None)
        if differs is None:
            return None
        cited = [c for e in seen["events"] or () for c in (e.get("clause"), *(e.get("also") or ())) if c]
        failed = StepFailed(f"agree {differs.kind}" + (f" (the reference's events cite {', '.join(cited)})"
                                                      if cited else ""),
                            f"{differs.path}: {differs.shown(differs.reference)}",
                            f"{differs.path}: {differs.shown(differs.engine)}", check="agreement",
                            state=results[state_at] if isinstance(results[state_at], dict) else None)
        # What the engine showed there (the reference's events go with the failure's context).
        failed.line, failed.events = step["line"], _events(results[applied]) if applied is not None else []
        return failed


CHANGES = ("setup", "new_game", "apply")  # the calls that may change the table (a refused apply does not)
Reads = tuple[int, dict[int, int], int | None]  # where the engine's state, views (by player), legal actions are


class _Reads:
    """The engine's reads of the table after a group: one its checks made after the last change is used again."""

    def __init__(self, calls: list[Call], after: int) -> None:
        self.made = {calls[i]: i for i in range(after, len(calls))}  # reads only: the group's last change is before
        self.calls = calls

    def at(self, call: Call) -> int:
        if call not in self.made:
            self.calls.append(call)
            self.made[call] = len(self.calls) - 1
        return self.made[call]


def _events(result: object) -> list[Json]:
    """The events of an ``apply`` result the engine answered ([] for a refusal or a failed call)."""
    if isinstance(result, tuple) and result[1] is None and isinstance(result[0], list):
        return result[0]
    return []


def _answer(result: object) -> bool:
    """A result to compare: not a failed call (an engine's problem there is for the written checks to meet)."""
    if isinstance(result, EngineProblem):
        raise result
    return not isinstance(result, Exception) and not (isinstance(result, tuple) and result[1] is not None)


def _judge_segment(steps: list[Json], where: list[Need], results: Results, events: list[Json],
                   trace: Trace | None) -> list[Json]:
    """Judge a run of steps on its batch's results, in order."""
    def get(position: int) -> Any:
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


def _judge(step: Json, need: Need, get: Callable[[int], Any], events: list[Json]) -> list[Json]:
    op = step["op"]
    if "done" in need:
        refused = get(need["done"])  # a new_game's error code, or None
        if op == "new_game":
            _judge_new_game(step, refused)
        return []
    if op == "apply":
        new_events: list[Json]
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
            raise StepFailed(f"the refused action changed the state ({len(changed)} field(s))", "state unchanged",
                             "; ".join(_shown(changed)))
        return events
    if op == "replay":
        _judge_replay(need, get)
        return events
    if op == "expect":
        state = get(need["state"]) if "state" in need else None
        ok, expected, actual = judge(step["check"], get(need["answer"]) if "answer" in need else events)
        if not ok:
            raise StepFailed(f"expect {step['check']['what']}", expected, actual, state=state)
        return events
    raise StepFailed(f"unknown step {op!r}")


def _judge_replay(need: Need, get: Callable[[int], Any]) -> None:
    """``replay``: every change sent again is accepted and the state is the one before (the engine is
    deterministic: the same actions from the same start give the same state)."""
    before = get(need["before"])
    for n, at in enumerate(range(need["replay_from"], need["replay_to"])):
        answer = get(at)
        code = answer[1] if isinstance(answer, tuple) else answer  # apply: (events, code); setup, new game: code
        if code is not None:
            what = "the start" if n == 0 else f"action {n}"
            raise _refused(f"the replay: {what} was refused with {str(code)!r}", code, "accepted")
    changed = diff(before, get(need["after"]))
    if changed:
        raise StepFailed(f"the same actions from the same start gave another state ({len(changed)} field(s))",
                         "the state before the replay", "; ".join(_shown(changed)))


def _shown(changed: list[str]) -> list[str]:
    """The first ``SHOWN_CHANGES`` differing fields, and how many more."""
    more = len(changed) - SHOWN_CHANGES
    return changed[:SHOWN_CHANGES] + ([f"... and {more} more"] if more > 0 else [])


def _judge_new_game(step: Json, refused: str | None) -> None:
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


def reference_for(engine: Engine) -> Engine:
    """The reference in process, switched to the engine's declared readings and handshake parameters."""
    from baobei_conform.engines.reference import ReferenceEngine

    reference = ReferenceEngine(engine_readings(engine))
    params = getattr(engine, "params", None)  # a process's handshake parameters (JSON)
    reference.configure(params if isinstance(params, dict) else None)
    return reference


def scenario_run(scenario: Scenario, engine: Engine, agree: bool = False) -> Run[Outcome]:
    """The sans-IO run of one scenario on an engine like ``engine`` (its capabilities and readings): its outcome.
    ``agree``: every action also held to agreement with the reference (``steps_run``). Never raises for a
    misbehaving engine (that is an ``error`` outcome)."""
    missing = needs(scenario) - set(engine.capabilities)
    if missing:
        return Outcome(scenario.id, "skip", message=f"the engine lacks the capability {', '.join(sorted(missing))}")
    try:
        yield from steps_run(steps_for(scenario.steps, engine_readings(engine)),
                             reference=reference_for(engine) if agree else None, capabilities=engine.capabilities)
    except StepFailed as exc:
        line = scenario.file_line(exc.line) if exc.line is not None else None
        return Outcome(scenario.id, "fail", line, exc.message, exc.expected, exc.actual,
                       exc.events, stderr=exc.stderr, state=exc.state, check=exc.check)
    except Unsupported as exc:
        return Outcome(scenario.id, "skip", message=str(exc))
    except EngineProblem as exc:
        return problem_outcome(scenario, exc)
    except Exception as exc:  # noqa: BLE001 - an in-process engine's answer the judging cannot read: its error
        return Outcome(scenario.id, "error", message=f"the engine raised {type(exc).__name__}: {exc}")
    return Outcome(scenario.id, "pass")


def run_scenario(scenario: Scenario, engine: Engine, agree: bool = False) -> Outcome:
    """Run one scenario alone on ``engine``; never raises for a misbehaving engine."""
    start = time.perf_counter()
    out = run_one(scenario_run(scenario, engine, agree), engine)
    out.seconds = time.perf_counter() - start
    return out
