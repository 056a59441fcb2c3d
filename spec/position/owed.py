"""What a position owes after its pending decision: powers (6.10), a pluck's gifts (3.4.4) and an interrupted draw
(7.1.1), against the moment and the table.

Powers are owed only in the middle of an action: after a direct discard (6.1.2, its window still open), after a
successful pluck (6.10.3 and 6.10.4 for an own-draw pluck, 6.10.5 for a window pluck, 6.10.6 for a double),
while an earlier one resolves. One action activates at most two powers, so at most two are owed, in the orders
below (ruling R-04 reads the direct discard's either last or first). An owed power's card lies on the discard
pile, unless a power that draws (the Toco Toucan, the Shoebill) resolves first and a recycle moved it on.
"""

from __future__ import annotations

from typing import Any

from baobei_spec.position.errors import MalformedState, need
from baobei_spec.position.table import DISCARD, Table

# Decisions before the turn's action or outside a turn: nothing of an action is owed yet.
BEFORE_ACTION = ("first_player", "deal", "initial_peek", "turn", "drawn", "end_turn", "game_over")
PAIRS = (("6.10.3", "6.10.4"), ("6.10.5", "6.1.2"), ("6.10.6", "6.1.2"), ("6.1.2", "6.10.5"), ("6.1.2", "6.10.6"))
OWN_DRAW = ("6.10.3", "6.10.4")  # the plucker is the active player
DIRECT = "6.1.2"
TOCO = "6.7.1"


def check_owed(t: Table) -> None:
    s, kind = t.state, t.kind
    need((s["pluck"] is not None) == (kind == "gift"), "pluck", "is the successful pluck owing gifts exactly while "
         f"a 'gift' is pending (3.4.4), not at a {kind!r} decision")
    need((s["drawing"] is not None) == (kind == "recycle"), "drawing", "is the draw a recycle interrupted exactly "
         f"while a 'recycle' is pending (7.1.1), not at a {kind!r} decision")
    if s["pluck"] is not None:
        _pluck(t, s["pluck"])
    if s["drawing"] is not None:
        _drawing(t, s["drawing"])
    _powers(t, s["owed_powers"])


def _pluck(t: Table, pluck: dict[str, Any]) -> None:
    plucker, targets = pluck["player"], [tuple(x) for x in pluck["targets"]]
    need(len(set(targets)) == len(targets), "pluck.targets", "a double pluck names two different cards (3.6.1)")
    for i, (owner, slot) in enumerate(targets):
        zone = t.zones[owner]
        need(slot <= len(zone), f"pluck.targets[{i}]", f"player {owner} has no slot {slot}")
        need(owner != plucker or zone[slot - 1] is None, f"pluck.targets[{i}]", "the plucker's own target was "
             "removed (3.3.3): its slot is empty until the gifts are given")
    owing = [(o, slot) for o, slot in targets if o != plucker and t.zones[o][slot - 1] is None]
    need(bool(owing) and owing[0] == (t.data["rival"], t.data["slot"]), "pending.data", "the pending gift goes into "
         f"the first rival slot of the pluck still empty (3.6.7): {owing[0] if owing else 'none is'}")


def _drawing(t: Table, drawing: dict[str, Any]) -> None:
    why, player, rival = drawing["for"], drawing["player"], drawing["rival"]
    if why == "turn":
        need(player == t.state["active"], "drawing.player", "the turn's draw is the active player's (2.7.1)")
    if why == "toco_toucan":
        need(rival is not None and rival != player, "drawing.rival", "the Toco Toucan's card goes to a rival (6.7.1)")
    else:
        need(rival is None, "drawing.rival", "names the Toco Toucan's rival, null for another draw")
    most = 1 if why == "shoebill" else 0
    need(len(drawing["cards"]) <= most, "drawing.cards", "holds the Shoebill's first card, if drawn (7.1.7), and "
         "nothing for another draw")


def _room(t: Table) -> int:
    """How many powers may be owed at this moment."""
    s, kind = t.state, t.kind
    drawing = s["drawing"]["for"] if s["drawing"] is not None else None
    if kind in BEFORE_ACTION or drawing == "turn":
        return 0
    return 2 if kind == "gift" else 1


def _resolving_a_draw(t: Table) -> bool:
    """A Toco Toucan's or a Shoebill's draw is under way: a recycle may have moved an owed card on."""
    s, kind = t.state, t.kind
    return (kind == "shoebill" or (kind == "place" and t.data["clause"] == TOCO)
            or (kind == "recycle" and s["drawing"]["for"] in ("toco_toucan", "shoebill")))


def _powers(t: Table, powers: list[dict[str, Any]]) -> None:
    s, kind = t.state, t.kind
    room = _room(t)
    need(len(powers) <= room, "owed_powers", f"at most {room} power(s) are owed at a {kind!r} decision: powers are "
         "owed only in the middle of an action (6.10.1)" if room else f"nothing is owed at a {kind!r} decision: "
         "powers are owed only in the middle of an action (6.10.1)")
    clauses = tuple(p["clause"] for p in powers)
    need(len(clauses) < 2 or clauses in PAIRS, "owed_powers", f"one action does not owe {' then '.join(clauses)} "
         "(6.10.2 - 6.10.6, ruling R-04)")
    cards = [p["card"] for p in powers]
    twice = [c for i, c in enumerate(cards) if c in cards[:i]]
    need(not twice, "owed_powers", f"{twice[:1]} owed twice (each activation is once, 6.10.1)")
    pluckers = {p["player"] for p in powers if p["clause"] != DIRECT}
    need(len(pluckers) <= 1, "owed_powers", "a pluck's powers are the plucker's (6.1.4)")
    for i, power in enumerate(powers):
        _power(t, power, f"owed_powers[{i}]")
    if kind == "window":
        need(all(p["card"] == t.data["reference"] and p["clause"] == DIRECT for p in powers), "owed_powers",
             "at a window only the direct discard's power waits, for the reference (2.7.5, 6.1.2)")
    if kind == "gift":
        need(pluckers <= {s["pluck"]["player"]}, "owed_powers", "the pluck's powers are the plucker's (6.1.4)")


def _power(t: Table, power: dict[str, Any], path: str) -> None:
    s = t.state
    card, clause, player = power["card"], power["clause"], power["player"]
    species = t.rules.species[card]
    need(t.rules.powers[species] is not None, f"{path}.card", f"{card} is a plain bird ({species}): no power is owed "
         "for it (6.8.1)")
    if clause == DIRECT or clause in OWN_DRAW:
        need(player == s["active"], f"{path}.player", f"a {clause} power is the active player's ({s['active']})")
    if clause == "6.10.5":
        need(player != s["active"], f"{path}.player", "a window pluck is a rival's (3.2.3)")
    area = t.area(card)
    if area != DISCARD and not _resolving_a_draw(t):
        raise MalformedState(f"{path}.card", f"{card} is at {t.places[card][1]}; an owed power's card lies on the "
                                             "discard pile, where it was discarded or plucked to (6.1.2, 6.1.4)")
