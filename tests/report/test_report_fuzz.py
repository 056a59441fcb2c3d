"""The report's fuzzing section (``baobei-conform report --fuzz FUZZ.json``): one section per engine with the checks
held or broken, the reproducer kept as a file of the report, what the search exercised against the suite, and
every text of a fuzz document shown as text."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

from test_report import HOSTILE_NAME as HOSTILE  # markup in every text, and the tiny suite of the report tests
from test_report import TABLE, write_scenario

from baobei_conform.cli.main import main
from baobei_conform.fuzz.checklist import checklist
from baobei_conform.fuzz.command import render
from baobei_conform.report import collect, report_main
from baobei_conform.report.fuzz import clause_coverage


def _suite(tmp_path: Path) -> Path:
    write_scenario(tmp_path / "scenarios" / "2-turn", "tiny", ["2.7.1"],
                   TABLE + "  p0 draws\n  p0 discards\n  expect top is swallow\n")
    return tmp_path / "scenarios"


def _fuzz(tmp_path: Path, suite: Path) -> dict:
    """A short derandomized run of the command on the reference, as a user would make one."""
    path = tmp_path / "fuzz.json"
    assert main(["fuzz", "--derandomize", "--max-examples", "1", "--no-database", "--players", "2",
                 "--scenarios", str(suite), "--json", str(path)]) == 0
    return json.loads(path.read_text(encoding="utf-8"))


def _broken(document: dict) -> dict:
    """The same run as if an engine named with markup had broken the events check (texts full of markup), and the
    run had been interrupted."""
    doc = copy.deepcopy(document)
    doc["engine"] = HOSTILE
    doc["interrupted"] = True  # by a signal, mid-shrink
    doc["checks"] = checklist("differential", ["events", "views"], {"events"})
    doc["notes"] = [f"note {HOSTILE}"]
    doc["problem"] = {"check": "events", "message": f"events differ {HOSTILE}", "clauses": ["2.7.3", "<b>x</b>"],
                      "reproducer": {"id": "fuzz-events-1234abcd", "actions": 2, "verified": True,
                                     "note": f"fail on the engine {HOSTILE}",
                                     "text": f"id: fuzz-events-1234abcd\ntitle: '{HOSTILE}'\nscript: |\n  p0 draws\n"}}
    doc["problems"] = [doc["problem"]]  # one object: a change to the problem is a change to the list's first
    return doc


def test_a_fuzz_section_per_engine_with_checks_reproducer_and_exercised_clauses(tmp_path, capsys):
    suite = _suite(tmp_path)
    held = _fuzz(tmp_path, suite)
    assert held["interrupted"] is False
    assert [c["status"] for c in held["checks"]] == ["held"] * len(held["checks"]) and len(held["checks"]) == 9
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(_broken(held)), encoding="utf-8")
    out = tmp_path / "report"
    assert report_main(["--out", str(out), "--scenarios", str(suite), "--fuzz", str(tmp_path / "fuzz.json"),
                        "--fuzz", str(broken)]) == 0
    html = (out / "index.html").read_text(encoding="utf-8")
    section = html[html.index('<section id="fuzz">'):html.index('<section id="explore">')]
    first, second = section.split('<article class="card fuzz"')[1:]

    assert "no problem found" in first and "broken" not in first and "interrupted</span>" not in first
    assert first.count('<span class="st st-pass">held</span>') == 9
    # the tiny suite exercises 7 normative clauses (the draw, the discard, its window); what the run did not reach
    # is listed, and the share is of those 7
    report = collect(scenarios_dir=suite)
    exercised = [c for c, row in report.clauses.items() if row.exercised and row.clause.kind == "normative"]
    assert len(exercised) == 7
    share, missing = clause_coverage(held["clauses_cited"], exercised)
    assert 0 < len(missing) < 7
    assert f'<span class="big">{share * 100:.1f}%</span> of the 7 normative clauses' in first
    unreached = first[first.index("not reached by the search"):first.index("</details>")]
    assert re.findall(r'class="cid"[^>]*>([^<]+)</a>', unreached) == missing

    assert "problem (events)" in second and '<span class="st st-skip">interrupted</span></h3>' in second
    assert second.count('<span class="st st-fail">broken</span>') == 1
    row = second[second.index("<code>events</code>"):]
    assert row[:row.index("</tr>")].count("broken") == 1
    assert "the engine does not offer the capability &#39;legal_actions&#39;" in second  # skipped, with the reason
    link = re.search(r'<a href="(fuzz/[^"]+\.yaml)"><code>fuzz-events-1234abcd</code></a>', second)
    assert link, second
    kept = (out / link.group(1)).read_text(encoding="utf-8")
    assert kept == _broken(held)["problem"]["reproducer"]["text"]  # the scenario, as the run wrote it
    assert "2 actions after its setup" in second and ">verified</span>" in second

    for path in out.rglob("*.html"):
        text = path.read_text(encoding="utf-8")
        assert "<script>alert" not in text and "<img" not in text and "<b>x" not in text, path
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in second  # shown, as text


def test_the_fuzz_section_shows_what_was_tried_at_each_decision_and_each_refusal_code(tmp_path):
    """What the probes reached: each decision x action type tried, and every apply code (errors.yaml) with how often
    it refused a probe, a code never tried marked as such; values from the file are escaped like the rest."""
    suite = _suite(tmp_path)
    held = _fuzz(tmp_path, suite)
    assert held["tried"]["turn"]["draw"] >= 1
    held["tried"]["window"] = {"call_bao": 3, "close_window": 2}
    held["refusals"] = {"bao_not_allowed": 3, "wrong_decision": 7, HOSTILE: 1}
    path = tmp_path / "tried.json"
    path.write_text(json.dumps(held), encoding="utf-8")
    out = tmp_path / "report"
    assert report_main(["--out", str(out), "--scenarios", str(suite), "--fuzz", str(path)]) == 0
    html = (out / "index.html").read_text(encoding="utf-8")
    section = html[html.index('<section id="fuzz">'):html.index('<section id="explore">')]
    tried = section[section.index('class="rows fuzz-tried"'):]
    assert "<tr><td><code>window</code></td><td><code>call_bao</code> 3, <code>close_window</code> 2</td></tr>" in tried
    codes = section[section.index('class="rows fuzz-refusals"'):]
    codes = codes[:codes.index("</table>")]
    rows = dict(re.findall(r"<tr><td><code>([^<]+)</code></td><td>(.*?)</td></tr>", codes))
    assert rows["bao_not_allowed"] == "3" and rows["wrong_decision"] == "7"
    assert rows["no_cards"] == '<span class="st st-skip">never</span>' and "malformed_state" not in rows
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in codes and "<script>alert" not in codes


def test_a_document_that_is_not_a_fuzz_run_is_refused_naming_the_file(tmp_path, capsys):
    bad = tmp_path / "results.json"
    bad.write_text(json.dumps({"schema": "baobei-results/1"}), encoding="utf-8")
    assert report_main(["--out", str(tmp_path / "r"), "--scenarios", str(_suite(tmp_path)), "--fuzz", str(bad)]) == 2
    err = capsys.readouterr().err
    assert str(bad) in err and "not a `baobei-conform fuzz --json` document" in err
    assert not (tmp_path / "r" / "index.html").exists()


def test_checks_are_skipped_for_missing_capabilities_and_broken_where_the_problem_is():
    rows = {c["check"]: c["status"] for c in checklist("differential", ["events", "views"], {"view"})}
    assert rows == {"state": "held", "events": "held", "view": "broken", "legal_actions": "skipped",
                    "refused": "held", "probe": "held", "setup": "held", "determinism": "held", "error": "held"}
    alone = checklist("invariants", ["legal_actions"], {"cards"})
    assert [(c["check"], c["status"]) for c in alone] == [
        ("events", "skipped"), ("view", "skipped"), ("cards", "broken"), ("legal_actions", "held"), ("probe", "held"),
        ("setup", "held"), ("determinism", "held"), ("error", "held")]
    assert "of the protocol" in alone[0]["what"] and "has seen" in alone[1]["what"]  # no reference: shape, secrecy


def test_clause_coverage_is_the_share_of_the_suite_s_clauses_the_search_reached():
    assert clause_coverage(["2.7.1", "9.9"], ["2.7.1", "3.10.1", "3.2.1"]) == (0.3333, ["3.2.1", "3.10.1"])
    assert clause_coverage([], []) == (1.0, [])


def test_an_invariants_run_says_its_clause_coverage_is_not_measured(tmp_path):
    """No reference runs in invariants mode: the report must not show a 0 % coverage as if the search had missed
    everything, nor the console say the reference cited nothing."""
    suite = _suite(tmp_path)
    path = tmp_path / "alone.json"
    assert main(["fuzz", "--invariants-only", "--derandomize", "--max-examples", "1", "--no-database", "--players",
                 "2", "--scenarios", str(suite), "--json", str(path)]) == 0
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["mode"] == "invariants" and document["normative_cited"] == 0
    assert "no reference ran, so no clauses were cited" in render(document)
    assert "the reference cited" in render({**document, "mode": "differential"})
    out = tmp_path / "report"
    assert report_main(["--out", str(out), "--scenarios", str(suite), "--fuzz", str(path)]) == 0
    html = (out / "index.html").read_text(encoding="utf-8")
    card = html[html.index('<article class="card fuzz"'):html.index('<section id="explore">')]
    assert "Not measured: in invariants mode no reference runs" in card
    assert "normative clauses the scenario" not in card and "not reached by the search" not in card


def test_a_reproducer_is_drawn_step_by_step_on_a_page_of_its_own(tmp_path):
    """The reproducer's tables, as a scenario page draws them, on a page linked from the fuzzing card (not on the
    overview); a reproducer that is no scenario says why it cannot be drawn."""
    from tables import COMBINED, figures

    suite = _suite(tmp_path)
    held = _fuzz(tmp_path, suite)
    good = copy.deepcopy(_broken(held))
    good["engine"] = "engine-two"
    good["problem"]["reproducer"] = {**good["problem"]["reproducer"], "id": "fuzz-state-0000abcd",
                                     "text": COMBINED.replace("tables-power-pluck-gift-bao", "fuzz-state-0000abcd")}
    paths = []
    for name, doc in (("broken.json", _broken(held)), ("good.json", good)):
        paths += ["--fuzz", str(tmp_path / name)]
        (tmp_path / name).write_text(json.dumps(doc), encoding="utf-8")
    out = tmp_path / "report"
    assert report_main(["--out", str(out), "--scenarios", str(suite), *paths]) == 0
    index = (out / "index.html").read_text(encoding="utf-8")
    links = re.findall(r'<a href="(fuzz/[^"]+\.html)">Its table, step by step</a>', index)
    assert len(links) == 2 and 'class="tb' not in index
    broken, drawn = ((out / link).read_text(encoding="utf-8") for link in links)
    assert "It cannot be drawn: " in broken and 'class="tb' not in broken  # no clauses, no setup: not a scenario
    assert "&lt;script&gt;" in broken and "<script>alert" not in broken
    pictures = figures(drawn)
    assert len(pictures) == 6 and all(sorted(f["rows"]) == [0, 1, 2] for f in pictures)
    assert 'id="L18"' in drawn and 'href="#L18"' in drawn  # each step links to its line of the scenario shown below
    assert '<a href="fuzz-state-0000abcd.yaml">' in drawn and (out / links[1]).with_suffix(".yaml").is_file()


def test_every_problem_of_a_run_is_shown_with_its_reproducer_most_frequent_first(tmp_path):
    suite = _suite(tmp_path)
    doc = _broken(_fuzz(tmp_path, suite))
    second = copy.deepcopy(doc["problem"])
    second.update(check="state", group="state pending.kind", games=1, shrunk=False, message="pending differs")
    second["reproducer"] = {**second["reproducer"], "id": "fuzz-state-5678abcd"}
    doc["problems"] = [{**doc["problem"], "group": "events power", "games": 7, "shrunk": True}, second]
    (tmp_path / "two.json").write_text(json.dumps(doc), encoding="utf-8")
    out = tmp_path / "report"
    assert report_main(["--out", str(out), "--scenarios", str(suite), "--fuzz", str(tmp_path / "two.json")]) == 0
    html = (out / "index.html").read_text(encoding="utf-8")
    assert "2 problems (events, state)" in html
    first, other = html.index("<code>events power</code> <span class=\"muted\">(7 games)"), html.index(
        "<code>state pending.kind</code> <span class=\"muted\">(1 game, not shrunk)")
    assert first < other and html.index("fuzz-events-1234abcd") < html.index("fuzz-state-5678abcd")
    assert len(list((out / "fuzz").rglob("*.yaml"))) == 2
