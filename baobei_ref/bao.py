"""Part 4: calling BAO at the end of one's turn (4.1.1), the last turns, and the shield."""

from __future__ import annotations

from typing import TYPE_CHECKING

from baobei_ref.actions import Action, CallBao, EndTurn
from baobei_ref.agenda import NextTurn
from baobei_ref.rules import Answer, AnswerKey, Legal, Step, reading

if TYPE_CHECKING:
    from baobei_ref.game import Game


def bao_allowed(g: Game) -> bool:
    """4.1.2 / 4.1.3 / 7.2.5: BAO at the end of a turn (ruling R-17), in a decisive round too (R-07).
    B.7: holding no card does not matter."""
    return (not g.state.decisive or g.rules.bao_in_decisive_round(g)) and g.rules.bao_moment(g)


def bao_in_any_round(g: Game) -> bool:
    """Ruling R-07 (adopted A): a decisive round is played like any round, BAO included."""
    return True


def no_bao_in_decisive_round(g: Game) -> bool:
    """Ruling R-07, reading B (a switch): no BAO in a decisive round."""
    return False


def normal_turn_end(g: Game) -> bool:
    """Ruling R-17 (adopted B): the end of a normal turn, no BAO yet, no final phase."""
    s = g.state
    return s.bao is None and not s.final_phase and s.last_turns is None


def any_turn_end(g: Game) -> bool:
    """Ruling R-17, reading A (a switch): the end of any turn while nobody has called BAO (the final phase included)."""
    return g.state.bao is None


def step_end_turn(g: Game) -> None:
    """4.1.2: BAO can be called only now, after the action, every pluck and every power."""
    if bao_allowed(g):
        g.ask("end_turn", g.state.active)
    else:
        g.then(NextTurn())


def validate_call(g: Game, a: CallBao) -> None:
    g.require_player(a)


def perform_call(g: Game, a: CallBao) -> None:
    """4.1.3 - 4.1.5: no other BAO; each rival plays exactly one last turn (4.1.4); the caller plays no more."""
    s = g.state
    s.bao, s.shield = a.player, "armed"
    s.last_turns = s.rivals(a.player)
    g.emit("bao", "4.1.2", also=("4.1.1", "4.1.3", "4.1.4", "4.1.5", "4.2.1"), player=a.player)
    g.then(NextTurn())


def validate_end(g: Game, a: EndTurn) -> None:
    g.require_player(a)


def perform_end(g: Game, a: EndTurn) -> None:
    g.then(NextTurn())


def step_shield_check(g: Game) -> None:
    """4.2.2: the shield activates once the first rival modification is complete (ruling R-13).

    A pluck's shield check comes after all its gifts (4.2.9), so the pluck is no longer under way."""
    s = g.state
    s.plucking = None
    if s.shield_touched:
        s.shield_touched = False
        if s.shield == "armed":
            s.shield = "active"
            g.emit("shield_activated", "4.2.2", ruling="R-13", also=("4.2.3", "4.2.6"), player=s.bao)


def legal_end_turn(g: Game) -> list[Action]:
    p = g.state.active_player
    return [CallBao(p), EndTurn(p)]


STEPS: dict[str, Step] = {"end_turn": step_end_turn, "shield_check": step_shield_check}
ANSWERS: dict[AnswerKey, Answer] = {("end_turn", CallBao): (validate_call, perform_call),
                                    ("end_turn", EndTurn): (validate_end, perform_end)}
LEGAL: dict[str, Legal] = {"end_turn": legal_end_turn}
VARIANTS = (reading("R-07", "B", bao_in_decisive_round=no_bao_in_decisive_round),
            reading("R-17", "A", bao_moment=any_turn_end))
