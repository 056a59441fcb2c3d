"""Who knows which card (``seen``, ruling R-27) and which cards a power moved this turn (``moved``, 6.11.1).

Face-up discards are known to every player (2.3.1, 2.7.4, 3.3.4); cards in the deck or the box to nobody (they
are shuffled unseen: 2.1.1, 7.1.5, and drawn only from the top); a drawn card to its drawer alone (2.7.1, 6.9.2);
a card added from the deck to nobody (3.5.6, 6.7.1). When a round is scored everyone shows their cards (5.1.1).
A card a power moves, or draws (ruling R-28), stays where the power put it (a zone; in hand while the
decision on it is pending; under the pile, a Shoebill's card it could not use) until the turn ends (6.11.1).
"""

from __future__ import annotations

from baobei_spec.position.errors import MalformedState, need
from baobei_spec.position.table import BOX, DECK, HELD, UNDER, ZONE, Table

# Decisions before any power of the turn could move a card (its action, a window, a pluck's gifts).
BEFORE_POWERS = ("first_player", "deal", "initial_peek", "turn", "drawn", "window", "gift")


def check_knowledge(t: Table) -> None:
    s = t.state
    seen: dict[str, list[int]] = s["seen"]
    for card in seen:
        area = t.area(card)
        if area in (DECK, BOX):
            raise MalformedState(f"seen.{card}", f"{card} is in the {area}, whose cards nobody knows (shuffled "
                                                 "unseen, 2.1.1, 7.1.5)")
    for i, card in enumerate(s["discard"]):
        if seen.get(card) != t.players:
            raise MalformedState(f"seen.{card}", f"discard[{i}] is face up: every player knows it ({t.players}; "
                                                 "2.3.1, 2.7.4)")
    if s["drawn"] is not None:
        need(seen.get(s["drawn"]) == [s["active"]], f"seen.{s['drawn']}", "the drawn card is known to the "
             "active player alone (2.7.1)")
    _held(t, seen)
    if t.kind == "initial_peek":
        _initial_peeks(t, seen)
    if t.kind == "game_over":
        for p, zone in t.zones.items():
            for card in filter(None, zone):
                if seen.get(card) != t.players:
                    raise MalformedState(f"seen.{card}", f"zones.{p}: at the end of a round everyone shows the "
                                                         f"cards they have left (5.1.1): known to {t.players}")
    _moved(t)


def _held(t: Table, seen: dict[str, list[int]]) -> None:
    kind, data, drawing = t.kind, t.data, t.state["drawing"]
    if kind == "place":
        need(data["card"] not in seen, f"seen.{data['card']}", "the card a 'place' adds comes unseen from the deck "
             "(3.5.6, 6.7.1)")
    drawn_by = [(c, t.state["pending"]["player"]) for c in data["cards"]] if kind == "shoebill" else []
    if drawing is not None:
        drawn_by += [(c, drawing["player"]) for c in drawing["cards"]]
    for card, player in drawn_by:
        need(seen.get(card) == [player], f"seen.{card}", f"the Shoebill's player {player} alone has looked at the "
             "cards they drew (6.9.2)")


def _initial_peeks(t: Table, seen: dict[str, list[int]]) -> None:
    """2.2.1: the players before the pending one have each looked at ``count`` own cards; nobody else knows any."""
    pending = t.state["pending"]["player"]
    done = t.players[:t.players.index(pending)] if pending in t.players else []
    count = t.data.get("count")
    for p in t.players:
        known = [c for c in t.zone_cards(p) if c in seen]
        need(all(seen[c] == [p] for c in known), f"zones.{p}", "before the first turn a card is known to its owner "
             "alone, by the initial peek (2.2.1)")
        need(len(known) == (count if p in done else 0), f"zones.{p}", f"player {p} has looked at {len(known)} own "
             f"cards; the initial peeks go in seating order, {count} cards each (2.2.1)")


def _moved(t: Table) -> None:
    s, kind = t.state, t.kind
    before = kind in BEFORE_POWERS or (kind == "place" and t.data["clause"] == "3.5.6") or (
        kind == "recycle" and s["drawing"] is not None and s["drawing"]["for"] in ("turn", "penalty"))
    need(not (before and s["moved"]), "moved", f"no power has moved a card yet this turn at a {kind!r} decision "
         "(6.11.1: the list is cleared when the turn starts)")
    for card in s["moved"]:
        if t.area(card) not in (ZONE, HELD, UNDER):
            raise MalformedState("moved", f"{card} is at {t.places[card][1]}; a card a power moved or drew stays in a "
                                          "zone, in hand or under the pile until the turn ends (6.11.1, ruling R-28)")
