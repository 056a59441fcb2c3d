"""10,000 random or mutated messages to ``baobei-ref serve``: every one answered, none crashes it, and a
message that is not accepted (``ok: false``) never changes the state. Setups are half of them: real
positions (from seeded games and the scenarios) and mutations of them (issue 14, point 7: ``active: -1``)."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path

from baobei_conform.engines.reference import ReferenceEngine, params_to_json
from baobei_conform.protocol.server import Log, _answer
from baobei_conform.suite.scenario import load_scenario, scenario_files
from baobei_ref import Game
from baobei_ref.playout import choose

ROOT = Path(__file__).resolve().parents[2]
MESSAGES = 10_000
ODD = [-1, 0, 1, 2, 7, 99, 10 ** 30, -(10 ** 30), 1.5, float("nan"), float("inf"), "x", "owl-1", "owl-99", "", None,
       True, False, [], {}, [0, 1], [None], {"card": "owl-1", "species": "eagle"}, {"player": 0, "targets": [[1, 1]]},
       {"for": "shoebill", "player": 0, "rival": None, "cards": ["owl-1"]},
       [{"player": 0, "card": "owl-1", "clause": "6.1.2"}]]


def positions() -> list[dict]:
    """Real positions: every state of a few seeded games, and every scenario's setup."""
    found = []
    for seed in range(12):
        rng = random.Random(seed)
        game = Game(players=2 + seed % 5)
        for _ in range(60):
            if game.pending.kind == "game_over":
                break
            game.apply(choose(game, rng))
            found.append(game.to_json())
    for path in scenario_files([ROOT / "scenarios"]):
        found += [step["state"] for step in load_scenario(path).steps if step["op"] == "setup"]
    return found


def mutate(value, rng: random.Random):
    """The value with one random change somewhere inside."""
    if isinstance(value, dict) and value and rng.random() < 0.8:
        key = rng.choice(list(value))
        choice = rng.random()
        if choice < 0.1:
            return {k: v for k, v in value.items() if k != key}
        if choice < 0.15:
            return {**value, "extra": rng.choice(ODD)}
        return {**value, key: mutate(value[key], rng)}
    if isinstance(value, list) and value and rng.random() < 0.8:
        i = rng.randrange(len(value))
        choice = rng.random()
        if choice < 0.15:
            return value[:i] + value[i + 1:]
        if choice < 0.3:
            return value + [value[i]]
        return value[:i] + [mutate(value[i], rng)] + value[i + 1:]
    return copy.deepcopy(rng.choice(ODD))


def message(rng: random.Random, engine: ReferenceEngine, states: list[dict]) -> bytes:
    roll = rng.random()
    if roll < 0.15:
        request = {"cmd": "setup", "state": rng.choice(states), "params": None}
    elif roll < 0.5:
        request = {"cmd": "setup", "state": mutate(rng.choice(states), rng), "params": None}
    elif roll < 0.75 and engine.game is not None and engine.game.pending.kind != "game_over":
        action = choose(engine.game, rng).to_json()
        request = {"cmd": "apply", "action": action if rng.random() < 0.6 else mutate(action, rng)}
    elif roll < 0.8:
        request = {"cmd": "apply", "action": mutate({"type": "draw", "player": 0}, rng)}
    elif roll < 0.85:
        request = {"cmd": rng.choice(["state", "view", "legal_actions", "stop?", "hello"]), "player": rng.choice(ODD)}
    elif roll < 0.9:
        request = {"cmd": "new_game", "players": rng.choice(ODD)}
    elif roll < 0.95:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))
    else:
        request = mutate({"cmd": "apply", "action": {"type": "keep", "player": 0, "slot": 1}}, rng)
    request = {"seq": rng.randrange(1, 10 ** 6), **request} if isinstance(request, dict) else request
    return json.dumps(request).encode()


def table(engine: ReferenceEngine):
    return None if engine.game is None else engine.game.to_json()


def test_ten_thousand_messages_to_the_server(tmp_path):
    states = positions()
    rng = random.Random(15)
    engine, log = ReferenceEngine(), Log()
    engine.configure(params_to_json())
    refused_setups = accepted_setups = 0
    for _ in range(MESSAGES):
        line = message(rng, engine, states)
        before = table(engine)
        reply = json.loads(_answer(engine, line, log)[0])
        assert isinstance(reply["ok"], bool)
        if not reply["ok"]:
            assert table(engine) == before, (line[:300], reply)
        if b'"setup"' in line:
            refused_setups += not reply["ok"]
            accepted_setups += reply["ok"]
    assert refused_setups > 2000 and accepted_setups > 1000


def test_malformed_positions_are_refused_with_malformed_state():
    state = next(s for s in positions() if s["pending"]["kind"] == "turn" and s["deck"] and s["discard"])
    engine, log = ReferenceEngine(), Log()
    for change, why in [({"active": -1}, "active: must be one of the round's players"),
                        ({"seats": 9}, "seats: must be an integer from 2 to 6"),
                        ({"deck": state["deck"] + state["deck"][:1]}, "(every card is in exactly one place)"),
                        ({"top": "owl-1"}, "top: must be the last card of the discard pile"),
                        ({"pending": {**state["pending"], "kind": "drawn"}},
                         "drawn: is the card the active player holds, set exactly at a 'drawn' decision"),
                        ({"scores": {"0": "x"}}, "scores.0: must be an integer"),
                        ({"pluck": {"player": 0, "targets": [[1, 1]]}}, "pluck: is the successful pluck owing gifts "
                                                                         "exactly while a 'gift' is pending"),
                        ({"drawing": {"for": "turn", "player": 0, "rival": None, "cards": []}},
                         "drawing: is the draw a recycle interrupted exactly while a 'recycle' is pending"),
                        ({"owed_powers": [{"player": 0, "card": "owl-1", "clause": "6.8.1"}]},
                         "owed_powers[0].clause: must be one of")]:
        request = json.dumps({"seq": 1, "cmd": "setup", "state": {**state, **change}, "params": None})
        reply = json.loads(_answer(engine, request, log)[0])
        assert reply["ok"] is False and reply["error"]["code"] == "malformed_state", reply
        assert why in reply["error"]["message"], reply
        assert engine.game is None  # nothing adopted


def test_the_real_server_process_survives_random_lines():
    rng = random.Random(16)
    states = positions()[:50]
    engine = ReferenceEngine()
    lines = [message(rng, engine, states).replace(b"\n", b" ") for _ in range(300)]
    proc = subprocess.run([sys.executable, "-m", "baobei_conform.protocol.server", "serve"],
                          input=b"\n".join(lines) + b"\n", capture_output=True, timeout=120)
    replies = [json.loads(r) for r in proc.stdout.decode().splitlines()]
    asked_to_stop = next((i for i, line in enumerate(lines) if b'"cmd": "stop"' in line), None)
    assert proc.returncode == 0 and b"Traceback" not in proc.stderr
    assert len(replies) == (asked_to_stop + 1 if asked_to_stop is not None else len([ln for ln in lines if ln.strip()]))
