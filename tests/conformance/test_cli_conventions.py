"""The command line's conventions: exit codes 0/1/2/130, outputs checked before the run, expectations files
validated at their line, out-of-range options refused, an interrupted run marked incomplete everywhere, and
failures that say what to fix (the pending decision, how the state differs, the reference's events)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from test_harness import ENGINES, SCENARIOS, TABLE, conform, write_scenarios

import baobei_conform
import baobei_conform.cli.main as cli
import baobei_conform.harness.run
import baobei_conform.results.conform
from baobei_conform.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
WRONG = [sys.executable, str(ROOT / "examples" / "wrong_engine" / "engine.py")]


@pytest.fixture
def passing(tmp_path) -> Path:
    return write_scenarios(tmp_path / "passing", ["basic-draw-discard"])


@pytest.fixture
def never_runs(monkeypatch):
    """Fails the test if the suite starts: the problem had to be found before."""
    def refuse(*args, **kwargs):
        raise AssertionError("the suite ran")
    monkeypatch.setattr(baobei_conform.results.conform, "run_conformance", refuse)  # cli imports it as a run starts


# --- exit codes ---

def test_exit_0_when_everything_is_as_expected(tmp_path, passing):
    assert conform(tmp_path, passing)[0] == 0


def test_exit_1_on_an_unexpected_result(tmp_path):
    assert conform(tmp_path, write_scenarios(tmp_path / "s", ["broken-top"]))[0] == 1


def test_exit_1_on_a_broken_scenario_file_listed_in_json_and_junit(tmp_path, passing):
    (passing / "bad.yaml").write_text("id: bad\ntitle: [unclosed\n", encoding="utf-8")
    junit = tmp_path / "r.xml"
    code, doc = conform(tmp_path, passing, "--junit", str(junit))
    assert code == 1
    [broken] = doc["broken"]
    assert broken["file"].endswith("bad.yaml") and "not valid YAML" in broken["message"]
    [case] = [c for c in ET.parse(junit).getroot().iter("testcase") if c.get("classname") == "broken-scenario-file"]
    assert case.get("name").endswith("bad.yaml") and "not valid YAML" in case.find("error").get("message")


@pytest.mark.parametrize("options", [["-j", "0"], ["--jobs", "-1"], ["--timeout", "0"], ["--max-fail", "0"],
                                     ["-j", "two"], ["--shard", "3/2"], ["--lang", "fr"]])
def test_exit_2_on_out_of_range_options(tmp_path, passing, never_runs, capsys, options):
    with pytest.raises(SystemExit) as exit_:
        main(["--scenarios", str(passing), *options])
    assert exit_.value.code == 2
    assert options[0] in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["fuzz", "--budget", "0"], ["fuzz", "--max-examples", "0"],
                                  ["fuzz", "--players", "7"], ["smoke", "--timeout", "0"],
                                  ["explain", "x.yaml", "--timeout", "-1"]])
def test_subcommands_refuse_out_of_range_options(capsys, argv):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2 and "out of range" in capsys.readouterr().err


def test_exit_2_when_nothing_is_selected_saying_what_was_looked_for(tmp_path, passing, capsys):
    empty = tmp_path / "empty_dir"
    empty.mkdir()
    assert main(["--no-report", "--scenarios", str(empty)]) == 2
    assert f"no scenario selected (0 scenario files under {empty})" in capsys.readouterr().err
    assert main(["--no-report", "--scenarios", str(passing), "-k", "nothing-*"]) == 2
    err = capsys.readouterr().err
    assert "1 scenario files under" in err and "-k nothing-*" in err


def test_the_default_suite_is_the_installed_one(monkeypatch, tmp_path):
    from baobei_scenarios import SUITE_ROOT

    monkeypatch.chdir(tmp_path)
    assert cli.default_suite() == [str(SUITE_ROOT)]
    monkeypatch.chdir(SUITE_ROOT.parent)
    assert cli.default_suite() == ["scenarios"]  # shown relative in a checkout


def test_version(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.strip() == f"baobei-conform {baobei_conform.__version__}"
    proc = subprocess.run([sys.executable, "-m", "baobei_conform", "--version"], capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stdout.strip() == f"baobei-conform {baobei_conform.__version__}"


# --- outputs are checked before the run ---

@pytest.mark.parametrize("option", ["--json", "--junit"])
def test_unwritable_output_file_is_refused_before_the_run(tmp_path, passing, never_runs, capsys, option):
    blocker = tmp_path / "blocker"
    blocker.write_text("a file", encoding="utf-8")
    target = blocker / "folder" / "out"
    assert main(["--scenarios", str(passing), option, str(target)]) == 2
    assert f"{option} {target}: {blocker} is a file, not a folder" in capsys.readouterr().err
    assert main(["--scenarios", str(passing), option, str(tmp_path)]) == 2
    assert f"{option} {tmp_path}: is a folder, not a file" in capsys.readouterr().err


def test_report_folder_that_is_a_file_is_refused_before_the_run(tmp_path, passing, never_runs, capsys):
    blocker = tmp_path / "report"
    blocker.write_text("a file", encoding="utf-8")
    assert main(["--scenarios", str(passing), "--report", str(blocker)]) == 2
    assert f"--report {blocker}: is a file, not a folder" in capsys.readouterr().err


def test_report_and_merge_outputs_are_checked_too(tmp_path, capsys):
    blocker = tmp_path / "blocker"
    blocker.write_text("a file", encoding="utf-8")
    assert main(["report", "--out", str(blocker)]) == 2
    assert main(["merge", str(tmp_path / "any.json"), "--json", str(blocker / "r.json")]) == 2
    err = capsys.readouterr().err
    assert f"report: --out {blocker}: is a file" in err and f"merge: --json {blocker / 'r.json'}: {blocker} is a file" \
        in err.split("\n")[1] and "Traceback" not in err


def test_checking_a_new_output_file_leaves_nothing_behind(tmp_path, passing, monkeypatch):
    """The writability check itself leaves no file: interrupted right after it, before any result exists."""
    out = tmp_path / "r.json"
    monkeypatch.setattr(baobei_conform.harness.run, "load_suite",
                        lambda *a, **k: (_ for _ in ()).throw(KeyboardInterrupt))
    assert main(["--scenarios", str(passing), "--json", str(out), "--no-report"]) == 130
    assert not out.exists()


# --- expectations files ---

@pytest.mark.parametrize(("text", "where", "complaint"), [
    ("basic-draw-discard: {status: fail\n", ":2:1:", "not valid YAML"),
    ("- basic-draw-discard\n- broken-top\n", ":1:1:", "expected a mapping of scenario id"),
    ("basic-draw-discard:\n  status: fail\n  reson: typo\n", ":3:3:", "unknown field 'reson'"),
    ("a: {status: fail}\nbasic-draw-discard: {status: maybe}\n", ":2:21:", "status must be fail, error or skip"),
    ("expected: [1, 2]\n", ":1:11:", "'expected' must map scenario ids"),
    ("basic-draw-discard: fail\n", ":1:21:", "expected {status"),
    ("a: {status: fail}\na: {status: skip}\n", ":2:1:", "listed twice"),
])
def test_bad_expectations_file_names_file_and_line(tmp_path, passing, never_runs, capsys, text, where, complaint):
    known = tmp_path / "known.yaml"
    known.write_text(text, encoding="utf-8")
    assert main(["--scenarios", str(passing), "--expectations", str(known)]) == 2
    err = capsys.readouterr().err
    assert f"{known}{where}" in err and complaint in err and "Traceback" not in err


def test_unreadable_expectations_file_is_an_input_error(tmp_path, passing, never_runs, capsys):
    assert main(["--scenarios", str(passing), "--expectations", str(tmp_path / "missing.yaml")]) == 2
    assert "missing.yaml: cannot read" in capsys.readouterr().err


def test_unknown_ids_in_expectations_are_warned_about_and_the_run_goes_on(tmp_path, passing, capsys):
    known = tmp_path / "known.yaml"
    known.write_text("expected:\n  basic-draw-discard: {status: skip}\n  no-such-scenario: {status: fail}\n")
    code, _ = conform(tmp_path, passing, "--expectations", str(known))
    assert code == 1  # basic-draw-discard passed although known as skip: xpass
    err = capsys.readouterr().err
    assert f"{known}:3: warning: 'no-such-scenario' is not a scenario of this suite" in err
    assert "basic-draw-discard" not in err


# --- an interrupted run ---

def test_sigint_writes_incomplete_json_junit_and_html_and_exits_130(tmp_path):
    scenarios = write_scenarios(tmp_path / "s", SCENARIOS)  # 4: two run, the third hangs
    mark, out, junit, report = tmp_path / "hung", tmp_path / "r.json", tmp_path / "r.xml", tmp_path / "report"
    env = {**os.environ, "PYTHONPATH": str(ENGINES), "BAOBEI_HANG_MARK": str(mark)}
    proc = subprocess.Popen([sys.executable, "-m", "baobei_conform", "python:hang_after:engine", "--scenarios",
                             str(scenarios), "--json", str(out), "--junit", str(junit), "--report", str(report)],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not mark.exists() and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        assert mark.exists(), proc.communicate(timeout=5)
        proc.send_signal(signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130, stdout + stderr
    assert "INCOMPLETE: interrupted; 2 of 4 scenarios ran" in stdout and "Traceback" not in stderr

    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["run"]["complete"] is False and doc["run"]["interrupted"] is True
    assert (doc["run"]["ran"], doc["run"]["selected"]) == (2, 4)
    assert {r["id"]: r["status"] for r in doc["results"]} == {"basic-draw-discard": "pass", "broken-top": "fail"}

    root = ET.parse(junit).getroot()
    properties = {p.get("name"): p.get("value") for p in root.iter("property")}
    suite = {name.removeprefix("suite_"): properties.pop(name) for name in list(properties)
             if name.startswith("suite_")}
    assert properties == {"complete": "false", "interrupted": "true", "selected": "4", "ran": "2",
                          "agreement": "on"}  # the run's default, recorded as run.agreement
    assert suite == doc["suite"]  # which suite judged it, as in the JSON
    [incomplete] = [c for c in root.iter("testcase") if c.get("name") == "run-incomplete"]
    assert "interrupted: 2 of 4 scenarios ran" in incomplete.find("error").get("message")
    assert {c.get("name") for c in root.iter("testcase")} == {"basic-draw-discard", "broken-top", "run-incomplete"}

    index = (report / "index.html").read_text(encoding="utf-8")
    assert "Incomplete run" in index and "interrupted: 2 of 4 scenarios ran" in index
    [badge] = [json.loads(p.read_text()) for p in (report / "badges").glob("*.json")]
    assert badge["color"] != "brightgreen" and "incomplete" in badge["message"]


# --- failures that say what to fix ---

WINDOW = ("A discard opens a window for the other players only", ["3.2.3"], [], ["window"],
          TABLE.format(p0="owl heron sparrow eagle", deck="swallow") + """\
  p0 draws
  p0 discards
  expect pending window p1
""")


def test_failure_shows_pending_decision_state_diff_and_reference_events(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(SCENARIOS, "own-window", WINDOW)
    scenarios = write_scenarios(tmp_path / "s", ["own-window"])
    code, doc = conform(tmp_path, scenarios, "--lang", "es", engine=[*WRONG, "--bug", "active_plucks_own_discard"])
    assert code == 1
    out = capsys.readouterr().out
    assert "expected: window p1\n  actual:   window p0 p1" in out
    assert "pending:  window p1 (the decision due before this step, per the reference)" in out
    assert "state differs from the reference's here:\n    pending.players: engine [0, 1], reference [1]" in out
    assert "reference events (same step):\n    discarded [2.7.4] player=0, card=swallow" in out
    assert "engine events (last action):\n    discarded [2.7.4] player=0, card=swallow" in out
    assert "3.2.3: " + cli.default_spec().clauses["3.2.3"].es in out  # the clause in Spanish (--lang es)
    [result] = doc["results"]  # the same facts in the JSON and on the report's scenario page
    assert result["due"] == "window p1" and result["differs"] == ["pending.players: engine [0, 1], reference [1]"]
    assert [e["kind"] for e in result["reference_events"]] == ["discarded"]
    page = (tmp_path / "baobei-report" / "scenarios" / "own-window.html").read_text(encoding="utf-8")
    assert "<b>window p1</b>" in page and "pending.players: engine [0, 1], reference [1]" in page
    assert "reference events (same step)" in page


def test_one_line_per_failure(tmp_path, capsys):
    scenarios = write_scenarios(tmp_path / "s", ["broken-top", "basic-draw-discard"])
    code, _ = conform(tmp_path, scenarios, "--line")
    assert code == 1
    lines = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("FAIL")]
    assert lines == [f"FAIL {scenarios / 'broken-top.yaml'}:16 broken-top: expect top (expected owl, actual swallow)"
                     " [due: window p1]"]


def test_engine_message_of_a_wrong_refusal_is_shown(tmp_path, capsys):
    """An engine refusing what the rulebook allows: its own message is part of the failure."""
    scenarios = write_scenarios(tmp_path / "s", ["basic-draw-discard"])
    refusing = [sys.executable, str(ENGINES / "refuse_discard.py")]
    code, doc = conform(tmp_path, scenarios, engine=refusing)
    assert code == 1
    [result] = doc["results"]
    assert result["message"] == "the action was refused with 'illegal_action' (the engine said: no discards today)"
    assert "engine stderr (tail):\n    refusing a discard" in capsys.readouterr().out


def test_per_scenario_times_are_real_for_a_slow_engine(tmp_path):
    """Pipelined scenarios are judged after their answers arrived: their time still includes the wait."""
    scenarios = write_scenarios(tmp_path / "s", ["basic-draw-discard", "broken-top", "event-power"])
    code, doc = conform(tmp_path, scenarios, engine=[sys.executable, str(ENGINES / "slow_replies.py")])
    assert code == 1
    for r in doc["results"]:  # setup, 2 actions and a state: 4 replies of at least 50 ms each
        assert r["seconds"] >= 0.15, r


KEEP = ("Keeping opens a window for the other players", ["2.7.3"], [], ["window"],
        TABLE.format(p0="owl heron sparrow eagle", deck="swallow") + """\
  p0 draws
  p0 keeps into 2
  nobody plucks
  expect pending turn p1
""")


def test_a_wrong_refusal_says_which_decision_was_due_before_the_step(tmp_path, capsys, monkeypatch):
    """The engine skipped the window after a keep, so it refuses 'nobody plucks': the window was due (read
    before the step, not at the end of the steps sent together)."""
    monkeypatch.setitem(SCENARIOS, "keep-window", KEEP)
    scenarios = write_scenarios(tmp_path / "s", ["keep-window"])
    code, _ = conform(tmp_path, scenarios, "--line", engine=[*WRONG, "--bug", "own_discard_window_skipped"])
    assert code == 1
    [line] = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("FAIL")]
    assert line.endswith("keep-window: the action was refused with 'wrong_decision' (expected accepted, "
                         "actual refused: wrong_decision) [due: window p1]"), line


def test_skips_keep_the_engines_unsupported_message_grouped(tmp_path, capsys):
    scenarios = write_scenarios(tmp_path / "s", ["view-peek", "basic-draw-discard"])
    code, doc = conform(tmp_path, scenarios, engine=[sys.executable, str(ENGINES / "unsupported_view.py")])
    assert code == 0
    assert "skipped 1: the engine does not support 'view': views come in version 2 (view-peek)" in \
        capsys.readouterr().out
