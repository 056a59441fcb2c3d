"""``baobei-conform report [RESULTS.json ...] [--out DIR] [--scenarios DIR] [--mutants FILE] [--fuzz FUZZ.json ...]``:
the HTML report."""

from __future__ import annotations

import argparse
import sys
import time

from baobei_conform.files.outputs import output_problems, print_problems, unwritten
from baobei_conform.options import default_suite
from baobei_conform.report.build import build_report
from baobei_conform.report.model import ReportError, load_document


def report_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="baobei-conform report",
        description="Write the HTML traceability report: engines side by side, the clause tree with ES/NL/EN, "
                    "FAQ, rulings, provisional facts, one page per scenario, badges.")
    parser.add_argument("results", nargs="*", metavar="RESULTS.json",
                        help="results of `baobei-conform --json FILE` (one per engine); none: run the reference")
    parser.add_argument("--out", default="baobei-report", metavar="DIR",
                        help="output folder (default: baobei-report), replaced whole: it must be missing, empty or "
                             "an earlier report, and hold none of the inputs")
    parser.add_argument("--scenarios", metavar="DIR",
                        help="the scenario folder (sources, steps, exercised coverage; default: the installed suite)")
    parser.add_argument("--rulings", metavar="IMPACT.json",
                        help="the document of `baobei-conform rulings --json FILE`: each reading's measured impact")
    parser.add_argument("--mutants", metavar="MUTANTS.json",
                        help="show per clause the mutants that break it: the file `python tools/mutate.py --json "
                             "FILE` writes in a checkout (docs/mutants.md)")
    parser.add_argument("--fuzz", action="append", metavar="FUZZ.json",
                        help="the document of `baobei-conform fuzz ENGINE --json FILE` (repeat it, one per engine): "
                             "a fuzzing section per engine "
                             "(checks held or broken, reproducers, the clauses the search exercised; docs/fuzz.md)")
    return parser


def load_mutants(source: str | None) -> list[dict] | None:
    """Mutation results, read from the file of ``tools/mutate.py --json`` (the mutation tool is no part of the
    installed package), validated against spec/schemas/mutants.schema.json: ``{"summary": {...}, "mutants":
    [{"mutant": NAME, "clauses": [ID, ...], "status": "killed" | "survived" | "equivalent", ...}, ...]}``; the
    report reads those three fields of each entry."""
    if source is None:
        return None
    return load_document(source, "mutants.schema.json", "the JSON of tools/mutate.py --json")["mutants"]


def report_main(argv: list[str] | None = None) -> int:
    """Entry point for ``baobei-conform report``; returns the exit status (0 written, 2 unusable input)."""
    args = report_parser().parse_args(sys.argv[1:] if argv is None else list(argv))
    scenarios = args.scenarios or default_suite()[0]
    if print_problems("report", output_problems(owned={"--out": args.out}, inputs=[
            *args.results, scenarios, args.rulings, args.mutants, *(args.fuzz or [])])):
        return 2
    start = time.perf_counter()
    try:
        index = build_report(args.out, args.results, scenarios, args.rulings, load_mutants(args.mutants),
                             args.fuzz)
    except ReportError as exc:
        print(f"baobei-conform report: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # a full disk
        return print_problems("report", [unwritten("--out", args.out, exc)])
    print(f"report written in {time.perf_counter() - start:.2f}s: {index}")
    return 0


if __name__ == "__main__":
    sys.exit(report_main())
