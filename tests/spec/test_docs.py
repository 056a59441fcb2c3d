"""docs/spec/ is generated from the spec by tools/gen_docs.py and kept current."""

from __future__ import annotations

import importlib.util
import re
from itertools import takewhile
from pathlib import Path

import pytest

from baobei_spec import load_spec
from baobei_spec.contract_docs import REGIONS, fill_regions, region_names

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "spec"
PROTOCOL = ROOT / "docs" / "protocol.md"


def _load_generator():
    spec = importlib.util.spec_from_file_location("gen_docs", ROOT / "tools" / "gen_docs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


gen_docs = _load_generator()


@pytest.fixture(scope="module")
def spec():
    return load_spec()


@pytest.fixture(scope="module")
def pages(spec) -> dict[str, str]:
    return gen_docs.render_all(spec)


def test_committed_docs_are_current(pages):
    committed = {p.name: p.read_text(encoding="utf-8") for p in DOCS.glob("*.md")}
    assert sorted(committed) == sorted(pages), "run: python tools/gen_docs.py"
    stale = [name for name, text in pages.items() if committed[name] != text]
    assert not stale, f"stale docs {stale}; run: python tools/gen_docs.py"


def protocol_copy(tmp_path) -> Path:
    copy = tmp_path / "protocol.md"
    copy.write_text(PROTOCOL.read_text(encoding="utf-8"), encoding="utf-8")
    return copy


def test_generator_writes_what_it_renders(tmp_path, pages):
    out, protocol = tmp_path / "spec", protocol_copy(tmp_path)
    assert gen_docs.main(["--out", str(out), "--protocol", str(protocol)]) == 0
    written = {p.name: p.read_text(encoding="utf-8") for p in out.glob("*.md")}
    assert written == pages
    assert gen_docs.main(["--check", "--out", str(out), "--protocol", str(protocol)]) == 0


def test_check_names_stale_files(tmp_path, capsys):
    out, protocol = tmp_path / "spec", protocol_copy(tmp_path)
    gen_docs.main(["--out", str(out), "--protocol", str(protocol)])
    (out / "outline.md").write_text("hand edit\n", encoding="utf-8")
    (out / "old.md").write_text("left over\n", encoding="utf-8")
    assert gen_docs.main(["--check", "--out", str(out), "--protocol", str(protocol)]) == 1
    err = capsys.readouterr().err
    assert "outline.md" in err and "old.md" in err and "rulings.md" not in err and "protocol.md" not in err


def test_the_protocol_pages_contract_tables_are_current(spec):
    """docs/protocol.md holds the contract's tables between markers, as the generator renders them."""
    text = PROTOCOL.read_text(encoding="utf-8")
    assert fill_regions(text, spec) == text, "run: python tools/gen_docs.py"
    assert set(region_names(text)) == set(REGIONS)  # every table of the contract is on the page, once
    assert len(region_names(text)) == len(REGIONS)


def test_a_hand_edit_of_a_contract_table_is_stale(tmp_path, capsys):
    protocol = protocol_copy(tmp_path)
    text = protocol.read_text(encoding="utf-8")
    protocol.write_text(text.replace("| `discarded` | 2.7.4 |", "| `discarded` | 2.7.3 |"), encoding="utf-8")
    assert gen_docs.main(["--check", "--out", str(DOCS), "--protocol", str(protocol)]) == 1
    assert "protocol.md" in capsys.readouterr().err
    assert gen_docs.main(["--out", str(tmp_path / "spec"), "--protocol", str(protocol)]) == 0
    assert protocol.read_text(encoding="utf-8") == text  # rendered back


def test_render_is_deterministic(spec, pages):
    assert gen_docs.render_all(spec) == pages


def test_every_clause_is_on_its_page_in_three_languages(spec, pages):
    clause_pages = {name: text for name, text in pages.items() if name.startswith("clauses-")}
    for clause in spec.clauses.values():
        page = clause_pages[gen_docs.page_of(clause.section)]
        block = page.split(f'<a id="clause-{clause.id}"></a>', 1)
        assert len(block) == 2, f"{clause.id} has no anchor"
        block = block[1].split("<a id=", 1)[0]
        assert f"### {clause.id} ({clause.kind})" in block
        for lang in ("es", "nl", "en"):
            assert gen_docs.cell(getattr(clause, lang)) in block, f"{clause.id}: {lang} text missing"


def test_every_section_has_an_anchor_and_outline_entry(spec, pages):
    for sec in spec.sections.values():
        assert f'<a id="sec-{sec.id}"></a>' in pages[gen_docs.page_of(sec.id)]
        assert f"]({gen_docs.page_of(sec.id)}#sec-{sec.id})" in pages["outline.md"]


def test_internal_links_resolve(pages):
    anchors = {name: set(re.findall(r'<a id="([^"]+)"></a>', text)) for name, text in pages.items()}
    for name, text in pages.items():
        for target, anchor in re.findall(r"\]\(([\w.-]+\.md)(?:#([^)]+))?\)", text):
            assert target in pages, f"{name} links to missing {target}"
            assert not anchor or anchor in anchors[target], f"{name} links to missing {target}#{anchor}"


def _catalog_rows(catalog: str, heading: str) -> dict[str, dict[str, str]]:
    """The first table after ``heading``: first cell (without backticks) -> {column: cell}."""
    lines = catalog.split(heading, 1)[1].splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    table = list(takewhile(lambda line: line.startswith("|"), lines[start:]))
    split = [[c.strip() for c in re.split(r"(?<!\\)\|", row)[1:-1]] for row in table]
    header, rows = split[0], split[2:]
    return {row[0].strip("`"): dict(zip(header, row, strict=True)) for row in rows}


def test_provisional_facts_are_marked_in_catalog(spec, pages):
    catalog = pages["catalog.md"]
    species = _catalog_rows(catalog, "## Card catalog")
    params = _catalog_rows(catalog, "## Rule parameters")
    provisional = spec.provisional_facts()
    assert provisional
    for where, ruling in provisional:
        kind, name = where.split(":", 1)
        if kind == "catalog":
            sp, fact = name.split(".")
            cell = species[sp]["names from" if fact == "names" else fact]
        else:
            cell = params[name]["value"]
        assert cell.endswith(f"(provisional, {ruling})"), f"{where} not marked provisional: {cell}"


def test_sourced_facts_show_their_lines(spec, pages):
    species = _catalog_rows(pages["catalog.md"], "## Card catalog")
    for sp in spec.species_list:
        for name, fact in sp.facts.items():
            if not fact.provisional:
                cell = species[sp.id]["names from" if name == "names" else name]
                assert cell.endswith(f"{', '.join(map(str, fact.source))})"), f"{sp.id}.{name}: {cell}"
                assert "provisional" not in cell


def test_rulings_and_errors_are_listed(spec, pages):
    for ruling in spec.rulings.values():
        assert f"## {ruling.id} ({ruling.status})" in pages["rulings.md"]
    for code in spec.errors:
        assert f"| `{code}` |" in pages["catalog.md"]
