"""The HTML traceability report (``baobei_conform.report``): the reference alone (the suite run in process),
two engines side by side from results files, cited/exercised coverage on a tiny scenario folder, hostile engine
text never turned into markup, badges, and the ``report`` command line."""

from __future__ import annotations

import copy
import json
import re
import time
from html.parser import HTMLParser
from pathlib import Path

import pytest
from markupsafe import escape

from baobei_conform.cli.main import main as conform_main
from baobei_conform.report import build, build_report, collect, report_main
from baobei_conform.suite.identity import suite_identity, suite_tag
from baobei_conform.suite.scenario import scenario_files
from baobei_spec import default_spec, load_spec

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"
PAGES = ("index.html", "clauses.html", "faq.html", "rulings.html", "provisional.html")

HOSTILE_NAME = "<script>alert(1)</script><img src=x onerror=alert(2)>"
HOSTILE_STDERR = "Traceback...\n</pre><script>alert(3)</script>\n<!-- -->"
HOSTILE_BITS = ("<script>alert", "<img src=x", "</pre><script>", "<b>bold</b>", "<iframe", '"><svg', "<!-- -->")


class Rows(HTMLParser):
    """The attributes of every element carrying data-filter-row."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[dict] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "data-filter-row" in attrs:
            self.rows.append({"tag": tag, **attrs})


def filter_rows(html: str) -> list[dict]:
    parser = Rows()
    parser.feed(html)
    return parser.rows


def reference_results(path: Path, monkeypatch) -> dict:
    """``baobei-conform -q --json FILE`` on the reference, as a user would run it in a checkout (its report beside
    the results: the module's fixture runs before the autouse one that would move the default report)."""
    monkeypatch.chdir(ROOT)
    assert conform_main(["-q", "--json", str(path), "--report", str(path.parent / "report")]) == 0
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def ref_json(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("results") / "reference.json"
    with pytest.MonkeyPatch.context() as mp:
        reference_results(path, mp)
    return path


def as_other_engine(document: dict, name: str, fail: dict[str, dict]) -> dict:
    """A copy of a results document for another engine, some scenarios failed (a partial, edited run)."""
    doc = copy.deepcopy(document)
    doc["engine"]["name"] = name
    doc["engine"]["command"] = f"./{name}"
    for r in doc["results"]:
        if r["id"] in fail:
            r.update({"status": "fail", "line": 12, "expected": "top is swallow", "actual": "top is eagle",
                      "message": "expect top", **fail[r["id"]]})
    counts = {k: sum(r["status"] == s for r in doc["results"]) for s, k in
              (("pass", "passed"), ("fail", "failed"), ("error", "errors"))}
    doc["summary"].update(counts)
    return doc


def write_json(path: Path, document: dict) -> Path:
    path.write_text(json.dumps(document, indent=2, ensure_ascii=False), encoding="utf-8")
    return path


def test_times_read_in_milliseconds_below_a_second():
    from baobei_conform.report.build import duration

    assert (duration(0.00042), duration(0.25), duration(3.5)) == ("0.4 ms", "250.0 ms", "3.50 s")


def all_text_files(out: Path) -> dict[Path, str]:
    return {p: p.read_text(encoding="utf-8") for p in out.rglob("*") if p.is_file()}


# --- the reference alone ---------------------------------------------------------------------------------


def test_reference_report_runs_the_suite_in_process(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    start = time.perf_counter()
    index = build_report(tmp_path / "report", scenarios_dir=str(SCENARIOS))
    seconds = time.perf_counter() - start
    n = len(scenario_files([SCENARIOS]))
    print(f"\nreport for the full suite ({n} scenarios, reference in process): built in {seconds:.2f}s")

    out = tmp_path / "report"
    assert index == out / "index.html"
    for page in PAGES:
        assert (out / page).is_file(), page
    assert [p.file for p in build.PAGES] == list(PAGES)
    for page in [*PAGES, f"scenarios/{next((out / 'scenarios').glob('*.html')).name}"]:
        nav = (out / page).read_text(encoding="utf-8").split("<nav>", 1)[1].split("</nav>", 1)[0]
        root = "../" if page.startswith("scenarios/") else ""
        assert [line.split('"')[1] for line in nav.splitlines() if "href=" in line] == [root + p for p in PAGES]
        current = [line for line in nav.splitlines() if "aria-current" in line]
        assert current == ([] if root else [next(ln for ln in nav.splitlines() if f'href="{page}"' in ln)]), page
    assert len(list((out / "scenarios").glob("*.html"))) == n
    assert (out / "static" / "report.css").is_file() and (out / "static" / "report.js").is_file()

    html = index.read_text(encoding="utf-8")
    spec = load_spec()
    for cid in spec.clauses:  # acceptance: every clause id appears in index.html
        assert f'data-clause="{cid}"' in html, cid
        assert f">{cid}<" in html, cid
    # self-contained: no remote resource
    for text in all_text_files(out).values():
        assert not re.search(r"""(src|href)=["']?(https?:)?//""", text)

    badge = json.loads((out / "badges" / "baobei-ref.json").read_text(encoding="utf-8"))
    tag = suite_tag(suite_identity([SCENARIOS]))
    assert badge == {"schemaVersion": 1, "label": "baobei", "color": "brightgreen",  # and what was passed
                     "message": f"{n}/{n} passed, suite {tag}"}  # agreement on: not named
    shown = re.sub(r"\s+", " ", html)  # the engine's card names the suite it passed and whether agreement was on
    assert f"<dt>contract digest</dt><dd class=\"long\">{suite_identity([SCENARIOS])['contract']}</dd>" in shown
    assert "<dt>agreement</dt><dd>on</dd>" in shown

    # the overview flags agree with the clause rows
    report = collect(scenarios_dir=SCENARIOS)
    cov = report.coverage()
    rows = {r["data-clause"]: r for r in filter_rows(html) if "data-clause" in r}
    assert set(rows) == set(spec.clauses)
    for cid in cov["unexercised"]:
        assert "unexercised" in rows[cid]["data-flags"].split(), cid
    for cid in cov["uncovered"]:
        assert "uncovered" in rows[cid]["data-flags"].split(), cid
    assert cov["normative"] == sum(c.kind == "normative" for c in spec.clauses.values())
    assert cov["faq"] == 21 == len(list((out / "faq.html").read_text(encoding="utf-8").split('id="clause-FAQ-'))) - 1
    assert not cov["reference_errors"]
    assert "3.1.5" in {c for s in report.scenarios for c in s.exercise.clauses}  # pluck events cite 3.1.5
    assert f"{cov['normative_cited']}/{cov['normative']}" in html
    assert f"{cov['normative_exercised']}/{cov['normative']}" in html
    rulings = (out / "rulings.html").read_text(encoding="utf-8")
    for rid in spec.rulings:
        assert f'id="{rid}"' in rulings
    provisional = (out / "provisional.html").read_text(encoding="utf-8")
    for _, rid in spec.provisional_facts():
        assert f'id="prov-{rid}"' in provisional


# --- two engines side by side ----------------------------------------------------------------------------


def test_two_results_files_side_by_side(tmp_path, ref_json):
    reference = json.loads(ref_json.read_text(encoding="utf-8"))
    ids = [r["id"] for r in reference["results"]]
    failed = {ids[0]: {}, ids[5]: {"message": "expect pending"}, ids[-1]: {}}
    other = as_other_engine(reference, "other-engine", failed)
    dropped = other["results"].pop(10)  # not run by the other engine
    other["results"].append({**other["results"][1], "id": "only-in-other", "title": "A scenario of a newer suite",
                             "status": "pass"})
    other_json = write_json(tmp_path / "other.json", other)

    out = tmp_path / "report"
    index = build_report(out, [ref_json, other_json], scenarios_dir=SCENARIOS)
    html = index.read_text(encoding="utf-8")
    assert "other-engine" in html and "baobei-ref" in html

    badges = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in (out / "badges").glob("*.json")}
    n = len(ids)
    assert badges["baobei-ref"]["message"].startswith(f"{n}/{n} passed, ")
    assert badges["other-engine"] == {"schemaVersion": 1, "label": "baobei", "color": "green",
                                      "message": badges["baobei-ref"]["message"].replace(f"{n}/", f"{n - 3}/", 1)}

    rows = {r["data-scenario"]: r for r in filter_rows(html) if "data-scenario" in r}
    for sid in ids:
        tokens = set(rows[sid]["data-statuses"].split())
        assert "baobei-ref:pass" in tokens
        expected = "fail" if sid in failed else "notrun" if sid == dropped["id"] else "pass"
        assert f"other-engine:{expected}" in tokens, sid
    assert rows["only-in-other"]["data-statuses"] == "baobei-ref:notrun other-engine:pass"
    assert (out / "scenarios" / "only-in-other.html").is_file()

    # a clause cited by a failed scenario carries the failure in its row
    clause_rows = {r["data-clause"]: r for r in filter_rows(html) if "data-clause" in r}
    first = next(r for r in reference["results"] if r["id"] == ids[0])
    assert "other-engine:fail" in clause_rows[first["clauses"][0]]["data-statuses"].split()

    page = (out / "scenarios" / f"{ids[5]}.html").read_text(encoding="utf-8")
    assert "expect pending" in page and "top is swallow" in page and "top is eagle" in page
    assert "DSL source" in page and "Compiled steps" in page
    # per part pass rates of both engines on the overview
    part = first["part"]
    assert re.search(rf"<th>{re.escape(part)} · ", html)

    # the engines disagree on the failed scenarios (not on the one only the reference ran), and on their clauses
    assert {sid for sid, r in rows.items() if "disagree" in r["data-flags"].split()} == set(failed)
    assert "disagree" in clause_rows[first["clauses"][0]]["data-flags"].split()
    assert 'value="disagree"' in html and 'name="sort"' in html
    # the failure message is in the scenario list, under the scenario, and failures can sort first
    assert "other-engine: line 12: expect pending (expected top is swallow, actual top is eagle)" in html
    severity = {sid: int(r["data-severity"]) for sid, r in rows.items()}
    assert severity[ids[5]] < severity[ids[1]]
    # the scenario page has the text of its clauses in the three languages
    spec = default_spec()
    scenario = next(r for r in reference["results"] if r["id"] == ids[5])
    for cid in scenario["clauses"]:
        for text in (spec.clauses[cid].es, spec.clauses[cid].nl, spec.clauses[cid].en):
            assert str(escape(text)) in page, cid


# --- coverage flags on a tiny suite ----------------------------------------------------------------------

TABLE = """\
  setup
    zone p0: owl heron sparrow eagle _
    zone p1: sparrow swallow kingfisher hummingbird _
    deck: swallow
    discard: eagle
    active p0
  end
"""


def write_scenario(folder: Path, sid: str, clauses: list[str], script: str, faq=(), rulings=()) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{sid}.yaml").write_text(
        f"id: {sid}\ntitle: {sid}\nclauses: {json.dumps(clauses)}\nfaq: {json.dumps(list(faq))}\n"
        f"rulings: {json.dumps(list(rulings))}\ntags: [tiny]\nscript: |\n{script}", encoding="utf-8")


def test_cited_exercised_and_uncovered_flags(tmp_path):
    suite = tmp_path / "scenarios"
    # 2.7.1 (drawing) is cited and the reference's "drew" event cites it; 2.5.1 (fixed slots) is cited, but no
    # event ever cites it: a finding. 2.7.4 is exercised (the discard event) without being cited.
    write_scenario(suite / "2-turn", "tiny-draw", ["2.7.1", "2.5.1"],
                   TABLE + "  p0 draws\n  p0 discards\n  expect top is swallow\n", faq=["FAQ-01"], rulings=["R-15"])
    # fails on the reference after the draw: what ran before the failure still counts as exercised
    write_scenario(suite / "2-turn", "tiny-wrong", ["2.7.1"], TABLE + "  p0 draws\n  expect top is owl\n")

    report = collect(scenarios_dir=suite)
    c = report.clauses
    assert c["2.7.1"].cited and c["2.7.1"].exercised and not c["2.7.1"].unexercised
    assert c["2.7.1"].cited_by == ["tiny-draw", "tiny-wrong"]
    assert c["2.7.1"].exercised_by == ["tiny-draw", "tiny-wrong"]
    assert c["2.5.1"].cited and not c["2.5.1"].exercised and c["2.5.1"].unexercised
    assert c["2.7.4"].exercised and not c["2.7.4"].cited and not c["2.7.4"].unexercised
    assert c["3.5.5"].uncovered and not c["3.5.5"].cited and c["3.5.5"].clause.kind == "normative"
    assert not c["2.5.1"].uncovered
    assert c["FAQ-01"].cited and not c["FAQ-01"].uncovered and not c["FAQ-01"].unexercised
    assert c["FAQ-02"].uncovered
    informative = next(r for r in c.values() if r.clause.kind == "informative")
    assert not informative.uncovered  # only normative clauses (and FAQ entries) are "uncovered"
    # R-15 (the deal) is pinned by metadata but no event of these runs cites it; R-14 is cited by the discard
    assert report.rulings["R-15"].pinned_by == ["tiny-draw"] and not report.rulings["R-15"].exercised_by
    assert report.rulings["R-14"].exercised_by == ["tiny-draw"] and not report.rulings["R-14"].pinned_by

    cov = report.coverage()
    assert cov["unexercised"] == ["2.5.1"]
    # the draw event also cites 2.6.1 and 2.6.2; the direct discard 2.7.2, 2.7.5 and 3.2.3 (the window)
    assert cov["exercised_uncited"] == ["2.6.1", "2.6.2", "2.7.2", "2.7.4", "2.7.5", "3.2.3"]
    assert "3.5.5" in cov["uncovered"] and "2.7.1" not in cov["uncovered"]
    assert cov["normative_cited"] == 2 and cov["normative_exercised"] == 7
    assert [sid for sid, _ in cov["reference_errors"]] == ["tiny-wrong"]
    assert {s.id: s.statuses["baobei-ref"] for s in report.scenarios} == {"tiny-draw": "pass", "tiny-wrong": "fail"}

    index = build_report(tmp_path / "report", scenarios_dir=suite)
    html = index.read_text(encoding="utf-8")
    rows = {r["data-clause"]: r for r in filter_rows(html) if "data-clause" in r}
    assert rows["2.5.1"]["data-flags"].split() == ["unexercised", "cited"]
    assert "finding" in rows["2.5.1"]["class"]
    assert rows["2.7.1"]["data-flags"].split() == ["exercised", "cited"]
    assert rows["3.5.5"]["data-flags"].split() == ["uncovered"]
    assert rows["2.7.1"]["data-statuses"] == "baobei-ref:fail baobei-ref:pass"
    tree = (tmp_path / "report" / "clauses.html").read_text(encoding="utf-8")
    block = tree[tree.index('id="clause-2.5.1"'):]
    block = block[:block.index("</article>")]
    assert "cited, never exercised" in block
    page = (tmp_path / "report" / "scenarios" / "tiny-wrong.html").read_text(encoding="utf-8")
    assert "expected owl, actual eagle" in page


# --- hostile engine text ---------------------------------------------------------------------------------


def test_engine_text_never_injects_markup(tmp_path, ref_json):
    reference = json.loads(ref_json.read_text(encoding="utf-8"))
    ids = [r["id"] for r in reference["results"]]
    hostile = as_other_engine(reference, HOSTILE_NAME, {ids[2]: {
        "status": "error", "message": "<b>bold</b> crash", "stderr": HOSTILE_STDERR,
        "raw": '{"x": "<iframe src=javascript:alert(4)>"}', "expected": '"><svg onload=alert(5)>',
        "actual": "</textarea></code></pre></details><script>alert(6)</script>",
        "events": [{"kind": "</pre><script>alert(7)</script>"}]}})
    hostile["engine"]["version"] = "<script>alert(8)</script>"
    hostile["run"]["platform"] = '"><img src=x onerror=alert(9)>'
    hostile["results"].append({**hostile["results"][0], "id": '../../x"><script>alert(10)</script>',
                               "title": "<img src=x onerror=alert(11)>", "status": "fail",
                               "clauses": ["<script>alert(13)</script>"], "stderr": HOSTILE_STDERR})
    path = write_json(tmp_path / "hostile.json", hostile)
    out = tmp_path / "report"
    build_report(out, [path], scenarios_dir=SCENARIOS)

    files = all_text_files(out)
    for p, text in files.items():
        assert p.resolve().is_relative_to(out.resolve())
        assert re.fullmatch(r"[a-z0-9._-]+", p.name), p.name
        for bit in HOSTILE_BITS:
            assert bit not in text, (p, bit)
        if p.suffix == ".html":  # the one script tag of each page is ours
            root = "../" if p.parent.name == "scenarios" else ""
            assert re.findall(r"<script\b[^>]*>", text) == [f'<script src="{root}static/report.js">'], p
            assert "<img" not in text and "<svg" not in text and "<iframe" not in text
    index = files[out / "index.html"]
    assert "&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;" in index  # shown, as text
    badge_files = list((out / "badges").glob("*.json"))
    assert len(badge_files) == 1
    badge = json.loads(badge_files[0].read_text(encoding="utf-8"))
    assert badge["message"].startswith(f"{len(ids) - 1}/{len(ids) + 1} passed, ")  # an unknown status is refused
    error_page = files[out / "scenarios" / f"{ids[2]}.html"]
    assert "&lt;/pre&gt;&lt;script&gt;alert(3)&lt;/script&gt;" in error_page


# --- command line ----------------------------------------------------------------------------------------


def test_report_main(tmp_path, ref_json, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    out = tmp_path / "cli-report"
    assert report_main([str(ref_json), "--out", str(out)]) == 0
    assert str(out / "index.html") in capsys.readouterr().out
    assert (out / "badges" / "baobei-ref.json").is_file()

    assert report_main([str(tmp_path / "missing.json"), "--out", str(out)]) == 2
    assert "cannot read" in capsys.readouterr().err
    bad = write_json(tmp_path / "bad.json", {"schema": "something-else"})
    assert report_main([str(bad), "--out", str(out)]) == 2
    assert "not a baobei results document" in capsys.readouterr().err
    assert report_main(["--out", str(out), "--scenarios", str(tmp_path / "none")]) == 2
    assert "nothing to report" in capsys.readouterr().err


def test_default_out_dir(tmp_path, ref_json, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert report_main([str(ref_json), "--scenarios", str(SCENARIOS)]) == 0
    assert (tmp_path / "baobei-report" / "index.html").is_file()
    assert "baobei-report" in capsys.readouterr().out
