"""The conformance harness end to end: ``baobei-conform`` on the reference (in process and served), on
misbehaving engines (hang, crash, protocol lies, schema breaks, missing capabilities), selection and
sharding, known failures, early stops and interruption, the JSON and JUnit reports.

Each test runs its own few scenario files written into tmp_path (never the growing scenarios/ tree);
the engine test doubles are small scripts in tests/conformance/engines/.
"""

from __future__ import annotations

import _thread
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest

import baobei_conform.results.conform as run_module
from baobei_conform.cli.main import main
from baobei_conform.engines.reference import ReferenceEngine
from baobei_conform.harness.run import Selection, load_suite, run_suite
from baobei_spec import SPEC_ROOT

ENGINES = Path(__file__).parent / "engines"
SERVE = [sys.executable, "-m", "baobei_conform.protocol.server", "serve"]
SUMMARY_KEYS = {"total", "passed", "failed", "errors", "skipped", "xfailed", "xpassed"}

TABLE = """\
  setup
    zone p0: {p0} _
    zone p1: sparrow swallow kingfisher hummingbird _
    deck: {deck}
    discard: eagle
    active p0
  end
"""

SCENARIOS = {
    # passes on the reference; no optional capability needed
    "basic-draw-discard": ("A drawn card that is discarded lands on top of the pile", ["3.1.7"], [], ["basic"],
                           TABLE.format(p0="owl heron sparrow eagle", deck="swallow") + """\
  p0 draws
  p0 discards
  expect top is swallow
"""),
    # needs the 'views' capability
    "view-peek": ("A peeked card is seen by the peeker only", ["6.10.3"], ["FAQ-01"], ["view", "powers"],
                  TABLE.format(p0="owl heron sparrow eagle", deck="white_pelican") + """\
  p0 draws
  p0 discards
  nobody plucks
  p0 peeks at p1.1
  expect p0 sees p1.1 as sparrow
  expect p1 sees p1.1 hidden
"""),
    # needs the 'events' capability
    "event-power": ("A drawn White Pelican plucking an own Brown Pelican reports the power", ["3.3.6", "6.10.3"], [],
                    ["event", "pluck"],
                    TABLE.format(p0="owl heron brown_pelican eagle", deck="white_pelican") + """\
  p0 draws
  p0 plucks p0.3
  expect event power for p0 clause 6.10.3
"""),
    # fails on every correct engine (a deliberately wrong expectation)
    "broken-top": ("A deliberately wrong expectation", ["3.2.5"], [], ["broken"],
                   TABLE.format(p0="owl heron sparrow eagle", deck="swallow") + """\
  p0 draws
  p0 discards
  expect top is owl
"""),
}
PASSING = ("basic-draw-discard", "event-power", "view-peek")  # sorted, as the harness orders them


def write_scenarios(folder: Path, ids=PASSING) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for sid in ids:
        title, clauses, faq, tags, script = SCENARIOS[sid]
        text = (f"id: {sid}\ntitle: {title}\nclauses: {json.dumps(clauses)}\nfaq: {json.dumps(faq)}\n"
                f"tags: {json.dumps(tags)}\nscript: |\n{script}")
        (folder / f"{sid}.yaml").write_text(text, encoding="utf-8")
    return folder


@pytest.fixture
def passing(tmp_path) -> Path:
    return write_scenarios(tmp_path / "passing")


@pytest.fixture
def mixed(tmp_path) -> Path:
    """The three passing scenarios and broken-top (sorted: basic, broken, event, view)."""
    return write_scenarios(tmp_path / "mixed", SCENARIOS)


def conform(tmp_path: Path, scenarios, *options: str, engine: str | list[str] | None = None) -> tuple[int, dict]:
    """Run ``baobei-conform`` in process; returns the exit code and the ``--json`` document."""
    out = tmp_path / f"results-{time.monotonic_ns()}.json"
    argv = ["--scenarios", *map(str, scenarios if isinstance(scenarios, list) else [scenarios]), "--json", str(out),
            *options]
    if isinstance(engine, str):
        argv.insert(0, engine)
    elif engine:
        argv += ["--", *engine]
    code = main(argv)
    return code, json.loads(out.read_text(encoding="utf-8")) if out.exists() else {}


def statuses(document: dict) -> dict[str, str]:
    return {r["id"]: r["status"] for r in document["results"]}


def engine(name: str, *args: str) -> list[str]:
    return [sys.executable, str(ENGINES / f"{name}.py"), *args]


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


# --- the reference passes ---

def check_document(document: dict, total: int) -> None:
    assert document["schema"] == "baobei-results/1"
    assert SUMMARY_KEYS <= set(document["summary"])
    assert document["summary"]["total"] == total == len(document["results"])
    assert {"name", "command", "capabilities"} <= set(document["engine"])
    assert {"started", "seconds", "complete", "selected", "protocol"} <= set(document["run"])
    for r in document["results"]:
        assert {"id", "file", "status", "clauses", "message", "stderr", "raw", "seconds"} <= set(r)
    schema = SPEC_ROOT / "schemas" / "results.schema.json"
    if schema.exists():
        jsonschema.validate(document, json.loads(schema.read_text(encoding="utf-8")))


def test_reference_in_process_passes(tmp_path, passing):
    code, doc = conform(tmp_path, passing)
    assert code == 0
    check_document(doc, 3)
    assert doc["summary"] == {"total": 3, "passed": 3, "failed": 0, "errors": 0, "skipped": 0, "xfailed": 0,
                              "xpassed": 0, "variants": 0}
    assert doc["engine"]["name"] == "baobei-ref"
    assert doc["engine"]["capabilities"] == ["events", "legal_actions", "views"]
    assert doc["run"]["complete"] is True and doc["run"]["selected"] == 3
    assert [r["id"] for r in doc["results"]] == list(PASSING)
    assert doc["run"]["argv"][:2] == ["--scenarios", str(passing)]  # the argv given to main, not pytest's


def test_reference_served_over_the_protocol_passes(tmp_path, passing):
    code, doc = conform(tmp_path, passing, engine=SERVE)
    assert code == 0
    check_document(doc, 3)
    assert doc["summary"]["passed"] == 3
    assert doc["engine"]["name"] == "baobei-ref" and doc["engine"]["version"] == "0.1.0"
    assert "baobei_conform.protocol.server" in doc["engine"]["command"]
    assert doc["run"]["complete"] is True


@pytest.mark.skipif(not (shutil.which("baobei-conform") and shutil.which("baobei-ref")),
                    reason="console scripts not on PATH")
def test_console_scripts(tmp_path, passing):
    out = tmp_path / "r.json"
    report = tmp_path / "report"
    proc = subprocess.run(["baobei-conform", "-q", "--scenarios", str(passing), "--json", str(out),
                           "--report", str(report), "--", "baobei-ref", "serve"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "3 passed, 0 failed" in proc.stdout
    assert f"report: {report / 'index.html'}" in proc.stdout and (report / "index.html").is_file()
    assert json.loads(out.read_text())["summary"]["passed"] == 3


# --- misbehaving engines: bounded time, error results, restarts ---

def test_hanging_engine_times_out_and_is_killed(tmp_path, capsys):
    scenarios = write_scenarios(tmp_path / "s", ["basic-draw-discard", "view-peek"])
    pids = tmp_path / "pids"
    start = time.monotonic()
    code, doc = conform(tmp_path, scenarios, "--timeout", "1", engine=engine("hang", str(pids)))
    elapsed = time.monotonic() - start
    assert code == 1
    # per scenario: 1 s timeout + 1 s before the kill, plus starts
    assert elapsed < 15, elapsed
    assert statuses(doc) == {"basic-draw-discard": "error", "view-peek": "error"}
    for r in doc["results"]:
        assert r["message"] == "no answer to 'setup' within 1 s"
    assert doc["run"]["complete"] is True and doc["summary"]["errors"] == 2
    started = [int(p) for p in pids.read_text().split()]
    # the engine started to check it runs serves the first scenario; after its error, a fresh one the second
    assert len(started) == len(set(started)) == 2
    assert not [p for p in started if alive(p)], "a hung engine was left running"
    assert "no answer to 'setup'" in capsys.readouterr().out


def test_crashing_engine_error_carries_stderr_and_run_goes_on(tmp_path, capsys):
    scenarios = write_scenarios(tmp_path / "s")
    junit = tmp_path / "crash.xml"
    start = time.monotonic()
    code, doc = conform(tmp_path, scenarios, "--timeout", "3", "--junit", str(junit), engine=engine("crash"))
    assert time.monotonic() - start < 15
    assert code == 1
    assert statuses(doc) == dict.fromkeys(PASSING, "error")  # every scenario got a result: restarted each time
    for r in doc["results"]:
        assert r["message"] == "the engine exited (code 3) during 'setup'"
        assert "boom while setting up the table" in r["stderr"]
    assert doc["run"]["complete"] is True
    out = capsys.readouterr().out
    assert "engine stderr (tail):" in out and "boom while setting up" in out
    errors = ET.parse(junit).getroot().findall("testcase/error")
    assert len(errors) == 3 and all("boom while setting up" in e.text for e in errors)


@pytest.mark.parametrize(("name", "message", "raw"), [
    ("liar_seq", "the reply does not echo seq 2", '{"ok": true, "seq": 102}'),
    ("not_json", "the engine wrote a line that is not JSON", "GARBAGE <<not json>> 2"),
])
def test_protocol_errors_keep_the_raw_line(tmp_path, capsys, name, message, raw):
    scenarios = write_scenarios(tmp_path / "s", ["basic-draw-discard", "view-peek"])
    code, doc = conform(tmp_path, scenarios, "--timeout", "2", engine=engine(name))
    assert code == 1
    assert statuses(doc) == {"basic-draw-discard": "error", "view-peek": "error"}
    for r in doc["results"]:
        assert (r["message"], r["raw"]) == (message, raw)  # seq 2: the setup right after the hello
    assert f"raw line: {raw}" in capsys.readouterr().out


def test_validate_names_the_schema_path(tmp_path):
    scenarios = write_scenarios(tmp_path / "s", ["basic-draw-discard"])
    code, doc = conform(tmp_path, scenarios, "--rules-only", engine=engine("bad_schema"))
    assert (code, statuses(doc)) == (0, {"basic-draw-discard": "pass"})  # unnoticed by the written expectations
    code, doc = conform(tmp_path, scenarios, engine=engine("bad_schema"))  # the events disagree with the reference's
    assert (code, doc["results"][0]["check"], doc["results"][0]["message"].split(" (")[0]) == (1, "agreement",
                                                                                             "agree events")
    code, doc = conform(tmp_path, scenarios, "--validate", engine=engine("bad_schema"))
    assert code == 1
    [r] = doc["results"]
    assert r["status"] == "error"
    assert r["message"] == "the 'apply' reply breaks the protocol schema at events/0: 'kind' is a required property"
    assert json.loads(r["raw"])["events"][0] == {"clause": "0.0"}


def test_validate_reference_server_passes_in_parallel(tmp_path, passing):
    code, doc = conform(tmp_path, passing, "--validate", "-j", "2", engine=SERVE)
    assert code == 0
    assert statuses(doc) == dict.fromkeys(PASSING, "pass")


def test_engine_that_never_says_hello_does_not_start_and_is_not_left_running(tmp_path, passing, capsys):
    pid_file = tmp_path / "pid"
    start = time.monotonic()
    # 2 s: long enough for the engine to write its pid first, even on a busy machine
    code, doc = conform(tmp_path, passing, "--timeout", "2", engine=engine("slow_start", str(pid_file), "30"))
    assert time.monotonic() - start < 10
    assert code == 1 and set(statuses(doc).values()) == {"error"} and len(doc["results"]) == len(PASSING)
    assert doc["results"][0]["message"] == "the engine does not start: no answer to 'hello' within 2 s"
    assert "the engine does not start: no answer to 'hello' within 2 s" in capsys.readouterr().err
    assert not alive(int(pid_file.read_text()))


def test_slow_but_timely_start_is_fine(tmp_path):
    scenarios = write_scenarios(tmp_path / "s", ["basic-draw-discard"])
    code, doc = conform(tmp_path, scenarios, "--timeout", "5", engine=engine("slow_start", str(tmp_path / "p"), "0.3"))
    assert (code, statuses(doc)) == (0, {"basic-draw-discard": "pass"})


# --- stopping early, known failures ---

def test_max_fail_stops_early(tmp_path, mixed, capsys):
    code, doc = conform(tmp_path, mixed, "--max-fail", "1")
    assert code == 1
    assert statuses(doc) == {"basic-draw-discard": "pass", "broken-top": "fail"}
    assert doc["run"]["complete"] is False and doc["run"]["selected"] == 4
    assert doc["summary"]["total"] == 2
    assert "(INCOMPLETE run)" in capsys.readouterr().out


def test_known_failure_is_xfail_and_exit_zero(tmp_path, mixed):
    expectations = tmp_path / "known.yaml"
    expectations.write_text("expected:\n  broken-top: {status: fail, reason: wrong on purpose, link: BUG-1}\n")
    code, doc = conform(tmp_path, mixed, "--expectations", str(expectations))
    assert code == 0
    assert statuses(doc)["broken-top"] == "xfail"
    assert doc["summary"]["xfailed"] == 1 and doc["summary"]["failed"] == 0
    [r] = [r for r in doc["results"] if r["id"] == "broken-top"]
    assert r["message"].startswith("known: wrong on purpose")


def test_expected_failure_that_passes_is_xpass(tmp_path, passing, capsys):
    expectations = tmp_path / "known.yaml"
    expectations.write_text("basic-draw-discard: {status: fail, reason: thought broken}\n")  # bare mapping form
    junit = tmp_path / "r.xml"
    _, doc = conform(tmp_path, passing, "--expectations", str(expectations), "--junit", str(junit))
    assert statuses(doc) == {"basic-draw-discard": "xpass", "event-power": "pass", "view-peek": "pass"}
    assert doc["summary"]["xpassed"] == 1
    [r] = [r for r in doc["results"] if r["id"] == "basic-draw-discard"]
    assert r["message"] == "expected fail (thought broken) but passed"
    assert "basic-draw-discard" in capsys.readouterr().out  # reported like a failure, not as a dot
    [failure] = ET.parse(junit).getroot().findall("testcase/failure")
    assert "but passed" in failure.get("message")


def test_bad_expectations_file_is_a_usage_error(tmp_path, passing, capsys):
    expectations = tmp_path / "known.yaml"
    expectations.write_text("basic-draw-discard: {status: maybe}\n")
    code, _ = conform(tmp_path, passing, "--expectations", str(expectations))
    assert code == 2
    assert "status must be fail, error or skip" in capsys.readouterr().err


# --- selection ---

@pytest.mark.parametrize(("options", "selected"), [
    (["-k", "*power*"], {"event-power"}),
    (["-k", "b*"], {"basic-draw-discard", "broken-top"}),
    (["-k", "view-*", "-k", "event-*"], {"view-peek", "event-power"}),
    (["--clause", "6"], {"view-peek", "event-power"}),
    (["--clause", "3.1"], {"basic-draw-discard"}),
    (["--clause", "3.3.6", "--clause", "3.2"], {"event-power", "broken-top"}),
    (["--faq", "FAQ-01"], {"view-peek"}),
    (["--tag", "pluck"], {"event-power"}),
    (["--tag", "basic", "--tag", "view"], {"basic-draw-discard", "view-peek"}),
    (["--tag", "pluck", "--clause", "6.10"], {"event-power"}),  # criteria combine with "and"
])
def test_selection(tmp_path, mixed, options, selected):
    _, doc = conform(tmp_path, mixed, *options)
    assert set(statuses(doc)) == selected
    assert doc["run"]["selected"] == len(selected)


def test_clause_prefix_is_whole_components(tmp_path, mixed, capsys):
    code, doc = conform(tmp_path, mixed, "--clause", "6.1")  # 6.1 is not a prefix of 6.10.3
    assert code == 2 and doc == {}
    assert "no scenario selected" in capsys.readouterr().err


def test_shards_partition_the_selection(tmp_path, mixed):
    shards = [set(statuses(conform(tmp_path, mixed, "--shard", f"{k}/2")[1])) for k in (1, 2)]
    assert all(shards) and not shards[0] & shards[1]
    assert shards[0] | shards[1] == set(SCENARIOS)
    thirds = [set(statuses(conform(tmp_path, mixed, "--shard", f"{k}/3")[1])) for k in (1, 2, 3)]
    assert sum(map(len, thirds)) == 4 and set().union(*thirds) == set(SCENARIOS)


@pytest.mark.parametrize("shard", ["3/2", "0/2", "x"])
def test_bad_shard_is_a_usage_error(tmp_path, mixed, shard):
    with pytest.raises(SystemExit) as exc:
        conform(tmp_path, mixed, "--shard", shard)
    assert exc.value.code == 2


def test_jobs_do_not_change_results(tmp_path, mixed):
    def comparable(doc):
        return [(r["id"], r["status"], r["line"], r["message"], r["expected"], r["actual"]) for r in doc["results"]]

    _, one = conform(tmp_path, mixed, "-j", "1")
    _, two = conform(tmp_path, mixed, "-j", "2")
    assert comparable(one) == comparable(two)
    assert [r["id"] for r in two["results"]] == sorted(SCENARIOS)  # scenario order, whatever finished first


# --- engine specifiers ---

def test_executable_engine(tmp_path, passing):
    script = tmp_path / "my-engine"
    script.write_text(f"#!{sys.executable}\nimport sys\nfrom baobei_conform.protocol.server import main\n"
                      "sys.exit(main(['serve']))\n")
    script.chmod(0o755)
    code, doc = conform(tmp_path, passing, engine=str(script))
    assert code == 0 and doc["summary"]["passed"] == 3
    assert doc["engine"]["command"] == str(script)


@pytest.mark.parametrize("as_string", [False, True])
def test_engine_folder_with_manifest(tmp_path, passing, as_string):
    folder = tmp_path / "engine-dir"
    folder.mkdir()
    (folder / "baobei-engine.json").write_text(json.dumps({"command": shlex.join(SERVE) if as_string else SERVE}))
    code, doc = conform(tmp_path, passing, engine=str(folder))
    assert code == 0 and doc["summary"]["passed"] == 3
    assert f"(in {folder})" in doc["engine"]["command"]


def test_python_factory_engine(tmp_path, passing):
    code, doc = conform(tmp_path, passing, engine="python:baobei_conform.engines.reference:ReferenceEngine")
    assert code == 0 and doc["summary"]["passed"] == 3
    assert doc["engine"]["command"] == "python:baobei_conform.engines.reference:ReferenceEngine"


@pytest.mark.parametrize(("target", "complaint"), [
    ("no-such-engine", "not 'reference', python:module:factory, an executable"),
    ("python:baobei_conform.engines.reference", "expected python:module:factory"),
    ("python:no_such_module_xyz:make", "expected python:module:factory"),
    ("python:baobei_conform.engines.reference:NoSuchFactory", "expected python:module:factory"),
    ("{dir}", "a manifest is JSON with a 'command' list"),
    ("{file}", "not 'reference', python:module:factory, an executable"),
])
def test_bad_engine_specifier_exits_2(tmp_path, passing, capsys, target, complaint):
    (tmp_path / "empty-dir").mkdir()
    (tmp_path / "not-executable").write_text("#!/bin/sh\n")
    target = target.format(dir=tmp_path / "empty-dir", file=tmp_path / "not-executable")
    code, doc = conform(tmp_path, passing, engine=target)
    assert code == 2 and doc == {}
    err = capsys.readouterr().err
    assert err.startswith(f"baobei-conform: {target}") and complaint in err


def test_nothing_after_double_dash_is_a_usage_error(passing):
    with pytest.raises(SystemExit) as exc:
        main(["--scenarios", str(passing), "--"])
    assert exc.value.code == 2


# --- capabilities ---

def test_missing_capability_skips_with_the_reason(tmp_path, passing):
    junit = tmp_path / "r.xml"
    code, doc = conform(tmp_path, passing, "--junit", str(junit), engine=engine("no_events"))
    assert code == 0
    assert statuses(doc) == {"basic-draw-discard": "pass", "event-power": "skip", "view-peek": "pass"}
    [r] = [r for r in doc["results"] if r["id"] == "event-power"]
    assert r["message"] == "the engine lacks the capability events"
    assert "events" not in doc["engine"]["capabilities"]
    [skipped] = ET.parse(junit).getroot().findall("testcase/skipped")
    assert skipped.get("message") == "the engine lacks the capability events"


def test_missing_capability_in_process(mixed):
    class NoViews(ReferenceEngine):
        capabilities = frozenset({"events", "legal_actions"})

    scenarios, broken = load_suite([mixed], Selection())
    outcomes, complete = run_suite(scenarios, NoViews)
    assert not broken and complete
    assert {o.scenario: (o.status, o.message) for o in outcomes}["view-peek"] == (
        "skip", "the engine lacks the capability views")
    assert {o.scenario: o.status for o in outcomes}["broken-top"] == "fail"  # a skip is never pass or fail


# --- JUnit ---

def test_junit_is_well_formed(tmp_path, mixed):
    junit = tmp_path / "r.xml"
    code, doc = conform(tmp_path, mixed, "--junit", str(junit))
    assert code == 1
    suite = ET.parse(junit).getroot()
    assert suite.tag == "testsuite"
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("4", "1", "0")
    cases = suite.findall("testcase")
    assert sorted(c.get("name") for c in cases) == sorted(SCENARIOS)
    assert {c.get("classname") for c in cases} == {"part-3", "part-6"}
    failures = {c.get("name"): c.find("failure") for c in cases if c.find("failure") is not None}
    assert list(failures) == ["broken-top"]
    assert failures["broken-top"].get("message") == "expect top"
    assert "expected: owl" in failures["broken-top"].text and "actual: swallow" in failures["broken-top"].text


# --- interruption ---

def first_outcome_then(action):
    """A report callback that runs ``action`` after the first outcome, then holds that worker until stopped."""
    seen = []

    def report(scenario, outcome, stop):
        seen.append(outcome)
        if len(seen) == 1:
            action()
            stop.wait(10)  # keep the worker from racing through the rest before the stop lands

    return report, seen


def test_stop_event_returns_results_so_far(mixed):
    scenarios, _ = load_suite([mixed], Selection())
    stop = threading.Event()
    report, seen = first_outcome_then(stop.set)
    outcomes, complete = run_suite(scenarios, ReferenceEngine, report=lambda s, o: report(s, o, stop), stop=stop)
    assert complete is False
    assert [o.scenario for o in outcomes] == ["basic-draw-discard"] == [o.scenario for o in seen]


needs_sigint = pytest.mark.skipif(signal.getsignal(signal.SIGINT) is not signal.default_int_handler,
                                  reason="SIGINT is not Python's default handler here")


@needs_sigint
def test_ctrl_c_returns_results_so_far(mixed):
    scenarios, _ = load_suite([mixed], Selection())
    stop = threading.Event()
    report, _ = first_outcome_then(_thread.interrupt_main)
    start = time.monotonic()
    outcomes, complete = run_suite(scenarios, ReferenceEngine, report=lambda s, o: report(s, o, stop), stop=stop)
    assert time.monotonic() - start < 5
    assert complete is False
    assert [(o.scenario, o.status) for o in outcomes] == [("basic-draw-discard", "pass")]


@needs_sigint
def test_ctrl_c_in_the_cli_writes_an_incomplete_document(tmp_path, mixed, monkeypatch):
    original = run_module.run_suite  # what run_conformance runs the suite with

    def interrupted(scenarios, factory, **kwargs):
        stop, report = kwargs["stop"], kwargs["report"]
        hold, _ = first_outcome_then(_thread.interrupt_main)
        return original(scenarios, factory, **{**kwargs, "report": lambda s, o: (report(s, o), hold(s, o, stop))})

    monkeypatch.setattr(run_module, "run_suite", interrupted)
    code, doc = conform(tmp_path, mixed)
    assert code == 130
    assert doc["run"]["complete"] is False and doc["run"]["interrupted"] is True and doc["summary"]["total"] == 1
    assert (doc["run"]["ran"], doc["run"]["selected"]) == (1, 4)
    assert statuses(doc) == {"basic-draw-discard": "pass"}


def test_the_default_run_writes_the_report_and_says_where(tmp_path, passing, capsys):
    import baobei_conform.cli.main

    assert main(["-q", "--scenarios", str(passing)]) == 0
    index = tmp_path / "baobei-report" / "index.html"
    assert baobei_conform.cli.main.DEFAULT_REPORT_DIR == str(tmp_path / "baobei-report")
    assert f"report: {index}" in capsys.readouterr().out
    assert index.is_file() and "scenario" in index.read_text(encoding="utf-8")
    assert main(["-q", "--no-report", "--scenarios", str(passing), "--report", str(tmp_path / "other")]) == 0
    assert not (tmp_path / "other").exists()
