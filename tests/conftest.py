"""Shared test setup, and the guard that the suite leaves the checkout as it found it.

Tests write only under their temporary folders. The guard holds them to it: at the start of the session
it notes every file git reports as changed, untracked or ignored (a report folder the suite replaced is
as much a change as an edited source), with its size and modification time, and at the end it fails the
run naming each file that appeared, changed or went. Caches are left out (compiled Python, pytest's,
Hypothesis', the virtualenv's). It runs in the controller only (under ``pytest -n 2`` the workers share
the checkout) and does nothing outside a git checkout (the tests run from an installed copy).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CACHES = ("**/__pycache__/**", ".venv*/**", "**/*.egg-info/**", "**/.pytest_cache/**", "**/.hypothesis/**",
          "**/.mypy_cache/**", "**/.ruff_cache/**")
CACHE = "BAOBEI_CACHE_DIR"  # where compiled scenarios are cached (conformance/suite/cache.py)
CHANGED = pytest.StashKey[list]()
BEFORE = pytest.StashKey[dict]()
SAVED_CACHE = pytest.StashKey[str | None]()


def checkout_files(root: Path = ROOT) -> dict[str, tuple[str, int, int]] | None:
    """Every file of the checkout that is not as committed: path -> (git status, size, mtime in ns); None when
    ``root`` is not the top of a git checkout."""
    git = shutil.which("git")
    if git is None:
        return None
    top = subprocess.run([git, "-C", str(root), "rev-parse", "--show-toplevel"], capture_output=True, text=True)
    if top.returncode or Path(top.stdout.strip()).resolve() != root.resolve():
        return None
    excluded = [f":(exclude,glob){pattern}" for pattern in CACHES]
    status = subprocess.run([git, "-C", str(root), "status", "--porcelain=v1", "-z", "--ignored",
                             "--untracked-files=all", "--", ".", *excluded], capture_output=True, text=True,
                            check=True)
    files = {}
    for entry in filter(None, status.stdout.split("\0")):
        code, path = entry[:2], entry[3:]
        try:
            info = os.lstat(root / path)
            files[path] = (code, info.st_size, info.st_mtime_ns)
        except FileNotFoundError:
            files[path] = (code, -1, 0)
    return files


def changes(before: dict, after: dict) -> list[str]:
    """What differs between two ``checkout_files``, one line per file."""
    lines = [f"{path}: written" for path in sorted(after) if path not in before]
    lines += [f"{path}: changed" for path in sorted(after) if path in before and after[path] != before[path]]
    lines += [f"{path}: deleted" for path in sorted(before) if path not in after]
    return lines


def pytest_configure(config: pytest.Config) -> None:
    """The cache of compiled scenarios in a folder of this session, never the user's: the controller makes it, its
    workers and every process a test starts inherit it, and it goes with the session."""
    if not hasattr(config, "workerinput"):
        config.stash[SAVED_CACHE] = os.environ.get(CACHE)
        os.environ[CACHE] = tempfile.mkdtemp(prefix="baobei-test-cache-")


def pytest_unconfigure(config: pytest.Config) -> None:
    if SAVED_CACHE in config.stash:
        shutil.rmtree(os.environ[CACHE], ignore_errors=True)
        saved = config.stash[SAVED_CACHE]
        if saved is None:
            os.environ.pop(CACHE, None)
        else:
            os.environ[CACHE] = saved


def pytest_sessionstart(session: pytest.Session) -> None:
    if not hasattr(session.config, "workerinput"):
        files = checkout_files()
        if files is not None:
            session.config.stash[BEFORE] = files


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    before = session.config.stash.get(BEFORE, None)
    if before is None:
        return
    found = changes(before, checkout_files() or {})
    session.config.stash[CHANGED] = found
    if found and session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter, exitstatus, config: pytest.Config) -> None:
    found = config.stash.get(CHANGED, [])
    if found:
        terminalreporter.section("the checkout changed during the tests", sep="=", red=True, bold=True)
        terminalreporter.line("tests must write under tmp_path only; these files were touched:")
        for line in found[:50]:
            terminalreporter.line(f"  {line}")
        if len(found) > 50:
            terminalreporter.line(f"  ... and {len(found) - 50} more")


@pytest.fixture(autouse=True)
def report_in_tmp(tmp_path, monkeypatch):
    """In-process runs of baobei-conform write their default HTML report under tmp_path, not the checkout."""
    import baobei_conform.cli.main

    monkeypatch.setattr(baobei_conform.cli.main, "DEFAULT_REPORT_DIR", str(tmp_path / "baobei-report"))
