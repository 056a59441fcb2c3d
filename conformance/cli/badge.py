"""``baobei-conform badge``: an engine's shields.io badge from its results document, and a published badge checked
against the results it came from.

    baobei-conform badge RESULTS.json --out badge.json     # write the badge (the report writes the same one)
    baobei-conform badge --verify badge.json RESULTS.json  # exit 0: the badge is what those results give

A badge's message names what was passed (``report.model.EngineRun.badge``: the count, agreement when it was not
on, and ``suite_tag``, a digest of the suite's version, scenarios, spec and contract). Shields accepts no other key,
so a badge cannot carry the whole identity: ``--verify`` rebuilds the badge from the results (validated against
``results.schema.json``) and compares every field, so an edited badge, or a badge beside other results (another
count, suite, contract or agreement setting), is found.
"""

from __future__ import annotations

import argparse
import json
import sys

from baobei_conform.files.inputs import InputError, load_json
from baobei_conform.files.outputs import output_problems, print_problems, unwritten, write_atomic
from baobei_conform.report.model import ReportError, engine_run, load_results
from baobei_conform.results.document import provenance

BADGE_BYTES = 64 << 10  # a badge is a few hundred bytes


def badge_of(results: str) -> tuple[dict, dict]:
    """(the badge the results document at ``results`` gives, the document); ReportError names a bad file."""
    document = load_results(results)
    return engine_run(document, results, set()).badge(), document


def verify(badge_path: str, results: str) -> tuple[bool, list[str]]:
    """Whether the badge at ``badge_path`` is the one ``results`` gives, and the lines that say so or how it
    differs (``key: in the badge -> from the results``)."""
    try:
        badge = load_json(badge_path, "a badge", BADGE_BYTES)
    except InputError as exc:
        raise ReportError(exc.heading()) from None
    want, document = badge_of(results)
    if not isinstance(badge, dict):
        return False, [f"{badge_path}: not a badge (a JSON object)"]
    wrong = [f"  {k}: {json.dumps(badge.get(k, '(missing)'))} in the badge -> {json.dumps(want.get(k, '(none)'))} "
             "from the results" for k in [*want, *(k for k in badge if k not in want)] if badge.get(k) != want.get(k)]
    if wrong:
        return False, [f"{badge_path}: NOT the badge of {results}:", *wrong]
    return True, [f"{badge_path}: the badge of {results}: {want['message']}", f"  {provenance(document)}"]


def badge_command(args: argparse.Namespace) -> int:
    if args.verify:
        try:
            same, lines = verify(args.verify, args.results)
        except ReportError as exc:
            return print_problems("badge", [str(exc)])
        print("\n".join(lines), file=sys.stdout if same else sys.stderr)
        return 0 if same else 1
    if print_problems("badge", output_problems(files={"--out": args.out}, inputs=[args.results])):
        return 2
    try:
        badge, _ = badge_of(args.results)
    except ReportError as exc:
        return print_problems("badge", [str(exc)])
    text = json.dumps(badge, indent=2) + "\n"
    if not args.out:
        print(text, end="")
        return 0
    try:
        write_atomic(args.out, text)
    except OSError as exc:
        return print_problems("badge", [unwritten("--out", args.out, exc)])
    return 0


def add_parser(sub) -> None:
    """The ``badge`` subcommand."""
    p = sub.add_parser("badge", help="an engine's shields.io badge from its --json results; --verify BADGE checks a "
                                     "published badge against the results it came from")
    p.add_argument("results", metavar="RESULTS.json", help="a results document (baobei-conform --json)")
    p.add_argument("--out", metavar="FILE", help="write the badge there (default: print it)")
    p.add_argument("--verify", metavar="BADGE", help="exit 0 when BADGE is the badge RESULTS gives, 1 (with what "
                                                     "differs) when not")
    p.set_defaults(func=badge_command)
