"""The pytest plugin in an implementer's own repository: ``pytest --baobei-engine SPEC`` collects scenarios as
items and runs them on that engine; without the option, a project's own YAML files are never taken as
scenarios. (The installed suite from an empty folder, serial and under xdist: test_install.py.)"""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

from test_cli_conventions import WINDOW, WRONG
from test_harness import SCENARIOS, write_scenarios


def pytest_in(folder: Path, *argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *argv], cwd=folder,
                          capture_output=True, text=True, timeout=300)


def test_engine_failures_are_explained_as_pytest_failures(tmp_path, monkeypatch):
    monkeypatch.setitem(SCENARIOS, "own-window", WINDOW)
    suite = write_scenarios(tmp_path / "suite", ["own-window", "basic-draw-discard"])
    wrong = shlex.join([*WRONG, "--bug", "active_plucks_own_discard"])
    proc = pytest_in(tmp_path, "--baobei-engine", wrong, "--baobei-scenarios", str(suite), "--baobei-lang", "nl")
    assert proc.returncode == 1, proc.stdout[-3000:]
    assert "1 failed, 1 passed" in proc.stdout
    assert "pending:  window p1" in proc.stdout and "pending.players: engine [0, 1], reference [1]" in proc.stdout
    assert "own-window" in proc.stdout and "basic-draw-discard" not in proc.stdout.split("short test summary")[-1]


def test_known_failures_are_xfail(tmp_path, monkeypatch):
    monkeypatch.setitem(SCENARIOS, "own-window", WINDOW)
    suite = write_scenarios(tmp_path / "suite", ["own-window"])
    known = tmp_path / "known.yaml"
    known.write_text("own-window: {status: fail, reason: we let the discarder claim}\n", encoding="utf-8")
    wrong = shlex.join([*WRONG, "--bug", "active_plucks_own_discard"])
    proc = pytest_in(tmp_path, "--baobei-engine", wrong, "--baobei-scenarios", str(suite),
                     "--baobei-expectations", str(known))
    assert proc.returncode == 0 and "1 xfailed" in proc.stdout, proc.stdout[-3000:]


def test_a_bad_engine_specifier_is_a_usage_error(tmp_path):
    proc = pytest_in(tmp_path, "--baobei-engine", "./no_such_engine")
    assert proc.returncode == 4  # pytest's usage error
    assert "baobei: ./no_such_engine: not 'reference'" in proc.stderr


def test_a_projects_own_yaml_is_not_taken_for_a_scenario(tmp_path):
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "scenarios" / "config.yaml").write_text("name: not a scenario\n", encoding="utf-8")
    (tmp_path / "test_mine.py").write_text("def test_mine():\n    pass\n", encoding="utf-8")
    proc = pytest_in(tmp_path)
    assert proc.returncode == 0 and "1 passed" in proc.stdout, proc.stdout[-2000:]
