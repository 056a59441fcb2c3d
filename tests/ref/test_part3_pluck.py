"""Part 3 of the rulebook: plucking (¡DESPLUMADO!), checked against the reference interpreter.

Every expectation comes from the rulebook text (spec/rulebook/000_*.txt, lines 61-148, FAQ 314-336)
or, where the text is silent, from the rulings register (R-04, R-10, R-14, R-16, R-18).
"""

from __future__ import annotations

import pytest
from _rules import rejected as reject

from baobei_ref import Game
from baobei_ref.actions import (
    ChooseFirstPlayer,
    CloseWindow,
    Discard,
    Draw,
    Gift,
    InitialPeek,
    Keep,
    Place,
    Pluck,
    Shuffle,
    SimultaneousPlucks,
    TakeDiscard,
)
from baobei_ref.powers.peek import PeekAt
from baobei_ref.powers.show import ShowCard
from baobei_ref.setup import position

# Plain birds without a power: they keep powers out of the way unless a test wants one.
THREE = {
    0: ["owl", "heron", "eagle"],
    1: ["owl", "sparrow", "swallow"],
    2: ["heron", "kingfisher", "flamingo"],
}
# A claim on a table where no window is open: which code answers it is not fixed (see the report).
NO_WINDOW = ("not_your_decision", "wrong_decision")


# --- helpers ----------------------------------------------------------------------------------------
def js(g: Game) -> dict:
    return g.to_json()


def zone(g: Game, p: int) -> list[str | None]:
    """Species by slot of player ``p`` (None: empty slot)."""
    return [None if c is None else c["species"] for c in js(g)["zones"][str(p)]]


def card(g: Game, p: int, slot: int) -> str | None:
    c = js(g)["zones"][str(p)][slot - 1]
    return None if c is None else c["card"]


def count(g: Game, p: int) -> int:
    return sum(1 for c in zone(g, p) if c is not None)


def species(card_id: str) -> str:
    return card_id.rsplit("-", 1)[0]


def seen_by(g: Game, card_id: str) -> list[int]:
    return sorted(js(g)["seen"].get(card_id, []))



def own_draw(zones=None, drawn="owl", **kw) -> Game:
    """Player 0 holds the card just drawn (own-draw moment, 3.2.2)."""
    g = position(zones=zones or THREE, drawn=drawn, active=0, **kw)
    assert g.pending.kind == "drawn" and g.pending.player == 0
    return g


def window(zones=None, drawn="owl", active=0, **kw) -> Game:
    """The active player discards ``drawn`` directly (2.7.4): the reaction window on it is open."""
    g = position(zones=zones or THREE, drawn=drawn, active=active, **kw)
    g.apply(Discard(active))
    assert g.pending.kind == "window"
    return g


def answer_powers(g: Game) -> list[tuple[str, int]]:
    """Answer pelican power decisions in the order they come; return (decision, player) for each."""
    seen = []
    while g.pending.kind in ("white_pelican", "brown_pelican"):
        p = g.pending.player
        seen.append((g.pending.kind, p))
        target = next((o, s) for o in range(len(js(g)["zones"])) for s in range(1, 9)
                      if o != p and g.state.card_at((o, s)) is not None)
        g.apply(PeekAt(p, target) if g.pending.kind == "white_pelican" else ShowCard(p, target))
    return seen


# --- 3.1.6 - 3.1.9: matching by species or family, never by value --------------------------------
MATCHING = [
    ("owl", "owl"),
    ("white_pelican", "brown_pelican"),
    ("brown_pelican", "white_pelican"),
    ("toco_toucan", "golden_toucan"),
    ("golden_toucan", "toco_toucan"),
    ("shoebill", "shoebill"),
]
NOT_MATCHING = [
    ("shoebill", "toco_toucan"),
    ("toco_toucan", "shoebill"),
    ("shoebill", "golden_toucan"),
    ("golden_toucan", "shoebill"),
    ("owl", "heron"),
    ("white_pelican", "cuckoo"),
]


@pytest.mark.clause("3.1.1", "3.1.6", "3.1.7", "3.1.8", "3.3.1", "FAQ-01", "FAQ-02")
@pytest.mark.parametrize(("reference", "target"), MATCHING)
def test_same_species_or_family_matches(reference, target):
    """A target of the same species, or of the pelican or toucan family, is a successful pluck."""
    g = own_draw({0: [target, "heron", "eagle"], 1: ["owl", "sparrow", "swallow"]}, drawn=reference)
    removed = card(g, 0, 1)
    g.apply(Pluck(0, ((0, 1),)))
    assert zone(g, 0) == [None, "heron", "eagle"]
    assert removed in js(g)["discard"]


@pytest.mark.clause("3.1.1", "3.1.6", "3.1.9", "3.5.1", "FAQ-03")
@pytest.mark.parametrize(("reference", "target"), NOT_MATCHING)
def test_other_species_never_matches_even_at_equal_value(reference, target):
    """Shoebill and toucans (both 13) do not match; neither do any two birds of different families."""
    g = own_draw({0: [target, "heron", "eagle"], 1: ["owl", "sparrow", "swallow"]}, drawn=reference)
    kept = card(g, 0, 1)
    g.apply(Pluck(0, ((0, 1),)))
    assert card(g, 0, 1) == kept  # 3.5.3: back in its slot
    assert count(g, 0) == 4  # 3.5.6: one penalty card


@pytest.mark.clause("3.1.7", "3.1.4", "3.2.3", "FAQ-01")
def test_brown_pelican_discard_lets_a_rival_pluck_a_white_pelican():
    """In a reaction window too, a White Pelican matches a Brown Pelican reference."""
    g = window({0: ["owl", "heron"], 1: ["white_pelican", "sparrow"]}, drawn="brown_pelican")
    g.apply(Pluck(1, ((1, 1),)))
    assert zone(g, 1) == [None, "sparrow"]


# --- 3.2.2: the own-draw moment --------------------------------------------------------------------
@pytest.mark.clause("3.1.2", "3.1.3", "3.2.1", "3.2.2", "FAQ-04")
def test_drawer_may_pluck_before_keeping_or_discarding():
    """Right after drawing, the active player may pluck with the drawn card; keep/discard does not happen."""
    g = position(zones=THREE, deck=["owl"], active=0)
    g.apply(Draw(0))
    drawn = js(g)["drawn"]
    g.apply(Pluck(0, ((0, 1),)))
    assert js(g)["drawn"] is None
    assert zone(g, 0) == [None, "heron", "eagle"]
    assert drawn in js(g)["discard"]
    reject(g, Keep(0, 2), "wrong_decision", "not_your_decision")


@pytest.mark.clause("3.2.2", "3.1.3", "R-10", "FAQ-04")
@pytest.mark.parametrize("player", [1, 2])
def test_only_the_drawer_may_use_the_drawn_card(player):
    """At the own-draw moment nobody but the active player may claim (R-10: rejected, nothing changes)."""
    g = own_draw()
    reject(g, Pluck(player, ((1, 1),)), "not_your_decision")
    assert g.pending.kind == "drawn"


@pytest.mark.clause("3.2.2", "3.2.3", "2.7.4")
def test_after_discarding_the_drawer_can_no_longer_pluck_with_it():
    """The own-draw pluck comes before keep/discard; once discarded, the card is the others' reference."""
    g = window()
    reject(g, Pluck(0, ((0, 1),)), "not_your_decision")
    assert g.pending.players == (1, 2)


# --- 3.2.3 / R-14: which discards open a window, and for whom --------------------------------------
def _discard_directly(g):
    g.apply(Draw(0))
    g.apply(Discard(0))


def _keep(g):
    g.apply(Draw(0))
    g.apply(Keep(0, 1))


def _take(g):
    g.apply(TakeDiscard(0, 1))


@pytest.mark.clause("3.2.1", "3.2.3", "3.1.4", "2.7.3", "2.7.4", "2.8.5", "R-14")
@pytest.mark.parametrize("normal_discard", [_discard_directly, _keep, _take], ids=["direct", "keep", "take"])
def test_normal_discards_open_a_window_for_everyone_but_the_active_player(normal_discard):
    """Each of the three normal discards opens a window for all players except the active one."""
    # deck top owl (discarded directly) / eagle (kept over the owl in slot 1); discard top eagle (taken)
    deck = ["owl"] if normal_discard is _discard_directly else ["eagle"]
    g = position(zones=THREE, deck=deck, discard=["hummingbird", "eagle"], active=0)
    normal_discard(g)
    assert g.pending.kind == "window"
    assert set(g.pending.players) == {1, 2}
    assert species(js(g)["top"]) == "owl"
    reject(g, Pluck(0, ((0, 2),)), "not_your_decision")
    g.apply(Pluck(1, ((1, 1),)))  # the rival's owl matches the discarded owl
    assert zone(g, 1) == [None, "sparrow", "swallow"]


def _setup_round(first_discard: str) -> Game:
    g = Game(players=2)
    g.apply(ChooseFirstPlayer(0))
    cards = [c for c in g.pending.data["cards"] if c != first_discard]
    cards.insert(10, first_discard)  # 2 players x 5 dealt (2.1.2), the 11th card is turned up (2.3.1)
    g.apply(Shuffle(tuple(cards)))
    while g.pending.kind == "initial_peek":
        g.apply(InitialPeek(g.pending.player, (1, 2)))
    return g


@pytest.mark.clause("3.2.7", "2.3.1", "FAQ-10")
def test_neutral_first_discard_opens_no_window_and_no_power():
    """The card turned up at setup is neutral: the first turn starts, no window, no power (a pelican here)."""
    g = _setup_round("white_pelican-1")
    assert js(g)["top"] == "white_pelican-1"
    assert g.pending.kind == "turn" and g.pending.player == 0
    reject(g, Pluck(1, ((1, 1),)), *NO_WINDOW)


@pytest.mark.clause("3.2.7", "3.1.10", "3.3.6", "R-14", "FAQ-11")
def test_card_removed_by_own_draw_pluck_opens_no_window():
    """The removed card lands visible on top but opens no window: no chained plucks."""
    g = own_draw()
    g.apply(Pluck(0, ((0, 1),)))
    assert species(js(g)["top"]) == "owl"
    assert g.pending.kind == "end_turn"
    reject(g, Pluck(1, ((1, 1),)), *NO_WINDOW)


@pytest.mark.clause("3.2.7", "3.1.10", "R-14", "FAQ-11")
def test_card_removed_in_a_window_opens_no_new_window():
    """A card removed in a reaction window is on top of the pile but nobody may pluck with it."""
    zones = {0: ["owl", "heron"], 1: ["heron", "sparrow"], 2: ["owl", "heron"]}
    g = window(zones, drawn="heron")
    g.apply(Pluck(1, ((1, 1),)))
    assert species(js(g)["top"]) == "heron"
    assert g.pending.kind == "end_turn"
    reject(g, Pluck(2, ((2, 2),)), *NO_WINDOW)


@pytest.mark.clause("6.4.2", "FAQ-08", "R-14")
def test_card_shown_by_brown_pelican_is_no_reference():
    """Showing a card (Brown Pelican power) opens no pluck."""
    g = window({0: ["owl", "heron"], 1: ["owl", "sparrow"], 2: ["heron", "kingfisher"]}, drawn="brown_pelican")
    g.apply(CloseWindow())
    assert g.pending.kind == "brown_pelican"
    g.apply(ShowCard(0, (1, 1)))
    assert g.pending.kind == "end_turn"
    reject(g, Pluck(2, ((2, 1),)), *NO_WINDOW)


# --- 3.1.10 / 3.2.5 / 3.5.8: one attempt per reference --------------------------------------------
@pytest.mark.clause("3.1.10", "3.2.5", "3.5.8")
def test_failed_attempt_uses_up_the_reference():
    """After a failed claim nobody may claim on that reference, even with a matching target."""
    g = window()
    g.apply(Pluck(1, ((1, 2),)))  # sparrow: wrong bird
    assert g.pending.kind != "window"
    reject(g, Pluck(2, ((0, 1),)), *NO_WINDOW)  # player 0's owl would match
    assert card(g, 0, 1) is not None


@pytest.mark.clause("3.1.10", "3.2.5")
def test_successful_attempt_closes_the_window():
    """After a successful claim the window is closed for the others."""
    zones = {0: ["owl", "heron"], 1: ["owl", "sparrow"], 2: ["owl", "heron"]}
    g = window(zones)
    g.apply(Pluck(1, ((1, 1),)))
    reject(g, Pluck(2, ((2, 1),)), *NO_WINDOW)
    assert zone(g, 2) == ["owl", "heron"]


@pytest.mark.clause("3.1.10", "3.5.4", "3.5.8")
def test_failed_own_draw_pluck_ends_the_use_of_the_drawn_card():
    """After a failed own-draw pluck the drawn card is discarded: no keep, no second claim, no window."""
    g = own_draw()
    g.apply(Pluck(0, ((0, 2),)))  # heron: wrong bird
    assert g.pending.kind == "end_turn"
    reject(g, Pluck(0, ((0, 1),)), "wrong_decision", "not_your_decision")
    reject(g, Keep(0, 1), "wrong_decision", "not_your_decision")


# --- R-10 / 3.2.6: claims that are not attempts ----------------------------------------------------
@pytest.mark.clause("3.2.4", "3.2.6", "R-10")
@pytest.mark.parametrize("target", [(1, 2), (1, 9), (2, 4)], ids=["empty", "no-such-slot", "rival-no-such-slot"])
def test_claim_on_no_card_is_no_attempt(target):
    """Naming an empty or non-existent slot is rejected; the window stays open for everyone."""
    g = window({0: ["owl", "heron"], 1: ["owl", None, "sparrow"], 2: ["heron", "owl", "eagle"]})
    reject(g, Pluck(1, (target,)), "illegal_target")
    assert g.pending.kind == "window" and set(g.pending.players) == {1, 2}
    g.apply(Pluck(2, ((2, 2),)))  # another player may still claim
    assert zone(g, 2) == ["heron", None, "eagle"]


@pytest.mark.clause("3.2.6", "R-10")
def test_invalid_claim_leaves_the_claimant_free_to_claim():
    """A rejected claim is no attempt: the same player keeps the chance (R-10: nothing changes)."""
    g = window({0: ["owl", "heron"], 1: ["owl", None, "sparrow"], 2: ["heron", "eagle"]})
    reject(g, Pluck(1, ((1, 2),)), "illegal_target")
    g.apply(Pluck(1, ((1, 1),)))
    assert zone(g, 1) == [None, None, "sparrow"]


@pytest.mark.clause("3.6.1", "3.2.8", "R-10")
def test_double_pluck_naming_one_card_twice_is_no_attempt():
    """A double pluck names two different cards."""
    g = window()
    reject(g, Pluck(1, ((1, 1), (1, 1))), "illegal_target")
    assert g.pending.kind == "window"


@pytest.mark.clause("3.6.1", "R-10")
def test_double_pluck_with_one_empty_target_is_no_attempt():
    """One target naming an empty slot makes the whole double claim void, not a failure."""
    g = window({0: ["owl", "heron"], 1: ["owl", None, "sparrow"], 2: ["heron", "eagle"]})
    reject(g, Pluck(1, ((1, 1), (1, 2))), "illegal_target")
    assert g.pending.kind == "window"


@pytest.mark.clause("3.2.3", "3.6.1", "R-10")
def test_active_player_may_not_claim_in_own_window():
    """The active player never claims (single or double) on their own discard; the window stays open."""
    g = window()
    reject(g, Pluck(0, ((0, 1),)), "not_your_decision")
    reject(g, Pluck(0, ((0, 1), (1, 1))), "not_your_decision")
    assert g.pending.kind == "window"


@pytest.mark.clause("3.4.1", "3.4.6", "B.3", "R-10", "FAQ-07")
def test_offensive_pluck_needs_an_own_card():
    """With zero cards a rival target may not be named; the window stays open."""
    g = window({0: ["owl", "heron"], 1: [None, None], 2: ["owl", "heron"]})
    reject(g, Pluck(1, ((2, 1),)), "no_cards")
    reject(g, Pluck(1, ((0, 1),)), "no_cards")
    assert g.pending.kind == "window"
    g.apply(Pluck(2, ((2, 1),)))
    assert zone(g, 2) == [None, "heron"]


@pytest.mark.clause("3.4.1", "B.3", "B.6", "R-10")
def test_zero_card_drawer_may_not_pluck_a_rival_with_the_drawn_card():
    """A zero-card player has no own-draw pluck on a rival: no card to give."""
    g = own_draw({0: [None, None], 1: ["owl", "sparrow"]})
    reject(g, Pluck(0, ((1, 1),)), "no_cards")
    assert g.pending.kind == "drawn"


@pytest.mark.clause("3.6.3", "R-10")
@pytest.mark.parametrize(
    "targets",
    [((1, 1), (2, 1)), ((2, 1), (1, 1)), ((2, 1), (2, 2)), ((2, 1), (0, 1))],
    ids=["own-then-rival", "rival-then-own", "same-rival", "two-rivals"],
)
def test_double_pluck_needs_one_spare_own_card_per_rival_target(targets):
    """Each rival target needs an own card to give that is not itself a target."""
    g = window({0: ["owl", "heron"], 1: ["owl"], 2: ["owl", "owl"]})
    reject(g, Pluck(1, targets), "no_cards")
    assert g.pending.kind == "window"


@pytest.mark.clause("4.2.7", "3.6.2", "R-10")
def test_claim_on_a_shielded_card_is_no_attempt():
    """A rival may not name a card protected by an active BAO shield; the caller may name their own."""
    zones = {0: ["owl", "heron"], 1: ["owl", "sparrow"], 2: ["heron", "eagle"]}
    g = window(zones, active=2, bao=1, shield="active")  # player 2's last turn; player 0's still to come
    reject(g, Pluck(0, ((1, 1),)), "shielded")
    reject(g, Pluck(0, ((0, 1), (1, 1))), "shielded")
    assert g.pending.kind == "window"
    g.apply(Pluck(1, ((1, 1),)))
    assert zone(g, 1) == [None, "sparrow"]


# --- 3.2.5 / R-16: simultaneous claims -------------------------------------------------------------
FOUR = {0: ["owl", "heron"], 1: ["owl", "heron"], 2: ["owl", "heron"], 3: ["owl", "heron"]}


@pytest.mark.clause("3.2.5", "R-16")
@pytest.mark.parametrize(
    ("active", "claimants", "winner"),
    [(0, (2, 1), 1), (0, (3, 2), 2), (2, (0, 3), 3), (3, (1, 0), 0), (1, (0, 3), 3)],
)
def test_simultaneous_claims_nearest_clockwise_to_active_wins(active, claimants, winner):
    """Undecidable order: the claimant nearest clockwise to the active player makes the one attempt."""
    g = window(FOUR, active=active)
    claims = tuple(Pluck(p, ((p, 1),)) for p in claimants)
    g.apply(SimultaneousPlucks(claims))
    for p in claimants:
        assert zone(g, p) == ([None, "heron"] if p == winner else ["owl", "heron"])
    assert g.pending.kind != "window"


@pytest.mark.clause("3.2.5", "3.5.6", "R-16")
def test_simultaneous_claims_only_the_winner_is_penalised():
    """The priority claim fails: only its claimant gets a penalty; the void claim changes nothing."""
    g = window(FOUR, active=0)
    g.apply(SimultaneousPlucks((Pluck(2, ((2, 1),)), Pluck(1, ((1, 2),)))))  # 1 has priority, wrong bird
    assert count(g, 1) == 3
    assert zone(g, 2) == ["owl", "heron"]
    assert g.pending.kind != "window"


@pytest.mark.clause("3.2.5", "3.2.6", "R-10", "R-16")
def test_simultaneous_invalid_nearest_claim_gives_no_priority():
    """A claim that is not an attempt gets no priority: the valid claim of a farther player wins."""
    g = window({0: ["owl", "heron"], 1: ["owl", None], 2: ["owl", "heron"]}, active=0)
    g.apply(SimultaneousPlucks((Pluck(1, ((1, 2),)), Pluck(2, ((2, 1),)))))
    assert zone(g, 1) == ["owl", None]
    assert zone(g, 2) == [None, "heron"]


@pytest.mark.clause("3.2.5", "3.2.6", "R-10", "R-16")
def test_simultaneous_claims_all_invalid_are_rejected():
    """When no simultaneous claim is an attempt, nothing happens and the window stays open."""
    g = window({0: ["owl", "heron"], 1: ["owl", None], 2: ["owl", None]}, active=0)
    reject(g, SimultaneousPlucks((Pluck(1, ((1, 2),)), Pluck(2, ((2, 2),)))), "illegal_target")
    assert g.pending.kind == "window"


@pytest.mark.clause("3.2.3", "3.2.5", "R-10", "R-16")
def test_simultaneous_claim_of_the_active_player_is_void():
    """The active player's claim in their own window is void even among simultaneous claims."""
    g = window(FOUR, active=1)
    g.apply(SimultaneousPlucks((Pluck(1, ((1, 1),)), Pluck(3, ((3, 1),)))))
    assert zone(g, 1) == ["owl", "heron"]
    assert zone(g, 3) == [None, "heron"]


# --- 3.3: success on an own card -------------------------------------------------------------------
@pytest.mark.clause("3.3.1", "3.3.2", "3.3.3", "3.3.4", "3.3.5")
def test_own_card_success_in_window_leaves_the_slot_empty():
    """The own matching card is shown, goes on the discard pile, its slot stays empty, nothing moves."""
    g = window({0: ["owl", "heron"], 1: ["sparrow", "owl", "swallow"], 2: ["heron", "eagle"]})
    reference = js(g)["top"]
    removed = card(g, 1, 2)
    g.apply(Pluck(1, ((1, 2),)))
    assert zone(g, 1) == ["sparrow", None, "swallow"]
    assert js(g)["discard"][-2:] == [reference, removed]
    assert seen_by(g, removed) == [0, 1, 2]
    assert zone(g, 0) == ["owl", "heron"] and zone(g, 2) == ["heron", "eagle"]


@pytest.mark.clause("3.3.6", "3.3.1", "3.3.4")
def test_own_card_success_after_own_draw_discards_drawn_then_removed():
    """Own-draw success: the drawn card goes down first, the removed card on top of it."""
    g = own_draw()
    drawn, removed = js(g)["drawn"], card(g, 0, 1)
    g.apply(Pluck(0, ((0, 1),)))
    assert js(g)["discard"][-2:] == [drawn, removed]
    assert js(g)["top"] == removed
    assert zone(g, 0) == [None, "heron", "eagle"]


# --- 3.4: offensive success ----------------------------------------------------------------------------
@pytest.mark.clause("3.4.2", "3.4.3", "3.4.4", "3.4.5", "3.4.6")
def test_offensive_success_gift_fills_the_rivals_slot():
    """The rival's card is removed; the claimant's chosen card takes exactly its slot."""
    g = window({0: ["owl", "heron"], 1: ["sparrow", "swallow", "kingfisher"], 2: ["heron", "owl", "eagle"]})
    removed = card(g, 2, 2)
    g.apply(Pluck(1, ((2, 2),)))
    assert js(g)["top"] == removed
    assert seen_by(g, removed) == [0, 1, 2]
    assert g.pending.kind == "gift" and g.pending.player == 1
    gift = card(g, 1, 3)
    g.apply(Gift(1, 3))
    assert card(g, 2, 2) == gift
    assert zone(g, 2) == ["heron", "kingfisher", "eagle"]  # the rival keeps three cards
    assert zone(g, 1) == ["sparrow", "swallow", None]  # the claimant has one card fewer


@pytest.mark.clause("3.4.4", "R-10")
def test_gift_decision_refuses_other_players_and_empty_slots():
    """Only the claimant gives, and only a card they hold."""
    g = window({0: ["owl", "heron"], 1: ["sparrow", None, "kingfisher"], 2: ["owl", "eagle"]})
    g.apply(Pluck(1, ((2, 1),)))
    assert g.pending.kind == "gift"
    reject(g, Gift(2, 2), "not_your_decision")
    reject(g, Gift(1, 2), "illegal_target")
    reject(g, Gift(1, 7), "illegal_target")
    g.apply(Gift(1, 1))
    assert zone(g, 2) == ["sparrow", "eagle"]


@pytest.mark.clause("3.4.6", "FAQ-06")
def test_offensive_pluck_may_give_the_last_card():
    """With one card the claimant may pluck a rival and give it, ending with zero cards."""
    g = window({0: ["owl", "heron"], 1: [None, "sparrow"], 2: ["owl", "eagle"]})
    gift = card(g, 1, 2)
    g.apply(Pluck(1, ((2, 1),)))
    assert card(g, 2, 1) == gift
    assert zone(g, 1) == [None, None]
    assert zone(g, 2) == ["sparrow", "eagle"]


@pytest.mark.clause("3.4.7", "3.4.5")
def test_offensive_success_after_own_draw_discards_drawn_then_rival_card():
    """Own-draw offensive success: drawn card first, the rival's removed card on top; then the gift."""
    g = own_draw({0: ["heron", "eagle"], 1: ["sparrow", "owl"]})
    drawn, removed = js(g)["drawn"], card(g, 1, 2)
    g.apply(Pluck(0, ((1, 2),)))
    assert js(g)["discard"][-2:] == [drawn, removed]
    assert g.pending.kind == "gift" and g.pending.player == 0
    gift = card(g, 0, 1)
    g.apply(Gift(0, 1))
    assert card(g, 1, 2) == gift
    assert zone(g, 0) == [None, "eagle"]
    assert g.pending.kind == "end_turn"  # the removed card opened no window


# --- 3.5: failure ----------------------------------------------------------------------------------
@pytest.mark.clause("3.5.1", "3.5.2", "3.5.3", "3.5.5", "3.5.6", "3.5.7", "3.5.8", "FAQ-09")
def test_failure_in_window_shows_returns_and_adds_only_a_penalty():
    """Wrong bird during another's turn: target shown and returned, one unseen penalty card, nothing discarded."""
    g = window({0: ["owl", "heron"], 1: ["sparrow", "swallow"], 2: ["heron", "eagle"]}, deck=["toco_toucan"])
    target, penalty = card(g, 2, 1), js(g)["deck"][0]
    discard = js(g)["discard"]
    g.apply(Pluck(1, ((2, 1),)))
    assert card(g, 2, 1) == target and zone(g, 2) == ["heron", "eagle"]
    assert seen_by(g, target) == [0, 1, 2]
    assert js(g)["discard"] == discard
    assert zone(g, 1) == ["sparrow", "swallow", "toco_toucan"]  # no empty slot: a new one
    assert card(g, 1, 3) == penalty
    assert seen_by(g, penalty) == []
    assert g.pending.kind == "end_turn"  # no toucan power, no window


@pytest.mark.clause("3.5.6", "R-18")
def test_penalty_goes_into_the_only_empty_slot():
    """With one empty slot the penalty card takes it; no other card moves."""
    g = window({0: ["owl", "heron"], 1: ["sparrow", None, "swallow"], 2: ["heron", "eagle"]}, deck=["eagle"])
    g.apply(Pluck(1, ((1, 1),)))
    assert zone(g, 1) == ["sparrow", "eagle", "swallow"]


@pytest.mark.clause("3.5.6", "2.5.4", "R-18")
def test_penalty_slot_is_the_pluckers_choice_among_empty_slots():
    """With several empty slots the plucker chooses one; a full slot or a new slot is refused."""
    g = window({0: ["owl", "heron"], 1: [None, "sparrow", None, "swallow"], 2: ["heron", "eagle"]}, deck=["eagle"])
    g.apply(Pluck(1, ((2, 1),)))
    assert g.pending.kind == "place" and g.pending.player == 1
    reject(g, Place(1, 2), "illegal_target")
    reject(g, Place(1, 5), "illegal_target")
    reject(g, Place(0, 1), "not_your_decision")
    g.apply(Place(1, 3))
    assert zone(g, 1) == [None, "sparrow", "eagle", "swallow"]


@pytest.mark.clause("3.5.4", "3.5.5", "3.5.6", "6.1.5")
def test_failure_after_own_draw_discards_the_drawn_card_without_power():
    """Own-draw failure: the drawn card goes face up on the pile, activates nothing, then the penalty."""
    g = own_draw({0: ["heron", "eagle"], 1: ["owl", "sparrow"]}, drawn="white_pelican", deck=["flamingo"])
    drawn = js(g)["drawn"]
    g.apply(Pluck(0, ((0, 1),)))
    assert js(g)["top"] == drawn and js(g)["drawn"] is None
    assert zone(g, 0) == ["heron", "eagle", "flamingo"]
    assert g.pending.kind == "end_turn"  # no White Pelican power, no window


@pytest.mark.clause("3.5.9", "7.1.2")
def test_penalty_recycle_keeps_the_discarded_reference_on_top():
    """Empty deck at the penalty: recycle, the own-draw reference stays face up and is not shuffled."""
    g = own_draw({0: ["heron", "eagle"], 1: ["owl", "sparrow"]}, deck=[], rest="discard")
    drawn = js(g)["drawn"]
    g.apply(Pluck(0, ((0, 1),)))
    assert g.pending.kind == "recycle"
    cards = tuple(g.pending.data["cards"])
    assert drawn not in cards
    g.apply(Shuffle(cards))
    assert js(g)["discard"] == [drawn]
    assert count(g, 0) == 3


# --- 3.6: double pluck -----------------------------------------------------------------------------
@pytest.mark.clause("3.6.1", "3.6.4", "3.6.5", "3.6.6", "3.6.7", "3.2.8")
def test_double_own_cards_after_own_draw():
    """Own-draw double: drawn card first, then the first and the second target; both slots empty."""
    g = own_draw({0: ["owl", "heron", "owl"], 1: ["sparrow", "eagle"]})
    drawn, first, second = js(g)["drawn"], card(g, 0, 3), card(g, 0, 1)
    g.apply(Pluck(0, ((0, 3), (0, 1))))
    assert js(g)["discard"][-3:] == [drawn, first, second]
    assert zone(g, 0) == [None, "heron", None]
    assert g.pending.kind == "end_turn"


@pytest.mark.clause("3.6.1", "3.6.3", "3.6.5", "3.6.6", "3.6.7", "FAQ-05")
def test_double_in_window_own_and_rival_with_gift():
    """Window double: the reference stays, removed cards go on top in order, the rival gets a gift in place."""
    g = window({0: ["owl", "heron"], 1: ["owl", "sparrow", "swallow"], 2: ["heron", "owl"]})
    reference, first, second = js(g)["top"], card(g, 2, 2), card(g, 1, 1)
    g.apply(Pluck(1, ((2, 2), (1, 1))))
    assert js(g)["discard"][-3:] == [reference, first, second]
    assert g.pending.kind == "gift" and g.pending.player == 1
    gift = card(g, 1, 3)
    g.apply(Gift(1, 3))
    assert card(g, 2, 2) == gift
    assert zone(g, 1) == [None, "sparrow", None]
    assert zone(g, 2) == ["heron", "swallow"]


@pytest.mark.clause("3.6.3", "3.6.7", "3.4.6")
def test_double_same_rival_receives_two_different_cards():
    """Both targets of one rival: two different own cards are given, one into each freed slot."""
    g = window({0: ["owl", "heron"], 1: ["sparrow", "swallow"], 2: ["owl", "eagle", "owl"]})
    mine = {card(g, 1, 1), card(g, 1, 2)}
    g.apply(Pluck(1, ((2, 3), (2, 1))))
    while g.pending.kind == "gift":
        g.apply(Gift(1, next(s for s in (1, 2) if card(g, 1, s))))
    assert {card(g, 2, 1), card(g, 2, 3)} == mine
    assert zone(g, 1) == [None, None]
    assert species(card(g, 2, 2)) == "eagle"


@pytest.mark.clause("3.6.3", "3.6.7")
def test_double_two_rivals_each_receive_a_gift():
    """Targets of two rivals: each owner gets one of the claimant's cards in the freed slot."""
    g = window({0: ["owl", "heron"], 1: ["sparrow", "owl"], 2: ["eagle", "swallow", "kingfisher"]}, active=0)
    g.apply(Pluck(2, ((1, 2), (0, 1))))
    while g.pending.kind == "gift":
        g.apply(Gift(2, next(s for s in (1, 2, 3) if card(g, 2, s))))
    assert zone(g, 2).count(None) == 2
    assert species(card(g, 1, 2)) in ("eagle", "swallow", "kingfisher")
    assert species(card(g, 0, 1)) in ("eagle", "swallow", "kingfisher")
    assert card(g, 1, 2) != card(g, 0, 1)


@pytest.mark.clause("3.6.9", "3.6.4", "3.5.6", "3.6.10")
def test_double_failure_in_window_is_all_or_nothing_with_one_penalty():
    """One target wrong: both shown and returned, nothing removed or given, exactly one penalty card."""
    g = window({0: ["owl", "heron"], 1: ["owl", "sparrow"], 2: ["owl", "eagle"]}, deck=["flamingo"])
    discard = js(g)["discard"]
    first, second = card(g, 2, 1), card(g, 1, 2)
    g.apply(Pluck(1, ((2, 1), (1, 2))))  # owl matches, sparrow does not
    assert zone(g, 2) == ["owl", "eagle"] and card(g, 2, 1) == first
    assert zone(g, 1) == ["owl", "sparrow", "flamingo"] and card(g, 1, 2) == second
    assert seen_by(g, first) == [0, 1, 2] and seen_by(g, second) == [0, 1, 2]
    assert js(g)["discard"] == discard
    assert g.pending.kind == "end_turn"
    reject(g, Pluck(2, ((2, 1),)), *NO_WINDOW)  # the double attempt used up the reference


@pytest.mark.clause("3.6.9", "3.5.4")
def test_double_failure_after_own_draw_discards_reference_without_power():
    """Own-draw double failure: the drawn card is discarded, no power, one penalty card."""
    g = own_draw({0: ["brown_pelican", "heron"], 1: ["sparrow", "eagle"]}, drawn="white_pelican", deck=["flamingo"])
    drawn = js(g)["drawn"]
    g.apply(Pluck(0, ((0, 1), (0, 2))))
    assert js(g)["top"] == drawn
    assert zone(g, 0) == ["brown_pelican", "heron", "flamingo"]
    assert g.pending.kind == "end_turn"


@pytest.mark.clause("3.6.8", "6.1.7", "6.10.6", "FAQ-12")
@pytest.mark.parametrize(
    ("order", "power"),
    [(((0, 1), (0, 2)), "brown_pelican"), (((0, 2), (0, 1)), "white_pelican")],
    ids=["white-then-brown", "brown-then-white"],
)
def test_double_activates_only_the_second_removed_cards_power(order, power):
    """Only the second removed card's power; the first card's and the drawn reference's are not added."""
    g = own_draw({0: ["white_pelican", "brown_pelican", "heron"], 1: ["owl", "eagle"]}, drawn="white_pelican")
    g.apply(Pluck(0, order))
    assert answer_powers(g) == [(power, 0)]
    assert g.pending.kind == "end_turn"


@pytest.mark.clause("3.6.8", "FAQ-12", "FAQ-02")
def test_double_with_golden_toucan_second_activates_no_power():
    """Second removed card the Golden Toucan: no power at all, not even the Toco Toucan's."""
    g = own_draw({0: ["toco_toucan", "golden_toucan", "heron"], 1: ["owl", "eagle"]}, drawn="toco_toucan")
    g.apply(Pluck(0, ((0, 1), (0, 2))))
    assert zone(g, 0) == [None, None, "heron"]
    assert g.pending.kind == "end_turn"


@pytest.mark.clause("3.6.7", "6.10.1", "3.6.8")
def test_double_gifts_are_completed_before_the_power():
    """All gifts come before the second card's power."""
    g = window({0: ["owl", "heron"], 1: ["sparrow", "swallow", "eagle"], 2: ["white_pelican", "brown_pelican"]},
               drawn="white_pelican", active=0)
    g.apply(Pluck(1, ((2, 2), (2, 1))))  # brown first, white second
    while g.pending.kind == "gift":
        g.apply(Gift(1, next(s for s in (1, 2, 3) if card(g, 1, s))))
    assert count(g, 2) == 2 and count(g, 1) == 1  # both gifts made before any power
    # second removed card (White Pelican) for the plucker, then the discard's own power for player 0
    assert answer_powers(g) == [("white_pelican", 1), ("white_pelican", 0)]


# --- 6.10 and R-04: the order of powers after a pluck --------------------------------------------
@pytest.mark.clause("6.10.2", "6.10.3", "6.10.4", "3.3.7", "6.1.3", "6.1.4")
@pytest.mark.parametrize(("drawn", "target"), [("white_pelican", "brown_pelican"), ("brown_pelican", "white_pelican")])
def test_own_draw_single_success_reference_power_then_removed_power(drawn, target):
    """Own-draw single success: the drawn reference's power first, then the removed card's, both the drawer's."""
    g = own_draw({0: [target, "heron"], 1: ["owl", "eagle"]}, drawn=drawn)
    g.apply(Pluck(0, ((0, 1),)))
    assert answer_powers(g) == [(drawn, 0), (target, 0)]
    assert g.pending.kind == "end_turn"


@pytest.mark.clause("3.4.7", "6.10.1", "6.10.3", "6.10.4")
def test_own_draw_offensive_success_gift_then_both_powers():
    """Own-draw offensive success: the gift first, then reference power, then removed card power."""
    g = own_draw({0: ["heron", "eagle"], 1: ["owl", "brown_pelican"]}, drawn="white_pelican")
    g.apply(Pluck(0, ((1, 2),)))
    assert g.pending.kind == "gift"
    g.apply(Gift(0, 2))
    assert answer_powers(g) == [("white_pelican", 0), ("brown_pelican", 0)]


@pytest.mark.clause("6.10.5", "6.1.2", "6.1.4", "3.3.7", "R-04")
def test_window_success_plucker_power_before_active_discard_power():
    """Window pluck on a direct discard: the plucker's removed-card power, then the active player's discard power."""
    g = window({0: ["owl", "heron"], 1: ["white_pelican", "sparrow"], 2: ["heron", "eagle"]}, drawn="brown_pelican")
    g.apply(Pluck(1, ((1, 1),)))
    assert answer_powers(g) == [("white_pelican", 1), ("brown_pelican", 0)]
    assert g.pending.kind == "end_turn"


@pytest.mark.clause("3.6.8", "6.10.6", "R-04")
def test_window_double_second_power_before_active_discard_power():
    """Window double on a direct discard: the second removed card's power, then the active player's power."""
    zones = {0: ["owl", "heron"], 1: ["white_pelican", "brown_pelican", "sparrow"], 2: ["heron", "eagle"]}
    g = window(zones, drawn="white_pelican")
    g.apply(Pluck(1, ((1, 1), (1, 2))))
    assert answer_powers(g) == [("brown_pelican", 1), ("white_pelican", 0)]


@pytest.mark.clause("6.10.5", "6.1.4", "6.1.5", "2.7.3")
def test_window_success_on_kept_replacement_gives_only_the_pluckers_power():
    """A replaced card discarded by keeping has no power for the active player; the plucker gets the removed card's."""
    g = position(zones={0: ["brown_pelican", "heron"], 1: ["white_pelican", "sparrow"], 2: ["heron", "eagle"]},
                 drawn="owl", active=0)
    g.apply(Keep(0, 1))
    assert g.pending.kind == "window"
    g.apply(Pluck(1, ((1, 1),)))
    assert answer_powers(g) == [("white_pelican", 1)]
    assert g.pending.kind == "end_turn"


@pytest.mark.clause("6.1.2", "3.5.8")
def test_window_failure_penalty_activates_nothing_and_active_power_still_resolves():
    """After a failed claim on a direct discard, the penalty has no power; the discard's power is the active's."""
    g = window({0: ["owl", "heron"], 1: ["sparrow", "swallow"], 2: ["heron", "eagle"]},
               drawn="brown_pelican", deck=["white_pelican"])
    g.apply(Pluck(1, ((1, 1),)))
    assert species(card(g, 1, 3)) == "white_pelican"
    assert answer_powers(g) == [("brown_pelican", 0)]


def test_legal_actions_built_lazily_are_sequences_slices_included():
    """The window's legal actions (a ``Chain`` of each player's ``Claims``, built when read) index and slice as the
    list of them does: a Sequence's contract, the fuzzer's policy slices them."""
    legal = window().legal_actions()
    every = [legal[i] for i in range(len(legal))]
    assert len(every) > 3 and legal[-1] == every[-1]
    assert legal[1:4] == every[1:4] and legal[::-2] == every[::-2] and list(legal) == every
    with pytest.raises(IndexError):
        legal[len(legal)]
