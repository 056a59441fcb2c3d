"""``baobei-conform fuzz --jobs N``: N searches in N processes, the same games as one job, one problem reported."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

from baobei_conform.cli.main import main
from baobei_conform.fuzz.jobs import EngineSpec, search_jobs
from baobei_conform.harness.factory import engine_factory

ROOT = Path(__file__).resolve().parents[2]
WRONG = ROOT / "examples" / "wrong_engine" / "engine.py"
SERVE = [sys.executable, "-m", "baobei_conform.protocol.server", "serve"]


def _search(jobs: int, examples: int):
    spec = EngineSpec(None, SERVE, 10.0)
    factory, _ = engine_factory(spec.engine, spec.command, spec.timeout)
    engine = factory()
    try:
        return search_jobs(engine, spec, jobs, max_examples=examples, budget=120, derandomize=True, database=None,
                           players=(2, 3))
    finally:
        engine.stop()


def test_two_jobs_play_the_very_games_one_job_plays():
    one, two = _search(1, 10), _search(2, 10)
    assert one.found is None and two.found is None
    assert two.coverage.actions == one.coverage.actions > 0  # rounds 0 and 1 of one job = round 0 of each job
    assert two.coverage.clauses == one.coverage.clauses
    assert two.coverage.examples == one.coverage.examples and two.rounds == one.rounds == 2


def test_a_problem_found_by_any_job_is_reported_once_with_its_reproducer(tmp_path):
    out = tmp_path / "fuzz.json"
    code = main(["fuzz", "--jobs", "2", "--derandomize", "--budget", "90", "--max-examples", "10", "--no-database",
                 "--json", str(out),
                 "--", sys.executable, str(WRONG), "--bug", "power_on_replaced_card"])
    document = json.loads(out.read_text(encoding="utf-8"))
    assert code == 1 and document["options"]["jobs"] == 2
    assert document["problem"]["check"] == "events" and document["problem"]["reproducer"]["verified"]


def test_a_job_whose_engine_does_not_start_fails_the_run(tmp_path, capsys):
    once = tmp_path / "once.py"  # starts the first time only: job 0's engine runs, job 1's cannot start
    once.write_text(textwrap.dedent(f"""\
        import pathlib, sys
        marker = pathlib.Path({str(tmp_path / "started")!r})
        if marker.exists():
            sys.exit("started once already")
        marker.touch()
        from baobei_conform.protocol.server import main
        sys.exit(main(["serve"]))
        """), encoding="utf-8")
    code = main(["fuzz", "--jobs", "2", "--derandomize", "--budget", "30", "--no-database", "--",
                 sys.executable, str(once)])
    assert code == 2
    assert "fuzzing job 1 failed" in capsys.readouterr().err


def test_a_problem_found_stands_when_another_job_fails(tmp_path, capsys):
    once = tmp_path / "once.py"  # job 0's engine is the wrong engine; job 1's fails its start, seconds later
    once.write_text(textwrap.dedent(f"""\
        import pathlib, sys, time
        marker = pathlib.Path({str(tmp_path / "started")!r})
        if marker.exists():
            time.sleep(5)  # job 0 finds its problem in its first round meanwhile
            sys.exit("started once already")
        marker.touch()
        sys.path.insert(0, {str(WRONG.parent)!r})
        from engine import main
        sys.exit(main(["--bug", "view_shows_own_cards"]))
        """), encoding="utf-8")
    out = tmp_path / "fuzz.json"
    code = main(["fuzz", "--jobs", "2", "--derandomize", "--budget", "30", "--no-database", "--json", str(out), "--",
                 sys.executable, str(once)])
    document = json.loads(out.read_text(encoding="utf-8"))
    assert code == 1 and document["problem"]["check"] == "view"
    assert any(note.startswith("fuzzing job 1 failed") for note in document["notes"]), document["notes"]


STOP_UNDER_SIGNALS = """
import os, signal, sys
from baobei_conform.fuzz.jobs import stop_shielded
signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # as a job sets it
class Engine:
    def stop(self):
        os.kill(os.getpid(), signal.SIGTERM)  # the parent's terminate, arriving while the engine stops
        os.kill(os.getpid(), signal.SIGINT)
        print("killed", flush=True)  # the engine's kill, after the signals
try:
    stop_shielded(Engine())
finally:
    print("done", flush=True)
"""


def test_signals_while_a_job_stops_its_engine_do_not_cut_the_kill_short():
    import subprocess

    done = subprocess.run([sys.executable, "-c", STOP_UNDER_SIGNALS], capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == ["killed", "done"], (done.stdout, done.stderr)
