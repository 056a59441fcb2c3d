"""Benchmarks: ``python bench/run.py --json`` prints one JSON object of figures.

ref_actions_per_s / ref_rounds_per_s: seeded random complete rounds on one core, in process,
every action uniform over ``legal_actions()`` (chance outcomes from the same RNG).
scenarios / parse_all_s / load_all_s / load_all_cached_s: parsing every scenario script, loading every file
(YAML, metadata checks, parse, compile to steps; the cache of compiled scenarios empty, so stored too), and
loading every file again (served from that cache); each the fastest of three passes.
cli_run_s: the median whole-process time of ``baobei-conform -q --no-report`` (the suite on the reference in
process, imports and loading included) with a warm cache of compiled scenarios. The benchmark keeps that cache
in a temporary folder (BAOBEI_CACHE_DIR), never the user's.
suite_inproc_s / suite_stdio_s / stdio_over_inproc: running every scenario on the reference in
process and through ``baobei-ref serve`` over the protocol, one worker, the engine already started
(stdio_start_s: starting it and the handshake); each the fastest of five runs of ``run_conformance``
(the results document included), the two ways taking turns; both with agreement on (every step compared with the
reference). suite_rules_only_s: in process with ``--rules-only``; suite_agreement_overhead: suite_inproc_s over it.
hostile_peak_mb: the peak memory (MB) of a harness process running one scenario on an engine that answers it
with a 200 MB line (the harness gives up at its 16 MiB line limit; must stay below 300).
mutants / mutants_killed: mutation testing (``tools/mutate.py``): every mutant against the whole suite in
process; equivalent mutants are left out of both counts and listed in mutants_equivalent; mutants_s its time.
report_build_s: ``baobei-conform report`` for the full suite with no results file (the reference run in process,
the exercised-coverage run, every page written) into a temporary folder. report_index_bytes_per_scenario: that
index's size over its scenario rows (3,786 before the pictures of issue 27; must not grow).
fuzz_clause_coverage / fuzz_actions_per_s: a default fuzzing run (``baobei-conform fuzz --derandomize --json``, 60 s)
against ``baobei-ref serve`` over stdio, every per-action check on: the share of the normative clauses the scenario
suite exercises (cited by the reference's events while it runs) that the reference cites during the run
(fuzz_unreached lists the others), and the engine actions played per second; fuzz_problem must be null.
fuzz_jobs2_actions_per_s: the same with ``--jobs 2`` (two searches, two engine processes), for half the budget.
fuzz_foreign_actions_per_s / harness_us_per_action: the same default run against bench/foreign_engine.py, the
reference answering as a third-party engine would (every reply equal as JSON, never as bytes: no reply takes the
harness's shortcut for the reference's own bytes); harness_us_per_action is the harness process's own CPU (user +
system, resource.getrusage) over the actions played, the engine's process excluded (fuzz_foreign_engine_cpu_s);
harness_ref_us_per_action the same against ``baobei-ref serve``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

from baobei_ref import Game
from baobei_ref.playout import choose

ROOT = Path(__file__).resolve().parent.parent
REPEATS = 5


def bench_reference(seconds: float) -> dict:
    """Play seeded random rounds for about ``seconds``; count actions and completed rounds."""
    actions = rounds = seed = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        rng = random.Random(seed)
        g = Game(players=2 + seed % 5)
        seed += 1
        while g.pending.kind != "game_over":
            events = g.apply(choose(g, rng))
            actions += 1
            rounds += sum(1 for e in events if e.kind == "round_scored")
    elapsed = time.perf_counter() - start
    return {
        "ref_actions_per_s": round(actions / elapsed),
        "ref_rounds_per_s": round(rounds / elapsed, 1),
        "ref_games": seed,
        "ref_seconds": round(elapsed, 2),
    }


def bench_scenarios() -> dict:
    """Parse every scenario script (Lark LALR, parser built once), then load and compile every file (an empty
    cache of compiled scenarios each pass: compiled and stored), then load them again (served from the cache)."""
    from baobei_conform.dsl.parse import parse_script, parser
    from baobei_conform.suite.cache import compiled_cache
    from baobei_conform.suite.scenario import load_scenario, scenario_files
    from baobei_spec import default_spec

    files = scenario_files([ROOT / "scenarios"])
    scripts = [yaml.safe_load(f.read_text(encoding="utf-8"))["script"] for f in files]
    parser()  # built once, outside the timing
    default_spec()  # loaded once (lint checks names against it), outside the timing
    parsed = loaded = cached = float("inf")
    saved = os.environ["BAOBEI_CACHE_DIR"]
    for _ in range(3):  # the fastest of three: one pass of ~0.6 s is at the mercy of the machine's other work
        start = time.perf_counter()
        for script in scripts:
            parse_script(script)
        parsed = min(parsed, time.perf_counter() - start)
        with tempfile.TemporaryDirectory() as empty:
            os.environ["BAOBEI_CACHE_DIR"] = empty
            compiled_cache.cache_clear()
            start = time.perf_counter()
            for f in files:
                load_scenario(f)
            loaded = min(loaded, time.perf_counter() - start)
            start = time.perf_counter()
            for f in files:
                load_scenario(f)
            cached = min(cached, time.perf_counter() - start)
    os.environ["BAOBEI_CACHE_DIR"] = saved
    compiled_cache.cache_clear()
    return {"scenarios": len(files), "parse_all_s": round(parsed, 3), "load_all_s": round(loaded, 3),
            "load_all_cached_s": round(cached, 3)}


def bench_cli() -> dict:
    """The whole process of ``baobei-conform -q --no-report`` (the suite on the reference in process), as a user
    runs it again: the cache of compiled scenarios warm (one run before). The median of REPEATS runs."""
    command = [str(Path(sys.executable).with_name("baobei-conform")), "-q", "--no-report"]
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(command, capture_output=True, check=True, cwd=tmp, timeout=600)  # warms the cache
        runs = []
        for _ in range(REPEATS):
            start = time.perf_counter()
            subprocess.run(command, capture_output=True, check=True, cwd=tmp, timeout=600)
            runs.append(time.perf_counter() - start)
    return {"cli_run_s": round(statistics.median(runs), 3)}


def _kept(engine):
    """The engine with a ``stop`` that does nothing: the harness leaves it running between the timed runs."""
    from baobei_conform.engines.api import Engine

    class Kept(Engine):
        name, capabilities, info = engine.name, engine.capabilities, engine.info
        readings = getattr(engine, "readings", {})
        works_apart = engine.works_apart  # pipelined as the command line's run is
        send, collect = engine.send, engine.collect

    return Kept()


def bench_suite() -> dict:
    """The whole scenario suite on the reference: in process, and over the protocol (one worker each)."""
    from baobei_conform.engines.reference import ReferenceEngine
    from baobei_conform.harness.factory import engine_factory
    from baobei_conform.harness.run import Selection, load_suite
    from baobei_conform.results.conform import RunRecord, run_conformance

    scenarios, _ = load_suite([ROOT / "scenarios"], Selection())
    figures: dict = {}
    engines = {}
    for key, command in (("suite_inproc_s", None), ("suite_stdio_s", [sys.executable, "-m",
                                                                      "baobei_conform.protocol.server", "serve"])):
        factory, _ = engine_factory(None, command)
        start = time.perf_counter()
        engines[key] = factory()  # started outside the timing: the figure is the suite's run time
        if command:
            figures["stdio_start_s"] = round(time.perf_counter() - start, 3)
    runs: dict[str, list[float]] = {key: [] for key in engines}
    # The fastest of several runs each, the two ways taking turns: single runs of ~0.2 s are at the mercy of
    # the machine's other work, and a slow spell then weighs on both figures alike.
    for _ in range(REPEATS):
        for key, engine in engines.items():
            record = RunRecord(scenarios, {"command": key})  # its suite digest (~40 ms of reads) is not the run's
            start = time.perf_counter()
            document = run_conformance(record, lambda engine=engine: _kept(engine))
            runs[key].append(time.perf_counter() - start)
            assert document["summary"]["passed"] == len(scenarios), key
    for key, engine in engines.items():
        engine.stop()
        figures[key] = round(min(runs[key]), 4)
    figures["stdio_over_inproc"] = round(figures["suite_stdio_s"] / figures["suite_inproc_s"], 2)
    rules_only = []
    for _ in range(REPEATS):
        record = RunRecord(scenarios, {"command": "rules-only"})
        start = time.perf_counter()
        run_conformance(record, ReferenceEngine, agree=False)
        rules_only.append(time.perf_counter() - start)
    figures["suite_rules_only_s"] = round(min(rules_only), 4)
    figures["suite_agreement_overhead"] = round(figures["suite_inproc_s"] / figures["suite_rules_only_s"], 2)
    return figures


HUGE_LINE_ENGINE = """import sys, time
sys.stdin.readline()
print('{"seq": 1, "ok": true, "engine": {"name": "huge-line"}, "capabilities": []}', flush=True)
sys.stdin.readline()
for _ in range(200):
    sys.stdout.buffer.write(b"x" * (1 << 20))
sys.stdout.buffer.flush()
time.sleep(60)
"""
HOSTILE_RUN = """import resource, sys
from baobei_conform.harness.factory import engine_factory
from baobei_conform.harness.run import Selection, load_suite, run_suite
factory, _ = engine_factory(None, [sys.executable, "-c", sys.argv[2]], timeout=60)
from baobei_conform.runner.run import needs
scenarios, _ = load_suite([sys.argv[1]], Selection())
plain = [s for s in scenarios if not needs(s)][:1]  # the engine offers no capability: a scenario needing none
[outcome], _ = run_suite(plain, factory)
assert outcome.status == "error", outcome
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
"""


def bench_hostile() -> dict:
    """Peak memory of a harness process whose engine answers with a 200 MB line."""
    done = subprocess.run([sys.executable, "-c", HOSTILE_RUN, str(ROOT / "scenarios"), HUGE_LINE_ENGINE],
                          capture_output=True, text=True, check=True, timeout=300)
    return {"hostile_peak_mb": round(float(done.stdout.split()[-1]), 1)}
def bench_mutants() -> dict:
    """The scenario suite against every mutant of the reference (docs/mutants.md)."""
    sys.path.insert(0, str(ROOT / "tools"))  # the mutation tool lives in the checkout, not in the package
    from baobei_conform.harness.run import Selection, load_suite
    from mutants import MUTANTS
    from mutants.run import run_mutants, summary

    scenarios, _ = load_suite([ROOT / "scenarios"], Selection())
    start = time.perf_counter()
    figures = summary(run_mutants(list(MUTANTS.values()), scenarios))
    return {"mutants": figures["mutants"], "mutants_killed": figures["mutants_killed"],
            "mutants_survivors": figures["survivors"], "mutants_equivalent": figures["equivalent"],
            "mutants_s": round(time.perf_counter() - start, 2)}


def bench_report() -> dict:
    """Build the HTML report for the full suite on the reference (no results file) into a temporary folder; its
    time, and the index's bytes per scenario row (issue 27: pictures must not grow the index)."""
    from baobei_conform.report import build_report

    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        build_report(out, [], scenarios_dir=ROOT / "scenarios")
        seconds = time.perf_counter() - start
        index = (Path(out) / "index.html").read_bytes()
        rows = index.count(b" data-scenario=")
        return {"report_build_s": round(seconds, 3), "report_index_bytes_per_scenario": round(len(index) / rows)}


FUZZ_MEASURED = """import json, resource, sys
from baobei_conform.cli.main import main
code = main(sys.argv[2:])
me, engines = (resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
with open(sys.argv[1], "w", encoding="utf-8") as fh:
    json.dump({"harness": me.ru_utime + me.ru_stime, "engines": engines.ru_utime + engines.ru_stime}, fh)
sys.exit(code)
"""
FOREIGN = [sys.executable, str(ROOT / "bench" / "foreign_engine.py"), "serve"]


def _fuzz_run(budget: float, *options: str, engine: list[str] | None = None) -> dict:
    """``baobei-conform fuzz --derandomize`` against ``engine`` (default ``baobei-ref serve``) over stdio; its JSON
    document, with ``cpu``: the harness process's own CPU seconds and its engines' (the children it waited for)."""
    engine = engine or [str(Path(sys.executable).with_name("baobei-ref")), "serve"]
    with tempfile.TemporaryDirectory() as tmp:
        out, cpu = Path(tmp) / "fuzz.json", Path(tmp) / "cpu.json"
        subprocess.run([sys.executable, "-c", FUZZ_MEASURED, str(cpu), "fuzz", "--derandomize", "--budget",
                        str(budget), *options, "--scenarios", str(ROOT / "scenarios"), "--json", str(out), "--",
                        *engine], capture_output=True, text=True, timeout=budget + 600, cwd=tmp)
        return {**json.loads(out.read_text(encoding="utf-8")), "cpu": json.loads(cpu.read_text(encoding="utf-8"))}


def _per_action_us(document: dict) -> float | None:
    """The harness's CPU per engine action, in microseconds (its start-up included: ~0.5 s of a minute)."""
    return round(document["cpu"]["harness"] / document["actions"] * 1e6, 1) if document["actions"] else None


def bench_fuzz(budget: float) -> dict:
    """A default fuzzing run against ``baobei-ref serve``, as a user starts it; its reach against the suite's. The
    same against an engine whose replies are equal as JSON, not as bytes (bench/foreign_engine.py), as any other
    engine's are: the harness's CPU per action there, the engine's process apart."""
    from baobei_conform.report import collect
    from baobei_conform.report.fuzz import clause_coverage

    report = collect(scenarios_dir=ROOT / "scenarios")
    exercised = [c for c, row in report.clauses.items() if row.clause.kind == "normative" and row.exercised]
    document = _fuzz_run(budget)
    share, missing = clause_coverage(document["clauses_cited"], exercised)
    jobs2 = _fuzz_run(budget / 2, "--jobs", "2")
    foreign = _fuzz_run(budget, engine=FOREIGN)
    return {"fuzz_clause_coverage": share, "fuzz_unreached": missing, "fuzz_actions_per_s": document["actions_per_s"],
            "fuzz_games": document["examples"], "fuzz_problem": document["problem"] and document["problem"]["message"],
            "fuzz_jobs2_actions_per_s": jobs2["actions_per_s"],
            "fuzz_jobs2_problem": jobs2["problem"] and jobs2["problem"]["message"],
            "harness_ref_us_per_action": _per_action_us(document),
            "fuzz_foreign_actions_per_s": foreign["actions_per_s"], "harness_us_per_action": _per_action_us(foreign),
            "fuzz_foreign_engine_cpu_s": round(foreign["cpu"]["engines"], 2),
            "fuzz_foreign_problem": foreign["problem"] and foreign["problem"]["message"]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--seconds", type=float, default=3.0, help="time per figure")
    parser.add_argument("--fuzz-budget", type=float, default=60.0, help="seconds of the fuzzing run (default 60)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as cache:
        os.environ["BAOBEI_CACHE_DIR"] = cache  # compiled scenarios cached here, for this run and its processes
        figures = _figures(args)
    if args.json:
        print(json.dumps(figures, sort_keys=True))
    else:
        for key, value in sorted(figures.items()):
            print(f"{key}: {value}")
    return 0


def _figures(args: argparse.Namespace) -> dict:
    Game(players=2)  # load the spec once, outside the timings
    figures = bench_reference(args.seconds)
    figures.update(bench_scenarios())
    figures.update(bench_cli())
    figures.update(bench_suite())
    figures.update(bench_report())
    figures.update(bench_hostile())
    figures.update(bench_mutants())
    figures.update(bench_fuzz(args.fuzz_budget))
    return figures


if __name__ == "__main__":
    sys.exit(main())
