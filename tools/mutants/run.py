"""Run mutants against the scenario suite in process and tabulate which scenarios kill each one.

The suite runs through the harness's public entry points (``ReferenceEngine``, ``run_scenario``): a variant or
rule parameters go to the reference engine, which composes them into every game; a patch is applied around the
run. Every game also gets :data:`BUDGET`, so a mutant that loops is stopped instead of hanging the tool.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field

from baobei_conform.engines.reference import ReferenceEngine
from baobei_conform.runner.run import run_scenario
from baobei_conform.suite.scenario import Scenario
from baobei_ref.game import default_params
from baobei_ref.rules import Rules, Variant

from .mutant import Mutant
from .patching import applied

STEP_BUDGET = 20_000  # agenda steps per action: a mutant that loops forever is killed, not hung
LOOPS = "the mutant loops"  # in the error of a scenario stopped by the budget: a kill (an engine would hang)


def _budgeted(rules: Rules) -> None:
    """Every agenda step counted, the count restarted by each action: ``STEP_BUDGET`` steps without a decision
    raise. Composed last, so it counts the mutant's own steps too; each game gets its own count."""
    left = [STEP_BUDGET]

    def counted(fn):
        def run(g, *args):
            left[0] -= 1
            if left[0] < 0:
                raise RuntimeError(f"no decision after {STEP_BUDGET} steps: {LOOPS}")
            fn(g, *args)
        return run

    def restarted(perform):
        def run(g, a):
            left[0] = STEP_BUDGET
            perform(g, a)
        return run

    rules.steps = {name: counted(fn) for name, fn in rules.steps.items()}
    rules.answers = {key: (validate, restarted(perform)) for key, (validate, perform) in rules.answers.items()}


BUDGET = Variant("step_budget", "stops a game that runs STEP_BUDGET agenda steps without a decision", _budgeted)


@dataclass
class MutantResult:
    """One mutant's run: the scenarios that failed (killed it), those in which the mutated reference only raised
    (no check caught anything there: likely a bug of the mutant, so no kill) and how long the suite took."""

    mutant: Mutant
    killed_by: list[str] = field(default_factory=list)
    seconds: float = 0.0
    crashed_in: list[tuple[str, str]] = field(default_factory=list)  # (scenario id, the error)

    @property
    def status(self) -> str:
        """killed | survived | equivalent (listed apart, not counted)."""
        if self.mutant.equivalent:
            return "equivalent"
        return "killed" if self.killed_by else "survived"

    def to_json(self) -> dict:
        """One entry of ``tools/mutate.py --json``'s ``mutants`` (what ``baobei-conform report --mutants`` reads)."""
        m = self.mutant
        return {"mutant": m.name, "misreading": m.doc, "clauses": list(m.clauses), "origin": m.origin,
                "kind": m.kind, "status": self.status, "killed_by": self.killed_by, "equivalent": m.equivalent,
                "crashed_in": [{"scenario": sid, "error": error} for sid, error in self.crashed_in],
                "seconds": round(self.seconds, 4)}


def engine_for(m: Mutant | None) -> ReferenceEngine:
    """The reference engine with ``m`` switched on (a variant or rule parameters; a patch is applied apart)."""
    variants = (m.variant,) if m is not None and m.variant is not None else ()
    params = None
    if m is not None and m.params is not None:
        params = dataclasses.replace(default_params(), **m.params(default_params()))
    return ReferenceEngine(variants=(*variants, BUDGET), params=params)


def run_mutant(m: Mutant | None, scenarios: list[Scenario]) -> tuple[list[str], list[tuple[str, str]]]:
    """With ``m`` switched on (None: the plain reference): the ids of the scenarios that kill it (a check failed,
    or the mutant loops), and the scenarios in which the mutated reference raised, with the error. A raise is no
    kill: a mutant killed only so (a patch keyed wrongly, say) shows no scenario checks its misreading."""
    killed, crashed = [], []
    with applied(m.patch if m is not None else None):
        engine = engine_for(m)
        for s in scenarios:
            out = run_scenario(s, engine)
            if out.status == "error" and LOOPS not in out.message:
                crashed.append((s.id, out.message))
            elif out.status != "pass":
                killed.append(s.id)
    return killed, crashed


def run_mutants(mutants: list[Mutant], scenarios: list[Scenario]) -> list[MutantResult]:
    """Every mutant against every scenario; the suite must pass on the reference first."""
    failed, crashed = run_mutant(None, scenarios)
    if failed or crashed:
        raise ValueError(f"the suite does not pass on the reference: {', '.join(failed + [s for s, _ in crashed])}")
    results = []
    for m in mutants:
        start = time.perf_counter()
        killed_by, crashed = run_mutant(m, scenarios)
        results.append(MutantResult(m, killed_by, time.perf_counter() - start, crashed))
    return results


def summary(results: list[MutantResult]) -> dict:
    """Counts for the benchmark and the report: equivalents are left out of ``mutants`` and listed."""
    counted = [r for r in results if r.status != "equivalent"]
    killed = sum(r.status == "killed" for r in counted)
    return {
        "mutants": len(counted),
        "mutants_killed": killed,
        "mutation_score": round(killed / len(counted), 4) if counted else 1.0,
        "survivors": [r.mutant.name for r in counted if r.status == "survived"],
        "equivalent": {r.mutant.name: r.mutant.equivalent for r in results if r.status == "equivalent"},
        "kinds": {kind: sum(r.mutant.kind == kind for r in results) for kind in ("variant", "parameters", "patch")},
    }
