"""Hypothesis-driven fuzzing: differential play against the reference, invariants without it, failures shrunk
to a short scenario that passes on the reference and fails on the engine."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

from baobei_conform.cli.main import main
from baobei_conform.dsl.compile import compile_script
from baobei_conform.dsl.parse import parse_script
from baobei_conform.engines.reference import ReferenceEngine
from baobei_conform.files.inputs import checked
from baobei_conform.fuzz import reproduce, search
from baobei_conform.fuzz.choices import Seeded
from baobei_conform.fuzz.compare import conservation
from baobei_conform.fuzz.dsl_text import action_text, representable, setup_text
from baobei_conform.fuzz.policy import choose
from baobei_conform.fuzz.positions import compiled
from baobei_conform.fuzz.tighten import tighten
from baobei_conform.fuzz.trial import Trial, names_empty_slot
from baobei_conform.harness.factory import engine_factory
from baobei_conform.runner.diff import first_difference
from baobei_ref import Game
from baobei_ref.actions import CloseWindow, Discard
from baobei_ref.playout import choose as uniform_choice
from baobei_ref.setup import position
from baobei_spec import default_spec

ROOT = Path(__file__).resolve().parents[2]
WRONG = ROOT / "examples" / "wrong_engine" / "engine.py"
QUICK = {"derandomize": True, "database": None}


def _stdio(*argv: str):
    factory, _ = engine_factory(None, [sys.executable, *argv])
    return factory()


def _found(bug: str, examples: int, scenarios: Path = ROOT / "scenarios", **options):
    """Search the wrong engine with ``bug``; the tightened failure, its reproducer and the engine's answer."""
    engine = _stdio(str(WRONG), "--bug", bug)
    try:
        options = {"budget": 45, **options}
        result = search(engine, max_examples=examples, scenarios=(str(scenarios),), **QUICK, **options)
        assert result.found, f"{bug}: nothing found in {result.coverage.examples} games"
        found = tighten(result.found, Trial(engine, differential=options.get("differential", True)))
        return found, reproduce(found, engine, bug)
    finally:
        engine.stop()


def test_the_reference_over_the_protocol_never_diverges():
    engine = _stdio("-m", "baobei_conform.protocol.server", "serve")
    try:
        result = search(engine, max_examples=3, budget=120, **QUICK)
    finally:
        engine.stop()
    assert result.found is None, result.found and result.found.problem.message
    assert result.coverage.actions > 100 and len(result.coverage.clauses) > 50


def test_the_reference_keeps_every_invariant_without_a_reference():
    result = search(ReferenceEngine(), max_examples=2, budget=120, differential=False, **QUICK)
    assert result.found is None, result.found and result.found.problem.message


def test_a_misreading_is_shrunk_to_a_short_scenario_that_fails_on_the_engine_only():
    found, reproducer = _found("active_plucks_own_discard", 5)
    assert found.problem.check == "state" and ".pending.players" in found.problem.message
    assert reproducer.verified, reproducer.note  # passes on the reference, fails on the engine
    assert reproducer.actions <= 12 and "expect pending window" in reproducer.text


def test_a_leaking_view_is_found_without_the_reference():
    found, reproducer = _found("view_shows_own_cards", 5, differential=False)
    assert found.problem.check == "view" and "has not seen" in found.problem.message
    assert found.clauses  # found without the reference, cited from what the reference cites at that step
    assert reproducer.verified and reproducer.actions <= 12 and " hidden" in reproducer.text


HOLES = """id: holes
title: p0 has two empty slots at the start of its turn
clauses: ["2.5.2"]
script: |
  setup
    zone p0: owl _ heron _ eagle
    zone p1: sparrow swallow kingfisher hummingbird flamingo
    discard: eagle
    active p0
  end
"""


def test_legal_actions_that_apply_refuses_are_found_without_the_reference(tmp_path):
    (tmp_path / "holes.yaml").write_text(HOLES, encoding="utf-8")  # search from a table with empty slots
    found, reproducer = _found("take_into_any_slot_listed", 12, tmp_path, differential=False)
    assert found.problem.check == "legal_actions" and "take_discard" in found.problem.message
    assert reproducer.verified, reproducer.note
    assert "expect not legal" in reproducer.text and reproducer.actions <= 12


class WrongCodes(ReferenceEngine):
    """Refuses the right actions, but answers every refusal with the same code."""

    def apply(self, action):
        events, code = super().apply(action)
        return (events, None) if code is None else (None, "illegal_target")


def test_an_engine_refusing_with_the_wrong_code_is_found_by_a_near_miss():
    result = search(WrongCodes(), max_examples=20, budget=120, **QUICK)
    assert result.found and result.found.problem.check == "probe"
    assert "must be refused with" in result.found.problem.message and "illegal_target" in result.found.problem.message


@pytest.mark.parametrize("bug, probe, right, wrong", [
    ("bao_at_another_moment_wrong_decision", "call_bao", "bao_not_allowed", "wrong_decision"),
    ("zero_card_claimant_not_eligible", "pluck", "no_cards", "not_your_decision"),
])
def test_a_wrong_refusal_precedence_is_found_by_a_probe_of_another_type_or_claimant(bug, probe, right, wrong):
    """Issue 22: the two precedence misreadings the suite catches, but 200 games of the fuzzer's near misses did not
    (they never tried BAO at another decision, nor a claim by a zero-card player); the probes now do, within the
    default budget (60 s; a derandomized search finds each in a few seconds), with a verified reproducer."""
    found, reproducer = _found(bug, 400, budget=60)
    assert found.problem.check == "probe" and found.probe is not None and found.probe.to_json()["type"] == probe
    assert f"must be refused with {right!r}; the engine answered {wrong!r}" in found.problem.message
    assert reproducer.verified, reproducer.note
    assert f"reject {right}:" in reproducer.text


class EventEdits(ReferenceEngine):
    """The reference with each event changed by ``edit`` (the contract compares every field but also and ruling)."""

    def __init__(self, edit):
        super().__init__()
        self.edit = edit

    def apply(self, action):
        events, code = super().apply(action)
        return ([self.edit(dict(e)) for e in events] if events is not None else None), code


def test_an_event_field_the_contract_compares_is_compared():
    """A discarded card named wrongly (the state still right): the events differ, by the contract's projection."""
    def wrong_card(e):
        return {**e, "card": "owl-1"} if e["kind"] == "discarded" else e
    result = search(EventEdits(wrong_card), max_examples=5, budget=120, **QUICK)
    assert result.found and result.found.problem.check == "events"
    assert "(discarded) event.card: reference" in result.found.problem.message


def test_informational_event_fields_are_not_compared():
    """Another ``also`` list and no ruling: the contract says they are informational."""
    def annotated(e):
        return {**{k: v for k, v in e.items() if k != "ruling"}, "also": ["1.1"]}
    result = search(EventEdits(annotated), max_examples=2, budget=120, **QUICK)
    assert result.found is None, result.found and result.found.problem.message


def test_every_action_of_random_play_prints_as_the_statement_that_parses_back_to_it():
    birds = "hummingbird sparrow swallow kingfisher owl heron flamingo eagle white_pelican cuckoo".split()
    table = "setup\n" + "".join(f"  zone p{p}: {' '.join(birds * 2)}\n" for p in range(4)) + "end\n"  # 20 slots
    seen = set()
    for seed in range(12):
        g, choices = Game(players=2 + seed % 3), Seeded(seed)
        for _ in range(600):
            if g.pending.kind == "game_over":
                break
            action = choose(g, choices, 4)
            if type(action).__name__ != "Shuffle":
                [*_, statement] = parse_script(table + action_text(action, lambda c: c) + "\n")
                assert statement.action == action.to_json()
                seen.add(type(action).__name__)
            g.apply(action)
    assert len(seen) >= 12, seen


def test_a_pluck_on_a_card_of_the_same_value_and_another_family_is_tried_eagerly():
    """3.1.9: a Shoebill never matches a Toco Toucan, though both are worth 13, the misreading the rulebook warns
    of. Such a target is rare, so the policy tries it often when there is one (a misread engine's plucks succeed)."""
    g = position(zones={0: ["owl", "heron", "eagle"], 1: ["toco_toucan", "sparrow", "flamingo"]}, drawn="shoebill",
                 discard=["swallow"], active=0)
    toco = (1, 1)
    chosen = [choose(g, Seeded(seed), 0) for seed in range(400)]
    same_value = sum(getattr(a, "targets", None) == (toco,) for a in chosen)
    assert same_value >= 80, f"{same_value} of 400 choices pluck the Toco Toucan with the drawn Shoebill"


class JunkList(ReferenceEngine):
    """Lists things that are not actions."""

    def __init__(self, listed):
        super().__init__()
        self.listed = listed

    def legal_actions(self):
        return self.listed


@pytest.mark.parametrize("listed", [[1, "x"], [{"type": "fly"}], [{"type": "draw"}], {"type": "draw"}])
def test_legal_actions_that_are_not_actions_are_the_engines_problem(listed):
    result = search(JunkList(listed), max_examples=3, budget=60, differential=False, **QUICK)
    assert result.found and result.found.problem.check == "legal_actions", result.found
    assert "not an action" in result.found.problem.message or "not a list" in result.found.problem.message


class Lies(ReferenceEngine):
    """Answers one command with something that is no document of the protocol."""

    def __init__(self, command: str, answer):
        super().__init__()
        self.command, self.answer = command, answer

    def state(self):
        return self.answer if self.command == "state" else super().state()

    def view(self, player):
        return self.answer if self.command == "view" else super().view(player)

    def apply(self, action):
        events, code = super().apply(action)
        return (self.answer, code) if self.command == "apply" and code is None else (events, code)


EVENT_LIES = ([7], [{"clause": "2.7.1"}], [{"kind": "drew", "clause": 2}])
LIES = [("state", 5), ("state", {"pending": 3}), ("state", {}), ("view", [1]), ("view", {"zones": [1]})]


@pytest.mark.parametrize(("command", "answer", "differential"), [(*lie, mode) for lie in LIES for mode in (True, False)]
                         + [("apply", events, mode) for events in EVENT_LIES for mode in (True, False)])
def test_answers_that_are_no_documents_of_the_protocol_are_the_engines_problem(command, answer, differential):
    result = search(Lies(command, answer), max_examples=3, budget=60, differential=differential, **QUICK)
    assert result.found, f"{command} answering {answer!r} went unnoticed"
    if command == "apply" and not differential:  # nothing to compare them with: their shape is checked
        assert result.found.problem.check == "events", result.found.problem
        assert result.found.problem.message.startswith("the 'apply' reply breaks the protocol schema at events/0")
    elif result.found.problem.check == "error":  # read and found wanting: the validator says where
        assert f"the {command!r} reply breaks the protocol schema" in result.found.problem.message
    else:  # compared before anything read it
        assert result.found.problem.check in ("state", "view", "events", "cards"), result.found.problem


def test_listed_actions_on_empty_slots_are_the_ones_tried_first_without_the_reference():
    state = {"zones": {"0": [{"card": "owl-1"}, None], "1": [{"card": "eagle-1"}]}}
    assert names_empty_slot({"type": "take_discard", "player": 0, "slot": 2}, state)  # empty
    assert names_empty_slot({"type": "take_discard", "player": 0, "slot": 3}, state)  # beyond the zone
    assert not names_empty_slot({"type": "take_discard", "player": 0, "slot": 1}, state)
    assert names_empty_slot({"type": "pluck", "player": 1, "targets": [[1, 1], [0, 2]]}, state)
    assert not names_empty_slot({"type": "pluck", "player": 1, "targets": [[1, 1]]}, state)
    assert names_empty_slot({"type": "blind_swap", "player": 1, "first": [0, 1], "second": [1, 5]}, state)
    assert not names_empty_slot({"type": "draw", "player": 0}, state)
    assert not names_empty_slot(["not", "an", "action"], state) and not names_empty_slot({"slot": 1}, {"zones": []})


def test_a_position_written_as_a_setup_block_compiles_back_to_the_same_table():
    rng = random.Random(7)
    g, checked = Game(players=3), 0
    while g.pending.kind != "game_over" and checked < 10:
        state = g.to_json()
        if g.pending.kind == "turn" and representable(state):
            again = compiled(setup_text(state)).step["state"]
            species = lambda s: {p: [c and c["species"] for c in z] for p, z in s["zones"].items()}  # noqa: E731
            assert species(again) == species(state)
            assert [c.rsplit("-", 1)[0] for c in again["deck"]] == [c.rsplit("-", 1)[0] for c in state["deck"]]
            for key in ("active", "scores", "bao", "shield", "recycles", "final_phase", "round"):
                assert again[key] == state[key], key
            checked += 1
        g.apply(uniform_choice(g, rng))
    assert checked == 10
    assert compile_script(parse_script(setup_text(state)))[0]["op"] == "setup"


def test_the_shoebills_first_card_counts_while_a_recycle_interrupts_its_draws():
    """7.1.7: the card the Shoebill drew before the deck ran out is in ``drawing.cards``, nowhere else."""
    g = position(zones={0: ["owl", "heron"], 1: ["eagle", "sparrow"]}, drawn="shoebill", deck=["cuckoo"],
                 rest="discard")
    g.apply(Discard(0))
    g.apply(CloseWindow())
    state = g.to_json()
    assert state["drawing"]["cards"] and conservation(state, list(g.catalog.cards)) == []


def test_first_difference_names_the_path():
    assert first_difference({"a": {"b": [1, 2]}}, {"a": {"b": [1, 3]}}) == ".a.b[1]: reference 2, engine 3"
    assert first_difference({"a": 1}, {}) == ".a: only in the reference"


def test_the_command_saves_the_reproducer_and_reports_json(tmp_path, capsys):
    out, save = tmp_path / "fuzz.json", tmp_path / "repro"
    assert main(["fuzz", "--derandomize", "--max-examples", "2", "--no-database", "--players", "2", "--json",
                 str(out)]) == 0
    assert "no problem found" in capsys.readouterr().out
    assert json.loads(out.read_text(encoding="utf-8"))["failed_after_s"] is None
    code = main(["fuzz", "--derandomize", "--budget", "10", "--no-database", "--save", str(save), "--json",
                 str(out), "--", sys.executable, str(WRONG), "--bug", "power_on_replaced_card"])
    assert code == 1
    document = json.loads(out.read_text(encoding="utf-8"))
    problems = document["problems"]
    assert document["problem"] == problems[0] and problems[0]["check"] == "events"
    assert [p["games"] for p in problems] == sorted((p["games"] for p in problems), reverse=True)  # most frequent first
    assert len({p["group"] for p in problems}) == len(problems) and all(p["reproducer"]["verified"] for p in problems)
    assert checked(document, "fuzz.schema.json", str(out), "a fuzz document") is document  # what `report --fuzz` reads
    assert 0 < document["failed_after_s"] <= document["seconds"]  # the first failing game, before shrinking
    assert sorted(p.name for p in save.glob("*.yaml")) == sorted(p["reproducer"]["id"] + ".yaml" for p in problems)
    assert document["tried"]["turn"]["draw"] > 0  # what was tried (the probes' counts: the test below)
    printed = capsys.readouterr().out
    assert f"PROBLEM 1 ({problems[0]['group']}; {problems[0]['games']} game" in printed
    assert f"a game first failed {document['failed_after_s']:.1f} s" in printed


@pytest.mark.parametrize("bad", [["--players", "7"], ["--budget", "0"]])
def test_out_of_range_options_are_refused(bad):
    with pytest.raises(SystemExit) as exit_:
        main(["fuzz", *bad])
    assert exit_.value.code == 2


def test_a_difference_in_last_turns_is_stated_as_an_expectation_that_fails_on_the_engine():
    """caller_plays_again's only trace right after BAO is the caller owed a last turn: the reproducer states it."""
    from baobei_conform.fuzz.compare import state_expectations

    ref = Game(players=3).to_json()
    wrong = {**ref, "last_turns": [1, 2, 0]}
    assert state_expectations({**ref, "last_turns": [2, 1]}, wrong) == ["expect last turns p2 p1"]
    assert state_expectations({**ref, "last_turns": [1, 2, 0]}, {**wrong, "last_turns": [1, 2, 0]}) == []
    # the same players in another order: the order is stated too (expect last turns compares it)
    assert state_expectations({**ref, "last_turns": [1, 2, 0]}, {**wrong, "last_turns": [0, 1, 2]}) == [
        "expect last turns p1 p2 p0"]
    assert state_expectations(ref, wrong) == ["expect no last turns"]


def test_the_installed_suite_seeds_the_search_from_any_folder(tmp_path, monkeypatch):
    from baobei_conform.fuzz.command import seed_folders
    from baobei_scenarios import SUITE_ROOT

    monkeypatch.chdir(tmp_path)  # an engine's own repository: no scenarios folder here
    assert [Path(p).resolve() for p in seed_folders(None)] == [SUITE_ROOT.resolve()]
    assert seed_folders([str(tmp_path / "missing"), str(tmp_path)]) == (str(tmp_path),)


class ForgetsTheWinner(ReferenceEngine):
    """The reference, except that set up at a game already won it forgets the winner (its own play keeps it): only
    setup(state()) shows it."""

    lost = False

    def setup(self, state, params=None):
        self.lost = state.get("winner") is not None
        return super().setup(state, params)

    def state(self):
        state = super().state()
        return {**state, "winner": None} if self.lost else state


def test_a_setup_that_loses_part_of_the_state_is_reproduced_from_that_state_set_up_raw():
    engine = ForgetsTheWinner()
    result = search(engine, max_examples=40, budget=120, players=(2,), **QUICK)
    assert result.found and result.found.problem.check == "setup", result.found and result.found.problem
    reproducer = reproduce(result.found, engine, "forgets the winner")
    assert "setup raw {" in reproducer.text and "expect state winner is " in reproducer.text
    assert reproducer.verified, reproducer.note
    assert not reproduce(result.found, ReferenceEngine(), "the reference").verified  # it passes there


def test_every_problem_the_fuzzer_raises_is_of_a_registered_check_and_every_check_is_raised():
    """checklist.CHECKS is the one list of the fuzzer's checks: the JSON's and the report's table come from it, and
    a Problem of any other name is refused."""
    import re

    from baobei_conform.fuzz.checklist import CHECKS
    from baobei_conform.fuzz.compare import Problem

    source = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "conformance" / "fuzz").glob("*.py"))
    raised = set(re.findall(r'Problem\(\s*"(\w+)"', source))
    assert raised == set(CHECKS)
    with pytest.raises(ValueError, match="no fuzzer check"):
        Problem("stat", "a typo")


def test_one_search_finds_and_shrinks_each_of_two_independent_misreadings():
    """Two bugs at once (a power after a replaced card, pelicans that do not match): one search reports both, each
    shrunk on its own (the shrinker never slips from one to the other), the most frequent first."""
    sys.path.insert(0, str(WRONG.parent))
    from engine import BUGS

    engine = ReferenceEngine(variants=[BUGS["power_on_replaced_card"][0], BUGS["pelicans_dont_match"][0]])
    result = search(engine, max_examples=10, budget=120, distinct=None, **QUICK)
    shrunk = {group: seen for group, seen in result.problems.items() if seen.shrunk}
    assert {"events power", "events pluck"} <= set(shrunk), result.problems
    assert all(seen.found.problem.group == group for group, seen in result.problems.items())
    assert [d.games for d in result.ranked()] == sorted((d.games for d in result.ranked()), reverse=True)
    assert result.found is result.ranked()[0].found
    for group in ("events power", "events pluck"):
        assert len(shrunk[group].found.actions) <= 12, group


def test_a_window_s_players_in_another_order_are_stated_in_the_canonical_order():
    """window_players_seat_order's only trace is the order of pending.players: the reproducer states it in order."""
    from baobei_conform.fuzz.compare import state_expectations

    ref = Game(players=3).to_json()
    window = {"kind": "window", "player": None, "players": [2, 0], "data": {"reference": "owl-1"}}
    seat_order = {**window, "players": [0, 2]}
    assert state_expectations({**ref, "pending": window}, {**ref, "pending": seat_order}) == [
        "expect pending window p2 p0"]
    assert state_expectations({**ref, "pending": window}, {**ref, "pending": window}) == []


def test_the_policy_plays_simultaneous_claims_in_every_priority_case():
    """The reference never lists simultaneous_plucks; the policy builds them: accepted, two or more claimants in
    any order, with claimants before and after the active player clockwise, an invalid claim skipped by priority,
    and the winner (the valid claim nearest clockwise to the active player, R-16) not always the first listed nor
    the active player's next player, also when the active player is not the round's first player."""
    from baobei_ref.actions import SimultaneousPlucks

    seen = {"three or more": False, "winner not first": False, "winner not next": False, "invalid": False,
            "both sides": False, "active not first": False}
    for seed in range(40):
        g, choices = Game(players=5), Seeded(seed)
        for _ in range(3000):
            if g.pending.kind == "game_over" or all(seen.values()):
                break
            action = choose(g, choices, 1)
            if isinstance(action, SimultaneousPlucks):
                s = g.state
                order = s.rivals(s.active_player)
                claimants = [c.player for c in action.claims]
                events = [e.to_json() for e in g.apply(action)]  # accepted: the policy plays only legal actions
                winner = next(e["player"] for e in events if e["kind"] == "priority")
                seen["three or more"] |= len(claimants) >= 3
                seen["winner not first"] |= winner != claimants[0]
                seen["winner not next"] |= winner != order[0]
                seen["invalid"] |= any(order.index(p) < order.index(winner) for p in claimants)
                seen["both sides"] |= min(claimants) < s.active_player < max(claimants)
                seen["active not first"] |= s.active_player != s.first
                continue
            g.apply(action)
    assert all(seen.values()), seen


def test_the_probes_try_other_action_types_and_zero_card_claims_and_count_each_refusal_code():
    """Coverage counts each decision x action type tried and each code a probe got: BAO at other decisions
    (bao_not_allowed), other types (wrong_decision), zero-card claims (no_cards), near misses."""
    result = search(ReferenceEngine(), max_examples=25, budget=120, scenarios=(str(ROOT / "scenarios"),), **QUICK)
    assert result.found is None
    tried, refusals = result.coverage.tried, result.coverage.refusals
    assert sum(n for (decision, action), n in tried.items() if action == "call_bao" and decision != "end_turn") > 0
    window_types = default_spec().vocabulary.decisions["window"]
    assert sum(n for (decision, action), n in tried.items() if decision == "window" and action not in window_types) > 0
    assert {"bao_not_allowed", "wrong_decision", "not_your_decision", "illegal_target", "no_cards"} <= set(refusals)
