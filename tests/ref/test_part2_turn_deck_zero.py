"""Reference interpreter, part 2 (setup, the turn, fixed slots), part 7 (recycling, final phase),
annex B (zero cards), and player views.

Every expectation comes from the rulebook text (spec/rulebook/000_*.txt, line numbers in the
docstrings) or from the rulings register where the text is silent.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace

import pytest
from _rules import rejected

from baobei_ref import RuleError
from baobei_ref.actions import (
    CallBao,
    ChooseFirstPlayer,
    CloseWindow,
    Discard,
    Draw,
    EndTurn,
    Gift,
    InitialPeek,
    Keep,
    Place,
    Pluck,
    Shuffle,
    TakeDiscard,
)
from baobei_ref.game import Game, default_catalog, default_params
from baobei_ref.powers.add_to_rival import TocoAdd
from baobei_ref.powers.blind_swap import BlindSwap
from baobei_ref.powers.peek import PeekAt
from baobei_ref.setup import position

CAT = default_catalog()
ANON = {"card": None, "species": None}


# --- helpers -------------------------------------------------------------------------------------

def zone(g: Game, p: int) -> list[str | None]:
    """Card ids of ``p``'s slots (None: empty slot), slot 1 first."""
    return [None if c is None else c["card"] for c in g.to_json()["zones"][str(p)]]


def kinds(g: Game, p: int) -> list[str | None]:
    return [None if c is None else CAT.species_of(c) for c in zone(g, p)]


def top(g: Game) -> str:
    return g.to_json()["top"]


def sp(card: str | None) -> str | None:
    return None if card is None else CAT.species_of(card)


def remaining(*named: list) -> list[str]:
    """The species of every card not named in ``named`` (one entry per physical card)."""
    want = Counter(s for lst in named for s in lst if s is not None)
    out = []
    for card in CAT.cards:
        s = CAT.species_of(card)
        if want[s]:
            want[s] -= 1
        else:
            out.append(s)
    return out


def plain_first(cards, lead: tuple[str, ...] = ()) -> tuple[str, ...]:
    """An order of ``cards``: one card of each species in ``lead`` first, then cards without power."""
    cards = list(cards)
    head = []
    for s in lead:
        head.append(next(c for c in cards if CAT.species_of(c) == s and c not in head))
    rest = sorted((c for c in cards if c not in head), key=lambda c: CAT.power(c) is not None)
    return tuple(head + rest)


def hidden_from(g: Game, player: int, card: str) -> bool:
    """``card`` appears nowhere in ``player``'s view."""
    return card not in json.dumps(g.view(player))


def quiet_turn(g: Game) -> int:
    """The pending player draws a card without power, discards it, nobody claims; returns the player."""
    assert g.pending.kind == "turn"
    p = g.pending.player
    g.apply(Draw(p))
    assert CAT.power(g.to_json()["drawn"]) is None
    g.apply(Discard(p))
    if g.pending.kind == "window":
        g.apply(CloseWindow())
    if g.pending.kind == "end_turn":
        g.apply(EndTurn(p))
    return p


def set_up(players: int, first: int, order: tuple[str, ...] | None = None) -> Game:
    """Round one from ``Game(players=n)``: first player, deal, every player peeks at slots 1 and 2."""
    g = Game(players=players)
    g.apply(ChooseFirstPlayer(first))
    g.apply(Shuffle(order if order is not None else plain_first(g.pending.data["cards"])))
    while g.pending.kind == "initial_peek":
        g.apply(InitialPeek(g.pending.player, (1, 2)))
    return g


# --- 2.1 - 2.4: setting up round one ---------------------------------------------------------------
@pytest.mark.clause("2.1.3", "2.1.1")
@pytest.mark.parametrize("players", [0, 1, 7])
def test_player_count_outside_two_to_six_is_rejected(players):
    """The text deals only for 2 players (5 cards) and 3 to 6 players (4 cards)."""
    with pytest.raises(RuleError) as err:
        Game(players=players)
    assert err.value.code == "malformed_action"


@pytest.mark.clause("2.4.1", "R-15")
def test_round_one_first_player_is_a_chance_outcome_among_the_players():
    """In round one the first player is chosen at random (line 20): a chance decision over all players."""
    g = Game(players=3)
    assert g.pending.kind == "first_player"
    assert g.pending.player is None
    assert set(g.pending.players) == {0, 1, 2}
    assert set(g.legal_actions()) == {ChooseFirstPlayer(p) for p in (0, 1, 2)}
    rejected(g, ChooseFirstPlayer(3), "bad_chance_outcome")
    rejected(g, ChooseFirstPlayer(-1), "bad_chance_outcome")
    g.apply(ChooseFirstPlayer(1))
    assert g.pending.kind == "deal" and g.pending.player is None
    assert sorted(g.pending.data["cards"]) == sorted(CAT.cards)  # all 66 cards are shuffled for the deal


@pytest.mark.clause("2.1.1", "R-15")
def test_deal_shuffle_must_be_a_permutation_of_all_cards():
    """The deal's shuffle is a chance outcome: only an order of exactly the 66 cards is possible."""
    g = Game(players=2)
    g.apply(ChooseFirstPlayer(0))
    cards = tuple(g.pending.data["cards"])
    rejected(g, Shuffle(cards[1:]), "bad_chance_outcome")  # a card missing
    rejected(g, Shuffle(cards[1:] + cards[:1] + cards[:1]), "bad_chance_outcome")  # a card twice
    rejected(g, Shuffle(cards[:-1] + (cards[0],)), "bad_chance_outcome")  # a duplicate instead of a card


@pytest.mark.clause("2.1.1", "2.1.2", "2.1.3", "2.3.1", "R-15")
@pytest.mark.parametrize("players,hand", [(2, 5), (3, 4), (4, 4), (5, 4), (6, 4)])
def test_deal_gives_the_hand_size_one_card_at_a_time_clockwise(players, hand):
    """2 players get 5 cards, 3-6 players 4 (lines 13-14), dealt one at a time clockwise into slots 1, 2, ..."""
    g = Game(players=players)
    g.apply(ChooseFirstPlayer(0))
    order = list(g.pending.data["cards"])
    random.Random(players).shuffle(order)
    g.apply(Shuffle(tuple(order)))
    assert g.pending.kind == "initial_peek"
    zones = {p: zone(g, p) for p in range(players)}
    assert all(len(z) == hand and None not in z for z in zones.values())
    start = order.index(zones[0][0])  # R-15 fixes the order; the seat dealt first does not matter here
    assert start < players
    for p in range(players):
        for k in range(hand):
            assert zones[p][k] == order[k * players + (p - start) % players]
    while g.pending.kind == "initial_peek":
        g.apply(InitialPeek(g.pending.player, (1, 2)))
    state = g.to_json()
    assert state["discard"] == [order[players * hand]]  # the next card is turned up
    assert state["deck"] == order[players * hand + 1 :]  # the rest is the face-down deck, top first
    assert len(state["deck"]) == 66 - players * hand - 1


@pytest.mark.clause("2.2.1", "R-15")
def test_initial_peek_exactly_two_own_slots_once_per_player():
    """Each player chooses exactly two of their own cards and looks at them once; no other card (line 16)."""
    g = Game(players=2)
    g.apply(ChooseFirstPlayer(1))
    g.apply(Shuffle(tuple(g.pending.data["cards"])))
    p = g.pending.player
    other = 1 - p
    assert g.pending.kind == "initial_peek"
    for viewer in (0, 1):
        assert all(c == ANON for z in g.view(viewer)["zones"].values() for c in z)  # nobody has looked yet
    for slots in [(1,), (1, 2, 3), (2, 2), (1, 6), (0, 1), ()]:
        rejected(g, InitialPeek(p, slots), "illegal_target")
    rejected(g, InitialPeek(other, (1, 2)), "not_your_decision")
    g.apply(InitialPeek(p, (2, 4)))
    mine = g.view(p)["zones"][str(p)]
    assert [c["species"] for c in mine] == [None, sp(zone(g, p)[1]), None, sp(zone(g, p)[3]), None]
    assert all(c == ANON for c in g.view(p)["zones"][str(other)])
    assert all(c == ANON for z in g.view(other)["zones"].values() for c in z)
    assert g.pending.kind == "initial_peek" and g.pending.player == other  # each player peeks once, in turn
    rejected(g, InitialPeek(p, (1, 3)), "not_your_decision")
    g.apply(InitialPeek(other, (1, 5)))
    assert g.pending.kind == "turn"
    assert [c["species"] is not None for c in g.view(other)["zones"][str(other)]] == [True, False, False, False, True]
    assert [c["species"] is not None for c in g.view(p)["zones"][str(p)]] == [False, True, False, True, False]


@pytest.mark.clause("2.2.1", "R-15")
def test_initial_peeks_go_round_the_table_in_seating_order():
    """Every player peeks exactly once, one after another clockwise (ruling R-15)."""
    g = Game(players=4)
    g.apply(ChooseFirstPlayer(2))
    g.apply(Shuffle(tuple(g.pending.data["cards"])))
    peekers = []
    while g.pending.kind == "initial_peek":
        peekers.append(g.pending.player)
        g.apply(InitialPeek(g.pending.player, (3, 4)))
    assert sorted(peekers) == [0, 1, 2, 3]
    assert all(peekers[i + 1] == (peekers[i] + 1) % 4 for i in range(3))


@pytest.mark.clause("2.3.1", "R-14", "R-15")
def test_first_discard_is_neutral_no_window_no_power():
    """The first face-up card is neutral (line 18): no pluck window, no power, even a Toco Toucan's."""
    g = Game(players=3)
    g.apply(ChooseFirstPlayer(2))
    cards = list(plain_first(g.pending.data["cards"]))
    toco = next(c for c in cards if sp(c) == "toco_toucan")
    cards.remove(toco)
    cards.insert(12, toco)  # 3 players x 4 cards dealt, then the 13th card is turned up
    g.apply(Shuffle(tuple(cards)))
    while g.pending.kind == "initial_peek":
        g.apply(InitialPeek(g.pending.player, (1, 2)))
    assert g.to_json()["discard"] == [toco]
    assert g.pending.kind == "turn" and g.pending.player == 2  # straight to the first player's turn
    for viewer in (0, 1, 2):
        assert g.view(viewer)["top"] == toco  # the top of the discard pile is visible to all
    g.apply(Draw(2))
    assert g.view(2)["drawn"] == cards[13]  # the deck is what follows the turned-up card


@pytest.mark.clause("2.3.1", "2.8.1", "R-22", "R-14")
def test_neutral_first_discard_may_be_taken_like_any_top_discard():
    """Taking the neutral card is an ordinary turn action; the replaced card is a normal discard (R-22)."""
    g = set_up(players=2, first=1)
    neutral = top(g)
    old = zone(g, 1)[2]
    assert TakeDiscard(1, 3) in set(g.legal_actions())
    g.apply(TakeDiscard(1, 3))
    assert zone(g, 1)[2] == neutral and top(g) == old
    assert g.pending.kind == "window" and set(g.pending.players) == {0}


@pytest.mark.clause("2.4.1")
def test_first_player_starts_and_turns_pass_clockwise():
    """The chosen first player plays first; turns then pass clockwise (line 20)."""
    g = set_up(players=3, first=2)
    assert g.pending.kind == "turn" and g.pending.player == 2
    assert g.to_json()["active"] == 2
    assert [quiet_turn(g) for _ in range(4)] == [2, 0, 1, 2]


@pytest.mark.clause("2.4.1", "5.2.4")
def test_next_round_starts_with_highest_score_counting_a_failed_bao_increase():
    """Later rounds start with the highest round score, any increase included (line 20); no chance draw."""
    # Player 0 called BAO with 4 points but player 1 has 3: 0 scores 2 x 4 = 8, more than player 2's 7.
    g = position(
        zones={0: ["kingfisher"], 1: ["swallow"], 2: ["owl", "sparrow"]},
        deck=["hummingbird"], active=2, first=0, bao=0,
    )
    quiet_turn(g)  # player 2's last turn ends the round
    assert g.to_json()["round_scores"] == {"0": 8, "1": 3, "2": 7}
    assert g.pending.kind == "deal"  # no first_player chance outcome after round one
    assert g.to_json()["first"] == 0
    g.apply(Shuffle(plain_first(g.pending.data["cards"])))
    while g.pending.kind == "initial_peek":
        g.apply(InitialPeek(g.pending.player, (1, 2)))
    assert g.pending.kind == "turn" and g.pending.player == 0


@pytest.mark.clause("2.4.1")
def test_next_round_tie_goes_to_the_earlier_player_in_last_rounds_turn_order():
    """Tied highest scores: the player earlier in the previous round's turn order starts (line 20)."""
    # The round began with player 1 (order 1, 2, 0); players 0 and 2 tie on 10 points: player 2 starts.
    g = position(
        zones={0: ["owl", "owl"], 1: ["sparrow"], 2: ["heron", "kingfisher"]},
        deck=["hummingbird"], active=0, first=1, recycles=2, final_phase=True, last_turns=[],
    )
    quiet_turn(g)
    assert g.to_json()["round_scores"] == {"0": 10, "1": 2, "2": 10}
    assert g.pending.kind == "deal"
    assert g.to_json()["first"] == 2


# --- 2.6 - 2.8: the turn ---------------------------------------------------------------------------
def table(**kw) -> Game:
    base = {"zones": {0: ["owl", "macaw", "eagle", "flamingo"], 1: ["kingfisher", "swallow", "sparrow", "heron"]},
            "deck": ["cuckoo"], "discard": ["sparrow", "macaw"]}
    base.update(kw)
    return position(**base)


@pytest.mark.clause("2.6.1", "2.6.2", "2.6.3", "2.8.2", "2.5.6")
def test_turn_offers_exactly_draw_or_take_the_discard_into_an_own_card():
    """The active player must choose one of: draw, or take the discard replacing one of their cards (31-34)."""
    g = table(zones={0: ["owl", None, "eagle"], 1: ["kingfisher", "swallow"]})
    assert g.pending.kind == "turn" and g.pending.player == 0
    assert set(g.legal_actions()) == {Draw(0), TakeDiscard(0, 1), TakeDiscard(0, 3)}
    rejected(g, Draw(1), "not_your_decision")
    rejected(g, TakeDiscard(1, 1), "not_your_decision")
    rejected(g, TakeDiscard(0, 2), "illegal_target")  # an empty slot holds no card to replace
    rejected(g, TakeDiscard(0, 4), "illegal_target")
    rejected(g, Keep(0, 1), "wrong_decision")  # nothing drawn yet
    rejected(g, Discard(0), "wrong_decision")


@pytest.mark.clause("2.6.4")
def test_draw_and_take_the_discard_are_exclusive():
    """No normal turn both draws and takes the discard (line 36)."""
    g = table()
    g.apply(Draw(0))
    assert g.pending.kind == "drawn"
    rejected(g, TakeDiscard(0, 1), "wrong_decision")
    rejected(g, Draw(0), "wrong_decision")
    g = table()
    g.apply(TakeDiscard(0, 1))
    rejected(g, Draw(0), "wrong_decision")
    g.apply(CloseWindow())
    assert g.pending.kind == "end_turn"
    rejected(g, Draw(0), "wrong_decision")
    rejected(g, TakeDiscard(0, 2), "wrong_decision")


@pytest.mark.clause("2.6.2", "2.7.1")
def test_drawn_card_is_seen_only_by_the_drawer():
    """The drawer looks at the drawn card in secret; only they may pluck with it (lines 33, 42)."""
    g = table()
    g.apply(Draw(0))
    cuckoo = g.to_json()["drawn"]
    assert sp(cuckoo) == "cuckoo"
    assert g.view(0)["drawn"] == cuckoo
    assert g.view(1)["drawn"] is None and hidden_from(g, 1, cuckoo)
    assert g.to_json()["deck"][0] != cuckoo
    rejected(g, Pluck(1, ((1, 1),)), "not_your_decision")


@pytest.mark.clause("2.7.2", "2.7.3", "2.5.3", "2.8.5", "6.1.5")
def test_keep_puts_the_drawn_card_in_the_chosen_slot_and_discards_the_old_card():
    """Keep: the drawn card takes exactly the chosen slot, the old one goes face up; rivals may pluck (46)."""
    g = table()
    before = zone(g, 0)
    g.apply(Draw(0))
    cuckoo = g.to_json()["drawn"]
    rejected(g, Keep(0, 5), "illegal_target")
    g.apply(Keep(0, 2))
    assert zone(g, 0) == [before[0], cuckoo, before[2], before[3]]
    assert top(g) == before[1]  # the old Macaw, face up
    assert g.to_json()["drawn"] is None
    assert g.pending.kind == "window" and set(g.pending.players) == {1}
    rejected(g, Pluck(0, ((0, 1),)), "not_your_decision")  # never with one's own discard
    assert g.view(0)["zones"]["0"][1]["species"] == "cuckoo"
    assert g.view(1)["zones"]["0"][1] == ANON  # placed face down: the rival did not see it
    g.apply(CloseWindow())
    assert g.pending.kind == "end_turn" and g.pending.player == 0  # neither Macaw nor Cuckoo power


@pytest.mark.clause("2.7.3")
def test_keep_needs_an_occupied_own_slot():
    """Keep replaces one of the player's own hidden cards: an empty slot cannot be chosen (line 46)."""
    g = table(zones={0: ["owl", None], 1: ["kingfisher"]})
    g.apply(Draw(0))
    assert set(g.legal_actions()) >= {Keep(0, 1), Discard(0)}
    assert Keep(0, 2) not in set(g.legal_actions())
    rejected(g, Keep(0, 2), "illegal_target")
    rejected(g, Keep(0, 3), "illegal_target")
    rejected(g, Keep(1, 1), "not_your_decision")


@pytest.mark.clause("2.7.4", "2.7.5", "6.1.2")
def test_discard_directly_opens_a_window_then_the_drawers_power():
    """Discarding the drawn card puts it face up; rivals may pluck; its power comes after (lines 47, 49)."""
    g = table(deck=["white_pelican"])
    before = zone(g, 0)
    g.apply(Draw(0))
    pelican = g.to_json()["drawn"]
    g.apply(Discard(0))
    assert top(g) == pelican and zone(g, 0) == before
    assert g.pending.kind == "window" and set(g.pending.players) == {1}
    rejected(g, Pluck(0, ((0, 1),)), "not_your_decision")
    g.apply(CloseWindow())
    assert g.pending.kind == "white_pelican" and g.pending.player == 0


@pytest.mark.clause("2.8.1", "2.8.2", "2.8.3", "2.8.4", "2.8.5", "2.8.6", "2.5.3")
def test_take_the_discard_replaces_the_chosen_card_without_any_power():
    """The top discard replaces the chosen card in its slot; the old card goes face up; no power (51-59)."""
    g = table(zones={0: ["owl", "cuckoo", "eagle"], 1: ["kingfisher", "swallow"]})
    macaw = top(g)
    before = zone(g, 0)
    deck = g.to_json()["deck"]
    g.apply(TakeDiscard(0, 2))
    assert zone(g, 0) == [before[0], macaw, before[2]]
    assert top(g) == before[1]
    assert macaw not in g.to_json()["discard"]
    assert g.to_json()["deck"] == deck  # nothing drawn
    assert g.pending.kind == "window" and set(g.pending.players) == {1}
    rejected(g, Pluck(0, ((0, 1),)), "not_your_decision")
    g.apply(CloseWindow())
    assert g.pending.kind == "end_turn" and g.pending.player == 0  # neither Macaw nor Cuckoo power


@pytest.mark.clause("2.8.6", "B.4")
def test_take_the_discard_is_forbidden_with_zero_cards():
    """With no card to replace, taking the discard is forbidden (lines 59, 298)."""
    g = table(zones={0: [None, None], 1: ["kingfisher", "swallow"]})
    assert g.legal_actions() == [Draw(0)]
    rejected(g, TakeDiscard(0, 1), "no_cards")


# --- 2.5: slots are fixed --------------------------------------------------------------------------
@pytest.mark.clause("2.5.1", "2.5.2")
def test_removed_card_leaves_its_slot_empty_and_nothing_moves():
    """Removing a card leaves its slot empty; the other cards do not move (line 24)."""
    g = position(zones={0: ["heron", "owl", "eagle", "flamingo"], 1: ["kingfisher"]}, drawn="owl")
    before = zone(g, 0)
    g.apply(Pluck(0, ((0, 2),)))
    assert zone(g, 0) == [before[0], None, before[2], before[3]]


def failed_own_pluck(slots: list) -> Game:
    """Player 0 holds a drawn Owl and plucks a Heron in slot 2: a penalty Kingfisher must be added."""
    g = position(zones={0: slots, 1: ["sparrow", "swallow"]}, drawn="owl", deck=["kingfisher"])
    assert sp(zone(g, 0)[1]) == "heron"
    g.apply(Pluck(0, ((0, 2),)))
    return g


@pytest.mark.clause("2.5.4", "R-18", "3.5.6")
def test_added_card_goes_to_an_empty_slot_of_the_owners_choice():
    """An added card goes to an empty slot; with several the owner chooses; no new slot then (line 26)."""
    g = failed_own_pluck([None, "heron", None, "eagle"])
    before = zone(g, 0)
    assert g.pending.kind == "place" and g.pending.player == 0
    assert set(g.legal_actions()) == {Place(0, 1), Place(0, 3)}
    rejected(g, Place(0, 2), "illegal_target")  # occupied
    rejected(g, Place(0, 4), "illegal_target")
    rejected(g, Place(0, 5), "illegal_target")  # no new slot while one is empty
    rejected(g, Place(1, 1), "not_your_decision")
    penalty = g.to_json()["pending"]["data"]["card"]
    assert hidden_from(g, 0, penalty) and hidden_from(g, 1, penalty)  # drawn without looking (3.5.5)
    g.apply(Place(0, 3))
    after = zone(g, 0)
    assert [after[0], after[1], after[3]] == [None, before[1], before[3]]
    assert sp(after[2]) == "kingfisher"


@pytest.mark.clause("2.5.4", "R-18")
def test_added_card_takes_the_only_empty_slot():
    """With exactly one empty slot the added card goes there (line 26)."""
    g = failed_own_pluck(["eagle", "heron", None])
    before = zone(g, 0)
    assert g.pending.kind == "end_turn"
    assert zone(g, 0) == [before[0], before[1], zone(g, 0)[2]]
    assert sp(zone(g, 0)[2]) == "kingfisher"


@pytest.mark.clause("2.5.4", "R-18", "R-23")
def test_new_slot_is_created_only_when_no_slot_is_empty():
    """Without an empty slot a new slot is created; the other cards do not move (line 26)."""
    g = failed_own_pluck(["eagle", "heron"])
    before = zone(g, 0)
    assert len(before) == 3
    assert [sp(c) for c in before] == ["eagle", "heron", "kingfisher"]
    assert g.view(0)["zones"]["0"][2] == ANON  # the penalty card is added unseen


# --- 7.1: recycling --------------------------------------------------------------------------------
@pytest.mark.clause("7.1.1", "7.1.2", "7.1.3", "7.1.4", "7.1.5", "7.1.6", "7.2.1", "B.6")
def test_recycle_keeps_the_top_and_shuffles_the_rest_with_the_cards_under_the_pile():
    """Empty deck on a required draw: the top stays, the rest and the under-pile cards form the new deck."""
    g = position(zones={0: [None], 1: ["owl", "heron"]}, deck=[], discard=["sparrow"], under=["eagle", "flamingo"],
                 rest="discard")
    state = g.to_json()
    sparrow, under, old_pile = state["top"], state["under"], state["discard"][:-1]
    g.apply(Draw(0))  # a zero-card player must draw (B.6)
    assert g.pending.kind == "recycle" and g.pending.player is None
    assert sorted(g.pending.data["cards"]) == sorted(old_pile + under)
    assert "cards" not in g.view(1)["pending"]["data"]  # hidden cards are never revealed
    order = plain_first(g.pending.data["cards"], lead=("eagle",))
    rejected(g, Shuffle(order + (sparrow,)), "bad_chance_outcome")  # the top card is not recycled
    rejected(g, Shuffle(order[1:] + (sparrow,)), "bad_chance_outcome")
    rejected(g, Shuffle(order[1:]), "bad_chance_outcome")
    g.apply(Shuffle(order))
    state = g.to_json()
    assert state["discard"] == [sparrow] and state["under"] == []
    assert state["drawn"] == order[0]  # the interrupted draw resumes from the new deck
    assert state["deck"] == list(order[1:])
    assert state["recycles"] == 1 and state["final_phase"] is False
    assert g.pending.kind == "drawn" and g.pending.player == 0
    g.apply(Discard(0))
    g.apply(CloseWindow())
    assert g.pending.kind == "end_turn"  # the first recycle changes nothing: BAO may still be called


@pytest.mark.clause("7.1.7", "3.5.4", "3.5.9")
def test_own_draw_reference_stays_on_top_when_the_penalty_needs_a_recycle():
    """After a failed own-draw pluck, the reference stays face up on top through the recycle (line 280)."""
    g = position(zones={0: ["heron", None, "eagle"], 1: ["sparrow"]}, drawn="owl", deck=[], discard=["swallow"],
                 rest="discard")
    swallow = top(g)
    g.apply(Pluck(0, ((0, 1),)))
    owl = top(g)
    assert sp(owl) == "owl"
    assert g.pending.kind == "recycle"
    assert owl not in g.pending.data["cards"] and swallow in g.pending.data["cards"]
    order = plain_first(g.pending.data["cards"], lead=("kingfisher",))
    g.apply(Shuffle(order))
    assert g.to_json()["discard"] == [owl]
    assert zone(g, 0)[1] == order[0]  # the penalty card, in the only empty slot
    assert g.to_json()["recycles"] == 1


@pytest.mark.clause("7.1.1", "7.1.2", "7.1.6", "7.1.7", "6.7.1")
def test_recycle_before_the_toco_toucan_draw():
    """A power's draw from an empty deck recycles first; the Toucan on top stays (lines 278-280)."""
    g = position(zones={0: ["owl", None], 1: ["heron"]}, drawn="toco_toucan", deck=[], discard=["swallow"],
                 rest="discard", active=1)
    g.apply(Discard(1))
    g.apply(CloseWindow())
    g.apply(TocoAdd(1, 0))
    toco = top(g)
    assert sp(toco) == "toco_toucan"
    assert g.pending.kind == "recycle" and toco not in g.pending.data["cards"]
    order = plain_first(g.pending.data["cards"])
    g.apply(Shuffle(order))
    assert g.to_json()["discard"] == [toco]
    assert zone(g, 0)[1] == order[0]  # the interrupted Toucan draw resumes: the added card


@pytest.mark.clause("7.1.1", "7.1.6", "7.1.7", "6.9.2")
def test_recycle_between_the_two_shoebill_draws():
    """The Shoebill's second draw, from an empty deck, recycles between the two draws (line 280)."""
    g = position(zones={0: ["owl", "heron"], 1: ["eagle"]}, drawn="shoebill", deck=["kingfisher"],
                 discard=["swallow"], rest="discard")
    g.apply(Discard(0))
    g.apply(CloseWindow())
    assert g.pending.kind == "recycle"
    shoebill = top(g)
    assert sp(shoebill) == "shoebill" and shoebill not in g.pending.data["cards"]
    order = plain_first(g.pending.data["cards"])
    g.apply(Shuffle(order))
    assert g.pending.kind == "shoebill" and g.pending.player == 0
    assert [sp(c) for c in g.pending.data["cards"]] == ["kingfisher", sp(order[0])]
    assert g.pending.data["cards"][1] == order[0]
    assert g.to_json()["discard"] == [shoebill]


@pytest.mark.clause("7.1.8", "R-09", "2.6.1")
def test_impossible_draw_leaves_only_take_the_discard():
    """No card to rebuild the deck: drawing is impossible; taking the discard remains (line 282, R-09)."""
    zones = {0: ["owl", "heron"]}
    zones[1] = remaining(zones[0], ["sparrow"])
    g = position(zones=zones, deck=[], discard=["sparrow"], recycles=1)
    assert g.to_json()["deck"] == [] and len(g.to_json()["discard"]) == 1
    assert set(g.legal_actions()) == {TakeDiscard(0, 1), TakeDiscard(0, 2)}
    rejected(g, Draw(0), "deck_empty")
    g.apply(TakeDiscard(0, 1))
    assert g.pending.kind == "window"


@pytest.mark.clause("7.1.8", "R-09", "7.2.1")
def test_impossible_penalty_draw_is_skipped_and_not_counted_as_a_recycle():
    """An impossible draw is skipped alone; the rest goes on; no recycle is counted (line 282, R-09)."""
    zones = {0: ["owl", "heron"]}
    zones[1] = remaining(zones[0], ["sparrow"])
    g = position(zones=zones, deck=[], discard=["sparrow"], recycles=1)
    g.apply(TakeDiscard(0, 1))  # the Owl goes face up, the pile still holds one card
    rival = zone(g, 1)
    g.apply(Pluck(1, ((0, 2),)))  # a Heron is not an Owl: penalty, but nothing to draw
    state = g.to_json()
    assert zone(g, 1) == rival
    assert state["recycles"] == 1 and state["final_phase"] is False
    assert g.pending.kind == "end_turn" and g.pending.player == 0


@pytest.mark.clause("7.1.8", "R-09", "B.6", "B.7")
def test_zero_card_player_with_nothing_to_draw_goes_to_the_end_of_the_turn():
    """A zero-card player who can neither draw nor take does nothing; BAO may still be called (R-09)."""
    zones = {0: [None, None]}
    zones[1] = remaining(["sparrow"])
    g = position(zones=zones, deck=[], discard=["sparrow"])
    assert g.pending.kind == "end_turn" and g.pending.player == 0
    assert zone(g, 0) == [None, None] and len(g.to_json()["discard"]) == 1
    g.apply(CallBao(0))
    assert g.to_json()["bao"] == 0


# --- 7.2: the final phase after the second recycle -------------------------------------------------
def final_phase_table(**kw) -> Game:
    """3 players, one recycle done, empty deck; player 1 has no card and must draw (B.6)."""
    base = {"zones": {0: ["owl", "heron"], 1: [None], 2: ["kingfisher", "swallow"]}, "deck": [],
            "discard": ["sparrow"], "rest": "discard", "recycles": 1, "active": 1}
    base.update(kw)
    return position(**base)


@pytest.mark.clause("7.2.1", "7.2.2", "7.2.3", "7.2.4", "7.2.5", "7.2.6", "R-17")
def test_second_recycle_starts_the_final_phase_each_other_player_one_last_turn():
    """Second recycle: the active player finishes, every other player one last turn, no BAO, real totals."""
    g = final_phase_table()
    g.apply(Draw(1))
    g.apply(Shuffle(plain_first(g.pending.data["cards"])))
    state = g.to_json()
    assert state["recycles"] == 2 and state["final_phase"] is True
    assert g.pending.kind == "drawn" and g.pending.player == 1  # the interrupted draw goes on
    g.apply(Discard(1))
    g.apply(CloseWindow())
    assert g.pending.kind == "turn" and g.pending.player == 2  # no end-of-turn BAO decision
    rejected(g, CallBao(1), "bao_not_allowed")
    rejected(g, CallBao(2), "bao_not_allowed")
    played = [quiet_turn(g), quiet_turn(g)]
    assert played == [2, 0]
    state = g.to_json()
    assert state["round_scores"] == {"0": 11, "1": 0, "2": 7}
    assert state["round"] == 2 and g.pending.kind == "deal"  # the round is over; player 1 did not play again
    assert state["recycles"] == 0 and state["final_phase"] is False  # counted per round


@pytest.mark.clause("7.2.3", "7.2.5")
def test_final_phase_triggering_turn_still_has_its_window_and_power():
    """The active player completes the action, plucks and powers before the last turns (lines 288, 290)."""
    g = final_phase_table()
    g.apply(Draw(1))
    g.apply(Shuffle(plain_first(g.pending.data["cards"], lead=("white_pelican",))))
    g.apply(Discard(1))
    assert g.pending.kind == "window" and set(g.pending.players) == {0, 2}
    g.apply(CloseWindow())
    assert g.pending.kind == "white_pelican" and g.pending.player == 1
    g.apply(PeekAt(1, (2, 1)))
    assert g.pending.kind == "turn" and g.pending.player == 2


@pytest.mark.clause("7.2.3", "7.2.4", "R-06", "7.1.7")
def test_final_phase_triggered_by_a_rivals_penalty_anchors_on_the_active_player():
    """A rival's penalty causes the second recycle: the others, penalized one included, get a last turn (R-06)."""
    g = position(zones={0: ["owl", "heron"], 1: ["eagle", "flamingo"], 2: ["kingfisher", "swallow"]},
                 drawn="owl", deck=[], discard=["sparrow"], rest="discard", recycles=1, active=0)
    g.apply(Discard(0))
    g.apply(Pluck(1, ((2, 1),)))  # a Kingfisher is not an Owl: penalty, deck empty
    assert g.pending.kind == "recycle"
    order = plain_first(g.pending.data["cards"], lead=("hummingbird",))
    g.apply(Shuffle(order))
    assert g.to_json()["final_phase"] is True
    assert zone(g, 1)[2] == order[0]  # the penalty card in a new slot
    assert g.pending.kind == "turn" and g.pending.player == 1  # player 0's turn ends without BAO
    assert [quiet_turn(g), quiet_turn(g)] == [1, 2]
    assert g.pending.kind == "deal" and g.to_json()["round"] == 2


@pytest.mark.clause("7.2.4", "7.2.5", "7.2.6", "4.1.4", "4.1.5", "R-05")
def test_final_phase_after_bao_lifts_the_shield_scores_ordinary_totals_and_keeps_the_last_turns():
    """After BAO, a second recycle (R-05, reading B): the shield lapses and everyone scores the real total
    (lines 290, 291), but the caller plays no more (156, 346) and the round ends after the last rival (158)."""
    g = final_phase_table(bao=0, shield="active")
    assert g.to_json()["shield"] == "active" and g.to_json()["last_turns"] == [2]
    g.apply(Draw(1))
    g.apply(Shuffle(plain_first(g.pending.data["cards"], lead=("owl",))))
    assert g.to_json()["shield"] == "none" and g.to_json()["final_phase"] is True
    g.apply(Discard(1))  # an Owl
    g.apply(Pluck(2, ((0, 1),)))  # player 2 plucks the caller's Owl: no shield any more
    g.apply(Gift(2, 1))  # and gives the Kingfisher in its place
    assert kinds(g, 0) == ["kingfisher", "heron"]
    assert g.pending.kind == "turn" and g.pending.player == 2
    assert quiet_turn(g) == 2
    assert g.pending.kind == "deal"  # the BAO caller does not play again
    # A failed BAO with 10 points against a rival's 3 would score 20; the final phase scores the real total.
    assert g.to_json()["round_scores"] == {"0": 10, "1": 0, "2": 3}


def bao_last_turn_recycle(reading: str | None) -> Game:
    """Player 2 plays the last BAO turn (player 1 already did) and its draw is the second recycle."""
    params = None if reading is None else replace(default_params(), rulings={"R-05": reading})
    g = position(zones={0: ["owl", "heron"], 1: ["kingfisher", "swallow"], 2: [None]}, deck=[],
                 discard=["sparrow"], rest="discard", recycles=1, active=2, bao=0, params=params)
    assert g.to_json()["last_turns"] == []
    g.apply(Draw(2))
    g.apply(Shuffle(plain_first(g.pending.data["cards"])))
    g.apply(Discard(2))
    g.apply(CloseWindow())
    return g


# R-05's readings (spec/rulings.yaml): who plays after the second recycle, and how player 0 (BAO, 11
# points against 7) scores: B ordinary 11, C a failed BAO max(2 x 11, 5) = 22.
R05_READINGS = {None: ([], 11), "B": ([], 11), "A": ([0, 1], 11), "C": ([], 22), "D": ([1], 11)}


@pytest.mark.clause("7.2.4", "7.2.6", "4.1.4", "4.1.5", "R-05")
@pytest.mark.parametrize("reading", list(R05_READINGS))
def test_second_recycle_in_the_last_bao_turn_under_each_reading(reading):
    """Default and B: the round ends, nobody plays twice; A: caller and player 1 play again; C: BAO scored;
    D: player 1 plays again, the caller does not."""
    g = bao_last_turn_recycle(reading)
    turns, caller_score = R05_READINGS[reading]
    assert [quiet_turn(g) for _ in turns] == turns
    assert g.pending.kind == "deal"
    assert g.to_json()["round_scores"] == {"0": caller_score, "1": 7, "2": 0}


@pytest.mark.clause("R-05", "R-07")
def test_a_reading_the_reference_does_not_implement_is_refused():
    for rulings in ({"R-05": "E"}, {"R-99": "A"}, {"R-11": "B"}):
        with pytest.raises(RuleError, match="readings the reference does not implement"):
            Game(players=2, params=replace(default_params(), rulings=rulings))


# --- annex B: zero cards ---------------------------------------------------------------------------
def zero_table(**kw) -> Game:
    base = {"zones": {0: [None, None], 1: ["owl", "heron"], 2: ["eagle", "flamingo"]}, "deck": ["owl"]}
    base.update(kw)
    return position(**base)


@pytest.mark.clause("B.2", "B.3", "B.4", "B.6", "2.6.6")
def test_zero_card_player_must_draw_and_discard_and_cannot_pluck():
    """With zero cards: draw, look, discard directly; no take, no keep, no pluck (lines 297-300)."""
    g = zero_table()
    assert g.legal_actions() == [Draw(0)]
    rejected(g, TakeDiscard(0, 1), "no_cards")
    g.apply(Draw(0))
    assert sp(g.view(0)["drawn"]) == "owl"
    assert list(g.legal_actions()) == [Discard(0)]
    rejected(g, Keep(0, 1), "no_cards")
    rejected(g, Pluck(0, ((1, 1),)), "no_cards")  # the rival's Owl matches, but there is no card to give
    rejected(g, Pluck(0, ((1, 1), (1, 2))), "no_cards")
    rejected(g, Pluck(0, ((0, 1),)), "illegal_target")  # no own card to remove
    g.apply(Discard(0))
    assert g.pending.kind == "window" and 0 not in g.pending.players


@pytest.mark.clause("B.3", "B.5", "R-10", "R-20")
def test_zero_card_player_cannot_claim_and_cannot_be_plucked():
    """A zero-card player has no valid claim, and no rival can target their empty zone (lines 297, 299)."""
    g = zero_table(zones={0: ["owl", "heron"], 1: [None, None], 2: ["owl", "eagle"]}, drawn="owl")
    g.apply(Discard(0))
    assert g.pending.kind == "window"
    rejected(g, Pluck(1, ((2, 1),)), "no_cards")
    rejected(g, Pluck(1, ((1, 1),)), "illegal_target")
    rejected(g, Pluck(2, ((1, 1),)), "illegal_target")
    rejected(g, Pluck(2, ((1, 3),)), "illegal_target")
    g.apply(Pluck(2, ((2, 1),)))  # the window is still open for a valid claim
    assert zone(g, 2)[0] is None


@pytest.mark.clause("B.6", "6.1.2")
def test_zero_card_players_discard_power_resolves_after_the_window():
    """A zero-card player's discarded card keeps its power, resolved after the others' chance (line 300)."""
    g = zero_table(deck=["white_pelican"])
    g.apply(Draw(0))
    g.apply(Discard(0))
    assert g.pending.kind == "window" and set(g.pending.players) == {1, 2}
    g.apply(CloseWindow())
    assert g.pending.kind == "white_pelican" and g.pending.player == 0
    g.apply(PeekAt(0, (1, 2)))
    assert g.view(0)["zones"]["1"][1]["species"] == "heron"


@pytest.mark.clause("B.1", "B.7", "5.2.4")
@pytest.mark.parametrize("rival,score", [(["owl"], 0), ([None], 5), (["golden_toucan"], 5)])
def test_zero_card_player_may_call_bao_tie_or_negative_rival_fails(rival, score):
    """Zero cards total 0 and may still call BAO; a tie at 0 or a negative rival makes it fail (line 301)."""
    g = position(zones={0: [None], 1: rival}, deck=["sparrow", "swallow"])
    g.apply(Draw(0))
    g.apply(Discard(0))
    if g.pending.kind == "window":
        g.apply(CloseWindow())
    assert g.pending.kind == "end_turn" and g.pending.player == 0
    g.apply(CallBao(0))
    assert quiet_turn(g) == 1  # the rival's last turn
    totals = {"owl": 5, "golden_toucan": -5, None: 0}
    assert g.to_json()["round_scores"] == {"0": score, "1": totals[rival[0]]}


@pytest.mark.clause("B.8", "6.7.1", "6.7.2", "2.5.4", "R-18")
def test_toco_toucan_gives_a_zero_card_player_a_card_back():
    """A rival's Toco Toucan adds an unseen card to an old empty slot the receiver chooses (line 303)."""
    g = position(zones={0: [None, None, None], 1: ["owl", "eagle"]}, drawn="toco_toucan", deck=["kingfisher"],
                 active=1)
    g.apply(Discard(1))  # nobody can claim: player 0 has no card
    assert g.pending.kind == "toco_toucan" and g.pending.player == 1
    g.apply(TocoAdd(1, 0))
    assert g.pending.kind == "place" and g.pending.player == 0
    assert set(g.legal_actions()) == {Place(0, 1), Place(0, 2), Place(0, 3)}
    rejected(g, Place(1, 2), "not_your_decision")
    rejected(g, Place(0, 4), "illegal_target")
    g.apply(Place(0, 2))
    assert kinds(g, 0) == [None, "kingfisher", None]
    assert g.view(0)["zones"]["0"][1] == ANON and g.view(1)["zones"]["0"][1] == ANON  # nobody looks
    g.apply(EndTurn(1))
    assert g.pending.kind == "turn" and g.pending.player == 0
    assert set(g.legal_actions()) == {Draw(0), TakeDiscard(0, 2)}  # normal actions again


# --- view(player) ----------------------------------------------------------------------------------
@pytest.mark.clause("2.2.1", "2.6.2", "2.7.3", "3.5.2")
def test_view_shows_only_what_the_player_has_seen():
    """A card the player has seen keeps its identity in their view; unseen hidden cards are anonymous."""
    g = position(zones={0: ["owl", "heron", "eagle"], 1: ["kingfisher", "swallow"]}, deck=["flamingo"],
                 known={0: [(0, 1), (1, 2)], 1: []})
    v0, v1 = g.view(0), g.view(1)
    assert [c["species"] for c in v0["zones"]["0"]] == ["owl", None, None]
    assert v0["zones"]["1"] == [ANON, {"card": zone(g, 1)[1], "species": "swallow"}]
    assert all(c == ANON for z in v1["zones"].values() for c in z)  # not even own unseen cards
    assert "deck" not in v0 and v0["deck_count"] == len(g.to_json()["deck"])
    eagle = zone(g, 0)[2]
    g.apply(Draw(0))
    g.apply(Keep(0, 3))  # the Eagle goes face up, the Flamingo takes slot 3 unseen by player 1
    assert g.view(0)["zones"]["0"][2]["species"] == "flamingo"
    assert g.view(1)["zones"]["0"][2] == ANON
    assert g.view(1)["top"] == eagle
    g.apply(Pluck(1, ((0, 2),)))  # a Heron is not an Eagle: the Heron is shown to everyone
    assert g.view(1)["zones"]["0"][1]["species"] == "heron"
    assert g.view(0)["zones"]["0"][1]["species"] == "heron"


@pytest.mark.clause("2.8.3", "2.8.4")
def test_view_card_taken_from_the_discard_is_known_to_everyone():
    """The taken card was face up, so every player knows it in its new slot (lines 51-55)."""
    g = table(zones={0: ["owl", "cuckoo"], 1: ["kingfisher"]})
    g.apply(TakeDiscard(0, 1))
    for viewer in (0, 1):
        assert g.view(viewer)["zones"]["0"][0]["species"] == "macaw"
        assert g.view(viewer)["zones"]["0"][1] == ANON


@pytest.mark.clause("6.5.2", "2.5.5")
def test_view_a_known_card_keeps_its_identity_when_swapped():
    """Swapped cards keep their identity; a player who knew one still knows it in its new slot (line 230)."""
    g = position(zones={0: ["owl", "heron"], 1: ["eagle", "kingfisher"]}, drawn="cuckoo", active=1,
                 known={0: [(0, 1)], 1: [(1, 2)]})
    g.apply(Discard(1))
    g.apply(CloseWindow())
    assert g.pending.kind == "blind_swap"
    g.apply(BlindSwap(1, (0, 1), (1, 2)))
    assert kinds(g, 0)[0] == "kingfisher" and kinds(g, 1)[1] == "owl"
    assert g.view(0)["zones"]["1"][1]["species"] == "owl"
    assert g.view(0)["zones"]["0"][0] == ANON
    assert g.view(1)["zones"]["0"][0]["species"] == "kingfisher"
