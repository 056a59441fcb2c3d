"""``baobei-conform trace``: a seeded reference game action by action, and the first place an engine parts from it.

    baobei-conform trace --seed 7 --players 3                     # the game as NDJSON: one line per action
    baobei-conform trace --seed 7 --players 3 --reading R-05=A    # under another reading of a ruling
    baobei-conform trace --seed 7 --players 3 ./my_engine         # the same actions on an engine: the first difference

The game is played by the fuzzer's policy from a seeded generator (no Hypothesis, no search): the same seed gives
the same actions, byte for byte the same lines. Each line: ``step``, the ``action``, its ``events``, the
``pending`` decision and the canonical ``state`` after it, every player's ``view`` (step 0: the new game). With an
engine, the same actions go to it after ``new_game``; after each one its events (by the contract: every field but
``also`` and ``ruling``), state, views and legal actions (as sets) are compared with the reference's, and the first
difference is printed as one line (the JSON path and both values); exit 1, or 0 with ``{"agree": true}``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections.abc import Iterator
from typing import Any

from baobei_conform.engines.api import Engine, EngineProblem, Unsupported
from baobei_conform.fuzz.choices import Seeded
from baobei_conform.fuzz.policy import choose
from baobei_conform.options import positive
from baobei_conform.runner.diff import ABSENT, first_leaf
from baobei_ref import CHANCE, Game, default_params, unknown_readings
from baobei_spec.contract import action_key, compared_events

BAO_PERCENT = 4  # the policy's eagerness to call BAO (the goldens' value)
LEGAL_LIMIT = 64  # legal actions compared where the reference lists at most this many (as the fuzzer)


def line(record: dict) -> str:
    """One record as a line of canonical JSON: sorted keys, no spaces (byte-identical run to run)."""
    return json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def game(players: int, readings: dict[str, str]) -> Game:
    return Game(players=players, params=dataclasses.replace(default_params(), rulings=dict(readings)))


def steps(players: int, seed: int, readings: dict[str, str], bao: int = BAO_PERCENT,
          limit: int | None = None) -> Iterator[dict]:
    """The game's records: step 0 the new game, then one per action until the game is over (or ``limit``)."""
    g, choices = game(players, readings), Seeded(seed)
    yield _record(g, 0, None, [])
    done = 0
    while g.pending.kind != "game_over" and (limit is None or done < limit):
        action = choose(g, choices, bao)
        events = [e.to_json() for e in g.apply(action)]
        done += 1
        yield _record(g, done, action.to_json(), events)


def _record(g: Game, step: int, action: dict | None, events: list[dict]) -> dict:
    state = g.to_json()
    record: dict[str, Any] = {"step": step, "action": action, "events": events, "pending": state["pending"],
                              "state": state, "views": {str(p): g.view(p) for p in state["players"]}}
    if g.pending.kind not in CHANCE:
        listed = g.legal_actions()
        record["legal"] = [a.to_json() for a in listed] if len(listed) <= LEGAL_LIMIT else None
    return record


def _difference(step: dict, check: str, reference: Any, engine: Any, path: str = "") -> dict:
    where = first_leaf(reference, engine, path) or (path, reference, engine)
    out = {"step": step["step"], "action": step["action"], "check": check, "path": where[0] or "(value)",
           "reference": None if where[1] is ABSENT else where[1], "engine": None if where[2] is ABSENT else where[2],
           "clauses": [c for e in step["events"] for c in (e.get("clause"), *e.get("also", ())) if c]}
    if ABSENT in (where[1], where[2]):
        out["only_in"] = "reference" if where[2] is ABSENT else "engine"
    return out


def compare(engine: Engine, records: Iterator[dict]) -> tuple[dict | None, int]:
    """Play the records' actions on ``engine`` from a new game: the first difference (None: none) and how many
    steps agreed. An engine that fails (a crash, a timeout, ``unsupported``) is a difference at that step."""
    agreed = 0
    for step in records:
        try:
            found = _step(engine, step)
        except (EngineProblem, Unsupported) as exc:
            found = {"step": step["step"], "action": step["action"], "check": "error",
                     "message": getattr(exc, "message", str(exc))}
        if found is not None:
            return found, agreed
        agreed += 1
    return None, agreed


def _step(engine: Engine, step: dict) -> dict | None:
    """One step on the engine (step 0: the new game): its first difference from the reference's record, or None."""
    caps = set(engine.capabilities)
    if step["action"] is None:
        refused = engine.new_game(step["state"]["seats"])
        if refused:
            return _difference(step, "new_game", None, str(refused))
    calls: list[tuple] = [] if step["action"] is None else [("apply", step["action"])]
    players = list(step["views"]) if "views" in caps else []
    legal = "legal_actions" in caps and step.get("legal") is not None
    calls += [("state",), *(("view", int(p)) for p in players), *([("legal_actions",)] if legal else [])]
    results = iter(engine.batch(calls))
    if step["action"] is not None:
        events, code = _value(next(results))
        if code is not None:
            return _difference(step, "refused", None, str(code))
        ours = [dict(e) for e in compared_events(step["events"])]
        theirs = [dict(e) for e in compared_events([e if isinstance(e, dict) else {} for e in events or []])]
        if "events" in caps and ours != theirs:
            return _difference(step, "events", ours, theirs, "events")
    state = _value(next(results))
    if state != step["state"]:
        return _difference(step, "state", step["state"], state, "state")
    for p in players:
        view = _value(next(results))
        if view != step["views"][p]:
            return _difference(step, f"view p{p}", step["views"][p], view, f"view.{p}")
    if legal:
        listed = _value(next(results))
        ours_legal = sorted(action_key(a).decode() for a in step["legal"])
        theirs_legal = sorted(action_key(a).decode() for a in listed) if isinstance(listed, list) else listed
        if ours_legal != theirs_legal:
            return _difference(step, "legal_actions", ours_legal, theirs_legal, "legal_actions")
    return None


def _value(result: Any) -> Any:
    if isinstance(result, Exception):
        raise result
    return result


def add_parser(sub) -> None:
    tr = sub.add_parser("trace", help="a seeded reference game action by action as NDJSON; with an engine, the "
                                      "same actions on it and the first difference",
                        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    tr.add_argument("engine", nargs="?", default=None, help="an engine, as for a run (default: print the game)")
    tr.add_argument("--seed", type=int, required=True, help="the game's seed")
    tr.add_argument("--players", type=positive(int, 2), required=True, help="seats (2 to 6)")
    tr.add_argument("--reading", "--readings", action="append", default=[], metavar="R-05=A", dest="readings",
                    help="play this reading of a ruling instead of the adopted one (repeatable)")
    tr.add_argument("--bao", type=int, default=BAO_PERCENT,
                    help=f"percent eagerness to call BAO (default {BAO_PERCENT})")
    tr.add_argument("--max-actions", type=positive(int, 1), default=None, help="stop after this many actions")
    tr.add_argument("--timeout", type=positive(float, 0), default=10.0, help="seconds per engine answer (default 10)")
    tr.set_defaults(func=run, command_line=None)


def _readings(texts: list[str]) -> dict[str, str] | str:
    readings = dict(t.split("=", 1) for t in texts if "=" in t)
    if len(readings) != len(texts):
        return "--reading takes RULING=READING, e.g. R-05=A"
    bad = unknown_readings(readings)
    return f"readings the reference does not implement: {', '.join(bad)}" if bad else readings


def run(args: argparse.Namespace) -> int:
    from baobei_conform.harness.factory import EngineSpecError, engine_factory

    readings = _readings(args.readings)
    if isinstance(readings, str) or args.players > default_params().max_players:
        problem = readings if isinstance(readings, str) else f"--players {args.players}: BAO BEI is for 2 to 6"
        print(f"baobei-conform trace: {problem}", file=sys.stderr)
        return 2
    records = steps(args.players, args.seed, readings, args.bao, args.max_actions)
    if args.engine is None and not args.command_line:
        for record in records:
            print(line(record))
        return 0
    try:
        factory, _ = engine_factory(None if args.command_line else args.engine, args.command_line, args.timeout)
        engine = factory()
    except (EngineSpecError, EngineProblem) as exc:
        print(f"baobei-conform trace: the engine does not start: {getattr(exc, 'message', exc)}", file=sys.stderr)
        return 2
    try:
        found, agreed = compare(engine, records)
    finally:
        engine.stop()
    print(line(found if found is not None else {"agree": True, "steps": agreed}))
    return 0 if found is None else 1
