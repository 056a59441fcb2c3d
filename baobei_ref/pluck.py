"""Part 3: plucking. Claims, matching, success (own and offensive), failure, the double pluck.

3.2.1: two moments: the own-draw pluck (decision "drawn", 3.2.2, reference 3.1.3) and the reaction window (3.2.3);
3.2.8: a double pluck at either. 3.1.2 - 3.1.4: the reference is the drawn card or the discard top.
3.2.7 (ruling R-14): only normal discards open a window, so removed cards never chain (3.1.10).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeVar, overload

from baobei_ref import agenda, deck, zones
from baobei_ref.actions import Action, CloseWindow, Gift, Place, Pluck, SimultaneousPlucks, Target
from baobei_ref.agenda import DiscardPower, GiftOwed, Penalty, PlaceCard, Power, ShieldCheck, TurnEnd
from baobei_ref.errors import RuleError
from baobei_ref.rules import Answer, AnswerKey, Legal, Step, reading

if TYPE_CHECKING:
    from baobei_ref.game import Game
    from baobei_ref.state import State


# --- the two moments (3.2) ------------------------------------------------------------------------
def step_window(g: Game, reference: str) -> None:
    """3.2.3: a normal face-up discard lets every player but the active one claim, once (3.2.5, R-20);
    4.1.6: the BAO caller too, during the rivals' last turns."""
    s = g.state
    eligible = tuple(p for p in s.rivals(s.active_player))
    if any(s.count(p) for p in eligible):
        g.ask("window", None, eligible, reference=reference)
    else:  # B.3: nobody holds a card, so nobody can make a valid claim
        g.emit("window_closed", "B.3", reference=reference)


def check_claim(g: Game, player: int, targets: tuple[Target, ...], own_draw: bool) -> None:
    """Raise RuleError when a claim is not a valid attempt (3.2.4, 3.2.6, ruling R-10); change nothing.

    B.2 / B.5: a zero-card zone offers no target; B.3: a zero-card claimant has nothing to remove or give.
    """
    s = g.state
    if own_draw:
        g.require(player == s.active, "not_your_decision", "only the drawer may pluck with a drawn card", "3.2.2")
    elif player not in g.decision.players:
        raise RuleError("not_your_decision", f"player {player} may not pluck with their own discard", "3.2.3")
    ok = isinstance(targets, tuple) and len(targets) in (1, 2)
    g.require(ok, "malformed_action", "a pluck names one target, a double pluck two", "3.6.1")
    for t in targets:
        g.check_target(t, "3.2.6")
    g.require(len(set(targets)) == len(targets), "illegal_target", "a double pluck names two different cards", "3.6.1")
    for owner, _ in targets:
        if zones.protected(s, owner, player):
            raise RuleError("shielded", f"player {owner}'s cards are protected by the BAO shield", "4.2.7")
    rival_targets = sum(1 for owner, _ in targets if owner != player)
    spare = s.count(player) - (len(targets) - rival_targets)
    g.require(spare >= rival_targets, "no_cards",
              "each rival target needs an own card to give that is not itself a target",
              "3.6.3" if len(targets) == 2 else "3.4.1")


def validate_claim(g: Game, a: Pluck) -> None:
    g.rules.check_claim(g, a.player, a.targets, g.decision.kind == "drawn")


def perform_claim(g: Game, a: Pluck) -> None:
    g.rules.resolve(g, a.player, a.targets, g.decision.kind == "drawn")


def resolve(g: Game, player: int, targets: tuple[Target, ...], own_draw: bool) -> None:
    """3.3 - 3.6: resolve one attempt; it uses up the reference and closes the window (3.1.10, 3.2.5).

    Success (3.3.1, 3.4.2, 3.6.4): reveal and remove (3.3.2 - 3.3.4), gifts (3.4.6), then the shield
    check (4.2.9), then powers (6.10.1, 6.1.6; 3.3.7 and 6.1.4: the removed card's power is the
    plucker's). Failure (3.5.1): show, put back, discard an own-draw reference, one penalty card
    (3.5.8: no power, no reference; 3.5.7: in another's turn only the penalty; 3.5.9: a recycle
    keeps the reference on top, because it is discarded before the penalty draw).
    """
    s = g.state
    reference = s.drawn_card if own_draw else s.discard[-1]
    cards = [s.card_in(t) for t in targets]
    double = len(targets) == 2
    success = all(g.rules.matches(g, reference, c) for c in cards)
    g.emit("pluck", "3.6.1" if double else "3.1.5", also=_pluck_clauses(g, player, targets, reference, cards,
                                                                         own_draw, success),
           player=player, targets=[list(t) for t in targets], reference=reference, cards=cards, own_draw=own_draw,
           success=success)
    steps: list[agenda.Step] = []
    if success:
        if own_draw:  # 3.3.6 / 3.4.7 / 3.6.5: the drawn reference goes down first
            s.discard.append(reference)
            s.show_all(reference)
            s.drawn = None
        removed = []
        for owner, slot in targets:  # 3.6.6: in the announced order; the last is on top
            card = zones.remove(s, owner, slot, by=player)
            s.discard.append(card)
            s.show_all(card)
            removed.append(card)
            clause = "3.6.6" if double else ("3.3.3" if owner == player else "3.4.3")
            also: tuple[str, ...] = ("2.5.2", "3.3.2", "3.3.4") if clause == "3.3.3" else ("2.5.2",)
            if own_draw:
                also += ("3.6.5",) if double else ("3.3.6",) if owner == player else ("3.4.7",)
            g.emit("removed", clause, also=also, player=owner, slot=slot, card=card, by=player)
        s.plucking = (player, tuple(targets))
        steps += [GiftOwed(player, owner, slot) for owner, slot in targets if owner != player]
        steps.append(ShieldCheck())  # 3.6.10 / 4.2.6: after the whole action, before powers
        if double:  # 3.6.8 / 6.1.7 / 6.10.6: only the second removed card's power
            steps.append(Power(player, removed[1], "6.10.6"))
        else:
            if own_draw:  # 6.10.2: one at a time; 6.1.3 / 6.10.3: the drawn reference's power first
                steps.append(Power(player, reference, "6.10.3"))
            steps.append(Power(player, removed[0], "6.10.4" if own_draw else "6.10.5"))
        if not own_draw:
            g.rules.discard_power_order(g, steps, reference)
    else:
        for t, card in zip(targets, cards, strict=True):  # 3.5.2 / 3.5.3 / 3.6.9: shown to all, put back
            s.show_all(card)
            g.emit("shown", "3.6.9" if double else "3.5.2", also=("3.5.3", "6.1.5"), player=t[0], slot=t[1], card=card)
        if own_draw:  # 3.5.4: the drawn reference is discarded: no power, no window
            s.discard.append(reference)
            s.show_all(reference)
            g.emit("discarded", "3.5.4", player=player, card=reference)
            s.drawn = None
        steps.append(Penalty(player))  # 3.5.5, one penalty card even for a double (3.6.9)
    if own_draw:
        steps.append(TurnEnd())
    g.then(*steps)


def discard_power_after(g: Game, steps: list[agenda.Step], reference: str) -> None:
    """Ruling R-04 (adopted B): the active player's direct-discard power waits until after the pluck and
    its powers: it stays on the agenda after them."""


def discard_power_before(g: Game, steps: list[agenda.Step], reference: str) -> None:
    """Ruling R-04, reading A (a switch): the direct-discard power resolves before the plucker's powers."""
    scheduled = g.state.agenda
    if scheduled and scheduled[-1] == DiscardPower(reference):
        scheduled.pop()
        first_power = next(i for i, step in enumerate(steps) if isinstance(step, Power))
        steps.insert(first_power, DiscardPower(reference))


def _pluck_clauses(g: Game, player: int, targets: tuple[Target, ...], reference: str, cards: list[str],
                   own_draw: bool, success: bool) -> tuple[str, ...]:
    """The clauses that decide an attempt: its moment, the matching rule used, and its outcome."""
    out = ["3.1.1", "3.1.2", "3.2.1", "3.1.10", "3.2.4"]
    out += ["3.1.3", "3.2.2"] if own_draw else ["3.1.4", "3.2.3", "3.2.5"]
    if len(targets) == 2:
        out += ["3.2.8", "3.6.2", "3.6.3", "3.6.10"]
    out.append("3.1.6")
    ref_species = g.catalog.species_of(reference)
    for card in cards:
        family = g.catalog.species[g.catalog.species_of(card)][0]
        if g.catalog.species_of(card) != ref_species and g.rules.matches(g, reference, card):
            out += ["3.1.7", "6.3.2"] if family == "pelican" else ["3.1.8", "6.7.3"]
        elif g.catalog.value(card) == g.catalog.value(reference) and not g.rules.matches(g, reference, card):
            out += ["3.1.9", "6.9.7"]
    if not success:
        out.append("3.5.1")
    elif len(targets) == 2:
        out.append("3.6.4")
    else:
        out.append("3.3.1" if targets[0][0] == player else "3.4.2")
    return tuple(dict.fromkeys(out))


# --- simultaneous claims and closing the window (3.2.5, ruling R-16) ------------------------------
def _valid_claims(g: Game, claims: tuple[Pluck, ...]) -> list[Pluck]:
    valid = []
    for claim in claims:
        try:
            g.rules.check_claim(g, claim.player, claim.targets, False)
        except RuleError:
            continue
        valid.append(claim)
    return valid


def validate_simultaneous(g: Game, a: SimultaneousPlucks) -> None:
    ok = isinstance(a.claims, tuple) and len(a.claims) > 0 and all(isinstance(c, Pluck) for c in a.claims)
    g.require(ok, "malformed_action", "simultaneous claims are a list of pluck claims", "3.2.5")
    players = [c.player for c in a.claims]
    g.require(len(set(players)) == len(players), "malformed_action", "one claim per player", "3.2.5")
    if not _valid_claims(g, a.claims):
        g.rules.check_claim(g, a.claims[0].player, a.claims[0].targets, False)  # raises its error


def perform_simultaneous(g: Game, a: SimultaneousPlucks) -> None:
    s = g.state
    order = s.rivals(s.active_player)
    winner = min(_valid_claims(g, a.claims), key=lambda c: order.index(c.player))
    g.emit("priority", "3.2.5", ruling="R-16", player=winner.player,
           void=[c.player for c in a.claims if c is not winner])
    g.rules.resolve(g, winner.player, winner.targets, False)


def validate_close(g: Game, a: CloseWindow) -> None:
    return None


def perform_close(g: Game, a: CloseWindow) -> None:
    g.emit("window_closed", "3.2.3", reference=g.decision.data["reference"])


# --- gifts (3.4.4, 3.4.5, 3.6.7; ruling R-25) --------------------------------------------------------
def step_gift(g: Game, player: int, rival: int, slot: int) -> None:
    s = g.state
    own = s.own_slots(player)
    if len(own) == 1:
        give(g, player, own[0], rival, slot)
    else:
        g.ask("gift", player, rival=rival, slot=slot)


def validate_gift(g: Game, a: Gift) -> None:
    g.require_player(a)
    g.check_target((a.player, a.slot), "3.4.4")


def perform_gift(g: Game, a: Gift) -> None:
    d = g.decision.data
    give(g, a.player, a.slot, d["rival"], d["slot"])


def give(g: Game, player: int, own_slot: int, rival: int, rival_slot: int) -> None:
    """3.4.5: the own card, unseen, takes exactly the removed card's slot (3.4.6: the last one may go)."""
    s = g.state
    card = zones.remove(s, player, own_slot, by=player)
    zones.add(s, rival, rival_slot, card, by=player)
    g.emit("gift", "3.4.5", ruling="R-25", also=("3.4.4", "3.4.6", "3.6.7", "6.1.5"), player=player,
           from_slot=own_slot, rival=rival, slot=rival_slot)


# --- the penalty (3.5.5, 3.5.6) and placing added cards (2.5.4) -----------------------------------
def step_penalty(g: Game, player: int) -> None:
    card = deck.draw(g, Penalty(player))
    if card is None:
        return  # waiting for the recycle, or no card at all (7.1.8)
    in_window = player != g.state.active
    g.emit("penalty", "3.5.5", also=("3.5.8",) + (("3.5.7",) if in_window else ()), player=player)
    g.then(PlaceCard(player, card, player, "3.5.6"))


def step_place(g: Game, owner: int, card: str, by: int, clause: str) -> None:
    """2.5.4: the owner picks among several empty slots; otherwise the one slot is used."""
    options = zones.placement_slots(g.state, owner)
    if len(options) == 1:
        place(g, owner, options[0], card, by, clause)
    else:
        g.ask("place", owner, card=card, by=by, clause=clause)


def validate_place(g: Game, a: Place) -> None:
    g.require_player(a)
    options = zones.placement_slots(g.state, a.player)
    g.require(a.slot in options, "illegal_target", f"the added card goes to one of the slots {options}", "2.5.4")


def perform_place(g: Game, a: Place) -> None:
    d = g.decision.data
    place(g, a.player, a.slot, d["card"], d["by"], d["clause"])


def place(g: Game, owner: int, slot: int, card: str, by: int, clause: str) -> None:
    zones.add(g.state, owner, slot, card, by=by)
    g.emit("placed", clause, ruling="R-18", also=("2.5.4",), player=owner, slot=slot)


# --- legal actions ----------------------------------------------------------------------------
T = TypeVar("T")


class Built(Sequence[T]):
    """A sequence whose members are built only when read (``_at``, an index from 0): choosing one of thousands of
    claims does not build them all; a slice builds the members it takes."""

    size: int

    def __len__(self) -> int:
        return self.size

    @overload
    def __getitem__(self, i: int) -> T: ...

    @overload
    def __getitem__(self, i: slice) -> list[T]: ...

    def __getitem__(self, i: int | slice) -> T | list[T]:
        if isinstance(i, slice):
            return [self._at(j) for j in range(*i.indices(self.size))]
        if not -self.size <= i < self.size:
            raise IndexError(i)
        return self._at(i % self.size)

    @abstractmethod
    def _at(self, i: int) -> T: ...


class Claims(Built[Pluck]):
    """Every valid claim of one player, computed on demand (ruling R-10).

    Singles on any target; double plucks on any ordered pair of different targets when the player
    holds at least two cards (with one card, an own target leaves nothing to give for a rival
    target, and two own targets need two cards: 3.6.3). Indexable, so choosing one uniformly
    does not build thousands of objects.
    """

    def __init__(self, player: int, targets: list[Target], doubles: bool) -> None:
        self.player, self.targets = player, targets
        n = len(targets)
        self.size = n + (n * (n - 1) if doubles else 0)

    def _at(self, i: int) -> Pluck:
        n = len(self.targets)
        if i < n:
            return Pluck(self.player, (self.targets[i],))
        first, second = divmod(i - n, n - 1)
        second += second >= first
        return Pluck(self.player, (self.targets[first], self.targets[second]))


class Chain(Built[Action]):
    """Several sequences read as one."""

    def __init__(self, *parts: Sequence[Action]) -> None:
        self.parts = [p for p in parts if len(p)]
        self.size = sum(len(p) for p in self.parts)

    def _at(self, i: int) -> Action:
        for part in self.parts:
            if i < len(part):
                return part[i]
            i -= len(part)
        raise IndexError(i)


def _cards_in_zones(s: State) -> list[Target]:
    return [(o, slot) for o in s.players for slot in s.own_slots(o)]


def legal_claims(g: Game, player: int, every: list[Target] | None = None) -> Claims:
    """Every valid claim of ``player`` at this moment (B.3: none with zero cards); ``every`` card in a zone
    may be given when several players' claims are listed at once."""
    s = g.state
    own = s.count(player)
    if own == 0:
        return Claims(player, [], False)
    targets = _cards_in_zones(s) if every is None else every
    if s.shield == "active":  # 4.2.7: only an active shield protects anyone
        targets = [t for t in targets if not zones.protected(s, t[0], player)]
    return Claims(player, targets, doubles=own >= 2)


def legal_window(g: Game) -> Chain:
    every = _cards_in_zones(g.state)
    return Chain([CloseWindow()], *(legal_claims(g, p, every) for p in g.decision.players))


def legal_gift(g: Game) -> list[Gift]:
    p = g.decision.decider
    return [Gift(p, slot) for slot in g.state.own_slots(p)]


def legal_place(g: Game) -> list[Place]:
    p = g.decision.decider
    return [Place(p, slot) for slot in zones.placement_slots(g.state, p)]


def matches(g: Game, reference: str, target: str) -> bool:
    """3.1.1 / 3.1.6: a claim succeeds on cards matching the reference (the catalog says which match)."""
    return g.catalog.matches(reference, target)


STEPS: dict[str, Step] = {"window": step_window, "gift": step_gift, "penalty": step_penalty, "place": step_place}
ANSWERS: dict[AnswerKey, Answer] = {
    ("drawn", Pluck): (validate_claim, perform_claim),
    ("window", Pluck): (validate_claim, perform_claim),
    ("window", SimultaneousPlucks): (validate_simultaneous, perform_simultaneous),
    ("window", CloseWindow): (validate_close, perform_close),
    ("gift", Gift): (validate_gift, perform_gift),
    ("place", Place): (validate_place, perform_place),
}
LEGAL: dict[str, Legal] = {"window": legal_window, "gift": legal_gift, "place": legal_place}
VARIANTS = (reading("R-04", "A", discard_power_order=discard_power_before),)
