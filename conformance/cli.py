"""The ``baobei-conform`` command."""

from __future__ import annotations

import argparse
import json
import sys

from baobei_spec import load_spec
from baobei_spec.summary import render, summarize


def _spec_command(args: argparse.Namespace) -> int:
    spec = load_spec(strict=False)
    summary = summarize(spec)
    print(json.dumps(summary, indent=2, ensure_ascii=False) if args.json else render(summary))
    for problem in spec.problems:
        print(f"problem: {problem}", file=sys.stderr)
    return 1 if spec.problems else 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="baobei-conform", description=__doc__)
    sub = parser.add_subparsers(dest="command")
    spec = sub.add_parser("spec", help="summarise and check the rulebook spec")
    spec.add_argument("--json", action="store_true", help="print one JSON object")
    spec.set_defaults(func=_spec_command)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:  # until the conformance runner exists, the main job checks the spec
        args = parser.parse_args(["spec"])
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
