"""The golden files (tests/goldens/: playthroughs and perft counts) still describe the reference's behaviour."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "goldens.py"


def _check(folder: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(TOOL), "--check", "--dir", str(folder)], capture_output=True,
                          text=True, timeout=600, cwd=ROOT)


def test_the_reference_still_plays_the_golden_games():
    """Fails with a unified diff when a rule changes what the seeded games do or how many actions are legal."""
    run = _check(ROOT / "tests" / "goldens")
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "5 golden files match" in run.stdout


def test_a_changed_golden_is_reported_as_a_unified_diff(tmp_path):
    folder = tmp_path / "goldens"
    shutil.copytree(ROOT / "tests" / "goldens", folder)
    perft = folder / "perft.txt"
    text = perft.read_text(encoding="utf-8")
    first = next(line for line in text.splitlines() if "depth 1 " in line)  # e.g. "... depth 1 11, depth 2 ..."
    perft.write_text(text.replace("depth 1 ", "depth 1 9", 1), encoding="utf-8")
    (folder / "playthrough_two_players.txt").unlink()
    run = _check(folder)
    assert run.returncode == 1 and "2 golden file(s) differ" in run.stdout
    assert f"--- {perft} (golden)" in run.stdout and f"+++ {perft} (now)" in run.stdout
    assert f"\n-{first.replace('depth 1 ', 'depth 1 9', 1)}\n" in run.stdout  # the edited golden line
    assert f"\n+{first}\n" in run.stdout  # what the reference counts
