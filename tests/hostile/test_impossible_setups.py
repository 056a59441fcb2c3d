"""``setup`` refuses every position that cannot exist, with ``malformed_state`` naming the field, over the protocol
(``baobei-ref serve``) and in process (``Game.from_json``); an accepted setup is given back exactly by ``state``;
and a malformed request is answered with a protocol error, never with Python's exception text (issue 24, point 5).

The 561 impossible setups are those of ``tools/impossible_setups.py`` (eleven kinds of 51, each a position reached
by seeded play changed one way no play can produce)."""

from __future__ import annotations

import json
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from baobei_conform.engines.reference import ReferenceEngine, params_to_json
from baobei_conform.protocol.client import MAX_LINE
from baobei_conform.protocol.server import Lines, Log, handle
from baobei_ref import Game, RuleError

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import impossible_setups  # noqa: E402

SERVE = [sys.executable, "-m", "baobei_conform.protocol.server", "serve"]
FIELD = {  # the field each kind of impossible setup must be refused for
    "owed_for_a_card_nobody_discarded": "owed_powers", "owed_for_a_plain_bird_or_twice": "owed_powers",
    "macaw_targets_that_are_no_cards": "pending.data", "a_seat_without_a_score": "scores",
    "a_winner_while_play_goes_on": "winner", "a_card_held_at_a_turn_decision": "drawn",
    "a_window_on_a_deck_card": "pending.data.reference", "round_or_turn_zero": ("round", "turn"),
    "a_shield_without_bao": "shield", "a_viewer_named_twice": "seen.", "a_moved_card_named_twice": "moved",
}


@cache
def setups() -> tuple[tuple[str, dict], ...]:
    return tuple(impossible_setups.impossible_setups())


def canonical(state: dict) -> bytes:
    """The canonical JSON of a state: sorted keys, compact (an absent round_zones reads as null)."""
    return json.dumps({"round_zones": None, **state}, sort_keys=True, separators=(",", ":")).encode()


def test_the_generator_makes_561_setups_of_eleven_kinds():
    kinds = [kind for kind, _ in setups()]
    assert len(kinds) == 561 and set(kinds) == set(FIELD) and all(kinds.count(k) == 51 for k in FIELD)


def test_every_impossible_setup_is_refused_in_process_for_its_field():
    for kind, state in setups():
        with pytest.raises(RuleError) as refused:
            Game.from_json(state)
        assert refused.value.code == "malformed_state", kind
        assert refused.value.message.startswith(FIELD[kind]), (kind, refused.value.message)


def test_every_impossible_setup_is_refused_over_the_protocol():
    replies = impossible_setups.replies(SERVE, list(setups()))
    for (kind, _), reply in zip(setups(), replies, strict=True):
        assert reply["ok"] is False and reply["error"]["code"] == "malformed_state", (kind, reply)
        assert reply["error"]["message"].startswith(FIELD[kind]), (kind, reply)
    assert impossible_setups.main([]) == 0  # the tool says none was accepted


def test_the_server_keeps_its_game_when_a_setup_is_refused():
    kind, state = setups()[0]
    engine, log = ReferenceEngine(), Log()
    good = next(impossible_setups.reached(1))
    assert handle(engine, {"cmd": "setup", "state": good, "params": None}, log)["ok"]
    assert handle(engine, {"cmd": "setup", "state": state, "params": None}, log)["error"]["code"] == "malformed_state"
    assert handle(engine, {"cmd": "state"}, log)["state"] == good


def test_an_accepted_setup_is_given_back_byte_for_byte_over_the_protocol():
    states = [s for i, s in enumerate(impossible_setups.reached(12)) if i % 7 == 0]
    lines = [json.dumps({"seq": 1, "cmd": "hello", "protocol": "2.0", "params": params_to_json()})]
    for i, state in enumerate(states):
        lines += [json.dumps({"seq": 2 * i + 2, "cmd": "setup", "state": state, "params": None}),
                  json.dumps({"seq": 2 * i + 3, "cmd": "state"})]
    done = subprocess.run(SERVE, input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=300)
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(replies) == 2 * len(states) + 1 and len({s["pending"]["kind"] for s in states}) >= 8
    for i, state in enumerate(states):
        assert replies[2 * i + 1] == {"ok": True, "seq": 2 * i + 2}
        assert canonical(replies[2 * i + 2]["state"]) == canonical(state), state["pending"]


MALFORMED = [  # (request, code, what the message must say)
    ({"seq": 1, "cmd": "teleport"}, "unsupported", "unknown command 'teleport'"),
    ({"seq": 1}, "unsupported", "unknown command None"),
    ({"seq": 1, "cmd": "setup", "params": None}, "engine_error", "setup: missing field state"),
    ({"seq": 1, "cmd": "apply"}, "engine_error", "apply: missing field action"),
    ({"seq": 1, "cmd": "view"}, "engine_error", "view: missing field player"),
    ({"seq": 1, "cmd": "state", "player": 0}, "engine_error", "state: unknown field player"),
    ({"seq": 1, "cmd": "setup", "state": [], "params": None}, "engine_error", "setup: state must be a JSON object"),
    ({"seq": 1, "cmd": "setup", "state": {}, "params": 3}, "engine_error", "setup: params must be a JSON object"),
    ({"seq": 1, "cmd": "view", "player": "p0"}, "engine_error", "view: player must be an integer"),
    ({"seq": 1, "cmd": "new_game", "players": True}, "engine_error", "new_game: players must be an integer"),
    ({"seq": 1, "cmd": "hello", "protocol": 2, "params": {}}, "engine_error", "hello: protocol must be a string"),
    ({"seq": 1, "cmd": "hello", "protocol": "2.0", "params": {}}, "engine_error", "hello: params lacks catalog"),
    ({"seq": 1, "cmd": "state"}, "engine_error", "state: no game yet"),
    ({"seq": 1, "cmd": "view", "player": 0}, "engine_error", "view: no game yet"),
    ({"seq": 1, "cmd": "apply", "action": {"type": "draw", "player": 0}}, "engine_error", "apply: no game yet"),
    ({"seq": 1, "cmd": "legal_actions"}, "engine_error", "legal_actions: no game yet"),
    ({"seq": 0, "cmd": "stop"}, "engine_error", "seq must be an integer from 1"),
    ({"cmd": "stop"}, "engine_error", "seq must be an integer from 1"),
]
AFTER_A_GAME = [
    ({"seq": 2, "cmd": "view", "player": 99}, "engine_error", "view: player 99 is not at the table (seats 0 to 1)"),
    ({"seq": 2, "cmd": "setup", "state": {}, "params": {"treshold": {"2": 5}}}, "engine_error",
     "setup: params has unknown key treshold"),
    ({"seq": 2, "cmd": "setup", "state": {}, "params": {"catalog": []}}, "engine_error",
     "setup: params.catalog must be a list of species"),
    ({"seq": 2, "cmd": "setup", "state": {}, "params": {"threshold": {"two": 5}}}, "engine_error",
     "setup: params.threshold: 'two' is no player count"),
    ({"seq": 2, "cmd": "apply", "action": {"type": {}, "player": 0}}, "malformed_action", None),
    ({"seq": 2, "cmd": "apply", "action": "draw"}, "malformed_action", None),
    ({"seq": 2, "cmd": "apply", "action": {"type": "simultaneous_plucks", "claims": "p1"}}, "malformed_action", None),
]
PYTHON = ("Traceback", "Error:", "'NoneType'", "object has no attribute", "KeyError", "TypeError")


def _serve(lines: list[bytes], *args: str) -> list[dict]:
    done = subprocess.run([*SERVE, *args], input=b"".join(line + b"\n" for line in lines), capture_output=True,
                          timeout=120)
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr[-2000:]
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_malformed_requests_get_protocol_errors_never_python_text():
    hello = {"seq": 1, "cmd": "hello", "protocol": "2.0", "params": params_to_json()}
    new = {"seq": 1, "cmd": "new_game", "players": 2}
    lines = [json.dumps(r).encode() for r, _, _ in MALFORMED] + [json.dumps(hello).encode(), json.dumps(new).encode()]
    lines += [json.dumps(r).encode() for r, _, _ in AFTER_A_GAME] + [b"[1, 2]", b"{not json", b"[" * 100 + b"]" * 100]
    replies = _serve(lines)
    expected = [*MALFORMED, (hello, None, None), (new, None, None), *AFTER_A_GAME,
                (None, "engine_error", "a request is a JSON object"), (None, "engine_error", "one line of JSON"),
                (None, "engine_error", "nested more than 64 levels deep")]
    assert len(replies) == len(expected)
    for (request, code, says), reply in zip(expected, replies, strict=True):
        if code is None:
            assert reply["ok"] is True, reply
            continue
        assert reply["ok"] is False and reply["error"]["code"] == code, (request, reply)
        message = reply["error"].get("message", "")
        assert says is None or says in message, (request, reply)
        assert not any(text in message for text in PYTHON), (request, reply)
        assert reply["seq"] == (request or {}).get("seq"), (request, reply)


def test_a_request_line_is_capped():
    """A 60 MB line is answered as too long (dropped as it arrives, never held whole) and the next request is
    served; a line under the cap but several MB long is read whole."""
    huge = b'{"seq": 1, "cmd": "state", "pad": "' + b"x" * (60 << 20) + b'"}'
    long = b'{"seq": 2, "cmd": "state", "pad": "' + b"x" * (8 << 20) + b'"}'
    replies = _serve([huge, long, b'{"seq": 3, "cmd": "new_game", "players": 2}', b'{"seq": 4, "cmd": "stop"}'])
    assert [r["seq"] for r in replies] == [None, 2, 3, 4]
    assert replies[0]["error"] == {"code": "engine_error", "message": f"a request line is at most {MAX_LINE} bytes "
                                                                      "(docs/protocol.md 1)"}
    assert replies[1]["error"]["message"].startswith("state: unknown field pad")
    small = _serve([b'{"seq": 1, "cmd": "new_game", "players": 2}' + b" " * 100, b'{"seq": 2, "cmd": "stop"}'],
                   "--max-line", "64")
    assert small[0]["error"]["message"] == "a request line is at most 64 bytes (docs/protocol.md 1)"


def test_request_lines_are_cut_from_reads_in_one_pass():
    """Lines across reads, several in one read, one too long (None, its bytes never kept beyond the cap), the last
    one without its newline; the buffer never holds more than the cap."""
    lines = Lines(limit=10)
    out = [*lines.feed(b"ab"), *lines.feed(b"c\nde\nf"), *lines.feed(b"ghijklmnopqrstuvwxyz")]
    assert out == [b"abc", b"de"] and len(lines.buffer) == 0  # the long line is being dropped
    out = [*lines.feed(b"xyz\n0123456789\n01234567890\nlast")]
    assert out == [None, b"0123456789", None] and lines.close() == [b"last"]
    capped = Lines(limit=1 << 20)  # 6.5 MB of one line, 64 KB at a time, against a 1 MB cap
    most = 0
    for _ in range(100):
        assert capped.feed(b"y" * 65536) == []
        most = max(most, len(capped.buffer))
    assert most <= 1 << 20 and capped.close() == [None]
