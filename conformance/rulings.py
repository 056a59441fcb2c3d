"""``baobei-conform rulings``: what each reading of each ruling changes, for a rule-clarification review.

For every alternative reading the reference implements (``switch: true`` in spec/rulings.yaml), the
suite runs on the reference switched to it but judged by the adopted expectations (as an engine that
reads it so without declaring it would be): the scenarios whose verdict changes are the ones that
depend on the ruling. A fixed, seeded budget of random games is played in lockstep on the adopted and
the switched reference: how many diverge, and after how many actions. Then the consistency check,
both ways: a scenario that changes under a ruling's alternative must cite the ruling, and a scenario
citing a ruling with measured alternatives must change under one of them or say why in its
``ruling_notes``.
"""

from __future__ import annotations

import dataclasses
import json
import random
import statistics
import sys

from baobei_conform.harness import Selection, load_suite, run_suite
from baobei_conform.options import default_suite
from baobei_conform.outputs import output_problems, print_problems, write_atomic, write_each
from baobei_conform.runner.engine import ReferenceEngine
from baobei_conform.scenario import Scenario
from baobei_ref import Game, RuleError
from baobei_ref.playout import CHANCE
from baobei_spec import Ruling, default_spec

SCHEMA = "baobei-rulings/1"
# The random-play budget: fixed, so two runs (and two branches) compare. BAO is called at the end of a
# turn with a small chance only, or rounds end before any recycle and part 7 is never reached.
BUDGET = {"games": 60, "seed": 0, "max_actions": 3000, "bao_chance": 0.02}


def verdicts(scenarios: list[Scenario], rulings: dict[str, str]) -> dict[str, str]:
    """Each scenario's status on the reference switched to ``rulings``, judged by the adopted steps."""
    outcomes, _ = run_suite(scenarios, lambda: ReferenceEngine(rulings, declare=False))
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


def _reading(r: Ruling, reading, baseline: dict, scenarios, budget: dict) -> dict:
    out = {"id": reading.id, "text": reading.text, "adopted": reading.id == r.adopted, "switch": reading.switch,
           "supports": list(reading.supports), "contradicts": list(reading.contradicts)}
    out["measured"] = reading.switch  # the adopted reading is the baseline; other readings need a switch
    if reading.switch:
        changed = verdicts(scenarios, {r.id: reading.id})
        out["changed_scenarios"] = sorted(s for s, status in changed.items() if status != baseline.get(s))
        out["random_play"] = random_play({r.id: reading.id}, budget) if budget["games"] else None
    return out


def impact(scenarios: list[Scenario], budget: dict = BUDGET) -> dict:
    """The whole review document: every ruling, its readings, their measured impact, the consistency check."""
    baseline = verdicts(scenarios, {})
    rulings = []
    for r in default_spec().rulings.values():
        rulings.append({
            "id": r.id, "status": r.status, "question": r.question, "adopted": r.adopted, "clauses": list(r.clauses),
            "cited_by": sorted(s.id for s in scenarios if r.id in s.rulings),
            "readings": [_reading(r, reading, baseline, scenarios, budget) for reading in r.readings],
        })
    failing = sorted(s for s, v in baseline.items() if v != "pass")
    doc = {"schema": SCHEMA, "budget": budget, "baseline_failures": failing, "rulings": rulings}
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
    b = doc["budget"]
    lines = [f"random play: {b['games']} games per switched reading (seed {b['seed']}, at most "
             f"{b['max_actions']} actions, BAO called with chance {b['bao_chance']})"]
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
    problems = doc["consistency"]
    lines.append("consistency: " + ("ok" if not problems else f"{len(problems)} problems"))
    lines += [f"  {p}" for p in problems]
    return "\n".join(lines)


def _lines(numbers: list[int]) -> str:
    return ", ".join(map(str, numbers)) or "-"


def rulings_command(args) -> int:
    """``baobei-conform rulings [--json [FILE]] [--games N] [PATHS]``."""
    paths = args.paths or default_suite()
    target = None if args.json == "-" else args.json  # the file to write, if any
    if print_problems("rulings", output_problems(files={"--json": target}, inputs=paths)):
        return 2
    scenarios, broken = load_suite(paths, Selection())
    for exc in broken:
        print(exc, file=sys.stderr)
    doc = impact(scenarios, {**BUDGET, "games": args.games})
    text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    if args.json == "-":
        print(text, end="")
    else:
        print(render(doc))
    if print_problems("rulings", write_each([("--json", target, lambda: write_atomic(target, text))])):
        return 2
    return 1 if doc["consistency"] or broken else 0


def add_parser(sub) -> None:
    """The ``rulings`` subcommand's arguments."""
    p = sub.add_parser("rulings", help="each ruling's readings and what each alternative changes (review)")
    p.add_argument("paths", nargs="*", help="scenario files or folders (default: the installed suite)")
    p.add_argument("--json", nargs="?", const="-", default=None, metavar="FILE",
                   help="write the JSON document to FILE, whole (checked before anything runs; no FILE: print it "
                        "instead of the text)")
    p.add_argument("--games", type=int, default=BUDGET["games"], help=f"random games per reading ({BUDGET['games']})")
    p.set_defaults(func=rulings_command)
