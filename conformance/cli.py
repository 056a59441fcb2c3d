"""``baobei-conform``: check an engine against the BAO BEI scenarios, clause by clause.

    baobei-conform                          # the reference interpreter, in process
    baobei-conform ./my_engine              # an executable speaking the protocol (docs/protocol.md)
    baobei-conform ./engine_dir             # a folder with baobei-engine.json naming the command
    baobei-conform python:pkg.mod:factory   # an in-process Python engine
    baobei-conform -- node engine.js        # any command line
    baobei-conform spec | lint | explain    # the spec summary, scenario checks, a step-by-step run
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
import threading
import time

from baobei_conform.dsl.errors import ScenarioError
from baobei_conform.engines import EngineSpecError, engine_factory
from baobei_conform.fuzz.command import add_arguments as fuzz_arguments
from baobei_conform.fuzz.command import run as fuzz_run
from baobei_conform.harness import UNEXPECTED, Selection, load_expectations, load_suite, run_suite
from baobei_conform.protocol.validate import MessageValidator
from baobei_conform.results import render_summary, results_document, write_json, write_junit
from baobei_conform.runner.engine import ReferenceEngine
from baobei_conform.runner.explain import describe_failure, explain
from baobei_conform.scenario import load_scenario, scenario_files
from baobei_spec import default_spec, load_spec
from baobei_spec.summary import render, summarize

SUBCOMMANDS = ("spec", "lint", "explain", "fuzz")
DEFAULT_REPORT_DIR = "baobei-report"


def _spec_command(args: argparse.Namespace) -> int:
    spec = load_spec(strict=False)
    summary = summarize(spec)
    print(json.dumps(summary, indent=2, ensure_ascii=False) if args.json else render(summary))
    for problem in spec.problems:
        print(f"problem: {problem}", file=sys.stderr)
    return 1 if spec.problems else 0


def _lint_command(args: argparse.Namespace) -> int:
    """Validate scenario files without running them: YAML, metadata, clause ids, script syntax."""
    files = scenario_files(args.paths)
    if not files:
        print(f"no scenario files under {', '.join(args.paths)}", file=sys.stderr)
        return 2
    seen: dict[str, str] = {}
    bad = 0
    for path in files:
        try:
            scenario = load_scenario(path)
        except ScenarioError as exc:
            print(exc, file=sys.stderr)
            bad += 1
            continue
        if scenario.id in seen:
            print(f"{path}: duplicate scenario id {scenario.id!r} (also {seen[scenario.id]})", file=sys.stderr)
            bad += 1
        seen[scenario.id] = str(path)
    print(f"{len(files)} scenario files, {len(files) - bad} valid, {bad} with errors")
    return 1 if bad else 0


def _explain_command(args: argparse.Namespace) -> int:
    """Run one scenario on the reference, step by step, each event with its clause's English rule."""
    try:
        scenario = load_scenario(args.scenario)
    except ScenarioError as exc:
        print(exc, file=sys.stderr)
        return 2
    return 0 if explain(scenario, ReferenceEngine(), default_spec(), sys.stdout) else 1


def sub_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="baobei-conform")
    sub = parser.add_subparsers(dest="command", required=True)
    spec = sub.add_parser("spec", help="summarise and check the rulebook spec")
    spec.add_argument("--json", action="store_true", help="print one JSON object")
    spec.set_defaults(func=_spec_command)
    lint = sub.add_parser("lint", help="validate scenario files without running them")
    lint.add_argument("paths", nargs="*", default=["scenarios"], help="files or folders (default: scenarios)")
    lint.set_defaults(func=_lint_command)
    expl = sub.add_parser("explain", help="run one scenario on the reference, step by step, with the rules")
    expl.add_argument("scenario", help="a scenario file")
    expl.set_defaults(func=_explain_command)
    fz = sub.add_parser("fuzz", help="Hypothesis-driven play against the reference; a failure becomes a scenario")
    fuzz_arguments(fz)
    fz.set_defaults(func=fuzz_run, command_line=None)
    return parser


def run_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="baobei-conform", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("engine", nargs="?", default="reference",
                        help="reference (default), an executable, a folder with baobei-engine.json, python:mod:fn")
    parser.add_argument("--scenarios", nargs="+", default=["scenarios"], help="scenario files or folders")
    parser.add_argument("--json", metavar="FILE", help="write the results as JSON")
    parser.add_argument("--junit", metavar="FILE", help="write the results as JUnit XML")
    parser.add_argument("--expectations", metavar="FILE", help="known failures of this engine (YAML)")
    parser.add_argument("-k", "--id", action="append", default=[], help="scenario id glob (repeatable)")
    parser.add_argument("--clause", action="append", default=[], help="clause prefix, e.g. 3.6 (repeatable)")
    parser.add_argument("--faq", action="append", default=[], help="FAQ id, e.g. FAQ-05 (repeatable)")
    parser.add_argument("--tag", action="append", default=[], help="tag (repeatable)")
    parser.add_argument("--shard", metavar="K/N", help="run the K-th of N shards (1-based)")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="engine processes at once")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per engine answer (default 10)")
    parser.add_argument("--max-fail", type=int, help="stop after N failures")
    parser.add_argument("--validate", action="store_true", help="check every message against the schemas")
    parser.add_argument("--report", metavar="DIR", default=DEFAULT_REPORT_DIR,
                        help=f"write the HTML report there (default: {DEFAULT_REPORT_DIR})")
    parser.add_argument("--no-report", action="store_true", help="do not write the HTML report")
    parser.add_argument("-q", "--quiet", action="store_true", help="only the summary")
    return parser


def _shard(text: str | None) -> tuple[int, int] | None:
    if not text:
        return None
    try:
        k, n = (int(x) for x in text.split("/"))
    except ValueError:
        raise ValueError(f"--shard takes K/N, not {text!r}") from None
    if not 1 <= k <= n:
        raise ValueError(f"--shard {text}: K must be between 1 and N")
    return k, n


def _run_command(argv: list[str]) -> int:
    given, command = list(argv), None
    parser = run_parser()
    if "--" in argv:
        i = argv.index("--")
        argv, command = argv[:i], argv[i + 1:]
        if not command:
            parser.error("nothing after --: give the engine's command line")  # usage errors exit 2
    args = parser.parse_args(argv)
    try:
        shard = _shard(args.shard)
    except ValueError as exc:
        parser.error(str(exc))
    selection = Selection(args.id, args.clause, args.faq, args.tag, shard)
    validator = MessageValidator() if args.validate else None
    try:
        factory, described = engine_factory(None if command else args.engine, command, args.timeout, validator)
        expected = load_expectations(args.expectations) if args.expectations else {}
    except (EngineSpecError, OSError, ValueError) as exc:
        print(f"baobei-conform: {exc}", file=sys.stderr)
        return 2
    scenarios, broken = load_suite(args.scenarios, selection)
    for exc in broken:
        print(exc, file=sys.stderr)
    if not scenarios:
        print("baobei-conform: no scenario selected", file=sys.stderr)
        return 2
    spec = default_spec()
    started = datetime.datetime.now(datetime.UTC)
    clock = time.perf_counter()
    engine_info: dict = {"command": described}

    def report(scenario, outcome) -> None:
        if outcome.status in UNEXPECTED and not args.quiet:
            print(describe_failure(scenario, outcome, spec), flush=True)
            if outcome.stderr:
                print("  engine stderr (tail):\n    " + outcome.stderr.replace("\n", "\n    "), flush=True)
            if outcome.raw:
                print(f"  raw line: {outcome.raw}", flush=True)
        elif not args.quiet:
            print({"pass": ".", "skip": "s", "xfail": "x"}.get(outcome.status, "?"), end="", flush=True)

    try:
        probe = factory()  # fail fast on an engine that cannot even start, and learn its name
        engine_info.update(getattr(probe, "info", {}) or {"name": probe.name})
        engine_info["capabilities"] = sorted(probe.capabilities)
    except Exception as exc:  # noqa: BLE001 - any failure to start is reported, not raised
        print(f"baobei-conform: the engine does not start: {getattr(exc, 'message', exc)}", file=sys.stderr)
        if getattr(exc, "stderr", ""):
            print(exc.stderr, file=sys.stderr)
        return 2
    started_engines = [probe]  # the first worker runs on the engine already started, not a second one

    def engine_source():
        return started_engines.pop() if started_engines else factory()

    outcomes, complete = run_suite(scenarios, engine_source, jobs=args.jobs, max_fail=args.max_fail,
                                   expected=expected, report=report, stop=threading.Event())
    ran = {o.scenario for o in outcomes}
    document = results_document(
        [s for s in scenarios if s.id in ran], outcomes, engine_info,
        {"started": started.isoformat(timespec="seconds"), "seconds": round(time.perf_counter() - clock, 3),
         "complete": complete, "selected": len(scenarios), "broken_files": len(broken),
         "argv": given, "shard": args.shard, "jobs": args.jobs},
    )
    print(render_summary(document))
    if args.json:
        write_json(args.json, document)
    if args.junit:
        write_junit(args.junit, document)
    if not args.no_report:
        _write_report(args.report, document, args.scenarios, args.json)
    s = document["summary"]
    return 0 if complete and not broken and s["failed"] == s["errors"] == s["xpassed"] == 0 else 1


def _write_report(out: str, document: dict, scenario_paths: list[str], results_file: str | None) -> None:
    """The HTML report of this run, built from its results (the --json file when there is one)."""
    import tempfile
    from pathlib import Path

    from baobei_conform.report import build_report

    if results_file:
        index = build_report(out, [results_file], scenario_paths[0])
    else:
        with tempfile.TemporaryDirectory() as tmp:
            results = Path(tmp) / "results.json"
            write_json(str(results), document)
            index = build_report(out, [results], scenario_paths[0])
    print(f"report: {index}")


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "report":
        from baobei_conform.report import report_main

        return report_main(argv[1:])
    if argv and argv[0] in SUBCOMMANDS:
        command_line = None
        if "--" in argv:
            i = argv.index("--")
            argv, command_line = argv[:i], argv[i + 1:]
        args = sub_parser().parse_args(argv)
        if command_line:
            args.command_line = command_line
        return args.func(args)
    try:
        return _run_command(argv)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
