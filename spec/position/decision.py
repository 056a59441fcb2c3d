"""The pending decision against the table: who decides, and that what its data names is where it must be.

``DATA`` lists each decision kind's data fields (docs/protocol.md, section 6); a test holds its kinds to the
vocabulary's. A decision the rules take by themselves when it has a single answer is never pending (a gift from
a player's only card, a card placed where only one slot can take it: docs/protocol.md section 6), nor one that
has no answer at all (a power without a possible effect has none, 6.10.7).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypedDict

from baobei_spec.position.errors import MalformedState, need
from baobei_spec.position.shape import Frame, card, cards, integer, player, target
from baobei_spec.position.table import Table

CHANCE = ("first_player", "deal", "recycle", "window", "game_over")  # nobody in particular decides
ACTIVE = ("turn", "drawn", "end_turn")  # the active player's own decisions
PLACE_CLAUSES = ("3.5.6", "6.7.1")  # a penalty card, a Toco Toucan's card


class DecisionData(TypedDict, total=False):
    """A pending decision's data, each field as its kinds (``DATA``) carry it: the type of the reference's
    ``Decision.data``, its JSON form as it is (a test holds its fields to ``DATA``'s)."""

    cards: list[str]  # deal, recycle: the cards to shuffle; shoebill: the cards drawn
    count: int  # initial_peek: the cards each player looks at
    reference: str  # window: the card a claim must match
    rival: int  # gift: whose slot it goes into
    slot: int
    card: str  # place: the card to place, by whom and why (a penalty, a Toco Toucan's card)
    by: int
    clause: str
    first: list[int]  # macaw_swap: the two targets looked at, [owner, slot]
    second: list[int]
    winner: int  # game_over


DATA: Mapping[str, tuple[str, ...]] = {
    "first_player": (), "deal": ("cards",), "recycle": ("cards",), "initial_peek": ("count",), "turn": (),
    "drawn": (), "window": ("reference",), "gift": ("rival", "slot"), "place": ("card", "by", "clause"),
    "white_pelican": (), "brown_pelican": (), "blind_swap": (), "macaw": (), "macaw_swap": ("first", "second"),
    "toco_toucan": (), "shoebill": ("cards",), "end_turn": (), "game_over": ("winner",),
}


def _data_field(name: str, value: Any, path: str, frame: Frame) -> None:
    if name == "cards":
        cards(value, path, frame)
    elif name in ("count", "slot"):
        integer(value, path, 0 if name == "count" else 1)
    elif name in ("reference", "card"):
        card(value, path, frame)
    elif name in ("rival", "by", "winner"):
        player(value, path, frame)
    elif name in ("first", "second"):
        target(value, path, frame)
    else:
        need(value in PLACE_CLAUSES, path, f"must be one of {', '.join(PLACE_CLAUSES)}")


def check_decision_shape(t: Table, frame: Frame) -> None:
    """The kind, who decides and the data's fields and types (before the cards are located)."""
    pending, kind = t.state["pending"], t.kind
    need(kind in DATA, "pending.kind", f"must be one of {', '.join(DATA)}")
    if kind in CHANCE:
        need(pending["player"] is None, "pending.player", f"is null: nobody in particular decides a {kind!r}")
    else:
        need(pending["player"] is not None, "pending.player", f"names who decides the {kind!r}")
    data = t.data
    need(set(data) == set(DATA[kind]), "pending.data", f"a {kind!r} decision's data is "
         f"{{{', '.join(DATA[kind])}}}, not {{{', '.join(sorted(data))}}}")
    for name in DATA[kind]:
        _data_field(name, data[name], f"pending.data.{name}", frame)


def check_decision(t: Table) -> None:
    """The decision against the table (after the cards are located)."""
    s, kind, pending = t.state, t.kind, t.state["pending"]
    if kind in ACTIVE:
        need(pending["player"] == s["active"], "pending.player", f"a {kind!r} decision is the active player's "
             f"({s['active']})")
    expected = t.players if kind == "first_player" else t.rivals(s["active"]) if kind == "window" else []
    need(pending["players"] == expected, "pending.players", f"must be {expected} at a {kind!r} decision")
    decider = pending["player"]
    if decider is None:
        chance = CHANCE_CHECKS.get(kind)
        if chance is not None:
            chance(t, t.data)
    else:
        check = PLAYER_CHECKS.get(kind)
        if check is not None:
            check(t, t.data, decider)


def _deal(t: Table, data: dict[str, Any]) -> None:
    need(data["cards"] == t.state["box"], "pending.data.cards", "the deal shuffles the box (2.1.1): the box's cards")


def _recycle(t: Table, data: dict[str, Any]) -> None:
    s = t.state
    need(not s["deck"], "deck", "a recycle rebuilds an empty deck (7.1.1): the deck must be empty")
    rebuilt = sorted(s["discard"][:-1] + s["under"])
    need(bool(rebuilt) and data["cards"] == rebuilt, "pending.data.cards", "a recycle shuffles the discards "
         f"below the top and the cards under the pile (7.1.3, 7.1.4), sorted: {rebuilt}")


def _initial_peek(t: Table, data: dict[str, Any], decider: int) -> None:
    s = t.state
    need(data["count"] == t.rules.initial_peek, "pending.data.count", f"every player looks at "
         f"{t.rules.initial_peek} own cards (2.2.1)")
    sizes = t.rules.decisive_hand_size if s["decisive"] else t.rules.hand_size
    size = sizes.get(len(t.players))
    for p, zone in t.zones.items():
        need(size is None or (len(zone) == size and None not in zone), f"zones.{p}", f"holds the {size} cards "
             "dealt to each player (2.1.2, 2.1.3, 5.4.1)")


def _turn(t: Table, data: dict[str, Any], decider: int) -> None:
    need(t.can_draw() or t.count(t.state["active"]) > 0, "pending", "a player who can neither draw nor take the "
         "discard has no turn decision: the turn passes on (7.1.8, ruling R-09)")


def _end_turn(t: Table, data: dict[str, Any], decider: int) -> None:
    need(t.state["bao"] is None, "pending.kind", "'end_turn' is where BAO may be called; once it is called, it is "
         "not asked again (4.1.3)")


def _window(t: Table, data: dict[str, Any]) -> None:
    s = t.state
    reference = data["reference"]
    need(reference == s["discard"][-1], "pending.data.reference", f"{reference} is at {t.places[reference][1]}; a "
         "window's reference is the normal discard on top of the pile (3.1.4, 3.2.3)")
    need(any(t.count(p) for p in t.rivals(s["active"])), "pending", "a window opens only when a rival holds a card "
         "(B.3)")


def _gift(t: Table, data: dict[str, Any], decider: int) -> None:
    pluck = t.state["pluck"]
    need(pluck is not None and pluck["player"] == decider, "pluck", "a gift is owed by a successful pluck: pluck "
         "names the pending decision's player (3.4.4)")
    rival, slot = data["rival"], data["slot"]
    need(rival != decider, "pending.data.rival", "a gift goes to a rival (3.4.4)")
    zone = t.zones[rival]
    need(slot <= len(zone) and zone[slot - 1] is None, "pending.data.slot", f"a gift goes into the rival's slot "
         f"the pluck emptied: slot {slot} of player {rival} is no empty slot (3.4.5)")
    need(t.count(decider) >= 2, "pending", "a player with one card gives it without a decision (3.4.6)")


def _place(t: Table, data: dict[str, Any], decider: int) -> None:
    owner_by = data["by"] == decider
    need(owner_by == (data["clause"] == "3.5.6"), "pending.data.by", "a penalty card is the penalised player's own "
         "(3.5.6); a Toco Toucan adds its card to a rival (6.7.1)")
    empty = t.zones[decider].count(None)
    need(empty >= 2, "pending", "a card goes without a decision where only one slot can take it (2.5.4)")


def _any_card(t: Table, data: dict[str, Any], decider: int) -> None:
    need(any(t.count(p) for p in t.players), "pending", "a power that looks at a card needs a card in a zone "
         "(6.10.7)")


def _owners(t: Table, by: int, movable: bool) -> int:
    """How many players hold a card a power of ``by`` may look at (or move, when ``movable``)."""
    assert by is not None
    return sum(any(not movable or t.movable(p, c, by) for c in t.zone_cards(p)) for p in t.players)


def _blind_swap(t: Table, data: dict[str, Any], decider: int) -> None:
    need(_owners(t, decider, movable=True) >= 2, "pending", "a blind swap needs two players' cards it may move "
         "(6.5.2, ruling R-12)")


def _macaw(t: Table, data: dict[str, Any], decider: int) -> None:
    need(_owners(t, decider, movable=False) >= 2, "pending", "the Macaw needs two players' cards (6.6.2)")


def _macaw_swap(t: Table, data: dict[str, Any], decider: int) -> None:
    seen = t.state["seen"]
    need(data["first"][0] != data["second"][0], "pending.data", "the Macaw's two cards are two players' (6.6.1)")
    for name in ("first", "second"):
        owner, slot = data[name]
        zone = t.zones[owner]
        held = zone[slot - 1] if slot <= len(zone) else None
        path = f"pending.data.{name}"
        if held is None:
            raise MalformedState(path, f"{data[name]} is no card of a zone: the Macaw looked at two cards (6.6.1)")
        assert held is not None
        need(t.movable(owner, held, decider), path, f"{held} may not be moved (4.2.7, 6.11.1): the swap is "
             "impossible, so it is not offered (ruling R-12)")
        need(decider in seen.get(held, ()), f"seen.{held}", f"the Macaw's player {decider} has looked at it (6.6.1)")


def _toco(t: Table, data: dict[str, Any], decider: int) -> None:
    need(any(not t.protected(r, decider) for r in t.rivals(decider)), "pending", "the Toco Toucan needs a rival "
         "the shield does not protect (6.7.1, 4.2.7)")


def _shoebill(t: Table, data: dict[str, Any], decider: int) -> None:
    need(1 <= len(data["cards"]) <= 2, "pending.data.cards", "the Shoebill's one or two drawn cards (6.9.2)")
    own = any(c not in t.moved for c in t.zone_cards(decider))
    rival = any(t.movable(r, c, decider) for r in t.rivals(decider) for c in t.zone_cards(r))
    need(own or rival, "pending", "with no card to replace, the Shoebill's cards go under the pile without a "
         "decision (6.9.6)")


def _game_over(t: Table, data: dict[str, Any]) -> None:
    need(data["winner"] == t.state["winner"], "pending.data.winner", "names the state's winner")


CHANCE_CHECKS: Mapping[str, Callable[[Table, dict[str, Any]], None]] = {
    "deal": _deal, "recycle": _recycle, "window": _window, "game_over": _game_over,
}
PLAYER_CHECKS: Mapping[str, Callable[[Table, dict[str, Any], int], None]] = {
    "initial_peek": _initial_peek, "turn": _turn, "end_turn": _end_turn, "gift": _gift, "place": _place,
    "white_pelican": _any_card, "brown_pelican": _any_card, "blind_swap": _blind_swap, "macaw": _macaw,
    "macaw_swap": _macaw_swap, "toco_toucan": _toco, "shoebill": _shoebill,
}
