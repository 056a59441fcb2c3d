"""docs/protocol.md says exactly what the code does, and the Node skeleton speaks the protocol.

The doc marks its examples in the fence's info string: ```json session:request / session:reply (one
session with the reference engine, replayed here reply for reply), ```json request / reply:<cmd>
(schema-checked), ```json actions, ```json manifest, ```ndjson wire and ```yaml expectations.
"""

from __future__ import annotations

import dataclasses
import io
import json
import queue
import re
import shutil
import subprocess
import threading
from pathlib import Path

import pytest
import yaml

from baobei_conform.cli.main import main as conform_main
from baobei_conform.engines.commands import COMMANDS
from baobei_conform.engines.reference import ReferenceEngine, params_to_json
from baobei_conform.protocol import PROTOCOL_VERSION
from baobei_conform.protocol.client import ProtocolError, StdioEngine, Unsupported
from baobei_conform.protocol.server import handle, serve
from baobei_conform.protocol.validate import MessageValidator
from baobei_conform.suite.expectations import load_expectations
from baobei_conform.suite.scenario import load_scenario
from baobei_ref.actions import ACTIONS, action_from_json
from baobei_ref.setup import position
from baobei_spec import SPEC_ROOT, default_spec
from baobei_spec.load_contract import CONTRACT_KEYS

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "protocol.md"
SKELETON = ROOT / "examples" / "node-skeleton"
NODE = shutil.which("node")
FENCE = re.compile(r"^```(\w+)[ \t]*([^\n]*)\n(.*?)^```[ \t]*$", re.M | re.S)
CHECKED_LANGS = ("json", "ndjson", "yaml")
TAGS = {"json": ("session:request", "session:reply", "request", "actions", "manifest"),
        "ndjson": ("wire", "transcript", "trace-difference"), "yaml": ("expectations",)}
ACTION_STEPS = {"apply", "new_game", "shuffle", "reject"}
VOCABULARY = default_spec().vocabulary


# --- the doc's examples ------------------------------------------------------------------------------
def doc_text() -> str:
    return DOC.read_text(encoding="utf-8")


def blocks() -> list[tuple[str, str, str, int]]:
    """(language, tag, body, line) of every fenced block."""
    text = doc_text()
    return [(m[1], m[2].strip(), m[3], text.count("\n", 0, m.start()) + 1) for m in FENCE.finditer(text)]


def tagged(lang: str, tag: str) -> list[tuple[str, int]]:
    return [(body, line) for lg, tg, body, line in blocks() if lg == lang and tg == tag]


def session() -> list[tuple[dict, dict]]:
    """The session's (request, reply) pairs in document order."""
    pairs, request = [], None
    for lang, tag, body, line in blocks():
        if (lang, tag) == ("json", "session:request"):
            assert request is None, f"line {line}: two session requests in a row"
            request = json.loads(body)
        elif (lang, tag) == ("json", "session:reply"):
            assert request is not None, f"line {line}: a session reply without its request"
            pairs.append((request, json.loads(body)))
            request = None
    assert request is None, "the session ends with a request without its reply"
    return pairs


def table_rows(heading: str) -> list[list[str]]:
    """The cells of the first table under a ``## heading`` (header and rule excluded)."""
    section = doc_text().split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]
    first = re.search(r"^\|.*\n(?:\|.*\n)*", section, re.M)
    assert first, f"no table under {heading!r}"
    return [[c.strip() for c in ln.strip("|").split(" | ")] for ln in first[0].splitlines()[2:]]


def code_names(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


@pytest.fixture(scope="module")
def validator() -> MessageValidator:
    return MessageValidator()


def test_every_example_is_marked_and_parses():
    seen = []
    for lang, tag, body, line in blocks():
        if lang not in CHECKED_LANGS:
            continue
        known = tag in TAGS[lang] or (lang == "json" and re.fullmatch(r"reply:[a-z_]+", tag))
        assert known, f"docs/protocol.md line {line}: ```{lang} block without a known tag ({tag!r})"
        if lang == "json":
            json.loads(body)
        elif lang == "ndjson":
            [json.loads(ln) for ln in body.splitlines()]
        else:
            yaml.safe_load(body)
        seen.append(tag)
    assert seen.count("session:request") >= 8 and seen.count("session:reply") == seen.count("session:request")
    assert any(t.startswith("reply:") for t in seen)


def test_session_requests_and_replies_validate(validator):
    pairs = session()
    assert [r["seq"] for r, _ in pairs] == list(range(1, len(pairs) + 1))
    cmds = {r["cmd"] for r, _ in pairs}
    assert cmds == set(COMMANDS)  # the session shows every command
    for request, reply in pairs:
        validator.check_request(request)
        assert reply["seq"] == request["seq"]
        validator.check_reply(request["cmd"], reply, json.dumps(reply))


def test_standalone_replies_validate(validator):
    examples = [(tag.split(":", 1)[1], body, line) for lg, tag, body, line in blocks()
                if lg == "json" and tag.startswith("reply:")]
    assert {cmd for cmd, _, _ in examples} >= {"hello", "apply"}
    for cmd, body, line in examples:
        reply = json.loads(body)
        assert isinstance(reply.get("ok"), bool), f"line {line}"
        validator.check_reply(cmd, reply, body)
    for body, _ in tagged("json", "request"):
        validator.check_request(json.loads(body))


def test_the_validator_is_not_vacuous(validator):
    """The same check rejects a broken copy of the doc's examples."""
    hello, reply = session()[0]
    broken = {k: v for k, v in reply.items() if k != "capabilities"}
    with pytest.raises(ProtocolError, match="capabilities"):
        validator.check_reply("hello", broken, json.dumps(broken))
    with pytest.raises(ProtocolError):
        validator.check_request({**hello, "extra": 1})


def test_session_replays_on_the_reference_engine():
    """Every documented reply is the one the reference engine gives, in order."""
    pairs = session()
    out = io.StringIO()
    serve(stdin=io.StringIO("".join(json.dumps(r) + "\n" for r, _ in pairs)), stdout=out)
    actual = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(actual) == len(pairs)
    for (request, documented), got in zip(pairs, actual, strict=True):
        assert got == documented, f"seq {request['seq']} ({request['cmd']})"


def test_session_uses_the_real_handshake_and_a_refused_action_changes_nothing():
    pairs = session()
    hello = pairs[0][0]
    assert hello["protocol"] == PROTOCOL_VERSION and hello["params"] == params_to_json()
    refused = [(r, p) for r, p in pairs if r["cmd"] == "apply" and not p["ok"]]
    assert refused and all(p["error"]["code"] for _, p in refused)
    assert pairs[-1][0]["cmd"] == "stop"


def test_wire_example_is_one_exchange_of_the_session(validator):
    (body, _), = tagged("ndjson", "wire")
    lines = body.splitlines()
    assert len(lines) == 2
    request, reply = (json.loads(ln) for ln in lines)
    assert lines[0] == json.dumps(request, separators=(",", ":"))  # compact, as the harness writes it
    validator.check_request(request)
    validator.check_reply(request["cmd"], reply, lines[1])
    assert (request, reply) in session()


def test_action_examples_round_trip_and_cover_every_type():
    (body, _), = tagged("json", "actions")
    examples = json.loads(body)
    for example in examples:
        assert action_from_json(example).to_json() == example
    assert {e["type"] for e in examples} == set(ACTIONS)


def test_action_table_is_the_vocabulary():
    """One row per action type, its fields in order, the decisions it answers: as spec/vocabulary.yaml says."""
    rows = {code_names(row[0])[0]: row for row in table_rows("4. Actions")}
    assert list(rows) == list(VOCABULARY.actions) == list(ACTIONS)
    for name, fields in VOCABULARY.actions.items():
        assert code_names(rows[name][1]) == list(fields), name
        assert code_names(rows[name][2]) == VOCABULARY.answers(name), name
        assert [f.name for f in dataclasses.fields(ACTIONS[name])] == list(fields), name


def test_error_code_table_is_the_vocabulary():
    section = doc_text().split("\n### 3.3 apply\n", 1)[1].split("\n#### ", 1)[0]
    rows = [ln for ln in section.splitlines() if ln.startswith("| `")]
    documented = [code_names(r)[0] for r in rows]
    assert documented == list(VOCABULARY.error_codes)
    spec = yaml.safe_load((SPEC_ROOT / "errors.yaml").read_text(encoding="utf-8"))
    assert VOCABULARY.error_codes == tuple(e["code"] for e in spec)


def test_the_precedence_names_nothing_pending_for_the_game_over_only():
    """errors.yaml says what the contract does: between rounds a player's action is wrong_decision."""
    errors = default_spec().errors
    assert "game is over" in errors["nothing_pending"].meaning and "Between rounds" in errors["nothing_pending"].meaning
    rows = [r for r in default_spec().contract.refusals if r.code == "nothing_pending"]
    assert [(r.decisions, r.actions) for r in rows] == [(("game_over",), ())]


def test_decision_table_is_the_vocabulary():
    rows = {code_names(row[0])[0]: row for row in table_rows("6. Pending decisions")}
    assert list(rows) == list(VOCABULARY.decisions)
    for kind, types in VOCABULARY.decisions.items():
        assert [n for n in code_names(rows[kind][2]) if n in VOCABULARY.actions] == list(types), kind


def test_event_table_is_the_vocabulary():
    """Every event kind, in the vocabulary's order, one row per situation with its clause; the data fields of a
    kind are the vocabulary's (some situations carry fewer)."""
    rows = [(code_names(row[0])[0], row[1], set(code_names(row[-1]))) for row in table_rows("7. Events")]
    assert list(dict.fromkeys(kind for kind, _, _ in rows)) == list(VOCABULARY.events)
    situations = default_spec().contract.situations()
    assert [(kind, clause) for kind, clause, _ in rows] == [(s.kind, s.clause) for s in situations]
    for kind in VOCABULARY.events:
        fields = set().union(*(f for k, _, f in rows if k == kind)) - {"-"}
        assert fields == set(VOCABULARY.events[kind]), kind


def test_the_discard_clauses_are_told_apart():
    """The table says which of a kind's clauses applies when (the issue that wrote the contract: discarded)."""
    rows = [row for row in table_rows("7. Events") if code_names(row[0])[0] == "discarded"]
    assert [row[1] for row in rows] == ["2.7.3", "2.7.4", "2.8.4", "3.5.4"] and len({row[2] for row in rows}) == 4


def test_manifest_example_is_the_skeleton_manifest():
    (body, _), = tagged("json", "manifest")
    manifest = json.loads((SKELETON / "baobei-engine.json").read_text(encoding="utf-8"))
    assert json.loads(body) == manifest == {"command": ["node", "engine.js"]}


def test_expectations_example_loads(tmp_path):
    (body, _), = tagged("yaml", "expectations")
    path = tmp_path / "expected.yaml"
    path.write_text(body, encoding="utf-8")
    expected = load_expectations(path)
    assert expected and all(e["status"] in ("fail", "error", "skip") for e in expected.values())


def test_the_skeleton_says_where_each_contract_point_bites():
    """engine.js names each part of spec/contract.yaml where an implementer writes the code it constrains."""
    source = (SKELETON / "engine.js").read_text(encoding="utf-8")
    comments = " ".join(line.strip().lstrip("/") for line in source.splitlines() if line.strip().startswith("//"))
    points = {"events": ["exactly the clause of its situation", "window_closed citing B.3", "also and ruling"],
              "refusals": ["first row of the precedence", "bao_not_allowed, never wrong_decision", "malformed_action"],
              "lists": ["players of the round", "clockwise from the active player", "zero-card players included"],
              "views": ["the Shoebill's user sees the two cards"], "legal_actions": ["[2, 1] and of [1, 2]"],
              "moved": ["Toco Toucan's card is in it from the moment it is drawn"]}
    assert set(points) <= set(CONTRACT_KEYS)
    for part, phrases in points.items():
        for phrase in phrases:
            assert phrase in " ".join(comments.split()), f"engine.js says nothing of {part}: {phrase!r}"


# --- the Node skeleton, driven directly ------------------------------------------------------------
needs_node = pytest.mark.skipif(NODE is None, reason="node is not on PATH")


class NodeProcess:
    """The skeleton as a child process: send a line, read one reply line, never hang."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen([NODE, "engine.js"], cwd=SKELETON, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8")
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()
        threading.Thread(target=self.proc.stderr.read, daemon=True).start()

    def _pump(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def send_raw(self, line: str) -> dict:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        reply = self.lines.get(timeout=10)
        assert reply is not None, "the skeleton exited"
        assert reply.endswith("\n") and "\n" not in reply[:-1]
        return json.loads(reply)

    def send(self, message: dict) -> dict:
        return self.send_raw(json.dumps(message, separators=(",", ":")))

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=5)


@pytest.fixture
def node():
    proc = NodeProcess()
    yield proc
    proc.close()


def a_position() -> dict:
    game = position(zones={0: ["owl", "heron", None, "macaw"], 1: ["owl", "eagle", "sparrow", "swallow"]},
                    deck=["white_pelican"], discard=["flamingo"], active=0, known={0: [(0, 1)]})
    return game.to_json()


@needs_node
def test_node_handshake(node, validator):
    request = {"seq": 1, "cmd": "hello", "protocol": PROTOCOL_VERSION, "params": params_to_json()}
    validator.check_request(request)
    reply = node.send(request)
    validator.check_reply("hello", reply, json.dumps(reply))
    assert reply == {"seq": 1, "ok": True, "capabilities": [],
                     "engine": {"name": "node-skeleton", "version": "0.1.0", "language": "javascript"}}


@needs_node
@pytest.mark.parametrize("version", ["1.0", "3.0"])
def test_node_refuses_another_major_version(node, version):
    """Protocol 2.0 changed the canonical state (docs/protocol.md, Changes): a 1.x engine is refused, and so is 3.0."""
    reply = node.send({"seq": 1, "cmd": "hello", "protocol": version, "params": params_to_json()})
    assert reply["seq"] == 1 and reply["ok"] is False and reply["error"]["code"] == "protocol_version"


def test_the_reference_server_refuses_a_protocol_1_harness():
    reply = handle(ReferenceEngine(), {"cmd": "hello", "protocol": "1.0", "params": params_to_json()})
    assert reply["ok"] is False and reply["error"] == {"code": "protocol_version", "message": "speaks 2.1"}


@needs_node
def test_node_setup_state_round_trip(node, validator):
    state = a_position()
    node.send({"seq": 1, "cmd": "hello", "protocol": PROTOCOL_VERSION, "params": params_to_json()})
    for params in (None, {"threshold": {"2": 20}}):
        setup = {"seq": 2, "cmd": "setup", "state": state, "params": params}
        validator.check_request(setup)
        reply = node.send(setup)
        assert reply == {"seq": 2, "ok": True}
        reply = node.send({"seq": 3, "cmd": "state"})
        validator.check_reply("state", reply, json.dumps(reply))
        assert reply["seq"] == 3 and reply["ok"] is True and reply["state"] == state


@needs_node
def test_node_answers_unsupported_and_echoes_seq(node, validator):
    node.send({"seq": 1, "cmd": "hello", "protocol": PROTOCOL_VERSION, "params": params_to_json()})
    node.send({"seq": 2, "cmd": "setup", "state": a_position(), "params": None})
    requests = [{"cmd": "apply", "action": {"type": "draw", "player": 0}}, {"cmd": "new_game", "players": 3},
                {"cmd": "view", "player": 1}, {"cmd": "legal_actions"}]
    for seq, request in enumerate(requests, start=17):
        request = {"seq": seq, **request}
        validator.check_request(request)
        reply = node.send(request)
        validator.check_reply(request["cmd"], reply, json.dumps(reply))
        assert reply["seq"] == seq and reply["ok"] is False and reply["error"]["code"] == "unsupported"
    assert node.send({"seq": 99, "cmd": "state"})["state"] == a_position()  # untouched


@needs_node
def test_node_answers_wrong_input_with_an_error(node):
    for line in ("this is not JSON", "[1, 2]", '{"seq": 4, "cmd": "hel', "42"):
        reply = node.send_raw(line)
        assert reply["ok"] is False and reply["seq"] is None and isinstance(reply["error"]["code"], str)
    reply = node.send({"seq": 5, "cmd": "frobnicate"})
    assert reply["seq"] == 5 and reply["ok"] is False and reply["error"]["code"] == "unsupported"
    reply = node.send({"seq": 6})
    assert reply["seq"] == 6 and reply["ok"] is False
    reply = node.send({"seq": 7, "cmd": "setup", "state": "not a state"})
    assert reply["seq"] == 7 and reply["ok"] is False and reply["error"]["code"] == "engine_error"
    reply = node.send({"seq": 8, "cmd": "state"})  # nothing set up yet: an error, not a crash
    assert reply["seq"] == 8 and reply["ok"] is False
    assert node.send({"seq": 9, "cmd": "hello", "protocol": PROTOCOL_VERSION, "params": params_to_json()})["ok"] is True
    assert node.proc.poll() is None


@needs_node
def test_node_stop_exits_cleanly(node):
    node.send({"seq": 1, "cmd": "hello", "protocol": PROTOCOL_VERSION, "params": params_to_json()})
    assert node.send({"seq": 2, "cmd": "stop"}) == {"seq": 2, "ok": True}
    assert node.proc.wait(timeout=5) == 0
    assert node.lines.get(timeout=5) is None  # nothing after the stop reply


@needs_node
def test_node_exits_at_the_end_of_its_input(node):
    node.proc.stdin.close()
    assert node.proc.wait(timeout=5) == 0


@needs_node
def test_node_through_the_harness_client():
    """The harness's own client, in validation mode, drives the skeleton."""
    engine = StdioEngine([NODE, "engine.js"], params_to_json(), timeout=10, validator=MessageValidator(),
                         cwd=str(SKELETON))
    engine.start()
    try:
        assert engine.name == "node-skeleton" and engine.capabilities == set()
        engine.setup(a_position(), None)
        assert engine.state() == a_position()
        with pytest.raises(Unsupported):
            engine.apply({"type": "draw", "player": 0})
        with pytest.raises(Unsupported):
            engine.view(0)
    finally:
        process = engine.process
        engine.stop()
    assert process.returncode == 0


# --- baobei-conform on the Node skeleton ---------------------------------------------------------
@needs_node
def test_conform_run_on_the_node_skeleton(tmp_path, capsys):
    out = tmp_path / "results.json"
    rc = conform_main([str(SKELETON), "-q", "--validate", "--timeout", "30", "--scenarios", str(ROOT / "scenarios"),
                       "--json", str(out)])
    capsys.readouterr()
    document = json.loads(out.read_text(encoding="utf-8"))
    summary, run = document["summary"], document["run"]
    assert run["complete"] is True
    assert summary["total"] == run["selected"] == len(document["results"]) > 0
    assert document["engine"]["name"] == "node-skeleton" and document["engine"]["capabilities"] == []
    assert summary["errors"] == 0, [r["message"] for r in document["results"] if r["status"] == "error"][:3]
    for result in document["results"]:
        steps = {step["op"] for step in load_scenario(ROOT / result["file"]).steps}
        if result["status"] == "pass":
            assert not steps & ACTION_STEPS, f"{result['id']} passed on an engine that cannot act"
        if steps & ACTION_STEPS:
            assert result["status"] in ("skip", "fail"), result["id"]
    assert rc == (0 if run["broken_files"] == 0 and summary["failed"] == 0 else 1)
