"""Part 7: drawing, recycling the discard pile (7.1) and the automatic final phase (7.2)."""

from __future__ import annotations

from baobei_ref.actions import Shuffle
from baobei_ref.agenda import Penalty, Step
from baobei_ref.readings import reading
from baobei_ref.state import State


def can_recycle(s: State) -> bool:
    """7.1.8: a recycle needs at least one card besides the top discard (the pile or under it)."""
    return len(s.discard) > 1 or bool(s.under)


def draw(g, retry: Step) -> str | None:
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


def validate_recycle(g, a: Shuffle) -> None:
    from baobei_ref.turn import validate_shuffle

    validate_shuffle(g, a)


def perform_recycle(g, a: Shuffle) -> None:
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
        start_final_phase(g)


def start_final_phase(g) -> None:
    """7.2.2 - 7.2.5: the active player finishes (7.2.3); every other player plays one last turn (7.2.4).

    Ruling R-06: the active player triggered it, whoever drew. Ruling R-05 (after a BAO call) is
    settled here and only here, by the reading in force (rule parameter ``rulings``).
    """
    s = g.state
    if s.bao is not None:
        _final_phase_after_bao(g, reading(g.params, "R-05"))
    else:
        s.final_phase, s.shield, s.last_turns = True, "none", _last_turns(g)
    if s.final_phase:
        g.emit("final_phase", "7.2.2", ruling="R-05" if s.bao is not None else "R-06",
               also=("7.2.3", "7.2.4", "7.2.5"), triggered_by=s.active)


def _last_turns(g) -> list[int]:
    """R-06 (adopted B): every player but the active one plays a last turn. Reading A (a switch): the
    player whose penalty draw caused the recycle (the step waiting on the agenda) triggered the phase
    and plays no more."""
    s = g.state
    waiting = s.agenda[-1] if s.agenda else None
    if reading(g.params, "R-06") == "A" and isinstance(waiting, Penalty):
        return [p for p in s.rivals(s.active) if p != waiting.player]
    return s.rivals(s.active)


def _final_phase_after_bao(g, chosen: str) -> None:
    """R-05. B (adopted): no shield, ordinary scores, the BAO last turns stand (the caller never plays
    again, nobody plays twice: 4.1.4, 4.1.5, FAQ-17). A: every player but the active one plays one more
    turn (a literal 7.2.4). C: the final phase is ignored. D: as A, but the caller does not play again."""
    s = g.state
    if chosen == "C":
        return
    s.final_phase, s.shield = True, "none"
    if chosen == "A":
        s.last_turns = s.rivals(s.active)
    elif chosen == "D":
        s.last_turns = [p for p in s.rivals(s.active) if p != s.bao]


STEPS: dict = {}
ANSWERS = {("recycle", Shuffle): (validate_recycle, perform_recycle)}
LEGAL = {"recycle": lambda g: []}
