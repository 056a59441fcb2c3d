"""``baobei-conform report [RESULTS.json ...] [--out DIR] [--scenarios DIR]``: write the HTML report."""

from __future__ import annotations

import argparse
import sys
import time

from baobei_conform.outputs import unwritable_folder
from baobei_conform.report.build import build_report
from baobei_conform.report.model import ReportError
from baobei_conform.tools import default_suite


def report_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="baobei-conform report",
        description="Write the HTML traceability report: engines side by side, the clause tree with ES/NL/EN, "
                    "FAQ, rulings, provisional facts, one page per scenario, badges.")
    parser.add_argument("results", nargs="*", metavar="RESULTS.json",
                        help="results of `baobei-conform --json FILE` (one per engine); none: run the reference")
    parser.add_argument("--out", default="baobei-report", metavar="DIR", help="output folder (default: baobei-report)")
    parser.add_argument("--scenarios", metavar="DIR",
                        help="the scenario folder (sources, steps, exercised coverage; default: the installed suite)")
    parser.add_argument("--rulings", metavar="IMPACT.json",
                        help="the document of `baobei-conform rulings --json FILE`: each reading's measured impact")
    return parser


def report_main(argv: list[str] | None = None) -> int:
    """Entry point for ``baobei-conform report``; returns the exit status (0 written, 2 unusable input)."""
    args = report_parser().parse_args(sys.argv[1:] if argv is None else list(argv))
    problem = unwritable_folder(args.out)
    if problem:
        print(f"baobei-conform report: {problem}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    try:
        index = build_report(args.out, args.results, args.scenarios or default_suite()[0], args.rulings)
    except ReportError as exc:
        print(f"baobei-conform report: {exc}", file=sys.stderr)
        return 2
    print(f"report written in {time.perf_counter() - start:.2f}s: {index}")
    return 0


if __name__ == "__main__":
    sys.exit(report_main())
