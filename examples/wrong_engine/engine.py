#!/usr/bin/env python3
"""A deliberately wrong BAO BEI engine: the reference with realistic misreadings switched on.

Each bug is one switch, a misreading people building the game really make. Run it as a protocol
engine and let the suite find the bugs, clause by clause:

    baobei-conform -- python examples/wrong_engine/engine.py --bug pelicans_dont_match
    baobei-conform -- python examples/wrong_engine/engine.py --bug all

``BUGS`` lists every switch (a :class:`~baobei_ref.rules.Variant` of the reference's rules, composed
per game: nothing global is patched) with the clauses it breaks (the test checks the suite catches each one
and that only scenarios citing those clauses fail).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from baobei_conform.protocol.server import serve
from baobei_conform.runner.engine import ReferenceEngine
from baobei_ref import Game, zones
from baobei_ref.actions import Action, CallBao, Draw, Keep, TakeDiscard
from baobei_ref.agenda import Power, RoundStart, ShieldCheck, Window
from baobei_ref.powers.show import ShowCard
from baobei_ref.rules import Rules, Variant
from baobei_ref.turn import can_draw


def bug(change: Callable[[Rules], None]) -> Variant:
    """The misreading ``change`` makes to a game's rules, as a variant named after it."""
    return Variant(change.__name__, (change.__doc__ or "").strip(), change)


@bug
def pelicans_dont_match(rules: Rules) -> None:
    """White and Brown Pelicans treated as different birds (only the species counts)."""
    rules.matches = lambda g, ref, target: g.catalog.species_of(ref) == g.catalog.species_of(target)


@bug
def match_by_value(rules: Rules) -> None:
    """Two cards of the same value match (a Shoebill plucks a Toco Toucan: both are 13)."""
    original = rules.matches
    rules.matches = lambda g, r, t: original(g, r, t) or g.catalog.value(r) == g.catalog.value(t)


@bug
def active_plucks_own_discard(rules: Rules) -> None:
    """The active player may also claim in the window of their own discard."""
    def step_window(g: Game, reference: str) -> None:
        g.ask("window", None, tuple(g.state.players), reference=reference)
    rules.steps["window"] = step_window


def _power_after(rules: Rules, answer: tuple[str, type[Action]], card: Callable[[Game, Any], str | None],
                 clause: str) -> None:
    """After the answer's effect, the power of ``card`` (read before the effect) activates for the actor."""
    validate, perform = rules.answers[answer]

    def wrong(g: Game, a: Any) -> None:
        before = card(g, a)
        perform(g, a)
        if before is not None:
            g.then(Power(a.player, before, clause))
    rules.answers[answer] = (validate, wrong)


@bug
def power_on_take(rules: Rules) -> None:
    """Taking the top discard activates its power for the taker."""
    _power_after(rules, ("turn", TakeDiscard), lambda g, a: g.state.discard[-1], "2.8.6")


@bug
def power_on_replaced_card(rules: Rules) -> None:
    """Keeping the drawn card activates the power of the card it replaces, which goes face up."""
    _power_after(rules, ("drawn", Keep), lambda g, a: g.state.card_at((a.player, a.slot)), "2.7.3")


@bug
def bao_tie_succeeds(rules: Rules) -> None:
    """A BAO caller tied for the lowest total succeeds (less or equal instead of strictly less)."""
    original = rules.bao_score

    def wrong(g: Game, total: int, rivals: list[int]) -> tuple[int, str]:
        if all(total <= t for t in rivals):
            return (0, "5.2.2") if total >= 0 else (total, "5.2.3")
        return original(g, total, rivals)
    rules.bao_score = wrong


@bug
def bao_no_minimum(rules: Rules) -> None:
    """A failed BAO scores twice the total, without the minimum of 5."""
    original = rules.bao_score

    def wrong(g: Game, total: int, rivals: list[int]) -> tuple[int, str]:
        score, clause = original(g, total, rivals)
        return (2 * total, clause) if clause == "5.2.4" else (score, clause)
    rules.bao_score = wrong


def _after_bao(rules: Rules, extra: Callable[[Game, CallBao], None]) -> None:
    validate, perform = rules.answers[("end_turn", CallBao)]

    def wrong(g: Game, a: CallBao) -> None:
        perform(g, a)
        extra(g, a)
    rules.answers[("end_turn", CallBao)] = (validate, wrong)


@bug
def caller_plays_again(rules: Rules) -> None:
    """After BAO every player, the caller included, plays one more turn."""
    _after_bao(rules, lambda g, a: (g.state.last_turns or []).append(a.player))


@bug
def shield_immediate(rules: Rules) -> None:
    """The shield protects the caller from the moment BAO is called."""
    def activate(g: Game, a: CallBao) -> None:
        g.state.shield = "active"
    _after_bao(rules, activate)


@bug
def no_penalty_in_window(rules: Rules) -> None:
    """A failed pluck during another player's turn costs nothing."""
    original = rules.steps["penalty"]

    def wrong(g: Game, player: int) -> None:
        if player == g.state.active:
            original(g, player)
    rules.steps["penalty"] = wrong


@bug
def no_final_phase(rules: Rules) -> None:
    """The second recycle changes nothing: the round goes on."""
    rules.start_final_phase = lambda g: None


@bug
def ignore_move_limit(rules: Rules) -> None:
    """Powers may move the same card several times in one turn."""
    rules.movable = lambda g, target, player: not zones.protected(g.state, target[0], player)

    def check(g: Game, player: int, targets: Any, clause: str) -> None:
        for t in targets:
            g.require(not zones.protected(g.state, t[0], player), "shielded", "shielded", "4.2.7")
    rules.check_movable = check


@bug
def first_discard_not_neutral(rules: Rules) -> None:
    """The card turned up at the deal opens a reaction window like any discard."""
    original = rules.steps["flip"]

    def wrong(g: Game) -> None:
        original(g)
        g.state.agenda.append(Window(g.state.discard[-1]))
    rules.steps["flip"] = wrong


@bug
def no_gift(rules: Rules) -> None:
    """An offensive pluck removes the rival's card without giving one back."""
    rules.steps["gift"] = lambda g, player, rival, slot: None


@bug
def next_round_lowest_starts(rules: Rules) -> None:
    """The player with the lowest round score starts the next round."""
    def wrong(g: Game, scores: dict[int, int]) -> None:
        s = g.state
        first = s.active_player if s.first is None else s.first
        order = [first] + s.rivals(first)
        low = min(scores.values())
        s.first = next(p for p in order if scores[p] == low)
        s.round += 1
        g.then(RoundStart())
    rules.next_round = wrong


@bug
def brown_pelican_private(rules: Rules) -> None:
    """The Brown Pelican's card is shown only to the power's user, like a peek."""
    validate, _ = rules.answers[("brown_pelican", ShowCard)]

    def wrong(g: Game, a: ShowCard) -> None:
        g.state.see(g.check_target(a.target, "6.4.1"), a.player)
        g.then(ShieldCheck())
    rules.answers[("brown_pelican", ShowCard)] = (validate, wrong)


@bug
def own_discard_window_skipped(rules: Rules) -> None:
    """Keeping the drawn card discards the old one silently: nobody may pluck with it."""
    original = rules.steps["window"]

    def wrong(g: Game, reference: str) -> None:
        if reference == g.state.discard[-1] and g.state.pending is None and _kept(g):
            return
        original(g, reference)
    rules.steps["window"] = wrong


@bug
def view_shows_own_cards(rules: Rules) -> None:
    """A player's view shows every card of their own zone, as if players could look at their own cards."""
    original = rules.view

    def wrong(g: Game, player: int) -> dict[str, Any]:
        out = original(g, player)
        for slot, card in enumerate(g.state.zones.get(player, []), 1):
            if card is not None:
                out["zones"][str(player)][slot - 1] = {"card": card, "species": g.catalog.species_of(card)}
        return out
    rules.view = wrong


@bug
def take_into_any_slot_listed(rules: Rules) -> None:
    """legal_actions offers taking the discard into every slot, empty ones too (apply still refuses those)."""
    def wrong(g: Game) -> list[Action]:
        p = g.decision.decider
        draws: list[Action] = [Draw(p)] if can_draw(g) else []
        return draws + [TakeDiscard(p, slot) for slot in range(1, len(g.state.zones[p]) + 1)]
    rules.legal["turn"] = wrong


def _kept(g: Game) -> bool:
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

    def engine() -> ReferenceEngine:
        wrong = ReferenceEngine(variants=[BUGS[name][0] for name in bugs])
        wrong.name = "wrong-engine" + (f" ({', '.join(bugs)})" if bugs else "")
        return wrong
    return serve(engine)


if __name__ == "__main__":
    sys.exit(main())
