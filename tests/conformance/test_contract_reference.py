"""The reference does exactly what spec/contract.yaml says, over the whole suite and seeded games with probes; and
the check is not vacuous: a reference mutated in one observable detail is reported, naming that detail."""

from __future__ import annotations

import pytest

import baobei_ref.game as game_module
from baobei_conform.contract.judge import judge
from baobei_conform.contract.observe import GAMES, observe_game, observe_games, observe_suite
from baobei_conform.harness.run import Selection, load_suite
from baobei_conform.options import default_suite
from baobei_ref import canonical, pluck
from baobei_ref.actions import CloseWindow
from baobei_ref.powers import add_to_rival, double_replace
from baobei_ref.state import Decision, Event
from baobei_spec import default_spec

CONTRACT = default_spec().contract


def suite(*clauses: str):
    return load_suite(default_suite(), Selection(clauses=list(clauses)))[0]


@pytest.fixture(scope="module")
def verdict():
    return judge(observe_suite(suite()) + observe_games(), complete=True)


def test_the_reference_keeps_the_whole_contract(verdict):
    assert verdict.findings == []


def test_every_situation_and_refusal_row_is_produced(verdict):
    """Not vacuous: each described situation and each row of the precedence was met, most of them many times."""
    assert set(verdict.situations) == {(s.kind, s.id) for s in CONTRACT.situations()}
    assert set(verdict.refusals) == {r.id for r in CONTRACT.refusals}
    assert sum(verdict.situations.values()) > 5_000 and sum(verdict.refusals.values()) > 2_000


@pytest.mark.parametrize("action", [
    {"type": "draw", "player": "0"},  # 2.0: not_your_decision
    {"type": "draw", "player": True},
    {"type": "draw", "player": 0, "card": "owl-1"},  # 2.0: the extra field was ignored
    {"type": "simultaneous_plucks", "claims": [[1, [[0, 1]]]]},  # 2.0: engine_error
    {"type": "initial_peek", "player": 0, "slots": "12"},  # 2.0: illegal_target
    {"type": "shoebill_replace", "player": 0, "own": [0], "rival": None},
    {"type": "shuffle", "order": "abc"},  # 2.0: bad_chance_outcome
    {"type": "draw"}, {"type": "fly", "player": 0}, ["draw", 0],
])
def test_an_action_of_another_shape_is_malformed_before_any_rule(action):
    """Protocol 2.1: the shape first (row 1), whatever the decision (here a turn, and a game over). The comments
    say what 2.0 answered at the decision the action answers."""
    from baobei_conform.engines.reference import ReferenceEngine
    from baobei_conform.protocol.server import handle
    from baobei_ref.setup import position
    from baobei_spec.contract import refusal_code

    engine = ReferenceEngine()
    for game in (position({0: ["owl"], 1: ["heron"]}), None):
        if game is None:  # a game that is over
            engine.new_game(2)
            engine.game.state.pending = Decision("game_over", None, (), {"winner": 0})
        else:
            engine.game = game
        state = engine.game.to_json()
        assert refusal_code(state, action) == "malformed_action"
        assert handle(engine, {"cmd": "apply", "action": action})["error"]["code"] == "malformed_action"
        assert engine.game.to_json() == state


def test_a_situation_nothing_produces_is_reported():
    """Judged on the games alone (no scenario sets up a decisive round's end), some situations are never seen."""
    found = judge(observe_game(*GAMES[0]), complete=True).findings
    assert "situation game_over.decisive (5.4.1) was never produced" in found


def findings(*clauses: str, games=GAMES[1:2]) -> list[str]:
    """The findings on the scenarios citing these clauses and a few seeded games, coverage not required."""
    return judge(observe_suite(suite(*clauses), must_pass=False) + observe_games(games)).findings


def test_an_undescribed_event_is_reported(monkeypatch):
    """A reference that also says the window opened again when it closes: a kind the contract does not describe."""
    validate, perform = game_module.ANSWERS[("window", CloseWindow)]

    def perform_and_more(g, a):
        perform(g, a)
        g.events.append(Event("window_reopened", "3.2.3", {}))
    monkeypatch.setitem(game_module.ANSWERS, ("window", CloseWindow), (validate, perform_and_more))
    found = findings("3.2.3")
    assert found and all("window_reopened" in f for f in found)
    assert "the contract describes no event kind 'window_reopened'" in found[0]


def test_a_described_event_in_an_undescribed_situation_is_reported(monkeypatch):
    """The Toco Toucan's choice of rival also emitted when the rival places the card: no situation of toco_target."""
    place = pluck.place

    def place_and_say(g, owner, slot, card, by, clause):
        place(g, owner, slot, card, by, clause)
        if clause == "6.7.1":
            g.emit("toco_target", "6.7.1", player=by, rival=owner)
    monkeypatch.setattr(pluck, "place", place_and_say)
    found = findings("6.7.1")
    assert found and all("0 situations of toco_target match (none)" in f for f in found)


def test_another_clause_for_a_described_situation_is_reported(monkeypatch):
    """Closing a window cited as B.3 (which is for a window never asked) instead of 3.2.3."""
    def perform_close(g, a):
        g.emit("window_closed", "B.3", reference=g.decision.data["reference"])
    monkeypatch.setitem(game_module.ANSWERS, ("window", CloseWindow), (pluck.validate_close, perform_close))
    found = findings("3.2.3")
    assert found and all("window_closed [B.3] of close_window: cites B.3, the contract's situation closed cites 3.2.3"
                         in f for f in found)


def test_another_order_of_a_windows_players_is_reported(monkeypatch):
    """A window's players in seat order instead of clockwise from the active player."""
    def window(g, reference):
        s = g.state
        eligible = tuple(sorted(s.rivals(s.active_player)))
        if any(s.count(p) for p in eligible):
            g.ask("window", None, eligible, reference=reference)
        else:
            g.emit("window_closed", "B.3", reference=reference)
    monkeypatch.setitem(game_module.STEPS, "window", window)
    found = findings("3.2.3")
    assert found and all("state.pending.players: pending.players of a window is" in f for f in found)
    assert any("is [0, 2], the contract says [2, 0]" in f for f in found)


def test_another_refusal_code_is_reported(monkeypatch):
    """BAO called at a decision other than end_turn answered wrong_decision (the precedence says bao_not_allowed)."""
    monkeypatch.setattr(game_module, "CallBao", type("NotBao", (), {}))
    found = findings("4.1.2")
    assert found and all("is refused with 'wrong_decision' citing None; the contract's row bao_at_another_moment "
                         "says 'bao_not_allowed' citing 4.1.2" in f for f in found)


def test_a_view_showing_another_decisions_data_is_reported(monkeypatch):
    """A view that keeps a place decision's card (nobody has seen a penalty or Toco Toucan card)."""
    view = canonical.view

    def leaky(g, player):
        out = view(g, player)
        out["pending"]["data"] = dict(g.state.pending.data)
        return out
    monkeypatch.setattr(canonical, "view", leaky)
    found = findings("3.5.6")
    assert any("view of a place shows data ['by', 'card', 'clause'], the contract ['by', 'clause']" in f for f in found)


def test_a_toco_card_moved_only_once_placed_is_reported(monkeypatch):
    """The Toco Toucan's card marked moved when it is placed, not when it is drawn (the contract: from the draw)."""
    draw, place = add_to_rival.step_toco_draw, pluck.place

    def not_yet(g, player, rival):
        moved = set(g.state.moved)
        draw(g, player, rival)
        g.state.moved = moved

    def place_and_mark(g, owner, slot, card, by, clause):
        place(g, owner, slot, card, by, clause)
        if clause == "6.7.1":
            g.state.moved.add(card)
    monkeypatch.setitem(game_module.STEPS, "toco_draw", not_yet)
    monkeypatch.setattr(pluck, "place", place_and_mark)
    found = findings("6.7.1")
    assert any("moved: the Toco Toucan's card" in f and "waits for a slot, not in moved" in f for f in found)


def test_shoebill_cards_moved_only_once_they_replace_are_reported(monkeypatch):
    """The Shoebill's cards marked moved when they replace, not when drawn (R-28 and the contract: from the draw)."""
    draw, put = double_replace.step_shoebill_draw, double_replace.put

    def not_yet(g, player, drawn):
        moved = set(g.state.moved)
        draw(g, player, drawn)
        g.state.moved = moved

    def put_and_mark(g, player, target, card):
        put(g, player, target, card)
        g.state.moved.add(card)
    monkeypatch.setitem(game_module.STEPS, "shoebill_draw", not_yet)
    monkeypatch.setattr(double_replace, "put", put_and_mark)
    found = findings("6.9.2", "6.9.4")
    assert any("moved: the Shoebill's drawn cards" in f and "wait for their slots, not in moved" in f for f in found)
