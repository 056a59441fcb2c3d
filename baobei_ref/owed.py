"""What the rules still owe after the pending decision, in the game's terms, and the agenda it stands for.

Between two actions the reference's private agenda holds nothing but: the end of the turn (once the
turn's action is under way), the powers still owed (6.10, 2.7.5 with ruling R-04), a successful pluck's
gifts and shield check (3.4.4, 3.6.7, 4.2.9), the shield check after a Toco Toucan's card is placed
(6.7.1), and the draw a recycle interrupted (7.1.1, 7.1.7). The canonical state says these as
``owed_powers``, ``pluck`` and ``drawing``; the rest follows from the pending decision and the table,
so :func:`rebuild` gives back the very agenda :func:`owed` read.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from baobei_ref import zones
from baobei_ref.agenda import (
    DiscardPower,
    GiftOwed,
    Penalty,
    Power,
    ShieldCheck,
    ShoebillDraw,
    Step,
    TocoDraw,
    TurnDraw,
    TurnEnd,
)
from baobei_ref.state import Decision, State
from baobei_spec.position.owed import BEFORE_ACTION  # nothing of an action is owed yet at these

DISCARD_POWER = "6.1.2"  # the clause of a direct discard's power (2.7.5)
TOCO_PLACE = "6.7.1"  # a card placed by the Toco Toucan: the shield check follows (6.7.1, 4.2.2)


def owed(s: State, has_power: Callable[[str], object]) -> dict[str, Any]:
    """``owed_powers``, ``pluck`` and ``drawing`` of the canonical state; ``has_power(card)`` from the catalog.

    Powerless cards are left out of ``owed_powers``: activating them does nothing (6.8.1)."""
    powers: list[dict[str, Any]] = []
    drawing = None
    for step in s.agenda:  # the bottom first
        match step:
            case DiscardPower(card) if has_power(card):
                powers.append({"player": s.active_player, "card": card, "clause": DISCARD_POWER})
            case Power(player, card, clause) if has_power(card):
                powers.append({"player": player, "card": card, "clause": clause})
            case TurnDraw():
                drawing = _drawing("turn", s.active_player)
            case Penalty(player):
                drawing = _drawing("penalty", player)
            case TocoDraw(player, rival):
                drawing = _drawing("toco_toucan", player, rival)
            case ShoebillDraw(player, drawn):
                drawing = _drawing("shoebill", player, cards=[c for c in drawn if c is not None])
    pluck = None if s.plucking is None else {"player": s.plucking[0], "targets": [list(t) for t in s.plucking[1]]}
    return {"owed_powers": powers[::-1], "pluck": pluck, "drawing": drawing}


def _drawing(why: str, player: int, rival: int | None = None, cards: list[str] | None = None) -> dict[str, Any]:
    return {"for": why, "player": player, "rival": rival, "cards": cards or []}


def rebuild(s: State, data: dict[str, Any]) -> None:
    """Set the private agenda (and the shield bookkeeping) a canonical state's owed facts stand for.

    ``s`` already holds the table and the pending decision of ``data``, a position ``check_position`` accepted."""
    pending, pluck, drawing = _pending(s), data["pluck"], data["drawing"]
    agenda: list[Step] = []
    if pending.kind not in BEFORE_ACTION and not (drawing and drawing["for"] == "turn"):
        agenda.append(TurnEnd())
    for power in reversed(data["owed_powers"]):
        if power["clause"] == DISCARD_POWER:
            agenda.append(DiscardPower(power["card"]))
        else:
            agenda.append(Power(power["player"], power["card"], power["clause"]))
    if pluck is not None:
        agenda += _gifts(s, pluck["player"], [(t[0], t[1]) for t in pluck["targets"]])
    elif pending.kind == "place" and pending.data.get("clause") == TOCO_PLACE:
        agenda.append(ShieldCheck())
    if drawing is not None:
        agenda.append(_retry(drawing))
    s.agenda = agenda


def _pending(s: State) -> Decision:
    if s.pending is None:
        raise RuntimeError("a canonical state has a pending decision")
    return s.pending


def _gifts(s: State, player: int, targets: list[tuple[int, int]]) -> list[Step]:
    """The pluck's shield check and the gifts after the pending one: rival targets whose slot is still empty."""
    owing = [t for t in targets if t[0] != player and s.card_at(t) is None]
    s.plucking = (player, tuple(targets))
    s.shield_touched = any(zones.rival_modification(s, owner, player) for owner, _ in targets)
    return [ShieldCheck()] + [GiftOwed(player, owner, slot) for owner, slot in reversed(owing[1:])]


RETRY: dict[str, Callable[[dict[str, Any]], Step]] = {  # drawing.for -> the draw that goes on after the shuffle
    "turn": lambda d: TurnDraw(),
    "penalty": lambda d: Penalty(d["player"]),
    "toco_toucan": lambda d: TocoDraw(d["player"], d["rival"]),
    "shoebill": lambda d: ShoebillDraw(d["player"], tuple(d["cards"])),
}


def _retry(drawing: dict[str, Any]) -> Step:
    return RETRY[drawing["for"]](drawing)
