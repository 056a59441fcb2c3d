"""The smaller commands: ``merge`` (shards of a CI matrix into one result and one report), ``smoke`` (is the
engine wired up) and ``explain SCENARIO ENGINE`` (the engine and the reference side by side)."""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from test_cli_conventions import WINDOW, WRONG
from test_harness import ENGINES, SCENARIOS, conform, write_scenarios

from baobei_conform.cli.main import main


@pytest.fixture
def shards(tmp_path) -> tuple[Path, list[Path]]:
    """The four test scenarios run as two shards; the files of both."""
    suite = write_scenarios(tmp_path / "s", SCENARIOS)
    files = []
    for k in (1, 2):
        out = tmp_path / f"shard-{k}.json"
        main(["-q", "--no-report", "--scenarios", str(suite), "--shard", f"{k}/2", "--json", str(out)])
        files.append(out)
    return suite, files


def test_merged_shards_are_one_result_one_junit_one_report(tmp_path, shards):
    suite, files = shards
    out, junit, report = tmp_path / "all.json", tmp_path / "all.xml", tmp_path / "report"
    code = main(["merge", *map(str, files), "--json", str(out), "--junit", str(junit), "--report", str(report),
                 "--scenarios", str(suite)])
    assert code == 1  # broken-top fails in one of the shards
    doc = json.loads(out.read_text(encoding="utf-8"))
    _, whole = conform(tmp_path, suite)
    assert doc["summary"] == whole["summary"] and doc["by_part"] == whole["by_part"]
    assert [(r["id"], r["status"]) for r in doc["results"]] == [(r["id"], r["status"]) for r in whole["results"]]
    assert doc["run"]["complete"] is True and doc["run"]["missing_shards"] == []
    assert len(ET.parse(junit).getroot().findall("testcase")) == 4
    html = (report / "index.html").read_text(encoding="utf-8")
    assert html.count('class="card engine"') == 1 and "Incomplete run" not in html


def test_the_report_merges_shards_of_one_engine_into_one_column(tmp_path, shards):
    suite, files = shards
    assert main(["report", *map(str, files), "--out", str(tmp_path / "r"), "--scenarios", str(suite)]) == 0
    html = (tmp_path / "r" / "index.html").read_text(encoding="utf-8")
    assert html.count('class="card engine"') == 1 and "3/4 passed" in html


def test_a_missing_shard_makes_the_merge_incomplete(tmp_path, shards, capsys):
    out = tmp_path / "all.json"
    assert main(["merge", str(shards[1][0]), "--json", str(out)]) == 1
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["run"]["complete"] is False and doc["run"]["missing_shards"] == [2]
    assert "INCOMPLETE: shards 2/2 missing; 2 scenarios ran" in capsys.readouterr().out


@pytest.mark.parametrize("edit", ["same shard", "other engine", "same scenario"])
def test_documents_that_are_not_shards_of_one_run_are_refused(tmp_path, shards, capsys, edit):
    first = json.loads(shards[1][0].read_text(encoding="utf-8"))
    second = json.loads(shards[1][1].read_text(encoding="utf-8"))
    if edit == "same shard":
        second["run"]["shard"] = first["run"]["shard"]
    elif edit == "other engine":
        second["engine"]["name"] = "another"
    else:
        second["results"].append(first["results"][0])
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(second), encoding="utf-8")
    assert main(["merge", str(shards[1][0]), str(bad)]) == 2
    assert {"same shard": "is also", "other engine": "is not the engine of",
            "same scenario": "is also in"}[edit] in capsys.readouterr().err


def test_smoke_passes_the_reference_and_fails_a_crashing_engine(capsys):
    assert main(["smoke"]) == 0
    out = capsys.readouterr().out
    assert [line.split(" (")[0] for line in out.splitlines()[1:]] == [
        "ok   handshake", "ok   setup/state round trip", "ok   a legal action", "ok   an illegal action refused"]
    assert main(["smoke", "--", sys.executable, str(ENGINES / "refuse_discard.py")]) == 0  # it draws fine
    assert main(["smoke", "--", sys.executable, str(ENGINES / "crash.py")]) == 1
    assert "FAIL setup/state round trip" in capsys.readouterr().out


def test_smoke_of_an_engine_that_does_not_start_exits_2(capsys):
    assert main(["smoke", "--", sys.executable, "-c", "pass"]) == 2
    assert "FAIL handshake" in capsys.readouterr().out


def test_explain_puts_engine_and_reference_side_by_side(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(SCENARIOS, "own-window", WINDOW)
    suite = write_scenarios(tmp_path / "s", ["own-window"])
    code = main(["explain", str(suite / "own-window.yaml"), "--", *WRONG, "--bug", "active_plucks_own_discard"])
    assert code == 1
    out = capsys.readouterr().out
    assert "p0 discards\n  reference: discarded [2.7.4] player=0, card=swallow-2\n" \
           "  engine:    discarded [2.7.4] player=0, card=swallow-2\n" in out
    assert "engine STOPPED here: expect pending (expected window p1, actual window p0 p1)" in out


def test_explain_marks_where_the_events_part(capsys):
    code = main(["explain", "turn-keep-activates-no-power", "--", *WRONG, "--bug", "power_on_replaced_card"])
    assert code == 1
    out = capsys.readouterr().out
    lines = out.splitlines()
    [marked] = [i for i, line in enumerate(lines) if line.startswith("  <- DIFFERS: ")]  # where a compared field does
    assert lines[marked - 1].startswith("  engine:    kept [2.7.3]") and "power" in lines[marked - 1]
    power = '{"card": "macaw-1", "clause": "2.7.3", "kind": "power", "player": 0, "power": "peek_two_swap"}'
    assert lines[marked + 1] == f"     events[2]: (missing) -> {power}"
    assert out.count("    2.7.3: ") == 1  # each clause once
