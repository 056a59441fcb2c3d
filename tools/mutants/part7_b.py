"""Misreadings of part 7 (drawing, recycling, the final phase) and annex B (zero cards)."""

from __future__ import annotations

from baobei_ref import deck, turn
from baobei_ref.actions import Draw, Keep, Shuffle, TakeDiscard
from baobei_ref.agenda import NextTurn, ShieldCheck, TurnEnd

from .change import (
    answer,
    original,
    step,
    then_also,
)
from .mutant import parameters, patch, variant


@patch("7.1.1", "7.1.6")
def empty_deck_turn_draw_refused(rules):
    """An empty deck is recycled only for draws a rule forces (penalty, powers), not for the turn's draw (R-26)."""
    validate, _ = original(rules, "turn", Draw)

    def check(g, a):
        validate(g, a)
        g.require(bool(g.state.deck), "deck_empty", "the deck is empty", "7.1.1")
    answer(rules, "turn", Draw, validate=check)
    turn.can_draw = lambda g: bool(g.state.deck)


@variant("7.1.2")
def recycle_includes_the_top(rules):
    """A recycle shuffles the whole discard pile, its top card included (a new top is turned up)."""
    _, perform = original(rules, "recycle", Shuffle)

    def wrong(g, a):
        s = g.state
        perform(g, a)
        s.deck.insert(0, s.discard.pop())
        s.discard.append(s.deck.pop())
    answer(rules, "recycle", Shuffle, perform=wrong)


def _recycle_only(cards) -> None:
    """An empty deck is rebuilt from ``cards(state)`` alone whenever there are any (a patch: ``deck.draw`` is called
    by the steps directly)."""
    old = deck.draw

    def draw(g, retry):
        s = g.state
        if not s.deck and cards(s):
            g.then(retry)
            g.ask("recycle", None, cards=sorted(cards(s)))
            return None
        return old(g, retry)
    deck.draw = draw


@patch("7.1.3")
def recycle_only_under_cards(rules):
    """A recycle takes only the cards slid under the pile when there are any; the pile stays."""
    _recycle_only(lambda s: s.under)
    _, perform = original(rules, "recycle", Shuffle)

    def wrong(g, a):
        s = g.state
        if sorted(a.order) == sorted(s.under) and s.under:
            pile = list(s.discard)
            perform(g, a)
            s.discard = pile
        else:
            perform(g, a)
    answer(rules, "recycle", Shuffle, perform=wrong)


@patch("7.1.4")
def recycle_leaves_under_cards(rules):
    """A recycle leaves the cards slid under the pile where they are."""
    _recycle_only(lambda s: s.discard[:-1])
    _, perform = original(rules, "recycle", Shuffle)

    def wrong(g, a):
        s = g.state
        under = list(s.under)
        perform(g, a)
        s.under = [c for c in under if c not in a.order]
    answer(rules, "recycle", Shuffle, perform=wrong)


@variant("7.1.5")
def recycled_cards_remembered(rules):
    """Players still know the recycled cards they had seen (the shuffle is not secret)."""
    _, perform = original(rules, "recycle", Shuffle)

    def wrong(g, a):
        s = g.state
        seen = {c: frozenset(s.seen.get(c, ())) for c in a.order}
        perform(g, a)
        s.seen.update({c: who for c, who in seen.items() if who})
    answer(rules, "recycle", Shuffle, perform=wrong)


@patch("7.1.6", "7.1.1")
def recycle_ends_the_draw(rules):
    """After a recycle the interrupted draw is not resumed: the action is lost."""
    old = deck.draw

    def draw(g, retry):
        card = old(g, retry)
        if card is None and g.state.pending is not None and g.state.pending.kind == "recycle":
            g.state.agenda.pop()
            g.state.agenda.append(TurnEnd() if retry.name == "draw_turn" else ShieldCheck())
        return card
    deck.draw = draw


@variant("7.1.7", "6.7.1")
def no_recycle_for_toco(rules):
    """The Toco Toucan's draw is skipped when the deck is empty (no recycle during a power)."""
    step(rules, "toco_draw", lambda old, g, player, rival: old(g, player, rival) if g.state.deck
         else g.then(ShieldCheck()))


@variant("7.1.7", "6.9.2")
def no_recycle_between_shoebill_draws(rules):
    """The Shoebill's second draw is skipped when the deck ran out after the first (no recycle in between)."""
    def draw(old, g, player, drawn):
        if len(drawn) == 1 and not g.state.deck:
            return old(g, player, (*drawn, None))
        return old(g, player, drawn)
    step(rules, "shoebill_draw", draw)


@variant("7.1.7", "3.5.9", "3.5.5")
def no_recycle_for_penalty(rules):
    """A penalty card is skipped when the deck is empty (no recycle for a penalty)."""
    step(rules, "penalty", lambda old, g, player: old(g, player) if g.state.deck else None)


@patch("7.1.8")
def impossible_draw_ends_the_action(rules):
    """When no card can be drawn, the rest of the turn is abandoned: it ends at once (no BAO decision)."""
    old = deck.draw

    def draw(g, retry):
        s = g.state
        if not s.deck and not deck.can_recycle(s):
            s.agenda = [x for x in s.agenda if x.name in ("next_turn", "score_round")] or [NextTurn()]
        return old(g, retry)
    deck.draw = draw


@variant("7.1.8", "B.6")
def empty_deck_turn_skipped(rules):
    """When the deck is empty and cannot be rebuilt, the turn is skipped even if the discard could be taken (R-09)."""
    def start(old, g):
        s = g.state
        if not turn.can_draw(g):
            s.moved.clear()
            g.then(TurnEnd())
        else:
            old(g)
    step(rules, "turn_start", start)


@parameters("7.2.1", "7.2.2")
def first_recycle_starts_final_phase(p):
    """The first recycle of a round already starts the final phase."""
    return dict(final_phase_recycle=1)


@variant("7.2.1", "7.2.2")
def recycles_counted_per_game(rules):
    """Recycles are counted over the whole game, not per round."""
    def start(old, g):
        n = g.state.recycles
        old(g)
        g.state.recycles = n
    step(rules, "round_start", start)


@parameters("7.2.2")
def final_phase_at_third_recycle(p):
    """The final phase starts at the third recycle."""
    return dict(final_phase_recycle=3)


@variant("7.2.3", "7.2.4")
def final_phase_active_plays_again(rules):
    """In the final phase the player who triggered it plays one more turn too."""
    old = rules.start_final_phase

    def start(g):
        old(g)
        g.state.last_turns.append(g.state.active)
    rules.start_final_phase = start


@variant("7.2.3")
def final_phase_stops_the_action(rules):
    """The final phase ends the current action at once: pending powers and plucks are dropped."""
    old = rules.start_final_phase

    def start(g):
        old(g)
        s = g.state
        keep = ("draw_turn", "penalty", "place", "toco_draw", "shoebill_draw", "end_turn", "next_turn")
        s.agenda = [x for x in s.agenda if x.name in keep]
    rules.start_final_phase = start


@variant("7.2.4")
def final_phase_without_penalized_player(rules):
    """A second recycle for a rival's penalty: the penalized rival plays no last turn (ruling R-06)."""
    _, perform = original(rules, "recycle", Shuffle)

    def wrong(g, a):
        retry = g.state.agenda[-1]
        perform(g, a)
        s = g.state
        if s.final_phase and s.recycles == g.params.final_phase_recycle and retry.name == "penalty":
            if retry.player != s.active and retry.player in s.last_turns:
                s.last_turns.remove(retry.player)
    answer(rules, "recycle", Shuffle, perform=wrong)


@variant("7.2.4", "4.1.5")
def final_phase_after_bao_caller_plays_again(rules):
    """A final phase started after BAO gives every player but the active one a last turn, the BAO caller
    included (line 289 read alone; ruling R-05 adopts B: the caller never plays again, lines 156, 346)."""
    old = rules.start_final_phase

    def start(g):
        old(g)
        s = g.state
        if s.bao is not None and s.final_phase and s.bao != s.active and s.bao not in (s.last_turns or []):
            s.last_turns = s.rivals(s.active)
    rules.start_final_phase = start


@variant("7.2.5")
def shield_applies_in_final_phase(rules):
    """The BAO shield still applies once the final phase has started."""
    old = rules.start_final_phase

    def start(g):
        shield = g.state.shield
        old(g)
        g.state.shield = shield
    rules.start_final_phase = start


@patch("7.2.5", "4.1.2")
def bao_in_final_phase(rules):
    """BAO may be called during the final phase."""
    from baobei_ref import bao

    bao.bao_allowed = lambda g: g.state.bao is None and (g.state.last_turns is None or g.state.final_phase)


@variant("7.2.6", "5.2.1")
def bao_scored_in_final_phase(rules):
    """A BAO called before the final phase is still scored as BAO (ruling R-05)."""
    def score(old, g):
        s = g.state
        phase = s.final_phase
        s.final_phase = False
        try:
            old(g)
        finally:
            s.final_phase = phase
    step(rules, "score_round", score)


@variant("B.3", "3.2.3")
def window_for_zero_card_players(rules):
    """A window is opened even when nobody but the active player holds a card (ruling R-20)."""
    def window(old, g, reference):
        s = g.state
        g.ask("window", None, tuple(s.rivals(s.active)), reference=reference)
    step(rules, "window", window)


@variant("B.6", "6.1.2")
def zero_cards_drawn_power_lost(rules):
    """A zero-card player's directly discarded card activates no power."""
    def discard_power(old, g, card):
        if g.state.count(g.state.active):
            old(g, card)
    step(rules, "discard_power", discard_power)


@variant("B.8", "6.7.1")
def toco_gives_no_card_to_zero(rules):
    """A card added by a Toco Toucan to a zero-card rival goes to the bottom of the deck instead."""
    def draw(old, g, player, rival):
        if g.state.count(rival) == 0:
            g.then(ShieldCheck())
            return None
        return old(g, player, rival)
    step(rules, "toco_draw", draw)


@patch("B.1", "5.1.1")
def zero_cards_score_penalty(rules):
    """A player with zero cards scores 5, not 0."""
    from baobei_ref import scoring

    old = scoring.round_total
    scoring.round_total = lambda g, player: old(g, player) if g.state.count(player) else 5



@variant("7.2.2", "7.2.4")
def third_recycle_restarts_final_phase(rules):
    """Every later recycle starts the final phase again: everyone but the active player is owed a new last turn
    (ruling R-26: a third recycle changes nothing)."""
    _, perform = original(rules, "recycle", Shuffle)

    def wrong(g, a):
        perform(g, a)
        if g.state.recycles > g.params.final_phase_recycle:
            rules.start_final_phase(g)
    answer(rules, "recycle", Shuffle, perform=wrong)


@variant("7.2.5")
def no_plucks_in_final_phase(rules):
    """Once the final phase has started nobody may pluck any more: discards open no window."""
    step(rules, "window", lambda old, g, reference: None if g.state.final_phase else old(g, reference))


@variant("7.2.5", "6.1.2")
def no_powers_in_final_phase(rules):
    """Once the final phase has started powers no longer activate."""
    step(rules, "power",
         lambda old, g, player, card, clause: None if g.state.final_phase else old(g, player, card, clause))


@patch("7.1.1", "7.2.1", "7.2.2")
def recycle_as_soon_as_the_deck_runs_out(rules):
    """The pile is recycled as soon as the last deck card is drawn, not when a later draw finds the deck empty."""
    old = deck.draw

    def draw(g, retry):
        card = old(g, retry)
        s = g.state
        if card is not None and not s.deck and deck.can_recycle(s):
            deck.perform_recycle(g, Shuffle(tuple(sorted(s.discard[:-1] + s.under))))
        return card
    deck.draw = draw


@variant("7.1.5")
def recycle_turns_the_pile_over(rules):
    """A recycle turns the pile over into the new deck instead of shuffling it: the pile's bottom card comes first."""
    _, perform = original(rules, "recycle", Shuffle)

    def wrong(g, a):
        s = g.state
        perform(g, Shuffle(tuple(s.discard[:-1] + s.under)))
    answer(rules, "recycle", Shuffle, perform=wrong)


@patch("7.2.1", "7.1.8")
def impossible_recycle_counted(rules):
    """A draw that finds nothing to recycle still counts as a recycle (ruling R-09: it is not counted)."""
    old = deck.draw

    def draw(g, retry):
        s = g.state
        if not s.deck and not deck.can_recycle(s):
            s.recycles += 1
            if s.recycles == g.params.final_phase_recycle:
                g.rules.start_final_phase(g)
        return old(g, retry)
    deck.draw = draw


@variant("7.2.4")
def final_phase_until_the_round_comes_round(rules):
    """The final phase only completes the round of turns: the players after the trigger play, up to the
    round's first player, who does not play again."""
    def until_first(g):
        s = g.state
        out = []
        for p in s.rivals(s.active_player):
            if p == s.first:
                break
            out.append(p)
        return out
    rules.last_turns = until_first


@variant("7.2.4", "7.2.2")
def second_recycle_ends_the_round(rules):
    """The second recycle ends the round with the trigger's turn: nobody plays a last turn."""
    old = rules.start_final_phase

    def start(g):
        old(g)
        s = g.state
        if s.final_phase and s.bao is None:
            s.last_turns = []
    rules.start_final_phase = start


@variant("7.1.7", "7.1.1", "6.9.2")
def shoebill_recycles_before_drawing(rules):
    """A Shoebill that finds a single card in the deck recycles first, shuffling that card in with the pile."""
    def draw(old, g, player, drawn):
        s = g.state
        if not drawn and len(s.deck) == 1 and deck.can_recycle(s):
            s.under.append(s.deck.pop())
        return old(g, player, drawn)
    step(rules, "shoebill_draw", draw)


@variant("B.6", "2.7.3", "2.7.2")
def zero_cards_keep_into_an_empty_slot(rules):
    """A zero-card player may keep the drawn card in one of their empty slots (nothing is replaced or discarded)."""
    from baobei_ref import zones

    validate, perform = original(rules, "drawn", Keep)

    def check(g, a):
        s = g.state
        if s.count(a.player) == 0:
            g.require_player(a)
            g.require(a.slot in zones.placement_slots(s, a.player), "illegal_target", "no such slot", "B.6")
        else:
            validate(g, a)

    def wrong(g, a):
        s = g.state
        if s.count(a.player) == 0:
            card, s.drawn = s.drawn, None
            zones.add(s, a.player, a.slot, card, by=a.player)
            g.emit("kept", "2.7.3", player=a.player, slot=a.slot)
            g.then(TurnEnd())
        else:
            perform(g, a)
    answer(rules, "drawn", Keep, validate=check, perform=wrong)


@patch("B.8", "B.2")
def zero_card_restrictions_last_the_round(rules):
    """A player who fell to zero cards stays under annex B for the rest of the round, even after a Toco Toucan
    gives them a card back."""
    from baobei_ref import zones

    old_remove = zones.remove

    def remove(s, owner, slot, by):
        card = old_remove(s, owner, slot, by)
        if s.count(owner) == 0:
            s.emptied = getattr(s, "emptied", set()) | {owner}
        return card
    zones.remove = remove

    def start(old, g):
        s = g.state
        if s.active is not None and s.count(s.active) == 0:
            s.emptied = getattr(s, "emptied", set()) | {s.active}
        old(g)
    step(rules, "turn_start", start)
    def round_start(old, g):
        g.state.emptied = set()
        old(g)
    step(rules, "round_start", round_start)

    for kind, action in (("drawn", Keep), ("turn", TakeDiscard)):
        validate, _ = original(rules, kind, action)

        def check(g, a, validate=validate):
            validate(g, a)
            g.require(a.player not in getattr(g.state, "emptied", set()), "no_cards", "annex B", "B.8")
        answer(rules, kind, action, validate=check)


# Round 2: game flow
@variant("7.2.6", "7.2.5", "7.2.4")
def final_phase_round_ends_before_last_window(rules):
    """In the final phase the round ends as soon as the last player has played their card: nobody may pluck with
    that last discard and its power is lost."""
    def last(g):
        s = g.state
        return s.final_phase and s.last_turns == []

    step(rules, "window", lambda old, g, reference: None if last(g) else old(g, reference))
    step(rules, "discard_power", lambda old, g, card: None if last(g) else old(g, card))


@variant("B.1", "4.1.7", "7.2.6")
def zero_cards_end_the_round(rules):
    """A player left with zero cards ends the round: it is scored as soon as the current turn is over."""
    from baobei_ref.agenda import ScoreRound

    def next_turn(old, g):
        s = g.state
        if any(s.count(p) == 0 for p in s.players):
            g.then(ScoreRound())
            return
        old(g)
    step(rules, "next_turn", next_turn)


# Round 2: views
@variant("7.1.2", "7.1.5", "3.5.9")
def recycle_forgets_the_top_card(rules):
    """A recycle makes every card of the discard pile unknown again, the top card left face up included, so a
    player who then takes it is the only one to know it."""
    _, perform = original(rules, "recycle", Shuffle)

    def wrong(g, a):
        s = g.state
        top = s.discard[-1]
        perform(g, a)
        s.seen.pop(top, None)
    answer(rules, "recycle", Shuffle, perform=wrong)
    then_also(rules, "turn", TakeDiscard, lambda g, a: g.state.see(g.state.card_in((a.player, a.slot)), a.player))


@variant("7.1.5", "7.1.4")
def recycle_under_cards_still_known(rules):
    """A recycle makes the pile's cards unknown, but not the cards slid face down under it, which were never
    shown: whoever knew one of them still knows it in the new deck and wherever it goes next."""
    _, perform = original(rules, "recycle", Shuffle)

    def wrong(g, a):
        s = g.state
        seen = {c: s.seen[c] for c in s.under if s.seen.get(c)}
        perform(g, a)
        s.seen.update(seen)
    answer(rules, "recycle", Shuffle, perform=wrong)


# Round 3: power combos
@variant("7.2.5", "7.2.3", "7.1.7")
def shield_outlasts_power_at_second_recycle(rules):
    """A second recycle during a power (between the Shoebill's draws, for the Toco Toucan's draw) starts the final
    phase, but the shield, which never interrupts an action under way (4.2.2), still applies until that power is
    complete."""
    old = rules.start_final_phase

    def start(g):
        s = g.state
        shield = s.shield
        old(g)
        waiting = s.agenda[-1] if s.agenda else None
        if s.final_phase and shield != "none" and waiting is not None and waiting.name in ("shoebill_draw",
                                                                                           "toco_draw"):
            s.shield = shield
            s.__dict__["shield_ends_after_power"] = True
    rules.start_final_phase = start

    def check(old_check, g):
        old_check(g)
        if g.state.__dict__.pop("shield_ends_after_power", False):
            g.state.shield = "none"
    step(rules, "shield_check", check)


@variant("7.2.4", "7.2.3")
def final_phase_power_user_triggers(rules):
    """A second recycle needed by the draw of a non-active player's power (a window plucker's Toco Toucan or
    Shoebill) is triggered by that player, who plays no last turn (ruling R-06: the active player triggers it)."""
    _, perform = original(rules, "recycle", Shuffle)

    def wrong(g, a):
        retry = g.state.agenda[-1]
        perform(g, a)
        s = g.state
        if s.final_phase and s.recycles == g.params.final_phase_recycle and s.last_turns \
                and retry.name in ("toco_draw", "shoebill_draw") and retry.player != s.active \
                and retry.player in s.last_turns:
            s.last_turns.remove(retry.player)
    answer(rules, "recycle", Shuffle, perform=wrong)


# Round 3: slots
@patch("B.8", "2.5.4")
def zero_card_return_new_slot_allowed(rules):
    """A zero-card player given a card back by a Toco Toucan may put it in a new slot as well as in one of their old
    empty slots (line 303's "o en una nueva posición de tu elección" read as a free alternative)."""
    from baobei_ref import zones

    old = zones.placement_slots

    def placement_slots(s, owner):
        slots = old(s, owner)
        if s.count(owner) == 0 and s.empty_slots(owner):
            return slots + [len(s.zones[owner]) + 1]
        return slots
    zones.placement_slots = placement_slots


@patch("B.8", "2.5.2")
def zero_card_zone_forgotten(rules):
    """A player whose last card leaves has no zone any more: their empty slots are gone, and a card they get later
    (a Toco Toucan's, or the gift for a last card plucked) starts a new zone in slot 1."""
    from baobei_ref import zones

    old_remove, old_add = zones.remove, zones.add

    def remove(s, owner, slot, by):
        card = old_remove(s, owner, slot, by)
        if s.count(owner) == 0:
            s.zones[owner].clear()
        return card

    def add(s, owner, slot, card, by):
        zone = s.zones[owner]
        old_add(s, owner, min(slot, len(zone) + 1), card, by)
    zones.remove, zones.add = remove, add


# Round 4: player counts
@variant("7.2.4", "7.2.6")
def final_phase_last_turns_for_three(rules):
    """The final phase gives a last turn only to the three players after the active one (a table hard-coded for
    four): with five or six players the round ends before the farthest have played."""
    old = rules.last_turns
    rules.last_turns = lambda g: old(g)[:3]


# Round 5: penalties and the deck
def _waiting_penalty(s):
    """The Penalty step a pending recycle interrupted, if any (the draw it will resume)."""
    from baobei_ref.agenda import Penalty

    waiting = s.agenda[-1] if s.agenda else None
    return waiting if isinstance(waiting, Penalty) else None


@variant("7.2.1", "7.1.7", "7.2.2")
def penalty_recycle_not_counted(rules):
    """A recycle made to draw a penalty card is not counted towards the final phase: only recycles for the
    turn's draw and for powers count."""
    _, perform = original(rules, "recycle", Shuffle)

    def wrong(g, a):
        s = g.state
        if _waiting_penalty(s) is None:
            return perform(g, a)
        top = s.discard[-1]
        for card in a.order:
            s.seen.pop(card, None)
        s.deck = list(reversed(a.order))
        s.discard, s.under = [top], []
        g.emit("recycled", "7.1.1", also=("7.1.2", "7.1.3", "7.1.4", "7.1.5", "7.1.6"), count=s.recycles,
               cards=len(a.order))
    answer(rules, "recycle", Shuffle, perform=wrong)


@variant("7.1.2", "3.5.9", "3.5.7")
def window_penalty_recycle_takes_the_top(rules):
    """Only a failed own-draw reference stays on top when a penalty needs a recycle (line 131 read a contrario):
    for a window claimant's penalty the whole pile, the active player's discard included, is shuffled."""
    _, perform = original(rules, "recycle", Shuffle)

    def wrong(g, a):
        s = g.state
        waiting = _waiting_penalty(s)
        perform(g, a)
        if waiting is not None and waiting.player != s.active:
            s.deck.insert(0, s.discard.pop())
            s.discard.append(s.deck.pop())
    answer(rules, "recycle", Shuffle, perform=wrong)


@patch("7.2.5", "7.1.1", "7.1.7")
def no_recycle_in_final_phase(rules):
    """Once the final phase has started the pile is never recycled again: a draw that finds the deck empty (a
    penalty, a power's, the turn's) is impossible and skipped."""
    old = deck.draw

    def draw(g, retry):
        s = g.state
        if not s.deck and s.final_phase:
            g.emit("draw_impossible", "7.1.8", ruling="R-09")
            return None
        return old(g, retry)
    deck.draw = draw
    old_can = turn.can_draw
    turn.can_draw = lambda g: bool(g.state.deck) if g.state.final_phase else old_can(g)


@variant("7.2.4", "7.2.3")
def final_phase_penalised_claimant_triggers_active_plays_on(rules):
    """A second recycle for a window claimant's penalty is triggered by that claimant, who plays no last turn;
    the active player, who did not trigger it, plays a last turn like everyone else (ruling R-06: the active
    player triggers it and finishes)."""
    old = rules.start_final_phase

    def start(g):
        s = g.state
        waiting = _waiting_penalty(s)
        old(g)
        if waiting is not None and waiting.player != s.active and s.final_phase and s.bao is None:
            order = s.rivals(waiting.player)
            s.last_turns = [p for p in order if p != waiting.player]
    rules.start_final_phase = start


@variant("7.1.8", "3.5.5", "3.5.4")
def impossible_penalty_takes_top_discard(rules):
    """When the penalty card cannot be drawn (deck empty, nothing to recycle), the penalized player takes the top
    discard face down as the penalty card instead (the penalty must be paid)."""
    from baobei_ref.agenda import PlaceCard

    def penalty(old, g, player):
        s = g.state
        if not s.deck and not deck.can_recycle(s) and s.discard:
            g.then(PlaceCard(player, s.discard.pop(), player, "3.5.6"))
            return
        old(g, player)
    step(rules, "penalty", penalty)
