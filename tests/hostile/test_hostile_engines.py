"""Hostile engines cannot hang, crash or poison a run (issue 14).

Each engine double (engines/hostile.py, one MODE each) runs under ``baobei-conform`` with a short
timeout; each run must end within its timeout plus 5 s, give the affected scenarios ``error``
results, exit 1, write JSON and JUnit that parse, and leave no process of the engine's group alive.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from baobei_conform.cli.main import main
from baobei_conform.engines.reference import ReferenceEngine
from baobei_conform.harness.factory import engine_factory
from baobei_conform.protocol import process
from baobei_conform.suite.scenario import load_scenario

HERE = Path(__file__).parent
HOSTILE = HERE / "engines" / "hostile.py"
FLOOD = HERE / "engines" / "flood.py"
TIMEOUT = 1.5
SCRIPT = """\
  setup
    zone p0: owl heron sparrow eagle _
    zone p1: sparrow swallow kingfisher hummingbird _
    deck: swallow
    discard: eagle
    active p0
  end
  p0 draws
  p0 discards
  expect top is swallow
"""
UNSAFE = ("\x1b", "\x00", "\x07", "\u202e", "\u202c")


def scenarios(folder: Path, count: int) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        sid = f"hostile-{i:02d}"
        (folder / f"{sid}.yaml").write_text(f'id: {sid}\ntitle: drawn and discarded\nclauses: ["3.1.7"]\n'
                                            f"script: |\n{SCRIPT}", encoding="utf-8")
    return folder


def groups(pidfile: Path) -> set[int]:
    return {int(line.split()[1]) for line in pidfile.read_text().split("\n") if line.strip()} - {0}


def alive_in_group(pgid: int) -> list[int]:
    """Processes of the group that are still running (zombies waiting for a reaper are not running)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2:].split()
            if int(fields[2]) == pgid and fields[0] != "Z":
                found.append(int(entry.name))
    return found


def conform(tmp_path: Path, command: list[str], count: int = 2, *options: str) -> tuple[int, dict, float]:
    out, junit = tmp_path / "r.json", tmp_path / "r.xml"
    start = time.monotonic()
    code = main(["--scenarios", str(scenarios(tmp_path / "s", count)), "--json", str(out), "--junit", str(junit),
                 "--timeout", str(TIMEOUT), "--no-report", "-q", *options, "--", *command])
    elapsed = time.monotonic() - start
    ET.parse(junit)  # well-formed
    return code, json.loads(out.read_text(encoding="utf-8")), elapsed


def hostile(tmp_path: Path, mode: str) -> tuple[list[str], Path]:
    pidfile = tmp_path / "pids"
    return [sys.executable, str(HOSTILE), mode, str(pidfile)], pidfile


def check_all_gone(pidfile: Path) -> None:
    for pgid in groups(pidfile):
        assert not alive_in_group(pgid), f"processes of engine group {pgid} left running"


@pytest.mark.parametrize(("mode", "message"), [
    ("never_reads", "no answer to 'setup' within 1.5 s"),
    ("deep", "beyond the protocol's bounds: nested more than 64 levels deep"),
    ("bigint", "beyond the protocol's bounds: an integer of 5000 digits"),
    ("huge_line", "a line longer than 16777216 bytes"),
    ("fork_exit", "the engine exited (code 4) during 'setup'"),
    ("nan", "beyond the protocol's bounds: NaN is not a JSON number"),
    ("ansi", "'setup' failed: engine_error: \\x1b[31mred\\x1b[0m nul\\x00 bidi\\u202eevil\\u202c bell\\x07"),
])
def test_a_hostile_engine_ends_each_scenario_in_error(tmp_path, mode, message):
    command, pidfile = hostile(tmp_path, mode)
    code, doc, elapsed = conform(tmp_path, command)
    assert code == 1
    assert [r["status"] for r in doc["results"]] == ["error"] * 2
    assert all(message in r["message"] for r in doc["results"]), [r["message"] for r in doc["results"]]
    assert elapsed < 2 * (TIMEOUT + 5)  # two scenarios, each within its timeout plus 5 s
    assert doc["run"]["complete"] is True
    check_all_gone(pidfile)
    assert len(groups(pidfile)) == 2  # the engine is restarted after each error


def test_with_two_workers_no_worker_dies(tmp_path):
    command, pidfile = hostile(tmp_path, "bigint")
    code, doc, _ = conform(tmp_path, command, 5, "-j", "2")
    assert code == 1 and doc["run"]["complete"] is True
    assert [r["status"] for r in doc["results"]] == ["error"] * 5
    check_all_gone(pidfile)


def test_a_fork_that_exits_is_seen_at_once_not_as_a_timeout(tmp_path):
    command, pidfile = hostile(tmp_path, "fork_exit")
    _, doc, elapsed = conform(tmp_path, command, 1, "--timeout", "30")
    assert doc["results"][0]["message"] == "the engine exited (code 4) during 'setup'"
    assert elapsed < 10
    check_all_gone(pidfile)


def test_a_wrapper_and_its_hanging_child_are_both_killed(tmp_path):
    inner, pidfile = hostile(tmp_path, "hang")
    code, doc, elapsed = conform(tmp_path, ["sh", "-c", " ".join(inner) + "; echo the wrapper lives on"])
    assert code == 1
    assert [r["message"] for r in doc["results"]] == [f"no answer to 'setup' within {TIMEOUT:g} s"] * 2
    assert elapsed < 2 * (TIMEOUT + 5)
    check_all_gone(pidfile)


def test_a_malformed_hello_is_an_error_not_a_traceback(tmp_path):
    command, pidfile = hostile(tmp_path, "bad_hello")
    code, doc, _ = conform(tmp_path, command, 3)
    assert code == 1
    messages = [r["message"] for r in doc["results"]]
    assert messages[0] == "the engine exited (code 3) during 'setup'"  # the first process, started before the run
    assert messages[1:] == ["the hello reply's 'capabilities' must be a list of strings"] * 2
    check_all_gone(pidfile)


def test_a_malformed_hello_at_the_start_is_an_error_for_every_scenario(tmp_path, capsys):
    pidfile = tmp_path / "pids"
    pidfile.write_text("0 0\n")  # as if a process had started already: this one answers capabilities: 5
    code, doc, elapsed = conform(tmp_path, [sys.executable, str(HOSTILE), "bad_hello", str(pidfile)], 3)
    assert code == 1 and elapsed < TIMEOUT + 5
    assert [r["status"] for r in doc["results"]] == ["error"] * 3
    assert {r["message"] for r in doc["results"]} == {
        "the engine does not start: the hello reply's 'capabilities' must be a list of strings"}
    err = capsys.readouterr().err
    assert "the engine does not start: the hello reply's 'capabilities' must be a list of strings" in err
    assert "Traceback" not in err
    check_all_gone(pidfile)


def test_an_engine_command_that_cannot_be_executed_is_an_input_error(tmp_path, capsys):
    out = tmp_path / "r.json"
    code = main(["--scenarios", str(scenarios(tmp_path / "s", 1)), "--json", str(out), "--no-report", "--",
                 str(tmp_path / "no-such-engine")])
    assert code == 2 and "the engine does not start: cannot start" in capsys.readouterr().err
    assert not out.exists()


def test_nan_in_hello_never_reaches_the_outputs(tmp_path, capsys):
    engine = tmp_path / "nan_hello.py"
    engine.write_text('import sys\nsys.stdin.readline()\nprint(\'{"seq":1,"ok":true,"engine":{"name":NaN},'
                      '"capabilities":[]}\', flush=True)\nsys.stdin.readline()\n')
    code, doc, _ = conform(tmp_path, [sys.executable, str(engine)], 1)
    assert code == 1 and "NaN is not a JSON number" in capsys.readouterr().err
    assert doc["results"][0]["status"] == "error" and "NaN" in doc["results"][0]["message"]
    json.loads((tmp_path / "r.json").read_text(), parse_constant=lambda c: pytest.fail(f"{c} in results.json"))


def test_engine_text_is_safe_in_every_output(tmp_path, capsys):
    command, _ = hostile(tmp_path, "ansi")
    report = tmp_path / "report"
    out, junit = tmp_path / "r.json", tmp_path / "r.xml"
    main(["--scenarios", str(scenarios(tmp_path / "s", 1)), "--json", str(out), "--junit", str(junit),
          "--report", str(report), "--timeout", str(TIMEOUT), "--", *command])
    console = capsys.readouterr().out
    [result] = json.loads(out.read_text(encoding="utf-8"))["results"]
    assert "\\x1b[31mred" in result["stderr"] and "\\u202eevil" in result["raw"]
    ET.parse(junit)
    texts = {"json": out.read_text(encoding="utf-8"), "junit": junit.read_text(encoding="utf-8"), "console": console}
    texts.update({p.name: p.read_text(encoding="utf-8") for p in report.rglob("*.html")})
    for name, text in texts.items():
        assert not [c for c in UNSAFE if c in text], name


def test_a_stderr_flood_costs_no_timeouts(tmp_path):
    code, doc, _ = conform(tmp_path, [sys.executable, str(FLOOD)], 2, "--timeout", "10")
    assert code == 0, [r["message"] for r in doc["results"]]
    assert [r["status"] for r in doc["results"]] == ["pass", "pass"]  # 8 MB of logs before each of ~12 replies


def test_the_circuit_breaker_stops_an_engine_that_hangs_on_every_scenario(tmp_path, capsys):
    command, pidfile = hostile(tmp_path, "hang")
    code, doc, elapsed = conform(tmp_path, command, 8, "--breaker", "3")
    assert code == 1
    assert [r["status"] for r in doc["results"]] == ["error"] * 3
    assert doc["run"]["complete"] is False and doc["run"]["selected"] == 8
    assert elapsed < 3 * TIMEOUT + 5
    assert "timed out or crashed in 3 scenarios in a row (--breaker 3)" in capsys.readouterr().err
    check_all_gone(pidfile)


def test_the_breaker_counts_only_consecutive_hangs(tmp_path):
    """Errors that are not timeouts or crashes (here: deep replies) never trip it."""
    command, _ = hostile(tmp_path, "deep")
    code, doc, _ = conform(tmp_path, command, 4, "--breaker", "2")
    assert code == 1 and doc["run"]["complete"] is True and len(doc["results"]) == 4


def test_writes_never_block_past_the_timeout(tmp_path):
    """Far more requests than a pipe holds, to an engine that never reads: the reads time out, nothing blocks."""
    command, pidfile = hostile(tmp_path, "never_reads")
    factory, _ = engine_factory(None, command, timeout=TIMEOUT)
    engine = factory()
    state = load_scenario(scenarios(tmp_path / "s", 1) / "hostile-00.yaml").steps[0]["state"]
    results = []
    worker = threading.Thread(target=lambda: results.extend(engine.batch([("setup", state, None)] * 200)))
    worker.start()  # about 600 KB of requests
    worker.join(TIMEOUT + 5)
    blocked = worker.is_alive()
    engine.abort()  # unblocks a blocked write, so a failure here is a failure, not a hung test
    worker.join()
    assert not blocked, "a write blocked the harness past the timeout"
    assert {r.message for r in results} == {"no answer to 'setup' within 1.5 s"}
    engine.stop()
    check_all_gone(pidfile)


def test_ctrl_c_while_the_engine_hangs_kills_it_and_keeps_what_ran(tmp_path):
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        pytest.skip("SIGINT is not Python's default handler here")
    command, pidfile = hostile(tmp_path, "hang")
    timer = threading.Timer(1.0 + 0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    start = time.monotonic()
    try:
        code = main(["--scenarios", str(scenarios(tmp_path / "s", 1)), "--no-report", "--timeout", "60", "--",
                     *command])
    finally:
        timer.cancel()
    assert time.monotonic() - start < 10
    assert code in (1, 130)
    check_all_gone(pidfile)
    assert not [t for t in threading.enumerate() if t.name == "baobei-worker"]


def test_in_process_engines_use_the_same_interface(tmp_path):
    """A python: engine that raises mid-scenario is an error for that scenario; the next gets a fresh engine."""
    class Flaky(ReferenceEngine):
        made = 0

        def __init__(self):
            super().__init__()
            Flaky.made += 1
            self.number = Flaky.made

        def apply(self, action):
            if self.number == 1:
                raise RuntimeError("broken on purpose")
            return super().apply(action)

    from baobei_conform.harness.run import Selection, load_suite, run_suite

    suite, _ = load_suite([scenarios(tmp_path / "s", 3)], Selection())
    outcomes, complete = run_suite(suite, Flaky)
    assert complete
    assert [(o.status, o.message) for o in outcomes] == [
        ("error", "the engine raised RuntimeError: broken on purpose"), ("pass", ""), ("pass", "")]


def test_stderr_written_before_a_reply_is_in_the_error_even_when_the_drain_lags(monkeypatch):
    """Under load the stderr thread may not have run yet when a reply is judged: the tail waits for it."""
    drain, replied = process.EngineProcess._drain, threading.Event()

    def late_drain(self):
        replied.wait(10)
        time.sleep(0.03)  # a drain thread the scheduler wakes only after the reply was read
        drain(self)
    monkeypatch.setattr(process.EngineProcess, "_drain", late_drain)
    code = "import sys\nsys.stderr.write('boom\\n'); sys.stderr.flush()\nprint('ready', flush=True)\ninput()\n"
    engine = process.EngineProcess([sys.executable, "-c", code])
    try:
        assert engine.pump(time.monotonic() + 10).startswith(b"ready")
        replied.set()
        assert engine.stderr_tail() == "boom"
    finally:
        engine.kill_group()


def test_stderr_in_the_pipe_is_in_the_tail_whatever_the_drain_thread_does(monkeypatch):
    """The tail reads what waits in the pipe itself: a drain thread that has taken bytes out of the pipe but
    not yet kept them or that never ran cannot lose what came before a reply."""
    monkeypatch.setattr(process.EngineProcess, "_drain", lambda self: None)
    code = "import sys\nsys.stderr.write('one\\ntwo\\n'); sys.stderr.flush()\nprint('ready', flush=True)\ninput()\n"
    engine = process.EngineProcess([sys.executable, "-c", code])
    try:
        assert engine.pump(time.monotonic() + 10).startswith(b"ready")
        assert engine.stderr_tail() == "one\ntwo"
        assert engine.stderr_tail() == "one\ntwo"  # kept, not read again
    finally:
        engine.kill()
