"""A witness game for a switch reading: the shortest game found in which it and the adopted reading part ways.

The fuzzer's differential search (``fuzz.search``) plays the reference at the alternative reading as the "engine"
against the reference at the adopted one, from a new game, positions reached by seeded play, or the setup of a
scenario that cites the ruling; Hypothesis shrinks the first divergence and ``fuzz.tighten`` starts it from the
latest turn that still shows it. The game is then replayed on both readings to find its first diverging step and
each reading's outcome there, and written as a scenario whose shared steps lead to that step and whose
``under R-xx A`` / ``under R-xx B`` blocks state each reading's outcome. A witness is kept only when it passes on
an engine that follows its reading and fails on one that follows the other (``verify``), both ways.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import json
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from baobei_conform.engines.reference import ReferenceEngine, params_with
from baobei_conform.fuzz import compare, search
from baobei_conform.fuzz.choices import Seeded
from baobei_conform.fuzz.dsl_text import action_text
from baobei_conform.fuzz.policy import BAO_EAGERNESS, choose
from baobei_conform.fuzz.positions import Start, corpus
from baobei_conform.fuzz.tighten import tighten
from baobei_conform.fuzz.trial import Trial
from baobei_conform.runner.run import StepFailed, resolve_shuffle, run_scenario
from baobei_conform.suite.scenario import Scenario, load_scenario
from baobei_conform.suite.variants import steps_for
from baobei_conform.table import DIFFERS, Faces, Table, layout
from baobei_conform.table import compare as mark_differences
from baobei_ref import Game, RuleError, action_from_json
from baobei_ref.actions import Action, Shuffle
from baobei_spec import Ruling, default_spec
from baobei_spec.contract import action_key, compared_events

# The search budget per switch reading: a number of examples (so two runs play the same games) with a time cap
# (a slow machine stops earlier and says so). Found divergences are shrunk within MIN_SHRINK_SECONDS of it.
WITNESS_BUDGET: dict[str, Any] = {"max_examples": 150, "seconds": 30.0, "seed": 0}


def _species(card: str) -> str:
    return card.rsplit("-", 1)[0]


def _text(action: Action) -> str:
    return action_text(action, _species)


@dataclass
class Outcome:
    """One reading's answer to the diverging action: refused (with its code), or its events, state and views."""

    reading: str
    refused: str | None
    events: list[dict]
    state: dict
    views: dict[int, dict]
    lines: list[str] = field(default_factory=list)  # the block's steps that state this outcome


@dataclass
class Witness:
    ruling: str
    reading: str
    adopted: str
    start: str  # where the game starts, in words
    id: str
    text: str  # the scenario file
    step: int  # the diverging action's number (1 = the first action after the start): the game's length
    action: str  # the diverging action, in the scenario language
    before: dict  # the canonical state the diverging action is played in
    outcomes: list[Outcome]  # the adopted reading's, then the alternative's
    clauses: list[str]
    hidden: int | None  # the action after which the games first differed, when no step could state it then
    passes: bool = False  # on an engine following its reading, for each of the two readings
    fails: bool = False  # on an engine following the other reading, for each of the two
    note: str = ""

    def to_json(self) -> dict:
        return {"found": True, "verified": self.passes and self.fails, "passes_own": self.passes,
                "fails_other": self.fails, "note": self.note, "start": self.start, "actions": self.step,
                "hidden_from": self.hidden,
                "scenario": {"id": self.id, "text": self.text, "clauses": self.clauses},
                "step": {"number": self.step, "action": self.action, "before": self.before,
                         "outcomes": [{"reading": o.reading, "adopted": o.reading == self.adopted,
                                       "refused": o.refused, "lines": o.lines, "state": o.state}
                                      for o in self.outcomes]}}


def _game(start: Start, rulings: dict[str, str]) -> Game:
    """The reference at ``start`` reading ``rulings`` (empty: every adopted reading)."""
    if start.step is None:
        return Game(players=start.players, params=dataclasses.replace(params_with(None), rulings=rulings))
    params = dataclasses.replace(params_with(start.step.get("params")), rulings=rulings)
    return Game.from_json(start.step["state"], params=params)


def _outcome(g: Game, reading: str, action: Action) -> Outcome:
    """Play ``action`` on ``g`` (a refusal leaves the reference's game unchanged)."""
    try:
        events = [e.to_json() for e in g.apply(action)]
    except RuleError as exc:
        return Outcome(reading, exc.code, [], g.to_json(), {})
    return Outcome(reading, None, events, g.to_json(), {p: g.view(p) for p in g.state.players})


def _differ(a: Outcome, b: Outcome) -> bool:
    return (a.refused != b.refused or compared_events(a.events) != compared_events(b.events) or a.state != b.state
            or a.views != b.views)


def _block_lines(action: Action, mine: Outcome, other: Outcome) -> list[str]:
    """The steps that hold for ``mine`` and not for ``other``: the action (or its rejection), then expectations."""
    if mine.refused is not None:
        return [f"reject {mine.refused}: {_text(action)}"]
    lines = [_text(action)]
    if other.refused is None:
        expect = compare.state_expectations(mine.state, other.state)
        expect += compare.event_expectations(mine.events, other.events)
        for p, view in mine.views.items():
            expect += compare.view_expectations(p, view, other.views.get(p, {}))
        lines += list(dict.fromkeys(expect))
    return lines


@dataclass
class Divergence:
    """Where the two readings first answer one action in a way a scenario can state (``index``: actions before
    it), and the first action after which their games differed at all (``hidden``: a difference no step can
    state, such as the order of owed powers, shown only later; None when it is the same action)."""

    index: int
    prefix: list[Action]
    action: Action
    before: dict
    adopted: Outcome
    other: Outcome
    hidden: int | None


def _statable(action: Action, a: Outcome, b: Outcome) -> bool:
    """Whether each reading's block (set on the outcomes here) holds a step that fails on the other reading."""
    a.lines, b.lines = _block_lines(action, a, b), _block_lines(action, b, a)
    if a.refused is not None or b.refused is not None:
        return a.refused != b.refused
    return len(a.lines) > 1 and len(b.lines) > 1


EXTEND = 200  # actions of seeded play after the found game, when its difference shows in no step before its end
EXTEND_SEEDS = 4  # seeds tried for that play; the shortest game wins


def diverging_step(ruling: Ruling, reading: str, start: Start, actions: list[Action],
                   probe: Action | None) -> Divergence | None:
    """The first step of the game where the readings answer differently and a scenario can say so: an action of
    the found game, the near miss ``probe`` after it, an action one reading lists and the other does not, or else
    an action of seeded play continuing the game (the shortest over ``EXTEND_SEEDS`` seeds)."""
    best = None
    for seed in range(EXTEND_SEEDS):
        found = _walk(ruling, reading, start, actions, probe, Seeded(seed))
        if found is not None and found.index < len(actions) + (probe is not None):
            return found  # within the found game: no seed was used
        if found is not None and (best is None or found.index < best.index):
            best = found
    return best


def _walk(ruling: Ruling, reading: str, start: Start, actions: list[Action], probe: Action | None,
          choices: Seeded) -> Divergence | None:
    adopted, other = _game(start, {}), _game(start, {ruling.id: reading})
    played: list[Action] = []
    queue, hidden = list(actions), None
    while len(played) < len(actions) + EXTEND and adopted.pending.kind != "game_over":
        for action in ([probe] if probe is not None and not queue else []) + _listed_by_one(adopted, other):
            a = _outcome(copy.deepcopy(adopted), ruling.adopted, action)  # a copy: the games go on as they were
            b = _outcome(copy.deepcopy(other), reading, action)
            if _differ(a, b) and _statable(action, a, b):
                return Divergence(len(played), played, action, adopted.to_json(), a, b, hidden)
        probe = probe if queue else None
        action = queue.pop(0) if queue else choose(adopted, choices, BAO_EAGERNESS[1])
        if isinstance(action, Shuffle):  # by species (a scenario's), as the runner resolves it
            try:
                action = Shuffle(tuple(resolve_shuffle([_species(c) for c in action.order], adopted.to_json())))
            except StepFailed:
                return None
        before = adopted.to_json()
        a, b = _outcome(adopted, ruling.adopted, action), _outcome(other, reading, action)
        if _differ(a, b) and _statable(action, a, b):
            return Divergence(len(played), played, action, before, a, b, hidden)
        if a.refused is not None or b.refused is not None:  # refused alike: the game cannot go on this way
            return None
        if _differ(a, b) and hidden is None:
            hidden = len(played)
        played.append(action)
    return None


def _listed_by_one(adopted: Game, other: Game) -> list[Action]:
    """The actions one reading's legal actions list and the other's do not, the adopted reading's first."""
    if adopted.pending.kind in compare.CHANCE or other.pending.kind in compare.CHANCE:
        return []
    ours = {action_key(a.to_json()): a for a in adopted.legal_actions()}
    theirs = {action_key(a.to_json()): a for a in other.legal_actions()}
    return [ours[k] for k in sorted(ours.keys() - theirs.keys())] + [theirs[k]
                                                                     for k in sorted(theirs.keys() - ours.keys())]


def witness_text(ruling: Ruling, reading: str, start: Start, prefix: list[Action], action: Action,
                 outcomes: list[Outcome], clauses: list[str]) -> tuple[str, str]:
    """(id, scenario file) for the witness: the shared steps, then one ``under`` block per reading."""
    body = [start.script()] + [_text(a) for a in prefix]
    for outcome in outcomes:
        body.append(f"under {ruling.id} {outcome.reading}")
        body += [f"  {line}" for line in outcome.lines]
        body.append("end")
    script = "\n".join(body) + "\n"
    digest = hashlib.sha1(script.encode()).hexdigest()[:8]
    ident = f"witness-{ruling.id.lower()}-{reading.lower()}-{digest}"
    document = {
        "id": ident,
        "title": f"Witness game: {ruling.id} reading {reading} and the adopted reading {ruling.adopted} part ways "
                 f"at action {len(prefix) + 1} ({_text(action)})",
        "clauses": clauses,
        "rulings": [ruling.id],
        "tags": ["witness", "ruling"],
    }
    text = yaml.safe_dump(document, sort_keys=False, allow_unicode=True, width=1000, default_flow_style=None)
    return ident, text + "script: |\n" + "".join(f"  {line}\n" for line in script.splitlines())


def load_text(ident: str, text: str) -> Scenario:
    """A scenario file's text loaded as the suite loads files (from a temporary folder of its own)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"{ident}.yaml"
        path.write_text(text, encoding="utf-8")
        return load_scenario(path)


def _engine(declares: dict[str, str], plays: dict[str, str]) -> ReferenceEngine:
    """The reference playing ``plays`` while declaring ``declares``: it runs the steps of the declared readings."""
    engine = ReferenceEngine(plays, declare=False)
    engine.readings = dict(declares)
    return engine


def verify(scenario: Scenario, ruling: str, reading: str) -> tuple[bool, bool, str]:
    """(passes where the engine follows the reading it declares, fails where it follows the other, why not):
    for the adopted reading and ``reading`` alike."""
    ours: dict[str, str] = {ruling: reading}
    theirs: dict[str, str] = {}
    passes = [run_scenario(scenario, _engine(d, d)) for d in (theirs, ours)]
    fails = [run_scenario(scenario, _engine(d, p)) for d, p in ((theirs, ours), (ours, theirs))]
    notes = [f"under {'the adopted reading' if not d else reading}: {o.status} ({o.message})"
             for d, o in zip((theirs, ours), passes, strict=True) if o.status != "pass"]
    notes += [f"declaring {'the adopted reading' if not d else reading} but playing the other: it passes"
              for d, o in zip((theirs, ours), fails, strict=True) if o.status == "pass"]
    return all(o.status == "pass" for o in passes), all(o.status == "fail" for o in fails), "; ".join(notes)


@dataclass(frozen=True)
class Citing:
    """A scenario citing the ruling, as a place to look: its setup (a search start) and the actions it plays
    there under the adopted reading."""

    scenario: str
    start: Start
    actions: tuple[Action, ...]


def citing(scenarios: list[Scenario], ruling: str) -> list[Citing]:
    """The scenarios citing ``ruling`` that start from a setup a search can start from (``fuzz.positions``)."""
    out = []
    for s in scenarios:
        if ruling not in s.rulings:
            continue
        for start in corpus((str(s.path),)):
            steps = steps_for(s.steps, {})
            actions = [Shuffle(tuple(st["order"])) if st["op"] == "shuffle" else action_from_json(st["action"])
                       for st in steps if st["op"] in ("apply", "shuffle")]
            out.append(Citing(s.id, start, tuple(actions)))
    return out


def find_witness(ruling: Ruling, reading: str, scenarios: list[Scenario], budget: dict = WITNESS_BUDGET) -> dict:
    """The witness for ``reading`` of ``ruling`` as the rulings document holds it, or why there is none: the
    shortest verified one among the games of the scenarios citing the ruling and the search's shrunk game."""
    began = time.monotonic()
    places = citing(scenarios, ruling.id)
    starts = tuple(c.start for c in places)
    candidates: list[tuple[Divergence, Start, str, tuple[str, ...]]]
    candidates = [(d, c.start, f"the setup of {c.scenario}, playing its actions", ()) for c in places
                  if (d := diverging_step(ruling, reading, c.start, list(c.actions), None)) is not None]
    engine = ReferenceEngine({ruling.id: reading}, declare=False)
    result = search(engine, budget=budget["seconds"], max_examples=budget["max_examples"], seed=budget["seed"],
                    derandomize=True, database=None, starts=starts)
    searched: dict[str, object] = {"examples": result.coverage.examples, "starts": len(starts),
                                   "found": result.found is not None}
    notes = []
    if result.found is not None:
        found = tighten(result.found, Trial(engine, starts))
        named = {c.start.setup: c.scenario for c in places}
        origin = (f"a new game of {found.start.players} players" if found.start.step is None else
                  f"the setup of {named[found.start.setup]}" if found.start.setup in named else
                  "a position reached by seeded play, written as a setup")
        d = diverging_step(ruling, reading, found.start, found.actions, found.probe)
        if d is None:
            notes.append(f"the search's game ({found.problem.message}) shows no difference a step can state, "
                         f"even {EXTEND} actions of seeded play later")
        else:
            candidates.append((d, found.start, origin, tuple(found.clauses)))
    best = None
    for d, start, origin, clauses in sorted(candidates, key=lambda c: c[0].index):
        w = _witness(ruling, reading, d, start, origin, list(clauses))
        if w.passes and w.fails:
            best = w
            break
        best = best or w
    searched["seconds"] = round(time.monotonic() - began, 1)
    if best is None:
        return {"found": False, "search": searched,
                "note": "; ".join(notes + [f"no divergence in {len(places)} citing scenarios' games and "
                                           f"{result.coverage.examples} searched games (budget: "
                                           f"{budget['max_examples']} examples or {budget['seconds']} s, seed "
                                           f"{budget['seed']})"])}
    return {**best.to_json(), "search": searched}


def _witness(ruling: Ruling, reading: str, d: Divergence, start: Start, origin: str, clauses: list[str]) -> Witness:
    """The witness scenario of divergence ``d``, verified."""
    known = default_spec().clauses
    cited = [c for e in d.adopted.events + d.other.events for c in (e.get("clause"), *e.get("also", ()))
             if c in known]
    clauses = list(dict.fromkeys(cited + [c for c in clauses if c in known])) or list(ruling.clauses)
    ident, text = witness_text(ruling, reading, start, d.prefix, d.action, [d.adopted, d.other], clauses)
    w = Witness(ruling.id, reading, ruling.adopted, origin, ident, text, d.index + 1, _text(d.action), d.before,
                [d.adopted, d.other], clauses, None if d.hidden is None else d.hidden + 1)
    try:
        w.passes, w.fails, w.note = verify(load_text(ident, text), ruling.id, reading)
    except Exception as exc:  # noqa: BLE001 - a witness the scenario language cannot state is reported, not raised
        w.note = f"not a valid scenario: {exc}"
    return w


# --- the cached witnesses and the pictures ---------------------------------------------------------------

CACHE = Path(__file__).with_name("witnesses.json")  # regenerated by `python tools/witnesses.py`


def key(ruling: str, reading: str) -> str:
    return f"{ruling} {reading}"


def read_cache(path: Path = CACHE) -> dict[str, dict]:
    """The witnesses found by an earlier search (``{"R-05 A": witness}``), or none."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return doc.get("witnesses", {}) if isinstance(doc, dict) else {}


def still_holds(ruling: Ruling, reading: str, entry: dict) -> dict | None:
    """A cached witness, re-verified on today's reference (None when it no longer passes and fails as it should)."""
    scenario = entry.get("scenario") if entry.get("found") else None
    if not isinstance(scenario, dict):
        return None
    try:
        passes, fails, _ = verify(load_text(str(scenario["id"]), str(scenario["text"])), ruling.id, reading)
    except Exception:  # noqa: BLE001 - a stale cache entry is searched again, never trusted
        return None
    return {**entry, "cached": True} if passes and fails else None


def witness_for(ruling: Ruling, reading: str, scenarios: list[Scenario], budget: dict, cache: dict[str, dict]) -> dict:
    """The cached witness when it still holds, else a fresh search's (``find_witness``)."""
    entry = cache.get(key(ruling.id, reading))
    held = still_holds(ruling, reading, entry) if entry else None
    return held if held is not None else {**find_witness(ruling, reading, scenarios, budget), "cached": False}


def tables(witness: dict, faces: Faces | None = None) -> list[tuple[str, Table]]:
    """The diverging step as pictures: the table before it, then each reading's table after it, the two outcomes'
    differences marked (``table.compare``)."""
    faces = faces or Faces()
    step = witness["step"]
    before = layout(step["before"], faces)
    after = [(o, layout(o["state"], faces)) for o in step["outcomes"]]
    if len(after) == 2:
        mark_differences(after[0][1], after[1][1], DIFFERS, both=True)
    out = [(f"before action {step['number']}", before)]
    for o, table in after:
        said = f"refuses it ({o['refused']})" if o["refused"] else "after it"
        out.append((f"reading {o['reading']}{' (adopted)' if o['adopted'] else ''} {said}", table))
    return out
