"""``baobei-conform fuzz ENGINE``: Hypothesis-driven play against an engine, a found failure saved as a scenario.

    baobei-conform fuzz ./my_engine                        # 60 s of differential play against the reference
    baobei-conform fuzz --invariants-only ./my_engine      # no reference: the engine's own invariants
    baobei-conform fuzz --derandomize --budget 20 --save repro/ --json fuzz.json ./my_engine
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from functools import partial
from pathlib import Path

from baobei_conform import signals
from baobei_conform.engines.api import as_engine
from baobei_conform.files.outputs import output_problems, print_problems, write_atomic, write_each
from baobei_conform.fuzz.checklist import FUZZ_SCHEMA, checklist
from baobei_conform.fuzz.jobs import EngineSpec, JobFailed, search_jobs
from baobei_conform.fuzz.positions import load_corpus
from baobei_conform.fuzz.reproduce import Reproducer, reproduce, scenario_text
from baobei_conform.fuzz.search import DEFAULT_DATABASE, Distinct, SearchResult
from baobei_conform.fuzz.tighten import tighten
from baobei_conform.fuzz.trial import Coverage, Trial
from baobei_conform.harness.factory import engine_factory
from baobei_conform.options import default_suite, positive
from baobei_spec import default_spec


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("engine", nargs="?", default="reference", help="as for a run (default: reference)")
    parser.add_argument("--budget", type=positive(float, 0), default=60.0, help="seconds of search (default 60)")
    parser.add_argument("--max-examples", type=positive(int, 1), default=None, help="stop after this many games")
    parser.add_argument("--seed", type=int, default=None, help="seed the search (repeatable with --derandomize)")
    parser.add_argument("--derandomize", action="store_true", help="the same games every run (for CI): "
                        "seeded from --seed (default 0), the example database not read")
    parser.add_argument("--database", default=DEFAULT_DATABASE, help="Hypothesis example database: the last "
                        f"failures are replayed first (default {DEFAULT_DATABASE}/)")
    parser.add_argument("--no-database", action="store_true", help="no example database")
    parser.add_argument("--invariants-only", action="store_true", help="no reference: the engine's legal actions "
                        "drive the game and only its invariants are checked (needs legal_actions)")
    parser.add_argument("--players", type=_players, default=(2, 3, 4, 5, 6), help="player counts, e.g. 2,4")
    parser.add_argument("--scenarios", nargs="*", default=None, help="scenario folders whose setups "
                        "seed the search (default: the installed suite)")
    parser.add_argument("--save", metavar="DIR", help="write the reproducer scenario there (a folder, created if "
                        "missing; checked before the search)")
    parser.add_argument("--json", metavar="FILE", help="write the result as JSON (checked before the search, "
                        "written whole)")
    parser.add_argument("--timeout", type=positive(float, 0), default=10.0,
                        help="seconds per engine answer (default 10)")
    parser.add_argument("-j", "--jobs", type=positive(int, 1), default=1,
                        help="searches at once, each with its own engine process (default 1)")


def _players(text: str) -> tuple[int, ...]:
    try:
        values = tuple(int(p) for p in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a list of numbers") from None
    if not values or any(not 2 <= p <= 6 for p in values):
        raise argparse.ArgumentTypeError(f"{text} is out of range: player counts are 2 to 6")
    return values


def seed_folders(given: list[str] | None) -> tuple[str, ...]:
    """The scenario folders whose setups seed the search: the installed suite unless named (so a run from an
    engine's own repository starts from the suite's positions too); folders that do not exist are left out."""
    return tuple(p for p in (default_suite() if given is None else given) if Path(p).exists())


def run(args: argparse.Namespace) -> int:
    """Search, tighten, reproduce, report; exit 1 when a problem was found, 2 when the engine cannot start or
    an output cannot be written (checked before the search, so a typo never costs the budget).

    A signal (signals.py) at any moment ends the work at once (the engines killed): the JSON is written all the
    same, ``interrupted``, with what was played and found so far (a problem not yet reproduced gets its scenario,
    unverified), and the exit code is the signal's."""
    if print_problems("fuzz", output_problems(files={"--json": args.json}, folders={"--save": args.save},
                                              inputs=seed_folders(args.scenarios))):
        return 2
    began = time.monotonic()
    result = SearchResult({}, Coverage(), 0.0, 0)  # what is known so far
    try:
        factory, described = engine_factory(None if args.command_line else args.engine, args.command_line,
                                            args.timeout)
    except Exception as exc:  # noqa: BLE001 - an engine that cannot start is reported, not raised
        return _unstartable(exc)
    try:
        engine = as_engine(factory())
    except KeyboardInterrupt:  # while it starts (a handshake that hangs): nothing played, on record
        result.interrupted = True
        return _finish(args, result, {}, described, [], began)
    except Exception as exc:  # noqa: BLE001
        return _unstartable(exc)
    capabilities = sorted(getattr(engine, "capabilities", ()))
    spec = EngineSpec(None if args.command_line else args.engine, args.command_line, args.timeout)
    reproducers: dict[str, Reproducer] = {}  # by group
    try:
        scenarios = seed_folders(args.scenarios)
        starts, broken = load_corpus(scenarios) if scenarios else ((), ())
        for error in broken:  # as a run lists its broken files: each named with its reason, then left out
            print(f"baobei-conform fuzz: not a start of the search: {error.render()}", file=sys.stderr)
        result = search_jobs(engine, spec, args.jobs, budget=args.budget, max_examples=args.max_examples,
                             seed=args.seed, derandomize=args.derandomize,
                             database=None if args.no_database else args.database,
                             starts=starts, players=args.players,
                             differential=not args.invariants_only, distinct=None)
        for group, seen in ([] if result.interrupted else list(result.problems.items())):
            seen.found = tighten(seen.found, Trial(engine, differential=not args.invariants_only))
            reproducers[group] = reproduce(seen.found, engine, described)
    except KeyboardInterrupt:  # outside the search (reading the corpus, tightening, reproducing): what it had
        result.interrupted = True
    except JobFailed as exc:
        print(f"baobei-conform fuzz: {exc}", file=sys.stderr)
        return 2
    finally:
        with signals.shielded():  # a signal while it stops kills it (signals.py): the outputs still follow
            engine.stop()
    return _finish(args, result, reproducers, described, capabilities, began)


def _unstartable(exc: Exception) -> int:
    print(f"baobei-conform fuzz: the engine does not start: {getattr(exc, 'message', exc)}", file=sys.stderr)
    return 2


def _finish(args: argparse.Namespace, result: SearchResult, reproducers: dict[str, Reproducer], described: str,
            capabilities: list[str], began: float) -> int:
    """The outputs, written whole whatever signal comes now, and the exit code (2 when an output could not be
    written, a full disk, unless a signal cut the work short)."""
    with signals.shielded():
        if result.interrupted and not result.seconds:  # before the search began
            result.seconds = time.monotonic() - began
        for group, seen in result.problems.items():
            if group not in reproducers:  # interrupted before it was reproduced
                ident, text, count = scenario_text(seen.found, described)
                reproducers[group] = Reproducer(ident, text, count, False, "interrupted before it was checked on "
                                                                           "the reference and on the engine")
        document = result_document(result, reproducers, described, args, capabilities)
        unwritten = print_problems("fuzz", _write(args, document, reproducers))
    if result.interrupted:
        return signals.exit_code()
    return unwritten or (1 if result.problems else 0)


def _write(args: argparse.Namespace, document: dict, reproducers: dict[str, Reproducer]) -> list[str]:
    """The reproducers (one file each) and the JSON, each renamed into place whole; the ones that could not be
    written."""
    problems: list[str] = []
    for entry in document["problems"] if args.save else ():
        reproducer = reproducers[entry["group"]]
        path = Path(args.save) / f"{reproducer.id}.yaml"
        unwritten = write_each([("--save", args.save, partial(write_atomic, path, reproducer.text))])
        problems += unwritten
        if not unwritten:
            entry["reproducer"]["path"] = str(path)
    problems += write_each([("--json", args.json, lambda: write_atomic(
        args.json, json.dumps(document, indent=2, ensure_ascii=False) + "\n"))])
    print(render(document))
    return problems


def _problem(seen: Distinct, reproducer: Reproducer | None) -> dict:
    found = seen.found
    return {
        "check": found.problem.check,
        "group": found.problem.group,
        "games": seen.games,
        "shrunk": seen.shrunk,
        "message": found.problem.message,
        "clauses": found.clauses,
        "reproducer": None if reproducer is None else {
            "id": reproducer.id, "actions": reproducer.actions, "verified": reproducer.verified,
            "note": reproducer.note, "text": reproducer.text,
        },
    }


def result_document(result: SearchResult, reproducers: dict[str, Reproducer], engine: str, args,
                    capabilities: list[str]) -> dict:
    """The run as JSON (``baobei-fuzz/1``, docs/fuzz.md): what was played, what the reference cited, the checks
    made and which held, every distinct problem (the most frequent first; ``problem`` is the first, or null) with
    its reproducer, whether a signal cut it short."""
    normative = {c.id for c in default_spec().clauses.values() if c.kind == "normative"}
    cited = sorted(result.coverage.clauses)
    problems = [_problem(seen, reproducers.get(seen.found.problem.group)) for seen in result.ranked()]
    mode = "invariants" if args.invariants_only else "differential"
    return {
        "schema": FUZZ_SCHEMA,
        "engine": engine,
        "mode": mode,
        "interrupted": result.interrupted,
        "capabilities": capabilities,
        "options": {"seed": args.seed, "derandomize": args.derandomize, "max_examples": args.max_examples,
                    "players": list(args.players), "scenarios": list(seed_folders(args.scenarios)),
                    "jobs": args.jobs},
        "budget_s": args.budget,
        "seconds": round(result.seconds, 3),
        "examples": result.coverage.examples,
        "actions": result.coverage.actions,
        "actions_per_s": round(result.coverage.actions / result.seconds, 1) if result.seconds else None,
        "failed_after_s": None if result.coverage.failed_at is None else round(result.coverage.failed_at, 3),
        "clauses_cited": cited,
        "normative_cited": len(normative & set(cited)),
        "checks": checklist(mode, capabilities, {p["check"] for p in problems}),
        "problem": problems[0] if problems else None,
        "problems": problems,
        "tried": tried_table(result.coverage),
        "refusals": dict(sorted(result.coverage.refusals.items())),
        "notes": result.notes,
        "finished": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }


def tried_table(coverage: Coverage) -> dict[str, dict[str, int]]:
    """decision kind -> action type -> times tried, both in the vocabulary's order (what ``tried`` holds)."""
    vocabulary = default_spec().vocabulary
    decisions, actions = list(vocabulary.decisions), list(vocabulary.actions)

    def at(name: str, order: list[str]) -> int:
        return order.index(name) if name in order else len(order)
    table: dict[str, dict[str, int]] = {}
    for decision, action in sorted(coverage.tried, key=lambda k: (at(k[0], decisions), at(k[1], actions), k)):
        table.setdefault(decision, {})[action] = coverage.tried[(decision, action)]
    return table


def render(document: dict) -> str:
    cited = (f"the reference cited {document['normative_cited']} normative clauses"
             if document["mode"] == "differential" else "no reference ran, so no clauses were cited")
    head = (f"{document['engine']}: {document['examples']} games, {document['actions']} actions in "
            f"{document['seconds']:.1f} s ({document['mode']}); {cited}")
    tried, refusals = document.get("tried") or {}, document.get("refusals") or {}
    if tried:
        pairs = sum(len(actions) for actions in tried.values())
        head += (f"\ntried {pairs} decision x action types; probes refused with "
                 + (", ".join(f"{code} {n}" for code, n in refusals.items()) or "no code"))
    if document["interrupted"]:
        head += "\nINCOMPLETE: interrupted; what was played and found until then"
    problems = document["problems"]
    if not problems:
        return head + "\nno problem found"
    lines = [head, f"{len(problems)} distinct problem{'s' if len(problems) > 1 else ''}, the most frequent first"
             + (f"; a game first failed {document['failed_after_s']:.1f} s into the search"
                if document["failed_after_s"] is not None else "")]
    for number, problem in enumerate(problems, 1):
        games = f"{problem['games']} game{'s' if problem['games'] != 1 else ''}"
        lines.append(f"PROBLEM {number} ({problem['group']}; {games}"
                     f"{'' if problem['shrunk'] else ', not shrunk'}): {problem['message']}")
        reproducer = problem["reproducer"]
        if reproducer:
            where = reproducer.get("path", "use --save DIR to keep it")
            state = "passes on the reference and fails on the engine" if reproducer["verified"] else reproducer["note"]
            lines.append(f"  reproducer {reproducer['id']} ({reproducer['actions']} actions after its setup; {state})"
                         f": {where}")
            if not reproducer.get("path"):
                lines.append(reproducer["text"])
    lines += [f"note: {n}" for n in document["notes"]]
    return "\n".join(lines)
