"""Misreadings of part 7 (drawing, recycling, the final phase) and annex B (zero cards)."""

from __future__ import annotations

from baobei_conform.mutants.patching import answer, mutant, original, params, step
from baobei_ref import deck, turn
from baobei_ref.actions import Draw, Shuffle
from baobei_ref.agenda import NextTurn, ShieldCheck, TurnEnd


@mutant("7.1.1", "7.1.6")
def empty_deck_turn_draw_refused():
    """An empty deck is recycled only for draws a rule forces (penalty, powers), not for the turn's draw (R-26)."""
    validate, _ = original("turn", Draw)

    def check(g, a):
        validate(g, a)
        g.require(bool(g.state.deck), "deck_empty", "the deck is empty", "7.1.1")
    answer("turn", Draw, validate=check)
    turn.can_draw = lambda g: bool(g.state.deck)


@mutant("7.1.2")
def recycle_includes_the_top():
    """A recycle shuffles the whole discard pile, its top card included (a new top is turned up)."""
    _, perform = original("recycle", Shuffle)

    def wrong(g, a):
        s = g.state
        perform(g, a)
        s.deck.insert(0, s.discard.pop())
        s.discard.append(s.deck.pop())
    answer("recycle", Shuffle, perform=wrong)


def _recycle_only(cards) -> None:
    """An empty deck is rebuilt from ``cards(state)`` alone whenever there are any."""
    old = deck.draw

    def draw(g, retry):
        s = g.state
        if not s.deck and cards(s):
            g.then(retry)
            g.ask("recycle", None, cards=sorted(cards(s)))
            return None
        return old(g, retry)
    deck.draw = draw


@mutant("7.1.3")
def recycle_only_under_cards():
    """A recycle takes only the cards slid under the pile when there are any; the pile stays."""
    _recycle_only(lambda s: s.under)
    _, perform = original("recycle", Shuffle)

    def wrong(g, a):
        s = g.state
        if sorted(a.order) == sorted(s.under) and s.under:
            pile = list(s.discard)
            perform(g, a)
            s.discard = pile
        else:
            perform(g, a)
    answer("recycle", Shuffle, perform=wrong)


@mutant("7.1.4")
def recycle_leaves_under_cards():
    """A recycle leaves the cards slid under the pile where they are."""
    _recycle_only(lambda s: s.discard[:-1])
    _, perform = original("recycle", Shuffle)

    def wrong(g, a):
        s = g.state
        under = list(s.under)
        perform(g, a)
        s.under = [c for c in under if c not in a.order]
    answer("recycle", Shuffle, perform=wrong)


@mutant("7.1.5")
def recycled_cards_remembered():
    """Players still know the recycled cards they had seen (the shuffle is not secret)."""
    _, perform = original("recycle", Shuffle)

    def wrong(g, a):
        s = g.state
        seen = {c: frozenset(s.seen.get(c, ())) for c in a.order}
        perform(g, a)
        s.seen.update({c: who for c, who in seen.items() if who})
    answer("recycle", Shuffle, perform=wrong)


@mutant("7.1.6", "7.1.1")
def recycle_ends_the_draw():
    """After a recycle the interrupted draw is not resumed: the action is lost."""
    old = deck.draw

    def draw(g, retry):
        card = old(g, retry)
        if card is None and g.state.pending is not None and g.state.pending.kind == "recycle":
            g.state.agenda.pop()
            g.state.agenda.append(TurnEnd() if retry.name == "draw_turn" else ShieldCheck())
        return card
    deck.draw = draw


@mutant("7.1.7", "6.7.1")
def no_recycle_for_toco():
    """The Toco Toucan's draw is skipped when the deck is empty (no recycle during a power)."""
    step("toco_draw", lambda old, g, player, rival: old(g, player, rival) if g.state.deck
         else g.then(ShieldCheck()))


@mutant("7.1.7", "6.9.2")
def no_recycle_between_shoebill_draws():
    """The Shoebill's second draw is skipped when the deck ran out after the first (no recycle in between)."""
    def draw(old, g, player, drawn):
        if len(drawn) == 1 and not g.state.deck:
            return old(g, player, (*drawn, None))
        return old(g, player, drawn)
    step("shoebill_draw", draw)


@mutant("7.1.7", "3.5.9", "3.5.5")
def no_recycle_for_penalty():
    """A penalty card is skipped when the deck is empty (no recycle for a penalty)."""
    step("penalty", lambda old, g, player: old(g, player) if g.state.deck else None)


@mutant("7.1.8")
def impossible_draw_ends_the_action():
    """When no card can be drawn, the rest of the turn is abandoned: it ends at once (no BAO decision)."""
    old = deck.draw

    def draw(g, retry):
        s = g.state
        if not s.deck and not deck.can_recycle(s):
            s.agenda = [x for x in s.agenda if x.name in ("next_turn", "score_round")] or [NextTurn()]
        return old(g, retry)
    deck.draw = draw


@mutant("7.1.8", "B.6")
def empty_deck_turn_skipped():
    """When the deck is empty and cannot be rebuilt, the turn is skipped even if the discard could be taken (R-09)."""
    def start(old, g):
        s = g.state
        if not turn.can_draw(g):
            s.moved.clear()
            g.then(TurnEnd())
        else:
            old(g)
    step("turn_start", start)


@mutant("7.2.1", "7.2.2")
def first_recycle_starts_final_phase():
    """The first recycle of a round already starts the final phase."""
    params(final_phase_recycle=1)


@mutant("7.2.1", "7.2.2")
def recycles_counted_per_game():
    """Recycles are counted over the whole game, not per round."""
    def start(old, g):
        n = g.state.recycles
        old(g)
        g.state.recycles = n
    step("round_start", start)


@mutant("7.2.2")
def final_phase_at_third_recycle():
    """The final phase starts at the third recycle."""
    params(final_phase_recycle=3)


@mutant("7.2.3", "7.2.4")
def final_phase_active_plays_again():
    """In the final phase the player who triggered it plays one more turn too."""
    old = deck.start_final_phase

    def start(g):
        old(g)
        g.state.last_turns.append(g.state.active)
    deck.start_final_phase = start


@mutant("7.2.3")
def final_phase_stops_the_action():
    """The final phase ends the current action at once: pending powers and plucks are dropped."""
    old = deck.start_final_phase

    def start(g):
        old(g)
        s = g.state
        keep = ("draw_turn", "penalty", "place", "toco_draw", "shoebill_draw", "end_turn", "next_turn")
        s.agenda = [x for x in s.agenda if x.name in keep]
    deck.start_final_phase = start


@mutant("7.2.4")
def final_phase_without_penalized_player():
    """A second recycle for a rival's penalty: the penalized rival plays no last turn (ruling R-06)."""
    _, perform = original("recycle", Shuffle)

    def wrong(g, a):
        retry = g.state.agenda[-1]
        perform(g, a)
        s = g.state
        if s.final_phase and s.recycles == g.params.final_phase_recycle and retry.name == "penalty":
            if retry.player != s.active and retry.player in s.last_turns:
                s.last_turns.remove(retry.player)
    answer("recycle", Shuffle, perform=wrong)


@mutant("7.2.4", "4.1.5")
def final_phase_after_bao_caller_plays_again():
    """A final phase started after BAO gives every player but the active one a last turn, the BAO caller
    included (line 289 read alone; ruling R-05 adopts B: the caller never plays again, lines 156, 346)."""
    old = deck.start_final_phase

    def start(g):
        old(g)
        s = g.state
        if s.bao is not None and s.final_phase and s.bao != s.active and s.bao not in (s.last_turns or []):
            s.last_turns = s.rivals(s.active)
    deck.start_final_phase = start


@mutant("7.2.5")
def shield_applies_in_final_phase():
    """The BAO shield still applies once the final phase has started."""
    old = deck.start_final_phase

    def start(g):
        shield = g.state.shield
        old(g)
        g.state.shield = shield
    deck.start_final_phase = start


@mutant("7.2.5", "4.1.2")
def bao_in_final_phase():
    """BAO may be called during the final phase."""
    from baobei_ref import bao

    bao.bao_allowed = lambda g: g.state.bao is None and (g.state.last_turns is None or g.state.final_phase)


@mutant("7.2.6", "5.2.1")
def bao_scored_in_final_phase():
    """A BAO called before the final phase is still scored as BAO (ruling R-05)."""
    def score(old, g):
        s = g.state
        phase = s.final_phase
        s.final_phase = False
        try:
            old(g)
        finally:
            s.final_phase = phase
    step("score_round", score)


@mutant("B.3", "3.2.3")
def window_for_zero_card_players():
    """A window is opened even when nobody but the active player holds a card (ruling R-20)."""
    def window(old, g, reference):
        s = g.state
        g.ask("window", None, tuple(s.rivals(s.active)), reference=reference)
    step("window", window)


@mutant("B.6", "6.1.2")
def zero_cards_drawn_power_lost():
    """A zero-card player's directly discarded card activates no power."""
    def discard_power(old, g, card):
        if g.state.count(g.state.active):
            old(g, card)
    step("discard_power", discard_power)


@mutant("B.8", "6.7.1")
def toco_gives_no_card_to_zero():
    """A card added by a Toco Toucan to a zero-card rival goes to the bottom of the deck instead."""
    def draw(old, g, player, rival):
        if g.state.count(rival) == 0:
            g.then(ShieldCheck())
            return None
        return old(g, player, rival)
    step("toco_draw", draw)


@mutant("B.1", "5.1.1")
def zero_cards_score_penalty():
    """A player with zero cards scores 5, not 0."""
    from baobei_ref import scoring

    old = scoring.round_total
    scoring.round_total = lambda g, p: old(g, p) if g.state.count(p) else 5



@mutant("7.2.2", "7.2.4")
def third_recycle_restarts_final_phase():
    """Every later recycle starts the final phase again: everyone but the active player is owed a new last turn
    (ruling R-26: a third recycle changes nothing)."""
    _, perform = original("recycle", Shuffle)

    def wrong(g, a):
        perform(g, a)
        if g.state.recycles > g.params.final_phase_recycle:
            deck.start_final_phase(g)
    answer("recycle", Shuffle, perform=wrong)


@mutant("7.2.5")
def no_plucks_in_final_phase():
    """Once the final phase has started nobody may pluck any more: discards open no window."""
    step("window", lambda old, g, reference: None if g.state.final_phase else old(g, reference))


@mutant("7.2.5", "6.1.2")
def no_powers_in_final_phase():
    """Once the final phase has started powers no longer activate."""
    step("power", lambda old, g, player, card, clause: None if g.state.final_phase else old(g, player, card, clause))
