"""Run mutants against the scenario suite in process and tabulate which scenarios kill each one."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from baobei_conform.mutants.patching import Mutant, applied
from baobei_conform.runner.engine import ReferenceEngine
from baobei_conform.runner.run import run_scenario
from baobei_conform.scenario import Scenario
from baobei_ref import game

STEP_BUDGET = 20_000  # agenda steps per action: a mutant that loops forever is killed, not hung
LOOPS = "the mutant loops"  # in the error of a scenario stopped by the budget: a kill (an engine would hang)


@dataclass
class MutantResult:
    """One mutant's run: the scenarios that failed (killed it), those in which the patched reference only raised
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
        m = self.mutant
        return {"mutant": m.name, "misreading": m.doc, "clauses": list(m.clauses), "origin": m.origin,
                "status": self.status, "killed_by": self.killed_by, "equivalent": m.equivalent,
                "crashed_in": [{"scenario": sid, "error": error} for sid, error in self.crashed_in],
                "seconds": round(self.seconds, 4)}


def _budgeted_run(g: game.Game) -> None:
    """``Game.run`` with a step budget."""
    s = g.state
    for _ in range(STEP_BUDGET):
        if s.pending is not None:
            return
        step = s.agenda.pop()
        g.rules.steps[step.name](g, *step.args())
    raise RuntimeError(f"no decision after {STEP_BUDGET} steps: {LOOPS}")


def run_mutant(m: Mutant | None, scenarios: list[Scenario]) -> tuple[list[str], list[tuple[str, str]]]:
    """With ``m`` switched on (None: the plain reference): the ids of the scenarios that kill it (a check failed,
    or the mutant loops), and the scenarios in which the patched reference raised, with the error. A raise is no
    kill: a mutant killed only so (a patch keyed wrongly, say) shows no scenario checks its misreading."""
    killed, crashed = [], []
    with applied(m):
        game.Game.run = _budgeted_run
        engine = ReferenceEngine(variants=m.variants if m else ())
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
    }
