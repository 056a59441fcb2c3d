"""Nothing a user owns is lost to an output (issue 24): folders the tool replaces whole are its own only.

Every command that writes is pointed, as a user would by mistake, at folders holding the user's files, at
``.``, ``..``, ``/``, the home folder, a parent of the current folder, its own sources, and outputs of the
same run inside the report folder; and fuzz's outputs at places it cannot write. Each refusal must come
before any work (exit 2, one line per problem naming the option and the folder, no traceback, in
bounded time), and every user file must be byte-identical afterwards, with nothing written beside it.
The commands run as a user runs them, in a subprocess, from a folder under tmp_path.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from test_hostile_engines import scenarios

from baobei_conform.files.outputs import MARKER

TIMEOUT = 120  # seconds for any one command: a refusal takes about one, a small run a few


def tree(folder: Path) -> dict[str, bytes | None]:
    """Every entry under ``folder``: files with their bytes, folders as None."""
    return {p.relative_to(folder).as_posix(): None if p.is_dir() else p.read_bytes() for p in folder.rglob("*")}


def conform(cwd: Path, *argv: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "baobei_conform", *argv], cwd=cwd, capture_output=True, text=True,
                          timeout=TIMEOUT, env=env)


def refused(proc: subprocess.CompletedProcess, *phrases: str) -> list[str]:
    """Asserts a refusal before any work: exit 2, no traceback, nothing run; returns the stderr lines."""
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    assert "scenarios:" not in proc.stdout and "report:" not in proc.stdout  # no summary: nothing ran
    lines = proc.stderr.strip().split("\n")
    assert all(line.startswith("baobei-conform") for line in lines), proc.stderr  # one line per problem
    for phrase in phrases:
        assert phrase in proc.stderr, proc.stderr
    return lines


@pytest.fixture
def work(tmp_path) -> Path:
    """The current folder of the commands: a small scenario folder in it (``s``, one part), and a user's project."""
    folder = tmp_path / "work"
    scenarios(folder / "s" / "2-turn", 2)
    project = folder / "myproj"
    project.mkdir()
    (project / "engine.js").write_text("console.log('my engine')\n", encoding="utf-8")
    (project / "src").mkdir()
    (project / "src" / "rules.js").write_bytes(b"\x00\x01 binary \xff\n")
    return folder


@pytest.fixture
def shard(work) -> Path:
    """A results file of the small folder, as ``merge`` and ``report`` read it."""
    path = work / "shard.json"
    proc = conform(work, "-q", "--scenarios", "s", "--no-report", "--json", str(path))
    assert proc.returncode == 0, proc.stderr
    return path


NEVER_STARTED = ["--", sys.executable, "-c", "open('engine-started', 'w')"]  # an engine that leaves a file


COMMANDS = {  # command -> the argv writing its owned folder at target
    "run": lambda target: ["-q", "--scenarios", "s", "--json", "r.json", "--report", target],
    "merge": lambda target: ["merge", "shard.json", "--json", "merged.json", "--report", target, "--scenarios", "s"],
    "report": lambda target: ["report", "shard.json", "--scenarios", "s", "--out", target],
    "compile": lambda target: ["compile", "s", "--out", target],
    "rulings": lambda target: ["rulings", "s", "--games", "0", "--review", target],
}
OPTION = {"run": "--report", "merge": "--report", "report": "--out", "compile": "--out", "rulings": "--review"}


def nothing_else_written(work: Path, before: dict) -> None:
    after = tree(work)
    assert after == before, f"written or changed: {sorted(set(after.items()) ^ set(before.items()))[:5]}"


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_folder_holding_user_files_is_refused(work, shard, command):
    before = tree(work)
    start = time.monotonic()
    lines = refused(conform(work, *COMMANDS[command]("myproj")), f"{OPTION[command]} myproj: is not empty and was "
                    "not written by this tool", "choose another folder, or empty it")
    assert len(lines) == 1 and time.monotonic() - start < TIMEOUT
    nothing_else_written(work, before)


def test_a_run_refused_never_starts_its_engine(work):
    before = tree(work)
    refused(conform(work, *COMMANDS["run"]("myproj"), *NEVER_STARTED), "--report myproj: is not empty")
    nothing_else_written(work, before)  # no engine-started, no r.json


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_an_added_user_file_in_a_marked_folder_is_refused_and_kept(work, shard, command):
    assert conform(work, *COMMANDS[command]("out")).returncode == 0  # the tool's own folder: replaced freely
    assert conform(work, *COMMANDS[command]("out")).returncode == 0
    marker = json.loads((work / "out" / MARKER).read_text(encoding="utf-8"))
    assert marker["format"] == "baobei-output/1" and marker["written_by"].startswith("baobei-conform")
    assert sorted(marker["files"]) == sorted(p for p, data in tree(work / "out").items()
                                             if data is not None and p != MARKER)
    sub = next(p for p in (work / "out").iterdir() if p.is_dir())  # a user file deep inside, then one at the top
    for added in (sub / "notes.md", work / "out" / "guide.md"):
        added.write_text("the user's notes\n", encoding="utf-8")
        before = tree(work)
        refused(conform(work, *COMMANDS[command]("out")), f"{OPTION[command]} out: holds "
                f"{added.relative_to(work / 'out').as_posix()}, which this tool did not write", "move it out")
        nothing_else_written(work, before)
        added.unlink()
    assert conform(work, *COMMANDS[command]("out")).returncode == 0  # the user's file gone: replaced again


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize(("target", "says"), [(".", "is the current folder"), ("..", "contains the current folder"),
                                              ("/", "is the root folder"), ("~", "is your home folder"),
                                              ("{parent}", "contains the current folder")])
def test_the_current_folder_its_parents_root_and_home_are_refused(work, shard, tmp_path, command, target, says):
    home = tmp_path / "home"  # the home folder, for these commands
    (home / "docs").mkdir(parents=True)
    (home / "docs" / "cv.txt").write_text("my cv\n", encoding="utf-8")
    env = {**os.environ, "HOME": str(home)}
    target = str(home) if target == "~" else str(work.parent) if target == "{parent}" else target
    root, before, home_before = sorted(os.listdir("/")), tree(tmp_path), tree(home)
    refused(conform(work, *COMMANDS[command](target), env=env), f"{OPTION[command]} {target}: {says}")
    assert sorted(os.listdir("/")) == root and tree(tmp_path) == before and tree(home) == home_before


def test_outputs_of_the_same_run_inside_its_report_folder_are_refused(work):
    (work / "rep").mkdir()
    before = tree(work)
    lines = refused(conform(work, "-q", "--scenarios", "s", "--json", "rep/results.json", "--junit", "rep/r.xml",
                            "--report", "rep"),
                    "--json rep/results.json: inside --report rep, which is replaced whole; write it outside",
                    "--junit rep/r.xml: inside --report rep")
    assert len(lines) == 2
    nothing_else_written(work, before)
    refused(conform(work, "merge", "x.json", "--json", "m/x.json", "--report", "m"), "--json m/x.json: inside")


@pytest.mark.parametrize(("paths", "out", "says"), [
    (["s"], "s", "--out s: is s, which this command reads"),
    (["s"], "s/compiled", "--out s/compiled: is inside s, which this command reads"),
    (["s/2-turn"], "s", "--out s: contains s/2-turn, which this command reads"),
    (["s/2-turn/hostile-00.yaml"], "s/2-turn", "--out s/2-turn: contains s/2-turn/hostile-00.yaml"),
])
def test_compile_onto_its_own_sources_is_refused(work, paths, out, says):
    before = tree(work)
    refused(conform(work, "compile", *paths, "--out", out), says)
    nothing_else_written(work, before)


def test_a_report_inside_or_around_its_scenarios_or_results_is_refused(work, shard):
    before = tree(work)
    refused(conform(work, "-q", "--scenarios", "s", "--report", "s/report"), "--report s/report: is inside s")
    refused(conform(work, "report", "shard.json", "--scenarios", "s", "--out", "s"), "--out s: is s")
    (work / "results").mkdir()
    shutil.move(shard, work / "results" / "shard.json")
    before = tree(work)
    refused(conform(work, "report", "results/shard.json", "--scenarios", "s", "--out", "results"),
            "--out results: contains results/shard.json")
    nothing_else_written(work, before)


def test_a_symlink_to_a_report_folder_is_refused(work):
    assert conform(work, "-q", "--scenarios", "s", "--report", "real").returncode == 0
    (work / "link").symlink_to(work / "real")
    before = tree(work / "real")
    refused(conform(work, "-q", "--scenarios", "s", "--report", "link"), "--report link: is a symbolic link")
    assert tree(work / "real") == before


def test_a_results_file_where_a_folder_is_or_an_input_or_twice_is_refused(work):
    (work / "known.yaml").write_text("{}\n", encoding="utf-8")
    before = tree(work)
    refused(conform(work, "-q", "--scenarios", "s", "--no-report", "--json", "myproj"),
            "--json myproj: is a folder, not a file")
    refused(conform(work, "-q", "--scenarios", "s", "--no-report", "--json", "myproj/engine.js/r.json"),
            "--json myproj/engine.js/r.json: myproj/engine.js is a file, not a folder")
    refused(conform(work, "-q", "--scenarios", "s", "--no-report", "--expectations", "known.yaml", "--json",
                    "known.yaml"), "--json known.yaml: is an input of this command")
    refused(conform(work, "-q", "--scenarios", "s", "--no-report", "--json", "x", "--junit", "x"),
            "--junit x: also given as --json x")
    nothing_else_written(work, before)


def test_a_missing_parent_folder_is_created_when_written(work):
    proc = conform(work, "-q", "--scenarios", "s", "--json", "out/a/r.json", "--junit", "out/b/r.xml",
                   "--report", "out/c/report")
    assert proc.returncode == 0, proc.stderr
    assert json.loads((work / "out" / "a" / "r.json").read_text(encoding="utf-8"))["run"]["complete"] is True
    ET.parse(work / "out" / "b" / "r.xml")
    assert (work / "out" / "c" / "report" / MARKER).is_file()


# --- fuzz: outputs checked before the search -----------------------------------------------------------

FUZZ_BUDGET = 60  # seconds of search a refusal must not spend


@pytest.mark.parametrize(("options", "says"), [
    (["--json", "myproj/engine.js/fuzz.json"], "--json myproj/engine.js/fuzz.json: myproj/engine.js is a file"),
    (["--json", "myproj"], "--json myproj: is a folder, not a file"),
    (["--json", "/proc/fuzz.json"], "--json /proc/fuzz.json: cannot write in /proc"),
    (["--save", "myproj/engine.js"], "--save myproj/engine.js: is a file, not a folder"),
    (["--save", "myproj/engine.js/repro"], "--save myproj/engine.js/repro: myproj/engine.js is a file"),
])
def test_fuzz_outputs_that_cannot_be_written_are_refused_before_the_search(work, options, says):
    before = tree(work)
    start = time.monotonic()
    refused(conform(work, "fuzz", "--budget", str(FUZZ_BUDGET), "--no-database", "--scenarios", "s", *options,
                    *NEVER_STARTED), says)
    assert time.monotonic() - start < FUZZ_BUDGET / 2  # no search ran
    nothing_else_written(work, before)


def test_fuzz_json_in_a_missing_folder_is_written_whole(work):
    proc = conform(work, "fuzz", "--budget", "1", "--max-examples", "3", "--derandomize", "--no-database",
                   "--scenarios", "s", "--json", "new/folder/fuzz.json", "--save", "new/repro")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    document = json.loads((work / "new" / "folder" / "fuzz.json").read_text(encoding="utf-8"))
    assert document["schema"].startswith("baobei-fuzz") and document["problem"] is None
    assert sorted(p.name for p in (work / "new" / "folder").iterdir()) == ["fuzz.json"]  # no temporary file left


# --- rulings: from any folder, its file checked first ------------------------------------------------------

def test_rulings_json_works_from_a_folder_without_scenarios(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    proc = conform(empty, "rulings", "--json", "--games", "0")
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert json.loads(proc.stdout)["schema"] == "baobei-rulings/1" and proc.stderr == ""
    assert list(empty.iterdir()) == []
    (empty / "blocker").write_text("x", encoding="utf-8")
    refused(conform(empty, "rulings", "--json", "blocker/r.json", "--games", "0"), "--json blocker/r.json: blocker "
            "is a file")


# --- a full disk and a read-only folder, on a small tmpfs of a private mount namespace ----------------------

def in_tmpfs(tmp_path: Path, options: str, argv: list[str]) -> tuple[subprocess.CompletedProcess, Path]:
    """Runs ``baobei-conform argv`` in tmp_path/work with tmp_path/work/fs a tmpfs mounted with ``options``
    in a mount namespace of its own (gone with the command); returns the process and a copy of fs."""
    unshare = shutil.which("unshare")
    if unshare is None:
        pytest.skip("unshare is not installed")
    (tmp_path / "work" / "fs").mkdir(parents=True, exist_ok=True)
    copy = tmp_path / "copy"
    command = " ".join([sys.executable, "-m", "baobei_conform", *(f"'{a}'" for a in argv)])
    script = (f"mount -t tmpfs -o {options} tmpfs fs || exit 99; {command}; rc=$?; "
              f"cp -a fs/. '{copy}/'; exit $rc")
    copy.mkdir()
    for prefix in (["--mount"], ["--user", "--map-root-user", "--mount"]):
        proc = subprocess.run([unshare, *prefix, "sh", "-c", script], cwd=tmp_path / "work", capture_output=True,
                              text=True, timeout=TIMEOUT)
        if proc.returncode != 99 and "unshare failed" not in proc.stderr:
            return proc, copy
    pytest.skip(f"this machine does not allow mounting a tmpfs: {proc.stderr.strip()[-200:]}")


def test_a_full_disk_at_the_end_of_a_run_is_a_message_and_the_partial_results_stay_marked(tmp_path):
    scenarios(tmp_path / "work" / "s", 10)
    proc, fs = in_tmpfs(tmp_path, "size=8k", ["-q", "--scenarios", "s", "--json", "fs/r.json", "--junit", "fs/r.xml",
                                               "--no-report"])
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert "baobei-conform: --json fs/r.json: not written: No space left on device" in proc.stderr
    assert "10 passed" in proc.stdout  # the run itself went on
    document = json.loads((fs / "r.json").read_text(encoding="utf-8"))  # what the stream wrote: whole, marked
    assert document["run"]["complete"] is False and len(document["results"]) < 10
    if (fs / "r.xml").exists():
        assert ET.parse(fs / "r.xml").getroot().find(".//testcase[@name='run-incomplete']") is not None
    assert not [p for p in fs.iterdir() if p.name.endswith(".tmp")]


def test_a_full_disk_while_the_report_is_built_keeps_the_results_and_leaves_no_half_report(tmp_path):
    scenarios(tmp_path / "work" / "s", 2)
    proc, fs = in_tmpfs(tmp_path, "size=64k", ["-q", "--scenarios", "s", "--json", "fs/r.json", "--report",
                                                "fs/report"])
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert "--report fs/report: not written: No space left on device" in proc.stderr
    assert json.loads((fs / "r.json").read_text(encoding="utf-8"))["run"]["complete"] is True
    assert sorted(p.name for p in fs.iterdir()) == ["r.json"]  # no report, no half-built folder


def test_a_read_only_folder_is_refused_before_the_fuzz_search(tmp_path):
    scenarios(tmp_path / "work" / "s", 1)
    proc, fs = in_tmpfs(tmp_path, "ro,size=64k", ["fuzz", "--budget", str(FUZZ_BUDGET), "--no-database",
                                                   "--scenarios", "s", "--json", "fs/fuzz.json"])
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert "--json fs/fuzz.json: cannot write in fs: Read-only file system" in proc.stderr
    assert list(fs.iterdir()) == []
