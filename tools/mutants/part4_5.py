"""Misreadings of parts 4 and 5: calling BAO, the last turns, the shield, scoring and the game end."""

from __future__ import annotations

import dataclasses

from baobei_ref import bao, cards, scoring, zones
from baobei_ref.actions import CallBao
from baobei_ref.agenda import NextTurn, RoundStart, ShieldCheck, TurnEnd, Window
from baobei_ref.powers import add_to_rival, targets
from baobei_ref.powers.add_to_rival import TocoAdd
from baobei_ref.powers.peek import PeekAt
from baobei_ref.powers.peek_two_swap import MacawLook
from baobei_ref.powers.show import ShowCard

from .change import (
    answer,
    claims_excused,
    looks_refused,
    original,
    params_during,
    resolution,
    step,
    then_also,
)
from .mutant import parameters, patch, variant


@variant("4.1.2")
def bao_at_start_of_turn(rules):
    """BAO may be called instead of the turn's action, at its start."""
    _, perform = original(rules, "end_turn", CallBao)
    rules.answers[("turn", CallBao)] = (lambda g, a: g.require_player(a), perform)


@variant("4.1.2", "4.1.3")
def bao_while_window_open(rules):
    """The active player may call BAO while the others may still pluck with their discard."""
    _, perform = original(rules, "end_turn", CallBao)

    def validate(g, a):
        g.require(a.player == g.state.active and bao.bao_allowed(g), "bao_not_allowed", "no", "4.1.2")

    def call(g, a):
        g.state.agenda.append(Window(g.state.pending.data["reference"]))
        g.state.agenda = [x for x in g.state.agenda if x != TurnEnd()]
        perform(g, a)
        g.state.agenda.remove(NextTurn())
        g.state.agenda.insert(0, NextTurn())
    rules.answers[("window", CallBao)] = (validate, call)


@patch("4.1.3", "4.1.2")
def second_bao_in_last_turns(rules):
    """A rival may still call BAO in their last turn after someone else called it."""
    bao.bao_allowed = lambda g: not g.state.final_phase and (g.state.last_turns is None or g.state.bao is not None)


@variant("4.1.4")
def only_next_rival_plays_after_bao(rules):
    """After BAO only the next player plays a last turn."""
    then_also(rules, "end_turn", CallBao, lambda g, a: setattr(g.state, "last_turns", g.state.last_turns[:1]))


@variant("4.1.4", "2.4.1")
def last_turns_counter_clockwise(rules):
    """After BAO the rivals' last turns go counter-clockwise."""
    then_also(rules, "end_turn", CallBao, lambda g, a: g.state.last_turns.reverse())


@variant("4.1.7", "4.1.4")
def round_ends_at_bao(rules):
    """Calling BAO ends the round at once: no last turns."""
    then_also(rules, "end_turn", CallBao, lambda g, a: setattr(g.state, "last_turns", []))


@patch("4.2.2", "4.2.6")
def shield_before_gift(rules):
    """The shield activates as soon as a rival removes a caller's card, before the gift is given."""
    def fix_remove(s, owner, slot, by):
        card = old_remove(s, owner, slot, by)
        if s.shield == "armed" and owner == s.bao and by != s.bao:
            s.shield, s.shield_touched = "active", False
        return card
    old_remove = zones.remove
    zones.remove = fix_remove


@variant("4.2.2", "4.2.7")
def shield_never_activates(rules):
    """The shield never activates: rivals may keep modifying the caller's cards."""
    step(rules, "shield_check", lambda old, g: setattr(g.state, "shield_touched", False))


@variant("4.2.3")
def looking_activates_shield(rules):
    """A rival looking at or showing a caller's card activates the shield (FAQ-18)."""
    def touch(kind, action):
        def extra(g, a):
            targets = [a.target] if hasattr(a, "target") else [a.first, a.second]
            for owner, _ in targets:
                zones._touch(g.state, owner, a.player)
        then_also(rules, kind, action, extra)
    touch("white_pelican", PeekAt)
    touch("brown_pelican", ShowCard)
    touch("macaw", MacawLook)


@patch("4.2.3", "6.7.1")
def toco_addition_not_a_modification(rules):
    """A card added to the caller by a Toco Toucan is not a modification: the shield stays armed."""
    old = zones.add

    def add(s, owner, slot, card, by):
        shield, touched = s.shield, s.shield_touched
        old(s, owner, slot, card, by)
        if card in s.moved:  # placed by a Toco Toucan
            s.shield, s.shield_touched = shield, touched
    zones.add = add


@variant("4.2.6", "4.2.2")
def shield_after_pluck_powers(rules):
    """The shield activates only after the powers a pluck yields, so they may still modify the caller."""

    def fix(g, a, steps):
        rest = [x for x in steps if x.name != "shield_check"]
        end = [x for x in rest if x.name == "end_turn"]
        return [x for x in rest if x.name != "end_turn"] + [ShieldCheck()] + end
    resolution(rules, fix)


@patch("4.2.7")
def shield_blocks_only_plucks(rules):
    """The active shield stops rival plucks but not rival powers."""
    targets.movable = lambda g, target, player: g.state.card_at(target) not in g.state.moved
    add_to_rival.rivals = lambda s, player: s.rivals(player)

    def check(g, player, cards, clause):
        for t in cards:
            g.require(g.state.card_at(t) not in g.state.moved, "moved_by_power_this_turn", "moved", "6.11.1")
    targets.check_movable = check
    validate, _ = original(rules, "toco_toucan", TocoAdd)
    answer(rules, "toco_toucan", TocoAdd,
           validate=lambda g, a: g.require(a.rival in g.state.rivals(a.player), "illegal_target", "x", "6.7.1"))


@variant("4.2.7", "4.2.3")
def shield_blocks_looking(rules):
    """The active shield also stops rivals from looking at the caller's cards."""
    looks_refused(rules, lambda g, player, t: zones.protected(g.state, t[0], player), "shielded", "4.2.7")


@patch("4.2.8")
def shield_blocks_the_caller(rules):
    """The shield also stops the caller from modifying their own cards."""
    zones.protected = lambda s, owner, by: s.shield == "active" and owner == s.bao


@patch("5.1.1", "6.8.1", "1.3")
def golden_toucan_plus_five(rules):
    """The Golden Toucan counts +5 at the end of the round."""
    old = cards.Catalog.value
    cards.Catalog.value = lambda self, card: abs(old(self, card))


@patch("5.1.1")
def round_total_only_known_cards(rules):
    """A round total counts only the cards its owner has seen."""
    scoring.round_total = lambda g, player: sum(g.catalog.value(c) for c in g.state.zones[player]
                                                if c is not None and player in g.state.seen.get(c, ()))


@patch("6.2.1", "5.1.1")
def eagle_worth_thirteen(rules):
    """The Eagle is worth 13, like the Shoebill (a misread value; ruling R-01)."""
    old = cards.Catalog.value
    cards.Catalog.value = lambda self, card: 13 if self.species_of(card) == "eagle" else old(self, card)


@variant("5.2.1")
def negative_totals_score_zero(rules):
    """A player who is not the BAO caller and ends with a negative total scores 0."""
    def score(old, g):
        old(g)
        s = g.state
        for p, v in s.round_scores.items():
            if v < 0 and p != s.bao:
                s.round_scores[p] = 0
                s.scores[p] -= v
    step(rules, "score_round", score)


@variant("5.2.2")
def bao_success_scores_total(rules):
    """A successful BAO with a positive total scores that total, not 0."""
    old = rules.bao_score

    def wrong(g, total, rivals):
        score, clause = old(g, total, rivals)
        return (total, clause) if clause == "5.2.2" else (score, clause)
    rules.bao_score = wrong


@variant("5.2.3")
def bao_negative_success_scores_zero(rules):
    """A successful BAO with a negative total scores 0."""
    old = rules.bao_score

    def wrong(g, total, rivals):
        score, clause = old(g, total, rivals)
        return (0, clause) if clause == "5.2.3" else (score, clause)
    rules.bao_score = wrong


@parameters("5.2.4")
def bao_failure_plain_total(p):
    """A failed BAO scores the plain total plus 5."""
    return dict(bao_failure_factor=1)


@parameters("5.2.4")
def bao_failure_minimum_ten(p):
    """A failed BAO scores double the total with a minimum of 10."""
    return dict(bao_failure_minimum=10)


@variant("5.3.1")
def negative_round_score_not_subtracted(rules):
    """A negative round score does not lower the cumulative score."""
    def score(old, g):
        s = g.state
        before = dict(s.scores)
        old(g)
        if not s.decisive and s.round_scores:
            for p, v in s.round_scores.items():
                if v < 0:
                    s.scores[p] = before[p]
    step(rules, "score_round", score)


@variant("5.3.2")
def threshold_must_be_exceeded(rules):
    """The game ends only when a score goes over the threshold, not when it reaches it."""
    params_during(rules, "score_round", lambda g, p: dataclasses.replace(
        p, threshold={k: v + 1 for k, v in p.threshold.items()}))


@variant("5.3.2", "5.3.1")
def threshold_on_round_score(rules):
    """The threshold is compared with the round score, not the cumulative score."""
    def score(old, g):
        s = g.state
        if s.decisive:
            return old(g)
        before, s.scores = s.scores, dict.fromkeys(s.scores, 0)
        old(g)
        s.scores = {p: before[p] + v for p, v in s.scores.items()}
    step(rules, "score_round", score)


@patch("5.3.3")
def highest_total_wins(rules):
    """When the game ends, the highest cumulative score wins."""
    scoring._lowest = lambda scores: [p for p, v in scores.items() if v == max(scores.values())]


@patch("5.4.1")
def tie_first_seat_wins(rules):
    """A tie for the lowest total: the earliest seat wins, no decisive round."""
    scoring._lowest = lambda scores: [min(p for p, v in scores.items() if v == min(scores.values()))]


@patch("5.4.1")
def decisive_round_all_players(rules):
    """A tie for the win sends every player to the decisive round, not only the tied ones."""
    old = scoring._lowest

    def lowest(scores):
        best = old(scores)
        return list(scores) if len(best) > 1 else best
    scoring._lowest = lowest


@parameters("5.4.1", "2.1.2")
def decisive_round_four_cards(p):
    """A decisive round between two players deals 4 cards each."""
    return dict(decisive_hand_size=dict.fromkeys(p.decisive_hand_size, 4))


@patch("5.4.1")
def decisive_tie_replayed_by_all(rules):
    """A new tie in a decisive round is replayed among all players of the game."""
    def after(g, scores):
        best = scoring._lowest(scores)
        if len(best) > 1:
            s = g.state
            s.players, s.first = list(range(s.seats)), None
            s.round += 1
            g.then(RoundStart())
        else:
            scoring._game_end(g, scores, "5.4.1")
    scoring._after_decisive_round = after


@patch("5.4.1")
def decisive_scores_added(rules):
    """A decisive round's scores are added to the cumulative totals, which decide the winner."""
    def after(g, scores):
        s = g.state
        for p, v in scores.items():
            s.scores[p] += v
        scoring._game_end(g, {p: s.scores[p] for p in s.players}, "5.4.1")
    scoring._after_decisive_round = after


@patch("B.7", "4.1.2")
def zero_cards_cannot_call_bao(rules):
    """A player with zero cards may not call BAO."""
    old = bao.bao_allowed
    bao.bao_allowed = lambda g: old(g) and g.state.count(g.state.active_player) > 0


@patch("4.2.7", "4.2.8")
def shield_spares_later_cards(rules):
    """The active shield covers only the caller's cards present when it activated, not cards the caller
    receives later (a penalty card, a Toco Toucan's card): rivals may pluck those (ruling R-24)."""
    from baobei_ref import pluck

    old_add, old_check = zones.add, pluck.check_claim

    def add(s, owner, slot, card, by):
        old_add(s, owner, slot, card, by)
        if s.shield == "active" and owner == s.bao:
            s.__dict__.setdefault("after_shield", set()).add(card)

    def check(g, player, targets, own_draw):
        s = g.state
        fresh = s.__dict__.get("after_shield", set())
        caller = [s.card_at(t) for t in targets if isinstance(t, tuple) and t and t[0] == s.bao]
        if s.shield == "active" and caller and all(c in fresh for c in caller):
            s.shield = "armed"
            try:
                return old_check(g, player, targets, own_draw)
            finally:
                s.shield = "active"
        return old_check(g, player, targets, own_draw)
    zones.add, pluck.check_claim = add, check


@patch("4.2.8", "4.2.2")
def caller_activates_own_shield(rules):
    """The caller's own modification of their cards (a defensive pluck) also activates the shield."""
    def touch(s, owner, by):
        if s.shield == "armed" and owner == s.bao:
            s.shield_touched = True
    zones._touch = touch


@variant("2.4.1", "5.3.1")
def next_round_highest_cumulative_starts(rules):
    """The next round is started by the player with the highest cumulative score, not the last round's."""
    old = rules.next_round

    def wrong(g, scores):
        old(g, {p: g.state.scores[p] for p in scores})
    rules.next_round = wrong


@variant("4.1.6", "4.1.4")
def no_powers_in_last_turns(rules):
    """During the rivals' last turns after BAO, powers no longer activate."""
    step(rules, "power", lambda old, g, player, card, clause: None
         if g.state.bao is not None and not g.state.final_phase else old(g, player, card, clause))


@parameters("5.4.1", "2.1.3")
def decisive_round_five_cards_each(p):
    """Every decisive round deals 5 cards each, whatever the number of tied players."""
    return dict(decisive_hand_size=dict.fromkeys(p.decisive_hand_size, 5))


@variant("4.2.3", "4.2.2")
def failed_pluck_on_caller_activates_shield(rules):
    """A rival's failed pluck on a caller's card (shown, then put back in its slot) is the first modification and
    activates the shield."""

    def fix(g, a, steps):
        s = g.state
        if not a.success and s.shield == "armed" and a.player != s.bao and any(t[0] == s.bao for t in a.targets):
            s.shield_touched = True
            i = next(i for i, x in enumerate(steps) if x.name == "penalty")
            steps.insert(i + 1, ShieldCheck())
        return steps
    resolution(rules, fix)


@variant("4.2.2", "4.2.6")
def shield_activates_at_turn_end(rules):
    """The shield activates only when the turn of the first rival modification ends, so later plucks and powers
    of that turn may still modify the caller's cards."""
    step(rules, "shield_check", lambda old, g: setattr(g.state, "plucking", None))

    def next_turn(old, g):
        s = g.state
        if s.shield_touched:
            s.shield_touched = False
            if s.shield == "armed":
                s.shield = "active"
        old(g)
    step(rules, "next_turn", next_turn)


@patch("4.2.7", "4.2.2")
def shield_per_rival(rules):
    """Each rival may make their own first modification of the caller's cards: the active shield stops only
    the rivals who already made one."""
    old_touch = zones._touch

    def touch(s, owner, by):
        if owner == s.bao and by != s.bao and s.shield in ("armed", "active"):
            round_, done = s.__dict__.get("modified_by", (s.round, set()))
            s.__dict__["modified_by"] = (s.round, (done if round_ == s.round else set()) | {by})
        old_touch(s, owner, by)

    def protected(s, owner, by):
        round_, done = s.__dict__.get("modified_by", (s.round, set()))
        done = done if round_ == s.round else set()
        return s.shield == "active" and owner == s.bao and by != s.bao and (not done or by in done)
    zones._touch, zones.protected = touch, protected


@variant("4.1.7", "4.1.4")
def round_ends_before_last_window(rules):
    """The round ends as soon as the last rival has played their card: nobody may pluck with that last discard
    and its power is lost."""
    def last(g):
        s = g.state
        return s.bao is not None and not s.final_phase and s.last_turns == []

    step(rules, "window", lambda old, g, reference: None if last(g) else old(g, reference))
    step(rules, "discard_power", lambda old, g, card: None if last(g) else old(g, card))


@variant("4.1.1", "5.2.2", "5.2.4")
def bao_success_below_one_rival(rules):
    """A BAO succeeds when the caller ends strictly below at least one rival, not below every rival."""
    old = rules.bao_score

    def wrong(g, total, rivals):
        if any(total < t for t in rivals):
            return (0, "5.2.2") if total >= 0 else (total, "5.2.3")
        return old(g, total, rivals)
    rules.bao_score = wrong


# Round 2: game flow
@variant("4.1.4", "2.4.1")
def bao_last_turns_from_round_first_player(rules):
    """After BAO the rivals' last turns follow the round's turn order from its first player (the caller left out),
    not clockwise on from the caller."""
    def extra(g, a):
        s = g.state
        s.last_turns = [p for p in [s.first] + s.rivals(s.first) if p != a.player]
    then_also(rules, "end_turn", CallBao, extra)


@variant("4.1.4", "B.1")
def zero_card_rival_no_bao_last_turn(rules):
    """After BAO a rival left with zero cards plays no last turn: only rivals holding cards are owed one."""
    def next_turn(old, g):
        s = g.state
        if s.bao is not None and not s.final_phase and s.last_turns:
            s.last_turns = [p for p in s.last_turns if s.count(p)]
        old(g)
    step(rules, "next_turn", next_turn)


@variant("4.1.4", "7.2.4", "4.1.7")
def final_phase_cuts_bao_last_turns(rules):
    """A second recycle during BAO's last turns ends the round with the current turn: the rivals still owed a
    last turn lose it (ruling R-05: they still play it)."""

    old = rules.start_final_phase

    def start(g):
        old(g)
        s = g.state
        if s.bao is not None and s.final_phase:
            s.last_turns = []
    rules.start_final_phase = start


@patch("4.1.3")
def bao_once_per_game(rules):
    """Once a BAO has been called, nobody may call BAO again for the rest of the game ("that round" read as the
    game)."""
    old_allowed = bao.bao_allowed

    def score(old, g):
        if g.state.bao is not None:
            g.state.__dict__["bao_in_game"] = True
        old(g)
    step(rules, "score_round", score)
    bao.bao_allowed = lambda g: old_allowed(g) and not g.state.__dict__.get("bao_in_game")


@patch("5.3.2")
def game_ends_when_everyone_reaches_threshold(rules):
    """The game ends only when every player's cumulative score has reached the threshold, not at least one."""
    def score(old, g):
        s = g.state
        if s.decisive:
            return old(g)
        real_end = scoring._game_end

        def end(g, totals, clause):
            if min(totals.values()) >= g.params.threshold[s.seats]:
                real_end(g, totals, clause)
            else:
                g.rules.next_round(g, s.round_scores)
        scoring._game_end = end
        try:
            old(g)
        finally:
            scoring._game_end = real_end
    step(rules, "score_round", score)


@patch("5.4.1", "5.3.3")
def tie_for_win_game_goes_on(rules):
    """A tie for the lowest cumulative score at game end is no game end: everyone plays on in normal rounds until
    one player alone has the lowest total."""
    old = scoring._game_end

    def end(g, totals, clause):
        if not g.state.decisive and len(scoring._lowest(totals)) > 1:
            g.rules.next_round(g, g.state.round_scores)
        else:
            old(g, totals, clause)
    scoring._game_end = end


@patch("5.4.1", "2.4.1")
def decisive_first_player_by_last_round(rules):
    """A decisive round is started, like any later round, by the tied player who scored most in the last round
    (ties: earlier in its turn order), not by a player chosen at random."""
    old = scoring._game_end

    def end(g, totals, clause):
        s = g.state
        order = [s.first] + s.rivals(s.first)
        last = dict(s.round_scores or {})
        old(g, totals, clause)
        if s.decisive and s.first is None and s.winner is None:
            tied = [p for p in order if p in s.players]
            high = max(last[p] for p in tied)
            s.first = next(p for p in tied if last[p] == high)
    scoring._game_end = end


@patch("5.4.1")
def decisive_tie_not_replayed(rules):
    """A new tie in a decisive round is not replayed: the tied player earliest in its turn order wins."""
    def after(g, scores):
        best = scoring._lowest(scores)
        if len(best) > 1:
            s = g.state
            s.winner = next(p for p in [s.first] + s.rivals(s.first) if p in best)
            g.emit("game_over", "5.4.1", also=("5.3.2",), winner=s.winner)
            g.ask("game_over", None, winner=s.winner)
        else:
            scoring._game_end(g, scores, "5.4.1")
    scoring._after_decisive_round = after


@variant("5.1.1")
def round_end_reveals_nothing(rules):
    """The cards left at the end of a round are counted but never shown: every player's view keeps them hidden."""
    def score(old, g):
        seen = dict(g.state.seen)
        old(g)
        g.state.seen = seen
    step(rules, "score_round", score)


# Round 2: refusals
@variant("4.2.7", "3.2.2", "3.4.2")
def shield_only_against_window_plucks(rules):
    """The shield stops rivals' plucks in a reaction window only: a rival who draws in their last turn may still
    pluck the caller's cards with the drawn card."""

    claims_excused(rules, lambda g, player, exc: exc.code == "shielded" and g.decision.kind == "drawn")


@patch("4.2.7", "6.7.2", "B.8")
def shield_spares_a_caller_without_cards(rules):
    """A BAO caller with zero cards has no card for the shield to protect, so a rival's Toco Toucan may still give
    them one ("the only way" back for a zero-card player, lines 238 and 303)."""
    old = zones.protected
    zones.protected = lambda s, owner, by: old(s, owner, by) and s.count(owner) > 0


@variant("4.1.2", "4.1.3")
def any_player_calls_bao_at_turn_end(rules):
    """At the end of a turn any player may call BAO ("at the end of a turn"), not only the player whose turn it
    was; the caller's rivals then play their last turns."""
    answer(rules, "end_turn", CallBao, validate=lambda g, a: g.require(a.player in g.state.players, "not_your_decision",
                                                                 "not at the table", "4.1.2"))


# Round 3: power combos
@variant("4.2.2", "4.2.7", "6.10.7")
def power_modification_shields_after_the_last_power(rules):
    """A rival's power that makes the first modification of the caller's cards activates the shield only once
    every power of that turn has resolved (the turn's powers read as one action), so a later power of the same
    turn may still modify the caller's cards."""
    def check(old, g):
        s = g.state
        if s.plucking is None and s.shield_touched and s.shield == "armed" \
                and any(x.name in ("power", "discard_power") for x in s.agenda):
            return  # the modification stays pending until the last power's check
        old(g)
    step(rules, "shield_check", check)


# Round 4: player counts
@variant("4.1.4", "4.1.7")
def bao_last_turns_for_three_rivals(rules):
    """After BAO only the next three rivals play a last turn (a table hard-coded for four): with five or six
    players the round ends before the farthest rivals have played."""
    then_also(rules, "end_turn", CallBao, lambda g, a: setattr(g.state, "last_turns", g.state.last_turns[:3]))


@variant("5.3.2")
def threshold_for_four_players(rules):
    """The game-end threshold is the four-player one whatever the number of players."""
    params_during(rules, "score_round", lambda g, p: dataclasses.replace(
        p, threshold=dict.fromkeys(p.threshold, p.threshold[4])))


@variant("5.3.2")
def threshold_by_rival_count(rules):
    """The threshold is read for the number of rivals, not of players (three players use the two-player value)."""
    params_during(rules, "score_round", lambda g, p: dataclasses.replace(
        p, threshold={k: p.threshold.get(k - 1, p.threshold[k]) for k in p.threshold}))


@variant("5.4.1", "2.1.2")
def decisive_hand_size_by_seats(rules):
    """A decisive round deals by the game's number of players, not by the number of tied players left (two tied
    players of five get 4 cards each)."""
    def hand_sizes(g, p):
        if g.state.decisive:
            return dataclasses.replace(p, decisive_hand_size=dict.fromkeys(p.decisive_hand_size,
                                                                            p.decisive_hand_size[g.state.seats]))
        return None
    params_during(rules, "deal", hand_sizes)


@variant("5.4.1")
def decisive_first_is_lowest_tied(rules):
    """A decisive round is started by the lowest-numbered tied player, not by one chosen at random."""
    def start(old, g):
        s = g.state
        if s.decisive and s.first is None:
            s.first = min(s.players)
        old(g)
    step(rules, "round_start", start)


@variant("4.1.5", "4.1.7")
def two_player_bao_caller_plays_again(rules):
    """With two players the BAO caller plays once more after the rival's last turn, to close the round of turns
    (line 156 says "not another normal turn ... even with two players")."""
    def extra(g, a):
        s = g.state
        if len(s.players) == 2:
            s.last_turns = s.last_turns + [a.player]
    then_also(rules, "end_turn", CallBao, extra)


# Round 5: calling BAO and scoring it
def _rival_totals(g) -> dict[int, int]:
    s = g.state
    return {p: scoring.round_total(g, p) for p in s.players if p != s.bao}


@variant("5.2.3", "5.2.4")
def bao_negative_success_doubled(rules):
    """A successful BAO with a negative total scores double that total (the failure's 2x applied to the negative
    total line 183 says is kept as it is)."""
    old = rules.bao_score

    def wrong(g, total, rivals):
        score, clause = old(g, total, rivals)
        return (2 * total, clause) if clause == "5.2.3" else (score, clause)
    rules.bao_score = wrong


@variant("5.2.2", "4.1.1", "5.2.4")
def bao_compared_with_cumulative_scores(rules):
    """A BAO succeeds when the caller's cumulative score with this round's total is strictly below every rival's
    (the game standing), not when the caller's round total is below every rival's round total."""
    old = rules.bao_score

    def wrong(g, total, rivals):
        s = g.state
        mine = s.scores[s.bao] + total
        others = [s.scores[p] + t for p, t in _rival_totals(g).items()]
        if all(mine < o for o in others):
            return (0, "5.2.2") if total >= 0 else (total, "5.2.3")
        return old(g, total, [min(rivals + [total])])
    rules.bao_score = wrong


@variant("5.2.4", "B.1", "5.2.2")
def bao_ignores_zero_card_rivals(rules):
    """A rival left with zero cards is out of the BAO comparison (no cards, no total), so a caller above 0 may
    still succeed against them (line 179: a player without cards has a total of 0)."""
    old = rules.bao_score

    def wrong(g, total, rivals):
        s = g.state
        kept = [t for p, t in _rival_totals(g).items() if s.count(p) > 0]
        return old(g, total, kept)
    rules.bao_score = wrong


@variant("B.7", "5.2.4", "B.1")
def zero_card_caller_always_succeeds(rules):
    """A BAO caller with zero cards succeeds whatever the rivals hold (nothing can be lower than no cards), even
    against a rival at 0 or below."""
    old = rules.bao_score

    def wrong(g, total, rivals):
        if g.state.count(g.state.bao) == 0:
            return 0, "5.2.2"
        return old(g, total, rivals)
    rules.bao_score = wrong


@variant("7.2.6", "5.2.2")
def final_phase_keeps_bao_bonus(rules):
    """The final phase cancels only a failed BAO's penalty: a caller who ends strictly below every rival still
    scores 0 (ruling R-05: no BAO bonus or penalty, everyone scores their ordinary total)."""
    def score(old, g):
        s = g.state
        if s.bao is not None and s.final_phase:
            totals = _rival_totals(g)
            mine = scoring.round_total(g, s.bao)
            if all(mine < t for t in totals.values()) and mine >= 0:
                s.final_phase = False
                try:
                    old(g)
                finally:
                    s.final_phase = True
                return
        old(g)
    step(rules, "score_round", score)


@variant("4.1.2", "6.1.2")
def bao_before_discard_power(rules):
    """The end of the turn (the BAO decision) comes once the discard's window closes, before the discarded
    card's power resolves; the power then resolves after the call (line 152: after every power)."""
    from baobei_ref import turn
    from baobei_ref.actions import Discard, EndTurn
    from baobei_ref.agenda import DiscardPower

    def perform(g, a):
        s = g.state
        card, s.drawn = s.drawn_card, None
        turn.normal_discard(g, card, "2.7.4")
        g.then(Window(card), TurnEnd(), DiscardPower(card))
    answer(rules, "drawn", Discard, perform=perform)

    def power_first(g, a):
        agenda = g.state.agenda
        if len(agenda) >= 2 and agenda[-1] == NextTurn() and isinstance(agenda[-2], DiscardPower):
            agenda[-1], agenda[-2] = agenda[-2], agenda[-1]
    then_also(rules, "end_turn", CallBao, power_first)
    then_also(rules, "end_turn", EndTurn, power_first)

    def skip(old, g):  # with no BAO decision asked, the turn still ends after the power
        agenda = g.state.agenda
        old(g)
        if len(agenda) >= 2 and agenda[-1] == NextTurn() and isinstance(agenda[-2], DiscardPower):
            agenda[-1], agenda[-2] = agenda[-2], agenda[-1]
    step(rules, "end_turn", skip)


@patch("4.2.8", "4.1.6", "4.2.7")
def shield_blocks_the_callers_powers(rules):
    """The active shield stops every power from moving the caller's cards, the caller's own powers (won by a
    pluck in a rival's last turn) included: only the caller's plucks count as "the caller's actions"."""
    import types

    from baobei_ref.powers import peek_two_swap

    def protected(s, owner, by):
        return s.shield == "active" and owner == s.bao

    proxy = types.SimpleNamespace(**{k: v for k, v in vars(zones).items() if not k.startswith("__")})
    proxy.protected = protected
    targets.zones = peek_two_swap.zones = proxy  # type: ignore[assignment, attr-defined]  # zones, one function changed


@variant("5.3.1", "5.2.4", "5.2.2")
def cumulative_adds_card_totals(rules):
    """The cumulative score adds every player's card total, the BAO caller's too: the caller's BAO score (0, or the
    failure's max(2 x total, 5)) is shown for the round but not carried into the running total."""
    def score(old, g):
        s = g.state
        before = dict(s.scores)
        totals = {p: scoring.round_total(g, p) for p in s.players}
        old(g)
        if not s.decisive and s.bao is not None and s.winner is None:
            s.scores[s.bao] = before[s.bao] + totals[s.bao]
    step(rules, "score_round", score)


@variant("5.2.4", "5.2.1")
def failed_bao_lowest_rival_scores_zero(rules):
    """When a BAO fails, the rival(s) with the lowest total score 0 instead of their total (a reward for beating
    the caller; line 180: every player but the caller scores their real total)."""
    def score(old, g):
        s = g.state
        before = dict(s.scores)
        old(g)
        if s.bao is None or s.final_phase or s.decisive or s.winner is not None or not s.round_scores:
            return
        totals = _rival_totals(g)
        if not totals or s.round_scores[s.bao] in (0,) or s.round_scores[s.bao] < 0:
            return
        low = min(totals.values())
        for p, t in totals.items():
            if t == low:
                s.round_scores[p] = 0
                s.scores[p] = before[p]
    step(rules, "score_round", score)


# Round 5: penalties and the deck
@variant("4.1.2", "3.5.5", "3.5.4")
def no_bao_after_own_failed_pluck(rules):
    """A player whose own-draw pluck failed this turn may not call BAO at the end of that turn."""
    from baobei_ref.agenda import NextTurn

    def fix(g, a, steps):
        if not a.success and a.own_draw:
            g.__dict__["_mutant_failed_turn"] = g.state.turn
        return steps
    resolution(rules, fix)

    def end_turn(old, g):
        if g.__dict__.get("_mutant_failed_turn") == g.state.turn:
            g.then(NextTurn())
        else:
            old(g)
    step(rules, "end_turn", end_turn)


@variant("4.2.2", "4.2.8", "3.5.6")
def caller_penalty_activates_shield(rules):
    """A penalty card added to the armed BAO caller's zone is the first modification of the caller's cards: the
    shield activates once it is placed."""
    def place(old, g, owner, card, by, clause):
        s = g.state
        if clause == "3.5.6" and owner == s.bao and s.shield == "armed":
            s.shield = "active"
            g.emit("shield_activated", "4.2.2", ruling="R-13", also=("4.2.3", "4.2.6"), player=s.bao)
        old(g, owner, card, by, clause)
    step(rules, "place", place)
