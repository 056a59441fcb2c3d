"""A shape-checked canonical state read as a table: where each card lies, who plays, whose cards a power may move.

Every card of the catalog is in exactly one place: a zone's slot, the deck, the discard pile, under it, the
box, the drawn card, or held by the pending decision (the card a ``place`` adds, the Shoebill's cards) or by
the draw a recycle interrupted (``drawing.cards``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from baobei_spec.position.errors import MalformedState, need
from baobei_spec.position.rules import PositionRules

ZONE, DECK, DISCARD, UNDER, BOX, HELD = "zone", "deck", "discard", "under", "box", "held"


@dataclass
class Table:
    """The state and what the checks keep asking of it."""

    state: dict[str, Any]
    rules: PositionRules
    players: list[int] = field(init=False)
    zones: dict[int, list[str | None]] = field(init=False)
    places: dict[str, tuple[str, str]] = field(init=False)  # card -> (area, path)
    moved: set[str] = field(init=False)

    def __post_init__(self) -> None:
        s = self.state
        self.players = list(s["players"])
        self.zones = {int(p): [None if c is None else c["card"] for c in z] for p, z in s["zones"].items()}
        self.moved = set(s["moved"])
        self.places = {}

    @property
    def kind(self) -> str:
        return str(self.state["pending"]["kind"])

    @property
    def data(self) -> dict[str, Any]:
        data: dict[str, Any] = self.state["pending"]["data"]
        return data

    def area(self, card: str) -> str:
        return self.places[card][0]

    def count(self, player: int) -> int:
        """Cards in ``player``'s zone."""
        return sum(c is not None for c in self.zones[player])

    def rivals(self, player: int) -> list[int]:
        """The other players of the round, clockwise from ``player``."""
        i = self.players.index(player)
        return self.players[i + 1:] + self.players[:i]

    def protected(self, owner: int, by: int) -> bool:
        """4.2.7: an active shield keeps rivals from modifying the caller's cards."""
        s = self.state
        return bool(s["shield"] == "active" and owner == s["bao"] and by != s["bao"])

    def movable(self, owner: int, card: str, by: int) -> bool:
        """A power of ``by`` may move this card: not shielded (4.2.7), not moved this turn (6.11.1)."""
        return not self.protected(owner, by) and card not in self.moved

    def zone_cards(self, player: int) -> list[str]:
        return [c for c in self.zones[player] if c is not None]

    def can_draw(self) -> bool:
        """A card to draw: the deck, or a recycle (7.1.8: something besides the top discard)."""
        s = self.state
        return bool(s["deck"]) or len(s["discard"]) > 1 or bool(s["under"])


def _held(t: Table) -> list[tuple[str, str]]:
    """(card, path) of the cards in hand: drawn, or carried by the pending decision or the interrupted draw."""
    s, data = t.state, t.data
    held = [(s["drawn"], "drawn")] if s["drawn"] is not None else []
    if t.kind == "place":
        held.append((data["card"], "pending.data.card"))
    if t.kind == "shoebill":
        held += [(c, f"pending.data.cards[{i}]") for i, c in enumerate(data["cards"])]
    if s["drawing"] is not None:
        held += [(c, f"drawing.cards[{i}]") for i, c in enumerate(s["drawing"]["cards"])]
    return held


def locate(t: Table) -> None:
    """Fill ``t.places``; every catalog card in exactly one place, or MalformedState naming the second place."""
    s = t.state
    spots: list[tuple[str, str, str]] = [(c, ZONE, f"zones.{p}[{i}]") for p, z in t.zones.items()
                                         for i, c in enumerate(z) if c is not None]
    for area in (DECK, DISCARD, UNDER, BOX):
        spots += [(c, area, f"{area}[{i}]") for i, c in enumerate(s[area])]
    spots += [(c, HELD, path) for c, path in _held(t)]
    places = t.places
    for card, area, path in spots:
        if card in places:
            raise MalformedState(path, f"{card} is also at {places[card][1]} (every card is in exactly one place)")
        places[card] = (area, path)
    if len(places) != len(t.rules.cards):
        missing = [c for c in t.rules.cards if c not in places]
        shown = ", ".join(missing[:6]) + (", ..." if len(missing) > 6 else "")
        raise MalformedState("", f"the position lacks {len(missing)} card(s) of the catalog: {shown} "
                                 "(every card is somewhere: a zone, the deck, the discard pile, under it, the box "
                                 "or a hand)")
    need(s["top"] == (s["discard"][-1] if s["discard"] else None), "top", "must be the last card of the discard "
         "pile (null when it is empty)")
