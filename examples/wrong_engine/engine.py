#!/usr/bin/env python3
"""A deliberately wrong BAO BEI engine: the reference with realistic misreadings switched on.

Each bug is one switch, a misreading people building the game really make. Run it as a protocol
engine and let the suite find the bugs, clause by clause:

    baobei-conform -- python examples/wrong_engine/engine.py --bug pelicans_dont_match
    baobei-conform -- python examples/wrong_engine/engine.py --bug all

``BUGS`` lists every switch with the clauses it breaks (the test checks the suite catches each one
and that only scenarios citing those clauses fail).
"""

from __future__ import annotations

import argparse
import sys

from baobei_conform.protocol.server import serve
from baobei_conform.runner.engine import ReferenceEngine
from baobei_ref import canonical, cards, deck, game, pluck, powers, scoring, turn
from baobei_ref.actions import CallBao, Draw, Keep, ShowCard, TakeDiscard
from baobei_ref.agenda import Flip, GiftOwed, Penalty, Power, RoundStart, ShieldCheck, Window


def pelicans_dont_match():
    """White and Brown Pelicans treated as different birds (only the species counts)."""
    cards.Catalog.matches = lambda self, ref, target: self.species_of(ref) == self.species_of(target)


def match_by_value():
    """Two cards of the same value match (a Shoebill plucks a Toco Toucan: both are 13)."""
    original = cards.Catalog.matches
    cards.Catalog.matches = lambda self, r, t: original(self, r, t) or self.value(r) == self.value(t)


def active_plucks_own_discard():
    """The active player may also claim in the window of their own discard."""
    def step_window(g, reference):
        g.ask("window", None, tuple(g.state.players), reference=reference)
    game.STEPS[Window] = step_window


def power_on_take():
    """Taking the top discard activates its power for the taker."""
    validate, perform = game.ANSWERS[("turn", TakeDiscard)]

    def wrong(g, a):
        card = g.state.discard[-1]
        perform(g, a)
        g.then(Power(a.player, card, "2.8.6"))
    game.ANSWERS[("turn", TakeDiscard)] = (validate, wrong)


def power_on_replaced_card():
    """Keeping the drawn card activates the power of the card it replaces, which goes face up."""
    validate, perform = game.ANSWERS[("drawn", Keep)]

    def wrong(g, a):
        old = g.state.card_at((a.player, a.slot))
        perform(g, a)
        g.then(Power(a.player, old, "2.7.3"))
    game.ANSWERS[("drawn", Keep)] = (validate, wrong)


def bao_tie_succeeds():
    """A BAO caller tied for the lowest total succeeds (less or equal instead of strictly less)."""
    original = scoring.bao_score

    def wrong(g, total, rivals):
        if all(total <= t for t in rivals):
            return (0, "5.2.2") if total >= 0 else (total, "5.2.3")
        return original(g, total, rivals)
    scoring.bao_score = wrong


def bao_no_minimum():
    """A failed BAO scores twice the total, without the minimum of 5."""
    original = scoring.bao_score

    def wrong(g, total, rivals):
        score, clause = original(g, total, rivals)
        return (2 * total, clause) if clause == "5.2.4" else (score, clause)
    scoring.bao_score = wrong


def caller_plays_again():
    """After BAO every player, the caller included, plays one more turn."""
    validate, perform = game.ANSWERS[("end_turn", CallBao)]

    def wrong(g, a):
        perform(g, a)
        g.state.last_turns.append(a.player)
    game.ANSWERS[("end_turn", CallBao)] = (validate, wrong)


def shield_immediate():
    """The shield protects the caller from the moment BAO is called."""
    validate, perform = game.ANSWERS[("end_turn", CallBao)]

    def wrong(g, a):
        perform(g, a)
        g.state.shield = "active"
    game.ANSWERS[("end_turn", CallBao)] = (validate, wrong)


def no_penalty_in_window():
    """A failed pluck during another player's turn costs nothing."""
    original = game.STEPS[Penalty]

    def wrong(g, player):
        if player == g.state.active:
            original(g, player)
    game.STEPS[Penalty] = wrong


def no_final_phase():
    """The second recycle changes nothing: the round goes on."""
    deck.start_final_phase = lambda g: None


def ignore_move_limit():
    """Powers may move the same card several times in one turn."""
    powers.movable = lambda s, target, player: not powers.zones.protected(s, target[0], player)

    def check(g, player, targets, clause):
        for t in targets:
            g.require(not powers.zones.protected(g.state, t[0], player), "shielded", "shielded", "4.2.7")
    powers._check_movable = check


def first_discard_not_neutral():
    """The card turned up at the deal opens a reaction window like any discard."""
    original = game.STEPS[Flip]

    def wrong(g):
        original(g)
        g.state.agenda.append(Window(g.state.discard[-1]))
    game.STEPS[Flip] = wrong


def no_gift():
    """An offensive pluck removes the rival's card without giving one back."""
    game.STEPS[GiftOwed] = lambda g, player, rival, slot: None


def next_round_lowest_starts():
    """The player with the lowest round score starts the next round."""
    def wrong(g, scores):
        s = g.state
        order = [s.first] + s.rivals(s.first)
        low = min(scores.values())
        s.first = next(p for p in order if scores[p] == low)
        s.round += 1
        g.then(RoundStart())
    scoring._next_round = wrong


def brown_pelican_private():
    """The Brown Pelican's card is shown only to the power's user, like a peek."""
    validate, _ = game.ANSWERS[("brown_pelican", ShowCard)]

    def wrong(g, a):
        g.state.see(g.state.card_at(a.target), a.player)
        g.then(ShieldCheck())
    game.ANSWERS[("brown_pelican", ShowCard)] = (validate, wrong)


def own_discard_window_skipped():
    """Keeping the drawn card discards the old one silently: nobody may pluck with it."""
    original = pluck.step_window

    def wrong(g, reference):
        if reference == g.state.discard[-1] and g.state.pending is None and _kept(g):
            return
        original(g, reference)
    game.STEPS[Window] = wrong


def view_shows_own_cards():
    """A player's view shows every card of their own zone, as if players could look at their own cards."""
    original = canonical.view

    def wrong(g, player):
        out = original(g, player)
        for slot, card in enumerate(g.state.zones.get(player, []), 1):
            if card is not None:
                out["zones"][str(player)][slot - 1] = {"card": card, "species": g.catalog.species_of(card)}
        return out
    canonical.view = wrong


def take_into_any_slot_listed():
    """legal_actions offers taking the discard into every slot, empty ones too (apply still refuses those)."""
    def wrong(g):
        p = g.state.active
        draws = [Draw(p)] if turn.can_draw(g) else []
        return draws + [TakeDiscard(p, slot) for slot in range(1, len(g.state.zones[p]) + 1)]
    game.LEGAL["turn"] = wrong


def _kept(g) -> bool:
    return any(e.kind == "kept" for e in g.events)


# name -> (the misreading, the clauses it breaks)
BUGS = {
    "pelicans_dont_match": (pelicans_dont_match, ["3.1.7", "6.3.2", "6.4.2", "3.6.8"]),
    "match_by_value": (match_by_value, ["3.1.6", "3.1.9", "6.9.7"]),
    "active_plucks_own_discard": (active_plucks_own_discard, ["3.2.3", "3.6.1"]),
    "power_on_take": (power_on_take, ["2.8.6", "6.1.5"]),
    "power_on_replaced_card": (power_on_replaced_card, ["6.1.5", "2.7.3"]),
    "bao_tie_succeeds": (bao_tie_succeeds, ["4.1.1", "5.2.4"]),
    "bao_no_minimum": (bao_no_minimum, ["5.2.4"]),
    "caller_plays_again": (caller_plays_again, ["4.1.5", "4.1.4"]),
    "shield_immediate": (shield_immediate, ["4.2.2", "4.2.1"]),
    "no_penalty_in_window": (no_penalty_in_window, ["3.5.5", "3.5.7"]),
    "no_final_phase": (no_final_phase, ["7.2.2"]),
    "ignore_move_limit": (ignore_move_limit, ["6.11.1"]),
    "first_discard_not_neutral": (first_discard_not_neutral, ["2.3.1", "3.2.7"]),
    "no_gift": (no_gift, ["3.4.5", "3.6.7"]),
    "next_round_lowest_starts": (next_round_lowest_starts, ["2.4.1"]),
    "brown_pelican_private": (brown_pelican_private, ["6.4.1"]),
    "own_discard_window_skipped": (own_discard_window_skipped, ["2.7.3", "3.2.3"]),
    "view_shows_own_cards": (view_shows_own_cards, ["2.2.1", "2.5.6"]),
    "take_into_any_slot_listed": (take_into_any_slot_listed, ["2.8.1", "2.8.6"]),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bug", action="append", default=[], choices=[*BUGS, "all"], help="misreading to switch on")
    args = parser.parse_args(argv)
    bugs = list(BUGS) if "all" in args.bug else args.bug
    for name in bugs:
        BUGS[name][0]()

    def engine() -> ReferenceEngine:
        wrong = ReferenceEngine()
        wrong.name = "wrong-engine" + (f" ({', '.join(bugs)})" if bugs else "")
        return wrong
    return serve(engine)


if __name__ == "__main__":
    sys.exit(main())
