#!/usr/bin/env python3
"""Mutation testing of the scenario suite: every mutant (tools/mutants, never installed) against every scenario,
in process.

    python tools/mutate.py                          # summary and survivors
    python tools/mutate.py --table mutants.md --json mutants.json
    python tools/mutate.py -k 'shield*' --clause 4.2

Exit status 1 when a counted mutant survives or a normative clause is broken by no mutant
(and ``ALONE`` does not say why). See docs/mutants.md.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import sys
import time
from pathlib import Path

from baobei_conform.harness.run import Selection, load_suite
from baobei_spec import default_spec
from mutants import MUTANTS
from mutants.coverage import markdown, unbroken
from mutants.run import run_mutants, summary

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-k", dest="names", action="append", default=[], help="mutant name glob (repeatable)")
    parser.add_argument("--clause", action="append", default=[], help="mutants breaking this clause (prefix)")
    parser.add_argument("--scenarios", default=str(ROOT / "scenarios"), help="scenario folder")
    parser.add_argument("--table", help="write the Markdown table here")
    parser.add_argument("--json", help="write the results as JSON here (what `baobei-conform report --mutants` reads)")
    args = parser.parse_args(argv)
    chosen = [m for m in MUTANTS.values()
              if (not args.names or any(fnmatch.fnmatch(m.name, g) for g in args.names))
              and (not args.clause or any(c == p or c.startswith(p + ".") for c in m.clauses for p in args.clause))]
    scenarios, broken = load_suite([args.scenarios], Selection())
    for exc in broken:
        print(f"not loaded: {exc}", file=sys.stderr)
    start = time.perf_counter()
    try:
        results = run_mutants(chosen, scenarios)
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    figures = summary(results)
    spec = default_spec()
    gaps = unbroken(spec, results) if len(chosen) == len(MUTANTS) else []
    print(f"{figures['mutants_killed']} of {figures['mutants']} mutants killed by {len(scenarios)} scenarios "
          f"({figures['mutation_score']:.2%}) in {time.perf_counter() - start:.1f} s")
    kinds = figures["kinds"]
    print(f"switched on as {kinds['variant']} variants of the rules, {kinds['parameters']} sets of rule parameters, "
          f"{kinds['patch']} patches of the reference's modules")
    crashes = {r.mutant.name: r.crashed_in for r in results}
    for name in figures["survivors"]:
        print(f"survivor: {name} ({', '.join(MUTANTS[name].clauses)}): {MUTANTS[name].doc}")
        if crashes[name]:
            sid, error = crashes[name][0]
            print(f"  it only made the reference raise, in {len(crashes[name])} scenarios (no kill: a bug of the "
                  f"mutant?), first {sid}: {error}")
    for name, why in figures["equivalent"].items():
        print(f"equivalent: {name}: {why}")
    for cid in gaps:
        print(f"no mutant breaks normative clause {cid}")
    if args.table:
        Path(args.table).write_text(markdown(spec, results, figures), encoding="utf-8")
    if args.json:
        Path(args.json).write_text(json.dumps({"summary": figures, "mutants": [r.to_json() for r in results]},
                                              indent=1), encoding="utf-8")
    return 1 if figures["survivors"] or gaps else 0


if __name__ == "__main__":
    sys.exit(main())
