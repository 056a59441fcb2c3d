"""Cross-checks over a loaded spec: references resolve, every line is covered exactly once."""

from __future__ import annotations

from collections import Counter

from baobei_spec.load import Problem, text_refs
from baobei_spec.model import Spec, part_of


def unresolved_refs(spec: Spec) -> list[Problem]:
    """Cross-references (declared or found in the Spanish text) that name no section."""
    out = []
    for c in spec.clauses.values():
        for ref in sorted(set(c.refs) | set(text_refs(c.es))):
            if ref not in spec.sections:
                out.append(Problem(c.file, c.id, f"cross-reference {ref!r} names no section"))
        for ref in text_refs(c.es):
            if ref not in c.refs:
                out.append(Problem(c.file, c.id, f"the text cites {ref!r} but `refs` does not list it"))
    return out


def uncovered_lines(spec: Spec) -> list[Problem]:
    """Non-empty rulebook lines not held by exactly one clause, in either language, or not verbatim."""
    out = []
    for lang, lines in (("es", spec.lines_es), ("nl", spec.lines_nl)):
        held = Counter(getattr(c, f"line_{lang}") for c in spec.clauses.values())
        for number, text in enumerate(lines, start=1):
            if text.strip() and held[number] == 0:
                out.append(Problem(f"rulebook ({lang})", f"line {number}", "not covered by any clause"))
            elif held[number] > 1:
                out.append(Problem(f"rulebook ({lang})", f"line {number}", f"covered by {held[number]} clauses"))
        for c in spec.clauses.values():
            number = getattr(c, f"line_{lang}")
            if not 1 <= number <= len(lines) or lines[number - 1] != getattr(c, lang):
                out.append(Problem(c.file, c.id, f"{lang} text differs from rulebook line {number}"))
    return out


def _named_ids(spec: Spec) -> list[Problem]:
    out = []
    named = [("rulings.yaml", r.id, r.clauses) for r in spec.rulings.values()]
    named += [("errors.yaml", e.code, e.clauses) for e in spec.errors.values()]
    for file, entry, ids in named:
        out += [Problem(file, entry, f"names unknown clause {c!r}") for c in ids if c not in spec.clauses]
    for where, ruling in spec.provisional_facts():
        if ruling not in spec.rulings:
            file, fact = where.split(":", 1)  # same entry as the loader's fact problems, e.g. "owl.count"
            out.append(Problem(f"{file}.yaml", fact, f"cites unknown ruling {ruling!r}"))
    for sp in spec.species_list:
        if sp.family not in spec.families and sp.facts["family"].source:
            out.append(Problem("catalog.yaml", sp.id, f"sourced family {sp.family!r} is not declared"))
    for c in spec.clauses.values():
        if part_of(c.id) not in spec.vocabulary.parts:
            out.append(Problem(c.file, c.id, "its part is not one of the vocabulary's parts"))
        if c.section == "?":
            out.append(Problem(c.file, c.id, f"line {c.line_es} lies in no section of the outline"))
    return out


def _reading_lines(spec: Spec) -> list[Problem]:
    """A reading's supporting and contradicting lines must be non-empty rulebook lines."""
    out = []
    for r in spec.rulings.values():
        for reading in r.readings:
            for n in reading.supports + reading.contradicts:
                if not 1 <= n <= len(spec.lines_es) or not spec.lines_es[n - 1].strip():
                    out.append(Problem("rulings.yaml", f"{r.id} reading {reading.id}", f"line {n} is no rulebook text"))
    return out


def _contract_clauses(spec: Spec) -> list[Problem]:
    """The clauses contract.yaml cites exist; no two situations of a kind cite the same clause for the same reason."""
    rel, c = "contract.yaml", spec.contract
    cited = [(f"events.{s.kind}.{s.id}", s.clause) for s in c.situations()]
    cited += [(f"refusals.{r.id}", r.clause) for r in c.refusals if r.clause is not None]
    cited += [(f"moved.{m.id}", m.clause) for m in c.moved]
    return [Problem(rel, entry, f"cites unknown clause {clause!r}")
            for entry, clause in cited if clause not in spec.clauses]


def check_spec(spec: Spec) -> list[Problem]:
    """Every cross-check; an empty list means the spec is consistent."""
    return unresolved_refs(spec) + uncovered_lines(spec) + _named_ids(spec) + _reading_lines(spec) + \
        _contract_clauses(spec)
