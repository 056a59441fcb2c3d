"""The search: Hypothesis drives the trials within a time budget and shrinks the first failure.

Examples run in rounds of ``ROUND`` examples, each round with its own seed (derived from ``seed``
when ``derandomize`` is set, so CI runs are repeatable); the example database replays the last
failures first. A failure is shrunk by Hypothesis, then written as a scenario (``reproduce``). A signal
(Ctrl-C, SIGTERM: signals.py) ends the search with what it has: the coverage so far and the shortest failure
seen, if any (mid-shrink, the best one yet).
Rounds are numbered: with several jobs (``jobs.py``) job k plays rounds k, k + jobs, ..., so
``--max-examples`` with ``--derandomize`` plays the same games whatever the number of jobs.
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from hypothesis.database import DirectoryBasedExampleDatabase
from hypothesis.errors import FlakyFailure
from hypothesis.internal.conjecture import engine as conjecture

from baobei_conform.collection import fewer_collections
from baobei_conform.fuzz.positions import Start, corpus
from baobei_conform.fuzz.trial import Coverage, Found, Trial

ROUND = 5  # examples per Hypothesis run; the budget is checked between runs
MIN_SHRINK_SECONDS = 10.0  # shrinking a failure found late may run this long past the budget
DEFAULT_DATABASE = ".baobei-fuzz"


@dataclass
class SearchResult:
    found: Found | None
    coverage: Coverage
    seconds: float
    rounds: int
    notes: list[str] = field(default_factory=list)
    interrupted: bool = False  # by a signal: what was played (and found) until then


def search(engine, *, budget: float = 60.0, max_examples: int | None = None, seed: int | None = None,
           derandomize: bool = False, database: str | None = DEFAULT_DATABASE, scenarios: tuple[str, ...] = (),
           players=(2, 3, 4, 5, 6), differential: bool = True, starts: tuple[Start, ...] | None = None,
           job: int = 0, jobs: int = 1, began: float | None = None, stop=None) -> SearchResult:
    """Fuzz ``engine`` until a failure is found, ``budget`` seconds pass or ``max_examples`` have run.

    ``derandomize``: rounds are seeded from ``seed`` (0 by default) and the database is not read, so two
    runs play the same games; otherwise ``seed`` (when given) seeds the rounds and the database replays
    earlier failures first. ``job`` of ``jobs``: this search plays every ``jobs``-th round from round ``job``
    (``max_examples`` counts the examples of every job), from ``began`` (``time.monotonic()``, shared by the
    jobs) until the budget is spent or the ``stop`` event is set (another job found a problem). ``starts``:
    the corpus, when already read.
    """
    if derandomize:
        seed, database = seed or 0, None
    if starts is None:
        starts = corpus(tuple(scenarios)) if scenarios else ()
    began = time.monotonic() if began is None else began
    so_far = SearchResult(None, Coverage(), 0.0, 0)
    try:
        trial = Trial(engine, starts, players, differential, so_far.coverage)
        db = DirectoryBasedExampleDatabase(str(Path(database))) if database else None
        with fewer_collections():
            return _rounds(trial, so_far, db, budget, max_examples, seed, job, jobs, began, stop)
    except KeyboardInterrupt:
        so_far.interrupted, so_far.seconds = True, time.monotonic() - began
        return so_far


def _rounds(trial: Trial, so_far: SearchResult, db, budget: float, max_examples: int | None, seed: int | None,
            job: int, jobs: int, began: float, stop) -> SearchResult:
    """The rounds until a failure, the budget or ``stop``; ``so_far`` is kept up to date for an interruption."""
    coverage = so_far.coverage
    for number in range(job, 1 << 62, jobs):
        examples = ROUND if max_examples is None else min(ROUND, max_examples - number * ROUND)
        if examples <= 0 or time.monotonic() - began >= budget or (stop is not None and stop.is_set()):
            break
        test = given(st.data())(lambda data: _play(trial, so_far, data, began))
        test = settings(max_examples=examples, deadline=None, database=db, derandomize=False,
                        suppress_health_check=list(HealthCheck), report_multiple_bugs=False, print_blob=False,
                        verbosity=Verbosity.quiet,
                        phases=[Phase.reuse, Phase.generate, Phase.shrink] if number == 0 else
                        [Phase.generate, Phase.shrink])(test)
        if seed is not None:
            test = hypothesis_seed(seed * 1_000_003 + number)(test)
        so_far.rounds += 1
        shrink_limit = max(MIN_SHRINK_SECONDS, budget - (time.monotonic() - began))
        try:
            with _shrinking_for(shrink_limit):
                test()
        except Found as found:
            return SearchResult(found, coverage, time.monotonic() - began, so_far.rounds)
        except FlakyFailure as exc:  # the engine did not fail the same way twice on the same game
            found = next((e for e in exc.exceptions if isinstance(e, Found)), None)
            return SearchResult(found, coverage, time.monotonic() - began, so_far.rounds,
                                ["the engine failed, then passed the same game: it is not deterministic"])
    return SearchResult(None, coverage, time.monotonic() - began, so_far.rounds)


def _play(trial: Trial, so_far: SearchResult, data, began: float) -> None:
    """One example; the first failure's time is kept (what follows it is shrinking), and the shortest failure
    seen (what an interrupted search reports)."""
    try:
        trial.play(data)
    except Found as found:
        if trial.coverage.failed_at is None:
            trial.coverage.failed_at = time.monotonic() - began
        if so_far.found is None or len(found.actions) <= len(so_far.found.actions):
            so_far.found = found
        raise


@contextmanager
def _shrinking_for(seconds: float):
    """Hypothesis shrinks for up to five minutes; a fuzzing budget is shorter. (Its module constant is the only
    knob; it is restored afterwards.)"""
    saved = conjecture.MAX_SHRINKING_SECONDS
    conjecture.MAX_SHRINKING_SECONDS = seconds
    try:
        yield
    finally:
        conjecture.MAX_SHRINKING_SECONDS = saved
