"""Which mutants break each clause, the clauses no single mutant can break (and why), the table."""

from __future__ import annotations

from baobei_spec import Spec

from .run import MutantResult

# normative clause -> why no mutant breaks it alone; empty: every normative clause has a mutant
ALONE: dict[str, str] = {}


def by_clause(results: list[MutantResult]) -> dict[str, list[tuple[str, str]]]:
    """clause id -> [(mutant name, status)] for every mutant that breaks it."""
    out: dict[str, list[tuple[str, str]]] = {}
    for r in results:
        for cid in r.mutant.clauses:
            out.setdefault(cid, []).append((r.mutant.name, r.status))
    return out


def unbroken(spec: Spec, results: list[MutantResult]) -> list[str]:
    """Normative clauses that no mutant breaks and ``ALONE`` does not explain: must stay empty."""
    broken = by_clause(results)
    return [c.id for c in spec.clauses.values() if c.kind == "normative" and c.id not in broken
            and c.id not in ALONE]


def lines_of(spec: Spec, clauses) -> str:
    """The rulebook lines (Spanish and Dutch files are line-aligned) of the clauses."""
    return ", ".join(str(spec.clauses[c].line_es) for c in clauses if c in spec.clauses)


def markdown(spec: Spec, results: list[MutantResult], summary: dict) -> str:
    """The table: mutant, what it misreads, clauses and lines, status, the scenarios that kill it."""
    out = [
        "# Mutants of the reference and the scenarios that kill them",
        "",
        f"{summary['mutants_killed']} of {summary['mutants']} mutants killed "
        f"(score {summary['mutation_score']:.2%}); {len(summary['equivalent'])} equivalent, not counted.",
        "",
        "## Survivors",
        "",
    ]
    out += [f"- `{name}`" for name in summary["survivors"]] or ["none"]
    out += ["", "## Equivalent mutants", ""]
    out += [f"- `{name}`: {why}" for name, why in summary["equivalent"].items()] or ["none"]
    out += ["", "## Clauses no single mutant breaks", ""]
    out += [f"- {cid}: {why}" for cid, why in ALONE.items()]
    out += ["", "## Every mutant", "", "| mutant | misreading | clauses | lines | status | killed by |",
            "| --- | --- | --- | --- | --- | --- |"]
    for r in results:
        m = r.mutant
        killers = ", ".join(f"`{s}`" for s in r.killed_by[:5]) + (f" (+{len(r.killed_by) - 5})"
                                                                  if len(r.killed_by) > 5 else "")
        out.append(f"| `{m.name}` | {m.doc.replace('|', '/')} | {' '.join(m.clauses)} | {lines_of(spec, m.clauses)} "
                   f"| {r.status} | {killers} |")
    return "\n".join(out) + "\n"
