"""Pipelining: what is sent ahead, and how many round trips a scenario with shuffles costs.

Over a pipe every round trip leaves one side idle, so the harness sends each scenario's first calls
with its chunk, and a shuffle named by species costs one round trip (the state that names its cards
ends the batch before it, the resolved shuffle opens the batch after it).
"""

from __future__ import annotations

import threading
from pathlib import Path

from baobei_conform.engine_api import Call, Engine
from baobei_conform.harness import Run, Selection, load_suite, run_suite
from baobei_conform.runner.engine import ReferenceEngine
from baobei_conform.runner.pipeline import CHUNK, follow_up, is_open, receive_chunk, send_chunk
from baobei_conform.runner.run import first_calls, run_steps, segments
from baobei_scenarios import SUITE_ROOT

SHUFFLED = SUITE_ROOT / "6-powers" / "cards-the-game-holds-66-cards.yaml"


class Counting(Engine):
    """The reference in process, recording each batch of calls it is sent."""

    def __init__(self, works_apart: bool = False):
        self.inner = ReferenceEngine()
        self.name, self.capabilities, self.info = "counting", self.inner.capabilities, self.inner.info
        self.works_apart = works_apart
        self.batches: list[list[Call]] = []

    def send(self, calls: list[Call], expected: list | None = None) -> list:
        self.batches.append(list(calls))
        return self.inner.send(calls)

    def collect(self, ticket: list) -> list:
        return ticket

    def stop(self) -> None:
        pass


def suite():
    return load_suite([SUITE_ROOT], Selection())[0]


def test_a_shuffle_costs_one_round_trip_and_the_first_batch_is_known_ahead():
    [scenario] = load_suite([SHUFFLED], Selection())[0]
    shuffles = sum(step["op"] == "shuffle" for step in scenario.steps)
    assert shuffles == 1 and is_open(scenario)
    engine = Counting()
    run_steps(scenario.steps, engine)
    assert len(engine.batches) == shuffles + 1  # not a state call and an apply of its own per shuffle
    assert engine.batches[0] == first_calls(scenario.steps) and engine.batches[0][-1] == ("state",)
    assert engine.batches[1][0][0] == "apply" and engine.batches[1][0][1]["type"] == "shuffle"


def test_segments_split_at_each_shuffle_and_keep_every_other_step():
    steps = [{"op": "setup"}, {"op": "shuffle", "n": 1}, {"op": "apply"}, {"op": "shuffle", "n": 2}]
    assert segments(steps) == [([{"op": "setup"}], {"op": "shuffle", "n": 1}),
                               ([{"op": "apply"}], {"op": "shuffle", "n": 2}), ([], None)]
    assert first_calls([{"op": "new_game", "players": 3}]) == [("new_game", 3)]


def test_chunks_end_at_an_open_scenario():
    scenarios = suite()
    run = Run(scenarios, {}, None, None, threading.Event(), 0)
    taken = []
    while chunk := run.take(CHUNK):
        assert len(chunk) <= CHUNK and not any(is_open(s) for _, s in chunk[:-1])
        taken += [i for i, _ in chunk]
    assert taken == list(range(len(scenarios)))


def test_pipelined_run_of_the_whole_suite_passes_and_sends_each_scenario_ahead_once():
    """Every scenario's first calls go out with its chunk; an open scenario's later calls follow it alone."""
    scenarios = suite()
    engine = Counting(works_apart=True)
    outcomes, complete = run_suite(scenarios, lambda: engine)
    assert complete and {o.status for o in outcomes} == {"pass"}
    opened = sum(is_open(s) for s in scenarios)
    shuffles = sum(step["op"] == "shuffle" for s in scenarios for step in s.steps)
    chunks = len(engine.batches) - shuffles  # the other batches: one per shuffle
    assert opened < chunks <= len(scenarios) // 2  # several scenarios a batch, never one a shuffle



def test_an_open_scenarios_second_run_goes_out_with_no_wait():
    """Its shuffle resolved from the answered state, an open scenario's second run is sent as soon as its chunk is
    answered (the engine works on it while the harness judges); only later shuffles wait for a round trip."""
    scenarios = suite()

    class Waiting(Counting):
        waits = 0

        def batch(self, calls: list[Call]) -> list:  # a round trip the harness waits for
            self.waits += 1
            return super().batch(calls)

    engine = Waiting(works_apart=True)
    outcomes, _ = run_suite(scenarios, lambda: engine)
    assert {o.status for o in outcomes} == {"pass"}
    opened = sum(is_open(s) for s in scenarios)
    shuffles = sum(step["op"] == "shuffle" for s in scenarios for step in s.steps)
    assert engine.waits == shuffles - opened and opened > 50


def test_answers_sent_ahead_and_never_asked_for_are_read_before_anything_else():
    scenario = next(s for s in suite() if sum(step["op"] == "shuffle" for step in s.steps) == 1)
    engine = Counting(works_apart=True)
    plans, ticket = send_chunk([scenario], engine)
    (answered,) = receive_chunk(engine, (plans, ticket))
    assert follow_up(scenario, engine, answered)  # one shuffle: nothing more waits for an answer
    read: list = []
    engine.collect = lambda ticket: read.append(ticket) or ticket  # type: ignore[method-assign]
    answered.drain()
    assert len(read) == 1 and answered.ahead is None
    answered.drain()  # once only
    assert len(read) == 1


def test_over_the_protocol_sending_ahead_changes_no_outcome_of_an_engine_that_fails(monkeypatch):
    """Open scenarios failing before their shuffle leave answers sent ahead: read and dropped, the next scenarios
    are judged on their own answers (as when nothing is sent ahead)."""
    import sys
    from pathlib import Path

    from baobei_conform import harness
    from baobei_conform.engines import engine_factory

    wrong = Path(__file__).resolve().parents[2] / "examples" / "wrong_engine" / "engine.py"
    factory, _ = engine_factory(None, [sys.executable, str(wrong), "--bug", "all"])

    def outcomes():
        found, complete = run_suite(suite(), factory)
        assert complete
        return [(o.scenario, o.status, o.message, o.line) for o in found]

    ahead = outcomes()
    monkeypatch.setattr(harness, "follow_up", lambda *args: False)
    assert ahead == outcomes()
    assert sum(status == "fail" for _, status, _, _ in ahead) > 20
    assert all(status in ("pass", "fail", "skip") for _, status, _, _ in ahead)


CASES = Path(__file__).resolve().parent / "pipeline_cases"


def test_an_engine_dying_on_answers_sent_ahead_is_not_blamed_on_the_next_scenario():
    """A scenario fails before its shuffle; the engine dies on the second run sent ahead for it: the next scenario
    runs on a fresh engine and passes (found in review: it used to report the crash)."""
    import sys

    from baobei_conform.engines import engine_factory

    factory, _ = engine_factory(None, [sys.executable, str(Path(__file__).parent / "engines" / "crash_on_shuffle.py")])
    scenarios = load_suite([CASES / "crash"], Selection())[0]
    outcomes, complete = run_suite(scenarios, factory)
    assert complete and [(o.scenario, o.status) for o in outcomes] == [("s-open", "fail"), ("t-next", "pass")]


def test_a_shuffle_the_engines_reading_leaves_out_sends_nothing_ahead():
    """An open scenario whose only shuffle is under a reading the engine does not follow: nothing is sent ahead
    and every scenario runs (found in review: the worker died)."""
    import sys

    from baobei_conform.engines import engine_factory

    factory, _ = engine_factory(None, [sys.executable, "-m", "baobei_conform.protocol.server", "serve",
                                       "--reading", "R-04=A"])
    scenarios = load_suite([CASES / "under"], Selection())[0]
    outcomes, complete = run_suite(scenarios, factory)
    assert complete and len(outcomes) == 3 and "error" not in {o.status for o in outcomes}


def test_an_error_that_is_no_object_is_each_scenarios_protocol_error():
    """``"error": "boom"`` refusing an action: every scenario that applies one reports it; the run completes
    (found in review: the worker died)."""
    import sys

    from baobei_conform.engines import engine_factory

    factory, _ = engine_factory(None, [sys.executable, str(Path(__file__).parent / "engines" / "error_not_object.py")])
    scenarios = load_suite([CASES / "under"], Selection())[0]
    outcomes, complete = run_suite(scenarios, factory)
    assert complete and len(outcomes) == 3
    assert any(o.status == "error" and "error.code" in o.message for o in outcomes), outcomes
