"""``baobei-conform trace`` (a seeded reference game as NDJSON; on an engine, the first difference) and
``--trace-protocol FILE`` (every request and reply of a run, as NDJSON with timestamps)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import jsonschema
import pytest

from baobei_conform.cli.main import main
from baobei_conform.protocol.validate import MessageValidator
from baobei_spec import SPEC_ROOT

ROOT = Path(__file__).resolve().parents[2]
WRONG = ROOT / "examples" / "wrong_engine" / "engine.py"
NOT_JSON = ROOT / "tests" / "conformance" / "engines" / "not_json.py"
SCENARIO = "pluck-double-active-player-may-not-double-on-own-discard"
SERVED = [sys.executable, "-m", "baobei_conform.protocol.server", "serve"]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def records(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


# --- trace: the reference's game ---------------------------------------------------------------------
def test_the_trace_of_a_seeded_game_is_byte_identical_run_to_run(capsys):
    first = run(capsys, "trace", "--seed", "3", "--players", "3")
    second = run(capsys, "trace", "--seed", "3", "--players", "3")
    assert first == second and first[0] == 0
    other = run(capsys, "trace", "--seed", "4", "--players", "3")
    assert other[1] != first[1]  # the seed chooses the game


def test_the_trace_is_the_game_action_by_action(capsys):
    code, out, _ = run(capsys, "trace", "--seed", "3", "--players", "3")
    steps = records(out)
    assert [s["step"] for s in steps] == list(range(len(steps)))
    assert steps[0]["action"] is None and steps[0]["pending"]["kind"] == "first_player"
    assert steps[-1]["pending"]["kind"] == "game_over" and steps[-1]["state"]["winner"] is not None
    schema = json.loads((SPEC_ROOT / "schemas" / "state.schema.json").read_text(encoding="utf-8"))
    for step in steps[:: len(steps) // 5]:
        jsonschema.validate(step["state"], schema)
        assert step["pending"] == step["state"]["pending"]
        assert sorted(step["views"]) == sorted(str(p) for p in step["state"]["players"])
    assert any(e["kind"] == "round_scored" for s in steps for e in s["events"])
    assert all(line == json.dumps(json.loads(line), sort_keys=True, separators=(",", ":"))
               for line in out.splitlines()[:3])  # canonical JSON lines


def test_a_reading_changes_the_traced_game_and_a_bad_one_is_refused(capsys):
    assert run(capsys, "trace", "--seed", "3", "--players", "3", "--max-actions", "5")[0] == 0
    assert run(capsys, "trace", "--seed", "3", "--players", "3", "--reading", "R-15=A",
               "--max-actions", "5")[1] != run(capsys, "trace", "--seed", "3", "--players", "3",
                                              "--max-actions", "5")[1]  # dealt in blocks
    code, out, err = run(capsys, "trace", "--seed", "3", "--players", "3", "--reading", "R-99=Z")
    assert code == 2 and not out and "R-99" in err
    assert run(capsys, "trace", "--seed", "3", "--players", "3", "--reading", "R-05")[0] == 2
    assert run(capsys, "trace", "--seed", "3", "--players", "7")[0] == 2


# --- trace ENGINE: the first difference -------------------------------------------------------------
def test_trace_finds_the_planted_difference_in_the_wrong_engine(capsys):
    code, out, _ = run(capsys, "trace", "--seed", "3", "--players", "3", "--", sys.executable, str(WRONG), "--bug",
                       "first_discard_not_neutral")
    (found,) = records(out)
    assert code == 1
    assert found["check"] == "state" and found["path"] == "state.pending.kind"
    assert (found["reference"], found["engine"]) == ("turn", "window")  # the neutral discard opened a window
    assert found["action"]["type"] == "initial_peek" and "2.3.1" in found["clauses"]


def documented(tag: str) -> list[str]:
    """The lines of docs/protocol.md's ```ndjson TAG block."""
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    return text.split(f"```ndjson {tag}\n", 1)[1].split("```", 1)[0].splitlines()


def test_the_documented_difference_is_what_trace_prints(capsys):
    _, out, _ = run(capsys, "trace", "--seed", "3", "--players", "3", "--", sys.executable, str(WRONG), "--bug",
                    "first_discard_not_neutral")
    assert out.splitlines() == documented("trace-difference")


def test_trace_names_a_difference_in_the_events_by_the_contract(capsys):
    """A failed window pluck without its penalty: the reply's events part first (then the state would)."""
    code, out, _ = run(capsys, "trace", "--seed", "3", "--players", "3", "--", sys.executable, str(WRONG), "--bug",
                       "no_penalty_in_window")
    (found,) = records(out)
    assert code == 1 and found["check"] == "events" and found["action"]["type"] == "pluck"
    assert any(e["kind"] == "penalty" for e in found["reference"]) and "3.5.5" in found["clauses"]
    assert not any(e["kind"] == "penalty" for e in found["engine"])


def test_trace_of_the_reference_over_the_protocol_agrees(capsys):
    code, out, _ = run(capsys, "trace", "--seed", "3", "--players", "3", "--max-actions", "60", "--", *SERVED)
    assert (code, records(out)) == (0, [{"agree": True, "steps": 61}])


def test_trace_reports_an_engine_that_breaks_the_protocol_at_its_step(capsys):
    code, out, _ = run(capsys, "trace", "--seed", "3", "--players", "2", "--", sys.executable, str(NOT_JSON))
    (found,) = records(out)
    assert code == 1 and found["check"] == "error" and found["step"] == 0 and "not JSON" in found["message"]


# --- --trace-protocol ----------------------------------------------------------------------------------
def transcript(path: Path) -> tuple[dict, list[dict]]:
    header, *lines = records(path.read_text(encoding="utf-8"))
    return header, lines


def test_a_run_writes_every_request_and_reply(tmp_path, capsys):
    path = tmp_path / "run.ndjson"
    code, _, _ = run(capsys, "--trace-protocol", str(path), "-k", SCENARIO, "-q", "--no-report")
    header, lines = transcript(path)
    assert code == 0 and header["transcript"] == "baobei-protocol/1" and header["protocol"] == "2.1"
    assert "--trace-protocol" in header["argv"]
    starts = [line for line in lines if "start" in line]
    assert starts and starts[0]["start"][-1] == "serve"  # the reference ran over the protocol
    requests = [line["request"] for line in lines if "request" in line]
    replies = [line["reply"] for line in lines if "reply" in line]
    assert requests[0]["cmd"] == "hello" and {"setup", "apply", "state"} <= {r["cmd"] for r in requests}
    assert [r["seq"] for r in replies] == [r["seq"] for r in requests if r["cmd"] != "stop"]
    times = [line["t"] for line in lines]
    assert times == sorted(times) and all(isinstance(t, float) for t in times)


def test_the_documented_transcript_has_the_shape_of_a_real_one(tmp_path, capsys):
    path = tmp_path / "run.ndjson"
    run(capsys, "--trace-protocol", str(path), "-k", SCENARIO, "-q", "--no-report")
    header, lines = transcript(path)
    doc_header, *doc_lines = [json.loads(line) for line in documented("transcript")]
    assert set(doc_header) == set(header) and doc_header["transcript"] == header["transcript"]
    shapes = {frozenset(line) for line in lines}
    assert all(frozenset(line) in shapes for line in doc_lines)
    validator = MessageValidator()
    for line in doc_lines:
        if "request" in line:
            validator.check_request(line["request"])
        if "reply" in line:
            validator.check_reply("apply", line["reply"], json.dumps(line["reply"]))


def test_a_line_that_is_not_json_is_kept_as_text(tmp_path, capsys):
    path = tmp_path / "bad.ndjson"
    run(capsys, "--trace-protocol", str(path), "-k", SCENARIO, "-q", "--no-report", "--", sys.executable, str(NOT_JSON))
    _, lines = transcript(path)
    assert any(line.get("reply_raw", "").startswith("GARBAGE <<not json>>") for line in lines)


def test_explain_writes_its_transcript(tmp_path, capsys):
    path = tmp_path / "explain.ndjson"
    code, out, _ = run(capsys, "explain", SCENARIO, "--trace-protocol", str(path))
    assert code == 0 and SCENARIO in out
    _, lines = transcript(path)
    assert any(line.get("request", {}).get("cmd") == "setup" for line in lines)


@pytest.mark.parametrize("where", ["a-file/run.ndjson", "."])
def test_an_unwritable_transcript_is_refused_before_anything_runs(tmp_path, capsys, where):
    (tmp_path / "a-file").write_text("mine\n", encoding="utf-8")
    code, out, err = run(capsys, "--trace-protocol", str(tmp_path / where), "-k", SCENARIO, "--no-report")
    assert code == 2 and "baobei-conform: " in err and not out
    assert (tmp_path / "a-file").read_text(encoding="utf-8") == "mine\n"


def test_a_transcript_in_a_missing_folder_is_written_there(tmp_path, capsys):
    path = tmp_path / "missing" / "deeper" / "run.ndjson"
    code, _, _ = run(capsys, "--trace-protocol", str(path), "-k", SCENARIO, "--no-report")
    assert code == 0 and transcript(path)[1]


def test_a_python_engine_has_no_messages_to_trace(tmp_path, capsys):
    path = tmp_path / "run.ndjson"
    code, _, err = run(capsys, "--trace-protocol", str(path), "-k", SCENARIO, "--no-report",
                       "python:baobei_conform.engines.reference:ReferenceEngine")
    assert code == 2 and "in process" in err
