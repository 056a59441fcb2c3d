"""Counts that tell at a glance how complete and how provisional the spec is."""

from __future__ import annotations

from collections import Counter
from typing import Any

from baobei_spec.checks import uncovered_lines, unresolved_refs
from baobei_spec.model import Spec, part_of

__all__ = ["part_of", "render", "summarize"]


def summarize(spec: Spec) -> dict[str, Any]:
    """The summary as one JSON-ready object."""
    parts = spec.vocabulary.parts
    by_part = Counter(part_of(c.id) for c in spec.clauses.values())
    order = sorted(by_part, key=lambda p: (p not in parts, parts.index(p) if p in parts else p))
    return {
        "clauses": {
            "total": len(spec.clauses),
            "by_kind": dict(sorted(Counter(c.kind for c in spec.clauses.values()).items())),
            "by_part": {p: by_part[p] for p in order},
        },
        "faq": len(spec.faq()),
        "sections": len(spec.sections),
        "rulings": {
            "total": len(spec.rulings),
            "by_status": dict(sorted(Counter(r.status for r in spec.rulings.values()).items())),
        },
        "provisional": [{"fact": where, "ruling": ruling} for where, ruling in spec.provisional_facts()],
        "unresolved_refs": len(unresolved_refs(spec)),
        "uncovered_lines": len(uncovered_lines(spec)),
        "species": len(spec.species_list),
        "cards": spec.total_cards,
        "error_codes": len(spec.errors),
    }


def render(summary: dict[str, Any]) -> str:
    """The summary for a terminal."""
    c = summary["clauses"]
    lines = [
        f"clauses: {c['total']}",
        "  by kind: " + ", ".join(f"{k} {v}" for k, v in c["by_kind"].items()),
        "  by part: " + ", ".join(f"{k} {v}" for k, v in c["by_part"].items()),
        f"FAQ entries: {summary['faq']}",
        f"rulings: {summary['rulings']['total']} ("
        + ", ".join(f"{k} {v}" for k, v in summary["rulings"]["by_status"].items())
        + ")",
        f"provisional facts: {len(summary['provisional'])}",
        f"card catalog: {summary['species']} species, {summary['cards']} cards",
        f"error codes: {summary['error_codes']}",
        f"unresolved cross-references: {summary['unresolved_refs']}",
        f"uncovered lines: {summary['uncovered_lines']}",
    ]
    marked = summary.get("unreachable_setups")  # added by ``baobei-conform spec``, which reads the scenarios
    if marked is not None:
        lines.append(f"scenarios with an unreachable setup: {marked['count']} of {marked['scenarios']}")
        lines += [f"  {sid}: {why}" for sid, reasons in marked["reasons"].items() for why in reasons]
    return "\n".join(lines)
