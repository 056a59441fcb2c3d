"""Does the fuzzer find every misreading of the wrong engine? ``python tools/fuzz_bugs.py [--budget 60]``.

The fuzzer's own mutation test: for each ``--bug`` of ``examples/wrong_engine`` alone (its rule misreadings
and its representation misreadings, ``MISREADINGS``), a default
``baobei-conform fuzz --derandomize`` run (differential; with ``--invariants-only`` too for the
misreadings the invariants must find without the reference). A bug counts as found when the run exits 1,
every distinct problem it reports has a saved reproducer that passes on the reference and fails on the wrong
engine with that bug (checked again here by ``baobei-conform`` itself, on both engines, so the fuzzer's own
verdict is not taken on trust; none may be "cannot state"), and the most frequent one has at most
``MAX_ACTIONS`` actions after its setup. Prints a line per run and a summary; exits 1 when a bug
is missed. Each run is its own processes, one at a time (a run's speed is what it finds in its budget).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WRONG = ROOT / "examples" / "wrong_engine" / "engine.py"
sys.path.insert(0, str(WRONG.parent))
from engine import MISREADINGS  # noqa: E402 - the wrong engine's own list of misreadings (rules and representation)

MAX_ACTIONS = 12  # the bound on a reproducer's actions after its setup
WITHOUT_REFERENCE = ("view_shows_own_cards", "take_into_any_slot_listed")  # found by the invariants alone


@dataclass
class Outcome:
    bug: str
    mode: str
    found: bool
    seconds: float
    detail: str


def _conform(scenario: Path, engine: list[str]) -> int:
    """``baobei-conform``'s exit code for one scenario file on ``engine`` (an empty list: the reference)."""
    command = [sys.executable, "-m", "baobei_conform", "--scenarios", str(scenario), "--no-report", "-q"]
    return subprocess.run(command + (["--", *engine] if engine else []), capture_output=True, text=True,
                          timeout=300).returncode


def hunt(bug: str, budget: float, invariants_only: bool) -> Outcome:
    """One fuzzing run against the wrong engine with ``bug``, and the checks of its reproducer."""
    mode = "invariants" if invariants_only else "differential"
    engine = [sys.executable, str(WRONG), "--bug", bug]
    with tempfile.TemporaryDirectory() as tmp:
        out, saved = Path(tmp) / "fuzz.json", Path(tmp) / "saved"
        command = [sys.executable, "-m", "baobei_conform", "fuzz", "--derandomize", "--budget", str(budget),
                   "--save", str(saved), "--json", str(out), *(["--invariants-only"] if invariants_only else []),
                   "--", *engine]
        began = time.monotonic()
        done = subprocess.run(command, capture_output=True, text=True, timeout=budget + 600, cwd=tmp)
        seconds = time.monotonic() - began
        if done.returncode != 1 or not out.exists():
            tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or [""]
            return Outcome(bug, mode, False, seconds, f"exit {done.returncode}, no problem found {tail[0]}")
        document = json.loads(out.read_text(encoding="utf-8"))
        problems = document["problems"]
        first = problems[0]["reproducer"]
        where = (f"{len(problems)} problem(s), the first {problems[0]['group']}, a game failed "
                 f"{document['failed_after_s']:.1f} s into the search ({document['seconds']:.1f} s with shrinking), "
                 f"its reproducer of {first['actions'] if first else '?'} actions")
        if first and first["actions"] > MAX_ACTIONS:
            return Outcome(bug, mode, False, seconds, f"{where}: more than {MAX_ACTIONS}")
        for problem in problems:
            wrong = _unverified(problem, engine)
            if wrong:
                return Outcome(bug, mode, False, seconds, f"{where}: {problem['group']}: {wrong}")
        return Outcome(bug, mode, True, seconds, f"{where}; every reproducer passes on the reference, fails on "
                                                 "the engine")


def _unverified(problem: dict, engine: list[str]) -> str:
    """What is wrong with a problem's reproducer ("" when it was saved, verified, and baobei-conform agrees)."""
    reproducer = problem["reproducer"]
    if reproducer is None or "path" not in reproducer:
        return "no reproducer saved"
    if not reproducer["verified"]:
        return f"not verified ({reproducer['note']})"
    on_reference, on_engine = _conform(Path(reproducer["path"]), []), _conform(Path(reproducer["path"]), engine)
    if (on_reference, on_engine) != (0, 1):
        return f"baobei-conform exits {on_reference} on the reference, {on_engine} on the engine (0 and 1 expected)"
    return ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--budget", type=float, default=60.0, help="seconds of search per run (default 60)")
    parser.add_argument("--bug", action="append", choices=sorted(MISREADINGS), help="only these (repeatable)")
    parser.add_argument("--json", metavar="FILE", help="write the outcomes as JSON")
    args = parser.parse_args(argv)
    runs = [(bug, False) for bug in args.bug or MISREADINGS] + [(bug, True) for bug in WITHOUT_REFERENCE
                                                                if bug in (args.bug or MISREADINGS)]
    outcomes = []
    for bug, invariants_only in runs:
        outcome = hunt(bug, args.budget, invariants_only)
        outcomes.append(outcome)
        print(f"{'found' if outcome.found else 'MISSED':6} {bug} ({outcome.mode}) in {outcome.seconds:.1f} s: "
              f"{outcome.detail}", flush=True)
    found = sum(o.found for o in outcomes)
    print(f"{found} of {len(outcomes)} runs found their misreading, every reproducer verified, the first of at most "
          f"{MAX_ACTIONS} actions (budget {args.budget:g} s each)")
    if args.json:
        Path(args.json).write_text(json.dumps([o.__dict__ for o in outcomes], indent=2) + "\n", encoding="utf-8")
    return 0 if found == len(outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
