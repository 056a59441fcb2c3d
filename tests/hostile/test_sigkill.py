"""``kill -9`` of ``baobei-conform`` at random moments never leaves a truncated or mixed results file or report.

After each kill: the JSON and JUnit files parse (the previous run's, or this run's so far, which says
how many scenarios ran); the report folder is either the previous one, untouched, or a complete new one.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

from baobei_conform.files.outputs import MARKER

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "scenarios" / "3-pluck").glob("*.yaml"))[:5]
TRIALS = 20
MARK = "PREVIOUS-RUN"  # a file only the previous report folder holds (listed in its marker: the tool's own)


def plant_mark(report: Path) -> None:
    """MARK in the report, listed in its marker as one of the files the tool wrote, so the next run may replace
    the folder (a file the marker does not list would make it refuse)."""
    (report / MARK).write_text("")
    marker = json.loads((report / MARKER).read_text(encoding="utf-8"))
    marker["files"].append(MARK)
    (report / MARKER).write_text(json.dumps(marker), encoding="utf-8")


def check(out: Path, previous_index: bytes | None) -> str:
    """What the kill left: 'previous', 'new' or 'none' for the report; fails on anything truncated or mixed."""
    results = out / "r.json"
    if results.exists():
        doc = json.loads(results.read_text(encoding="utf-8"))
        assert doc["summary"]["total"] == len(doc["results"]) <= len(SCENARIOS)
    if (out / "r.xml").exists():
        ET.parse(out / "r.xml")
    report = out / "report"
    if not report.exists():
        return "none"
    if (report / MARK).exists():
        assert (report / "index.html").read_bytes() == previous_index, "the previous report was changed in place"
        return "previous"
    assert (report / "index.html").is_file() and (report / "static" / "report.css").is_file()
    assert len(list((report / "scenarios").glob("*.html"))) == len(SCENARIOS), "a report without all its pages"
    return "new"


def test_sigkill_at_random_moments(tmp_path):
    suite = tmp_path / "suite"
    suite.mkdir()
    for f in SCENARIOS:
        shutil.copy(f, suite)
    out = tmp_path / "out"
    out.mkdir()
    command = [sys.executable, "-m", "baobei_conform.cli.main", "-q", "--scenarios", str(suite), "--json",
               str(out / "r.json"), "--junit", str(out / "r.xml"), "--report", str(out / "report")]
    start = time.monotonic()
    subprocess.run(command, check=True, capture_output=True, cwd=tmp_path, timeout=120)
    duration = time.monotonic() - start
    rng = random.Random(14)
    seen = []
    for _ in range(TRIALS):
        previous_index = None
        if (out / "report").exists():
            plant_mark(out / "report")
            previous_index = (out / "report" / "index.html").read_bytes()
        process = subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.0, duration * 1.1))
        process.kill()
        process.wait()
        seen.append(check(out, previous_index))
    assert "previous" in seen or "new" in seen
    if (out / "report").exists():
        plant_mark(out / "report")
    subprocess.run(command, check=True, capture_output=True, cwd=tmp_path, timeout=120)  # not refused
    assert check(out, None) == "new"
