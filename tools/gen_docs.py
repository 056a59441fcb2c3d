"""Generate the Markdown pages of docs/spec/ from the spec; never edit those pages by hand.

python tools/gen_docs.py            # write docs/spec/ and the contract's tables in docs/protocol.md
python tools/gen_docs.py --check    # exit 1, naming the stale files, if docs/spec/ or docs/protocol.md is out of date

docs/protocol.md is written by hand except between ``<!-- contract:NAME -->`` and ``<!-- /contract:NAME -->``:
those regions are the tables of spec/contract.yaml and spec/errors.yaml (baobei_spec.contract_docs).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterable
from pathlib import Path

from baobei_spec import Clause, Section, Spec, load_spec
from baobei_spec.contract_docs import fill_regions, region_names, render_page
from baobei_spec.model import Fact

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "spec"
PROTOCOL = ROOT / "docs" / "protocol.md"
GENERATED = "_Generated from `spec/` by `tools/gen_docs.py`; do not edit by hand._"


# --- ids, anchors and links -------------------------------------------------------------------------


def part_of(section_id: str) -> str:
    """The part (and clause page) a section belongs to: '3' for 3.5, '6' for annex A and 6.10, 'B' for B."""
    head = section_id.split(".")[0]
    return "6" if head == "A" else head


def page_of(section_id: str) -> str:
    return f"clauses-{part_of(section_id)}.md"


def id_key(text: str) -> tuple:
    """Natural sort key for ids: 3.5.10 after 3.5.9, FAQ-10 after FAQ-09."""
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.split(r"[.\-]", text))


def section_link(spec: Spec, section_id: str) -> str:
    sec = spec.sections[section_id]
    label = f"§ {sec.id} {sec.title}" if "." in sec.id else top_title(sec)
    return f"[{label}]({page_of(sec.id)}#sec-{sec.id})"


def clause_link(spec: Spec, clause_id: str) -> str:
    clause = spec.clauses.get(clause_id)
    if clause is None:
        return f"`{clause_id}`"
    return f"[{clause_id}]({page_of(clause.section)}#clause-{clause_id})"


def clause_links(spec: Spec, clause_ids: Iterable[str]) -> str:
    return ", ".join(clause_link(spec, c) for c in clause_ids) or "none"


def cell(text: object) -> str:
    """Text safe inside a Markdown table cell."""
    return " ".join(str(text).split()).replace("|", "\\|")


def lines_label(lines: Iterable[int]) -> str:
    nums = list(lines)
    return f"line{'s' if len(nums) > 1 else ''} {', '.join(map(str, nums))}"


def range_label(sec: Section) -> str:
    if sec.first_line == sec.last_line:
        return f"line {sec.first_line}"
    return f"lines {sec.first_line}–{sec.last_line}"


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


# --- outline ----------------------------------------------------------------------------------------


def top_sections(spec: Spec) -> list[Section]:
    """The parts, annexes and closing sections, in outline order."""
    return [s for s in spec.sections.values() if "." not in s.id]


def subsections(spec: Spec, top: Section) -> list[Section]:
    return [s for s in spec.sections.values() if "." in s.id and part_of(s.id) == part_of(top.id)]


def clauses_in(spec: Spec, section_id: str) -> list[Clause]:
    """Clauses of one section (not its subsections), in rulebook order."""
    found = [c for c in spec.clauses.values() if c.section == section_id]
    return sorted(found, key=lambda c: (c.line_es, id_key(c.id)))


def part_count(spec: Spec, top: Section) -> int:
    return sum(len(clauses_in(spec, s.id)) for s in [top, *subsections(spec, top)])


def top_title(sec: Section) -> str:
    return f"Part {sec.id}: {sec.title}" if sec.id.isdigit() else sec.title


def render_outline(spec: Spec) -> str:
    out = [
        "# Section outline",
        "",
        GENERATED,
        "",
        "The rulebook text lost its headings. The numbering below is reconstructed from the text's own",
        "cross-references (parts 3 and 4, annexes A and B, §§ 3.5, 3.6, 4.2, 6.1, 6.10, 7.1); annex A is",
        "numbered as part 6. Titles are ours, in English. Line numbers are the same in the Spanish and the",
        "Dutch text.",
        "",
    ]
    for top in top_sections(spec):
        n = part_count(spec, top)
        out.append(f"- [{top_title(top)}]({page_of(top.id)}#sec-{top.id}) — {range_label(top)}, {plural(n, 'clause')}")
        for sub in subsections(spec, top):
            n = len(clauses_in(spec, sub.id))
            link = f"[{sub.id} {sub.title}]({page_of(sub.id)}#sec-{sub.id})"
            out.append(f"  - {link} — {range_label(sub)}, {plural(n, 'clause')}")
    out += ["", f"{plural(len(spec.sections), 'section')}, {plural(len(spec.clauses), 'clause')}."]
    return "\n".join(out) + "\n"


# --- clause pages -----------------------------------------------------------------------------------


def render_clause(spec: Spec, clause: Clause) -> list[str]:
    if clause.line_es == clause.line_nl:
        where = f"Line {clause.line_es}."
    else:
        where = f"Line {clause.line_es} (es), {clause.line_nl} (nl)."
    out = [
        f'<a id="clause-{clause.id}"></a>',
        "",
        f"### {clause.id} ({clause.kind})",
        "",
        where,
        "",
        "| ES | NL | EN |",
        "| --- | --- | --- |",
        f"| {cell(clause.es)} | {cell(clause.nl)} | {cell(clause.en)} |",
        "",
    ]
    if clause.refs:
        out += ["Refers to: " + ", ".join(section_link(spec, r) for r in clause.refs) + ".", ""]
    return out


def render_section(spec: Spec, sec: Section, heading: str, preamble: Iterable[str] = ()) -> list[str]:
    out = [f'<a id="sec-{sec.id}"></a>', "", heading, "", *preamble, f"{range_label(sec).capitalize()}.", ""]
    for clause in clauses_in(spec, sec.id):
        out += render_clause(spec, clause)
    return out


def render_part(spec: Spec, top: Section) -> str:
    preamble = [GENERATED, "", "[Outline](outline.md) · [Index](README.md)", ""]
    out = render_section(spec, top, f"# {top_title(top)}", preamble)
    for sub in subsections(spec, top):
        out += render_section(spec, sub, f"## {sub.id} {sub.title}")
    return "\n".join(out).rstrip("\n") + "\n"


# --- rulings ----------------------------------------------------------------------------------------


def reading_row(r, reading) -> str:
    """One reading as a table row: adopted or switchable, its text and its lines."""
    mark = " (adopted)" if reading.id == r.adopted else " (switch)" if reading.switch else ""
    lines = [", ".join(map(str, ns)) or "-" for ns in (reading.supports, reading.contradicts)]
    return f"| **{reading.id}**{mark} | {reading.text} | {lines[0]} | {lines[1]} |"


def render_rulings(spec: Spec) -> str:
    out = [
        "# Rulings register",
        "",
        GENERATED,
        "",
        "Where the rulebook is silent, ambiguous or seems to contradict itself, a ruling records what we",
        "decided. **decided**: the text, read as a whole, supports one reading. **provisional**: a choice",
        "the text does not support over its alternatives, to be confirmed by the publisher. Each ruling",
        "lists its readings; **switch** marks an alternative the reference implements behind its rule",
        "parameters (`rulings: {R-05: A}`), measured by `baobei-conform rulings`",
        "(see [the review guide](../rulings-review.md)).",
        "",
    ]
    for rid in sorted(spec.rulings, key=id_key):
        r = spec.rulings[rid]
        out += [
            f'<a id="{r.id}"></a>',
            "",
            f"## {r.id} ({r.status})",
            "",
            f"- **Status:** {r.status}",
            f"- **Clauses:** {clause_links(spec, r.clauses)}",
            "",
            f"**Question.** {r.question}",
            "",
            "**Readings.** Lines are rulebook lines (Spanish numbering; the Dutch text is line-aligned).",
            "",
            "| reading | text | supported by | contradicted by |",
            "| --- | --- | --- | --- |",
            *(reading_row(r, reading) for reading in r.readings),
            "",
            f"**Ruling.** {r.ruling}",
            "",
            f"**Reason.** {r.reason}",
            "",
        ]
    return "\n".join(out).rstrip("\n") + "\n"


# --- catalog, parameters, errors --------------------------------------------------------------------


def show_value(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, dict):
        return ", ".join(f"{k}: {v}" for k, v in value.items())
    return str(value)


def origin(fact: Fact) -> str:
    """Where a fact comes from: '(provisional, R-xx)' or '(lines …)'."""
    if fact.provisional:
        return f"(provisional, {fact.provisional})"
    return f"({lines_label(fact.source)})"


def with_origin(fact: Fact) -> str:
    return cell(f"{show_value(fact.value)} {origin(fact)}")


def render_catalog(spec: Spec) -> str:
    out = [
        "# Card catalog, rule parameters and error codes",
        "",
        GENERATED,
        "",
        "Every fact shows where it comes from: the rulebook lines that fix it (same numbers in the Spanish",
        "and the Dutch text), or **(provisional, R-xx)** when the text is silent and a ruling of the",
        "[rulings register](rulings.md) chose the value.",
        "",
        "## Card catalog",
        "",
        f"{spec.total_cards} cards, {len(spec.species_list)} species.",
        "",
        "| species | English | Spanish | Dutch | names from | family | value | power | count |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for sp in spec.species_list:
        names = [cell(sp.names[lang]) for lang in ("en", "es", "nl")]
        facts = [with_origin(sp.facts[k]) for k in ("family", "value", "power", "count")]
        out.append(f"| `{sp.id}` | " + " | ".join([*names, cell(origin(sp.facts["names"])), *facts]) + " |")
    out += ["", "Families named by the text (cards of one family match each other):", ""]
    for family, source in sorted(spec.families.items()):
        members = ", ".join(sp.names["en"] for sp in spec.species_list if sp.family == family)
        out.append(f"- `{family}`: {members} ({lines_label(source)})")
    out += [
        "",
        "## Rule parameters",
        "",
        "Tables by number of players read `players: value`.",
        "",
        "| parameter | value |",
        "| --- | --- |",
    ]
    for name, fact in spec.params.facts.items():
        out.append(f"| `{name}` | {with_origin(fact)} |")
    out += ["", "## Error codes", "", "| code | meaning | clauses |", "| --- | --- | --- |"]
    for code in sorted(spec.errors):
        err = spec.errors[code]
        out.append(f"| `{code}` | {cell(err.meaning)} | {clause_links(spec, err.clauses)} |")
    return "\n".join(out) + "\n"


# --- index and entry point --------------------------------------------------------------------------


def render_index(spec: Spec) -> str:
    statuses = sorted({r.status for r in spec.rulings.values()})
    by_status = ", ".join(f"{sum(r.status == s for r in spec.rulings.values())} {s}" for s in statuses)
    out = [
        "# BAO BEI spec documentation",
        "",
        GENERATED,
        "",
        "Regenerate with `python tools/gen_docs.py`; `python tools/gen_docs.py --check` fails when these",
        "pages are stale.",
        "",
        "- [Section outline](outline.md): the reconstructed parts and sections, with line ranges",
        "- Clauses, side by side in Spanish, Dutch and English:",
    ]
    for top in top_sections(spec):
        out.append(f"  - [{top_title(top)}]({page_of(top.id)}) — {plural(part_count(spec, top), 'clause')}")
    out += [
        f"- [Rulings register](rulings.md): {plural(len(spec.rulings), 'ruling')} ({by_status})",
        f"- [Card catalog, rule parameters and error codes](catalog.md): {len(spec.provisional_facts())} "
        "provisional facts marked",
        f"- [The observable contract](contract.md): {plural(len(spec.contract.situations()), 'event situation')}, "
        f"{plural(len(spec.contract.refusals), 'refusal row')}, {plural(len(spec.contract.lists), 'list')}",
    ]
    return "\n".join(out) + "\n"


def render_all(spec: Spec) -> dict[str, str]:
    """Every page of docs/spec/, by path relative to that folder."""
    pages = {"README.md": render_index(spec), "outline.md": render_outline(spec)}
    for top in top_sections(spec):
        pages[page_of(top.id)] = render_part(spec, top)
    pages["rulings.md"] = render_rulings(spec)
    pages["catalog.md"] = render_catalog(spec)
    pages["contract.md"] = render_page(spec, GENERATED)
    return pages


def stale_files(pages: dict[str, str], out_dir: Path) -> list[str]:
    """Pages missing or different under ``out_dir``, and Markdown files there the generator does not make."""
    stale = [
        name
        for name, text in pages.items()
        if not (out_dir / name).is_file() or (out_dir / name).read_text(encoding="utf-8") != text
    ]
    extra = [p.name for p in out_dir.glob("*.md") if p.name not in pages] if out_dir.is_dir() else []
    return sorted(stale + extra)


def write(pages: dict[str, str], out_dir: Path) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    for old in out_dir.glob("*.md"):
        if old.name not in pages:
            old.unlink()
    for name, text in pages.items():
        (out_dir / name).write_text(text, encoding="utf-8", newline="\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="exit 1 if the pages differ from what would be written")
    parser.add_argument("--out", type=Path, default=DOCS, help="output folder (default: docs/spec)")
    parser.add_argument("--protocol", type=Path, default=PROTOCOL,
                        help="the protocol page whose contract regions are rendered (default: docs/protocol.md)")
    args = parser.parse_args(argv)
    spec = load_spec()
    pages = render_all(spec)
    text = args.protocol.read_text(encoding="utf-8")
    protocol = fill_regions(text, spec)
    if args.check:
        stale = [str(args.out / name) for name in stale_files(pages, args.out)]
        stale += [str(args.protocol)] if protocol != text or not region_names(text) else []
        if stale:
            print(f"stale docs: {', '.join(stale)}\nrun: python tools/gen_docs.py", file=sys.stderr)
            return 1
        return 0
    write(pages, args.out)
    if protocol != text:
        args.protocol.write_text(protocol, encoding="utf-8", newline="\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
