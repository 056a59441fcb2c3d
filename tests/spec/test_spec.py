"""The spec package: the real spec is consistent, and every check catches a deliberately broken copy."""

from __future__ import annotations

import copy
import functools
import json
import re
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

import baobei_conform.cli.main as cli
from baobei_conform.cli.main import main
from baobei_spec import SPEC_ROOT, SpecError, load_spec
from baobei_spec.checks import check_spec
from baobei_spec.load import RULEBOOK_ES, RULEBOOK_NL
from baobei_spec.model import KINDS
from baobei_spec.summary import render, summarize

DATA_FILES = ("outline.yaml", "catalog.yaml", "params.yaml", "rulings.yaml", "errors.yaml", "vocabulary.yaml",
              "contract.yaml")
DATA_DIRS = ("clauses", "rulebook")
YAML_FILES = (*DATA_FILES, *(f"clauses/{p.name}" for p in sorted((SPEC_ROOT / "clauses").glob("*.yaml"))))
SUMMARY_KEYS = {"clauses", "faq", "rulings", "provisional", "unresolved_refs", "uncovered_lines"}


# --- the real spec ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def spec():
    return load_spec()


@pytest.fixture(scope="module")
def summary(spec):
    return summarize(spec)


def test_real_spec_loads_strictly_without_problems(spec):
    assert spec.problems == ()
    assert check_spec(spec) == []
    assert load_spec(SPEC_ROOT, strict=False).problems == ()


def test_summary_counts(spec, summary):
    assert summary["faq"] == 21
    assert summary["unresolved_refs"] == 0
    assert summary["uncovered_lines"] == 0
    assert summary["rulings"]["total"] >= 15
    assert sum(summary["rulings"]["by_status"].values()) == summary["rulings"]["total"]
    assert summary["cards"] == 66
    assert sum(sp.count for sp in spec.species_list) == 66
    assert summary["clauses"]["total"] == len(spec.clauses)
    assert sum(summary["clauses"]["by_kind"].values()) == len(spec.clauses)
    assert summary["clauses"]["by_kind"]["faq"] == 21
    assert summary["clauses"]["by_part"]["FAQ"] == 21


def test_every_clause_has_es_nl_en(spec):
    assert spec.clauses
    for clause in spec.clauses.values():
        assert clause.kind in KINDS, clause.id
        for lang in ("es", "nl", "en"):
            text = getattr(clause, lang)
            assert isinstance(text, str) and text.strip(), f"{clause.id}: empty {lang}"
        assert clause.en.strip() != "TODO", clause.id
        assert clause.section in spec.sections, clause.id


def test_rulebook_lines_covered_exactly_once():
    """Independent of the loader: raw clause YAML against the raw rulebook text files."""
    held: dict[str, Counter] = {"es": Counter(), "nl": Counter()}
    texts: list[tuple[str, int, str, str]] = []
    ids = Counter()
    for path in sorted((SPEC_ROOT / "clauses").glob("*.yaml")):
        for raw in yaml.safe_load(path.read_text(encoding="utf-8")):
            ids[str(raw["id"])] += 1
            for lang in ("es", "nl"):
                number = raw["lines"][lang]
                held[lang][number] += 1
                texts.append((lang, number, raw[lang], str(raw["id"])))
    assert [cid for cid, n in ids.items() if n > 1] == []
    books = {
        "es": (SPEC_ROOT / RULEBOOK_ES).read_text(encoding="utf-8").split("\n"),
        "nl": (SPEC_ROOT / RULEBOOK_NL).read_text(encoding="utf-8").split("\n"),
    }
    for lang, lines in books.items():
        non_empty = {n for n, text in enumerate(lines, start=1) if text.strip()}
        assert non_empty, lang
        assert set(held[lang]) == non_empty, lang
        assert {n: c for n, c in held[lang].items() if c != 1} == {}, lang
    for lang, number, text, cid in texts:
        assert books[lang][number - 1] == text, f"{cid} ({lang}) is not rulebook line {number} verbatim"


# --- broken copies ----------------------------------------------------------------------------------


@pytest.fixture
def spec_copy(tmp_path) -> Path:
    """A copy of the spec's data files only; the code is still the installed package."""
    root = tmp_path / "spec"
    root.mkdir()
    for name in DATA_DIRS:
        shutil.copytree(SPEC_ROOT / name, root / name)
    for name in DATA_FILES:
        shutil.copy2(SPEC_ROOT / name, root / name)
    return root


def read_yaml(root: Path, rel: str):
    return yaml.safe_load((root / rel).read_text(encoding="utf-8"))


def write_yaml(root: Path, rel: str, data) -> None:
    text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=1_000_000)
    (root / rel).write_text(text, encoding="utf-8")


def edit_yaml(root: Path, rel: str, edit: Callable) -> None:
    data = read_yaml(root, rel)
    edit(data)
    write_yaml(root, rel, data)


def entry(items: list, value: str, key: str = "id") -> dict:
    (found,) = [item for item in items if str(item.get(key)) == value]
    return found


def edit_entry(root: Path, rel: str, value: str, edit: Callable[[dict], object], key: str = "id") -> dict:
    """Apply ``edit`` to the entry of a list file whose ``key`` is ``value``; return the entry as it was."""
    data = read_yaml(root, rel)
    item = entry(data, value, key)
    before = copy.deepcopy(item)
    edit(item)
    write_yaml(root, rel, data)
    return before


def uncovered(number: int) -> list[tuple[str, str, str]]:
    return [(f"rulebook ({lang})", f"line {number}", r"^not covered by any clause$") for lang in ("es", "nl")]


Expected = list[tuple[str, str, str]]  # (file, entry, message regex)
MUTATIONS: dict[str, Callable[[Path], Expected]] = {}


def mutation(fn: Callable[[Path], Expected]) -> Callable[[Path], Expected]:
    MUTATIONS[fn.__name__] = fn
    return fn


@mutation
def duplicate_clause_id(root):
    # reminders.yaml loads after part1.yaml, so REM-1 is the duplicate and is dropped.
    before = edit_entry(root, "clauses/reminders.yaml", "REM-1", lambda c: c.update(id="1.1"))
    return [
        ("clauses/reminders.yaml", "1.1", r"^duplicate clause id \(also in clauses/part1\.yaml\)$"),
        *uncovered(before["lines"]["es"]),
    ]


@mutation
def unknown_kind(root):
    edit_entry(root, "clauses/part3.yaml", "3.1.1", lambda c: c.update(kind="rule"))
    return [("clauses/part3.yaml", "3.1.1", r"^kind 'rule' is not one of normative, example, .*faq$")]


@mutation
def en_todo(root):
    edit_entry(root, "clauses/part4.yaml", "4.1.1", lambda c: c.update(en="TODO"))
    return [("clauses/part4.yaml", "4.1.1", r"English rule is still TODO")]


@mutation
def ref_names_no_section(root):
    edit_entry(root, "clauses/part5.yaml", "5.1.1", lambda c: c.update(refs=["9.9"]))
    return [("clauses/part5.yaml", "5.1.1", r"^cross-reference '9\.9' names no section$")]


@mutation
def text_ref_missing_from_refs(root):
    edit_entry(root, "clauses/part1.yaml", "1.2", lambda c: c.update(refs=[]))  # the text says "anexo A"
    return [("clauses/part1.yaml", "1.2", r"^the text cites 'A' but `refs` does not list it$")]


@mutation
def es_differs_from_rulebook(root):
    before = edit_entry(root, "clauses/annex-b.yaml", "B.1", lambda c: c.update(es=c["es"] + " (editado)"))
    return [("clauses/annex-b.yaml", "B.1", rf"^es text differs from rulebook line {before['lines']['es']}$")]


@mutation
def nl_differs_from_rulebook(root):
    before = edit_entry(root, "clauses/annex-b.yaml", "B.2", lambda c: c.update(nl=c["nl"].replace(" ", "  ", 1)))
    return [("clauses/annex-b.yaml", "B.2", rf"^nl text differs from rulebook line {before['lines']['nl']}$")]


@mutation
def line_left_uncovered(root):
    rel = "clauses/summary.yaml"
    data = read_yaml(root, rel)
    removed = entry(data, "SUM-1")
    data.remove(removed)
    write_yaml(root, rel, data)
    return uncovered(removed["lines"]["es"])


@mutation
def line_covered_twice(root):
    rel = "clauses/faq.yaml"
    data = read_yaml(root, rel)
    twin = dict(entry(data, "FAQ-01"), id="FAQ-99")
    data.append(twin)
    write_yaml(root, rel, data)
    number = twin["lines"]["es"]
    return [(f"rulebook ({lang})", f"line {number}", r"^covered by 2 clauses$") for lang in ("es", "nl")]


@mutation
def ruling_names_unknown_clause(root):
    edit_entry(root, "rulings.yaml", "R-19", lambda r: r["clauses"].append("9.9.9"))
    return [("rulings.yaml", "R-19", r"^names unknown clause '9\.9\.9'$")]


@mutation
def ruling_adopts_no_listed_reading(root):
    edit_entry(root, "rulings.yaml", "R-05", lambda r: r.update(adopted="Z"))
    return [("rulings.yaml", "R-05", r"^adopted reading 'Z' is not one of its readings$")]


@mutation
def reading_cites_a_blank_line(root):
    edit_entry(root, "rulings.yaml", "R-05", lambda r: r["readings"][1]["contradicts"].append(2))
    return [("rulings.yaml", "R-05 reading B", r"^line 2 is no rulebook text$")]


@mutation
def adopted_reading_marked_as_switch(root):
    edit_entry(root, "rulings.yaml", "R-05", lambda r: r["readings"][1].update(switch=True))
    return [("rulings.yaml", "R-05", r"^the adopted reading is the default, not a switch$")]


@mutation
def error_names_unknown_clause(root):
    edit_entry(root, "errors.yaml", "malformed_action", lambda e: e.update(clauses=["9.9.9"]), key="code")
    return [("errors.yaml", "malformed_action", r"^names unknown clause '9\.9\.9'$")]


@mutation
def catalog_count_changed(root):
    edit_yaml(root, "catalog.yaml", lambda cat: entry(cat["species"], "hummingbird")["count"].update(value=4))
    return [("catalog.yaml", "total", r"^species counts sum to 65, the catalog states 66$")]


@mutation
def catalog_total_changed(root):
    edit_yaml(root, "catalog.yaml", lambda cat: cat["total"].update(value=67))
    return [("catalog.yaml", "total", r"^species counts sum to 66, the catalog states 67$")]


@mutation
def catalog_fact_unsourced(root):
    edit_yaml(root, "catalog.yaml", lambda cat: entry(cat["species"], "hummingbird")["value"].pop("provisional"))
    return [("catalog.yaml", "hummingbird.value", r"must cite `source` lines or a `provisional` ruling")]


@mutation
def catalog_names_unsourced(root):
    edit_yaml(root, "catalog.yaml", lambda cat: entry(cat["species"], "shoebill")["names"].pop("source"))
    return [("catalog.yaml", "shoebill.names", r"must cite `source` lines or a `provisional` ruling")]


@mutation
def params_fact_unsourced(root):
    edit_yaml(root, "params.yaml", lambda params: params["initial_peek"].pop("source"))
    return [("params.yaml", "initial_peek", r"must cite `source` lines or a `provisional` ruling")]


@mutation
def params_fact_without_value(root):
    edit_yaml(root, "params.yaml", lambda params: params["initial_peek"].pop("value"))
    return [("params.yaml", "initial_peek", r"needs `value`")]


@mutation
def params_provisional_unknown_ruling(root):
    edit_yaml(root, "params.yaml", lambda params: params["threshold"].update(provisional="R-99"))
    return [("params.yaml", "threshold", r"^cites unknown ruling 'R-99'$")]


@mutation
def catalog_provisional_unknown_ruling(root):
    edit_yaml(root, "catalog.yaml", lambda cat: entry(cat["species"], "eagle")["count"].update(provisional="R-99"))
    return [("catalog.yaml", "eagle.count", r"^cites unknown ruling 'R-99'$")]


@mutation
def missing_nl(root):
    before = edit_entry(root, "clauses/part7.yaml", "7.1.3", lambda c: c.pop("nl"))
    return [("clauses/part7.yaml", "7.1.3", r"^missing or empty: nl$"), *uncovered(before["lines"]["es"])]


@mutation
def ruling_bad_status(root):
    edit_entry(root, "rulings.yaml", "R-19", lambda r: r.update(status="pending"))
    return [("rulings.yaml", "R-19", r"^status 'pending' is not one of decided, provisional$")]


@mutation
def clause_lines_missing_nl(root):
    before = edit_entry(root, "clauses/part3.yaml", "3.1.1", lambda c: c.update(lines={"es": c["lines"]["es"]}))
    return [
        ("clauses/part3.yaml", "3.1.1", r"^`lines` must give the es and nl line numbers$"),
        *uncovered(before["lines"]["es"]),
    ]


@mutation
def clause_entry_not_a_mapping(root):
    edit_yaml(root, "clauses/summary.yaml", lambda clauses: clauses.append("oops"))
    return [("clauses/summary.yaml", "entry 7", r"^must be a mapping, not 'oops'$")]


@mutation
def unquoted_clause_id_in_ruling(root):
    edit_entry(root, "rulings.yaml", "R-02", lambda r: r.update(clauses=["5.3.2", 1.5]))
    return [("rulings.yaml", "R-02", r"^clause id 1\.5 must be a quoted string$")]


@mutation
def ruling_missing_reason(root):
    edit_entry(root, "rulings.yaml", "R-19", lambda r: r.update(reason=""))
    return [("rulings.yaml", "R-19", r"^missing or empty: reason$")]


@mutation
def duplicate_ruling_id(root):
    edit_entry(root, "rulings.yaml", "R-19", lambda r: r.update(id="R-18"))
    return [("rulings.yaml", "R-18", r"^duplicate ruling id$")]


@mutation
def duplicate_error_code(root):
    edit_yaml(root, "errors.yaml", lambda errors: errors.append(dict(entry(errors, "deck_empty", key="code"))))
    return [("errors.yaml", "deck_empty", r"^duplicate error code$")]


@mutation
def duplicate_species(root):
    edit_yaml(root, "catalog.yaml", lambda cat: cat["species"].append(copy.deepcopy(entry(cat["species"], "eagle"))))
    return [
        ("catalog.yaml", "eagle", r"^duplicate species id$"),
        ("catalog.yaml", "total", r"^species counts sum to 71, the catalog states 66$"),
    ]


@mutation
def species_missing_name(root):
    edit_yaml(root, "catalog.yaml", lambda cat: entry(cat["species"], "owl")["names"].pop("nl"))
    return [("catalog.yaml", "owl", r"^missing nl name$")]


@mutation
def undeclared_sourced_family(root):
    edit_yaml(root, "catalog.yaml", lambda cat: cat["families"].pop("shoebill"))
    return [("catalog.yaml", "shoebill", r"^sourced family 'shoebill' is not declared$")]


@mutation
def duplicate_section_id(root):
    edit_yaml(root, "outline.yaml", lambda outline: outline.append(dict(entry(outline, "2.1"))))
    return [("outline.yaml", "2.1", r"^duplicate section id$")]


@mutation
def clause_in_no_section(root):
    # part 1 ends at line 9 (clause 1.5); shrink it and line 9 belongs to no section.
    edit_yaml(root, "outline.yaml", lambda outline: entry(outline, "1").update(lines=[1, 7]))
    return [("clauses/part1.yaml", "1.5", r"^line 9 lies in no section of the outline$")]


@mutation
def decision_answered_by_unknown_action(root):
    edit_yaml(root, "vocabulary.yaml", lambda v: v["decisions"]["turn"].append("drow"))
    return [("vocabulary.yaml", "decisions.turn", r"^unknown action type 'drow'$")]


@mutation
def action_answering_nothing(root):
    edit_yaml(root, "vocabulary.yaml", lambda v: v["decisions"]["end_turn"].remove("call_bao"))
    return [("vocabulary.yaml", "actions.call_bao", r"^answers no decision$")]


@mutation
def check_form_without_example(root):
    edit_yaml(root, "vocabulary.yaml", lambda v: v["checks"]["slot"].update(slot_is="p1.2 is owl"))
    return [("vocabulary.yaml", "checks.slot", r"needs statement forms, each with an `expect \.\.\.` example")]


@mutation
def event_field_twice(root):
    edit_yaml(root, "vocabulary.yaml", lambda v: v["events"]["penalty"].append("player"))
    return [("vocabulary.yaml", "events.penalty", r"^names must be unique snake_case strings")]


@mutation
def part_missing_from_vocabulary(root):
    edit_yaml(root, "vocabulary.yaml", lambda v: v["parts"].remove("REM"))
    clauses = read_yaml(root, "clauses/reminders.yaml")
    return [("clauses/reminders.yaml", c["id"], r"^its part is not one of the vocabulary's parts$") for c in clauses]


def situation(data: dict, kind: str, sid: str) -> dict:
    return entry(data["events"][kind]["situations"], sid)


@mutation
def contract_situation_cites_unknown_clause(root):
    edit_yaml(root, "contract.yaml", lambda c: situation(c, "discarded", "direct").update(clause="2.7.99"))
    return [("contract.yaml", "events.discarded.direct", r"^cites unknown clause '2\.7\.99'$")]


@mutation
def contract_unknown_condition(root):
    edit_yaml(root, "contract.yaml", lambda c: situation(c, "pluck", "double").update(match={"doubled": True}))
    return [("contract.yaml", "events.pluck.double", r"^unknown condition 'doubled'")]


@mutation
def contract_event_kind_missing(root):
    edit_yaml(root, "contract.yaml", lambda c: c["events"].pop("bao_void"))
    return [("contract.yaml", "events", r"^must list the vocabulary's event kinds, in its order$")]


@mutation
def contract_event_field_not_the_vocabulary(root):
    edit_yaml(root, "contract.yaml", lambda c: c["events"]["gift"]["fields"].pop("from_slot"))
    return [("contract.yaml", "events.gift", r"^fields \['player', 'rival', 'slot'\] are not the vocabulary's")]


@mutation
def contract_refusal_unknown_code(root):
    edit_yaml(root, "contract.yaml", lambda c: entry(c["refusals"], "deck_empty").update(code="deck_gone"))
    return [("contract.yaml", "refusals.deck_empty", r"^needs a `code` of errors\.yaml")]


@mutation
def contract_refusal_not_first(root):
    edit_yaml(root, "contract.yaml", lambda c: c["refusals"].append(c["refusals"].pop(0)))
    return [("contract.yaml", "refusals", r"^the first row must be not_an_action")]


@mutation
def contract_shape_unknown_type(root):
    edit_yaml(root, "contract.yaml", lambda c: c["shapes"]["keep"].update(slot="slot number"))
    return [("contract.yaml", "shapes.keep.slot", r"^unknown type 'slot number'$")]


@mutation
def contract_stray_key_from_a_comma(root):
    """``{when: a, b}`` in a flow mapping makes a key ``b``: the loader names it."""
    edit_yaml(root, "contract.yaml", lambda c: situation(c, "bao", "called").update({"the turn": None}))
    return [("contract.yaml", "events.bao.called", r"^unknown key 'the turn'")]


@mutation
def contract_view_data_unknown_viewer(root):
    edit_yaml(root, "contract.yaml", lambda c: c["views"]["pending_data"]["shoebill"].update(cards="owner"))
    return [("contract.yaml", "views.pending_data.shoebill.cards", r"^is one of all, decider, none$")]


@mutation
def unreadable_yaml(root):
    (root / "errors.yaml").write_text("- code: [unclosed\n", encoding="utf-8")
    return [("errors.yaml", "-", r"^cannot be read: ")]


def match_problems(problems, expected: Expected) -> None:
    """Every expected (file, entry, message) is there, and nothing else."""
    left = list(problems)
    for file, where, pattern in expected:
        hits = [p for p in left if p.file == file and p.entry == where and re.search(pattern, p.message)]
        assert hits, f"no problem {file}: {where}: /{pattern}/ among:\n" + "\n".join(map(str, problems))
        left.remove(hits[0])
    assert not left, "unexpected problems:\n" + "\n".join(map(str, left))


def test_round_tripped_copy_loads_cleanly(spec_copy):
    """The harness itself: a copy with every YAML file rewritten by ``write_yaml`` is still consistent."""
    for rel in YAML_FILES:
        edit_yaml(spec_copy, rel, lambda data: None)
    loaded = load_spec(spec_copy)
    assert loaded.problems == ()
    assert summarize(loaded) == summarize(load_spec())


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_broken_copy_is_rejected(name, spec_copy):
    expected = MUTATIONS[name](spec_copy)
    with pytest.raises(SpecError) as caught:
        load_spec(spec_copy)
    match_problems(caught.value.problems, expected)
    for file, where, _ in expected:
        assert f"{file}: {where}: " in str(caught.value)
    # Non-strict loading reports the very same problems instead of raising.
    assert load_spec(spec_copy, strict=False).problems == tuple(caught.value.problems)


# --- the command line -------------------------------------------------------------------------------


def test_cli_spec_json(capsys, summary):
    assert main(["spec", "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    data = json.loads(out)  # exactly one JSON document on stdout
    assert isinstance(data, dict)
    assert SUMMARY_KEYS <= data.keys()
    assert data["faq"] == 21
    assert data["unresolved_refs"] == 0
    assert data["uncovered_lines"] == 0
    assert data["rulings"]["total"] >= 15
    assert data["cards"] == 66
    assert data["clauses"]["total"] == summary["clauses"]["total"]
    assert data["provisional"] == summary["provisional"]
    assert all(set(item) == {"fact", "ruling"} for item in data["provisional"])


def test_cli_spec_text(capsys):
    assert main(["spec"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    lines = out.splitlines()
    assert "FAQ entries: 21" in lines
    assert "card catalog: 15 species, 66 cards" in lines
    assert "unresolved cross-references: 0" in lines
    assert "uncovered lines: 0" in lines


def test_cli_spec_text_is_the_rendered_summary(capsys, summary):
    assert main(["spec"]) == 0
    out = capsys.readouterr().out.strip()  # the spec's summary, then the scenarios that say 'unreachable:'
    assert out.startswith(render(summary) + "\nscenarios with an unreachable setup: "), out


def test_cli_reports_problems_and_exits_1(monkeypatch, capsys, spec_copy):
    expected = ruling_bad_status(spec_copy)
    monkeypatch.setattr(cli, "load_spec", functools.partial(load_spec, spec_copy))
    assert main(["spec", "--json"]) == 1
    out, err = capsys.readouterr()
    assert json.loads(out)["rulings"]["by_status"]["pending"] == 1
    ((file, where, _),) = expected
    assert err.splitlines() == [f"problem: {file}: {where}: status 'pending' is not one of decided, provisional"]


def test_console_entry_point_json():
    done = subprocess.run(
        [sys.executable, "-m", "baobei_conform.cli.main", "spec", "--json"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert (data["faq"], data["unresolved_refs"], data["uncovered_lines"]) == (21, 0, 0)
