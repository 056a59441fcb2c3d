"""The search: Hypothesis drives the trials within a time budget and shrinks one failure of every distinct problem.

Examples run in rounds of ``ROUND`` examples, each round with its own seed (derived from ``seed``
when ``derandomize`` is set, so CI runs are repeatable); the example database replays the last
failures first. Problems are told apart by their ``group`` (the check and where: a JSON path's shape, an event
kind, an action type, compare.py). The first game of a round that fails with a problem not seen yet makes it the
round's problem: Hypothesis shrinks that game, and while it does, a game failing otherwise passes for it (so the
shrinker never slips to another problem); a game failing with a problem already shrunk also passes, so the search
goes on to find the others, counting how many games each problem failed. The search runs to the budget (or
``distinct`` problems); every problem is then written as a scenario (``reproduce``), the most frequent first. A
signal (Ctrl-C, SIGTERM: signals.py) ends the search with what it has: the coverage so far and every problem seen,
each with its shortest failure (mid-shrink, the best one yet).
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

from baobei_conform.fuzz.collection import fewer_collections
from baobei_conform.fuzz.positions import Start, corpus
from baobei_conform.fuzz.trial import Coverage, Found, Trial

ROUND = 5  # examples per Hypothesis run; the budget is checked between runs
MIN_SHRINK_SECONDS = 10.0  # shrinking a failure found late may run this long past the budget
DEFAULT_DATABASE = ".baobei-fuzz"


@dataclass
class Distinct:
    """One distinct problem of a run: its shortest failure, how many generated games failed with it, and whether
    Hypothesis shrank it (a problem seen only while another was shrunk, or when the budget ran out, is not)."""

    found: Found
    games: int = 0
    shrunk: bool = False

    def better(self, found: Found) -> None:
        """Keep ``found`` when it is as short or shorter."""
        if len(found.actions) <= len(self.found.actions):
            self.found = found


@dataclass
class SearchResult:
    problems: dict[str, Distinct]  # by group
    coverage: Coverage
    seconds: float
    rounds: int
    notes: list[str] = field(default_factory=list)
    interrupted: bool = False  # by a signal: what was played (and found) until then

    def ranked(self) -> list[Distinct]:
        """The problems, the most frequent first (then in the order found)."""
        return sorted(self.problems.values(), key=lambda d: -d.games)

    @property
    def found(self) -> Found | None:
        """The most frequent problem's failure, if any."""
        ranked = self.ranked()
        return ranked[0].found if ranked else None


@dataclass
class _Round:
    """The round under way: the problem it shrinks (None until a game fails with a new one)."""

    target: str | None = None


def search(engine, *, budget: float = 60.0, max_examples: int | None = None, seed: int | None = None,
           derandomize: bool = False, database: str | None = DEFAULT_DATABASE, scenarios: tuple[str, ...] = (),
           players=(2, 3, 4, 5, 6), differential: bool = True, starts: tuple[Start, ...] | None = None,
           job: int = 0, jobs: int = 1, began: float | None = None, stop=None,
           distinct: int | None = 1) -> SearchResult:
    """Fuzz ``engine`` until ``distinct`` problems are found (None: as many as there are), ``budget`` seconds pass
    or ``max_examples`` have run.

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
    so_far = SearchResult({}, Coverage(), 0.0, 0)
    try:
        trial = Trial(engine, starts, players, differential, so_far.coverage)
        db = DirectoryBasedExampleDatabase(str(Path(database))) if database else None
        with fewer_collections():
            return _rounds(trial, so_far, db, budget, max_examples, seed, job, jobs, began, stop, distinct)
    except KeyboardInterrupt:
        so_far.interrupted, so_far.seconds = True, time.monotonic() - began
        return so_far


def _rounds(trial: Trial, so_far: SearchResult, db, budget: float, max_examples: int | None, seed: int | None,
            job: int, jobs: int, began: float, stop, distinct: int | None) -> SearchResult:
    """The rounds until ``distinct`` problems, the budget or ``stop``; ``so_far`` is kept up to date (for an
    interruption) and returned."""
    for number in range(job, 1 << 62, jobs):
        examples = ROUND if max_examples is None else min(ROUND, max_examples - number * ROUND)
        if examples <= 0 or time.monotonic() - began >= budget or (stop is not None and stop.is_set()):
            break
        if enough(so_far, distinct):
            break
        under_way = _Round()
        test = given(st.data())(lambda data: _play(trial, so_far, under_way, data, began))  # noqa: B023 - this round
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
        except Found as found:  # the round's problem, shrunk
            _seen(so_far, found).shrunk = True
        except FlakyFailure as exc:  # the engine did not fail the same way twice on the same game
            flaky = next((e for e in exc.exceptions if isinstance(e, Found)), None)
            if flaky is not None:
                _seen(so_far, flaky).shrunk = True
            note = "the engine failed, then passed the same game: it is not deterministic"
            if note not in so_far.notes:
                so_far.notes.append(note)
    so_far.seconds = time.monotonic() - began
    return so_far


def enough(result: SearchResult, distinct: int | None) -> bool:
    """Whether the search has shrunk the ``distinct`` problems asked for (None: never enough)."""
    return distinct is not None and sum(d.shrunk for d in result.problems.values()) >= distinct


def _seen(so_far: SearchResult, found: Found) -> Distinct:
    """The problem ``found`` is a failure of, kept with its shortest failure."""
    group = found.problem.group
    seen = so_far.problems.get(group)
    if seen is None:
        seen = so_far.problems[group] = Distinct(found)
    seen.better(found)
    return seen


def _play(trial: Trial, so_far: SearchResult, under_way: _Round, data, began: float) -> None:
    """One example. A failure is raised (for Hypothesis to shrink) when it is the round's problem, or the round has
    none yet and its problem is new; otherwise the game passes for Hypothesis. Every problem is kept with its
    shortest failure (what an interrupted search reports) and the number of generated games it failed (those before
    the round's problem: the games after it are the shrinker's); the first failure's time is kept."""
    try:
        trial.play(data)
    except Found as found:
        if trial.coverage.failed_at is None:
            trial.coverage.failed_at = time.monotonic() - began
        seen, group = _seen(so_far, found), found.problem.group
        if under_way.target is None:
            seen.games += 1
            if not seen.shrunk:
                under_way.target = group
        if group == under_way.target:
            raise


@contextmanager
def _shrinking_for(seconds: float):
    """Hypothesis shrinks for up to five minutes; a fuzzing budget is shorter. (Its module constant is the only
    knob; it is restored afterwards.)"""
    saved = conjecture.MAX_SHRINKING_SECONDS
    # hypothesis infers the constant an int; it is compared with the seconds elapsed, so a float works
    conjecture.MAX_SHRINKING_SECONDS = seconds  # type: ignore[assignment]
    try:
        yield
    finally:
        conjecture.MAX_SHRINKING_SECONDS = saved
