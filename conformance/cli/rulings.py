"""``baobei-conform rulings``: what each reading of each ruling changes, for a rule-clarification review.

For every alternative reading the reference implements (``switch: true`` in spec/rulings.yaml), the
suite runs on the reference switched to it but judged by the adopted expectations (as an engine that
reads it so without declaring it would be): the scenarios whose verdict changes are the ones that
depend on the ruling. A fixed, seeded budget of random games is played in lockstep on the adopted and
the switched reference: how many diverge, and after how many actions. Then the consistency check,
both ways: a scenario that changes under a ruling's alternative must cite the ruling, and a scenario
citing a ruling with measured alternatives must change under one of them or say why in its
``ruling_notes``.

Each switch reading also gets a witness game (witness.py): the shortest game found in which it and the adopted
reading part ways, written as a scenario with an ``under`` block per reading. Witnesses found earlier
(conformance/witnesses.json) are re-verified and reused; ``--search`` looks for every one afresh.
``--review OUT`` writes the review packet (review.py): a page per ruling for a rules team.
"""

from __future__ import annotations

import dataclasses
import json
import random
import statistics
import sys
from typing import Any

from baobei_conform.cli import review
from baobei_conform.engines.reference import ReferenceEngine
from baobei_conform.files.outputs import output_problems, print_problems, write_atomic, write_each
from baobei_conform.fuzz.witness import WITNESS_BUDGET, read_cache, tables, witness_for
from baobei_conform.harness.run import Selection, load_suite, run_suite
from baobei_conform.options import default_suite
from baobei_conform.suite.scenario import Scenario
from baobei_conform.table import Faces, text
from baobei_ref import CHANCE, Game, RuleError
from baobei_spec import Ruling, default_spec

SCHEMA = "baobei-rulings/1"
# The random-play budget: fixed, so two runs (and two branches) compare. BAO is called at the end of a
# turn with a small chance only, or rounds end before any recycle and part 7 is never reached.
BUDGET: dict[str, Any] = {"games": 60, "seed": 0, "max_actions": 3000, "bao_chance": 0.02, "witness": WITNESS_BUDGET}


def verdicts(scenarios: list[Scenario], rulings: dict[str, str]) -> dict[str, str]:
    """Each scenario's status on the reference switched to ``rulings``, judged by the adopted steps: the written
    expectations alone (``--rules-only``), since agreement with the adopted reference would fail every scenario
    where the switched reading acts at all, citing the ruling or not."""
    outcomes, _ = run_suite(scenarios, lambda: ReferenceEngine(rulings, declare=False), agree=False)
    return {o.scenario: o.status for o in outcomes}


def _choose(g: Game, rng: random.Random, bao_chance: float):
    if g.pending.kind in CHANCE:
        return g.sample_chance(rng)
    actions = g.legal_actions()
    if g.pending.kind == "end_turn":
        return actions[0] if rng.random() < bao_chance else actions[-1]  # CallBao, EndTurn
    return rng.choice(actions)


def first_divergence(rulings: dict[str, str], seed: int, players: int, max_actions: int,
                     bao_chance: float) -> int | None:
    """Play one seeded game on the adopted and the switched reference; the action after which they differ."""
    rng = random.Random(seed)
    adopted = Game(players=players)
    switched = Game(players=players, params=dataclasses.replace(adopted.params, rulings=rulings))
    for step in range(1, max_actions + 1):
        if adopted.pending.kind == "game_over":
            return None
        action = _choose(adopted, rng, bao_chance)
        adopted.apply(action)
        try:
            switched.apply(action)
        except RuleError:
            return step
        if adopted.to_json() != switched.to_json():
            return step
    return None


def random_play(rulings: dict[str, str], budget: dict) -> dict:
    """How many of the budget's games diverge, and how early (actions into the game)."""
    steps = [first_divergence(rulings, budget["seed"] + i, 2 + i % 5, budget["max_actions"], budget["bao_chance"])
             for i in range(budget["games"])]
    hit = [s for s in steps if s is not None]
    return {"games": len(steps), "diverged": len(hit), "rate": round(len(hit) / len(steps), 4) if steps else 0.0,
            "earliest": min(hit, default=None), "median": statistics.median(hit) if hit else None}


def _reading(r: Ruling, reading, baseline: dict, scenarios, budget: dict, cache: dict) -> dict:
    out = {"id": reading.id, "text": reading.text, "adopted": reading.id == r.adopted, "switch": reading.switch,
           "supports": list(reading.supports), "contradicts": list(reading.contradicts)}
    out["measured"] = reading.switch  # the adopted reading is the baseline; other readings need a switch
    if reading.switch:
        changed = verdicts(scenarios, {r.id: reading.id})
        out["changed_scenarios"] = sorted(s for s, status in changed.items() if status != baseline.get(s))
        out["random_play"] = random_play({r.id: reading.id}, budget) if budget["games"] else None
        out["witness"] = witness_for(r, reading.id, scenarios, budget["witness"], cache)
    return out


def impact(scenarios: list[Scenario], budget: dict | None = None, cache: dict | None = None) -> dict:
    """The whole review document: every ruling, its readings, their measured impact and witness games, the
    consistency check. ``cache``: witnesses found earlier, reused while they hold (default: the installed ones,
    ``witness.read_cache``; empty: search every one)."""
    budget = budget or BUDGET
    cache = read_cache() if cache is None else cache
    baseline = verdicts(scenarios, {})
    rulings: list[dict[str, Any]] = []
    for r in default_spec().rulings.values():
        rulings.append({
            "id": r.id, "status": r.status, "question": r.question, "adopted": r.adopted, "clauses": list(r.clauses),
            "cited_by": sorted(s.id for s in scenarios if r.id in s.rulings),
            "readings": [_reading(r, reading, baseline, scenarios, budget, cache) for reading in r.readings],
        })
    failing = sorted(s for s, v in baseline.items() if v != "pass")
    switched = [rd for r in rulings for rd in r["readings"] if "witness" in rd]
    witnessed = sum(bool(rd["witness"].get("verified")) for rd in switched)
    doc = {"schema": SCHEMA, "budget": budget, "baseline_failures": failing, "rulings": rulings,
           "witnesses": {"switch_readings": len(switched), "verified": witnessed}}
    doc["consistency"] = consistency(doc, scenarios)
    return doc


def consistency(doc: dict, scenarios: list[Scenario]) -> list[str]:
    """Both ways: changed scenarios cite the ruling; citing scenarios change under a measured alternative."""
    index = {s.id: s for s in scenarios}
    problems = []
    for r in doc["rulings"]:
        measured = [rd for rd in r["readings"] if "changed_scenarios" in rd]
        changed = {sid for rd in measured for sid in rd["changed_scenarios"]}
        for rd in measured:
            problems += [f"{sid}: its verdict changes under {r['id']} reading {rd['id']}, but it does not cite "
                         f"{r['id']} in rulings"
                         for sid in rd["changed_scenarios"] if r["id"] not in index[sid].rulings]
        if measured:
            problems += [f"{sid}: cites {r['id']}, but no reading of it changes the verdict; say why in its "
                         f"ruling_notes"
                         for sid in r["cited_by"] if sid not in changed and r["id"] not in index[sid].notes]
    return problems


def render(doc: dict) -> str:
    """The review for a terminal: per ruling, each reading with its lines and measured impact."""
    b, w = doc["budget"], doc["witnesses"]
    faces = Faces()
    lines = [f"random play: {b['games']} games per switched reading (seed {b['seed']}, at most "
             f"{b['max_actions']} actions, BAO called with chance {b['bao_chance']})",
             f"witness games: {w['verified']} of {w['switch_readings']} switch readings (search budget per reading: "
             f"{b['witness']['max_examples']} examples or {b['witness']['seconds']} s, seed {b['witness']['seed']})"]
    for r in doc["rulings"]:
        lines.append(f"{r['id']} ({r['status']}): {r['question']}")
        for rd in r["readings"]:
            mark = "adopted" if rd["adopted"] else "switch" if rd["switch"] else "not implemented"
            lines.append(f"  {rd['id']} [{mark}] supports {_lines(rd['supports'])}; "
                         f"contradicts {_lines(rd['contradicts'])}")
            if "changed_scenarios" in rd:
                changed = rd["changed_scenarios"]
                lines.append(f"      changes {len(changed)} scenarios: {', '.join(changed) or '-'}")
                rp = rd["random_play"]
                if rp:
                    when = f", earliest after {rp['earliest']} actions, median {rp['median']}" if rp["diverged"] else ""
                    lines.append(f"      random play: {rp['diverged']}/{rp['games']} games diverge (rate "
                                 f"{rp['rate']}){when}")
                lines += witness_lines(rd["witness"], faces)
    problems = doc["consistency"]
    lines.append("consistency: " + ("ok" if not problems else f"{len(problems)} problems"))
    lines += [f"  {p}" for p in problems]
    return "\n".join(lines)


def witness_lines(w: dict, faces: Faces, width: int = 160) -> list[str]:
    """A reading's witness for a terminal: where it starts, its diverging step, both outcomes as tables."""
    if not w.get("found"):
        return [f"      witness: none found: {w.get('note', '')}"]
    state = "verified" if w["verified"] else f"NOT verified ({w['note']})"
    lines = [f"      witness {w['scenario']['id']}: {state}{' (cached)' if w.get('cached') else ''}; "
             f"{w['actions']} actions from {w['start']}",
             f"        first diverging step: action {w['step']['number']}, {_short(w['step']['action'])}"]
    for o in w["step"]["outcomes"]:
        lines.append(f"        {o['reading']}{' (adopted)' if o['adopted'] else ''}: "
                     + "; ".join(map(_short, o["lines"])))
    pictures = [(title, text.render(table, (width - 8) // 3)) for title, table in tables(w, faces)]
    return lines + ["        " + line for line in text.beside(pictures, width)]


def _short(step: str, most: int = 90) -> str:
    """A step for one line of the terminal (a shuffle names every card)."""
    return step if len(step) <= most else step[:most - 3] + "..."


def _lines(numbers: list[int]) -> str:
    return ", ".join(map(str, numbers)) or "-"


def rulings_command(args) -> int:
    """``baobei-conform rulings [--json [FILE]] [--games N] [--search] [--review OUT [--results FILE...]] [PATHS]``."""
    paths = args.paths or default_suite()
    target = None if args.json == "-" else args.json  # the file to write, if any
    if print_problems("rulings", output_problems(files={"--json": target}, owned={"--review": args.review},
                                                 inputs=[*paths, *args.results])):
        return 2
    try:
        engines = review.engines_of(args.results)
    except review.ReportError as exc:
        print(f"baobei-conform rulings: {exc}", file=sys.stderr)
        return 2
    scenarios, broken = load_suite(paths, Selection())
    for error in broken:
        print(error, file=sys.stderr)
    budget = {**BUDGET, "games": args.games,
              "witness": {**BUDGET["witness"], "max_examples": args.witness_examples, "seconds": args.witness_seconds}}
    doc = impact(scenarios, budget, {} if args.search else read_cache())
    document = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    if args.json == "-":
        print(document, end="")
    else:
        print(render(doc))
    def write_json() -> None:
        if target is not None:  # write_each calls it only then
            write_atomic(target, document)

    writes = [("--json", target, write_json),
              ("--review", args.review, lambda: review.write_packet(args.review, doc, scenarios, engines))]
    if print_problems("rulings", write_each(writes)):
        return 2
    return 1 if doc["consistency"] or broken else 0


def add_parser(sub) -> None:
    """The ``rulings`` subcommand's arguments."""
    p = sub.add_parser("rulings", help="each ruling's readings, what each alternative changes and a witness game "
                                       "(review)")
    p.add_argument("paths", nargs="*", help="scenario files or folders (default: the installed suite)")
    p.add_argument("--json", nargs="?", const="-", default=None, metavar="FILE",
                   help="write the JSON document to FILE, whole (checked before anything runs; no FILE: print it "
                        "instead of the text)")
    p.add_argument("--games", type=int, default=BUDGET["games"], help=f"random games per reading ({BUDGET['games']})")
    p.add_argument("--search", action="store_true",
                   help="search every witness game afresh instead of reusing the ones found earlier that still hold "
                        "(conformance/witnesses.json)")
    p.add_argument("--witness-examples", type=int, default=WITNESS_BUDGET["max_examples"], metavar="N",
                   help=f"games the witness search plays per reading ({WITNESS_BUDGET['max_examples']})")
    p.add_argument("--witness-seconds", type=float, default=WITNESS_BUDGET["seconds"], metavar="S",
                   help=f"time cap of the witness search per reading ({WITNESS_BUDGET['seconds']:g} s)")
    p.add_argument("--review", metavar="OUT",
                   help="write the review packet to the folder OUT: one self-contained page per ruling (replaced "
                        "whole: missing, empty, or an earlier packet)")
    p.add_argument("--results", nargs="*", default=[], metavar="FILE",
                   help="results documents (`baobei-conform --json FILE`): the review packet names the readings "
                        "their engines declared")
    p.set_defaults(func=rulings_command)
