"""Part 7: drawing, recycling the discard pile (7.1) and the automatic final phase (7.2)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from baobei_ref import agenda
from baobei_ref.actions import Shuffle
from baobei_ref.agenda import Penalty
from baobei_ref.rules import Answer, AnswerKey, Legal, Step, reading
from baobei_ref.state import State

if TYPE_CHECKING:
    from baobei_ref.game import Game


def can_recycle(s: State) -> bool:
    """7.1.8: a recycle needs at least one card besides the top discard (the pile or under it)."""
    return len(s.discard) > 1 or bool(s.under)


def draw(g: Game, retry: agenda.Step) -> str | None:
    """The top deck card for a rule that requires a draw (7.1.1, ruling R-26).

    With an empty deck, asks for the recycle shuffle and schedules ``retry`` after it (returns None
    with ``g.state.pending`` set); with nothing to recycle, the draw is skipped (returns None, 7.1.8).
    """
    s = g.state
    if s.deck:
        return s.deck.pop()
    if can_recycle(s):
        g.then(retry)
        g.ask("recycle", None, cards=sorted(s.discard[:-1] + s.under))
        return None
    g.emit("draw_impossible", "7.1.8", ruling="R-09")
    return None


def validate_recycle(g: Game, a: Shuffle) -> None:
    from baobei_ref.turn import validate_shuffle

    validate_shuffle(g, a)


def perform_recycle(g: Game, a: Shuffle) -> None:
    """7.1.2 - 7.1.6: the top discard stays; the rest (7.1.3) and the cards under the pile (7.1.4)
    become the deck. 7.2.1: recycles are counted per round; the first changes nothing else."""
    s = g.state
    top = s.discard[-1]
    for card in a.order:
        s.seen.pop(card, None)  # 7.1.5: shuffled unseen, their places are unknown to everyone
    s.deck = list(reversed(a.order))
    s.discard, s.under = [top], []
    s.recycles += 1
    g.emit("recycled", "7.1.1", also=("7.1.2", "7.1.3", "7.1.4", "7.1.5", "7.1.6", "7.2.1"),
           count=s.recycles, cards=len(a.order))
    if s.recycles == g.params.final_phase_recycle:
        g.rules.start_final_phase(g)


def start_final_phase(g: Game) -> None:
    """7.2.2 - 7.2.5: the active player finishes (7.2.3); every other player plays one last turn (7.2.4).

    Ruling R-06: the active player triggered it, whoever drew. Ruling R-05 (after a BAO call) is
    settled by the named rule ``final_phase_after_bao`` (adopted B unless a reading replaces it).
    """
    s = g.state
    if s.bao is not None:
        g.rules.final_phase_after_bao(g)
    else:
        s.final_phase, s.shield, s.last_turns = True, "none", g.rules.last_turns(g)
    if s.final_phase:
        g.emit("final_phase", "7.2.2", ruling="R-05" if s.bao is not None else "R-06",
               also=("7.2.3", "7.2.4", "7.2.5"), triggered_by=s.active)


def all_but_active(g: Game) -> list[int]:
    """R-06 (adopted B): every player but the active one plays a last turn."""
    return g.state.rivals(g.state.active_player)


def all_but_penalised(g: Game) -> list[int]:
    """R-06, reading A (a switch): the player whose penalty draw caused the recycle (the step waiting on
    the agenda) triggered the phase and plays no more."""
    s = g.state
    waiting = s.agenda[-1] if s.agenda else None
    if isinstance(waiting, Penalty):
        return [p for p in s.rivals(s.active_player) if p != waiting.player]
    return s.rivals(s.active_player)


def bao_turns_stand(g: Game) -> None:
    """R-05 (adopted B): no shield, ordinary scores, the BAO last turns stand (the caller never plays
    again, nobody plays twice: 4.1.4, 4.1.5, FAQ-17)."""
    s = g.state
    s.final_phase, s.shield = True, "none"


def everyone_again(g: Game) -> None:
    """R-05, reading A (a switch): every player but the active one plays one more turn (a literal 7.2.4)."""
    bao_turns_stand(g)
    g.state.last_turns = g.state.rivals(g.state.active_player)


def final_phase_ignored(g: Game) -> None:
    """R-05, reading C (a switch): after BAO, the final phase is ignored."""


def everyone_but_caller(g: Game) -> None:
    """R-05, reading D (a switch): as A, but the caller does not play again."""
    s = g.state
    bao_turns_stand(g)
    s.last_turns = [p for p in s.rivals(s.active_player) if p != s.bao]


STEPS: dict[str, Step] = {}
ANSWERS: dict[AnswerKey, Answer] = {("recycle", Shuffle): (validate_recycle, perform_recycle)}
LEGAL: dict[str, Legal] = {"recycle": lambda g: []}
VARIANTS = (
    reading("R-05", "A", final_phase_after_bao=everyone_again),
    reading("R-05", "C", final_phase_after_bao=final_phase_ignored),
    reading("R-05", "D", final_phase_after_bao=everyone_but_caller),
    reading("R-06", "A", last_turns=all_but_penalised),
)
