"""Several searches at once (``baobei-conform fuzz --jobs N``): one per process, each with its own engine.

Job 0 runs in this process on the engine the command started; jobs 1..N-1 are spawned processes that start
the engine the same way. Job k plays rounds k, k + N, ... (``search``), all until the same deadline. The first
job to find a problem sets ``stop``: the others finish the round under way and end. Their coverage adds up;
the problem found (job 0's first, then the lowest job's) is tightened and reproduced by the caller on job 0's
engine, as with one job. A job that cannot run fails the run (``JobFailed``) unless a problem was found: a
problem stands whatever happened to another job (it is checked again on job 0's engine), and the failure
becomes a note.
"""

from __future__ import annotations

import multiprocessing
import queue
import signal
import sys
import time
from dataclasses import dataclass

from baobei_conform.fuzz.search import SearchResult, search
from baobei_conform.fuzz.trial import Coverage, Found


@dataclass(frozen=True)
class EngineSpec:
    """How a job starts the engine: ``engine_factory``'s arguments (picklable, unlike the factory)."""

    engine: str | None
    command: list[str] | None
    timeout: float


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
    for worker in workers:
        worker.start()
    try:
        mine = search(engine, job=0, **options)
        if mine.found:
            stop.set()
        others, failures = _collect(results, workers, stop)
    finally:
        stop.set()
        for worker in workers:
            worker.join(5.0)
            if worker.is_alive():
                worker.terminate()  # its engine is in its own process group: the job's finally stops it
    merged = _merged(mine, others, time.monotonic() - began)
    if failures and merged.found is None:
        raise JobFailed("; ".join(failures))
    merged.notes += [f"{failure} (the problem found by another job is reported all the same)" for failure in failures]
    return merged


def _job(spec: EngineSpec, job: int, options: dict, results) -> None:
    """One spawned job: start the engine, search its rounds, report (a problem as plain data: Found does not
    pickle), stop the engine."""
    from baobei_conform.engine_api import as_engine
    from baobei_conform.engines import engine_factory

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # terminated: the engine is still stopped (finally)
    engine = None
    try:
        factory, _ = engine_factory(spec.engine, spec.command, spec.timeout)
        engine = as_engine(factory())
        result = search(engine, job=job, **options)
        if result.found:
            options["stop"].set()
        found = result.found
        results.put((job, None, result.coverage, result.rounds, result.notes, None if found is None else (
            found.problem, found.start, found.actions, found.clauses, found.probe, found.code)))
    except BaseException as exc:  # noqa: BLE001 - reported to the parent, which fails the run
        options["stop"].set()  # the others (job 0 too) end after their round
        results.put((job, f"{type(exc).__name__}: {getattr(exc, 'message', exc)}", None, 0, [], None))
    finally:
        if engine is not None:
            stop_shielded(engine)


def stop_shielded(engine) -> None:
    """Stop ``engine`` with SIGTERM and SIGINT ignored: a second signal (the parent's terminate, a Ctrl-C to the
    process group) arriving while it stops must not cut its kill short and leave the engine running."""
    for number in (signal.SIGTERM, signal.SIGINT):
        signal.signal(number, signal.SIG_IGN)
    engine.stop()


def _collect(results, workers: list, stop) -> tuple[list[tuple], list[str]]:
    """Every spawned job's report, waited for as long as its process lives (a round runs to its end, however
    long the engine takes), and what went wrong with the jobs that failed or ended without a report (the others
    are stopped at once)."""
    reports: dict[int, tuple] = {}
    failures: list[str] = []
    while len(reports) + len(failures) < len(workers):
        try:
            report = results.get(timeout=1.0)
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
    return [reports[k] for k in sorted(reports)], failures


def _merged(mine: SearchResult, others: list[tuple], seconds: float) -> SearchResult:
    coverage = Coverage(set(mine.coverage.clauses), mine.coverage.actions, mine.coverage.examples,
                        mine.coverage.failed_at)
    found, rounds, notes = mine.found, mine.rounds, list(mine.notes)
    for job, _, theirs, their_rounds, their_notes, problem in others:
        coverage.clauses |= theirs.clauses
        coverage.actions += theirs.actions
        coverage.examples += theirs.examples
        if theirs.failed_at is not None and (coverage.failed_at is None or theirs.failed_at < coverage.failed_at):
            coverage.failed_at = theirs.failed_at
        rounds += their_rounds
        notes += [f"job {job}: {note}" for note in their_notes]
        if found is None and problem is not None:
            found = Found(*problem)
    return SearchResult(found, coverage, seconds, rounds, notes)
