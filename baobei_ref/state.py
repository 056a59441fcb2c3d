"""The table: zones of slots, deck, discard pile, what each player has seen, the pending decision.

``State`` is plain mutable data; the rules live in the part modules and mutate it only after an
action has been fully validated, so a rejected action leaves it exactly as it was.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from baobei_ref.actions import Target
from baobei_ref.agenda import Step
from baobei_spec.position.decision import DecisionData

Shield = Literal["none", "armed", "active"]  # no BAO | called, no rival modification yet | protecting (4.2)


@dataclass(frozen=True, slots=True)
class Decision:
    """What the game waits for: a decision ``kind`` of the spec vocabulary, who decides, and what it is about.

    ``player`` is None for chance outcomes and for a reaction window, where ``players`` lists who
    may claim. ``data`` holds JSON-ready details (the reference card, the rival of a gift...): the fields
    ``baobei_spec.position.decision.DATA`` gives its kind.
    """

    kind: str
    player: int | None = None
    players: tuple[int, ...] = ()
    data: DecisionData = field(default_factory=lambda: DecisionData())

    @property
    def decider(self) -> int:
        """The player who decides (every decision but chance outcomes and windows names one)."""
        if self.player is None:
            raise RuntimeError(f"a {self.kind!r} decision has no single player")
        return self.player

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "player": self.player, "players": list(self.players), "data": self.data}


@dataclass(slots=True)
class Event:
    """Something that happened, with the clause (and ruling, if any) that governs it."""

    kind: str
    clause: str
    data: dict[str, Any]
    ruling: str | None = None
    also: tuple[str, ...] = ()  # further clauses that govern the same event

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "clause": self.clause, **self.data}
        if self.also:
            out["also"] = list(self.also)
        if self.ruling:
            out["ruling"] = self.ruling
        return out


@dataclass
class State:
    """The whole table. Slots are stored 0-based; every public interface numbers them from 1."""

    seats: int
    players: list[int]  # who plays this round, in clockwise order (a decisive round: the tied only)
    round: int = 1
    decisive: bool = False
    turn: int = 0
    active: int | None = None
    first: int | None = None  # first player of this round
    zones: dict[int, list[str | None]] = field(default_factory=dict)
    deck: list[str] = field(default_factory=list)  # top is the last element
    discard: list[str] = field(default_factory=list)  # top is the last element
    under: list[str] = field(default_factory=list)  # slid face down under the discard (6.9.5)
    box: list[str] = field(default_factory=list)  # between rounds: every card, before the deal
    drawn: str | None = None  # the card the active player drew and holds (2.7.1)
    seen: dict[str, frozenset[int]] = field(default_factory=dict)  # card -> who knows it (replaced, never changed)
    scores: dict[int, int] = field(default_factory=dict)  # cumulative (5.3.1)
    round_scores: dict[int, int] | None = None  # of the last scored round
    round_zones: dict[int, list[str | None]] | None = None  # the final table of the last scored round (5.1.1)
    bao: int | None = None  # the BAO caller of this round
    shield: Shield = "none"
    shield_touched: bool = False  # a rival modified the caller's zone in the action under way (private)
    recycles: int = 0
    final_phase: bool = False
    last_turns: list[int] | None = None  # players still owed a last turn (BAO or final phase)
    moved: set[str] = field(default_factory=set)  # cards moved by powers this turn (6.11.1)
    pending: Decision | None = field(default_factory=lambda: Decision("first_player"))  # None: steps are running
    agenda: list[Step] = field(default_factory=list)  # steps still to run, next one last (private)
    plucking: tuple[int, tuple[tuple[int, int], ...]] | None = None  # a successful pluck until its shield check
    winner: int | None = None

    def slots(self, player: int) -> list[str | None]:
        return self.zones[player]

    @property
    def active_player(self) -> int:
        """The active player, whom every turn has (from the first turn of a round on)."""
        if self.active is None:
            raise RuntimeError("no turn has started")
        return self.active

    @property
    def drawn_card(self) -> str:
        """The card the active player drew and holds (while the 'drawn' decision or its pluck runs)."""
        if self.drawn is None:
            raise RuntimeError("no card is drawn")
        return self.drawn

    def card_in(self, target: Target) -> str:
        """The card in a slot the rules have validated as holding one."""
        card = self.zones[target[0]][target[1] - 1]
        if card is None:
            raise RuntimeError(f"slot {target[1]} of player {target[0]} is empty")
        return card

    def card_at(self, target: Target) -> str | None:
        owner, slot = target
        zone = self.zones.get(owner)
        if zone is None or not 1 <= slot <= len(zone):
            return None
        return zone[slot - 1]

    def count(self, player: int) -> int:
        zone = self.zones[player]
        return len(zone) - zone.count(None)

    def own_slots(self, player: int) -> list[int]:
        return [i for i, c in enumerate(self.zones[player], start=1) if c is not None]

    def empty_slots(self, player: int) -> list[int]:
        return [i for i, c in enumerate(self.zones[player], start=1) if c is None]

    def rivals(self, player: int) -> list[int]:
        """The other players of the round, clockwise from ``player``."""
        i = self.players.index(player)
        return self.players[i + 1 :] + self.players[:i]

    def see(self, card: str, *players: int) -> None:
        known = self.seen.get(card)
        self.seen[card] = frozenset(players) if known is None else known.union(players)

    def show_all(self, card: str) -> None:
        self.see(card, *self.players)
