"""Misreadings of annex A (part 6): when powers activate, each power, their order and the per-turn limit."""

from __future__ import annotations

import dataclasses
from dataclasses import replace

from baobei_ref import cards, powers, zones
from baobei_ref.actions import Gift
from baobei_ref.agenda import DiscardPower, Power, ShieldCheck, TocoDraw, Window
from baobei_ref.powers import add_to_rival, double_replace, targets
from baobei_ref.powers.add_to_rival import TocoAdd
from baobei_ref.powers.blind_swap import BlindSwap
from baobei_ref.powers.double_replace import ShoebillReplace
from baobei_ref.powers.peek import PeekAt
from baobei_ref.powers.peek_two_swap import MacawLook, MacawSwap
from baobei_ref.powers.show import ShowCard

from .change import (
    answer,
    looks_refused,
    original,
    placed_seen,
    resolution,
    step,
    then_also,
)
from .mutant import patch, variant


@variant("6.1.2")
def discard_power_lost_after_rival_pluck(rules):
    """A directly discarded card's power is lost when a rival plucked with it."""
    def discard_power(old, g, card):
        if g.state.discard[-1] == card:
            old(g, card)
    step(rules, "discard_power", discard_power)


@variant("6.1.2", "6.10.5")
def discard_power_to_plucker(rules):
    """A directly discarded card's power goes to the rival who plucked with it."""
    def discard_power(old, g, card):
        plucker = next((e.data["player"] for e in g.events if e.kind == "pluck" and e.data.get("success")), None)
        if plucker is None or not g.catalog.power(card):
            return old(g, card)
        g.then(Power(plucker, card, "6.1.2"))
    step(rules, "discard_power", discard_power)


@variant("6.1.3", "6.10.3")
def own_draw_reference_no_power(rules):
    """A successful own-draw pluck does not activate the drawn reference's power."""
    resolution(rules, lambda g, a, steps: [x for x in steps if not (isinstance(x, Power) and x.clause == "6.10.3")])


@variant("6.1.4", "3.3.7", "6.10.4", "6.10.5")
def removed_card_no_power(rules):
    """A card removed by a single pluck does not activate its power."""
    resolution(rules, lambda g, a, steps: [x for x in steps
                                    if not (isinstance(x, Power) and x.clause in ("6.10.4", "6.10.5"))])


@variant("6.1.5", "2.5.5")
def swapped_card_power(rules):
    """A card moved by a blind swap activates its power for the one who swapped (FAQ-15)."""
    then_also(rules, "blind_swap", BlindSwap, lambda g, a: g.then(Power(a.player, g.state.card_at(a.first), "6.1.5")))


@variant("6.1.5", "3.4.5")
def gift_power(rules):
    """A gift card activates its power for the rival who receives it."""
    _, perform = original(rules, "gift", Gift)

    def wrong(g, a):
        d = dict(g.state.pending.data)
        perform(g, a)
        g.then(Power(d["rival"], g.state.card_at((d["rival"], d["slot"])), "6.1.5"))
    answer(rules, "gift", Gift, perform=wrong)


@variant("6.1.5", "3.5.2")
def shown_failed_target_power(rules):
    """The target shown by a failed pluck activates its power for its owner."""
    def fix(g, a, steps):
        if not a.success:
            steps += [Power(t[0], c, "6.1.5") for t, c in zip(a.targets, a.cards, strict=True)]
        return steps
    resolution(rules, fix)


@variant("6.2.2", "6.4.2")
def brown_pelican_shown_power(rules):
    """A card shown by a Brown Pelican activates its power for its owner."""
    then_also(rules, "brown_pelican", ShowCard, lambda g, a: g.then(Power(a.target[0], g.state.card_at(a.target),
                                                               "6.4.2")))


@variant("6.4.2", "3.1.2")
def brown_pelican_shown_opens_window(rules):
    """A card shown by a Brown Pelican may be plucked like a discard."""
    def wrong(g, a):
        card = g.state.card_at(a.target)
        perform(g, a)
        g.then(Window(card))
    _, perform = original(rules, "brown_pelican", ShowCard)
    answer(rules, "brown_pelican", ShowCard, perform=wrong)


@variant("6.3.1")
def white_pelican_rivals_only(rules):
    """The White Pelican may look only at a rival's card, not one's own."""
    validate, _ = original(rules, "white_pelican", PeekAt)

    def check(g, a):
        validate(g, a)
        g.require(a.target[0] != a.player, "illegal_target", "rivals only", "6.3.1")
    answer(rules, "white_pelican", PeekAt, validate=check)


@variant("6.3.1")
def white_pelican_shows_to_all(rules):
    """The White Pelican's card is shown to everyone, like the Brown Pelican's."""
    then_also(rules, "white_pelican", PeekAt, lambda g, a: g.state.show_all(g.state.card_at(a.target)))


@variant("6.4.1")
def brown_pelican_own_cards_only(rules):
    """The Brown Pelican may show only one of one's own cards."""
    validate, _ = original(rules, "brown_pelican", ShowCard)

    def check(g, a):
        validate(g, a)
        g.require(a.target[0] == a.player, "illegal_target", "own only", "6.4.1")
    answer(rules, "brown_pelican", ShowCard, validate=check)


@variant("6.5.1")
def blind_swap_looks(rules):
    """The blind swap lets its user look at both cards."""
    def extra(g, a):
        s = g.state
        s.see(s.card_at(a.first), a.player)
        s.see(s.card_at(a.second), a.player)
    then_also(rules, "blind_swap", BlindSwap, extra)


@variant("6.5.1", "2.5.5")
def blind_swap_same_player(rules):
    """The blind swap may exchange two cards of the same player."""
    answer(rules, "blind_swap", BlindSwap, validate=lambda g, a: (g.check_target(a.first, "6.5.1"),
                                                              g.check_target(a.second, "6.5.1")))


@patch("6.5.2", "6.10.7")
def blind_swap_asked_without_pair(rules):
    """The blind swap is asked for even when no valid pair exists (the player must then pass)."""
    powers.POWERS["blind_swap"] = dataclasses.replace(powers.POWERS["blind_swap"], possible=lambda g, player: True)


@patch("6.5.2", "6.11.1", "4.2.7")
def blind_swap_ignores_validity(rules):
    """The blind swap may use any two cards of two players, shielded or already moved ones included."""
    old = targets.pairs
    targets.pairs = lambda g, player, need_movable: old(g, player, False)
    answer(rules, "blind_swap", BlindSwap, validate=lambda g, a: targets.check_pair(g, a, "6.5.1"))


@patch("6.5.2")
def knowledge_stays_with_the_slot(rules):
    """After a swap, players remember the slots, not the cards: what they knew changes places (ruling R-27)."""
    old = zones.swap

    def swap(s, a, b, by):
        ca, cb = s.card_at(a), s.card_at(b)
        old(s, a, b, by)
        s.seen[ca], s.seen[cb] = s.seen.get(cb, frozenset()), s.seen.get(ca, frozenset())
    zones.swap = swap


@variant("6.6.1")
def macaw_swap_mandatory(rules):
    """The Macaw must swap the two cards it looked at."""
    answer(rules, "macaw_swap", MacawSwap, validate=lambda g, a: (g.require_player(a),
                                                             g.require(a.swap is True, "illegal_target", "swap",
                                                                       "6.6.1")))


@variant("6.6.1")
def macaw_does_not_look(rules):
    """The Macaw swaps without its user looking at the cards."""
    def wrong(g, a):
        s = g.state
        before = {c: frozenset(s.seen.get(c, ())) for c in (s.card_at(a.first), s.card_at(a.second))}
        perform(g, a)
        s.seen.update(before)
    _, perform = original(rules, "macaw", MacawLook)
    answer(rules, "macaw", MacawLook, perform=wrong)


@variant("6.6.2", "4.2.7")
def macaw_cannot_look_at_protected(rules):
    """The Macaw may not even look at a card it could not swap (a shielded or already moved one)."""
    validate, _ = original(rules, "macaw", MacawLook)

    def check(g, a):
        validate(g, a)
        rules.check_movable(g, a.player, (a.first, a.second), "6.6.1")
    answer(rules, "macaw", MacawLook, validate=check)


@variant("6.7.1")
def toco_card_to_the_user(rules):
    """The Toco Toucan adds the drawn card to its user's own zone."""
    step(rules, "toco_draw", lambda old, g, player, rival: old(g, player, player))


@variant("6.7.1", "2.5.4")
def toco_user_chooses_the_slot(rules):
    """The Toco Toucan's user, not the rival, chooses where the added card goes (ruling R-18)."""
    def place(old, g, owner, card, by, clause):
        if clause == "6.7.1" and len(g.state.empty_slots(owner)) > 1:
            g.ask("place", by, card=card, by=by, clause=clause, owner=owner)
        else:
            old(g, owner, card, by, clause)
    step(rules, "place", place)


@patch("6.7.2", "B.8")
def toco_not_on_zero_cards(rules):
    """The Toco Toucan cannot target a rival with zero cards."""
    old = add_to_rival.rivals
    add_to_rival.rivals = lambda s, player: [r for r in old(s, player) if s.count(r)]
    validate, _ = original(rules, "toco_toucan", TocoAdd)

    def check(g, a):
        validate(g, a)
        g.require(g.state.count(a.rival) > 0, "illegal_target", "no cards", "6.7.2")
    answer(rules, "toco_toucan", TocoAdd, validate=check)


@variant("6.7.2")
def toco_card_seen_by_rival(rules):
    """The rival looks at the card the Toco Toucan adds."""
    placed_seen(rules, "6.7.1")


@variant("6.7.2", "6.1.5")
def toco_card_power(rules):
    """The card a Toco Toucan adds activates its power for the rival."""
    def place(old, g, owner, card, by, clause):
        old(g, owner, card, by, clause)
        if clause == "6.7.1":
            g.state.agenda.append(Power(owner, card, "6.7.2"))
    step(rules, "place", place)


@patch("6.8.1")
def golden_toucan_acts_as_toco(rules):
    """The Golden Toucan has the Toco Toucan's power."""
    old = cards.Catalog.power
    cards.Catalog.power = lambda self, card: "add_to_rival" if self.species_of(card) == "golden_toucan" \
        else old(self, card)


@variant("6.9.1", "6.9.2")
def shoebill_draws_one_card(rules):
    """The Shoebill draws one card and replaces one card of a rival."""
    def draw(old, g, player, drawn):
        old(g, player, drawn)
        if not drawn and g.state.agenda and g.state.agenda[-1].name == "shoebill_draw":
            last = g.state.agenda[-1]
            g.state.agenda[-1] = replace(last, drawn=(*last.drawn, None))
    step(rules, "shoebill_draw", draw)


@variant("6.9.2")
def shoebill_cards_not_looked_at(rules):
    """The Shoebill's user does not look at the two drawn cards."""
    def draw(old, g, player, drawn):
        s = g.state
        before = {c: frozenset(s.seen.get(c, ())) for c in s.deck[-2:]}
        old(g, player, drawn)
        for c, who in before.items():
            s.seen[c] = who
    step(rules, "shoebill_draw", draw)


@patch("6.9.3", "6.10.7")
def shoebill_own_replacement_optional(rules):
    """The Shoebill's own replacement is optional: replacing only the rival's card is allowed."""
    old = double_replace.options

    def lenient(g, a):
        own, rival = old(g, a.player)
        if a.own is None and a.rival is not None and own:
            double_replace.options = lambda g, player: ([], rival)
            try:
                validate(g, a)
            finally:
                double_replace.options = old
        else:
            validate(g, a)
    validate, _ = original(rules, "shoebill", ShoebillReplace)
    answer(rules, "shoebill", ShoebillReplace, validate=lenient)


@patch("6.9.4", "2.5.3")
def shoebill_cards_to_new_slots(rules):
    """The Shoebill's new cards go to new slots; the replaced cards' slots stay empty."""
    def put(g, player, target, card):
        s = g.state
        old = zones.remove(s, target[0], target[1], by=player)
        zones.add(s, target[0], len(s.zones[target[0]]) + 1, card, by=player)
        s.moved.add(card)
        s.under.append(old)
    double_replace.put = put


@patch("6.9.5")
def shoebill_old_cards_face_up(rules):
    """The Shoebill's replaced cards go face up on the discard pile."""
    def put(g, player, target, card):
        s = g.state
        old = zones.replace(s, target[0], target[1], card, by=player)
        s.moved.add(card)
        s.discard.insert(-1, old)
        s.show_all(old)
    double_replace.put = put


@patch("6.9.6")
def shoebill_nothing_without_own_cards(rules):
    """A Shoebill whose user has no card does nothing at all."""
    old = double_replace.options

    def options(g, player):
        own, rival = old(g, player)
        return (own, rival) if g.state.count(player) else ([], [])
    double_replace.options = options


@variant("6.9.6", "6.9.5")
def shoebill_unused_card_on_top(rules):
    """A Shoebill card that cannot be used goes face up on the discard pile."""
    _, old_perform = original(rules, "shoebill", ShoebillReplace)

    def wrong(g, a):
        s = g.state
        drawn = list(s.pending.data["cards"])
        old_perform(g, a)
        for c in drawn:
            if c in s.under:
                s.under.remove(c)
                s.discard.insert(-1, c)
    answer(rules, "shoebill", ShoebillReplace, perform=wrong)


@variant("6.10.2", "6.10.3", "6.10.4")
def own_draw_removed_power_first(rules):
    """After a successful own-draw pluck, the removed card's power resolves before the reference's."""
    def fix(g, a, steps):
        powers_ = [x for x in steps if x.name == "power"]
        if len(powers_) == 2:
            i, j = steps.index(powers_[0]), steps.index(powers_[1])
            steps[i], steps[j] = steps[j], steps[i]
        return steps
    resolution(rules, fix)


@variant("6.10.5", "6.1.2")
def active_discard_power_first(rules):
    """The active player's discard power resolves before the plucker's removed-card power (ruling R-04)."""
    def fix(g, a, steps):
        s = g.state
        if a.success and not a.own_draw and DiscardPower(a.reference) in s.agenda:
            s.agenda.remove(DiscardPower(a.reference))
            i = next((i for i, x in enumerate(steps) if x.name == "power"), len(steps))
            steps.insert(i, DiscardPower(a.reference))
        return steps
    resolution(rules, fix)


@variant("6.10.7", "6.9.3")
def shoebill_may_replace_nothing(rules):
    """A Shoebill's user may decline the power and replace nothing (ruling R-11)."""
    validate, _ = original(rules, "shoebill", ShoebillReplace)
    answer(rules, "shoebill", ShoebillReplace, validate=lambda g, a: None if a.own is None and a.rival is None
           else validate(g, a))


@variant("6.10.7", "6.3.1")
def pelican_power_may_be_declined(rules):
    """A White Pelican's power may be skipped: the player simply ends the turn."""
    from baobei_ref.actions import EndTurn

    rules.answers[("white_pelican", EndTurn)] = (lambda g, a: g.require_player(a), lambda g, a: None)


@variant("6.11.1")
def move_limit_never_clears(rules):
    """A card moved by a power stays locked for the rest of the round."""
    def start(old, g):
        moved = set(g.state.moved)
        old(g)
        g.state.moved |= moved
    step(rules, "turn_start", start)


@variant("6.11.1")
def move_limit_blocks_looking(rules):
    """A card moved by a power this turn may not be looked at or shown either."""
    looks_refused(rules, lambda g, player, t: g.state.card_at(t) in g.state.moved, "moved_by_power_this_turn", "6.11.1")


@variant("6.11.1")
def placed_cards_not_counted(rules):
    """The cards a Shoebill draws and places are not counted as moved (ruling R-28: from the draw; the Toco
    Toucan's added card is ``toco_added_card_not_moved``, equivalent)."""
    def draw(old, g, player, drawn):
        moved = set(g.state.moved)
        old(g, player, drawn)
        g.state.moved = moved
    step(rules, "shoebill_draw", draw)


@variant("6.9.6", "6.9.3")
def shoebill_single_card_replaces_own(rules):
    """A Shoebill that could draw only one card must use it on its user's own card (ruling R-21: the user's choice)."""
    validate, _ = original(rules, "shoebill", ShoebillReplace)

    def check(g, a):
        validate(g, a)
        own, _ = double_replace.options(g, a.player)
        g.require(len(g.state.pending.data["cards"]) > 1 or a.own is not None or not own, "illegal_target",
                  "the single card replaces an own card", "6.9.6")
    answer(rules, "shoebill", ShoebillReplace, validate=check)


@variant("6.7.1")
def toco_may_target_oneself(rules):
    """The Toco Toucan may add the card to its user's own zone."""
    answer(rules, "toco_toucan", TocoAdd, validate=lambda g, a: g.require_player(a))


@variant("6.6.1", "6.6.2")
def macaw_one_player_pair(rules):
    """The Macaw may look at two cards of the same player."""
    answer(rules, "macaw", MacawLook, validate=lambda g, a: (g.require_player(a), g.check_target(a.first, "6.6.1"),
                                                        g.check_target(a.second, "6.6.1")))


@variant("6.3.1")
def white_pelican_owner_also_sees(rules):
    """The White Pelican's look is shared with the card's owner."""
    then_also(rules, "white_pelican", PeekAt, lambda g, a: g.state.see(g.state.card_at(a.target), a.target[0]))


@variant("6.11.1", "6.6.1")
def macaw_look_counts_as_moved(rules):
    """Cards the Macaw looked at count as moved by a power this turn, even when it leaves them (ruling R-08)."""
    def extra(g, a):
        s = g.state
        s.moved.update((s.card_at(a.first), s.card_at(a.second)))
    then_also(rules, "macaw", MacawLook, extra)


@patch("6.9.5", equivalent="Views show nothing of the cards under the pile but their count, and a recycle makes "
                              "them unknown to everyone (7.1.5) before any of them can reach a zone again: what a "
                              "player knows of a card under the pile never shows in any position.")
def shoebill_user_sees_replaced_cards(rules):
    """The Shoebill's user looks at the two cards it replaces before sliding them under the pile."""
    def put(g, player, target, card):
        g.state.see(g.state.card_at(target), player)
        old(g, player, target, card)
    old = double_replace.put
    double_replace.put = put


@variant("6.7.2")
def toco_card_seen_by_user(rules):
    """The Toco Toucan's user looks at the card before adding it to the rival's zone."""
    def place(old, g, owner, card, by, clause):
        if clause == "6.7.1":
            g.state.see(card, by)
        old(g, owner, card, by, clause)
    step(rules, "place", place)


@variant("6.5.1", "2.5.5")
def blind_swap_owners_look(rules):
    """After a blind swap each owner looks at the card they received."""
    def extra(g, a):
        s = g.state
        s.see(s.card_at(a.first), a.first[0])
        s.see(s.card_at(a.second), a.second[0])
    then_also(rules, "blind_swap", BlindSwap, extra)


_TOCO_CARD_NEVER_MOVED_AGAIN = (
    "A turn resolves at most one pluck attempt (3.1.10: one per reference; an own-draw pluck ends the drawer's "
    "choice, a window closes with its attempt), so a turn activates at most two powers, and two only when the "
    "reference card and the removed card match (6.10.2 - 6.10.6). Besides a Toco Toucan only the Golden Toucan "
    "matches a Toco Toucan (3.1.8, 3.1.9), and it has no power (6.8.1). So a Toco Toucan's power is followed in its "
    "turn by no power or by another Toco Toucan's, which adds a new card and moves none: no later power of that turn "
    "can try to move the added card, and the mark clears when the next turn starts (6.11.1). Only the mark itself "
    "in the canonical state differs, and no rule reads it.")


@variant("6.11.1", "6.7.1", equivalent=_TOCO_CARD_NEVER_MOVED_AGAIN)
def toco_added_card_not_moved(rules):
    """The card a Toco Toucan adds to a rival's zone is not counted as moved by a power (line 268 lists moving,
    swapping and replacing, not adding), so a later power of the same turn could move it (ruling R-08)."""
    def draw(old, g, player, rival):
        before = set(g.state.moved)
        old(g, player, rival)
        g.state.moved.intersection_update(before)
    step(rules, "toco_draw", draw)


@patch("6.5.1", "6.6.1")
def swap_powers_must_include_user(rules):
    """The blind swap and the Macaw must take one of the two cards from their user's own zone ("you may be one of
    them" read as "you are one of them")."""
    old = targets.pairs
    targets.pairs = lambda g, player, need_movable: [(a, b) for a, b in old(g, player, need_movable)
                                                     if player in (a[0], b[0])]
    for kind, action in (("blind_swap", BlindSwap), ("macaw", MacawLook)):
        validate, _ = original(rules, kind, action)

        def check(g, a, validate=validate):
            validate(g, a)
            g.require(a.player in (a.first[0], a.second[0]), "illegal_target", "one card must be the user's", "6.5.1")
        answer(rules, kind, action, validate=check)


@variant("6.10.2", "6.10.4", "6.1.4")
def single_pluck_one_power_only(rules):
    """A successful single own-draw pluck yields one power only, like a double pluck: the drawn reference's when it
    has one, the removed card's otherwise."""
    def fix(g, a, steps):
        if a.success and a.own_draw and len(a.targets) == 1 and g.catalog.power(a.reference):
            steps = [x for x in steps if not (isinstance(x, Power) and x.clause == "6.10.4")]
        return steps
    resolution(rules, fix)


@patch("6.9.6", "6.9.3")
def shoebill_nothing_without_rival(rules):
    """A Shoebill that can replace no rival card does nothing at all: its user's own replacement is skipped too."""
    old = double_replace.options

    def options(g, player):
        own, rival = old(g, player)
        return (own, rival) if rival else ([], [])
    double_replace.options = options


@variant("6.5.1", "6.10.7")
def blind_swap_optional(rules):
    """The blind swap is optional like the Macaw's swap: its user may end the turn without swapping (ruling R-11)."""
    from baobei_ref.actions import EndTurn

    rules.answers[("blind_swap", EndTurn)] = (lambda g, a: g.require_player(a), lambda g, a: None)


@variant("6.1.7", "6.10.6", "3.6.8")
def double_pluck_power_falls_back(rules):
    """When the second card removed by a double pluck has no power, the first removed card's power activates
    instead."""
    def fix(g, a, steps):
        if a.success and len(a.targets) == 2 and not g.catalog.power(a.cards[1]):
            steps = [Power(a.player, a.cards[0], "6.10.6") if isinstance(x, Power) and x.clause == "6.10.6" else x
                     for x in steps]
        return steps
    resolution(rules, fix)


@patch("6.11.1", "6.1.5")
def placed_this_turn_counts_as_moved(rules):
    """Any card that entered a zone this turn (a gift, a penalty card, a kept or taken card) counts as moved by a
    power, so no power may move it that turn."""
    old_add, old_replace = zones.add, zones.replace

    def add(s, owner, slot, card, by):
        old_add(s, owner, slot, card, by)
        s.moved.add(card)

    def replace_(s, owner, slot, card, by):
        old = old_replace(s, owner, slot, card, by)
        s.moved.add(card)
        return old
    zones.add, zones.replace = add, replace_


# Round 2: views
@patch("6.9.2", "6.9.4")
def shoebill_rival_card_forgotten(rules):
    """The Shoebill's user keeps no knowledge of the drawn card it puts into a rival's zone, only of the one that
    replaces their own card."""
    old = double_replace.put

    def put(g, player, target, card):
        old(g, player, target, card)
        if target[0] != player:
            g.state.seen[card] = g.state.seen.get(card, frozenset()) - {player}
    double_replace.put = put


@patch("6.9.4", "6.9.5", "2.5.3")
def shoebill_replaced_slot_knowledge_kept(rules):
    """Players who knew a card the Shoebill replaces know the new card in its slot: the old card is slid away
    unshown, so their memory of the slot is kept."""
    old = double_replace.put

    def put(g, player, target, card):
        s = g.state
        knowers = s.seen.get(s.card_in(target), frozenset())
        old(g, player, target, card)
        if knowers:
            s.see(card, *knowers)
    double_replace.put = put


@variant("6.5.1", "6.5.2")
def blind_swap_user_forgets(rules):
    """The blind swap's user loses track of the two cards, even one they had seen: the swap is made "without
    looking" at them."""
    def extra(g, a):
        s = g.state
        for t in (a.first, a.second):
            card = s.card_in(t)
            s.seen[card] = s.seen.get(card, frozenset()) - {a.player}
    then_also(rules, "blind_swap", BlindSwap, extra)


@variant("6.6.1", "6.5.2")
def macaw_swap_decision_secret(rules):
    """The Macaw's user decides in secret whether to swap, so the other players cannot tell whether the cards
    moved and lose track of both, whether they were swapped or left."""
    _, perform = original(rules, "macaw_swap", MacawSwap)

    def wrong(g, a):
        s = g.state
        d = s.pending.data
        cards = [s.card_in((d["first"][0], d["first"][1])), s.card_in((d["second"][0], d["second"][1]))]
        perform(g, a)
        for card in cards:
            s.seen[card] = s.seen.get(card, frozenset()) & {a.player}
    answer(rules, "macaw_swap", MacawSwap, perform=wrong)


@variant("6.4.1")
def brown_pelican_show_forgotten(rules):
    """The Brown Pelican shows the card only "briefly": nobody remembers it afterwards (what was known of it
    before stays known)."""
    _, perform = original(rules, "brown_pelican", ShowCard)

    def wrong(g, a):
        s = g.state
        card = s.card_in(a.target)
        before = s.seen.get(card, frozenset())
        perform(g, a)
        s.seen[card] = before
    answer(rules, "brown_pelican", ShowCard, perform=wrong)


# Round 2: refusals
@variant("6.6.2", "4.2.7", "6.11.1")
def macaw_may_swap_what_it_saw(rules):
    """The Macaw may swap the two cards it looked at whatever they are, shielded or already moved ones included."""
    def look(g, a):
        s = g.state
        s.see(g.check_target(a.first, "6.6.1"), a.player)
        s.see(g.check_target(a.second, "6.6.1"), a.player)
        g.emit("peeked", "6.6.1", player=a.player, target=list(a.first), second=list(a.second))
        g.ask("macaw_swap", a.player, first=list(a.first), second=list(a.second))
    answer(rules, "macaw", MacawLook, perform=look)


# Round 3: power combos
def _movers(s) -> dict:
    """card -> the player whose power moved it this turn (kept beside the state by the mutants below)."""
    return s.__dict__.setdefault("movers", {})


@patch("6.11.1")
def move_limit_per_user(rules):
    """The per-turn limit binds only the player whose power moved the card: another player's power (a window
    plucker's, then the active player's discard power) may move it again in the same turn."""
    old_swap, old_put = targets.swap_cards, double_replace.put

    def swap(g, player, first, second, clause):
        for t in (first, second):
            if g.state.card_at(t) is not None:
                _movers(g.state)[g.state.card_at(t)] = player
        old_swap(g, player, first, second, clause)

    def put(g, player, target, card):
        old_put(g, player, target, card)
        _movers(g.state)[card] = player

    def locked(g, target, player):
        card = g.state.card_at(target)
        return card in g.state.moved and _movers(g.state).get(card, player) == player

    def movable(g, target, player):
        return not zones.protected(g.state, target[0], player) and not locked(g, target, player)

    def check_movable(g, player, targets_, clause):
        for t in targets_:
            g.require(not zones.protected(g.state, t[0], player), "shielded", f"player {t[0]}'s cards are shielded",
                      "4.2.7")
            g.require(not locked(g, t, player), "moved_by_power_this_turn", "already moved by your power", "6.11.1")

    def options(g, player):
        s = g.state
        return ([slot for slot in s.own_slots(player) if not locked(g, (player, slot), player)],
                [(r, slot) for r in s.rivals(player) for slot in s.own_slots(r) if movable(g, (r, slot), player)])
    targets.swap_cards, double_replace.put = swap, put
    targets.movable, targets.check_movable, double_replace.options = movable, check_movable, options


@variant("6.11.1", "6.10.2")
def move_limit_per_power(rules):
    """The per-turn limit holds only within one power: each power of the turn starts afresh, so the removed card's
    power may move again a card the drawn reference's power moved ("acciones diferentes" not read)."""
    def power(old, g, player, card, clause):
        g.state.moved.clear()
        old(g, player, card, clause)
    step(rules, "power", power)


@variant("6.10.6", "3.6.8", "6.1.2")
def double_pluck_cancels_discard_power(rules):
    """A successful double pluck in a window yields the only power of the turn: the active player's direct-discard
    power is lost ("solo puede activar un poder" read for the whole turn)."""
    def fix(g, a, steps):
        s = g.state
        if a.success and len(a.targets) == 2 and not a.own_draw and DiscardPower(a.reference) in s.agenda:
            s.agenda.remove(DiscardPower(a.reference))
        return steps
    resolution(rules, fix)


@variant("6.1.1", "6.1.6", "3.5.5")
def discard_power_before_failed_claim_penalty(rules):
    """After a failed claim in the window, the active player's direct-discard power resolves at once, before the
    claimant has drawn and placed the penalty card."""
    def fix(g, a, steps):
        s = g.state
        if not a.success and not a.own_draw and DiscardPower(a.reference) in s.agenda:
            s.agenda.remove(DiscardPower(a.reference))
            steps.insert(0, DiscardPower(a.reference))
        return steps
    resolution(rules, fix)


@variant("6.1.2", "3.1.10")
def failed_claim_uses_up_discard_power(rules):
    """A failed claim in the window uses up the direct discard with its power ("one attempt per reference"): the
    active player's power is lost."""
    def fix(g, a, steps):
        s = g.state
        if not a.success and not a.own_draw and DiscardPower(a.reference) in s.agenda:
            s.agenda.remove(DiscardPower(a.reference))
        return steps
    resolution(rules, fix)


@variant("6.10.7", "6.9.6", "7.1.8")
def shoebill_needs_two_cards(rules):
    """A Shoebill that can draw only one card (deck empty, nothing to recycle) has no effect at all: "draw the top
    two cards" is impossible, so the one card drawn is slid under the pile unused."""
    def draw(old, g, player, drawn):
        if len(drawn) == 2 and None in drawn:
            cards_ = [c for c in drawn if c is not None]
            g.state.under.extend(cards_)
            g.emit("power_without_effect", "6.9.6", player=player, power="double_replace", slid_under=len(cards_))
            g.then(ShieldCheck())
            return
        old(g, player, drawn)
    step(rules, "shoebill_draw", draw)


@variant("6.6.2", "6.10.7")
def macaw_without_pair_peeks_one(rules):
    """A Macaw that finds no two cards of two players does what is possible (6.10.7): its user looks at one card,
    as with a White Pelican."""
    def power(old, g, player, card, clause):
        if g.catalog.power(card) == "peek_two_swap" and not targets.pairs(g, player, need_movable=False) \
                and targets.hidden_cards(g.state):
            g.emit("power", clause, player=player, card=card, power="peek_two_swap")
            g.ask("white_pelican", player)
            return
        old(g, player, card, clause)
    step(rules, "power", power)


@variant("6.10.7", "6.7.1")
def toco_falls_back_on_user(rules):
    """A Toco Toucan that may target no rival (all shielded) still draws its card, which goes to its user's own
    zone: the drawn card has to go somewhere."""
    def power(old, g, player, card, clause):
        if g.catalog.power(card) == "add_to_rival" and not add_to_rival.rivals(g.state, player):
            g.emit("power", clause, player=player, card=card, power="add_to_rival")
            g.then(TocoDraw(player, player))
            return
        old(g, player, card, clause)
    step(rules, "power", power)


# Round 3: slots
@variant("6.9.3", "6.9.4", "2.5.3")
def shoebill_fills_an_empty_own_slot(rules):
    """The Shoebill's card for its user may go into one of the user's empty slots instead of replacing a card
    (nothing of theirs is slid under); a user with no card at all still gets none (line 251's example)."""
    from baobei_ref.agenda import ShieldCheck

    validate, perform = original(rules, "shoebill", ShoebillReplace)

    def into_hole(g, a):
        return (a.own is not None and isinstance(a.own, tuple) and len(a.own) == 2 and g.state.count(a.player) > 0
                and isinstance(a.own[1], int) and g.state.card_at((a.player, a.own[1])) is None
                and 1 <= a.own[1] <= len(g.state.zones[a.player]))

    def check(g, a):
        if not into_hole(g, a):
            return validate(g, a)
        g.require_player(a)
        g.require(a.own[0] in range(len(g.decision.data["cards"])), "malformed_action", "drawn index", "6.9.3")
        validate(g, replace(a, own=(a.own[0], g.state.own_slots(a.player)[0])))

    def wrong(g, a):
        if not into_hole(g, a):
            return perform(g, a)
        s, cards = g.state, list(g.decision.data["cards"])
        zones.add(s, a.player, a.own[1], cards[a.own[0]], by=a.player)
        s.moved.add(cards[a.own[0]])
        used = {a.own[0]}
        if a.rival is not None:
            double_replace.put(g, a.player, (a.rival[1], a.rival[2]), cards[a.rival[0]])
            used.add(a.rival[0])
        s.under.extend(c for i, c in enumerate(cards) if i not in used)
        g.then(ShieldCheck())
    answer(rules, "shoebill", ShoebillReplace, validate=check, perform=wrong)


@patch("6.5.1", "6.6.1", "2.5.5")
def swapped_card_placed_like_an_added_card(rules):
    """A swap hands each card to the other player like an added card: its new owner places it in an empty slot of
    their choice (the slot the other card left, or an older hole), not necessarily the other card's slot."""
    from baobei_ref.agenda import PlaceCard

    def swap_cards(g, player, first, second, clause):
        s = g.state
        a, b = s.card_in(first), s.card_in(second)
        s.moved.update((a, b))
        zones.remove(s, first[0], first[1], by=player)
        zones.remove(s, second[0], second[1], by=player)
        g.emit("swapped", clause, ruling="R-08", also=("2.5.5", "6.11.1"), player=player, first=list(first),
               second=list(second))
        g.then(PlaceCard(second[0], a, player, clause), PlaceCard(first[0], b, player, clause))
    targets.swap_cards = swap_cards


@variant("6.5.1", "2.5.5")
def swap_into_an_empty_slot(rules):
    """The blind swap may exchange a card with an empty slot of another player, moving the card into that hole."""
    def check(g, a):
        g.require_player(a)
        s = g.state
        cards = [t for t in (a.first, a.second) if s.card_at(t) is not None]
        g.require(bool(cards), "illegal_target", "one of the two must be a card", "6.5.1")
        for t in (a.first, a.second):
            g.require(isinstance(t, tuple) and len(t) == 2 and t[0] in s.zones and 1 <= t[1] <= len(s.zones[t[0]]),
                      "illegal_target", "no such slot", "6.5.1")
        g.require(a.first[0] != a.second[0], "illegal_target", "two players", "6.5.1")
        g.rules.check_movable(g, a.player, cards, "6.5.1")
    answer(rules, "blind_swap", BlindSwap, validate=check)
