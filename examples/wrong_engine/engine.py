#!/usr/bin/env python3
"""A deliberately wrong BAO BEI engine: the reference with realistic misreadings switched on.

Each bug is one switch, a misreading people building the game really make. Run it as a protocol
engine and let the suite find the bugs, clause by clause:

    baobei-conform -- python examples/wrong_engine/engine.py --bug pelicans_dont_match
    baobei-conform -- python examples/wrong_engine/engine.py --bug all

``BUGS`` lists every switch with the clauses it breaks. A rule misreading is a
:class:`~baobei_ref.rules.Variant` of the reference's rules, composed per game (nothing global is patched;
the test checks the suite catches each one and that only scenarios citing those clauses fail). A
*representation* misreading is a :class:`Shown`: the rules are the reference's, what the engine shows of them
(its canonical state, views, events, legal actions) breaks a point of the observable contract
(spec/contract.yaml, docs/protocol.md), as an implementer writing from the docs gets it wrong; agreement with
the reference at every step of a scenario, and the fuzzer, find those. A *determinism* misreading (``AGAIN``) plays
every game right once; only the same actions played again from the same start show it (a scenario's ``replay``,
the fuzzer's ``determinism`` check).
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
from collections.abc import Callable
from typing import Any

from baobei_conform.engines.reference import ReferenceEngine
from baobei_conform.protocol.server import serve
from baobei_ref import Game, zones
from baobei_ref.actions import Action, CallBao, Draw, Keep, TakeDiscard
from baobei_ref.agenda import Power, RoundStart, ShieldCheck, Window
from baobei_ref.errors import RuleError
from baobei_ref.powers.show import ShowCard
from baobei_ref.rules import Rules, Variant
from baobei_ref.turn import can_draw
from baobei_spec import default_spec


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


@bug
def bao_at_another_moment_wrong_decision(rules: Rules) -> None:
    """BAO called at any decision but end_turn (during a window, at a gift or a power) is refused as
    wrong_decision, the code of any action that does not answer the decision; the contract's refusal rows put
    bao_not_allowed first (spec/contract.yaml refusals: bao_at_another_moment before not_an_answer; 4.1.2)."""
    def refuse(g: Game, a: CallBao) -> None:
        raise RuleError("wrong_decision", f"call_bao does not answer a {g.decision.kind!r} decision")

    for kind in default_spec().vocabulary.decisions:
        if kind not in ("end_turn", "game_over"):
            rules.answers[(kind, CallBao)] = (refuse, refuse)


@bug
def zero_card_claimant_not_eligible(rules: Rules) -> None:
    """A window claim by a player holding no card is refused as not_your_decision, as if they were not one of the
    window's players; the contract counts them among pending.players and refuses their claim with no_cards
    (spec/contract.yaml lists: state.pending.players, "zero-card players included (their claim is no_cards)";
    refusals: claimant_not_eligible only for a claimant not of the window; B.3, 3.4.1)."""
    original = rules.check_claim

    def wrong(g: Game, player: int, targets: Any, own_draw: bool) -> None:
        if not own_draw and g.state.count(player) == 0:
            raise RuleError("not_your_decision", f"player {player} holds no card and may not claim", "3.2.3")
        original(g, player, targets, own_draw)
    rules.check_claim = wrong


def _kept(g: Game) -> bool:
    return any(e.kind == "kept" for e in g.events)


# --- representation misreadings ------------------------------------------------------------------------
class Shown:
    """A representation misreading: the game is played by the reference's rules, but what the engine shows of it
    differs from the observable contract. Each method changes one answer in place (by default, not at all);
    ``unshow`` reads a state given to setup the engine's own way (so its own ``state()`` sets up again)."""

    def state(self, g: Game, state: dict) -> None:
        """Change the canonical state ``state()`` answers."""

    def view(self, g: Game, view: dict) -> None:
        """Change a player's view."""

    def events(self, decision: str, action: dict, events: list[dict]) -> None:
        """Change the events of an accepted ``action`` that answered a ``decision`` of that kind."""

    def legal(self, g: Game, actions: list[dict]) -> None:
        """Change the list ``legal_actions`` answers."""

    def unshow(self, state: dict) -> None:
        """Undo ``state`` on a state given to setup."""

    def set_up(self, engine: WrongEngine, state: dict, params: dict | None) -> bool:
        """Set ``engine`` up at ``state`` its own way and say so; False (by default): the reference's setup."""
        return False

    @property
    def name(self) -> str:
        return _snake(type(self).__name__)


def _snake(name: str) -> str:
    return "".join("_" + c.lower() if c.isupper() else c for c in name).lstrip("_")


def _clockwise(players: list[int], active: int, seats: int) -> list[int]:
    return sorted(players, key=lambda p: (p - active) % seats)


class WindowPlayersSeatOrder(Shown):
    """A window's players listed in seat order (ascending), not clockwise from the active player with the next
    player first (spec/contract.yaml lists: state.pending.players, "window: clockwise from the active player";
    view.pending as state.pending; docs/protocol.md 3)."""

    def state(self, g: Game, state: dict) -> None:
        if state["pending"]["kind"] == "window":
            state["pending"]["players"].sort()

    def view(self, g: Game, view: dict) -> None:  # a view's pending is the state's
        self.state(g, view)

    def unshow(self, state: dict) -> None:
        if state["pending"]["kind"] == "window":
            state["pending"]["players"] = _clockwise(state["pending"]["players"], state["active"], state["seats"])


class SeenByEverySeat(Shown):
    """In a decisive round, a card known to everyone of the round is listed as seen by every seat, the players
    left out of the round included (spec/contract.yaml lists: state.seen, "scope: the players of the round: a
    face-up card is known to everyone of the round, not to every seat"; 5.4.1)."""

    def state(self, g: Game, state: dict) -> None:
        players, seats = state["players"], list(range(state["seats"]))
        if players != seats:
            for card, known in state["seen"].items():
                if known == players:
                    state["seen"][card] = seats

    def unshow(self, state: dict) -> None:
        for card, known in state["seen"].items():
            state["seen"][card] = [p for p in known if p in state["players"]]


class ZonesOfEverySeat(Shown):
    """In a decisive round, the state and the views keep a zone (empty) for every seat, the players left out of
    the round included (spec/contract.yaml lists: state.zones and view.zones, "scope: the players of the
    round"; 5.4.1)."""

    def state(self, g: Game, state: dict) -> None:
        zones = state["zones"]
        state["zones"] = {str(p): zones.get(str(p), []) for p in range(g.state.seats)}

    def view(self, g: Game, view: dict) -> None:
        self.state(g, view)

    def unshow(self, state: dict) -> None:
        state["zones"] = {p: zone for p, zone in state["zones"].items() if int(p) in state["players"]}


class TocoCardMovedWhenPlaced(Shown):
    """A Toco Toucan's card counts as moved only once it is placed, not while the rival chooses its slot
    (spec/contract.yaml moved: toco_card, "from the moment it is drawn for the rival (R-28): already while the
    rival chooses its slot (the place decision)"; 6.7.1, 6.11.1)."""

    def state(self, g: Game, state: dict) -> None:
        pending = state["pending"]
        if pending["kind"] == "place" and pending["data"].get("clause") == "6.7.1":
            state["moved"].remove(pending["data"]["card"])

    def unshow(self, state: dict) -> None:
        pending = state["pending"]
        if pending["kind"] == "place" and pending["data"].get("clause") == "6.7.1":
            state["moved"] = sorted({*state["moved"], pending["data"]["card"]})


class NoWindowClosedWithoutWindow(Shown):
    """No window_closed event when no window is asked at all because nobody but the active player holds a card
    (spec/contract.yaml events: window_closed, situation nobody_holds_cards, clause B.3, instead_of: window:
    "it is emitted although nobody answers it"; ruling R-20)."""

    def events(self, decision: str, action: dict, events: list[dict]) -> None:
        events[:] = [e for e in events if not (e["kind"] == "window_closed" and e["clause"] == "B.3")]


class WindowClosedAfterPluck(Shown):
    """A window that a claim ends also emits window_closed, right after the pluck; the contract emits it only when
    nobody (else) claims (spec/contract.yaml events: window_closed, situation closed, match action
    close_window; 3.2.3, 3.2.5)."""

    def events(self, decision: str, action: dict, events: list[dict]) -> None:
        if decision == "window" and action["type"] in ("pluck", "simultaneous_plucks"):
            at = next(i for i, e in enumerate(events) if e["kind"] == "pluck")
            events.insert(at + 1, {"kind": "window_closed", "clause": "3.2.3", "reference": events[at]["reference"]})


class LegalWithoutPermutations(Shown):
    """legal_actions lists each set of slots or targets once, in ascending order: no initial peek of slots [2, 1]
    beside [1, 2], a blind swap, a Macaw look or a double pluck one way only (spec/contract.yaml legal_actions:
    identity, "ordered permutations are distinct"; 2.2.1, 3.6.6)."""

    def legal(self, g: Game, actions: list[dict]) -> None:
        def ordered(a: dict) -> bool:
            pair = a.get("slots") or a.get("targets") or ([a["first"], a["second"]] if "first" in a else [])
            return len(pair) != 2 or pair[0] <= pair[1]
        actions[:] = [a for a in actions if ordered(a)]


class ViewHidesShoebillCards(Shown):
    """The Shoebill's user's own view of the shoebill decision leaves out the two cards drawn, as every other
    player's does (spec/contract.yaml views: pending_data, shoebill: {cards: decider}, "the Shoebill's user
    looked at the two cards drawn (6.9.2)")."""

    def view(self, g: Game, view: dict) -> None:
        view["pending"]["data"].pop("cards", None)


class GiftSlotsSwapped(Shown):
    """The gift event gives the rival's emptied slot as from_slot and the plucker's slot given as slot
    (spec/contract.yaml events: gift, fields {from_slot: the plucker's slot given, slot: the rival's emptied
    slot}; 3.4.5)."""

    def events(self, decision: str, action: dict, events: list[dict]) -> None:
        for e in events:
            if e["kind"] == "gift":
                e["from_slot"], e["slot"] = e["slot"], e["from_slot"]


class RivalRemovedCitesOwnPluck(Shown):
    """The removed event of a rival's card plucked by a single pluck cites 3.3.3 (the own pluck's clause) instead
    of 3.4.3 (spec/contract.yaml events: removed, situations own 3.3.3 / rival 3.4.3: "an event cites exactly
    its situation's clause")."""

    def events(self, decision: str, action: dict, events: list[dict]) -> None:
        for e in events:
            if e["kind"] == "removed" and e["clause"] == "3.4.3":
                e["clause"] = "3.3.3"


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
    "bao_at_another_moment_wrong_decision": (bao_at_another_moment_wrong_decision, ["4.1.2"]),
    "zero_card_claimant_not_eligible": (zero_card_claimant_not_eligible, ["3.4.1", "3.6.3", "3.2.3"]),
}
class SetupAgainKeepsThePlayedGame(Shown):
    """Set up again at the position it was last set up at, the engine goes on with the game it played from there
    instead of a fresh one (it keeps the game of its last setup by the state's text, and that game is live; the next
    setup is fresh again): the same actions from the same start then give another game. Only a replay shows it
    (``replay``, the fuzzer's determinism check): every first play is right (docs/protocol.md, setup: the engine is
    set up at exactly that state)."""

    def set_up(self, engine: WrongEngine, state: dict, params: dict | None) -> bool:
        key = json.dumps(state, sort_keys=True)
        last = engine.__dict__.get("last_setup")
        if last is not None and last[0] == key:
            engine.game, engine.__dict__["last_setup"] = last[1], None  # the game played since, once: not fresh
        else:
            ReferenceEngine.setup(engine, state, params)
            engine.__dict__["last_setup"] = (key, engine.game)
        return True


# name -> (the representation misreading, the clauses of the situations it shows wrongly)
SHOWN: dict[str, tuple[Shown, list[str]]] = {shown.name: (shown, clauses) for shown, clauses in (
    (WindowPlayersSeatOrder(), ["3.2.3"]),
    (SeenByEverySeat(), ["5.4.1"]),
    (ZonesOfEverySeat(), ["5.4.1"]),
    (TocoCardMovedWhenPlaced(), ["6.7.1", "6.11.1"]),
    (NoWindowClosedWithoutWindow(), ["B.3"]),
    (WindowClosedAfterPluck(), ["3.2.3"]),
    (LegalWithoutPermutations(), ["2.2.1", "3.6.6"]),
    (ViewHidesShoebillCards(), ["6.9.2"]),
    (GiftSlotsSwapped(), ["3.4.5"]),
    (RivalRemovedCitesOwnPluck(), ["3.4.3"]),
)}
# name -> (a determinism misreading: every first play right, a replay from the same start not; its clauses)
AGAIN: dict[str, tuple[Shown, list[str]]] = {shown.name: (shown, clauses) for shown, clauses in (
    (SetupAgainKeepsThePlayedGame(), ["2.7.1"]),
)}
MISREADINGS = {**BUGS, **SHOWN, **AGAIN}  # every switch of --bug


class WrongEngine(ReferenceEngine):
    """The reference playing by misread rules (``variants``) and showing its answers misread (``shown``)."""

    def __init__(self, variants: list[Variant], shown: list[Shown]) -> None:
        super().__init__(variants=variants)
        self.shown = shown

    def setup(self, state: dict, params: dict | None) -> None:
        if self.shown:
            state = copy.deepcopy(state)
            for misreading in self.shown:
                misreading.unshow(state)
        if not any(misreading.set_up(self, state, params) for misreading in self.shown):
            super().setup(state, params)

    def apply(self, action: dict) -> tuple[list[dict] | None, str | None]:
        decision = self.game.pending.kind if self.game is not None else ""
        events, code = super().apply(action)
        if events is not None:
            for misreading in self.shown:
                misreading.events(decision, action, events)
        return events, code

    @property
    def playing(self) -> Game:
        assert self.game is not None, "the server starts a game before any other command"
        return self.game

    def state(self) -> dict:
        state = super().state()
        if self.shown:
            state = copy.deepcopy(state)  # the reference's own lists and dicts are never changed
            for misreading in self.shown:
                misreading.state(self.playing, state)
        return state

    def view(self, player: int) -> dict:
        view = super().view(player)
        if self.shown:
            view = copy.deepcopy(view)
            for misreading in self.shown:
                misreading.view(self.playing, view)
        return view

    def legal_actions(self) -> list[dict]:
        actions = super().legal_actions()
        for misreading in self.shown:
            misreading.legal(self.playing, actions)
        return actions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bug", action="append", default=[], choices=[*MISREADINGS, "all"],
                        help="misreading to switch on (repeatable)")
    args = parser.parse_args(argv)
    bugs = list(MISREADINGS) if "all" in args.bug else args.bug

    def engine() -> ReferenceEngine:
        wrong = WrongEngine([BUGS[name][0] for name in bugs if name in BUGS],
                            [{**SHOWN, **AGAIN}[name][0] for name in bugs if name not in BUGS])
        wrong.name = "wrong-engine" + (f" ({', '.join(bugs)})" if bugs else "")
        return wrong
    return serve(engine)


if __name__ == "__main__":
    sys.exit(main())
