"""SIGINT and SIGTERM at any moment end the work at once, kill every engine and keep what was done (issue 24).

Each command runs in its own session, its engine a double (engines/served.py, engines/hostile.py) that writes
"pid pgid" to a file and touches a mark when the moment to signal has come: scenarios under way, a search under
way, a problem found and being shrunk, a request the engine holds and never answers (with a 60 s reply timeout,
which the signal must not wait for). The signal goes to the command's process group, as a terminal's Ctrl-C does
(or to the command alone, as ``kill PID`` does). Each test asserts: the command exits within ``WITHIN`` seconds
with 130 (SIGINT) or 143 (SIGTERM), says ``interrupted`` or ``terminated`` as its only line on stderr (no
traceback), leaves no process of any engine group, and its outputs are well-formed and marked interrupted.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import pytest

from baobei_conform import signals
from baobei_conform.protocol.process import EngineProcess

HERE = Path(__file__).parent
ROOT = HERE.parents[1]
SERVED, HOSTILE = HERE / "engines" / "served.py", HERE / "engines" / "hostile.py"
WRONG = ROOT / "examples" / "wrong_engine" / "engine.py"
WITHIN = 4.0  # seconds from the signal to the exit: the work's 2 s and the outputs, on a machine shared with others
FOUND_FAST = "caller_plays_again"  # a misreading found in a second and shrunk for the rest of the budget
CODES = {signal.SIGINT: 130, signal.SIGTERM: 143}
WORDS = {signal.SIGINT: "interrupted", signal.SIGTERM: "terminated"}
BOTH = pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
JOBS = pytest.mark.parametrize("jobs", [1, 2])


@dataclass
class Command:
    proc: subprocess.Popen
    pids: Path  # "pid pgid" of every engine started
    mark: Path  # touched by the engine when the moment has come

    def signal_at_mark(self, signum: int, after: float = 0.2, group: bool = True,
                       engines: int = 1) -> tuple[str, str, float]:
        """Wait for the mark and ``engines`` engines started, then ``after`` seconds, signal; (stdout, stderr,
        seconds from the signal to the exit)."""
        self.wait_for_mark(after, engines)
        return self.send(signum, group)

    def wait_for_mark(self, after: float, engines: int = 1) -> None:
        deadline = time.monotonic() + 60
        while (not self.mark.exists() or len(groups(self.pids)) < engines) and self.proc.poll() is None \
                and time.monotonic() < deadline:
            time.sleep(0.02)
        assert self.mark.exists() and len(groups(self.pids)) >= engines, self.finish()
        time.sleep(after)
        assert self.proc.poll() is None, self.finish()

    def send(self, signum: int, group: bool = True, *later: tuple[float, int]) -> tuple[str, str, float]:
        """Signal, and again for each (seconds after the first, signal) of ``later``; then wait for the exit."""
        sent = time.monotonic()
        (os.killpg if group else os.kill)(self.proc.pid, signum)
        for at, again in later:
            time.sleep(max(0.0, sent + at - time.monotonic()))
            if self.proc.poll() is None:
                os.killpg(self.proc.pid, again)
        try:
            self.proc.wait(timeout=WITHIN)
        except subprocess.TimeoutExpired:
            pytest.fail(f"still running {WITHIN} s after the signal: {self.finish()}")
        elapsed = time.monotonic() - sent
        out, err = self.proc.communicate()
        return out, err, elapsed

    def finish(self) -> str:
        """Everything the command said, once it is made to end (a failing test leaves nothing running)."""
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
        out, err = self.proc.communicate()
        for pgid in groups(self.pids):
            _kill(pgid)
        return f"stdout: {out[-3000:]}\nstderr: {err[-3000:]}"


def _kill(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def groups(pids: Path) -> set[int]:
    return {int(line.split()[1]) for line in pids.read_text().split("\n") if line.strip()} if pids.exists() else set()


def running(pgid: int) -> bool:
    """Whether a process of the group is left (a zombie too: every engine is reaped by whoever started it)."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def check_ended(command: Command, signum: int, stderr: str, elapsed: float) -> None:
    assert command.proc.returncode == CODES[signum], stderr
    assert stderr.strip().splitlines() == [WORDS[signum]], stderr  # one line: no traceback, nothing else
    assert elapsed < WITHIN
    found = groups(command.pids)
    assert found
    deadline = time.monotonic() + 1.0  # a SIGKILL is delivered at once, the exit seen a moment later
    while any(running(g) for g in found) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not [g for g in found if running(g)], "engine processes left running"


def suite(tmp_path: Path, count: int) -> Path:
    folder = tmp_path / "suite"
    folder.mkdir()
    for path in sorted((ROOT / "scenarios" / "3-pluck").glob("*.yaml"))[:count]:
        shutil.copy(path, folder)
    return folder


def start(tmp_path: Path, argv: list[str], engine: list[str]) -> Command:
    return Command(subprocess.Popen([sys.executable, *argv, "--", sys.executable, *engine], cwd=tmp_path,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True),
                   tmp_path / "pids", tmp_path / "mark")


def served(tmp_path: Path, mode: str) -> list[str]:
    return [str(SERVED), mode, str(tmp_path / "pids"), str(tmp_path / "mark")]


# --- a run ---

def start_run(tmp_path: Path, mode: str, jobs: int) -> Command:
    out = tmp_path / "out"
    out.mkdir()
    argv = ["-m", "baobei_conform", "--scenarios", str(suite(tmp_path, 40)), "-q", "--timeout", "60", "-j", str(jobs),
            "--json", str(out / "r.json"), "--junit", str(out / "r.xml"), "--report", str(out / "report")]
    return start(tmp_path, argv, served(tmp_path, mode))


def check_run_outputs(tmp_path: Path) -> None:
    out = tmp_path / "out"
    doc = json.loads((out / "r.json").read_text(encoding="utf-8"))
    assert doc["run"]["complete"] is False and doc["run"]["interrupted"] is True
    assert doc["run"]["ran"] == len(doc["results"]) < doc["run"]["selected"] == 40
    assert not [r for r in doc["results"] if r["status"] != "pass"], "an engine killed by the signal is no result"
    properties = {p.get("name"): p.get("value") for p in ET.parse(out / "r.xml").getroot().iter("property")}
    assert properties["interrupted"] == "true" and properties["complete"] == "false"
    assert "Incomplete run" in (out / "report" / "index.html").read_text(encoding="utf-8")


# An engine at work, or one holding a request (the signal must not wait for its 60 s timeout).
MOMENTS = pytest.mark.parametrize("mode", ["plain", "hang"], ids=["under-way", "engine-hangs"])


@BOTH
@JOBS
@MOMENTS
def test_a_signal_ends_the_run_with_its_outputs_marked(tmp_path, signum, jobs, mode):
    command = start_run(tmp_path, mode, jobs)
    _, err, elapsed = command.signal_at_mark(signum, engines=jobs)
    check_ended(command, signum, err, elapsed)
    check_run_outputs(tmp_path)


@pytest.mark.parametrize("later", [0.05, 0.3], ids=["while-stopping", "while-writing"])
def test_more_signals_after_the_first_cut_nothing_short(tmp_path, later):
    """A second Ctrl-C (then a SIGTERM) as the work stops or the outputs are written: the first signal's exit."""
    command = start_run(tmp_path, "plain", 1)
    command.wait_for_mark(0.2)
    _, err, elapsed = command.send(signal.SIGINT, True, (later, signal.SIGINT), (later + 0.1, signal.SIGTERM))
    check_ended(command, signal.SIGINT, err, elapsed)
    check_run_outputs(tmp_path)


# --- fuzzing ---

def start_fuzz(tmp_path: Path, engine: list[str], jobs: int, *options: str) -> Command:
    argv = ["-m", "baobei_conform", "fuzz", "--derandomize", "--no-database", "--budget", "60", "--timeout", "60",
            "--jobs", str(jobs), "--scenarios", str(suite(tmp_path, 5)), "--json", str(tmp_path / "fuzz.json"),
            *options]
    return start(tmp_path, argv, engine)


def fuzz_document(tmp_path: Path) -> dict:
    document = json.loads((tmp_path / "fuzz.json").read_text(encoding="utf-8"))
    assert document["interrupted"] is True
    assert document["examples"] >= 1 and document["actions"] >= 1
    return document


@BOTH
@JOBS
@MOMENTS
def test_a_signal_during_the_search_writes_what_was_played(tmp_path, signum, jobs, mode):
    command = start_fuzz(tmp_path, served(tmp_path, mode), jobs)
    out, err, elapsed = command.signal_at_mark(signum, engines=jobs)
    check_ended(command, signum, err, elapsed)
    assert fuzz_document(tmp_path)["problem"] is None
    assert "INCOMPLETE: interrupted" in out


@BOTH
@JOBS
def test_a_signal_while_a_problem_is_shrunk_keeps_the_problem(tmp_path, signum, jobs):
    command = start_fuzz(tmp_path, served(tmp_path, f"bug:{FOUND_FAST}"), jobs)
    _, err, elapsed = command.signal_at_mark(signum, after=1.0, engines=jobs)  # mark: the first wrong answer
    check_ended(command, signum, err, elapsed)
    document = fuzz_document(tmp_path)
    assert document["failed_after_s"] is not None
    problem = document["problem"]
    assert problem is not None and problem["check"] == "state"
    reproducer = problem["reproducer"]
    assert reproducer["verified"] is False and reproducer["note"].startswith("interrupted before")
    assert "script: |" in reproducer["text"]


def test_sigterm_to_the_command_alone_ends_its_jobs_and_their_engines(tmp_path):
    """``kill PID`` reaches the command, not its jobs: it passes the signal on."""
    command = start_fuzz(tmp_path, served(tmp_path, "hang"), 2)
    _, err, elapsed = command.signal_at_mark(signal.SIGTERM, group=False, engines=2)
    check_ended(command, signal.SIGTERM, err, elapsed)
    fuzz_document(tmp_path)


INTERRUPT_AT = """\
import os, signal, sys, time
from baobei_conform.cli.main import main
from baobei_conform.fuzz import command

def signalled(*args, **kwargs):
    os.kill(os.getpid(), signal.{signal})
    time.sleep(30)
    raise AssertionError("the signal was not acted on")

command.{phase} = signalled
sys.exit(main(sys.argv[1:]))
"""


@BOTH
@pytest.mark.parametrize("phase", ["tighten", "reproduce"])
def test_a_signal_after_the_search_keeps_the_problem_unverified(tmp_path, signum, phase):
    """Tightening and reproducing follow the search; a signal there is seen as it comes (the phase is replaced by
    one that sends it)."""
    script = tmp_path / "signalled.py"
    script.write_text(INTERRUPT_AT.format(signal=signal.Signals(signum).name, phase=phase), encoding="utf-8")
    proc = subprocess.Popen([sys.executable, str(script), "fuzz", "--derandomize", "--no-database", "--max-examples",
                             "5", "--scenarios",
                             str(suite(tmp_path, 5)), "--json", str(tmp_path / "fuzz.json"), "--", sys.executable,
                             *served(tmp_path, "bug:view_shows_own_cards")],
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    command = Command(proc, tmp_path / "pids", tmp_path / "mark")
    try:
        proc.wait(timeout=120)
    except subprocess.TimeoutExpired:
        pytest.fail(command.finish())
    _, err = proc.communicate()
    check_ended(command, signum, err, 0.0)
    document = fuzz_document(tmp_path)
    assert document["problem"]["check"] == "view"
    assert document["problem"]["reproducer"]["verified"] is False
    assert document["problem"]["reproducer"]["note"].startswith("interrupted before")


def test_a_listed_action_the_engine_refuses_is_a_problem_not_a_crash(tmp_path):
    """Without the reference the engine's own list drives the game: a listed draw it refuses is reported."""
    proc = subprocess.run([sys.executable, "-m", "baobei_conform", "fuzz", "--invariants-only", "--derandomize",
                           "--no-database", "--budget", "30", "--max-examples", "5",
                           "--scenarios", str(suite(tmp_path, 5)), "--json", str(tmp_path / "fuzz.json"), "--",
                           sys.executable, *served(tmp_path, "refuses_listed")],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    problem = json.loads((tmp_path / "fuzz.json").read_text(encoding="utf-8"))["problem"]
    assert problem["check"] == "legal_actions"
    assert "but apply refuses it with 'not_your_turn'" in problem["message"]


# --- the other commands that run engines, and baobei-ref serve ---

@BOTH
@pytest.mark.parametrize("argv", [["smoke"], ["explain", str(sorted(ROOT.glob("scenarios/3-pluck/*.yaml"))[0])]],
                         ids=["smoke", "explain"])
def test_smoke_and_explain_end_on_a_signal_with_the_engine_killed(tmp_path, signum, argv):
    pids = tmp_path / "pids"
    command = start(tmp_path, ["-m", "baobei_conform", *argv, "--timeout", "60"], [str(HOSTILE), "hang", str(pids)])
    command.mark = pids  # hostile.py writes its pid, then hangs at the first setup
    _, err, elapsed = command.signal_at_mark(signum, after=0.5)
    check_ended(command, signum, err, elapsed)


@BOTH
def test_baobei_ref_serve_ends_quietly(tmp_path, signum):
    proc = subprocess.Popen([sys.executable, "-m", "baobei_conform.protocol.server", "serve"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    proc.stdin.write(b'{"seq":1,"cmd":"new_game","players":2}\n')
    proc.stdin.flush()
    assert b'"ok":true' in proc.stdout.readline()  # serving, waiting for the next request
    os.killpg(proc.pid, signum)
    try:
        proc.wait(timeout=WITHIN)
    finally:
        proc.kill()
    assert proc.returncode == CODES[signum]
    assert proc.stderr.read() == b""


# --- the mechanism (in this process: signals.handled() puts pytest's own handlers back after) ---

def _signal_self(signum: int) -> None:
    """Send ``signum`` to this process and give the handler its moment (it raises in the main thread)."""
    os.kill(os.getpid(), signum)
    time.sleep(0.5)


def test_a_signal_raises_once_and_a_later_one_does_nothing():
    with signals.handled():
        with pytest.raises(KeyboardInterrupt):
            _signal_self(signal.SIGTERM)
        _signal_self(signal.SIGINT)  # while the outputs of the first would be written: nothing raised
        assert (signals.received(), signals.exit_code(), signals.word()) == (signal.SIGTERM, 143, "terminated")
    assert signals.received() is None  # the next command starts afresh


def test_a_signal_while_outputs_are_written_raises_nothing_and_while_a_process_starts_raises_after():
    with signals.handled():
        with signals.shielded():
            _signal_self(signal.SIGINT)
        assert signals.received() == signal.SIGINT
    reached = []
    with signals.handled(), pytest.raises(KeyboardInterrupt):
        with signals.deferred():
            _signal_self(signal.SIGINT)
            reached.append(True)
    assert reached  # the section ran to its end, then the signal was raised


def test_an_engine_started_after_the_signal_is_killed_as_it_starts(tmp_path):
    """A run's worker may start an engine after the main thread killed the others: it must not outlive the run."""
    pids = tmp_path / "pids"
    with signals.handled():
        with pytest.raises(KeyboardInterrupt):
            _signal_self(signal.SIGINT)
        engine = EngineProcess([sys.executable, str(HOSTILE), "hang", str(pids)])
        assert engine.popen.wait(timeout=10) == -signal.SIGKILL
        engine.kill()
    assert not running(engine.pgid)
