"""Shared pieces of the command line, and its smaller commands: ``merge`` (shards of a CI matrix into one
result and one report) and ``smoke`` (is an engine wired up at all, in about a second)."""

from __future__ import annotations

import argparse
import sys

from baobei_conform.files.outputs import output_problems, print_problems
from baobei_conform.harness.factory import EngineSpecError, engine_factory
from baobei_conform.options import default_suite, positive
from baobei_conform.reporters.listener import Finished, run_outputs
from baobei_conform.results.document import exit_status, incomplete, render_summary
from baobei_conform.results.merge import MergeError, merge


def _merge_command(args: argparse.Namespace) -> int:
    from baobei_conform.report.model import ReportError, load_results

    scenarios = args.scenarios or default_suite()
    if print_problems("merge", output_problems(files={"--json": args.json, "--junit": args.junit},
                                                owned={"--report": args.report}, inputs=[*args.results, *scenarios])):
        return 2
    try:
        document = merge([(load_results(path), path) for path in args.results])
    except (ReportError, MergeError) as exc:
        print(f"baobei-conform merge: {exc}", file=sys.stderr)
        return 2
    print(render_summary(document))
    if incomplete(document):
        print(f"INCOMPLETE: {incomplete(document)}")
    outputs = run_outputs(None, args.json, args.junit, args.report, scenarios[0])
    if print_problems("merge", outputs.run_finished(Finished(document, [], False))):
        return 2
    return exit_status(document)


def _smoke_command(args: argparse.Namespace) -> int:
    from baobei_conform.cli.smoke import smoke

    try:
        factory, described = engine_factory(None if args.command_line else args.engine, args.command_line,
                                            args.timeout)
    except EngineSpecError as exc:
        print(f"baobei-conform smoke: {exc}", file=sys.stderr)
        return 2
    checks = smoke(factory)
    print(f"smoke test of {described}")
    for check in checks:
        print(f"{'ok  ' if check.ok else 'FAIL'} {check.name} ({check.seconds * 1000:.0f} ms): {check.detail}")
    if len(checks) == 1 and not checks[0].ok:
        return 2
    return 0 if all(c.ok for c in checks) and len(checks) == 4 else 1


def add_tools(sub) -> None:
    """The ``merge`` and ``smoke`` subcommands."""
    mg = sub.add_parser("merge", help="merge the --json results of the shards of one run (--shard K/N)")
    mg.add_argument("results", nargs="+", metavar="SHARD.json", help="results of one engine's shards")
    mg.add_argument("--json", metavar="FILE", help="write the merged results as JSON")
    mg.add_argument("--junit", metavar="FILE", help="write the merged results as JUnit XML")
    mg.add_argument("--report", metavar="DIR", help="write the HTML report of the merged results there (a folder "
                    "the tool owns: missing, empty or an earlier report; replaced whole)")
    mg.add_argument("--scenarios", nargs="+", help="the scenario folder for the report (default: the installed suite)")
    mg.set_defaults(func=_merge_command)
    sm = sub.add_parser("smoke", help="is the engine wired up? handshake, setup/state, a legal and an illegal action")
    sm.add_argument("engine", nargs="?", default="reference", help="as for a run (default: reference)")
    sm.add_argument("--timeout", type=positive(float, 0), default=10.0, help="seconds per engine answer (default 10)")
    sm.set_defaults(func=_smoke_command, command_line=None)
