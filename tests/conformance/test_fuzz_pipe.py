"""The fuzzer's Pipe: calls sent ahead in groups, checked in order, nothing left on the wire after a failure."""

from __future__ import annotations

import pytest

from baobei_conform.fuzz.trial import Pipe


class Echo:
    """An engine that answers each call with the call itself, recording every send and collect."""

    works_apart = True

    def __init__(self):
        self.sent: list[list] = []
        self.expected: list[list] = []
        self.collected = 0

    def send(self, calls, expected=None):
        self.sent.append(list(calls))
        self.expected.append(expected)
        return len(self.sent) - 1

    def collect(self, ticket):
        self.collected += 1
        return self.sent[ticket]


def test_groups_go_out_in_one_send_and_each_check_gets_its_own_replies_in_order():
    engine, seen = Echo(), []
    with Pipe(engine) as pipe:
        for i in range(10):
            pipe.submit([("apply", i), ("state", i)], lambda results, i=i: seen.append((i, results)))
    assert len(engine.sent) == -(-10 // Pipe.GROUP)  # one write per group, the last one partial
    assert seen == [(i, [("apply", i), ("state", i)]) for i in range(10)]
    assert engine.collected == len(engine.sent)


def test_expected_results_go_out_aligned_with_their_calls():
    engine = Echo()
    with Pipe(engine) as pipe:
        for i in range(Pipe.GROUP + 1):
            pipe.submit([("apply", i), ("state",)], lambda results: None, [f"events {i}", f"state {i}"])
            pipe.submit([("state",)], lambda results: None)  # nothing expected
    flat = [pair for calls, expected in zip(engine.sent, engine.expected, strict=True)
            for pair in zip(calls, expected, strict=True)]
    assert flat[:5] == [(("apply", 0), "events 0"), (("state",), "state 0"), (("state",), None),
                        (("apply", 1), "events 1"), (("state",), "state 1")]
    assert len(flat) == 3 * (Pipe.GROUP + 1)


def test_a_failed_check_stops_the_checks_and_every_sent_reply_is_still_read():
    engine, seen = Echo(), []

    def check(results, i):
        seen.append(i)
        if i == 5:
            raise AssertionError("the engine got action 5 wrong")
    with pytest.raises(AssertionError), Pipe(engine) as pipe:
        for i in range(Pipe.GROUP * (Pipe.DEPTH + 3)):
            pipe.submit([("apply", i)], lambda results, i=i: check(results, i))
    assert seen == list(range(6))
    assert engine.collected == len(engine.sent)  # the engine's replies never linger for the next game
