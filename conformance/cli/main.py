"""``baobei-conform``: check an engine against the BAO BEI scenarios, clause by clause.

    baobei-conform                          # the reference interpreter, in process
    baobei-conform ./my_engine              # an executable speaking the protocol (docs/protocol.md)
    baobei-conform ./engine_dir             # a folder with baobei-engine.json naming the command
    baobei-conform python:pkg.mod:factory   # an in-process Python engine
    baobei-conform -- node engine.js        # any command line
    baobei-conform spec | lint | explain    # the spec summary, scenario checks, a step-by-step run
    baobei-conform compile --out DIR        # every scenario's compiled steps as JSON files
    baobei-conform smoke | merge | report   # is it wired up? shards into one run; the HTML report
    baobei-conform badge --verify B R.json  # is this published badge the one those results give?
    baobei-conform rulings [--json]         # each ruling's readings and what each alternative changes
    baobei-conform trace --seed 7 --players 3 [ENGINE]  # a seeded game as NDJSON; on an engine, the first difference
    pytest --baobei-engine ./my_engine      # the scenarios as items of your own pytest run
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING

# Only what every command needs is imported here; each command imports its own modules, so ``lint`` never loads
# the reference, a run never loads Hypothesis or jsonschema (startup counts: issue 28).
from baobei_conform import signals
from baobei_conform.dsl.errors import ScenarioError
from baobei_conform.files.outputs import MARKER, output_problems, print_problems
from baobei_conform.options import default_suite, positive
from baobei_conform.protocol.transcript import Transcript
from baobei_conform.suite.scenario import load_scenario, scenario_files, unreachable_setups
from baobei_spec import default_spec, load_spec

if TYPE_CHECKING:
    from baobei_conform.reporters.listener import Finished, Listener
    from baobei_conform.table.text import Screen

SUBCOMMANDS = ("spec", "lint", "compile", "explain", "fuzz", "merge", "smoke", "rulings", "trace", "badge")
DEFAULT_REPORT_DIR = "baobei-report"
EXIT_CODES = """exit codes:
  0    every scenario ran and gave its expected result
  1    unexpected results: failures, errors, passes of known failures, broken scenario files, an early stop,
       an engine that starts but fails its handshake (every selected scenario an error)
  2    usage or input error: bad option, engine command that cannot be executed, unreadable expectations,
       nothing selected, an output that cannot or may not be written (checked before the run: a results
       file where a folder is or inside the report folder; a report folder that is not the tool's, see
       --report); or an output that fails at the end (a full disk: the others are written)
  130  interrupted (Ctrl-C, SIGINT): the engines are killed at once, the results of the scenarios that ran are
       written, marked incomplete, and "interrupted" is said on stderr
  143  terminated (SIGTERM): the same, and "terminated" is said"""


def _spec_command(args: argparse.Namespace) -> int:
    from baobei_spec.summary import render, summarize

    spec = load_spec(strict=False)
    summary = {**summarize(spec), "unreachable_setups": unreachable_setups(default_suite())}
    print(json.dumps(summary, indent=2, ensure_ascii=False) if args.json else render(summary))
    for problem in spec.problems:
        print(f"problem: {problem}", file=sys.stderr)
    return 1 if spec.problems else 0


def _cache_note(args: argparse.Namespace) -> None:
    """With -v: why scenarios were compiled without the cache, once (a cache that cannot be used slows, never fails,
    a run)."""
    from baobei_conform.suite.cache import compiled_cache

    if args.verbose and compiled_cache().note:
        print(compiled_cache().note, file=sys.stderr)


def _lint_command(args: argparse.Namespace) -> int:
    """Validate scenario files without running them: YAML, metadata, clause ids, script syntax."""
    paths = args.paths or default_suite()
    files = scenario_files(paths)
    if not files:
        print(f"no scenario files under {', '.join(paths)}", file=sys.stderr)
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
    _cache_note(args)
    print(f"{len(files)} scenario files, {len(files) - bad} valid, {bad} with errors")
    return 1 if bad else 0


def _explain_command(args: argparse.Namespace) -> int:
    """One scenario step by step: on the reference, each event with its clause's rule; with an engine, the
    engine and the reference side by side."""
    from baobei_conform.engines.reference import ReferenceEngine
    from baobei_conform.runner.explain import explain
    from baobei_conform.table.text import Screen
    from baobei_scenarios import SUITE_ROOT

    path = Path(args.scenario)
    if not path.exists():  # an id of the installed suite
        path = next(iter(sorted(SUITE_ROOT.rglob(f"{args.scenario}.yaml"))), path)
    try:
        scenario = load_scenario(path)
    except ScenarioError as exc:
        print(exc, file=sys.stderr)
        return 2
    alone = args.engine == "reference" and not args.command_line
    screen = Screen.of(sys.stdout) if args.table or args.view is not None else None
    if alone and not args.trace_protocol:
        return 0 if explain(scenario, ReferenceEngine(), default_spec(), sys.stdout, screen, args.view) else 1
    if print_problems("explain", output_problems(files={"--trace-protocol": args.trace_protocol},
                                                 inputs=[str(path)])):
        return 2
    transcript = Transcript(args.trace_protocol, ["baobei-conform", *sys.argv[1:]]) if args.trace_protocol else None
    try:
        return _explain_on(scenario, args, alone, transcript, screen)
    finally:
        if transcript is not None:
            transcript.close()


def _explain_on(scenario, args: argparse.Namespace, alone: bool, transcript, screen: Screen | None) -> int:
    """``explain`` on an engine started for it (the reference over the protocol when ``alone``)."""
    from baobei_conform.harness.factory import engine_factory
    from baobei_conform.runner.explain import explain, side_by_side

    try:
        factory, _ = engine_factory(None if args.command_line else args.engine, args.command_line, args.timeout,
                                    transcript=transcript)
        engine = factory()
    except Exception as exc:  # noqa: BLE001 - an engine that cannot start is reported, not raised
        print(f"baobei-conform explain: the engine does not start: {getattr(exc, 'message', exc)}", file=sys.stderr)
        return 2
    try:
        if alone:
            return 0 if explain(scenario, engine, default_spec(), sys.stdout, screen, args.view) else 1
        return 0 if side_by_side(scenario, engine, default_spec(), sys.stdout, screen, args.view) else 1
    finally:
        if hasattr(engine, "stop"):
            engine.stop()


def _fuzz_parser(sub) -> None:
    from baobei_conform.fuzz.command import add_arguments, run

    fz = sub.add_parser("fuzz", help="Hypothesis-driven play against the reference; a failure becomes a scenario")
    add_arguments(fz)
    fz.set_defaults(func=run, command_line=None)


def _compile_parser(sub) -> None:
    from baobei_conform.cli.publish import add_parser

    add_parser(sub)


def _tools_parser(sub) -> None:
    from baobei_conform.cli.tools import add_tools

    add_tools(sub)


def _rulings_parser(sub) -> None:
    from baobei_conform.cli.rulings import add_parser

    add_parser(sub)


def _trace_parser(sub) -> None:
    from baobei_conform.cli.trace import add_parser

    add_parser(sub)


def _badge_parser(sub) -> None:
    from baobei_conform.cli.badge import add_parser

    add_parser(sub)


# The subcommands defined in their own modules: names -> what adds their parsers, imported only for the command
# given (``fuzz`` alone imports Hypothesis, 0.2 s; ``lint`` needs none of them).
OWN_MODULES = {("compile",): _compile_parser, ("merge", "smoke"): _tools_parser, ("rulings",): _rulings_parser,
               ("trace",): _trace_parser, ("fuzz",): _fuzz_parser, ("badge",): _badge_parser}


def sub_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The subcommands' parser: ``command``'s in full (every one's when None), the others by name only."""
    parser = argparse.ArgumentParser(prog="baobei-conform")
    sub = parser.add_subparsers(dest="command", required=True)
    spec = sub.add_parser("spec", help="summarise and check the rulebook spec")
    spec.add_argument("--json", action="store_true", help="print one JSON object")
    spec.set_defaults(func=_spec_command)
    lint = sub.add_parser("lint", help="validate scenario files without running them")
    lint.add_argument("paths", nargs="*", help="files or folders (default: the installed suite)")
    lint.add_argument("-v", "--verbose", action="store_true",
                      help="also say when compiled scenarios cannot be cached (an unwritable cache folder)")
    lint.set_defaults(func=_lint_command)
    expl = sub.add_parser("explain", help="one scenario step by step: on the reference with the rules, or on an "
                                          "engine and the reference side by side, each step where a field the "
                                          "contract compares differs marked with both values")
    expl.add_argument("scenario", help="a scenario file, or the id of an installed scenario")
    expl.add_argument("engine", nargs="?", default="reference", help="as for a run (default: the reference alone)")
    expl.add_argument("--timeout", type=positive(float, 0), default=10.0, help="seconds per engine answer")
    expl.add_argument("--trace-protocol", metavar="FILE", help="write the engine's requests and replies as NDJSON "
                      "with timestamps (alone, the reference runs as baobei-ref serve)")
    expl.add_argument("--table", action="store_true",
                      help="print the table after every action (with an engine: both tables, what differs marked !), "
                           "fitted to the terminal's width, in colour on a terminal unless NO_COLOR is set")
    expl.add_argument("--view", type=_not_negative, metavar="PLAYER",
                      help="the table as this player sees it (cards they have not seen as backs, without species) "
                           "instead of the whole table; implies --table")
    expl.set_defaults(func=_explain_command, command_line=None)
    for names, add in OWN_MODULES.items():
        if command is None or command in names:
            add(sub)
        else:
            for name in names:
                sub.add_parser(name)
    return parser


def run_parser() -> argparse.ArgumentParser:
    from baobei_conform import __version__
    from baobei_conform.harness.run import BREAKER
    from baobei_conform.protocol.client import MAX_LINE
    from baobei_conform.runner.explain import LANGS

    parser = argparse.ArgumentParser(
        prog="baobei-conform", description=__doc__, epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"baobei-conform {__version__}")
    parser.add_argument("engine", nargs="?", default="reference",
                        help="reference (default), an executable, a folder with baobei-engine.json, python:mod:fn")
    parser.add_argument("--scenarios", nargs="+", help="scenario files or folders (default: the installed suite)")
    parser.add_argument("--json", metavar="FILE", help="write the results as JSON (whole, renamed into place)")
    parser.add_argument("--junit", metavar="FILE", help="write the results as JUnit XML (whole, renamed into place)")
    parser.add_argument("--expectations", metavar="FILE", help="known failures of this engine (YAML)")
    parser.add_argument("-k", "--id", action="append", default=[], help="scenario id glob (repeatable)")
    parser.add_argument("--clause", action="append", default=[], help="clause prefix, e.g. 3.6 (repeatable)")
    parser.add_argument("--faq", action="append", default=[], help="FAQ id, e.g. FAQ-05 (repeatable)")
    parser.add_argument("--tag", action="append", default=[], help="tag (repeatable)")
    parser.add_argument("--shard", metavar="K/N", help="run the K-th of N shards (1-based)")
    parser.add_argument("-j", "--jobs", type=positive(int, 1), default=1, help="engine processes at once")
    parser.add_argument("--timeout", type=positive(float, 0), default=10.0,
                        help="seconds per engine answer (default 10)")
    parser.add_argument("--max-fail", type=positive(int, 1), help="stop after N failures")
    parser.add_argument("--rules-only", action="store_true",
                        help="judge the scenarios' written expectations alone, not the agreement of every step with "
                             "the reference (state, pending decision, events, views, legal actions)")
    parser.add_argument("--breaker", type=_not_negative, default=BREAKER, metavar="N",
                        help=f"stop after N timeouts or crashes of the engine in a row (default {BREAKER}; 0: never)")
    parser.add_argument("--max-line", type=positive(int, 1), default=MAX_LINE, metavar="BYTES",
                        help=f"longest reply line accepted (default {MAX_LINE}, 16 MiB)")
    parser.add_argument("--validate", action="store_true", help="check every message against the schemas")
    parser.add_argument("--trace-protocol", metavar="FILE",
                        help="write every request and reply as NDJSON with timestamps (the reference then runs as "
                             "baobei-ref serve)")
    parser.add_argument("--report", metavar="DIR", default=DEFAULT_REPORT_DIR,
                        help=f"write the HTML report there (default: {DEFAULT_REPORT_DIR}). The folder is the tool's: "
                             f"replaced whole, so it must be missing, empty or an earlier report (its {MARKER} "
                             "lists what was written) holding nothing more; never the current folder or one "
                             "holding it, home, /, the scenarios, nor a folder with the --json/--junit files")
    parser.add_argument("--no-report", action="store_true", help="do not write the HTML report")
    parser.add_argument("-q", "--quiet", action="store_true", help="only the summary")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="also say when compiled scenarios cannot be cached (an unwritable cache folder)")
    parser.add_argument("--line", action="store_true", help="one line per failure")
    parser.add_argument("--lang", choices=LANGS, default="en",
                        help="the clauses' text with failures: en (the spec's rule), es or nl (the rulebook's words)")
    parser.add_argument("--show-table", action="store_true",
                        help="with each failure, the engine's table beside the reference's at the failing step")
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


def _preflight(args: argparse.Namespace, command: list[str] | None) -> list[str]:
    """Problems found before running anything: outputs that cannot or may not be written (outputs.py)."""
    return output_problems(files={"--json": args.json, "--junit": args.junit,
                                  "--trace-protocol": args.trace_protocol},
                           owned={} if args.no_report else {"--report": args.report},
                           inputs=[*(args.scenarios or default_suite()), args.expectations,
                                   None if command else args.engine])


def _not_negative(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text} is out of range: must be at least 0")
    return value


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
    if print_problems("", _preflight(args, command)):
        return 2
    transcript = Transcript(args.trace_protocol, ["baobei-conform", *given]) if args.trace_protocol else None
    try:
        return _run(args, given, command, shard, transcript)
    finally:
        if transcript is not None:
            transcript.close()


def _run(args: argparse.Namespace, given: list[str], command: list[str] | None, shard, transcript) -> int:
    """The run itself, once its options hold (``transcript``: --trace-protocol's, or None)."""
    from baobei_conform.engines.api import EngineProblem, EngineUnstartable
    from baobei_conform.harness.factory import EngineSpecError, engine_factory
    from baobei_conform.harness.run import Selection, load_suite
    from baobei_conform.reporters.console import Console
    from baobei_conform.reporters.listener import Finished, Started, run_outputs
    from baobei_conform.results.conform import RunRecord, run_conformance
    from baobei_conform.results.document import exit_status
    from baobei_conform.runner.run import problem_outcome
    from baobei_conform.suite.expectations import ExpectationsError, load_expectations, unknown_ids
    from baobei_conform.suite.variants import engine_readings

    paths = args.scenarios or default_suite()
    selection = Selection(args.id, args.clause, args.faq, args.tag, shard)
    validator = None
    if args.validate:
        from baobei_conform.protocol.validate import MessageValidator  # jsonschema only when asked

        validator = MessageValidator()
    try:
        factory, described = engine_factory(None if command else args.engine, command, args.timeout, validator,
                                            args.max_line, transcript)
        expected = load_expectations(args.expectations) if args.expectations else {}
    except (EngineSpecError, ExpectationsError) as exc:
        print(f"baobei-conform: {exc}", file=sys.stderr)
        return 2
    scenarios, broken = load_suite(paths, selection)
    _cache_note(args)
    if expected:
        for warning in unknown_ids(args.expectations, expected, {p.stem for p in scenario_files(paths)}):
            print(warning, file=sys.stderr)
    if not scenarios:
        looked = f"{len(scenario_files(paths))} scenario files under {', '.join(paths)}"
        print(f"baobei-conform: no scenario selected ({looked}"
              + (f"; {len(broken)} do not load" if broken else "") + (", selection: " + " ".join(given)
              if any((args.id, args.clause, args.faq, args.tag, shard)) else "") + ")", file=sys.stderr)
        for error in broken:
            print(error, file=sys.stderr)
        return 2
    spec = default_spec()
    engine_info: dict = {"command": described}
    record = RunRecord(scenarios, engine_info, {"argv": given, "shard": args.shard, "jobs": args.jobs}, broken, paths)
    interrupted = record.interrupted
    outputs = run_outputs(Console(spec, quiet=args.quiet, brief=args.line, lang=args.lang, show_table=args.show_table),
                          args.json, args.junit, None if args.no_report else args.report, paths[0], record)
    done: list = []  # what ran, should the run end between two scenarios

    def report(scenario, outcome) -> None:
        done.append(outcome)
        outputs.scenario_finished(scenario, outcome)  # the results files on disk as the run goes

    try:
        probe = factory()  # fail fast on an engine that cannot even start, and learn its name
        engine_info.update(getattr(probe, "info", {}) or {"name": probe.name})
        engine_info["capabilities"] = sorted(probe.capabilities)
        if engine_readings(probe):
            engine_info["readings"] = engine_readings(probe)
    except EngineProblem as exc:
        print(f"baobei-conform: the engine does not start: {exc.message}", file=sys.stderr)
        if exc.stderr:
            print(exc.stderr, file=sys.stderr)
        if isinstance(exc, EngineUnstartable):
            return 2  # the command cannot be executed: an input error, nothing to judge
        # It ran and failed its handshake: the engine's fault, so every selected scenario is an error on
        # record (JSON, JUnit, report), not a run that silently produced nothing.
        exc.message = f"the engine does not start: {exc.message}"
        document = record.document([problem_outcome(s, exc) for s in scenarios], True)
        return _finish(outputs, Finished(document, broken, False)) or exit_status(document)
    except Exception as exc:  # noqa: BLE001 - an in-process factory that raises is reported, not raised
        print(f"baobei-conform: the engine does not start: {exc!r}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # a signal while the engine starts (a handshake that hangs): nothing ran, on record
        interrupted.set()
        with signals.shielded():
            _finish(outputs, Finished(record.document([], False), broken, True))
        return signals.exit_code()
    started_engines = [probe]  # the first worker runs on the engine already started, not a second one

    def engine_source():
        return started_engines.pop() if started_engines else factory()

    outputs.run_started(Started(engine_info, paths, len(scenarios), args.jobs, len(broken)))
    with signals.on_signal(interrupted.set):  # Ctrl-C, SIGTERM: the run is known to be interrupted, not stopped
        try:
            document = run_conformance(record, engine_source, jobs=args.jobs, max_fail=args.max_fail,
                                       expected=expected, report=report, stop=threading.Event(), breaker=args.breaker,
                                       agree=not args.rules_only)
        except KeyboardInterrupt:  # the signal as the workers started or ended, not while they ran: what ran stands
            document = record.document(list(done), False)
        with signals.shielded():  # a signal now (a second one, or the first as the run ends) cuts no output short
            unwritten = _finish(outputs, Finished(document, broken, interrupted.is_set()))
    return signals.exit_code() if interrupted.is_set() else unwritten or exit_status(document)


def _finish(outputs: Listener, end: Finished) -> int:
    """The end of a run: the summary on the console, the results files, the report; 2 when one of them could
    not be written (a full disk), else 0."""
    return print_problems("", outputs.run_finished(end))


def main(argv: list[str] | None = None) -> int:
    """Every command under one handling of SIGINT and SIGTERM (signals.py): after either, one line on stderr
    (``interrupted``, ``terminated``) and exit 130 or 143, whatever the command had written by then. Without
    ``argv`` it is the process's command (the console script, ``python -m``): a later signal then never kills it
    as it exits."""
    with signals.handled(process=argv is None):
        try:
            code = _command(list(sys.argv[1:] if argv is None else argv))
        except KeyboardInterrupt:
            code = None
        if code is None or signals.received() is not None:
            print(signals.word(), file=sys.stderr)
            return signals.exit_code()
    return code


def _command(argv: list[str]) -> int:
    if argv and argv[0] == "report":
        from baobei_conform.report import report_main

        return report_main(argv[1:])
    if argv and argv[0] in SUBCOMMANDS:
        command_line = None
        if "--" in argv:
            i = argv.index("--")
            argv, command_line = argv[:i], argv[i + 1:]
        args = sub_parser(argv[0]).parse_args(argv)
        if command_line:
            args.command_line = command_line
        return args.func(args)
    return _run_command(argv)


if __name__ == "__main__":
    sys.exit(main())
