"""The ``baobei-conform`` command."""

from __future__ import annotations

import argparse
import json
import sys

from baobei_conform.dsl.errors import ScenarioError
from baobei_conform.runner.engine import ReferenceEngine
from baobei_conform.runner.explain import explain
from baobei_conform.scenario import load_scenario, scenario_files
from baobei_spec import load_spec
from baobei_spec.summary import render, summarize


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
    return 0 if explain(scenario, ReferenceEngine(), load_spec(), sys.stdout) else 1


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="baobei-conform", description=__doc__)
    sub = parser.add_subparsers(dest="command")
    spec = sub.add_parser("spec", help="summarise and check the rulebook spec")
    spec.add_argument("--json", action="store_true", help="print one JSON object")
    spec.set_defaults(func=_spec_command)
    lint = sub.add_parser("lint", help="validate scenario files without running them")
    lint.add_argument("paths", nargs="*", default=["scenarios"], help="files or folders (default: scenarios)")
    lint.set_defaults(func=_lint_command)
    expl = sub.add_parser("explain", help="run one scenario on the reference, step by step, with the rules")
    expl.add_argument("scenario", help="a scenario file")
    expl.set_defaults(func=_explain_command)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:  # until the conformance runner exists, the main job checks the spec
        args = parser.parse_args(["spec"])
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
