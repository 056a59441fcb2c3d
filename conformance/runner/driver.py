"""The one driver: several sans-IO runs in flight on one engine (the pipelining, written once).

A *run* is a generator that yields a ``Batch`` of engine calls, is sent back their results (in order; an exception
object where a call failed), judges them as they arrive, and yields its next batch or returns its verdict. The
engine holds one game, so the runs share it in turn: a batch that says ``more`` (its run may send another after its
answers, as a scenario with a shuffle does) holds back the next runs until that run's last batch is known. It does
no I/O, so the same run is driven in process, over stdio, by the harness (a scenario a run) and by the fuzzer (an
action's checks a run). ``drive`` keeps up to ``depth`` runs in flight: the batches known at a moment go out
together, at most ``group`` runs' batches a write, every batch whole in one write (the engine never waits on the
harness between two requests of a batch), and while the engine works on them the oldest answers are judged.
Answers come back in the order the calls went out, so the runs are judged in that order too. In process (an engine
that answers when it is sent: not ``works_apart``) one run is in flight at a time: a hang in one would hold back
the others' verdicts.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Generator, Hashable, Iterable
from typing import Any, Generic, NamedTuple, TypeVar

from baobei_conform.engines.api import Call, Engine, EngineProblem, Results

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)  # a run's key, which ``done`` and the unfinished list name it by


class Batch(NamedTuple):
    """Engine calls a run needs answered before it goes on; ``more``: it may need another batch after them."""

    calls: list[Call]
    more: bool = False


Run = Generator[Batch, Results, T]  # yields batches of calls, is sent their results, returns its verdict
Done = Callable[[K, T, float], bool]  # (key, verdict, seconds) -> go on

DEPTH = 16  # runs in flight on an engine that works apart
GROUP = 4  # runs whose batches share one write (each write wakes the engine: fewer, larger ones cost less)


class _Flight(Generic[K, T]):
    """One run in flight: its key, its generator, its batch's size, the seconds spent on it so far."""

    __slots__ = ("key", "run", "count", "seconds")

    def __init__(self, key: K, run: Run[T]) -> None:
        self.key, self.run, self.count, self.seconds = key, run, 0, 0.0


def drive(runs: Iterable[tuple[K, Run[T]]], engine: Engine, done: Done[K, T],
          depth: int | None = None, group: int | None = None) -> list[K]:
    """Drive ``runs`` (key, run) on ``engine`` until all have returned; ``done`` gets each verdict as it comes.

    ``done`` returning False stops the drive at once: the keys of the runs still unfinished are returned, their
    answers left unread (the engine is to be dropped: it broke, or the run is over). A run that raises stops the
    drive too: the answers still on their way are read and dropped (the engine can be used again), and the
    exception goes on. ``seconds`` is the run's share of the engine's time plus its own judging."""
    apart = engine.works_apart
    depth, group = (depth or DEPTH, group or GROUP) if apart else (1, 1)
    source = iter(runs)
    ready: list[tuple[_Flight[K, T], list[Call]]] = []  # batches known, not sent yet
    flying: deque[tuple[Any, list[_Flight[K, T]]]] = deque()  # (ticket, its runs), in the order sent
    live = 0  # runs started and not finished
    exhausted = False
    holding: _Flight[K, T] | None = None  # the run whose next batch must go out before any other run starts

    def advance(flight: _Flight[K, T], results: Results | None) -> bool:
        """Hand the run its results (None: start it); queue its next batch, or record its verdict."""
        nonlocal live, holding
        clock = time.perf_counter()
        try:
            batch = next(flight.run) if results is None else flight.run.send(results)
        except StopIteration as stop:
            flight.seconds += time.perf_counter() - clock
            live -= 1
            holding = None if holding is flight else holding
            return done(flight.key, stop.value, flight.seconds)
        flight.seconds += time.perf_counter() - clock
        flight.count = len(batch.calls)
        holding = flight if batch.more else None if holding is flight else holding
        ready.append((flight, batch.calls))
        return True

    def unfinished() -> list[K]:
        return [f.key for f, _ in ready] + [f.key for _, members in flying for f in members]

    try:
        while True:
            while not exhausted and live < depth and holding is None:
                item = next(source, None)
                if item is None:
                    exhausted = True
                    break
                live += 1
                if not advance(_Flight(*item), None):
                    return unfinished()
            while ready:
                _send(engine, ready[:group], flying)
                del ready[:group]
            if not flying:
                if exhausted:
                    return []
                continue
            ticket, members = flying.popleft()
            clock = time.perf_counter()
            results = _collect(engine, ticket)
            share = (time.perf_counter() - clock) / max(1, len(results))
            start = 0
            for position, flight in enumerate(members):
                count = flight.count
                flight.seconds += share * count
                if not advance(flight, results[start:start + count]):
                    return unfinished() + [f.key for f in members[position + 1:]]
                start += count
    except BaseException:
        while flying:  # read and dropped: the engine's next answers are then the next caller's
            _collect(engine, flying.popleft()[0])
        raise


class _Unsent:
    """The ticket of calls the engine did not take (it broke): each of them holds the problem."""

    def __init__(self, results: Results) -> None:
        self.results = results


def _send(engine: Engine, batches: list[tuple[_Flight[K, T], list[Call]]],
          flying: deque[tuple[Any, list[_Flight[K, T]]]]) -> None:
    calls = [call for _, batch in batches for call in batch]
    try:
        ticket: Any = engine.send(calls)
    except EngineProblem as exc:  # each run reports it
        ticket = _Unsent([exc] * len(calls))
    flying.append((ticket, [flight for flight, _ in batches]))


def _collect(engine: Engine, ticket: Any) -> Results:
    return ticket.results if isinstance(ticket, _Unsent) else engine.collect(ticket)


def run_one(run: Run[T], engine: Engine) -> T:
    """Drive a single run to its verdict (what a caller with one scenario or one check wants)."""
    verdicts: list[T] = []

    def done(key: Hashable, verdict: T, seconds: float) -> bool:
        verdicts.append(verdict)
        return True

    drive([(0, run)], engine, done)
    return verdicts[0]


def checked(calls: list[Call], judge: Callable[[Results], None]) -> Run[None]:
    """A run of one batch: ``judge`` gets its results (the fuzzer's per-action checks)."""
    judge((yield Batch(calls)))


def drive_all(runs: Iterable[Run[Any]], engine: Engine) -> None:
    """Drive runs whose verdicts nobody keeps (they judge by raising)."""
    drive(enumerate(runs), engine, lambda key, verdict, seconds: True)
