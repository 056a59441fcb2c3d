"""Several searches at once (``baobei-conform fuzz --jobs N``): one per process, each with its own engine.

Job 0 runs in this process on the engine the command started; jobs 1..N-1 are spawned processes that start the
engine the same way. Job k plays rounds k, k + N, ... (``search``), all until the same deadline. A job that has
found the ``distinct`` problems asked for sets ``stop``: the others finish the round under way and end. Their
coverage adds up, and so do their problems (by group: the games counted together, the shortest failure kept, job 0's
first); every problem is tightened and reproduced by the caller on job 0's engine, as with one job. A job that
cannot run fails the run (``JobFailed``) unless a problem was found: a problem stands whatever happened to another
job (it is checked again on job 0's engine), and the failure becomes a note.

A signal (signals.py) ends every job at once: the jobs are in the command's process group (a terminal's Ctrl-C
reaches them) and are sent SIGTERM besides (a ``kill`` of the command alone); each kills its engine, reports what it
played and found so far, and ends. The jobs start with both signals blocked until their handlers are set, so a
signal that comes while one is still importing waits for it instead of printing a traceback.
"""

from __future__ import annotations

import multiprocessing
import queue
import signal
import time
from dataclasses import dataclass

from baobei_conform import signals
from baobei_conform.fuzz.search import Distinct, SearchResult, enough, search
from baobei_conform.fuzz.trial import Coverage, Found


@dataclass(frozen=True)
class EngineSpec:
    """How a job starts the engine: ``engine_factory``'s arguments (picklable, unlike the factory)."""

    engine: str | None
    command: list[str] | None
    timeout: float


INTERRUPT_WAIT = 1.0  # seconds the jobs get, together, to report after a signal


class JobFailed(Exception):
    """A spawned job could not run (its engine did not start, or it crashed): the run cannot be trusted."""


def search_jobs(engine, spec: EngineSpec, jobs: int, **options) -> SearchResult:
    """``search`` on ``jobs`` processes; ``engine`` is job 0's (already started), ``options`` go to every job."""
    if jobs == 1:
        return search(engine, **options)
    context = multiprocessing.get_context("spawn")  # no fork: the harness holds threads and engine pipes
    stop, results = context.Event(), context.Queue()
    began = time.monotonic()
    options = {**options, "began": began, "jobs": jobs, "stop": stop}
    workers = [context.Process(target=_job, args=(spec, k, options, results), name=f"baobei-fuzz-{k}", daemon=True)
               for k in range(1, jobs)]
    mine = SearchResult({}, Coverage(), 0.0, 0, interrupted=True)  # until job 0's search returns
    reports: dict[int, tuple] = {}
    failures: list[str] = []
    try:
        with signals.blocked():
            for worker in workers:
                worker.start()
        try:
            mine = search(engine, job=0, **options)  # interrupted: what it had
            if enough(mine, options.get("distinct", 1)) or mine.interrupted:
                stop.set()
            if not mine.interrupted:
                _collect(results, workers, stop, reports, failures)
        except KeyboardInterrupt:  # while the other jobs were waited for
            mine.interrupted = True
        if mine.interrupted:
            _terminate(workers)
            _collect(results, workers, stop, reports, failures, time.monotonic() + INTERRUPT_WAIT)
    finally:
        stop.set()
        deadline = time.monotonic() + (INTERRUPT_WAIT if mine.interrupted else 5.0)
        for worker in workers:
            worker.join(max(0.0, deadline - time.monotonic()))
            if worker.is_alive():
                worker.terminate()  # its engine is in its own process group: the job's handler kills it
    merged = _merged(mine, [reports[k] for k in sorted(reports)], time.monotonic() - began)
    if failures and not merged.problems and not merged.interrupted:
        raise JobFailed("; ".join(failures))
    merged.notes += [f"{failure} (the problem found by another job is reported all the same)" for failure in failures]
    return merged


def _job(spec: EngineSpec, job: int, options: dict, results) -> None:
    """One spawned job: start the engine, search its rounds, report (a problem as plain data: Found does not
    pickle), stop the engine."""
    from baobei_conform.engines.api import as_engine
    from baobei_conform.harness.factory import engine_factory

    signals.install()  # as the command: a signal kills the engine at once, the search reports what it has
    engine = None
    try:
        signals.unblock()  # a signal that came while this job started is raised here
        factory, _ = engine_factory(spec.engine, spec.command, spec.timeout)
        engine = as_engine(factory())
        result = search(engine, job=job, **options)
        if enough(result, options.get("distinct", 1)):
            options["stop"].set()
        _report(results, job, result)
    except KeyboardInterrupt:  # before the search began: nothing played
        _report(results, job, SearchResult({}, Coverage(), 0.0, 0, interrupted=True))
    except BaseException as exc:  # noqa: BLE001 - reported to the parent, which fails the run
        options["stop"].set()  # the others (job 0 too) end after their round
        results.put((job, f"{type(exc).__name__}: {getattr(exc, 'message', exc)}", None, 0, [], None, False))
    finally:
        if engine is not None:
            stop_shielded(engine)


def _report(results, job: int, result: SearchResult) -> None:
    """A job's result for the parent (a problem as plain data: Found does not pickle)."""
    problems = [(group, d.games, d.shrunk, (d.found.problem, d.found.start, d.found.actions, d.found.clauses,
                                           d.found.probe, d.found.code)) for group, d in result.problems.items()]
    results.put((job, None, result.coverage, result.rounds, result.notes, problems, result.interrupted))


def _terminate(workers: list) -> None:
    """SIGTERM to every job still running (the command was signalled alone, not its process group)."""
    for worker in workers:
        if worker.is_alive():
            worker.terminate()


def stop_shielded(engine) -> None:
    """Stop ``engine`` with SIGTERM and SIGINT ignored: a second signal (the parent's terminate, a Ctrl-C to the
    process group) arriving while it stops must not cut its kill short and leave the engine running."""
    for number in (signal.SIGTERM, signal.SIGINT):
        signal.signal(number, signal.SIG_IGN)
    engine.stop()


def _collect(results, workers: list, stop, reports: dict[int, tuple], failures: list[str],
             deadline: float | None = None) -> None:
    """Every spawned job's report into ``reports``, waited for as long as its process lives (a round runs to its
    end, however long the engine takes) or until ``deadline`` (after a signal), and into ``failures`` what went
    wrong with the jobs that failed or ended without a report (the others are stopped at once)."""
    while len(reports) + len(failures) < len(workers):
        left = 1.0 if deadline is None else deadline - time.monotonic()
        if left <= 0:
            break
        try:
            report = results.get(timeout=min(left, 1.0))
        except queue.Empty:
            gone = [k for k, w in enumerate(workers, 1) if not w.is_alive() and k not in reports]
            if gone and results.empty():
                failures += [f"fuzzing job {k} ended without a report" for k in gone]
                stop.set()
            continue
        if report[1] is not None:
            failures.append(f"fuzzing job {report[0]} failed: {report[1]}")
            stop.set()  # the run cannot be trusted: the others end now
        else:
            reports[report[0]] = report


def _merged(mine: SearchResult, others: list[tuple], seconds: float) -> SearchResult:
    coverage = Coverage()
    coverage.merge(mine.coverage)
    problems = dict(mine.problems)
    rounds, notes, interrupted = mine.rounds, list(mine.notes), mine.interrupted
    for job, _, theirs, their_rounds, their_notes, their_problems, their_interruption in others:
        interrupted = interrupted or their_interruption
        coverage.merge(theirs)
        rounds += their_rounds
        notes += [f"job {job}: {note}" for note in their_notes]
        for group, games, shrunk, found in their_problems:
            seen = problems.setdefault(group, Distinct(Found(*found)))
            seen.better(Found(*found))
            seen.games += games
            seen.shrunk = seen.shrunk or shrunk
    return SearchResult(problems, coverage, seconds, rounds, notes, interrupted)
