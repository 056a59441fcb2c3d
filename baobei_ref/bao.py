"""Part 4: calling BAO at the end of one's turn (4.1.1), the last turns, and the shield."""

from __future__ import annotations

from baobei_ref.actions import CallBao, EndTurn
from baobei_ref.agenda import NextTurn, ShieldCheck, TurnEnd
from baobei_ref.readings import reading


def bao_allowed(g) -> bool:
    """4.1.2 / 4.1.3 / 7.2.5 (ruling R-17): the end of a normal turn, no BAO yet, no final phase.
    B.7: holding no card does not matter. Switches: R-07 B, no BAO in a decisive round; R-17 A, BAO
    at the end of any turn of a player while nobody has called it (the final phase included)."""
    s = g.state
    if s.decisive and reading(g.params, "R-07") == "B":
        return False
    if reading(g.params, "R-17") == "A":
        return s.bao is None
    return s.bao is None and not s.final_phase and s.last_turns is None


def step_end_turn(g) -> None:
    """4.1.2: BAO can be called only now, after the action, every pluck and every power."""
    if bao_allowed(g):
        g.ask("end_turn", g.state.active)
    else:
        g.then(NextTurn())


def validate_call(g, a: CallBao) -> None:
    g.require_player(a)


def perform_call(g, a: CallBao) -> None:
    """4.1.3 - 4.1.5: no other BAO; each rival plays exactly one last turn (4.1.4); the caller plays no more."""
    s = g.state
    s.bao, s.shield = a.player, "armed"
    s.last_turns = s.rivals(a.player)
    g.emit("bao", "4.1.2", also=("4.1.1", "4.1.3", "4.1.4", "4.1.5", "4.2.1"), player=a.player)
    g.then(NextTurn())


def validate_end(g, a: EndTurn) -> None:
    g.require_player(a)


def perform_end(g, a: EndTurn) -> None:
    g.then(NextTurn())


def step_shield_check(g) -> None:
    """4.2.2: the shield activates once the first rival modification is complete (ruling R-13).

    A pluck's shield check comes after all its gifts (4.2.9), so the pluck is no longer under way."""
    s = g.state
    s.plucking = None
    if s.shield_touched:
        s.shield_touched = False
        if s.shield == "armed":
            s.shield = "active"
            g.emit("shield_activated", "4.2.2", ruling="R-13", also=("4.2.3", "4.2.6"), player=s.bao)


def legal_end_turn(g):
    p = g.state.active
    return [CallBao(p), EndTurn(p)]


STEPS = {TurnEnd: step_end_turn, ShieldCheck: step_shield_check}
ANSWERS = {("end_turn", CallBao): (validate_call, perform_call), ("end_turn", EndTurn): (validate_end, perform_end)}
LEGAL = {"end_turn": legal_end_turn}
