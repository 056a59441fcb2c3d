"""The one driver (runner/driver.py): several runs in flight on one engine, each batch whole in one write.

Over a pipe every round trip leaves one side idle, so the driver keeps several scenarios in flight and sends the
batches known at a moment together; a shuffle named by species costs one round trip (the state that names its cards
ends the batch before it, the resolved shuffle opens the batch after it), and holds back the next scenarios until it
is sent (the engine holds one game).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from baobei_conform.engines.api import Call, Engine, EngineCrashed, EngineProblem
from baobei_conform.engines.reference import ReferenceEngine, params_to_json
from baobei_conform.harness.factory import engine_factory
from baobei_conform.harness.run import Selection, load_suite, run_suite
from baobei_conform.protocol.client import StdioEngine
from baobei_conform.protocol.transcript import Transcript
from baobei_conform.runner import driver
from baobei_conform.runner.driver import Batch, checked, drive, drive_all
from baobei_conform.runner.run import run_steps, segments
from baobei_scenarios import SUITE_ROOT

SHUFFLED = SUITE_ROOT / "6-powers" / "cards-the-game-holds-66-cards.yaml"
WRONG = Path(__file__).resolve().parents[2] / "examples" / "wrong_engine" / "engine.py"
CASES = Path(__file__).resolve().parent / "pipeline_cases"
SERVE = [sys.executable, "-m", "baobei_conform.protocol.server", "serve"]


class Counting(Engine):
    """The reference in process, recording each batch of calls it is sent."""

    def __init__(self, works_apart: bool = False):
        self.inner = ReferenceEngine()
        self.name, self.capabilities, self.info = "counting", self.inner.capabilities, self.inner.info
        self.works_apart = works_apart
        self.batches: list[list[Call]] = []

    def send(self, calls: list[Call]) -> list:
        self.batches.append(list(calls))
        return self.inner.send(calls)

    def collect(self, ticket: list) -> list:
        return ticket


class Echo(Engine):
    """Answers each call with the call itself, later; records every send and collect in order."""

    works_apart = True

    def __init__(self) -> None:
        self.log: list[tuple[str, int]] = []
        self.sent: list[list[Call]] = []

    def send(self, calls: list[Call]) -> int:
        self.sent.append(list(calls))
        self.log.append(("send", len(self.sent) - 1))
        return len(self.sent) - 1

    def collect(self, ticket: int) -> list:
        self.log.append(("collect", ticket))
        return self.sent[ticket]


def suite():
    return load_suite([SUITE_ROOT], Selection())[0]


def test_a_shuffle_costs_one_round_trip():
    [scenario] = load_suite([SHUFFLED], Selection())[0]
    shuffles = sum(step["op"] == "shuffle" for step in scenario.steps)
    assert shuffles == 1
    engine = Counting()
    run_steps(scenario.steps, engine)
    assert len(engine.batches) == shuffles + 1  # not a state call and an apply of its own per shuffle
    assert engine.batches[0][-1] == ("state",)
    assert engine.batches[1][0][0] == "apply" and engine.batches[1][0][1]["type"] == "shuffle"


def test_segments_split_at_each_shuffle_and_keep_every_other_step():
    steps = [{"op": "setup"}, {"op": "shuffle", "n": 1}, {"op": "apply"}, {"op": "shuffle", "n": 2}]
    assert segments(steps) == [([{"op": "setup"}], {"op": "shuffle", "n": 1}),
                               ([{"op": "apply"}], {"op": "shuffle", "n": 2}), ([], None)]


def test_runs_in_flight_are_judged_in_order_each_on_its_own_answers():
    engine, verdicts = Echo(), []

    def run(i: int):
        first = yield Batch([("apply", i)], more=i % 10 == 0)
        if i % 10 == 0:
            return first + (yield Batch([("state", i)]))
        return first

    drive([(i, run(i)) for i in range(30)], engine, lambda key, verdict, s: verdicts.append((key, verdict)) or True)
    assert verdicts == [(i, [("apply", i)] + ([("state", i)] if i % 10 == 0 else [])) for i in range(30)]
    in_flight = max(sum(1 for kind, _ in engine.log[:n] if kind == "send")
                    - sum(1 for kind, _ in engine.log[:n] if kind == "collect") for n in range(len(engine.log)))
    assert in_flight > 1  # sent ahead of the answers
    assert max(len(calls) for calls in engine.sent) <= driver.GROUP * 2  # at most GROUP runs a write


def test_a_run_that_may_send_more_holds_back_the_next_runs():
    """The engine holds one game: nothing of the next run goes out before the open run's last batch."""
    engine = Echo()

    def run(i: int):
        yield Batch([("setup", i)], more=i == 0)
        if i == 0:
            yield Batch([("state", i)])

    drive([(i, run(i)) for i in range(5)], engine, lambda *args: True)
    flat = [call for calls in engine.sent for call in calls]
    assert flat.index(("state", 0)) < flat.index(("setup", 1))


def test_a_failed_check_stops_the_drive_and_every_sent_reply_is_still_read():
    engine, seen = Echo(), []

    def judge(results, i):
        seen.append(i)
        if i == 5:
            raise AssertionError("the engine got action 5 wrong")
    with pytest.raises(AssertionError):
        drive_all((checked([("apply", i)], lambda results, i=i: judge(results, i)) for i in range(100)), engine)
    assert seen == list(range(6))
    collected = [ticket for kind, ticket in engine.log if kind == "collect"]
    assert sorted(collected) == list(range(len(engine.sent)))  # the engine's replies never linger


def test_done_saying_stop_leaves_the_unfinished_runs_unread_and_named():
    engine = Echo()
    left = drive([(i, checked([("apply", i)], lambda results: None)) for i in range(40)], engine,
                 lambda key, verdict, s: key != 3)
    assert 3 not in left and set(left) == set(range(4, len(left) + 4))


def test_in_process_one_run_at_a_time():
    engine = Counting()
    outcomes, complete = run_suite(suite()[:40], lambda: engine)
    assert complete and {o.status for o in outcomes} == {"pass"}
    assert all(calls[0][0] in ("setup", "new_game") or calls[0] == ("apply", calls[0][1]) for calls in engine.batches)


class Recording(StdioEngine):
    """``baobei-ref serve`` over stdio, recording the seqs of each send."""

    sends: list[list[int]] = []

    def send(self, calls: list[Call]) -> list:
        messages = super().send(calls)
        Recording.sends.append([m["seq"] for m in messages if isinstance(m, dict)])
        return messages


def test_the_suite_over_stdio_keeps_several_scenarios_in_flight_and_never_splits_a_batch(tmp_path):
    """The engine never waits on the harness between two requests of a batch: every batch goes out in one write,
    before any of its replies is read; while the engine answers one scenario the next ones are already sent."""
    Recording.sends = []
    path = tmp_path / "transcript.jsonl"
    transcript = Transcript(path)
    engines: list[Recording] = []

    def factory():
        engine = Recording(SERVE, params_to_json(), transcript=transcript)
        engine.start()
        engines.append(engine)
        return engine

    scenarios = suite()
    outcomes, complete = run_suite(scenarios, factory)
    transcript.close()
    assert complete and {o.status for o in outcomes} == {"pass"} and len(engines) == 1
    records = [json.loads(line) for line in path.read_text().splitlines()]
    order = [(way, record[way]["seq"]) for record in records for way in ("request", "reply")
             if way in record and record[way].get("cmd") != "stop"]
    position = {item: n for n, item in enumerate(order)}
    for seqs in Recording.sends:
        sent = [position[("request", s)] for s in seqs]
        assert sent == list(range(sent[0], sent[0] + len(sent)))  # one write, nothing read in between
        assert max(sent) < min(position[("reply", s)] for s in seqs)
    starts = [r["request"]["seq"] for r in records if r.get("request", {}).get("cmd") in ("setup", "new_game")]
    assert len(starts) >= len(scenarios)
    ahead = sum(1 for seq in starts if position[("request", seq)] < position.get(("reply", seq - 1), -1))
    assert ahead > len(scenarios) // 2  # sent before the previous scenario's last reply was read: several in flight
    assert len(Recording.sends) < len(scenarios)  # several scenarios share a write


def test_over_the_protocol_the_driver_changes_no_outcome_of_an_engine_that_fails(monkeypatch):
    """Several scenarios in flight or one at a time: the same verdicts on an engine that fails many of them."""
    factory, _ = engine_factory(None, [sys.executable, str(WRONG), "--bug", "all"])

    def outcomes():
        found, complete = run_suite(suite(), factory)
        assert complete
        return [(o.scenario, o.status, o.message, o.line) for o in found]

    ahead = outcomes()
    monkeypatch.setattr(driver, "DEPTH", 1)
    assert ahead == outcomes()
    assert sum(status == "fail" for _, status, _, _ in ahead) > 20
    assert all(status in ("pass", "fail", "skip") for _, status, _, _ in ahead)


def test_an_engine_dying_on_a_second_batch_is_not_blamed_on_the_next_scenario():
    """A scenario fails before its shuffle; the engine dies on the shuffle of another: each is judged on its own
    answers and the next scenario runs on a fresh engine and passes."""
    factory, _ = engine_factory(None, [sys.executable, str(Path(__file__).parent / "engines" / "crash_on_shuffle.py")])
    scenarios = load_suite([CASES / "crash"], Selection())[0]
    outcomes, complete = run_suite(scenarios, factory)
    assert complete and [(o.scenario, o.status) for o in outcomes] == [("s-open", "fail"), ("t-next", "pass")]


def test_a_shuffle_the_engines_reading_leaves_out_is_run_like_any_step():
    """An open scenario whose only shuffle is under a reading the engine does not follow: every scenario runs."""
    factory, _ = engine_factory(None, [*SERVE, "--reading", "R-04=A"])
    scenarios = load_suite([CASES / "under"], Selection())[0]
    outcomes, complete = run_suite(scenarios, factory)
    assert complete and len(outcomes) == 3 and "error" not in {o.status for o in outcomes}


def test_an_error_that_is_no_object_is_each_scenarios_protocol_error():
    """``"error": "boom"`` refusing an action: every scenario that applies one reports it; the run completes."""
    factory, _ = engine_factory(None, [sys.executable, str(Path(__file__).parent / "engines" / "error_not_object.py")])
    scenarios = load_suite([CASES / "under"], Selection())[0]
    outcomes, complete = run_suite(scenarios, factory)
    assert complete and len(outcomes) == 3
    assert any(o.status == "error" and "error.code" in o.message for o in outcomes), outcomes


def test_a_ticket_collected_after_the_engine_stopped_holds_its_problem_for_every_call():
    """Collecting once the process is gone (stopped while runs were in flight) is the engine's problem for each call,
    as a crash is: the driver reads and drops it, never an AttributeError of the client's."""
    engine = StdioEngine(SERVE, params_to_json(), timeout=10)
    ticket = engine.send([("new_game", 2), ("state",)])
    engine.stop()
    results = engine.collect(ticket)
    assert len(results) == 2 and all(isinstance(r, EngineCrashed) and "stopped" in r.message for r in results)


def test_the_reference_before_any_game_says_so():
    """A call that needs a game, before setup or new_game, is the engine's error saying why (the server refuses it
    before, NEEDS_GAME; in process it reaches the adapter)."""
    (result,) = ReferenceEngine().batch([("state",)])
    assert isinstance(result, EngineProblem) and "no game yet" in result.message
