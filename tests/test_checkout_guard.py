"""The guard of tests/conftest.py: a suite that writes into the checkout fails, naming the files, git-ignored
outputs included; under ``-n 2`` too; and nothing happens outside a git checkout.

Each case is a small git checkout under tmp_path holding a copy of the conftest and one test, run by pytest
in a subprocess: the planted write goes into that copy, never into this checkout.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

CONFTEST = Path(__file__).resolve().parent / "conftest.py"
GIT = shutil.which("git")
TEST = '''
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_writes():
    {body}


def test_other():
    pass
'''


def checkout(root: Path, body: str, git: bool = True) -> Path:
    (root / "tests").mkdir(parents=True)
    shutil.copyfile(CONFTEST, root / "tests" / "conftest.py")
    (root / "tests" / "test_planted.py").write_text(TEST.format(body=body), encoding="utf-8")
    (root / ".gitignore").write_text("__pycache__/\n.pytest_cache/\n/baobei-report/\n", encoding="utf-8")
    (root / "baobei-report").mkdir()
    (root / "baobei-report" / "index.html").write_text("the user's report", encoding="utf-8")
    if git:
        for command in (["init", "-q"], ["add", "-A"],
                        ["-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "x"]):
            subprocess.run([GIT, "-C", str(root), *command], check=True, capture_output=True)
    return root


def pytest_in(root: Path, *options: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *options, "tests"],
                          cwd=root, capture_output=True, text=True, timeout=120)


needs_git = pytest.mark.skipif(GIT is None, reason="git is not installed")


@needs_git
@pytest.mark.parametrize("options", [(), ("-n", "2")])
def test_a_write_into_an_ignored_folder_fails_the_suite(tmp_path, options):
    root = checkout(tmp_path / "repo", '(ROOT / "baobei-report" / "index.html").write_text("replaced")\n'
                                       '    (ROOT / "baobei-report" / "new.html").write_text("new")')
    run = pytest_in(root, *options)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "2 passed" in run.stdout and "the checkout changed during the tests" in run.stdout
    assert "baobei-report/index.html: changed" in run.stdout and "baobei-report/new.html: written" in run.stdout
    assert run.stdout.count("baobei-report/new.html: written") == 1  # the controller alone reports it


@needs_git
def test_a_deleted_file_and_a_new_source_fail_the_suite(tmp_path):
    root = checkout(tmp_path / "repo", '(ROOT / "baobei-report" / "index.html").unlink()\n'
                                       '    (ROOT / "tests" / "notes.txt").write_text("x")')
    run = pytest_in(root)
    assert run.returncode == 1
    assert "baobei-report/index.html: deleted" in run.stdout and "tests/notes.txt: written" in run.stdout


@needs_git
def test_a_suite_that_writes_under_tmp_path_passes(tmp_path):
    root = checkout(tmp_path / "repo", "import tempfile; Path(tempfile.mkdtemp(), 'r.html').write_text('x')")
    run = pytest_in(root, "-n", "2")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "checkout changed" not in run.stdout


def test_outside_a_git_checkout_the_guard_does_nothing(tmp_path):
    root = checkout(tmp_path / "copy", '(ROOT / "baobei-report" / "new.html").write_text("new")', git=False)
    run = pytest_in(root)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "checkout changed" not in run.stdout
