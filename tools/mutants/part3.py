"""Misreadings of part 3: matching, the two moments, success, gifts, failure, the double pluck."""

from __future__ import annotations

from dataclasses import dataclass, replace

from baobei_ref import pluck, zones
from baobei_ref.actions import Pluck, SimultaneousPlucks
from baobei_ref.agenda import GiftOwed, Penalty, PlaceCard, Power, Step, Window
from baobei_ref.errors import RuleError

from .change import (
    answer,
    claim_check,
    claims_excused,
    original,
    placed_seen,
    resolution,
    scheduled,
    step,
)
from .mutant import patch, variant


def _family(catalog, card):
    return catalog.species[catalog.species_of(card)][0]


def _without(steps, name):
    return [s for s in steps if s.name != name]


@variant("3.1.1", "3.5.1", "3.5.5")
def failed_pluck_costs_nothing(rules):
    """A failed pluck has no penalty card, whoever made it."""
    resolution(rules, lambda g, a, steps: _without(steps, "penalty"))


@variant("3.1.10", "3.2.7", "3.1.2", "3.3.6")
def removed_card_opens_a_window(rules):
    """A card removed by a pluck lands face up and opens a new window (chained plucks)."""
    def fix(g, a, steps):
        if a.success:
            steps.insert(-1 if a.own_draw else len(steps), Window(g.state.discard[-1]))
        return steps
    resolution(rules, fix)


@variant("3.1.3", "3.2.2", "3.2.1")
def no_own_draw_pluck(rules):
    """The drawer may not pluck with the drawn card; only the window allows a pluck."""
    del rules.answers[("drawn", Pluck)]


@variant("3.1.7", "6.3.2")
def pelicans_match_one_way(rules):
    """A White Pelican reference takes a Brown Pelican, but a Brown Pelican reference takes only its species."""
    old = rules.matches

    def matches(g, ref, target):
        if g.catalog.species_of(ref) == "brown_pelican":
            return g.catalog.species_of(target) == "brown_pelican"
        return old(g, ref, target)
    rules.matches = matches


@variant("3.1.8", "6.7.3", "6.8.1")
def toucans_dont_match(rules):
    """The Toco and the Golden Toucan are different birds: only the species counts for toucans."""
    old = rules.matches

    def matches(g, ref, target):
        species = g.catalog.species_of
        if "toucan" in species(ref) or "toucan" in species(target):
            return species(ref) == species(target)
        return old(g, ref, target)
    rules.matches = matches


@variant("3.1.9", "6.9.7", "6.7.3")
def shoebill_is_a_toucan(rules):
    """The Shoebill belongs to the toucan family."""
    old = rules.matches

    def family(catalog, card):
        return _family(catalog, "toco_toucan-1") if catalog.species_of(card) == "shoebill" else _family(catalog, card)

    def matches(g, ref, target):
        return family(g.catalog, ref) == family(g.catalog, target) or old(g, ref, target)
    rules.matches = matches


@variant("3.1.10", "3.2.5", "3.5.8")
def failed_attempt_keeps_window_open(rules):
    """After a failed claim in a window the others may still claim on the same reference."""
    def fix(g, a, steps):
        if not a.success and not a.own_draw:
            steps.append(Window(a.reference))
        return steps
    resolution(rules, fix)


@variant("3.1.10", "3.6.10", "3.2.5")
def success_keeps_window_open(rules):
    """After a successful claim in a window the others may still claim on the same reference."""
    def fix(g, a, steps):
        if a.success and not a.own_draw:
            steps.append(Window(a.reference))
        return steps
    resolution(rules, fix)


@variant("3.2.8", "3.6.1")
def double_pluck_only_own_draw(rules):
    """A double pluck is allowed only after one's own draw, never in a window."""
    claim_check(rules, lambda g, p, t, own: g.require(own or len(t) == 1, "malformed_action", "single only", "3.2.8"))


@variant("3.2.8", "3.6.1")
def double_pluck_only_in_window(rules):
    """A double pluck is allowed only in a window, never after one's own draw."""
    claim_check(rules, lambda g, p, t, own: g.require(not own or len(t) == 1, "malformed_action", "single", "3.2.8"))


@variant("3.2.3", "3.1.4")
def window_only_for_next_player(rules):
    """Only the player after the active one may claim in the window."""
    def window(old, g, reference):
        old(g, reference)
        p = g.state.pending
        if p is not None and p.kind == "window":
            g.ask("window", None, p.players[:1], **p.data)
    step(rules, "window", window)


@variant("4.1.6")
def caller_excluded_from_windows(rules):
    """The BAO caller may no longer pluck during the rivals' last turns."""
    def window(old, g, reference):
        old(g, reference)
        p, s = g.state.pending, g.state
        if p is not None and p.kind == "window" and s.bao in p.players:
            players = tuple(x for x in p.players if x != s.bao)
            if players:
                g.ask("window", None, players, **p.data)
            else:
                s.pending = None
    step(rules, "window", window)


@variant("3.2.6", "3.2.4", "3.1.5", "B.5")
def claim_on_empty_slot_is_a_failure(rules):
    """Naming an empty or missing slot is a failed attempt with a penalty, not an invalid claim (ruling R-10)."""
    validate, perform = original(rules, "window", Pluck)

    def lenient(g, a):
        try:
            validate(g, a)
        except RuleError as exc:
            if exc.code != "illegal_target" or all(g.state.card_at(t) is not None for t in a.targets):
                raise

    def wrong(g, a):
        if any(g.state.card_at(t) is None for t in a.targets):
            g.then(Penalty(a.player))
        else:
            perform(g, a)
    answer(rules, "window", Pluck, validate=lenient, perform=wrong)


@variant("3.2.5")
def simultaneous_first_listed_wins(rules):
    """Of simultaneous claims, the first one listed wins, whoever sits nearest."""
    def perform(g, a):
        winner = pluck._valid_claims(g, a.claims)[0]
        pluck.resolve(g, winner.player, winner.targets, own_draw=False)
    answer(rules, "window", SimultaneousPlucks, perform=perform)


@variant("3.2.5")
def simultaneous_farthest_wins(rules):
    """Of simultaneous claims, the player farthest clockwise from the active player wins."""
    def perform(g, a):
        order = g.state.rivals(g.state.active)
        winner = max(pluck._valid_claims(g, a.claims), key=lambda c: order.index(c.player))
        pluck.resolve(g, winner.player, winner.targets, own_draw=False)
    answer(rules, "window", SimultaneousPlucks, perform=perform)


@variant("3.2.5", "3.2.6")
def simultaneous_invalid_claim_rejects_all(rules):
    """One invalid claim among simultaneous ones makes the whole set refused."""
    validate, _ = original(rules, "window", SimultaneousPlucks)

    def check(g, a):
        validate(g, a)
        for c in a.claims:
            pluck.check_claim(g, c.player, c.targets, own_draw=False)
    answer(rules, "window", SimultaneousPlucks, validate=check)


def _single_own_draw(a, own: bool) -> bool:
    return a.success and a.own_draw and len(a.targets) == 1 and (a.targets[0][0] == a.player) == own


@variant("3.3.1", "3.3.4", "3.3.3")
def defensive_pluck_keeps_reference(rules):
    """A successful own-draw pluck of an own card puts the drawn card into the emptied slot."""
    def fix(g, a, steps):
        if _single_own_draw(a, own=True):
            s = g.state
            ref = s.discard.pop(-2)
            s.zones[a.player][a.targets[0][1] - 1] = ref
        return steps
    resolution(rules, fix)


@variant("3.3.2", "3.3.3", "3.4.3")
def removed_card_slid_under(rules):
    """A card removed by a pluck is slid face down under the pile instead of shown and discarded."""
    def fix(g, a, steps):
        if a.success:
            s = g.state
            for card in a.cards:
                s.discard.remove(card)
                s.under.append(card)
                s.seen[card] = a.seen.get(card, frozenset())
        return steps
    resolution(rules, fix)


def _reference_on_top(rules, pick) -> None:
    def fix(g, a, steps):
        if pick(a):
            d = g.state.discard
            ref = d.pop(-1 - len(a.targets))
            d.append(ref)
        return steps
    resolution(rules, fix)


@variant("3.3.6")
def own_pluck_reference_on_top(rules):
    """After a successful own-draw pluck of an own card, the drawn card goes on top of the removed one."""
    _reference_on_top(rules, lambda a: _single_own_draw(a, own=True))


@variant("3.4.7")
def offensive_pluck_reference_on_top(rules):
    """After a successful own-draw pluck of a rival card, the drawn card goes on top of the removed one."""
    _reference_on_top(rules, lambda a: _single_own_draw(a, own=False))


@variant("3.6.5")
def double_pluck_reference_on_top(rules):
    """After a successful own-draw double pluck, the drawn card goes on top of the removed ones."""
    _reference_on_top(rules, lambda a: a.success and a.own_draw and len(a.targets) == 2)


@variant("3.3.7", "6.1.4", "6.10.5")
def removed_power_to_active_player(rules):
    """The power of a card removed in a window goes to the active player, not the plucker."""
    def fix(g, a, steps):
        if not a.own_draw:
            steps = [replace(x, player=g.state.active) if isinstance(x, Power) else x for x in steps]
        return steps
    resolution(rules, fix)


@variant("6.10.1", "6.1.6", "3.6.7")
def powers_before_gifts(rules):
    """The powers of a pluck resolve before the gifts are given."""
    def fix(g, a, steps):
        gifts = [x for x in steps if x.name == "gift"]
        return [x for x in steps if x.name != "gift" and x.name != "end_turn"] + gifts + [
            x for x in steps if x.name == "end_turn"]
    resolution(rules, fix)


@variant("3.4.1", "B.3", "3.6.3")
def offensive_pluck_without_gift_card(rules):
    """A player may pluck a rival card without holding a card to give (no gift then)."""
    claims_excused(rules, lambda g, player, exc: exc.code == "no_cards")
    step(rules, "gift", lambda old_step, g, player, rival, slot: old_step(g, player, rival, slot)
         if g.state.own_slots(player) else None)


@variant("3.4.2", "3.4.7", "3.2.2")
def own_draw_pluck_only_own_cards(rules):
    """After one's own draw, only one's own cards may be plucked, never a rival's."""
    claim_check(rules, lambda g, p, t, own: g.require(not own or all(o == p for o, _ in t), "illegal_target",
                                                  "own cards only", "3.2.2"))


@variant("3.4.4", "3.6.7")
def gift_chosen_automatically(rules):
    """The gift is always the claimant's first card: no choice."""
    step(rules, "gift",
         lambda old, g, player, rival, slot: pluck.give(g, player, g.state.own_slots(player)[0], rival, slot))


@patch("3.4.5", "3.6.7", "2.5.3")
def gift_to_a_new_slot(rules):
    """The gift goes to a new slot of the rival; the removed card's slot stays empty."""
    def give(g, player, own_slot, rival, rival_slot):
        s = g.state
        card = zones.remove(s, player, own_slot, by=player)
        zones.add(s, rival, len(s.zones[rival]) + 1, card, by=player)
        g.emit("gift", "3.4.5", player=player, rival=rival, slot=len(s.zones[rival]))
    pluck.give = give


@variant("3.4.6")
def last_card_cannot_be_given(rules):
    """A claimant must keep one card: an offensive pluck needs two own cards."""
    def extra(g, p, t, own):
        rivals = sum(1 for o, _ in t if o != p)
        spare = g.state.count(p) - (len(t) - rivals)
        g.require(not rivals or spare > rivals, "no_cards", "keep one card", "3.4.6")
    claim_check(rules, extra)


@variant("3.5.4", "3.5.1")
def failed_reference_slid_under(rules):
    """After a failed own-draw pluck the drawn card is slid face down under the pile."""
    def fix(g, a, steps):
        if not a.success and a.own_draw:
            s = g.state
            s.under.append(s.discard.pop())
            s.seen[a.reference] = frozenset({a.player})
        return steps
    resolution(rules, fix)


@variant("3.5.2", "3.6.9")
def failed_target_not_shown(rules):
    """The target of a failed pluck is put back without showing it."""
    def fix(g, a, steps):
        if not a.success:
            for card, who in a.seen.items():
                g.state.seen[card] = frozenset(who)
        return steps
    resolution(rules, fix)


@variant("3.5.3", "2.5.1")
def failed_target_to_a_new_slot(rules):
    """The target of a failed pluck is put back in a new slot at the end of its owner's zone."""
    def fix(g, a, steps):
        if not a.success and len(a.targets) == 1:
            owner, slot = a.targets[0]
            zone = g.state.zones[owner]
            zone.append(zone[slot - 1])
            zone[slot - 1] = None
        return steps
    resolution(rules, fix)


@variant("3.5.4", "6.1.5")
def failed_reference_power(rules):
    """The drawn card discarded after a failed own-draw pluck activates its power."""
    def fix(g, a, steps):
        if not a.success and a.own_draw:
            steps.insert(0, Power(a.player, a.reference, "3.5.4"))
        return steps
    resolution(rules, fix)


@variant("3.5.4", "3.2.7", "3.1.10")
def failed_reference_opens_window(rules):
    """The drawn card discarded after a failed own-draw pluck opens a window."""
    def fix(g, a, steps):
        if not a.success and a.own_draw:
            steps.insert(-1, Window(a.reference))
        return steps
    resolution(rules, fix)


@variant("3.5.5")
def penalty_card_seen(rules):
    """The penalized player looks at the penalty card."""
    placed_seen(rules, "3.5.6")


@variant("3.5.6")
def penalty_always_new_slot(rules):
    """A penalty card always gets a new slot, even when an empty one exists."""
    def place(old, g, owner, card, by, clause):
        if clause == "3.5.6":
            pluck.place(g, owner, len(g.state.zones[owner]) + 1, card, by, clause)
        else:
            old(g, owner, card, by, clause)
    step(rules, "place", place)


@variant("3.5.8", "6.1.5")
def penalty_card_power(rules):
    """A penalty card with a power activates it for the penalized player."""
    def penalty(old, g, player):
        before = len(g.state.agenda)
        old(g, player)
        if len(g.state.agenda) > before and g.state.agenda[-1].name == "place":
            card = g.state.agenda[-1].card
            g.state.agenda.insert(-1, Power(player, card, "3.5.8"))
    step(rules, "penalty", penalty)


@dataclass(frozen=True, slots=True)
class LateDiscard(Step):
    """The misreading's own step: discard the drawn ``card`` after the penalty draw."""

    name = "late_discard"
    card: str


@variant("3.5.9", "7.1.7")
def penalty_drawn_before_reference_discarded(rules):
    """After a failed own-draw pluck the penalty card is drawn first, then the drawn card is discarded
    (so a recycle shuffles the pile without it and it lands on top afterwards)."""
    def late(g, card):
        g.state.drawn = None
        g.state.discard.append(card)

    rules.steps[LateDiscard.name] = late

    def fix(g, a, steps):
        if not a.success and a.own_draw:
            s = g.state
            s.drawn = s.discard.pop()
            steps.insert(steps.index(Penalty(a.player)) + 1, LateDiscard(a.reference))
        return steps
    resolution(rules, fix)


@variant("3.6.1")
def double_pluck_same_card_twice(rules):
    """A double pluck naming the same card twice is taken as a single pluck of that card."""
    claims_excused(rules, lambda g, player, exc: "two different" in exc.message)
    old = rules.resolve
    rules.resolve = lambda g, player, targets, own_draw: old(g, player, tuple(dict.fromkeys(targets)), own_draw)


@variant("3.6.2", "3.6.6", "3.6.8")
def double_targets_in_seat_order(rules):
    """The two targets of a double pluck are taken in seat and slot order, not the announced order."""
    old = rules.resolve
    rules.resolve = lambda g, player, targets, own_draw: old(g, player, tuple(sorted(targets)), own_draw)


@variant("3.6.3")
def target_may_be_the_gift(rules):
    """A double pluck may give one of its own target cards as the gift for the other."""
    claims_excused(rules, lambda g, player, exc: exc.code == "no_cards" and g.state.count(player) > 0)


@variant("3.6.4", "3.6.9")
def double_pluck_one_match_enough(rules):
    """A double pluck succeeds when at least one target matches."""
    old_matches, old_resolve = rules.matches, rules.resolve
    matching = []  # while a double pluck with one match resolves: every card matches

    def resolve(g, player, targets, own_draw):
        if len(targets) == 2:
            s = g.state
            ref = s.drawn if own_draw else s.discard[-1]
            if any(old_matches(g, ref, s.card_at(t)) for t in targets):
                matching.append(True)
        try:
            old_resolve(g, player, targets, own_draw)
        finally:
            matching.clear()
    rules.matches = lambda g, r, t: bool(matching) or old_matches(g, r, t)
    rules.resolve = resolve


@variant("3.6.6")
def double_removed_in_reverse(rules):
    """The two removed cards go on the pile in reverse order: the first one ends on top."""
    def fix(g, a, steps):
        if a.success and len(a.targets) == 2:
            d = g.state.discard
            d[-1], d[-2] = d[-2], d[-1]
        return steps
    resolution(rules, fix)


@variant("3.6.7")
def double_same_rival_one_gift(rules):
    """Two cards of the same rival removed by a double pluck cost one gift only."""
    def fix(g, a, steps):
        out, given = [], set()
        for x in steps:
            if isinstance(x, GiftOwed) and x.rival in given:
                continue
            if isinstance(x, GiftOwed):
                given.add(x.rival)
            out.append(x)
        return out
    resolution(rules, fix)


@variant("3.6.8", "6.1.7", "6.10.6")
def double_first_card_power(rules):
    """A successful double pluck activates the power of the first removed card."""
    def fix(g, a, steps):
        if a.success and len(a.targets) == 2:
            steps = [replace(x, card=a.cards[0]) if isinstance(x, Power) else x for x in steps]
        return steps
    resolution(rules, fix)


@variant("6.10.6", "3.6.8", "6.1.7")
def double_also_reference_power(rules):
    """A successful own-draw double pluck also activates the drawn reference's power, first."""
    def fix(g, a, steps):
        if a.success and a.own_draw and len(a.targets) == 2:
            i = next(i for i, x in enumerate(steps) if x.name == "shield_check")
            steps.insert(i + 1, Power(a.player, a.reference, "6.10.3"))
        return steps
    resolution(rules, fix)


@variant("3.6.9")
def double_failure_two_penalties(rules):
    """A failed double pluck costs one penalty card per target."""
    def fix(g, a, steps):
        if not a.success and len(a.targets) == 2:
            steps.insert(0, Penalty(a.player))
        return steps
    resolution(rules, fix)


@variant("3.6.10", "4.2.9")
def double_pluck_shield_per_removal(rules):
    """The shield activates after the first removal, so a double pluck may not take two of the caller's cards."""
    def extra(g, p, t, own):
        s = g.state
        both = len(t) == 2 and all(o == s.bao for o, _ in t)
        g.require(not (both and s.shield == "armed" and p != s.bao), "shielded", "shield", "4.2.9")
    claim_check(rules, extra)


@patch("3.4.5", "2.5.2")
def gift_slot_disappears(rules):
    """The claimant's slot that held the gift disappears: their later cards move up one slot (ruling R-26)."""
    old = pluck.give

    def give(g, player, own_slot, rival, rival_slot):
        old(g, player, own_slot, rival, rival_slot)
        del g.state.zones[player][own_slot - 1]
    pluck.give = give


@variant("3.5.5", "3.5.7")
def window_penalty_to_active_player(rules):
    """A failed claim in a window gives the penalty card to the active player, whose discard it was."""
    step(rules, "penalty", lambda old, g, player: old(g, g.state.active))


@variant("3.5.5", "3.5.6")
def penalty_card_shown_to_all(rules):
    """The penalty card is shown to everyone before it is placed."""
    def place(old, g, owner, card, by, clause):
        if clause == "3.5.6":
            g.state.show_all(card)
        old(g, owner, card, by, clause)
    step(rules, "place", place)


@patch("3.4.5", "3.4.4")
def gift_seen_by_receiver(rules):
    """The rival who receives the gift looks at it."""
    old = pluck.give

    def give(g, player, own_slot, rival, rival_slot):
        old(g, player, own_slot, rival, rival_slot)
        g.state.see(g.state.card_at((rival, rival_slot)), rival)
    pluck.give = give


@variant("3.2.5", "3.5.5")
def void_simultaneous_claims_penalized(rules):
    """Of simultaneous claims, those without priority that would have failed also cost a penalty card."""
    _, perform = original(rules, "window", SimultaneousPlucks)

    def wrong(g, a):
        s = g.state
        reference = s.discard[-1]
        order = s.rivals(s.active)
        valid = pluck._valid_claims(g, a.claims)
        winner = min(valid, key=lambda c: order.index(c.player))
        losers = [c.player for c in valid if c is not winner
                  and not all(g.catalog.matches(reference, s.card_at(t)) for t in c.targets)]
        perform(g, a)
        g.then(*[Penalty(p) for p in losers])
    answer(rules, "window", SimultaneousPlucks, perform=wrong)


@variant("3.6.7")
def double_gifts_in_reverse_order(rules):
    """The gifts of a double pluck on two rivals are given in reverse target order (ruling R-25)."""
    def fix(g, a, steps):
        gifts = [x for x in steps if x.name == "gift"]
        if len(gifts) == 2:
            i, j = steps.index(gifts[0]), steps.index(gifts[1])
            steps[i], steps[j] = steps[j], steps[i]
        return steps
    resolution(rules, fix)


@variant("3.3.3", "3.2.3")
def window_removed_card_under_reference(rules):
    """A card removed in a window goes on the pile under the active player's discard, which stays on top."""
    def fix(g, a, steps):
        if a.success and not a.own_draw and len(a.targets) == 1:
            d = g.state.discard
            d[-1], d[-2] = d[-2], d[-1]
        return steps
    resolution(rules, fix)


@variant("3.3.1", "3.3.4", "2.6.4")
def window_defensive_pluck_takes_reference(rules):
    """A successful defensive pluck in a window puts the discarded reference into the emptied slot."""
    def fix(g, a, steps):
        if a.success and not a.own_draw and len(a.targets) == 1 and a.targets[0][0] == a.player:
            s = g.state
            s.zones[a.player][a.targets[0][1] - 1] = s.discard.pop(-2)
        return steps
    resolution(rules, fix)


@variant("3.1.10", "3.2.7", "3.2.3")
def plucked_card_never_a_reference_again(rules):
    """A card once removed by a pluck is dead as a reference from then on (the "no chain" ban
    read without its "inmediatamente"): its later normal discard opens no window."""
    def fix(g, a, steps):
        if a.success:
            g.__dict__.setdefault("plucked_cards", set()).update(a.cards)
        return steps
    resolution(rules, fix)

    def window(old, g, reference):
        if reference in g.__dict__.get("plucked_cards", ()):
            g.emit("window_closed", "3.1.10", reference=reference)
        else:
            old(g, reference)
    step(rules, "window", window)


@variant("3.6.9", "3.6.4")
def double_partial_success(rules):
    """A double pluck with one matching target removes that one (with its gift) and costs one penalty for the miss."""
    old = rules.resolve

    def resolve(g, player, targets, own_draw):
        s = g.state
        if len(targets) == 2:
            ref = s.drawn if own_draw else s.discard[-1]
            hits = tuple(t for t in targets if g.catalog.matches(ref, s.card_at(t)))
            if len(hits) == 1:
                captured = scheduled(g, lambda: old(g, player, hits, own_draw))
                steps = [x for x in captured if not isinstance(x, Power)]
                at = next((i for i, x in enumerate(steps) if x.name == "end_turn"), len(steps))
                steps.insert(at, Penalty(player))
                g.then(*steps)
                return
        old(g, player, targets, own_draw)
    rules.resolve = resolve


@variant("3.3.7", "3.4.7", "6.1.4")
def removed_power_to_its_owner(rules):
    """The power of a card removed by a pluck goes to the player it was removed from, not to the plucker."""
    def fix(g, a, steps):
        owner = {card: t[0] for t, card in zip(a.targets, a.cards, strict=True)}
        return [replace(x, player=owner[x.card]) if isinstance(x, Power) and x.card in owner else x for x in steps]
    resolution(rules, fix)


@variant("3.4.7", "3.4.4", "3.4.6")
def own_draw_gift_is_the_drawn_card(rules):
    """After a successful own-draw pluck of a rival card, the drawn card is what the rival gets, not an own card."""
    def fix(g, a, steps):
        if _single_own_draw(a, own=False):
            s = g.state
            ref = s.discard.pop(-2)
            s.zones[a.targets[0][0]][a.targets[0][1] - 1] = ref
            s.seen[ref] = frozenset({a.player})
            steps = [x for x in steps if not isinstance(x, GiftOwed)]
        return steps
    resolution(rules, fix)


@variant("3.6.5", "3.6.6")
def double_window_reference_stays_on_top(rules):
    """In a window, a double pluck "leaves the reference where it is": on top, the two removed cards under it."""
    def fix(g, a, steps):
        if a.success and not a.own_draw and len(a.targets) == 2:
            d = g.state.discard
            d.append(d.pop(-3))
        return steps
    resolution(rules, fix)


@variant("3.6.8")
def double_power_falls_back_to_first(rules):
    """When the second card removed by a double pluck has no power, the first card's power activates instead."""
    def fix(g, a, steps):
        if a.success and len(a.targets) == 2 and g.catalog.power(a.cards[1]) is None:
            steps = [replace(x, card=a.cards[0]) if isinstance(x, Power) else x for x in steps]
        return steps
    resolution(rules, fix)


@variant("3.5.4", "3.5.5", "3.5.6")
def failed_own_draw_card_is_the_penalty(rules):
    """After a failed own-draw pluck the drawer adds the drawn card face down as the penalty card (no deck draw)."""
    def fix(g, a, steps):
        if not a.success and a.own_draw:
            s = g.state
            s.discard.pop()
            s.seen[a.reference] = frozenset({a.player})
            steps = [PlaceCard(a.player, a.reference, a.player, "3.5.6") if x == Penalty(a.player) else x
                     for x in steps]
        return steps
    resolution(rules, fix)


@dataclass(frozen=True, slots=True)
class DecideDrawn(Step):
    """The misreading's own step: the drawer is asked again to keep or discard the card they still hold."""

    name = "decide_drawn"


@variant("3.3.6", "3.5.4", "3.2.2")
def own_draw_pluck_then_keep_or_discard(rules):
    """An own-draw pluck comes before the keep-or-discard decision, not instead of it: whatever its outcome,
    the drawer still holds the drawn card and then keeps or discards it."""
    rules.steps[DecideDrawn.name] = lambda g: g.ask("drawn", g.state.active)

    def fix(g, a, steps):
        if a.own_draw:
            s = g.state
            s.discard.remove(a.reference)
            s.seen[a.reference] = frozenset({a.player})
            s.drawn = a.reference
            steps = [DecideDrawn() if x.name == "end_turn" else x for x in steps
                     if not (isinstance(x, Power) and x.card == a.reference)]
        return steps
    resolution(rules, fix)


@variant("3.6.9", "3.6.6", "3.5.2")
def failed_double_stops_at_first_miss(rules):
    """A double pluck is revealed target by target and stops at the first miss: when the first target does not
    match, the second is never shown."""
    def fix(g, a, steps):
        if not a.success and len(a.targets) == 2 and not g.catalog.matches(a.reference, a.cards[0]):
            g.state.seen[a.cards[1]] = a.seen.get(a.cards[1], frozenset())
        return steps
    resolution(rules, fix)


@variant("3.6.9", "3.5.5")
def double_failure_penalty_per_miss(rules):
    """A failed double pluck costs one penalty card per target that does not match (two when both miss)."""
    def fix(g, a, steps):
        if not a.success and len(a.targets) == 2 and not any(g.catalog.matches(a.reference, c) for c in a.cards):
            steps.insert(0, Penalty(a.player))
        return steps
    resolution(rules, fix)


@patch("3.4.5", "3.6.7", "2.5.4")
def gift_placed_like_an_added_card(rules):
    """A gift is an added card: the rival places it in an empty slot of their choice, not necessarily the one the
    removed card left."""
    def give(g, player, own_slot, rival, rival_slot):
        card = zones.remove(g.state, player, own_slot, by=player)
        g.emit("gift", "3.4.5", player=player, from_slot=own_slot, rival=rival, slot=rival_slot)
        g.then(PlaceCard(rival, card, player, "3.4.5"))
    pluck.give = give


@dataclass(frozen=True, slots=True)
class AskShoebill(Step):
    """The misreading's own step: ask the Shoebill decision again with the drawn ``cards`` still unused."""

    name = "ask_shoebill"
    player: int
    cards: tuple


@variant("3.2.1", "3.2.2", "3.1.3")
def shoebill_drawn_card_is_a_reference(rules):
    """A card a Shoebill draws and looks at in secret is "the card you have just drawn and looked at": before
    using it, the power's user may pluck with it (the first drawn card) as after their own draw."""
    rules.steps[AskShoebill.name] = lambda g, player, cards: g.ask("shoebill", player, cards=list(cards))

    def validate(g, a):
        g.require_player(a)
        s = g.state
        active, s.active = s.active, a.player
        try:
            pluck.check_claim(g, a.player, a.targets, own_draw=True)
        finally:
            s.active = active

    def perform(g, a):
        s = g.state
        cards = list(g.decision.data["cards"])
        active, s.active, s.drawn = s.active, a.player, cards[0]
        captured: list = []
        g.then = lambda *steps: captured.extend(steps)
        try:
            pluck.resolve(g, a.player, a.targets, own_draw=True)
        finally:
            del g.then
            s.active = active
        steps = [x for x in captured if x.name != "end_turn" and not (isinstance(x, Power) and x.card == cards[0])]
        g.then(*steps, AskShoebill(a.player, tuple(cards[1:])))

    rules.answers[("shoebill", Pluck)] = (validate, perform)


# Round 2: views
@patch("3.4.5", "3.4.4")
def gift_known_only_to_giver(rules):
    """A gift is handed over face down: only the giver (when they had seen it) still knows the card; what the
    other players knew of it, its receiver included, is lost."""
    old = pluck.give

    def give(g, player, own_slot, rival, rival_slot):
        s = g.state
        card = s.card_in((player, own_slot))
        old(g, player, own_slot, rival, rival_slot)
        s.seen[card] = s.seen.get(card, frozenset()) & {player}
    pluck.give = give


@patch("3.4.5", "3.5.6", "6.7.2")
def removed_slot_knowledge_passes_to_added_card(rules):
    """Knowledge is kept per slot and not cleared when a card leaves it: a card that later fills a slot emptied
    by a removal (a gift, a penalty card, a Toco Toucan's card) is known to whoever knew the removed card."""
    old_remove, old_add = zones.remove, zones.add

    def remove(s, owner, slot, by):
        before = s.seen.get(s.card_in((owner, slot)), frozenset())
        card = old_remove(s, owner, slot, by)
        s.__dict__.setdefault("slot_knowers", {})[(owner, slot)] = before
        return card

    def add(s, owner, slot, card, by):
        old_add(s, owner, slot, card, by)
        knowers = s.__dict__.get("slot_knowers", {}).pop((owner, slot), frozenset())
        if knowers:
            s.see(card, *knowers)
    zones.remove, zones.add = remove, add


# Round 2: refusals
_TARGET_REFUSALS = ("illegal_target", "shielded", "no_cards")  # a named card that cannot be a target (3.2.6, R-10)


def _window_without(rules, exclude) -> None:
    """The reaction window leaves out the players ``exclude(g, player)`` names (no window when none is left)."""
    def window(old, g, reference):
        old(g, reference)
        p, s = g.state.pending, g.state
        if p is not None and p.kind == "window":
            players = tuple(x for x in p.players if not exclude(g, x))
            if players and any(s.count(x) for x in players):
                g.ask("window", None, players, **p.data)
            else:
                s.pending = None
                g.emit("window_closed", "B.3", reference=reference)
    step(rules, "window", window)


@variant("3.2.3", "4.1.4", "4.1.6")
def finished_rivals_may_not_pluck(rules):
    """After BAO, a rival who has already played their last turn is out of the round and may no longer pluck (line
    157 read as keeping that right for the caller alone)."""
    def done(g, x):
        s = g.state
        return s.bao is not None and s.last_turns is not None and x != s.bao and x not in s.last_turns
    _window_without(rules, done)


@variant("3.2.4", "3.2.6", "3.2.2")
def invalid_claim_binds_the_claimant(rules):
    """A claim naming a card that cannot be a target still fixes the claimant's designation ("once pointed, you may
    not change target", line 85): that player may make no other claim on this reference (ruling R-10)."""
    import weakref

    barred: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # game -> (the decision, players who pointed)
    for kind in ("drawn", "window"):
        validate, _ = original(rules, kind, Pluck)

        def check(g, a, validate=validate):
            seen = barred.get(g)
            if seen is None or seen[0] is not g.state.pending:
                seen = barred[g] = (g.state.pending, set())
            try:
                validate(g, a)
            except RuleError as exc:
                if exc.code in _TARGET_REFUSALS:
                    seen[1].add(a.player)
                raise
            g.require(a.player not in seen[1], "not_your_decision", "this player already pointed at a card", "3.2.4")
        answer(rules, kind, Pluck, validate=check)


@variant("3.2.6", "3.2.5", "3.1.10")
def invalid_claim_closes_the_window(rules):
    """A claim naming a card that cannot be a target uses up the reference: the window closes, without a penalty,
    and nobody may pluck with that discard any more."""
    for action in (Pluck, SimultaneousPlucks):
        validate, perform = original(rules, "window", action)

        def check(g, a, validate=validate):
            try:
                validate(g, a)
            except RuleError as exc:
                if exc.code not in _TARGET_REFUSALS:
                    raise
                g.state.void_claim = True

        def act(g, a, perform=perform):
            if getattr(g.state, "void_claim", False):
                g.state.void_claim = False
                g.emit("window_closed", "3.2.3", reference=g.decision.data["reference"])
            else:
                perform(g, a)
        answer(rules, "window", action, validate=check, perform=act)


@variant("3.2.5")
def simultaneous_lowest_seat_wins(rules):
    """Of simultaneous claims, the lowest-numbered seat wins ("clockwise" counted from seat 0, not from the active
    player)."""
    def perform(g, a):
        winner = min(pluck._valid_claims(g, a.claims), key=lambda c: c.player)
        pluck.resolve(g, winner.player, winner.targets, own_draw=False)
    answer(rules, "window", SimultaneousPlucks, perform=perform)


@variant("3.6.2", "3.2.8")
def double_pluck_two_players(rules):
    """The two targets of a double pluck must belong to two different players, like the two cards of a swap."""
    claim_check(rules, lambda g, p, t, own: g.require(len(t) == 1 or t[0][0] != t[1][0], "illegal_target",
                                                "two different players", "3.6.2"))


@variant("3.5.8", "6.7.2", "3.2.4")
def added_card_cannot_be_plucked(rules):
    """A penalty card or a card a Toco Toucan adds "allows no pluck" (lines 129, 238): it may never be a pluck
    target, for the rest of the round."""
    def place(old, g, owner, card, by, why):
        if why in ("3.5.6", "6.7.1"):
            g.state.unpluckable = getattr(g.state, "unpluckable", frozenset()) | {card}
        old(g, owner, card, by, why)
    step(rules, "place", place)
    def round_start(old, g):
        g.state.unpluckable = frozenset()
        old(g)
    step(rules, "round_start", round_start)
    claim_check(rules, lambda g, p, t, own: g.require(
        not any(g.state.card_at(x) in getattr(g.state, "unpluckable", ()) for x in t),
        "illegal_target", "an added card allows no pluck", "3.5.8"))


@variant("3.4.1", "3.6.3", "3.2.6")
def no_gift_card_is_an_illegal_target(rules):
    """A rival's card named without an own card left to give is "a card that cannot be a target" (line 89): refused
    with illegal_target instead of no_cards."""
    def excuse(g, player, exc):
        if exc.code == "no_cards":
            raise RuleError("illegal_target", exc.message, exc.clause)
        return False
    claims_excused(rules, excuse)


# Round 3: slots
@patch("2.5.4", "3.4.5", "3.5.6")
def given_away_slot_not_reusable(rules):
    """Only a slot left empty by a removed card ("tras eliminar una carta") takes an added card: a slot its card
    left as a gift stays empty for good, so a penalty or a Toco Toucan's card goes elsewhere (ruling R-26)."""
    old_give, old_add = pluck.give, zones.add

    def give(g, player, own_slot, rival, rival_slot):
        old_give(g, player, own_slot, rival, rival_slot)
        g.state.__dict__.setdefault("given_holes", set()).add((player, own_slot))

    def add(s, owner, slot, card, by):
        old_add(s, owner, slot, card, by)
        s.__dict__.get("given_holes", set()).discard((owner, slot))

    def placement_slots(s, owner):
        dead = s.__dict__.get("given_holes", set())
        return [x for x in s.empty_slots(owner) if (owner, x) not in dead] or [len(s.zones[owner]) + 1]
    pluck.give, zones.add, zones.placement_slots = give, add, placement_slots


@variant("3.4.5", "3.6.7", "B.8")
def no_gift_to_a_rival_left_without_cards(rules):
    """A rival whose last card an offensive pluck removes gets no gift: with zero cards "only a Toco Toucan can give
    you a card back" (line 303), so the claimant keeps the card and the rival's slot stays empty."""
    def fix(g, a, steps):
        return [x for x in steps if not (isinstance(x, GiftOwed) and g.state.count(x.rival) == 0)]
    resolution(rules, fix)


# Round 4: player counts
@variant("3.2.5")
def simultaneous_nearest_either_way(rules):
    """Of simultaneous claims, the player seated nearest the active player in either direction wins (clockwise
    only breaks an equal distance), not the nearest clockwise."""
    def perform(g, a):
        s = g.state
        order = s.rivals(s.active)
        n = len(s.players)

        def key(c):
            cw = order.index(c.player) + 1
            return (min(cw, n - cw), cw)
        winner = min(pluck._valid_claims(g, a.claims), key=key)
        pluck.resolve(g, winner.player, winner.targets, own_draw=False)
    answer(rules, "window", SimultaneousPlucks, perform=perform)


@variant("3.2.5")
def simultaneous_seat_distance_without_wrap(rules):
    """Of simultaneous claims, the smallest seat-number difference from the active player wins (|seat - active|),
    the distance counted without wrapping round the table."""
    def perform(g, a):
        s = g.state
        order = s.rivals(s.active)
        winner = min(pluck._valid_claims(g, a.claims), key=lambda c: (abs(c.player - s.active), order.index(c.player)))
        pluck.resolve(g, winner.player, winner.targets, own_draw=False)
    answer(rules, "window", SimultaneousPlucks, perform=perform)


@variant("3.2.3", "3.2.1")
def window_for_three_rivals_only(rules):
    """Only the three players after the active one may claim in a reaction window (a table hard-coded for four):
    with five or six players the farthest rivals are left out."""
    def window(old, g, reference):
        old(g, reference)
        p = g.state.pending
        if p is not None and p.kind == "window" and len(p.players) > 3:
            g.ask("window", None, p.players[:3], **p.data)
    step(rules, "window", window)


# Round 4: the double pluck in depth
@variant("3.6.2", "4.2.7")
def double_shield_checks_second_target_only(rules):
    """Only the second target of a double pluck is checked against an active BAO shield: a protected card may be
    named first."""
    old = rules.check_claim

    def check(g, player, targets, own_draw):
        s = g.state
        first_only = (isinstance(targets, tuple) and len(targets) == 2
                      and all(isinstance(t, tuple) and len(t) == 2 for t in targets)
                      and zones.protected(s, targets[0][0], player) and not zones.protected(s, targets[1][0], player))
        if not first_only:
            return old(g, player, targets, own_draw)
        shield, s.shield = s.shield, "armed"
        try:
            old(g, player, targets, own_draw)
        finally:
            s.shield = shield
    rules.check_claim = check


@dataclass(frozen=True, slots=True)
class ForgetTouch(Step):
    """The misreading's own step: the double pluck's shield check, which does not count it as a modification."""

    name = "forget_touch"


@variant("3.6.10", "4.2.2", "4.2.3")
def double_shield_armed_by_first_target_only(rules):
    """A double pluck is a rival modification of the BAO caller only when its first target is the caller's card: a
    caller's card named second (and its gift) does not activate the shield."""
    def forget(g):
        g.state.shield_touched, g.state.plucking = False, None
    rules.steps[ForgetTouch.name] = forget

    def fix(g, a, steps):
        s = g.state
        if (a.success and len(a.targets) == 2 and s.shield == "armed" and a.player != s.bao
                and a.targets[0][0] != s.bao and a.targets[1][0] == s.bao):
            steps = [ForgetTouch() if x.name == "shield_check" else x for x in steps]
        return steps
    resolution(rules, fix)


@variant("3.6.8", "6.10.6")
def double_golden_second_gives_reference_power(rules):
    """When the second card removed by an own-draw double pluck has no power (a Golden Toucan), the drawn reference's
    power activates instead."""
    def fix(g, a, steps):
        if (a.success and a.own_draw and len(a.targets) == 2 and g.catalog.power(a.cards[1]) is None
                and g.catalog.power(a.reference) is not None):
            steps = [replace(x, card=a.reference) if isinstance(x, Power) else x for x in steps]
        return steps
    resolution(rules, fix)


@variant("3.6.8", "3.1.7", "6.10.6")
def double_power_of_the_reference_bird(rules):
    """A successful double pluck activates the power of the bird the reference shows (the matched bird), not the
    second removed card's own power: with mixed pelicans or toucans the reference decides."""
    def fix(g, a, steps):
        if a.success and len(a.targets) == 2:
            steps = [replace(x, card=a.reference) if isinstance(x, Power) else x for x in steps]
        return steps
    resolution(rules, fix)


@dataclass(frozen=True, slots=True)
class LateRemoval(Step):
    """The misreading's own step: remove the double pluck's second ``card`` after the first gift."""

    name = "late_removal"
    player: int
    card: str


@variant("3.6.7", "3.6.6")
def double_gift_before_second_removal(rules):
    """A double pluck is resolved target by target: the gift for a removed rival first target is given before the
    second target is removed."""
    def late(g, player, card):
        s = g.state
        owner, slot = next((o, i + 1) for o in s.players for i, c in enumerate(s.zones[o]) if c == card)
        zones.remove(s, owner, slot, by=player)
        s.discard.append(card)
        s.show_all(card)
        g.emit("removed", "3.6.6", player=owner, slot=slot, card=card, by=player)
    rules.steps[LateRemoval.name] = late

    def fix(g, a, steps):
        if a.success and len(a.targets) == 2 and a.targets[0][0] != a.player:
            s = g.state
            owner, slot = a.targets[1]
            card = s.discard.pop()
            s.zones[owner][slot - 1] = card
            s.seen[card] = a.seen.get(card, frozenset())
            first = GiftOwed(a.player, *a.targets[0])
            steps = [first, LateRemoval(a.player, card)] + [x for x in steps if x != first]
        return steps
    resolution(rules, fix)


@variant("3.6.3", "3.4.6")
def double_gift_requirement_subtracts_rival_targets(rules):
    """The gift requirement of a double pluck takes both targets off the claimant's cards, rival ones included: each
    rival target needs one own card beyond two (own and rival targets with two cards are refused)."""
    def extra(g, p, t, own):
        if len(t) == 2:
            rivals = sum(1 for o, _ in t if o != p)
            g.require(g.state.count(p) - 2 >= rivals, "no_cards", "a gift beyond the two targets", "3.6.3")
    claim_check(rules, extra)


@variant("3.6.7", "3.6.3", "3.6.6")
def double_own_target_given_to_rival(rules):
    """With one own and one rival target, the claimant's own target is the gift: it goes into the rival's emptied
    slot instead of onto the pile."""
    def fix(g, a, steps):
        owners = [o for o, _ in a.targets]
        if a.success and len(a.targets) == 2 and owners.count(a.player) == 1:
            s = g.state
            mine = owners.index(a.player)
            rival, slot = a.targets[1 - mine]
            s.discard.remove(a.cards[mine])
            s.zones[rival][slot - 1] = a.cards[mine]
            steps = [x for x in steps if not isinstance(x, GiftOwed)]
        return steps
    resolution(rules, fix)


@variant("3.6.7", "6.10.6", "3.6.10")
def double_discard_power_before_gifts(rules):
    """After a successful double pluck on a direct discard, the active player's discard power resolves as soon as
    the two cards are removed, before the gifts ("independently of the double pluck")."""
    from baobei_ref.agenda import DiscardPower

    def fix(g, a, steps):
        s = g.state
        if (a.success and len(a.targets) == 2 and not a.own_draw and DiscardPower(a.reference) in s.agenda
                and any(isinstance(x, GiftOwed) for x in steps)):
            s.agenda.remove(DiscardPower(a.reference))
            steps.insert(0, DiscardPower(a.reference))
        return steps
    resolution(rules, fix)


@patch("3.6.10", "3.6.8", "4.2.7")
def double_shield_spares_the_discard_power(rules):
    """The shield a window double pluck activates stops the powers that pluck yields, but the active player's
    discard power resolves "independently of the double pluck" (line 144), so it may still modify the caller's
    cards."""
    from baobei_ref.agenda import DiscardPower

    old_protected = zones.protected

    def protected(s, owner, by):
        return old_protected(s, owner, by) and not s.__dict__.get("unshielded")

    def fix(g, a, steps):
        s = g.state
        if (a.success and len(a.targets) == 2 and not a.own_draw and s.shield == "armed" and a.player != s.bao
                and any(o == s.bao for o, _ in a.targets) and DiscardPower(a.reference) in s.agenda):
            s.__dict__["double_shield"] = True
        return steps
    own = replace(rules)  # a patch's named rules are the modules' functions: the wrapped resolve is written back
    resolution(own, fix)
    pluck.resolve = own.resolve

    def discard_power(old, g, card):
        s = g.state
        if s.__dict__.pop("double_shield", False):
            s.__dict__["unshielded"] = True
        old(g, card)
    step(rules, "discard_power", discard_power)

    def next_turn(old, g):
        g.state.__dict__.pop("unshielded", None)
        old(g)
    step(rules, "next_turn", next_turn)
    zones.protected = protected


@variant("3.6.2", "3.1.1", equivalent=(
    "The catalog's matching (3.1.6 - 3.1.9) is equality of family (Catalog.matches compares the species' family), an "
    "equivalence relation: ref ~ first and first ~ second hold exactly when ref ~ first and ref ~ second, so in every "
    "position both readings accept and refuse the same double plucks, with the same effects."))
def double_second_matches_the_first(rules):
    """The second target of a double pluck must match the first target (the card it will lie on), not the
    reference: "las dos deben coincidir" read as the two targets coinciding with each other."""
    old_matches, old_resolve = rules.matches, rules.resolve
    double: list[tuple] = []  # (reference, first, second) of the double pluck resolving now

    def matches(g, r, t):  # the second target is compared with the first, not with the reference
        if double and (r, t) == (double[0][0], double[0][2]):
            return old_matches(g, double[0][1], t)
        return old_matches(g, r, t)

    def resolve(g, player, targets, own_draw):
        s = g.state
        if len(targets) != 2:
            return old_resolve(g, player, targets, own_draw)
        ref = s.drawn if own_draw else s.discard[-1]
        double.append((ref, *(s.card_at(t) for t in targets)))
        try:
            old_resolve(g, player, targets, own_draw)
        finally:
            double.clear()
    rules.matches, rules.resolve = matches, resolve


# Round 5: penalties and the deck
@variant("3.5.6", "2.5.4", "3.5.7")
def penalty_placed_by_active_player(rules):
    """A window claimant's penalty card is placed by the active player (whose turn it is), not by its receiver."""
    from baobei_ref.actions import Place

    def place(old, g, owner, card, by, clause):
        s = g.state
        if clause == "3.5.6" and owner != s.active and len(zones.placement_slots(s, owner)) > 1:
            g.ask("place", s.active, card=card, by=by, clause=clause, owner=owner)
        else:
            old(g, owner, card, by, clause)
    step(rules, "place", place)
    validate, perform = original(rules, "place", Place)

    def check(g, a):
        d = g.decision.data
        if "owner" not in d:
            return validate(g, a)
        g.require_player(a)
        g.require(a.slot in zones.placement_slots(g.state, d["owner"]), "illegal_target", "not a slot", "2.5.4")

    def put(g, a):
        d = g.decision.data
        if "owner" not in d:
            return perform(g, a)
        pluck.place(g, d["owner"], a.slot, d["card"], d["by"], d["clause"])
    answer(rules, "place", Place, validate=check, perform=put)
    legal = rules.legal["place"]

    def legal_place(g):
        d = g.decision.data
        if "owner" not in d:
            return legal(g)
        return [Place(g.decision.player, slot) for slot in zones.placement_slots(g.state, d["owner"])]
    rules.legal["place"] = legal_place


@variant("3.5.7", "3.1.10", "3.5.1")
def window_failed_reference_slid_under(rules):
    """A failed claim in a window uses the reference up: the active player's discard is slid face down under
    the pile, so the card below it becomes the top discard."""
    def fix(g, a, steps):
        s = g.state
        if not a.success and not a.own_draw and len(s.discard) > 1:
            s.under.append(s.discard.pop())
        return steps
    resolution(rules, fix)


@variant("3.5.5", "4.1.6")
def bao_caller_exempt_from_penalty(rules):
    """The BAO caller's zone is frozen after the call: a failed pluck by the caller during the last turns costs
    no penalty card."""
    def fix(g, a, steps):
        if not a.success and g.state.bao == a.player:
            return [st for st in steps if st != Penalty(a.player)]
        return steps
    resolution(rules, fix)


@variant("3.5.5", "3.5.6")
def failed_offensive_penalty_to_target_owner(rules):
    """A failed pluck of a rival's card gives the penalty card to that rival (like the gift of a success), not
    to the claimant."""
    def fix(g, a, steps):
        owners = {owner for owner, _ in a.targets}
        if not a.success and len(a.targets) == 1 and a.player not in owners:
            return [Penalty(a.targets[0][0]) if st == Penalty(a.player) else st for st in steps]
        return steps
    resolution(rules, fix)
