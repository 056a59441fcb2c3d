"""``baobei-conform compile``: every scenario's compiled steps as a JSON file, a published artefact.

Like the WebAssembly spec's ``.wast`` -> JSON, the compiled form lets a harness in any language run the
suite without our parser: each file holds the scenario's metadata and its steps
(``spec/schemas/compiled.schema.json``, the steps by ``steps.schema.json``; a step's ``line`` is a
line of the script, which starts at the file's line ``script_line``). Files mirror the scenario
folders (``3-pluck/pluck-basic.yaml`` -> ``3-pluck/pluck-basic.json``). The folder is written whole or
not at all: a scenario that does not compile is reported with file:line:col and nothing is written. It is
a folder the tool owns (outputs.py): missing, empty or an earlier compile's, never the sources or a folder
holding anything else. ``--expected`` adds what the reference shows after every action step (expected.py;
docs/published.md): the compiler itself never runs the reference, the reference is run as an engine.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from baobei_conform.cli.expected import NotObserved, expected
from baobei_conform.dsl.errors import ScenarioError
from baobei_conform.files.outputs import output_problems, print_problems, replace_dir, unwritten
from baobei_conform.options import default_suite
from baobei_conform.protocol import PROTOCOL_VERSION
from baobei_conform.suite.scenario import Scenario, load_scenario, scenario_files

FORMAT = "baobei-compiled-scenario"


def compiled(scenario: Scenario, source: str) -> dict:
    """The published form of one scenario (``source``: its path under the scenario folder)."""
    return {"format": FORMAT, "protocol": PROTOCOL_VERSION, "id": scenario.id, "title": scenario.title,
            "source": source, "script_line": scenario.script_line, "clauses": list(scenario.clauses),
            "faq": list(scenario.faq), "rulings": list(scenario.rulings), "tags": list(scenario.tags),
            "steps": scenario.steps}


def _sources(paths: list[str]) -> list[tuple[Path, str]]:
    """(file, its path under the folder given, or its name for a file given) for every scenario file."""
    out = []
    for given in map(Path, paths):
        for path in scenario_files([given]):
            out.append((path, (path.relative_to(given) if given.is_dir() else Path(path.name)).as_posix()))
    return out


class _Unobserved(Exception):
    """Scenarios the reference does not go through, found while the folder was built (it is then not kept)."""

    def __init__(self, errors: list[NotObserved]):
        super().__init__(f"{len(errors)} scenarios")
        self.errors = errors


def compile_suite(paths: list[str], out: str, observed: bool = False) -> list[ScenarioError | NotObserved]:
    """Write the compiled scenarios under ``out`` (``observed``: with the reference's observations); the errors of
    the files that do not compile or that the reference does not go through (then nothing is written). The
    observations are made and written one scenario at a time (a few MB each at most, 32 MB for the suite)."""
    scenarios, errors = {}, []
    for path, source in _sources(paths):
        try:
            scenarios[source] = load_scenario(path)
        except ScenarioError as exc:
            errors.append(exc)
    if errors:
        return list(errors)

    def build(folder: Path) -> None:
        unobserved = []
        for source, scenario in scenarios.items():
            document = compiled(scenario, source)
            try:
                document |= {"expected": expected(scenario)} if observed else {}
            except NotObserved as exc:
                unobserved.append(exc)
                continue
            for left_out in document.get("expected", {}).get("unobserved", ()):
                print(f"warning: {left_out['why']}; no observations for it", file=sys.stderr)
            target = folder / Path(source).with_suffix(".json")
            target.parent.mkdir(parents=True, exist_ok=True)
            indent = None if observed else 1  # the observations are large: compact
            target.write_text(json.dumps(document, indent=indent, ensure_ascii=False) + "\n", encoding="utf-8")
        if unobserved:
            raise _Unobserved(unobserved)

    try:
        replace_dir(out, build, "baobei-conform compile")
    except _Unobserved as exc:
        return list(exc.errors)
    return []


def compile_command(args: argparse.Namespace) -> int:
    paths = args.paths or default_suite()
    if not scenario_files(paths):
        print(f"baobei-conform compile: no scenario files under {', '.join(paths)}", file=sys.stderr)
        return 2
    if print_problems("compile", output_problems(owned={"--out": args.out}, inputs=paths)):
        return 2
    try:
        errors = compile_suite(paths, args.out, args.expected)
    except OSError as exc:  # a full disk
        return print_problems("compile", [unwritten("--out", args.out, exc)])
    for error in errors:
        print(error, file=sys.stderr)
    if errors:
        print(f"{len(errors)} scenario files do not compile{' or run on the reference' if args.expected else ''}; "
              "nothing written", file=sys.stderr)
        return 1
    print(f"{len(_sources(paths))} scenarios compiled into {args.out}"
          + (", each with the reference's observations after every action step" if args.expected else ""))
    return 0


def add_parser(sub) -> None:
    """The ``compile`` subcommand."""
    p = sub.add_parser("compile", help="write every scenario's compiled steps as JSON (a published artefact)")
    p.add_argument("paths", nargs="*", help="scenario files or folders (default: the installed suite)")
    p.add_argument("--out", default="baobei-compiled", metavar="DIR",
                   help="the folder to write (default: baobei-compiled); replaced whole, so it must be missing, "
                        "empty or an earlier compile's output, outside the scenario sources")
    p.add_argument("--expected", action="store_true",
                   help="also write, beside each scenario's steps, what the reference shows after every action step "
                        "(state, events, every player's view, legal actions) and how to compare it: docs/published.md")
    p.set_defaults(func=compile_command)
