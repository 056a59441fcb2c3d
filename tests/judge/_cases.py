"""The judge's cases: for every check form and every statement form of docs/scenarios.md, the verdict
on an engine double that answers right, and on one that is wrong in exactly one respect (the check
must fail naming the step, the expected and the actual value). Also the expectations file (a known
``fail`` excuses only a ``fail``), the report's per-clause status (the worst of its scenarios) and
the reject step's diff. Each case is a plain function so the judge's mutants can rerun them all.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import SimpleNamespace

from _double import HIDDEN, Double, base_world, card

from baobei_conform.dsl.compile import compile_script
from baobei_conform.dsl.parse import parse_script
from baobei_conform.engines.api import InProcess
from baobei_conform.harness.run import apply_expectations
from baobei_conform.report.model import NOT_RUN, Report
from baobei_conform.runner.diff import diff
from baobei_conform.runner.run import Outcome, run_scenario
from baobei_conform.suite.scenario import Scenario

ROOT = Path(__file__).resolve().parents[2]
TABLE = """\
setup
  zone p0: owl heron _ eagle
  zone p1: sparrow _ swallow kingfisher macaw
  zone p2: owl flamingo hummingbird cuckoo
end
p0 draws
"""
STEP_LINE = 7  # the statement under test follows the table and one action
PENALTY = {"kind": "penalty", "clause": "3.5.5", "player": 1}
GIFT = {"kind": "gift", "player": 1, "players": [], "data": {}}
EVENTS = base_world()["events"]
POWER = '{"card": "shoebill-1", "clause": "6.10.3", "kind": "power", "player": 0, "power": "double_replace"}'
PENALIZED = '{"clause": "3.5.5", "kind": "penalty", "player": 1}'  # events as compared: keys sorted
SEEN = "power for p0 (6.10.3); penalty for p2 (3.5.5)"  # the events once the penalty goes to p2


@dataclass(frozen=True)
class Case:
    name: str
    form: str  # the statement form (a grammar rule of docs/scenarios.md), or the judged function
    side: str  # "right" (the engine is right) or "wrong" (it is wrong in one respect)
    run: Callable[[], None]  # raises AssertionError when the judge's verdict is not the due one


@cache
def scenario(script: str) -> Scenario:
    """A compiled scenario (the script's line n is the file's line n)."""
    steps = compile_script(parse_script(script))
    return Scenario("judged", "", (), (), (), (), script, "<judged>", 1, steps)


def judge(statements: str, world: dict, **double) -> tuple[Outcome, Double]:
    engine = Double(world, **double)
    return run_scenario(scenario(TABLE + statements), InProcess(engine)), engine


def put(path: str, value) -> Callable[[dict], None]:
    """A patch setting one field of a world, e.g. ``put("state.zones.0.1", None)``."""
    *parents, last = path.split(".")

    def patch(world: dict) -> None:
        target = world
        for key in parents:
            target = target[int(key)] if isinstance(target, list) else target[key]
        target[int(last) if isinstance(target, list) else last] = copy.deepcopy(value)

    return patch


def world_with(*patches) -> dict:
    world = base_world()
    for patch in patches:
        if patch is not None:
            patch(world)
    return world


def passes(statements: str, world: dict, **double) -> None:
    outcome, _ = judge(statements, world, **double)
    assert outcome.status == "pass", f"{outcome.status}: {outcome.message} {outcome.expected!r} {outcome.actual!r}"


def fails(statements: str, world: dict, expected: str, actual: str, line: int = STEP_LINE, **double) -> Outcome:
    outcome, _ = judge(statements, world, **double)
    assert outcome.status == "fail", f"{outcome.status}: {outcome.message}"
    assert (outcome.line, outcome.expected, outcome.actual) == (line, expected, actual)
    return outcome


# --- expect: one right case per statement, one wrong case per misreported field ------------------------
# (form, statement, patch making it right or None, [(what is misreported, patch, expected, actual)])
CHECKS = [
    ("slot_is", "expect p0.1 is owl", None, [
        ("another species", put("state.zones.0.0", card("heron")), "owl", "heron"),
        ("an empty slot", put("state.zones.0.0", None), "owl", "empty")]),
    ("slot_empty", "expect p0.3 empty", None, [("a card", put("state.zones.0.2", card("owl", 5)), "empty", "owl")]),
    ("card_count", "expect p1 has 4 cards", None, [("a card more", put("state.zones.1.1", card("owl", 5)), "4", "5")]),
    ("slot_count", "expect p1 has 5 slots", None, [
        ("a slot more", lambda w: w["state"]["zones"]["1"].append(None), "5", "6")]),
    ("deck_count", "expect deck has 2 cards", None, [
        ("a card more", lambda w: w["state"]["deck"].append("owl-5"), "2", "3")]),
    ("deck_top", "expect deck top is owl", None, [
        ("the bottom card", put("state.deck", ["heron-2", "owl-3"]), "owl", "heron")]),
    ("top", "expect top is owl", None, [("another top", put("state.top", "eagle-2"), "owl", "eagle")]),
    ("discard_is", "expect discard is: hummingbird eagle owl", None, [
        ("another order", put("state.discard", ["eagle-2", "hummingbird-2", "owl-4"]),
         "hummingbird eagle owl", "eagle hummingbird owl"),
        ("a card more", lambda w: w["state"]["discard"].append("owl-5"),
         "hummingbird eagle owl", "hummingbird eagle owl owl")]),
    ("discard_count", "expect discard has 3 cards", None, [
        ("a card more", lambda w: w["state"]["discard"].append("owl-5"), "3", "4")]),
    ("under_count", "expect under has 2 cards", None, [("a card fewer", put("state.under", ["heron-3"]), "2", "1")]),
    ("pending", "expect pending window p1 p2", None, [
        ("another kind", put("state.pending", {"kind": "turn", "player": 1, "players": [], "data": {}}),
         "window p1 p2", "turn p1"),
        ("a claimant fewer", put("state.pending.players", [1]), "window p1 p2", "window p1"),
        ("another order", put("state.pending.players", [2, 1]), "window p1 p2", "window p2 p1"),
        ("a claimant more", put("state.pending.players", [0, 1, 2]), "window p1 p2", "window p0 p1 p2")]),
    ("pending", "expect pending gift p1", put("state.pending", GIFT), [
        ("another player", put("state.pending.player", 2), "gift p1", "gift p2"),
        ("another kind", put("state.pending.kind", "place"), "gift p1", "place p1")]),
    ("event", "expect event power for p0 clause 6.10.3", None, [
        ("another kind", put("events", [{"kind": "peeked", "clause": "6.10.3", "player": 0}, PENALTY]),
         "power for p0 (6.10.3)", "peeked for p0 (6.10.3); penalty for p1 (3.5.5)"),
        ("another player", put("events.0.player", 1),
         "power for p0 (6.10.3)", "power for p1 (6.10.3); penalty for p1 (3.5.5)"),
        ("another clause", put("events.0.clause", "6.10.4"),
         "power for p0 (6.10.3)", "power for p0 (6.10.4); penalty for p1 (3.5.5)"),
        ("no events", put("events", []), "power for p0 (6.10.3)", "no events")]),
    ("event", "expect event penalty for p1", None, [
        ("another player", put("events.1.player", 2), "penalty for p1", SEEN)]),
    ("no_event", "expect no event penalty for p2", None, [
        ("that event", put("events.1.player", 2), "no penalty for p2", SEEN)]),
    ("no_event", "expect no event drew", None, [
        ("that event", lambda w: w["events"].append({"kind": "drew", "clause": "2.7.1", "player": 0}),
         "no drew", "power for p0 (6.10.3); penalty for p1 (3.5.5); drew for p0 (2.7.1)")]),
    ("round_score", "expect round score p0 18", None, [
        ("another score", put("state.round_scores.0", 19), "18", "19"),
        ("no round scored yet", put("state.round_scores", None), "18", "empty")]),
    ("score", "expect score p2 -3", None, [("another score", put("state.scores.2", 3), "-3", "3")]),
    ("first_is", "expect first player p2", None, [("another player", put("state.first", 1), "p2", "p1")]),
    ("winner", "expect winner p1", None, [("no winner yet", put("state.winner", None), "p1", "none")]),
    ("bao_is", "expect bao p0", None, [
        ("nobody", put("state.bao", None), "p0", "none"), ("another player", put("state.bao", 2), "p0", "p2")]),
    ("sees", "expect p2 sees p1.1 as sparrow", None, [
        ("hidden", put("views.2.zones.1.0", HIDDEN), "sparrow", "hidden"),
        ("another species", put("views.2.zones.1.0", card("owl")), "sparrow", "owl")]),
    ("sees_hidden", "expect p2 sees p1.3 hidden", None, [
        ("shown", put("views.2.zones.1.2", card("swallow")), "hidden", "swallow"),
        ("an empty slot", put("views.2.zones.1.2", None), "hidden", "empty slot")]),
    ("sees_hidden", "expect p0 sees p1.1 hidden", None, [
        ("shown to that player", put("views.0.zones.1.0", card("sparrow")), "hidden", "sparrow")]),
    ("shield_is", "expect shield active", None, [("armed", put("state.shield", "armed"), "active", "armed")]),
    ("recycles_is", "expect recycles 1", None, [("two", put("state.recycles", 2), "1", "2")]),
    ("final_phase_is", "expect final phase", None, [
        ("not started", put("state.final_phase", False), "final phase", "no final phase")]),
    ("no_final_phase", "expect no final phase", put("state.final_phase", False), [
        ("started", put("state.final_phase", True), "no final phase", "final phase")]),
    ("no_bao", "expect no bao", put("state.bao", None), [
        ("called", put("state.bao", 2), "none", "p2")]),
    ("under_is", "expect under is: heron heron", None, [
        ("a card fewer", put("state.under", ["heron-3"]), "heron heron", "heron"),
        ("another species", put("state.under", ["heron-3", "owl-5"]), "heron heron", "heron owl")]),
    ("under_is", "expect under is: owl heron", put("state.under", ["owl-5", "heron-3"]), [
        ("another order", put("state.under", ["heron-3", "owl-5"]), "owl heron", "heron owl")]),
    ("round_table", "expect round table p0: owl heron _ eagle",
     put("state.round_zones", {"0": [card("owl"), card("heron"), None, card("eagle")]}), [
        ("no scored round", put("state.round_zones", None), "owl heron _ eagle", "no scored round"),
        ("a slot emptied", put("state.round_zones.0.0", None), "owl heron _ eagle", "_ heron _ eagle")]),
    ("event", "expect event power for p0 with card shoebill", None, [
        ("another card", put("events.0.card", "owl-1"), "power for p0 with card shoebill",
         "power for p0 (6.10.3); penalty for p1 (3.5.5)")]),
    ("holds_is", "expect holds shoebill", None, [
        ("nothing held", put("state.drawn", None), "shoebill", "empty"),
        ("another card", put("state.drawn", "owl-5"), "shoebill", "owl")]),
    ("legal_is", "expect legal p0 takes discard into 2", None, [
        ("not listed", put("legal", [{"type": "draw", "player": 0}]),
         "listed by legal_actions", "not listed by legal_actions"),
        ("another slot listed", put("legal.1.slot", 3), "listed by legal_actions", "not listed by legal_actions")]),
    ("last_turns_is", "expect last turns p2 p1", put("state.last_turns", [2, 1]), [
        ("another order", put("state.last_turns", [1, 2]), "last turns p2 p1", "last turns p1 p2"),
        ("the caller owed one too", put("state.last_turns", [2, 0, 1]), "last turns p2 p1", "last turns p2 p0 p1"),
        ("one fewer", put("state.last_turns", [2]), "last turns p2 p1", "last turns p2"),
        ("none owed", put("state.last_turns", None), "last turns p2 p1", "no last turns")]),
    ("last_turns_is", "expect last turns", put("state.last_turns", []), [
        ("one still owed", put("state.last_turns", [1]), "last turns, all played", "last turns p1")]),
    ("no_last_turns", "expect no last turns", put("state.last_turns", None), [
        ("owed after BAO", put("state.last_turns", [1, 2]), "no last turns", "last turns p1 p2"),
        ("all played", put("state.last_turns", []), "no last turns", "last turns, all played")]),
    ("not_legal", "expect not legal p0 takes discard into 3", None, [
        ("listed", lambda w: w["legal"].append({"type": "take_discard", "player": 0, "slot": 3}),
         "not listed by legal_actions", "listed by legal_actions")]),
    ("legal_is", 'expect legal raw {"type": "draw", "player": 0}', None, [
        ("not listed", put("legal", []), "listed by legal_actions", "not listed by legal_actions")]),
    ("not_legal", 'expect not legal raw {"type": "initial_peek", "player": 0, "slots": [1]}', None, [
        ("listed", lambda w: w["legal"].append({"type": "initial_peek", "player": 0, "slots": [1]}),
         "not listed by legal_actions", "listed by legal_actions")]),
    ("state_is", "expect state pending.players is [1, 2]", None, [
        ("another order", put("state.pending.players", [2, 1]), "[1, 2]", "[2, 1]"),
        ("a path that leads nowhere", put("state.pending", {"kind": "window"}), "[1, 2]", "(missing)")]),
    ("state_is", "expect state zones.1[1] is null", None, [
        ("a card", put("state.zones.1.1", card("owl", 5)), "null", '{"card": "owl-5", "species": "owl"}'),
        ("no such slot", put("state.zones.1", [card("sparrow")]), "null", "(missing)")]),
    ("state_is", "expect state recycles is 1", None, [("true for 1", put("state.recycles", True), "1", "true")]),
    ("state_is", f"expect state deck is {json.dumps([f'owl-{n}' for n in range(1, 30)])}",
     put("state.deck", [f"owl-{n}" for n in range(1, 30)]), [
        ("a long value, one card off", put("state.deck.3", "heron-1"), "deck as stated",
         'deck[3]: "owl-4" -> "heron-1"')]),
    ("view_is", 'expect view p2 zones.1[0] is {"card": "sparrow-1", "species": "sparrow"}', None, [
        ("hidden", put("views.2.zones.1.0", HIDDEN), '{"card": "sparrow-1", "species": "sparrow"}',
         '{"card": null, "species": null}')]),
    ("view_is", "expect view p0 zones.1[0].card is null", None, [
        ("shown to that player", put("views.0.zones.1.0", card("sparrow")), "null", '"sparrow-1"')]),
    ("events_are", f"expect events are {json.dumps(EVENTS)}", None, [
        ("another order", lambda w: w["events"].reverse(), f"[{POWER}, {PENALIZED}]", f"[{PENALIZED}, {POWER}]"),
        ("an event fewer", lambda w: w["events"].pop(), f"[{POWER}, {PENALIZED}]", f"[{POWER}]"),
        ("another player", put("events.1.player", 2), f"[{POWER}, {PENALIZED}]",
         f"[{POWER}, {PENALIZED.replace('1}', '2}')}]")]),
    ("events_are", f"expect events are {json.dumps(EVENTS, sort_keys=True)}",  # also and ruling are not compared
     lambda w: w["events"][0].update(also=["6.1.5"], ruling="R-01"), []),
    ("events_are", "expect events are []", put("events", []), [
        ("an event", put("events", [PENALTY]), "[]", f"[{PENALIZED}]")]),
]


def _check_cases() -> list[Case]:
    out = []
    for form, statement, right, wrongs in CHECKS:
        out.append(Case(f"{statement}: right", form, "right",
                        lambda s=statement, r=right: passes(s, world_with(r))))
        for label, patch, expected, actual in wrongs:
            out.append(Case(f"{statement}: {label}", form, "wrong", lambda s=statement, r=right, p=patch, e=expected,
                            a=actual: fails(s, world_with(r, p), e, a)))
    return out


# --- the other statement forms ---------------------------------------------------------------------------
DEAL = put("state.pending", {"kind": "deal", "player": None, "players": [], "data": {
    "cards": ["heron-1", "owl-1", "eagle-1", "owl-2"]}})


def decision_examples() -> list[str]:
    """The decisions of docs/scenarios.md's Decisions table (its right-hand column)."""
    section = (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8").split("\n## Decisions\n")[1]
    rows = section.split("\n\n")[0].splitlines()[2:]
    return [ex for row in rows for ex in re.findall(r"`([^`]+)`", row.rsplit(" | ", 1)[1])]


def _action_sent(statement: str) -> None:
    """Right: the engine accepts; the judge sent exactly the compiled action (a shuffle: the card ids)."""
    outcome, engine = judge(statement, world_with(DEAL))
    assert outcome.status == "pass", outcome.message
    step = scenario(TABLE + statement).steps[-1]
    if step["op"] == "shuffle":
        assert engine.actions()[-1] == {"type": "shuffle", "order": ["owl-1", "heron-1", "eagle-1", "owl-2"]}
    else:
        assert engine.actions()[-1] == step["action"]


def _action_refused(statement: str) -> None:
    if statement.startswith("shuffle"):
        outcome, _ = judge(statement, world_with())  # the engine waits for a window, not a deal
        assert (outcome.status, outcome.line) == ("fail", STEP_LINE)
        assert "a shuffle answers a deal or a recycle, but the engine waits for 'window'" in outcome.message
        return
    fails(statement, world_with(), "accepted", "refused: wrong_decision", refuse={1: "wrong_decision"})


def _shuffle_species_twice() -> None:
    _, engine = judge("shuffle: owl heron owl", world_with(DEAL))
    assert engine.actions()[-1]["order"] == ["owl-1", "heron-1", "owl-2", "eagle-1"]


def _shuffle_species_missing() -> None:
    outcome, _ = judge("shuffle: owl owl owl", world_with(DEAL))
    assert (outcome.status, outcome.line) == ("fail", STEP_LINE)
    assert outcome.message == "no 'owl' card is left among the cards to shuffle"


REJECT = "reject shielded: p2 plucks p0.1"


RAW = 'reject malformed_action: raw {"type": "initial_peek", "player": 0, "slots": [1]}'


def _raw_sent() -> None:
    outcome, engine = judge(RAW, world_with(), refuse={1: "malformed_action"})
    assert outcome.status == "pass", outcome.message
    assert engine.actions()[-1] == {"type": "initial_peek", "player": 0, "slots": [1]}


def _reject_changed(after: Callable[[dict], None], actual: str, count: int) -> None:
    outcome = fails(REJECT, world_with(), "state unchanged", actual, refuse={1: "shielded"}, after={1: after})
    assert outcome.message == f"the refused action changed the state ({count} field(s))"


def _many_changes() -> None:
    deck = [f"cuckoo-{n}" for n in range(1, 21)]
    shown = [f'deck[{i}]: "{c}" -> "{deck[i]}"' for i, c in enumerate(["owl-3", "heron-2"])]
    shown += [f'deck[{i}]: (missing) -> "{deck[i]}"' for i in range(2, 12)]
    _reject_changed(put("state.deck", deck), "; ".join([*shown, "... and 8 more"]), 20)


def _replay_sent() -> None:
    """``replay`` sends the setup and the draw again, then reads the state: the same as before it."""
    outcome, engine = judge("replay", world_with())
    assert outcome.status == "pass", outcome.message
    setup = ("setup", scenario(TABLE).steps[0]["state"], None)
    assert [r[0] for r in engine.received if r[0] != "state"] == ["setup", "apply", "setup", "apply"]
    assert [r for r in engine.received if r[0] == "setup"] == [setup, setup]
    assert engine.actions()[0] == engine.actions()[1]


def _replay_differs() -> None:
    outcome = fails("replay", world_with(), "the state before the replay", 'deck[0]: "owl-3" -> "cuckoo-1"',
                    after={1: put("state.deck", ["cuckoo-1", "heron-2"])})
    assert outcome.message == "the same actions from the same start gave another state (1 field(s))"


def _state_after_the_action(changes: bool) -> None:
    statements = "expect deck has 2 cards\np1 draws\nexpect deck has 1 cards"
    after = {1: lambda w: w["state"]["deck"].pop()} if changes else {}
    if changes:
        passes(statements, world_with(), after=after)
    else:
        fails(statements, world_with(), "1", "2", line=STEP_LINE + 2)


def _setup(right: bool) -> None:
    outcome, engine = judge("expect top is owl", world_with(), broken=None if right else "setup")
    if right:
        assert outcome.status == "pass"
        assert engine.received[0] == ("setup", scenario(TABLE + "expect top is owl").steps[0]["state"], None)
    else:
        assert outcome.status == "error" and "closed its output" in outcome.message


def _setup_raw(right: bool) -> None:
    """``setup raw JSON`` sends that state, exactly (a position the DSL's block built, written out as JSON)."""
    state = scenario(TABLE).steps[0]["state"]
    engine = Double(world_with(), broken=None if right else "setup")
    script = f"setup raw {json.dumps(state)}\nexpect state recycles is 1\n"
    outcome = run_scenario(scenario(script), InProcess(engine))
    assert engine.received[0] == ("setup", state, None)
    assert outcome.status == ("pass" if right else "error"), outcome.message


def _new_game(right: bool) -> None:
    engine = Double(world_with(), broken=None if right else "new_game")
    outcome = run_scenario(scenario("new game 3 players\nexpect pending window p1 p2\n"), InProcess(engine))
    assert outcome.status == ("pass" if right else "error")
    assert engine.received[0] == ("new_game", 3)


def _without(capability: str, statement: str) -> None:
    """A scenario that needs a capability the engine lacks is skipped, never passed or failed."""
    outcome, _ = judge(statement, world_with(), capabilities=frozenset({"views", "events"} - {capability}))
    assert outcome.status == "skip" and capability in outcome.message


def _step_cases() -> list[Case]:
    out = []
    for statement in decision_examples():
        out.append(Case(f"{statement}: accepted", "act", "right", lambda s=statement: _action_sent(s)))
        out.append(Case(f"{statement}: refused", "act", "wrong", lambda s=statement: _action_refused(s)))
    out += [
        Case("shuffle naming a species twice", "act", "right", _shuffle_species_twice),
        Case("shuffle naming a card that is not there", "act", "wrong", _shuffle_species_missing),
        Case(f"{REJECT}: refused, nothing changed", "reject", "right",
             lambda: passes(REJECT, world_with(), refuse={1: "shielded"})),
        Case(f"{REJECT}: accepted", "reject", "wrong",
             lambda: fails(REJECT, world_with(), "refused: shielded", "accepted")),
        Case(f"{REJECT}: another code", "reject", "wrong",
             lambda: fails(REJECT, world_with(), "refused: shielded", "refused: no_cards", refuse={1: "no_cards"})),
        Case(f"{REJECT}: refused but a card moved", "reject", "wrong", lambda: _reject_changed(
            put("state.zones.0.0", None), 'zones.0[0]: {"card": "owl-1", "species": "owl"} -> null', 1)),
        Case(f"{REJECT}: refused but 20 fields changed", "reject", "wrong", _many_changes),
        Case(f"{RAW}: refused, sent as written", "reject", "right", _raw_sent),
        Case(f"{RAW}: accepted", "reject", "wrong",
             lambda: fails(RAW, world_with(), "refused: malformed_action", "accepted")),
        Case("replay: the same actions from the same start, the same state", "replay", "right", _replay_sent),
        Case("replay: the replayed draw refused", "replay", "wrong", lambda: fails(
            "replay", world_with(), "accepted", "refused: not_your_decision", refuse={1: "not_your_decision"})),
        Case("replay: another state", "replay", "wrong", _replay_differs),
        Case("expect reads the state after the latest action", "expect", "right",
             lambda: _state_after_the_action(True)),
        Case("expect reads the state after the latest action: unchanged", "expect", "wrong",
             lambda: _state_after_the_action(False)),
        Case("setup: the compiled state is sent", "setup", "right", lambda: _setup(True)),
        Case("setup: the engine breaks", "setup", "wrong", lambda: _setup(False)),
        Case("setup raw: the JSON state is sent as written", "setup", "right", lambda: _setup_raw(True)),
        Case("setup raw: the engine breaks", "setup", "wrong", lambda: _setup_raw(False)),
        Case("new game: the player count is sent", "new_game", "right", lambda: _new_game(True)),
        Case("new game: the engine breaks", "new_game", "wrong", lambda: _new_game(False)),
        Case("an event check without the events capability", "event", "wrong",
             lambda: _without("events", "expect event penalty for p1")),
        Case("a view check without the views capability", "sees", "wrong",
             lambda: _without("views", "expect p2 sees p1.1 as sparrow")),
    ]
    return out


# --- the expectations file, the report's clause status, the diff -----------------------------------------
KNOWN = [  # (status in the expectations file, the scenario's outcome, the verdict)
    ("fail", "fail", "xfail"), ("fail", "error", "error"), ("error", "fail", "fail"), ("error", "error", "xfail"),
    ("skip", "skip", "xfail"), ("fail", "skip", "skip"), ("fail", "pass", "xpass"), (None, "fail", "fail"),
    (None, "pass", "pass"),
]


def _expectation(known: str | None, status: str, verdict: str) -> None:
    expected = {"judged": {"status": known, "reason": "issue 12"}} if known else {}
    outcome = apply_expectations(Outcome("judged", status, message="boom"), expected)
    assert outcome.status == verdict
    if verdict == "xfail":
        assert outcome.message == "known: issue 12 boom"


CLAUSE_STATUS = [  # (the statuses of a clause's scenarios on one engine, (status, passed, total))
    (["pass", "fail", "xfail"], ("fail", 1, 3)), (["pass", "error", "fail"], ("error", 1, 3)),
    (["xfail", "pass"], ("xfail", 1, 2)), (["pass", "skip"], ("skip", 1, 2)), (["pass", NOT_RUN], (NOT_RUN, 1, 2)),
    (["xpass", "fail"], ("fail", 0, 2)), (["skip", "xpass"], ("xpass", 0, 2)), (["pass", "pass"], ("pass", 2, 2)),
    ([], ("none", 0, 0)),
]


def _clause_status(statuses: list[str], due: tuple) -> None:
    by_id = {f"s{i}": SimpleNamespace(statuses={"eng": s}) for i, s in enumerate(statuses)}
    row = SimpleNamespace(cited_by=list(by_id))
    assert Report.clause_status(None, row, "eng", by_id) == due


DIFFS = [  # (expected, actual, the lines)
    ({"a": True, "b": 2}, {"a": 1, "b": 2}, ["a: true -> 1"]),
    ({"zones": {"1": [None, {"card": "owl-1"}]}}, {"zones": {"1": [None, None]}},
     ['zones.1[1]: {"card": "owl-1"} -> null']),
    ({"a": 1}, {"a": 1, "b": []}, ["b: (missing) -> []"]),
    ({"a": 1, "b": []}, {"a": 1}, ["b: [] -> (missing)"]),
    ([1, 2], [1, 2, 3], ["[2]: (missing) -> 3"]),
    ([1, 2, 3], [1, 3], ["[1]: 2 -> 3", "[2]: 3 -> (missing)"]),
    ({"a": [1, {"b": "x"}]}, {"a": [1, {"b": "x"}]}, []),
    (1, 2, ["(value): 1 -> 2"]),
]


def _verdict_cases() -> list[Case]:
    out = [Case(f"known {k} / outcome {s} -> {v}", "apply_expectations", "wrong" if s != v else "right",
                lambda k=k, s=s, v=v: _expectation(k, s, v)) for k, s, v in KNOWN]
    out += [Case(f"clause status of {s} -> {d[0]}", "clause_status", "right",
                 lambda s=s, d=d: _clause_status(s, d)) for s, d in CLAUSE_STATUS]
    out += [Case(f"diff {e!r} {a!r}", "diff", "right", lambda e=e, a=a, d=d: _diff(e, a, d)) for e, a, d in DIFFS]
    out.append(Case("diff under a path", "diff", "right",
                    lambda: _diff({"x": 1}, {"x": 2}, ["state.x: 1 -> 2"], "state")))
    return out


def _diff(expected, actual, lines: list[str], path: str = "") -> None:
    assert diff(expected, actual, path) == lines


CASES: list[Case] = [*_check_cases(), *_step_cases(), *_verdict_cases()]


def failing_cases() -> list[str]:
    """The names of the cases whose verdict is wrong (none, unless the judge is broken)."""
    failed = []
    for case in CASES:
        try:
            case.run()
        except Exception:  # an AssertionError, or a judge that crashes: either way the case kills
            failed.append(case.name)
    return failed
