"""Part 2: setting up a round and the turn (draw or take the discard; keep or discard)."""

from __future__ import annotations

from itertools import permutations
from typing import TYPE_CHECKING

from baobei_ref import deck, pluck, zones
from baobei_ref.actions import Action, ChooseFirstPlayer, Discard, Draw, InitialPeek, Keep, Shuffle, TakeDiscard
from baobei_ref.agenda import (
    Deal,
    DiscardPower,
    Flip,
    InitialPeeks,
    ScoreRound,
    TurnDraw,
    TurnEnd,
    TurnStart,
    Window,
)
from baobei_ref.rules import Answer, AnswerKey, Legal, Step, reading

if TYPE_CHECKING:
    from baobei_ref.game import Game


# --- round setup (2.1 - 2.4; ruling R-15 fixes the dealing order) ---------------------------------
def step_round_start(g: Game) -> None:
    """A new round: empty table, every card back in the box, then the chance outcomes."""
    s = g.state
    s.zones = {p: [] for p in s.players}
    s.deck, s.discard, s.under, s.drawn = [], [], [], None
    s.box = list(g.catalog.cards)
    s.seen, s.moved = {}, set()
    s.bao, s.shield, s.shield_touched = None, "none", False
    s.recycles, s.final_phase, s.last_turns = 0, False, None
    s.turn, s.active = 0, None
    if s.first is None:
        g.ask("first_player", None, tuple(s.players))  # 2.4.1 round one, 5.4.1 decisive rounds
    else:
        g.ask("deal", None, cards=list(s.box))


def validate_first_player(g: Game, a: ChooseFirstPlayer) -> None:
    g.require(a.first in g.decision.players, "bad_chance_outcome", f"player {a.first} cannot start", "2.4.1")


def perform_first_player(g: Game, a: ChooseFirstPlayer) -> None:
    g.state.first = a.first
    g.emit("first_player", "2.4.1", player=a.first)
    g.ask("deal", None, cards=list(g.state.box))


def validate_shuffle(g: Game, a: Shuffle) -> None:
    cards = g.decision.data["cards"]
    ok = isinstance(a.order, tuple) and len(a.order) == len(cards) and all(isinstance(c, str) for c in a.order) \
        and sorted(a.order) == sorted(cards)
    g.require(ok, "bad_chance_outcome", "the order must be a permutation of the cards to shuffle", "7.1.5")


def perform_deal_shuffle(g: Game, a: Shuffle) -> None:
    g.state.deck = list(reversed(a.order))
    g.state.box = []
    g.then(Deal())


def step_deal(g: Game) -> None:
    """2.1.2 / 2.1.3 (5.4.1 in a decisive round): one card at a time, clockwise, into slots 1, 2, ..."""
    s = g.state
    sizes = g.params.decisive_hand_size if s.decisive else g.params.hand_size
    n = sizes[len(s.players)]
    for p in g.rules.deal_order(g, n):
        s.zones[p].append(s.deck.pop())
    g.emit("dealt", "2.1.1", also=("5.4.1",) if s.decisive else ("2.1.2",) if len(s.players) == 2 else ("2.1.3",),
           cards_each=n)
    g.then(InitialPeeks(0))


def deal_one_at_a_time(g: Game, n: int) -> list[int]:
    """Ruling R-15 (adopted B): ``n`` cards each, one card at a time, clockwise."""
    return [p for _ in range(n) for p in g.state.players]


def deal_in_blocks(g: Game, n: int) -> list[int]:
    """Ruling R-15, reading A (a switch): each player's ``n`` cards in one block."""
    return [p for p in g.state.players for _ in range(n)]


def step_initial_peek(g: Game, index: int) -> None:
    s = g.state
    if index < len(s.players):
        g.ask("initial_peek", s.players[index], count=g.params.initial_peek)
    else:
        g.then(Flip())


def validate_initial_peek(g: Game, a: InitialPeek) -> None:
    g.require_player(a)
    n = g.params.initial_peek
    slots = a.slots
    ok = isinstance(slots, tuple) and all(type(slot) is int for slot in slots) and len(set(slots)) == len(slots) == n
    g.require(ok, "illegal_target", f"peek at exactly {n} different own slots", "2.2.1")
    for slot in slots:
        g.check_target((a.player, slot), "2.2.1")


def perform_initial_peek(g: Game, a: InitialPeek) -> None:
    s = g.state
    for slot in a.slots:
        s.see(s.card_in((a.player, slot)), a.player)
    g.emit("initial_peek", "2.2.1", player=a.player, slots=list(a.slots))
    g.then(InitialPeeks(s.players.index(a.player) + 1))


def step_flip(g: Game) -> None:
    """2.3.1: the first face-up discard is neutral: no pluck, no power."""
    s = g.state
    card = s.deck.pop()
    s.discard.append(card)
    s.show_all(card)
    g.emit("neutral_discard", "2.3.1", also=("3.2.7",), card=card)
    s.active, s.turn = s.first, 1
    g.then(TurnStart())


# --- the turn (2.6 - 2.8) ------------------------------------------------------------------------
def can_draw(g: Game) -> bool:
    return bool(g.state.deck) or deck.can_recycle(g.state)


def step_turn_start(g: Game) -> None:
    s = g.state
    s.moved.clear()  # 6.11.1: the per-turn limit ends when the next turn starts
    # with no card to draw, a player with cards may still take the discard; reading B skips the turn
    if not can_draw(g) and (s.count(s.active_player) == 0 or g.rules.skip_turn_without_draw(g)):
        g.emit("turn_without_action", "7.1.8", ruling="R-09", also=("B.6",), player=s.active)
        g.then(TurnEnd())
    else:
        g.ask("turn", s.active)


def take_without_draw(g: Game) -> bool:
    """Ruling R-09 (adopted A): with no card to draw, a player holding cards still has a turn (take the discard)."""
    return False


def skip_without_draw(g: Game) -> bool:
    """Ruling R-09, reading B (a switch): with no card to draw, the turn is skipped."""
    return True


def validate_draw(g: Game, a: Draw) -> None:
    g.require_player(a)
    g.require(can_draw(g), "deck_empty", "the deck is empty and cannot be rebuilt", "7.1.8")


def perform_draw(g: Game, a: Draw) -> None:
    g.then(TurnDraw())


def step_draw_turn(g: Game) -> None:
    """2.7.1: draw the top card and look at it in secret."""
    s = g.state
    card = deck.draw(g, TurnDraw())
    if card is None:
        return  # waiting for the recycle shuffle
    s.drawn = card
    active = s.active_player
    s.see(card, active)
    g.emit("drew", "2.7.1", also=("2.6.1", "2.6.2") + (("B.6",) if s.count(active) == 0 else ()), player=active)
    g.ask("drawn", active)


def _check_replacement(g: Game, a: TakeDiscard | Keep, why: str, clause: str, target_clause: str) -> None:
    """Taking the discard and keeping both replace an own card: the player needs one, in that slot."""
    g.require_player(a)
    g.require(g.state.count(a.player) > 0, "no_cards", why, clause)
    g.check_target((a.player, a.slot), target_clause)


def _replace_and_discard(g: Game, a: TakeDiscard | Keep, card: str, discard_clause: str) -> None:
    """2.5.3: the new card takes exactly the chosen slot; the old one is a normal discard (a window
    opens, 2.8.5) and activates no power (2.8.6, 6.1.5)."""
    old = zones.replace(g.state, a.player, a.slot, card, by=a.player)
    normal_discard(g, old, discard_clause)
    g.then(Window(old), TurnEnd())


def validate_take(g: Game, a: TakeDiscard) -> None:
    _check_replacement(g, a, "taking the discard needs an own card to replace", "B.4", "2.8.2")


def perform_take(g: Game, a: TakeDiscard) -> None:
    """2.8.1 - 2.8.4: the top discard replaces the chosen card, which goes face up on the pile."""
    card = g.state.discard.pop()
    g.emit("took_discard", "2.8.3", also=("2.6.1", "2.6.3", "2.6.4", "2.8.1", "2.8.2", "2.5.3"),
           player=a.player, slot=a.slot, card=card)
    _replace_and_discard(g, a, card, "2.8.4")


def validate_keep(g: Game, a: Keep) -> None:
    _check_replacement(g, a, "with zero cards the drawn card must be discarded", "B.6", "2.7.3")


def perform_keep(g: Game, a: Keep) -> None:
    """2.7.3: the drawn card takes the chosen slot; the old card is shown and discarded."""
    card, g.state.drawn = g.state.drawn_card, None
    g.emit("kept", "2.7.3", also=("2.7.2", "2.5.3"), player=a.player, slot=a.slot)
    _replace_and_discard(g, a, card, "2.7.3")


def validate_discard(g: Game, a: Discard) -> None:
    g.require_player(a)


def perform_discard(g: Game, a: Discard) -> None:
    """2.7.4: the drawn card goes face up on the pile; its power waits until after the window (2.7.5, 6.1.2)."""
    s = g.state
    card, s.drawn = s.drawn_card, None
    normal_discard(g, card, "2.7.4")
    g.then(Window(card), DiscardPower(card), TurnEnd())


NORMAL_DISCARD_ALSO = {  # the discard opens a window (3.2.3); the direct discard's power waits (2.7.5)
    "2.7.4": ("2.7.2", "2.7.5", "3.2.3"),
    "2.7.3": ("3.2.3",),
    "2.8.4": ("2.8.5", "2.8.6", "3.2.3"),
}


def normal_discard(g: Game, card: str, clause: str) -> None:
    """A normal face-up discard by the active player (ruling R-14): everyone sees it."""
    s = g.state
    s.discard.append(card)
    s.show_all(card)
    g.emit("discarded", clause, ruling="R-14", also=NORMAL_DISCARD_ALSO[clause], player=s.active, card=card)


def step_next_turn(g: Game) -> None:
    """Turns go clockwise (2.4.1); after BAO (4.1.4) or in the final phase (7.2.4) only the owed last
    turns remain, and the round ends after the last of them (4.1.7, 7.2.6)."""
    s = g.state
    if s.last_turns is not None:
        if not s.last_turns:
            g.then(ScoreRound())
            return
        s.active = s.last_turns.pop(0)
    else:
        s.active = s.rivals(s.active_player)[0]
    s.turn += 1
    g.then(TurnStart())


# --- legal actions ----------------------------------------------------------------------------
def legal_initial_peek(g: Game) -> list[InitialPeek]:
    p = g.decision.decider
    return [InitialPeek(p, c) for c in permutations(g.state.own_slots(p), g.params.initial_peek)]


def legal_turn(g: Game) -> list[Action]:
    """2.6.1 / 2.6.4: exactly one of draw (2.6.2) or take the discard (2.6.3), never both."""
    p = g.state.active_player
    out: list[Action] = [Draw(p)] if can_draw(g) else []
    return out + [TakeDiscard(p, slot) for slot in g.state.own_slots(p)]


def legal_drawn(g: Game) -> pluck.Chain:
    """2.7.2: after drawing, an own-draw pluck (2.7.1), keep or discard; 2.6.6 / B.6: with zero cards, discard."""
    p = g.state.active_player
    return pluck.Chain([Keep(p, slot) for slot in g.state.own_slots(p)] + [Discard(p)], pluck.legal_claims(g, p))


def legal_chance(g: Game) -> list[ChooseFirstPlayer]:
    p = g.decision
    return [ChooseFirstPlayer(x) for x in p.players] if p.kind == "first_player" else []


STEPS: dict[str, Step] = {
    "round_start": step_round_start,
    "deal": step_deal,
    "initial_peek": step_initial_peek,
    "flip": step_flip,
    "turn_start": step_turn_start,
    "draw_turn": step_draw_turn,
    "next_turn": step_next_turn,
}
ANSWERS: dict[AnswerKey, Answer] = {
    ("first_player", ChooseFirstPlayer): (validate_first_player, perform_first_player),
    ("deal", Shuffle): (validate_shuffle, perform_deal_shuffle),
    ("initial_peek", InitialPeek): (validate_initial_peek, perform_initial_peek),
    ("turn", Draw): (validate_draw, perform_draw),
    ("turn", TakeDiscard): (validate_take, perform_take),
    ("drawn", Keep): (validate_keep, perform_keep),
    ("drawn", Discard): (validate_discard, perform_discard),
}
LEGAL: dict[str, Legal] = {
    "first_player": legal_chance,
    "deal": legal_chance,
    "initial_peek": legal_initial_peek,
    "turn": legal_turn,
    "drawn": legal_drawn,
}
VARIANTS = (reading("R-09", "B", skip_turn_without_draw=skip_without_draw),
            reading("R-15", "A", deal_order=deal_in_blocks))
