"""Misreadings of part 2: the deal, fixed positions, the turn (draw, keep, discard, take the discard)."""

from __future__ import annotations

from baobei_ref import turn, zones
from baobei_ref.actions import ChooseFirstPlayer, Discard, Draw, InitialPeek, Keep, TakeDiscard
from baobei_ref.agenda import DiscardPower, InitialPeeks, Power, RoundStart, TurnEnd, TurnStart, Window
from baobei_ref.powers.blind_swap import BlindSwap
from baobei_ref.powers.peek import PeekAt

from .change import (
    answer,
    no_check,
    original,
    resolution,
    step,
    then_also,
)
from .mutant import parameters, patch, variant


@parameters("2.1.2", "2.1.1")
def two_players_four_cards(p):
    """Two players are dealt 4 cards each, like three or more."""
    return dict(hand_size={**p.hand_size, 2: 4})


@parameters("2.1.3", "2.1.1")
def many_players_five_cards(p):
    """Three to six players are dealt 5 cards each, like two."""
    return dict(hand_size=dict.fromkeys(p.hand_size, 5))


@variant("2.1.1")
def deal_in_blocks(rules):
    """Each player is dealt all their cards at once instead of one card at a time clockwise (ruling R-15)."""
    def deal(old, g):
        s = g.state
        n = g.params.hand_size[len(s.players)]
        for p in s.players:
            for _ in range(n):
                s.zones[p].append(s.deck.pop())
        g.emit("dealt", "2.1.1", cards_each=n)
        g.then(InitialPeeks(0))
    step(rules, "deal", deal)


@variant("2.2.1")
def initial_peek_any_number(rules):
    """The initial peek may look at any number of own cards, not exactly two."""
    def validate(g, a):
        g.require_player(a)
        for slot in a.slots:
            g.check_target((a.player, slot), "2.2.1")
    answer(rules, "initial_peek", InitialPeek, validate=validate)


@variant("2.2.1")
def initial_peek_shown_to_all(rules):
    """The two cards of the initial peek are seen by every player, not in secret."""
    then_also(rules, "initial_peek", InitialPeek,
              lambda g, a: [g.state.show_all(g.state.zones[a.player][s - 1]) for s in a.slots])


@variant("2.3.1", "6.1.1")
def neutral_discard_power(rules):
    """The card turned up at the deal activates its power for the first player."""
    def flip(old, g):
        old(g)
        g.state.agenda.append(DiscardPower(g.state.discard[-1]))
    step(rules, "flip", flip)


@variant("2.4.1")
def next_round_tie_later_player(rules):
    """A tie for the most points: the later player of the last turn order starts."""

    def wrong(g, scores):
        s = g.state
        order = [s.first] + s.rivals(s.first)
        high = max(scores.values())
        s.first = [p for p in order if scores[p] == high][-1]
        s.round += 1
        g.then(RoundStart())
    rules.next_round = wrong


@variant("2.4.1")
def round_one_first_is_p0(rules):
    """Round one always starts with the first seat; no random first player."""
    def start(old, g):
        if g.state.first is None and not g.state.decisive:
            g.state.first = g.state.players[0]
        old(g)
    step(rules, "round_start", start)


@variant("2.4.1")
def turns_counter_clockwise(rules):
    """Turns pass counter-clockwise."""
    def next_turn(old, g):
        s = g.state
        if s.last_turns is not None:
            return old(g)
        s.active = s.rivals(s.active)[-1]
        s.turn += 1
        g.then(TurnStart())
    step(rules, "next_turn", next_turn)


@patch("2.5.2", "2.5.1", "3.3.4")
def removal_closes_the_gap(rules):
    """A removed card's slot disappears: the cards after it move up one slot."""
    def remove(s, owner, slot, by):
        zones._touch(s, owner, by)
        return s.zones[owner].pop(slot - 1)
    zones.remove = remove


@patch("2.5.3", "2.5.1")
def replacement_goes_to_the_end(rules):
    """A replacing card goes to a new slot at the end; the replaced card's slot is left empty."""
    def replace(s, owner, slot, card, by):
        zone = s.zones[owner]
        old, zone[slot - 1] = zone[slot - 1], None
        zone.append(card)
        zones._touch(s, owner, by)
        return old
    zones.replace = replace


@patch("2.5.4", "3.5.6", "6.7.1")
def added_card_always_new_slot(rules):
    """An added card always gets a new slot, even when an empty one exists."""
    zones.placement_slots = lambda s, owner: [len(s.zones[owner]) + 1]


@patch("2.5.4", "3.5.6", "6.7.1")
def added_card_first_empty_slot(rules):
    """An added card goes to the first empty slot; the owner has no choice."""
    zones.placement_slots = lambda s, owner: s.empty_slots(owner)[:1] or [len(s.zones[owner]) + 1]


@patch("2.5.4")
def added_card_new_slot_allowed(rules):
    """An added card may take a new slot even when an empty one exists."""
    zones.placement_slots = lambda s, owner: s.empty_slots(owner) + [len(s.zones[owner]) + 1]


@variant("2.5.6")
def peek_on_own_initiative(rules):
    """A player may look at one of their own cards at the start of their turn."""

    def perform(g, a):
        g.state.see(g.state.card_at(a.target), a.player)
        g.ask("turn", a.player)
    rules.answers[("turn", PeekAt)] = (lambda g, a: g.check_target(a.target, "2.5.6"), perform)


@variant("2.5.6", "2.5.5")
def rearrange_on_own_initiative(rules):
    """A player may swap two of their own cards at the start of their turn (to close a gap)."""

    def perform(g, a):
        zones.swap(g.state, a.first, a.second, by=a.player)
        g.ask("turn", a.player)
    rules.answers[("turn", BlindSwap)] = (lambda g, a: None, perform)


@variant("2.6.1")
def any_player_takes_the_turn(rules):
    """Any seated player may draw on the active player's turn."""
    answer(rules, "turn", Draw, validate=lambda g, a: g.require(turn.can_draw(g), "deck_empty", "empty"))


@variant("2.6.1", "2.8.1")
def any_player_takes_the_discard(rules):
    """Any seated player may take the discard on the active player's turn."""
    def validate(g, a):
        g.require(g.state.count(a.player) > 0, "no_cards", "no card", "B.4")
        g.check_target((a.player, a.slot), "2.8.2")
    answer(rules, "turn", TakeDiscard, validate=validate)


@variant("2.6.2", "2.7.1")
def drawn_card_seen_by_all(rules):
    """The drawn card is turned face up for everyone to see."""
    def draw(old, g):
        old(g)
        if g.state.drawn:
            g.state.show_all(g.state.drawn)
    step(rules, "draw_turn", draw)


@variant("2.6.4", "2.6.1")
def draw_then_take(rules):
    """After drawing, the player may still take the discard (the drawn card goes on the pile first)."""

    def perform(g, a):
        s = g.state
        s.discard.append(s.drawn)
        s.show_all(s.drawn)
        s.drawn = None
        original(rules, "turn", TakeDiscard)[1](g, a)
    rules.answers[("drawn", TakeDiscard)] = (lambda g, a: g.check_target((a.player, a.slot), "2.8.2"), perform)


@variant("2.6.6", "B.1", "B.6")
def zero_cards_skip_turn(rules):
    """A player with zero cards skips their turns."""
    def start(old, g):
        s = g.state
        if s.count(s.active) == 0:
            s.moved.clear()
            g.then(TurnEnd())
        else:
            old(g)
    step(rules, "turn_start", start)


@variant("2.7.1", "3.2.2", "3.1.3")
def rival_plucks_drawn_card(rules):
    """Any player may pluck with the card the active player just drew."""
    from baobei_ref.actions import Pluck

    validate, _ = original(rules, "drawn", Pluck)

    def check(g, a):
        s = g.state
        active = s.active
        s.active = a.player
        try:
            validate(g, a)
        finally:
            s.active = active
    answer(rules, "drawn", Pluck, validate=check)


@variant("2.7.2", "2.7.4")
def drawn_card_must_be_kept(rules):
    """A drawn card must be kept; discarding it directly is refused."""
    answer(rules, "drawn", Discard, validate=lambda g, a: g.require(False, "illegal_target", "keep it", "2.7.2"))


@variant("2.7.3")
def kept_card_left_face_up(rules):
    """The kept card is placed face up: every player sees it."""
    def extra(g, a):
        g.state.show_all(g.state.card_at((a.player, a.slot)))
    then_also(rules, "drawn", Keep, extra)


@variant("2.7.3", "3.2.3", "3.1.4")
def kept_old_card_slid_under(rules):
    """Keeping slides the replaced card face down under the pile: nobody sees it, no window."""
    def perform(g, a):
        s = g.state
        card, s.drawn = s.drawn, None
        old = zones.replace(s, a.player, a.slot, card, by=a.player)
        s.under.append(old)
        g.emit("kept", "2.7.3", player=a.player, slot=a.slot)
        g.then(TurnEnd())
    answer(rules, "drawn", Keep, perform=perform)


@variant("2.7.4", "3.2.3")
def direct_discard_opens_no_window(rules):
    """A drawn card discarded directly cannot be plucked by the others."""
    def perform(g, a):
        s = g.state
        card, s.drawn = s.drawn, None
        turn.normal_discard(g, card, "2.7.4")
        g.then(DiscardPower(card), TurnEnd())
    answer(rules, "drawn", Discard, perform=perform)


@variant("2.7.5", "6.1.2", "6.1.1", "6.1.6")
def direct_discard_power_before_window(rules):
    """A directly discarded card's power resolves before the others may pluck with it."""
    def perform(g, a):
        s = g.state
        card, s.drawn = s.drawn, None
        turn.normal_discard(g, card, "2.7.4")
        g.then(DiscardPower(card), Window(card), TurnEnd())
    answer(rules, "drawn", Discard, perform=perform)


@variant("2.8.1", "2.3.1")
def neutral_discard_cannot_be_taken(rules):
    """The neutral first discard cannot be taken (ruling R-22 reads the text otherwise)."""
    validate, _ = original(rules, "turn", TakeDiscard)

    def check(g, a):
        validate(g, a)
        g.require(g.state.turn > 1, "illegal_target", "the first card is neutral", "2.3.1")
    answer(rules, "turn", TakeDiscard, validate=check)


@variant("2.8.2", "2.6.3")
def take_discard_into_empty_slot(rules):
    """Taking the discard may fill an empty slot without replacing a card."""
    _, perform = original(rules, "turn", TakeDiscard)

    def validate(g, a):
        g.require(g.state.count(a.player) > 0, "no_cards", "no card", "B.4")
        g.require(1 <= a.slot <= len(g.state.zones.get(a.player, ())), "illegal_target", "no such slot", "2.8.2")

    def wrong(g, a):
        s = g.state
        if s.card_at((a.player, a.slot)) is None:
            zones.add(s, a.player, a.slot, s.discard.pop(), by=a.player)
            g.then(TurnEnd())
        else:
            perform(g, a)
    answer(rules, "turn", TakeDiscard, validate=validate, perform=wrong)


@variant("2.8.3", "2.5.3")
def taken_card_to_a_new_slot(rules):
    """The taken card goes to a new slot; the replaced card's slot is left empty."""
    def perform(g, a):
        s = g.state
        card = s.discard.pop()
        old = zones.remove(s, a.player, a.slot, by=a.player)
        zones.add(s, a.player, len(s.zones[a.player]) + 1, card, by=a.player)
        turn.normal_discard(g, old, "2.8.4")
        g.then(Window(old), TurnEnd())
    answer(rules, "turn", TakeDiscard, perform=perform)


@variant("2.8.4", "2.8.5")
def taken_replaced_card_slid_under(rules):
    """Taking the discard slides the replaced card face down under the pile: no window."""
    def perform(g, a):
        s = g.state
        card = s.discard.pop()
        s.under.append(zones.replace(s, a.player, a.slot, card, by=a.player))
        g.emit("took_discard", "2.8.3", player=a.player, slot=a.slot, card=card)
        g.then(TurnEnd())
    answer(rules, "turn", TakeDiscard, perform=perform)


@variant("2.8.5", "3.1.4", "3.2.3")
def take_discard_opens_no_window(rules):
    """The card replaced by taking the discard cannot be plucked by the others."""
    def perform(g, a):
        s = g.state
        card = s.discard.pop()
        old = zones.replace(s, a.player, a.slot, card, by=a.player)
        turn.normal_discard(g, old, "2.8.4")
        g.then(TurnEnd())
    answer(rules, "turn", TakeDiscard, perform=perform)


@variant("2.8.6", "6.1.5")
def power_of_card_replaced_by_take(rules):
    """Taking the discard activates the power of the replaced card, which goes face up."""
    def extra(g, a):
        g.then(Power(a.player, g.state.discard[-1], "2.8.6"))
    then_also(rules, "turn", TakeDiscard, extra)


@variant("B.4", "2.8.6")
def zero_cards_take_the_discard(rules):
    """A zero-card player may take the discard into a new slot."""
    def validate(g, a):
        g.require_player(a)
        if g.state.count(a.player):
            g.check_target((a.player, a.slot), "2.8.2")

    _, perform = original(rules, "turn", TakeDiscard)

    def wrong(g, a):
        s = g.state
        if s.count(a.player) == 0:
            zones.add(s, a.player, len(s.zones[a.player]) + 1, s.discard.pop(), by=a.player)
            g.then(TurnEnd())
        else:
            perform(g, a)
    answer(rules, "turn", TakeDiscard, validate=validate, perform=wrong)


@variant("B.6", "2.6.6")
def zero_cards_may_not_draw(rules):
    """A zero-card player cannot draw (nothing to replace) and passes."""
    validate, _ = original(rules, "turn", Draw)

    def check(g, a):
        validate(g, a)
        g.require(g.state.count(a.player) > 0, "no_cards", "nothing to replace", "B.6")
    answer(rules, "turn", Draw, validate=check)


@variant("2.4.1", "5.4.1")
def first_player_any_seat(rules):
    """The random first player may be any seat number, even one not at the table."""
    answer(rules, "first_player", ChooseFirstPlayer, validate=no_check)



@parameters("2.1.1", "2.1.3")
def seven_players_allowed(p):
    """A game may seat seven players (the deal of 3 to 6 read as "3 or more")."""
    return dict(max_players=7, hand_size={**p.hand_size, 7: 4})


@patch("2.5.4", "2.5.1")
def new_slot_in_front(rules):
    """A newly created slot goes in front of the others (slot 1), and the other cards are renumbered."""
    old = zones.add

    def add(s, owner, slot, card, by):
        if slot == len(s.zones[owner]) + 1:
            s.zones[owner].insert(0, card)
            zones._touch(s, owner, by)
        else:
            old(s, owner, slot, card, by)
    zones.add = add


@variant("2.2.1")
def initial_peek_reverse_order(rules):
    """The players peek at their two cards in reverse seating order (ruling R-15: in seating order)."""
    def peek(old, g, index):
        s = g.state
        if index < len(s.players):
            g.ask("initial_peek", s.players[len(s.players) - 1 - index], count=g.params.initial_peek)
        else:
            old(g, index)
    step(rules, "initial_peek", peek)
    validate, perform = original(rules, "initial_peek", InitialPeek)

    def wrong(g, a):
        s = g.state
        perform(g, a)
        s.agenda[-1] = InitialPeeks(len(s.players) - s.players.index(a.player))
    answer(rules, "initial_peek", InitialPeek, perform=wrong)


@variant("2.4.1", "5.2.4")
def next_round_by_card_total(rules):
    """The next round is started by the highest card total, a failed BAO caller's score increase left out."""
    from baobei_ref import scoring

    old = rules.next_round
    rules.next_round = lambda g, scores: old(g, {p: scoring.round_total(g, p) for p in scores})


@variant("2.3.1", "3.2.3", "6.1.2")
def neutral_card_stays_neutral(rules):
    """The card turned up at the deal stays neutral for the whole round: discarded again later, it opens no
    window and activates no power."""
    def flip(old, g):
        old(g)
        g.state.neutral_card = g.state.discard[-1]

    def neutral(g, card):
        return getattr(g.state, "neutral_card", None) == card

    step(rules, "flip", flip)
    step(rules, "window", lambda old, g, reference: None if neutral(g, reference) else old(g, reference))
    step(rules, "discard_power", lambda old, g, card: None if neutral(g, card) else old(g, card))


@variant("2.7.3", "6.1.5")
def kept_card_power(rules):
    """Keeping the drawn card activates its power for the drawer, after the window on the replaced card."""
    def extra(g, a):
        s = g.state
        s.agenda.insert(-1, Power(a.player, s.card_in((a.player, a.slot)), "2.7.3"))
    then_also(rules, "drawn", Keep, extra)


@variant("2.6.1")
def turn_may_be_passed(rules):
    """The active player may pass: end the turn without drawing or taking the discard."""
    from baobei_ref.actions import EndTurn

    def perform(g, a):
        g.then(TurnEnd())
    rules.answers[("turn", EndTurn)] = (lambda g, a: g.require_player(a), perform)


# Round 2: game flow
@variant("2.4.1")
def next_round_tie_lowest_seat(rules):
    """A tie for the most points of the last round: the lowest seat number starts the next round, not the tied
    player earliest in the last round's turn order."""

    def wrong(g, scores):
        s = g.state
        high = max(scores.values())
        s.first = min(p for p, v in scores.items() if v == high)
        s.round += 1
        g.emit("next_round", "2.4.1", also=("5.3.2",), first=s.first)
        g.then(RoundStart())
    rules.next_round = wrong


@variant("2.1.1", "2.2.1")
def knowledge_carries_into_next_round(rules):
    """Players still know, after the next round's face-down deal, the cards they had seen in the last round (their
    memory of cards is not cleared by the new shuffle)."""
    def start(old, g):
        seen = dict(g.state.seen)
        old(g)
        g.state.seen = seen
    step(rules, "round_start", start)


# Round 2: views
@variant("2.8.3", "2.6.3")
def taken_card_known_only_to_taker(rules):
    """The card taken from the discard is placed face down, so only the taker still knows it; the others forget
    the card they all saw face up."""
    _, perform = original(rules, "turn", TakeDiscard)

    def wrong(g, a):
        card = g.state.discard[-1]
        perform(g, a)
        g.state.seen[card] = frozenset({a.player})
    answer(rules, "turn", TakeDiscard, perform=wrong)


# Round 2: refusals
@variant("2.2.1")
def initial_peek_same_slot_twice(rules):
    """The initial peek may name the same slot twice (one card looked at twice counts as the two cards)."""
    validate, _ = original(rules, "initial_peek", InitialPeek)

    def check(g, a):
        if isinstance(a.slots, tuple) and len(a.slots) == 2 and a.slots[0] == a.slots[1]:
            g.require_player(a)
            g.check_target((a.player, a.slots[0]), "2.2.1")
            return
        validate(g, a)
    answer(rules, "initial_peek", InitialPeek, validate=check)


# Round 3: slots
@patch("2.5.3", "2.7.3", "2.8.3")
def replacement_fills_the_first_hole(rules):
    """A replacing card (kept, taken, a Shoebill's) goes to the zone's first empty slot when there is one, like an
    added card; the replaced card's slot is left empty."""
    old = zones.replace

    def replace(s, owner, slot, card, by):
        holes = s.empty_slots(owner)
        if not holes:
            return old(s, owner, slot, card, by)
        gone = zones.remove(s, owner, slot, by)
        zones.add(s, owner, holes[0], card, by)
        return gone
    zones.replace = replace


@patch("2.5.2", "2.5.1")
def trailing_hole_trimmed(rules):
    """A removed card at the end of the row takes its slot with it: empty slots after the last card disappear
    (the zone's other slots keep their numbers)."""
    old_remove, old_add = zones.remove, zones.add

    def remove(s, owner, slot, by):
        card = old_remove(s, owner, slot, by)
        zone = s.zones[owner]
        while zone and zone[-1] is None:
            zone.pop()
        return card

    def add(s, owner, slot, card, by):  # a gift into a trimmed slot makes it again
        zone = s.zones[owner]
        zone.extend([None] * (slot - 1 - len(zone)))
        old_add(s, owner, slot, card, by)
    zones.remove, zones.add = remove, add


@variant("2.2.1", "2.1.3", "2.5.4")
def created_slots_carry_into_next_round(rules):
    """A zone keeps its slots from one round to the next: the new deal fills slots 1, 2, ... and the slots the zone
    had beyond them (created by added cards, or slot 5 of a 2-player deal kept by a decisive round) stay, empty."""
    def deal(old, g):
        old(g)
        s = g.state
        for p in s.players:
            before = len((s.round_zones or {}).get(p, ()))
            s.zones[p].extend([None] * (before - len(s.zones[p])))
    step(rules, "deal", deal)


@patch("2.5.4", "2.5.1")
def created_slot_not_targetable(rules):
    """Slot numbers run only up to the number of cards dealt: a card in a slot created later (a penalty card, a Toco
    Toucan's card in slot 5 of a 3-player zone) cannot be named by any action (kept into, taken into, plucked,
    given, looked at, swapped, replaced)."""
    from baobei_ref.errors import RuleError
    from baobei_ref.game import Game

    old = Game.check_target

    def check_target(self, target, clause):
        card = old(self, target, clause)
        if target[1] > self.params.hand_size[len(self.state.players)]:
            raise RuleError("illegal_target", f"there is no slot {target[1]}", clause)
        return card
    Game.check_target = check_target


@patch("2.5.4", "3.5.6", "6.7.1",
        equivalent="A new slot is made only when the owner's zone has no empty slot (zones.placement_slots: 2.5.4), "
                   "and then every slot holds a card, so the card count plus one is the highest slot plus one; no "
                   "other path creates a slot (a gift fills the freed slot, replacements and swaps keep theirs), so "
                   "the new slot's number is the same in every position, set up or reached.")
def new_slot_numbered_by_card_count(rules):
    """A new slot is numbered after the owner's card count, not after the zone's highest slot (ruling R-23)."""
    zones.placement_slots = lambda s, owner: s.empty_slots(owner) or [s.count(owner) + 1]


# Round 4: player counts
@variant("2.4.1")
def wrap_after_fourth_seat(rules):
    """Turns wrap around after the fourth seat (a table hard-coded for four): with five or six players the turn
    after p3 goes back to p0, and p4 and p5 never play a normal turn."""
    def next_turn(old, g):
        s = g.state
        old(g)
        if s.last_turns is None and len(s.players) > 4 and s.active == 4 and s.turn > 1:
            s.active = 0
    step(rules, "next_turn", next_turn)


@variant("2.4.1", "5.4.1")
def first_player_among_first_four(rules):
    """The random first player of round one is drawn from the first four seats only (a table hard-coded for four)."""
    def start(old, g):
        old(g)
        p = g.state.pending
        if p is not None and p.kind == "first_player" and not g.state.decisive:
            g.ask("first_player", None, p.players[:4])
    step(rules, "round_start", start)


@variant("2.2.1", "2.1.1")
def only_four_players_peek(rules):
    """Only the first four players make the initial peek; a fifth and sixth player go without (a loop over four
    seats)."""
    def peek(old, g, index):
        if index >= 4 and index < len(g.state.players):
            return old(g, len(g.state.players))
        return old(g, index)
    step(rules, "initial_peek", peek)


@variant("2.4.1")
def next_round_first_rotates_clockwise(rules):
    """Each later round is started by the player after the last round's first player (the deal passing clockwise,
    as in many card games), not by whoever scored most in the last round."""

    def wrong(g, scores):
        s = g.state
        s.first = s.rivals(s.first)[0]
        s.round += 1
        g.then(RoundStart())
    rules.next_round = wrong


# Round 5: penalties and the deck
@variant("2.8.1", "3.5.4", "3.5.8")
def failed_reference_cannot_be_taken(rules):
    """The drawn card discarded after a failed own-draw pluck is used up ("consume la única oportunidad"): the
    next player may not take it from the pile."""

    def fix(g, a, steps):
        if not a.success and a.own_draw:
            g.__dict__["_mutant_dead"] = a.reference
        return steps
    resolution(rules, fix)
    validate, _ = original(rules, "turn", TakeDiscard)

    def dead(g):
        s = g.state
        return bool(s.discard) and g.__dict__.get("_mutant_dead") == s.discard[-1]

    def check(g, a):
        validate(g, a)
        g.require(not dead(g), "illegal_target", "this discard is used up", "3.5.8")
    answer(rules, "turn", TakeDiscard, validate=check)
    legal = rules.legal["turn"]
    rules.legal["turn"] = lambda g: [x for x in legal(g) if not (isinstance(x, TakeDiscard) and dead(g))]
