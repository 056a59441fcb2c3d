"""Annex A: when powers activate (6.1), each power (6.3 - 6.9), their order (6.10) and the per-turn limit (6.11).

Expectations come from the rulebook text (spec/rulebook/000_*.txt lines 204-270) and the rulings
register (R-04, R-08, R-11, R-12, R-18, R-19) where the text is silent.
"""

from __future__ import annotations

import pytest
from _rules import rejected as rejects

from baobei_ref.actions import CloseWindow, Discard, Draw, EndTurn, Gift, Keep, Place, Pluck, Shuffle, TakeDiscard
from baobei_ref.powers.add_to_rival import TocoAdd
from baobei_ref.powers.blind_swap import BlindSwap
from baobei_ref.powers.double_replace import ShoebillReplace
from baobei_ref.powers.peek import PeekAt
from baobei_ref.powers.peek_two_swap import MacawLook, MacawSwap
from baobei_ref.powers.show import ShowCard
from baobei_ref.setup import position

POWER_DECISIONS = {"white_pelican", "brown_pelican", "blind_swap", "macaw", "macaw_swap", "toco_toucan", "shoebill"}


# --- helpers --------------------------------------------------------------------------------------
def play(g, *actions) -> list:
    """Apply the actions in order; return every event they caused."""
    events = []
    for action in actions:
        events += g.apply(action)
    return events



def powers(events) -> list[tuple[int, str]]:
    """(player, species) of every power that activated."""
    return [(e.data["player"], e.data["card"].rsplit("-", 1)[0]) for e in events if e.kind == "power"]


def card(g, owner: int, slot: int) -> str | None:
    c = g.to_json()["zones"][str(owner)][slot - 1]
    return None if c is None else c["card"]


def species(g, owner: int, slot: int) -> str | None:
    c = g.to_json()["zones"][str(owner)][slot - 1]
    return None if c is None else c["species"]


def sees(g, player: int, owner: int, slot: int) -> str | None:
    """The species ``player``'s view shows in that slot (None when unknown to them)."""
    return g.view(player)["zones"][str(owner)][slot - 1]["species"]


def species_map(g) -> dict:
    return {p: [None if c is None else c["species"] for c in z] for p, z in g.to_json()["zones"].items()}


def at(g, kind: str, player: int | None = None) -> None:
    assert g.pending.kind == kind, g.pending
    if player is not None:
        assert g.pending.player == player


def discarded(zones, drawn, close=True, **kw):
    """Player 0 holds ``drawn`` and discards it directly; the reaction window (if any) closes unused."""
    g = position(zones=zones, drawn=drawn, active=0, **kw)
    events = g.apply(Discard(0))
    if close and g.pending.kind == "window":
        events += g.apply(CloseWindow())
    return g, events


# --- 6.1.2: a drawn card discarded directly -------------------------------------------------------
@pytest.mark.clause("6.1.1", "6.1.2", "6.1.6")
def test_direct_discard_power_is_the_drawers_after_the_window():
    """A drawn card discarded directly gives its power to the drawer, only once the others could pluck."""
    g = position(zones={0: ["owl", "heron"], 1: ["eagle", "sparrow"]}, deck=["white_pelican"], active=0)
    play(g, Draw(0))
    events = g.apply(Discard(0))
    at(g, "window")
    assert powers(events) == []
    events = g.apply(CloseWindow())
    at(g, "white_pelican", 0)
    assert powers(events) == [(0, "white_pelican")]


@pytest.mark.clause("6.1.2", "6.1.4", "6.10.5", "R-04")
def test_direct_discard_power_stays_the_drawers_after_a_rival_plucks_with_it():
    """Even after a rival's successful pluck with it, the drawer runs the discard's power (after the plucker's)."""
    g = position(zones={0: ["owl", "heron", "macaw"], 1: ["brown_pelican", "eagle", "sparrow"]},
                 drawn="white_pelican", active=0)
    g.apply(Discard(0))
    events = g.apply(Pluck(1, ((1, 1),)))
    at(g, "brown_pelican", 1)  # the removed card's power: the plucker's, first
    events += g.apply(ShowCard(1, (0, 3)))
    at(g, "white_pelican", 0)  # then the discard's power: the drawer's
    events += g.apply(PeekAt(0, (1, 2)))
    at(g, "end_turn", 0)
    assert powers(events) == [(1, "brown_pelican"), (0, "white_pelican")]


@pytest.mark.clause("6.1.2")
def test_direct_discard_power_after_a_failed_rival_pluck():
    """A rival's failed pluck with the direct discard does not take the drawer's power away."""
    g = position(zones={0: ["owl", "heron"], 1: ["eagle", "sparrow"]}, drawn="white_pelican", active=0)
    g.apply(Discard(0))
    events = g.apply(Pluck(1, ((1, 1),)))  # an eagle is no pelican: failure, penalty card
    assert g.to_json()["zones"]["1"][2] is not None  # the penalty card took a new slot
    at(g, "white_pelican", 0)
    assert powers(events) == [(0, "white_pelican")]


@pytest.mark.clause("6.1.2", "6.8.1")
def test_golden_toucan_discarded_directly_has_no_power():
    """The Golden Toucan has no power: discarding it directly activates nothing."""
    g, events = discarded({0: ["owl"], 1: ["eagle"]}, "golden_toucan")
    at(g, "end_turn", 0)
    assert powers(events) == []


# --- 6.1.3 / 6.1.4 and their order (6.10) --------------------------------------------------------
@pytest.mark.clause("6.1.3", "6.1.4", "6.10.2", "6.10.3", "6.10.4")
def test_own_draw_pluck_reference_power_then_removed_card_power():
    """A successful own-draw pluck: the drawer runs the drawn reference's power, then the removed card's."""
    g = position(zones={0: ["brown_pelican", "owl"], 1: ["eagle", "sparrow"]}, drawn="white_pelican", active=0)
    events = g.apply(Pluck(0, ((0, 1),)))
    at(g, "white_pelican", 0)
    events += g.apply(PeekAt(0, (1, 1)))
    at(g, "brown_pelican", 0)
    events += g.apply(ShowCard(0, (1, 2)))
    at(g, "end_turn", 0)
    assert powers(events) == [(0, "white_pelican"), (0, "brown_pelican")]


@pytest.mark.clause("6.1.3", "6.1.4", "6.10.1", "6.10.3", "6.10.4")
def test_own_draw_offensive_pluck_powers_come_after_the_gift():
    """An own-draw pluck of a rival's card: the gift comes first, then the reference's and the removed card's powers."""
    g = position(zones={0: ["owl", "heron"], 1: ["brown_pelican", "eagle"]}, drawn="white_pelican", active=0)
    events = g.apply(Pluck(0, ((1, 1),)))
    at(g, "gift", 0)
    assert powers(events) == []
    events += g.apply(Gift(0, 2))
    assert species(g, 1, 1) == "heron"
    at(g, "white_pelican", 0)
    events += g.apply(PeekAt(0, (1, 2)))
    at(g, "brown_pelican", 0)
    assert powers(events) == [(0, "white_pelican"), (0, "brown_pelican")]


@pytest.mark.clause("6.1.3", "6.1.4", "6.8.1")
def test_golden_reference_adds_nothing_but_the_removed_toco_power_runs():
    """Drawn Golden Toucan plucking an own Toco Toucan: no power for the Golden one, the Toco's power runs."""
    g = position(zones={0: ["toco_toucan", "owl"], 1: ["eagle"]}, drawn="golden_toucan", active=0)
    events = g.apply(Pluck(0, ((0, 1),)))
    at(g, "toco_toucan", 0)
    assert powers(events) == [(0, "toco_toucan")]


@pytest.mark.clause("6.1.3", "6.1.4", "6.8.1")
def test_toco_reference_runs_but_removed_golden_adds_nothing():
    """Drawn Toco Toucan plucking the own Golden Toucan: only the Toco's power runs."""
    g = position(zones={0: ["golden_toucan", "owl"], 1: ["eagle"]}, drawn="toco_toucan", active=0)
    events = g.apply(Pluck(0, ((0, 1),)))
    at(g, "toco_toucan", 0)
    events += g.apply(TocoAdd(0, 1))
    at(g, "end_turn", 0)
    assert powers(events) == [(0, "toco_toucan")]


@pytest.mark.clause("6.1.4", "6.1.5")
def test_window_pluck_of_a_kept_turns_old_card_gives_its_power_to_the_plucker_only():
    """Keeping activates nothing; a rival who plucks the old card's match runs the removed card's power."""
    g = position(zones={0: ["cuckoo", "heron"], 1: ["cuckoo", "eagle", "sparrow"]}, drawn="owl", active=0)
    events = g.apply(Keep(0, 1))
    at(g, "window")
    events += g.apply(Pluck(1, ((1, 1),)))
    at(g, "blind_swap", 1)
    events += g.apply(BlindSwap(1, (1, 2), (0, 2)))
    at(g, "end_turn", 0)
    assert powers(events) == [(1, "cuckoo")]


@pytest.mark.clause("6.1.4", "6.1.5", "6.10.1")
def test_offensive_window_pluck_power_after_gift_and_gift_activates_nothing():
    """The plucker runs the removed card's power after the gift; the gifted card (a pelican) activates nothing."""
    g = position(zones={0: ["macaw", "macaw", "heron"], 1: ["white_pelican", "eagle", "sparrow"]},
                 drawn="owl", active=0)
    events = g.apply(Keep(0, 1))  # the old macaw goes face up: keeping activates nothing
    events += g.apply(Pluck(1, ((0, 2),)))
    at(g, "gift", 1)
    assert powers(events) == []
    events += g.apply(Gift(1, 1))
    assert species(g, 0, 2) == "white_pelican"
    at(g, "macaw", 1)
    events += g.apply(MacawLook(1, (1, 2), (0, 3)))
    events += g.apply(MacawSwap(1, False))
    at(g, "end_turn", 0)
    assert powers(events) == [(1, "macaw")]


@pytest.mark.clause("6.1.7", "6.10.6")
@pytest.mark.parametrize(
    "targets, expected",
    [(((0, 1), (0, 2)), "brown_pelican"), (((0, 2), (0, 1)), "white_pelican")],
)
def test_own_draw_double_pluck_activates_only_the_second_removed_card(targets, expected):
    """A successful double pluck gives one power: the second removed card's; not the first's nor the reference's."""
    g = position(zones={0: ["white_pelican", "brown_pelican", "owl"], 1: ["eagle", "sparrow"]},
                 drawn="white_pelican", active=0)
    events = g.apply(Pluck(0, targets))
    at(g, expected, 0)
    events += g.apply(PeekAt(0, (1, 1)) if expected == "white_pelican" else ShowCard(0, (1, 1)))
    at(g, "end_turn", 0)
    assert powers(events) == [(0, expected)]


@pytest.mark.clause("6.1.7", "6.10.6", "R-04")
def test_window_double_pluck_second_card_power_then_the_drawers_discard_power():
    """A window double pluck gives the plucker the second card's power; the discard's power stays the drawer's."""
    g = position(zones={0: ["owl", "heron"], 1: ["white_pelican", "brown_pelican", "eagle"]},
                 drawn="white_pelican", active=0)
    g.apply(Discard(0))
    events = g.apply(Pluck(1, ((1, 2), (1, 1))))
    at(g, "white_pelican", 1)
    events += g.apply(PeekAt(1, (0, 1)))
    at(g, "white_pelican", 0)
    events += g.apply(PeekAt(0, (1, 3)))
    at(g, "end_turn", 0)
    assert powers(events) == [(1, "white_pelican"), (0, "white_pelican")]


# --- 6.1.5 / 6.2.2: never otherwise ---------------------------------------------------------------
@pytest.mark.clause("6.1.5", "FAQ-15")
def test_taking_the_discard_and_the_replaced_card_activate_nothing():
    """Taking a power card from the discard, and the replaced power card, activate no power."""
    g = position(zones={0: ["cuckoo", "heron"], 1: ["eagle", "sparrow"]}, discard=["macaw"], active=0)
    events = g.apply(TakeDiscard(0, 1))
    assert species(g, 0, 1) == "macaw"
    at(g, "window")
    events += g.apply(CloseWindow())
    at(g, "end_turn", 0)
    assert powers(events) == []


@pytest.mark.clause("6.1.5", "FAQ-15")
def test_keeping_a_drawn_power_card_activates_nothing():
    """Keeping a drawn power card face down, and discarding the power card it replaces, activate nothing."""
    g = position(zones={0: ["white_pelican", "heron"], 1: ["eagle", "sparrow"]}, drawn="macaw", active=0)
    events = g.apply(Keep(0, 1))
    events += g.apply(CloseWindow())
    at(g, "end_turn", 0)
    assert powers(events) == []


@pytest.mark.clause("6.1.2", "6.1.5")
def test_failed_own_draw_pluck_discarded_reference_and_penalty_activate_nothing():
    """After a failed own-draw pluck, neither the discarded drawn card nor the penalty card activates a power."""
    g = position(zones={0: ["owl", "heron"], 1: ["eagle"]}, drawn="macaw", deck=["white_pelican"], active=0)
    events = g.apply(Pluck(0, ((0, 1),)))
    assert species(g, 0, 3) == "white_pelican"  # the penalty card, in a new slot
    assert g.to_json()["discard"][-1].startswith("macaw")
    at(g, "end_turn", 0)
    assert powers(events) == []


@pytest.mark.clause("6.1.5", "6.2.2", "FAQ-15")
def test_card_shown_after_a_failed_pluck_and_penalty_card_activate_nothing():
    """A power card shown after a failed window pluck, and a power card received as penalty, activate nothing."""
    g = position(zones={0: ["macaw", "heron"], 1: ["eagle", "sparrow"]}, drawn="owl", deck=["cuckoo"], active=0)
    events = g.apply(Keep(0, 2))  # the heron goes face up
    events += g.apply(Pluck(1, ((0, 1),)))  # a macaw is no heron: failure, the macaw is shown
    assert sees(g, 1, 0, 1) == "macaw"
    assert species(g, 1, 3) == "cuckoo"
    at(g, "end_turn", 0)
    assert powers(events) == []


@pytest.mark.clause("6.1.5", "6.7.2")
def test_card_added_by_a_toco_toucan_activates_nothing_and_allows_no_pluck():
    """A power card added by a Toco Toucan activates no power and opens no pluck."""
    g, events = discarded({0: ["owl"], 1: ["eagle", None]}, "toco_toucan", deck=["macaw"])
    events += g.apply(TocoAdd(0, 1))
    assert species(g, 1, 2) == "macaw"
    at(g, "end_turn", 0)
    assert powers(events) == [(0, "toco_toucan")]


@pytest.mark.clause("6.1.5", "6.9.5")
def test_cards_placed_or_removed_by_a_shoebill_activate_nothing():
    """Power cards placed by a Shoebill, and power cards it removes, activate nothing."""
    g, events = discarded({0: ["white_pelican", "owl"], 1: ["brown_pelican", "eagle"]}, "shoebill",
                          deck=["macaw", "cuckoo"])
    events += g.apply(ShoebillReplace(0, (0, 1), (1, 1, 1)))
    assert (species(g, 0, 1), species(g, 1, 1)) == ("macaw", "cuckoo")
    at(g, "end_turn", 0)
    assert powers(events) == [(0, "shoebill")]


@pytest.mark.clause("6.1.5", "6.4.2", "6.2.2", "FAQ-15")
def test_card_shown_by_a_brown_pelican_activates_nothing_and_allows_no_pluck():
    """A power card shown by a Brown Pelican activates nothing and is no reference: no window opens."""
    g, events = discarded({0: ["owl"], 1: ["macaw", "eagle"]}, "brown_pelican")
    events += g.apply(ShowCard(0, (1, 1)))
    at(g, "end_turn", 0)
    assert powers(events) == [(0, "brown_pelican")]


@pytest.mark.clause("6.1.5", "6.5.2", "FAQ-15")
def test_cards_swapped_by_a_blind_swap_activate_nothing():
    """Power cards swapped by a power activate nothing."""
    g, events = discarded({0: ["macaw"], 1: ["white_pelican"]}, "cuckoo")
    events += g.apply(BlindSwap(0, (0, 1), (1, 1)))
    at(g, "end_turn", 0)
    assert powers(events) == [(0, "cuckoo")]


# --- powers are mandatory (R-11) -------------------------------------------------------------------
@pytest.mark.clause("6.10.7", "R-11")
@pytest.mark.parametrize(
    "drawn, kind, action_type",
    [
        ("white_pelican", "white_pelican", PeekAt),
        ("brown_pelican", "brown_pelican", ShowCard),
        ("cuckoo", "blind_swap", BlindSwap),
        ("macaw", "macaw", MacawLook),
        ("toco_toucan", "toco_toucan", TocoAdd),
        ("shoebill", "shoebill", ShoebillReplace),
    ],
)
def test_an_activated_power_cannot_be_declined(drawn, kind, action_type):
    """An activated power is mandatory: only its own choices are legal; ending the turn instead is refused."""
    g, _ = discarded({0: ["owl", "heron"], 1: ["eagle", "sparrow"]}, drawn)
    at(g, kind, 0)
    legal = g.legal_actions()
    assert legal and all(type(a) is action_type for a in legal)
    rejects(g, EndTurn(0), "wrong_decision")
    rejects(g, CloseWindow(), "wrong_decision")


# --- White Pelican (6.3) ---------------------------------------------------------------------------
@pytest.mark.clause("6.3.1")
def test_white_pelican_peek_only_the_user_learns_the_card():
    """The White Pelican looks at one face-down card: only its user learns it, no card moves."""
    g, _ = discarded({0: ["owl"], 1: ["eagle"], 2: ["macaw", "sparrow"]}, "white_pelican")
    before = species_map(g)
    assert sees(g, 0, 2, 1) is None
    g.apply(PeekAt(0, (2, 1)))
    assert sees(g, 0, 2, 1) == "macaw"
    assert sees(g, 1, 2, 1) is None
    assert sees(g, 2, 2, 1) is None
    assert species_map(g) == before
    at(g, "end_turn", 0)


@pytest.mark.clause("6.3.1")
def test_white_pelican_may_peek_at_an_own_card():
    """The White Pelican may look at one of its user's own face-down cards."""
    g, _ = discarded({0: ["owl", "heron"], 1: ["eagle"]}, "white_pelican")
    assert sees(g, 0, 0, 2) is None
    g.apply(PeekAt(0, (0, 2)))
    assert sees(g, 0, 0, 2) == "heron"
    assert sees(g, 1, 0, 2) is None


@pytest.mark.clause("6.3.1")
def test_white_pelican_rejects_non_cards_and_other_players():
    """The peek names a face-down card, and only the power's user decides it."""
    g, _ = discarded({0: ["owl", None], 1: ["eagle"]}, "white_pelican")
    rejects(g, PeekAt(0, (0, 2)), "illegal_target")  # an empty slot
    rejects(g, PeekAt(0, (1, 5)), "illegal_target")  # no such slot
    rejects(g, PeekAt(1, (0, 1)), "not_your_decision")


@pytest.mark.clause("6.10.7", "6.3.1")
def test_white_pelican_without_any_face_down_card_has_no_effect():
    """With no face-down card on the table the peek is impossible: the power has no effect."""
    g, _ = discarded({0: [None], 1: [None]}, "white_pelican")
    at(g, "end_turn", 0)


# --- Brown Pelican (6.4) ---------------------------------------------------------------------------
@pytest.mark.clause("6.4.1")
def test_brown_pelican_shows_the_card_to_everyone():
    """The Brown Pelican shows one face-down card to all players; it goes back to its slot."""
    g, _ = discarded({0: ["owl"], 1: ["macaw", "eagle"], 2: ["sparrow"]}, "brown_pelican")
    before = species_map(g)
    g.apply(ShowCard(0, (1, 1)))
    assert [sees(g, p, 1, 1) for p in (0, 1, 2)] == ["macaw"] * 3
    assert species_map(g) == before


@pytest.mark.clause("6.4.1")
def test_brown_pelican_may_show_an_own_card_and_rejects_an_empty_slot():
    """The Brown Pelican may show the user's own card; an empty slot is no card to show."""
    g, _ = discarded({0: ["owl", None], 1: ["eagle"]}, "brown_pelican")
    rejects(g, ShowCard(0, (0, 2)), "illegal_target")
    g.apply(ShowCard(0, (0, 1)))
    assert sees(g, 1, 0, 1) == "owl"


# --- the blind-swap bird (6.5) ---------------------------------------------------------------------
@pytest.mark.clause("6.5.1", "6.5.2")
def test_blind_swap_exchanges_two_cards_of_two_players_unseen():
    """The blind swap exchanges two cards of two different players slot for slot, and nobody looks at them."""
    g, _ = discarded({0: ["owl", "heron"], 1: ["eagle", "sparrow"]}, "cuckoo")
    owl, eagle = card(g, 0, 2), card(g, 1, 1)
    seen = g.to_json()["seen"]
    g.apply(BlindSwap(0, (0, 2), (1, 1)))
    assert (card(g, 0, 2), card(g, 1, 1)) == (eagle, owl)  # same cards, new slots
    assert (card(g, 0, 1), card(g, 1, 2)) == ("owl-1", "sparrow-1")
    assert g.to_json()["seen"] == seen
    at(g, "end_turn", 0)


@pytest.mark.clause("6.5.1")
def test_blind_swap_may_involve_two_rivals():
    """The two players of the blind swap need not include its user."""
    g, _ = discarded({0: ["owl"], 1: ["eagle"], 2: ["sparrow"]}, "cuckoo")
    g.apply(BlindSwap(0, (1, 1), (2, 1)))
    assert (species(g, 1, 1), species(g, 2, 1), species(g, 0, 1)) == ("sparrow", "eagle", "owl")


@pytest.mark.clause("6.5.1")
def test_blind_swap_rejects_one_players_two_cards_and_empty_slots():
    """The two cards must belong to two different players and be cards."""
    g, _ = discarded({0: ["owl", "heron", None], 1: ["eagle"]}, "cuckoo")
    rejects(g, BlindSwap(0, (0, 1), (0, 2)), "illegal_target")
    rejects(g, BlindSwap(0, (0, 3), (1, 1)), "illegal_target")
    rejects(g, BlindSwap(1, (0, 1), (1, 1)), "not_your_decision")


@pytest.mark.clause("6.5.2", "6.10.7")
def test_blind_swap_without_a_rival_card_has_no_effect():
    """With no valid pair of cards of two different players, the blind swap has no effect."""
    g, _ = discarded({0: ["owl", "heron"], 1: [None, None]}, "cuckoo")
    at(g, "end_turn", 0)
    assert species_map(g) == {"0": ["owl", "heron"], "1": [None, None]}


@pytest.mark.clause("6.5.2", "4.2.7", "R-12")
def test_blind_swap_cannot_take_a_shielded_card():
    """A card the BAO shield protects is no valid card for a rival's blind swap."""
    g, _ = discarded({0: ["owl"], 1: ["sparrow"], 2: ["eagle"]}, "cuckoo", bao=2, shield="active")
    rejects(g, BlindSwap(0, (0, 1), (2, 1)), "shielded")
    g.apply(BlindSwap(0, (0, 1), (1, 1)))
    assert species_map(g) == {"0": ["sparrow"], "1": ["owl"], "2": ["eagle"]}


@pytest.mark.clause("6.5.2", "4.2.7", "R-12")
def test_blind_swap_has_no_effect_when_every_pair_needs_a_shielded_card():
    """When every pair would need a shielded card, the blind swap has no valid pair and no effect."""
    g, _ = discarded({0: ["owl"], 1: [None], 2: ["eagle"]}, "cuckoo", bao=2, shield="active")
    at(g, "turn", 1)  # the power had no effect and the turn ended
    assert species_map(g) == {"0": ["owl"], "1": [None], "2": ["eagle"]}


# --- Macaw (6.6) -----------------------------------------------------------------------------------
@pytest.mark.clause("6.6.1")
def test_macaw_looks_at_two_cards_and_may_leave_them():
    """The Macaw looks at two cards of different players (only its user learns them); the swap is optional."""
    g, _ = discarded({0: ["owl", "heron"], 1: ["eagle", "sparrow"]}, "macaw")
    before = species_map(g)
    g.apply(MacawLook(0, (0, 2), (1, 1)))
    at(g, "macaw_swap", 0)
    assert (sees(g, 0, 0, 2), sees(g, 0, 1, 1)) == ("heron", "eagle")
    assert (sees(g, 1, 0, 2), sees(g, 1, 1, 1)) == (None, None)
    g.apply(MacawSwap(0, False))
    assert species_map(g) == before
    at(g, "end_turn", 0)


@pytest.mark.clause("6.6.1", "6.6.2")
def test_macaw_may_swap_the_two_cards_it_looked_at():
    """After looking, the Macaw may swap the two cards; they keep their identity."""
    g, _ = discarded({0: ["owl", "heron"], 1: ["eagle", "sparrow"]}, "macaw")
    heron, eagle = card(g, 0, 2), card(g, 1, 1)
    g.apply(MacawLook(0, (0, 2), (1, 1)))
    g.apply(MacawSwap(0, True))
    assert (card(g, 0, 2), card(g, 1, 1)) == (eagle, heron)
    at(g, "end_turn", 0)


@pytest.mark.clause("6.6.1")
def test_macaw_rejects_one_players_two_cards():
    """The Macaw's two cards must belong to two different players; the swap answer comes only after looking."""
    g, _ = discarded({0: ["owl", "heron"], 1: ["eagle"]}, "macaw")
    rejects(g, MacawLook(0, (0, 1), (0, 2)), "illegal_target")
    rejects(g, MacawSwap(0, True), "wrong_decision")


@pytest.mark.clause("6.6.2", "6.10.7")
def test_macaw_without_a_rival_card_has_no_effect():
    """With no two cards of different players the Macaw has no effect, not even a look."""
    g, _ = discarded({0: ["owl", "heron"], 1: [None]}, "macaw")
    at(g, "end_turn", 0)
    assert sees(g, 0, 0, 1) is None


@pytest.mark.clause("6.6.1", "4.2.7", "R-12")
def test_macaw_may_look_at_a_shielded_card_but_not_swap_it():
    """A rival's Macaw may look at a shielded card but cannot swap it."""
    g, _ = discarded({0: ["owl"], 1: [None], 2: ["eagle"]}, "macaw", bao=2, shield="active")
    at(g, "macaw", 0)  # the only pair includes a shielded card: looking is still possible
    g.apply(MacawLook(0, (0, 1), (2, 1)))
    assert sees(g, 0, 2, 1) == "eagle"
    assert sees(g, 1, 2, 1) is None
    at(g, "turn", 1)  # no swap decision: the turn is over
    assert species_map(g) == {"0": ["owl"], "1": [None], "2": ["eagle"]}


# --- Toco Toucan (6.7) ------------------------------------------------------------------------------
@pytest.mark.clause("6.7.1", "6.7.2", "R-18")
def test_toco_rival_chooses_among_empty_slots_and_nobody_sees_the_card():
    """The Toco Toucan's card goes, unseen, to the empty slot the rival chooses; no new slot while one is empty."""
    g, _ = discarded({0: ["owl"], 1: ["eagle", None, None], 2: ["sparrow"]}, "toco_toucan", deck=["macaw"])
    g.apply(TocoAdd(0, 1))
    at(g, "place", 1)
    rejects(g, Place(0, 2), "not_your_decision")
    rejects(g, Place(1, 1), "illegal_target")  # occupied
    rejects(g, Place(1, 4), "illegal_target")  # a new slot while empty ones remain
    g.apply(Place(1, 3))
    assert species_map(g)["1"] == ["eagle", None, "macaw"]
    assert [sees(g, p, 1, 3) for p in (0, 1, 2)] == [None, None, None]
    at(g, "end_turn", 0)


@pytest.mark.clause("6.7.1", "R-18")
def test_toco_card_takes_a_new_slot_when_the_rival_has_no_empty_slot():
    """With no empty slot the rival gets a new slot; no other card moves."""
    g, _ = discarded({0: ["owl"], 1: ["eagle", "sparrow"]}, "toco_toucan", deck=["macaw"])
    g.apply(TocoAdd(0, 1))
    assert species_map(g)["1"] == ["eagle", "sparrow", "macaw"]
    at(g, "end_turn", 0)


@pytest.mark.clause("6.7.1", "6.7.2", "B.8")
def test_toco_may_target_a_rival_with_zero_cards():
    """A Toco Toucan may give a card back to a rival with zero cards, in a former slot of their choice."""
    g, _ = discarded({0: ["owl"], 1: [None, None]}, "toco_toucan", deck=["heron"])
    g.apply(TocoAdd(0, 1))
    at(g, "place", 1)
    g.apply(Place(1, 2))
    assert species_map(g)["1"] == [None, "heron"]


@pytest.mark.clause("6.7.1")
def test_toco_must_choose_a_rival():
    """The Toco Toucan's target is a rival: not its user; only its user chooses."""
    g, _ = discarded({0: ["owl", None], 1: ["eagle"]}, "toco_toucan")
    rejects(g, TocoAdd(0, 0), "illegal_target")
    rejects(g, TocoAdd(1, 0), "not_your_decision")


@pytest.mark.clause("6.7.1", "7.1.7")
def test_toco_draw_recycles_an_empty_deck():
    """An empty deck is recycled before the Toco Toucan's draw; the top discard stays."""
    g, _ = discarded({0: ["owl"], 1: ["eagle", None]}, "toco_toucan", deck=[], rest="discard")
    toco = g.to_json()["top"]
    g.apply(TocoAdd(0, 1))
    at(g, "recycle")
    cards = list(g.pending.data["cards"])
    assert toco not in cards
    order = tuple(reversed(cards))
    g.apply(Shuffle(order))
    assert card(g, 1, 2) == order[0]
    assert g.to_json()["discard"] == [toco]
    assert g.to_json()["recycles"] == 1
    at(g, "end_turn", 0)


# --- Shoebill (6.9) ---------------------------------------------------------------------------------
@pytest.mark.clause("6.9.1", "6.9.2", "6.9.3", "6.9.4", "6.9.5", "R-19")
def test_shoebill_replaces_an_own_and_a_rival_card_old_cards_slide_under_unseen():
    """The Shoebill draws two cards to look at; the user sends one to an own slot and the other to a rival's;
    the replaced cards slide face down under the discard pile."""
    g, _ = discarded({0: ["owl", "heron"], 1: ["eagle", "sparrow"]}, "shoebill", deck=["macaw", "cuckoo"])
    at(g, "shoebill", 0)
    drawn = list(g.view(0)["pending"]["data"]["cards"])
    assert sorted(c.rsplit("-", 1)[0] for c in drawn) == ["cuckoo", "macaw"]
    assert "cards" not in g.view(1)["pending"]["data"]
    top, owl, sparrow = g.to_json()["top"], card(g, 0, 1), card(g, 1, 2)
    g.apply(ShoebillReplace(0, (1, 1), (0, 1, 2)))  # the second drawn card to the own slot
    assert (card(g, 0, 1), card(g, 1, 2)) == (drawn[1], drawn[0])
    assert (card(g, 0, 2), card(g, 1, 1)) == ("heron-1", "eagle-1")
    state = g.to_json()
    assert state["top"] == top
    assert {owl, sparrow} <= set(state["under"])
    assert owl not in state["seen"] and sparrow not in state["seen"]
    assert (sees(g, 0, 1, 2), sees(g, 1, 1, 2)) == (drawn[0].rsplit("-", 1)[0], None)
    at(g, "end_turn", 0)


@pytest.mark.clause("6.9.3", "6.10.7", "R-11", "R-19")
def test_shoebill_must_make_both_replacements_with_different_cards():
    """Both replacements are made when possible, each with its own drawn card, the other one in a rival's zone."""
    g, _ = discarded({0: ["owl", "heron", None], 1: ["eagle", "sparrow"]}, "shoebill", deck=["macaw", "cuckoo"])
    rejects(g, ShoebillReplace(0, None, (0, 1, 2)), "illegal_target")
    rejects(g, ShoebillReplace(0, (0, 1), None), "illegal_target")
    rejects(g, ShoebillReplace(0, (0, 1), (0, 1, 2)), "illegal_target")  # the same drawn card twice
    rejects(g, ShoebillReplace(0, (0, 1), (1, 0, 2)), "illegal_target")  # the "rival" is the user
    rejects(g, ShoebillReplace(0, (0, 3), (1, 1, 2)), "illegal_target")  # an empty own slot
    rejects(g, ShoebillReplace(1, (0, 1), (1, 0, 2)), "not_your_decision")


@pytest.mark.clause("6.9.6", "R-19")
def test_shoebill_without_own_cards_replaces_only_a_rival_card():
    """A Shoebill user with zero cards still replaces a rival's card; the unused drawn card goes under the pile."""
    g, _ = discarded({0: [None, None], 1: ["eagle", "sparrow"]}, "shoebill", deck=["macaw", "cuckoo"])
    at(g, "shoebill", 0)
    drawn = list(g.pending.data["cards"])
    eagle = card(g, 1, 1)
    rejects(g, ShoebillReplace(0, (0, 1), (1, 1, 1)), "illegal_target")
    rejects(g, ShoebillReplace(0, None, None), "illegal_target")
    g.apply(ShoebillReplace(0, None, (1, 1, 1)))
    assert card(g, 1, 1) == drawn[1]
    assert species_map(g)["0"] == [None, None]
    assert {eagle, drawn[0]} <= set(g.to_json()["under"])
    at(g, "end_turn", 0)


@pytest.mark.clause("6.9.6", "R-19")
def test_shoebill_without_rival_cards_replaces_only_an_own_card():
    """With no rival card to replace, only the own replacement is made; the other drawn card goes under."""
    g, _ = discarded({0: ["owl", "heron"], 1: [None]}, "shoebill", deck=["macaw", "cuckoo"])
    drawn = list(g.pending.data["cards"])
    owl = card(g, 0, 1)
    rejects(g, ShoebillReplace(0, (0, 1), (1, 1, 1)), "illegal_target")
    g.apply(ShoebillReplace(0, (0, 1), None))
    assert card(g, 0, 1) == drawn[0]
    assert {owl, drawn[1]} <= set(g.to_json()["under"])


@pytest.mark.clause("6.9.6", "6.10.7")
def test_shoebill_with_no_possible_replacement_slides_both_cards_under():
    """If neither replacement is possible, both drawn cards go face down under the discard pile."""
    g, _ = discarded({0: [None], 1: [None]}, "shoebill", deck=["macaw", "cuckoo"])
    at(g, "end_turn", 0)
    state = g.to_json()
    assert sorted(c.rsplit("-", 1)[0] for c in state["under"]) == ["cuckoo", "macaw"]
    assert state["top"].startswith("shoebill")


@pytest.mark.clause("6.9.2", "7.1.7")
def test_shoebill_recycles_between_its_two_draws():
    """When the deck runs out between the two Shoebill draws, the pile is recycled (top stays) and the draw resumes."""
    g, _ = discarded({0: ["heron", "eagle"], 1: ["flamingo", "sparrow"]}, "shoebill", deck=["owl"], rest="discard")
    at(g, "recycle")
    top = g.to_json()["top"]
    cards = list(g.pending.data["cards"])
    assert top not in cards and "owl-1" not in cards  # the first drawn card is in the user's hand
    g.apply(Shuffle(tuple(cards)))
    at(g, "shoebill", 0)
    assert list(g.pending.data["cards"]) == ["owl-1", cards[0]]
    assert g.to_json()["discard"] == [top]


# --- the per-turn limit (6.11) ---------------------------------------------------------------------
@pytest.mark.clause("6.11.1", "R-08", "R-12", "FAQ-13")
def test_a_card_swapped_by_a_power_cannot_be_swapped_again_this_turn():
    """A card moved by a power cannot be moved by another power in the same turn; others can."""
    g = position(zones={0: ["cuckoo", "owl", "heron"], 1: ["eagle", "sparrow"], 2: ["swallow", "kingfisher"]},
                 drawn="cuckoo", active=0)
    g.apply(Pluck(0, ((0, 1),)))
    g.apply(BlindSwap(0, (0, 2), (1, 1)))  # the drawn reference's power
    at(g, "blind_swap", 0)  # the removed cuckoo's power
    rejects(g, BlindSwap(0, (0, 2), (2, 1)), "moved_by_power_this_turn")
    rejects(g, BlindSwap(0, (2, 1), (1, 1)), "moved_by_power_this_turn")
    moved = {"0": 2, "1": 1}
    assert all(a[1] != moved.get(str(a[0])) and b[1] != moved.get(str(b[0]))
               for a, b in ((x.first, x.second) for x in g.legal_actions()))
    g.apply(BlindSwap(0, (0, 3), (2, 1)))
    assert (species(g, 0, 3), species(g, 2, 1)) == ("swallow", "heron")


@pytest.mark.clause("6.11.1", "6.5.2", "R-12")
def test_blind_swap_has_no_effect_when_every_rival_card_was_moved_this_turn():
    """When the only rival card was already moved by a power this turn, a second blind swap has no valid pair."""
    g = position(zones={0: ["cuckoo", "owl", "heron"], 1: ["eagle"]}, drawn="cuckoo", active=0)
    g.apply(Pluck(0, ((0, 1),)))
    g.apply(BlindSwap(0, (0, 2), (1, 1)))
    at(g, "end_turn", 0)
    assert species_map(g) == {"0": [None, "eagle", "heron"], "1": ["owl"]}


@pytest.mark.clause("6.11.1", "6.11.2", "R-12", "FAQ-13")
def test_a_card_moved_this_turn_may_still_be_looked_at_but_not_swapped():
    """A card swapped by a Macaw may be looked at by another power that turn, but not swapped again."""
    g = position(zones={0: ["macaw", "owl", "heron"], 1: ["eagle", "sparrow"]}, drawn="macaw", active=0)
    g.apply(Pluck(0, ((0, 1),)))
    g.apply(MacawLook(0, (0, 2), (1, 1)))
    g.apply(MacawSwap(0, True))  # owl <-> eagle
    at(g, "macaw", 0)
    g.apply(MacawLook(0, (0, 2), (1, 2)))  # looking at the moved eagle is allowed
    assert sees(g, 0, 1, 2) == "sparrow"
    assert g.pending.kind != "macaw_swap"
    rejects(g, MacawSwap(0, True), "wrong_decision")
    assert species_map(g) == {"0": [None, "eagle", "heron"], "1": ["owl", "sparrow"]}


@pytest.mark.clause("6.11.1", "R-04", "FAQ-13")
def test_the_limit_holds_across_powers_of_different_players():
    """The per-turn limit holds even when the two powers belong to different players."""
    g = position(zones={0: ["owl", "heron"], 1: ["cuckoo", "eagle", "sparrow"]}, drawn="cuckoo", active=0)
    g.apply(Discard(0))
    g.apply(Pluck(1, ((1, 1),)))
    g.apply(BlindSwap(1, (1, 2), (0, 1)))  # the plucker's power moves eagle and owl
    at(g, "blind_swap", 0)
    rejects(g, BlindSwap(0, (0, 1), (1, 3)), "moved_by_power_this_turn")
    rejects(g, BlindSwap(0, (0, 2), (1, 2)), "moved_by_power_this_turn")
    g.apply(BlindSwap(0, (0, 2), (1, 3)))
    assert species_map(g) == {"0": ["eagle", "sparrow"], "1": [None, "owl", "heron"]}


@pytest.mark.clause("6.11.1", "R-08", "R-28")
def test_cards_placed_by_a_shoebill_cannot_be_replaced_again_this_turn():
    """Cards a Shoebill placed count as moved: a second Shoebill that turn cannot replace them."""
    g = position(zones={0: ["shoebill", "owl", "heron"], 1: ["eagle", "sparrow"]}, drawn="shoebill",
                 deck=["hummingbird", "kingfisher", "swallow", "flamingo"], active=0)
    g.apply(Pluck(0, ((0, 1),)))
    at(g, "shoebill", 0)
    g.apply(ShoebillReplace(0, (0, 2), (1, 1, 1)))
    at(g, "shoebill", 0)  # the removed Shoebill's power
    rejects(g, ShoebillReplace(0, (0, 2), (1, 1, 2)), "moved_by_power_this_turn")
    rejects(g, ShoebillReplace(0, (0, 3), (1, 1, 1)), "moved_by_power_this_turn")
    g.apply(ShoebillReplace(0, (0, 3), (1, 1, 2)))
    assert species_map(g) == {"0": [None, "hummingbird", "swallow"], "1": ["kingfisher", "flamingo"]}


@pytest.mark.clause("6.11.1", "6.9.6", "R-08", "R-19", "R-28")
def test_shoebill_skips_a_rival_replacement_blocked_by_the_limit():
    """If the only rival card was placed by a power this turn, a second Shoebill only replaces an own card."""
    g = position(zones={0: ["shoebill", "owl", "heron"], 1: ["eagle"]}, drawn="shoebill",
                 deck=["hummingbird", "kingfisher", "swallow", "flamingo"], active=0)
    g.apply(Pluck(0, ((0, 1),)))
    g.apply(ShoebillReplace(0, (0, 2), (1, 1, 1)))
    under = len(g.to_json()["under"])
    rejects(g, ShoebillReplace(0, (0, 3), (1, 1, 1)), "moved_by_power_this_turn")
    g.apply(ShoebillReplace(0, (0, 3), None))
    assert species_map(g) == {"0": [None, "hummingbird", "swallow"], "1": ["kingfisher"]}
    assert len(g.to_json()["under"]) == under + 2  # the heron and the unused flamingo
    at(g, "end_turn", 0)


@pytest.mark.clause("6.11.1")
def test_the_limit_ends_when_the_next_turn_begins():
    """A card moved by a power in one turn may be moved by a power again in the next turn."""
    g, _ = discarded({0: ["owl", "heron"], 1: ["eagle", "sparrow"]}, "cuckoo", deck=["cuckoo"])
    g.apply(BlindSwap(0, (0, 1), (1, 1)))
    g.apply(EndTurn(0))
    at(g, "turn", 1)
    g.apply(Draw(1))
    g.apply(Discard(1))
    g.apply(CloseWindow())
    at(g, "blind_swap", 1)
    g.apply(BlindSwap(1, (1, 1), (0, 1)))  # the same two cards, swapped back
    assert species_map(g) == {"0": ["owl", "heron"], "1": ["eagle", "sparrow"]}


@pytest.mark.clause("6.11.1")
def test_a_card_moved_by_a_gift_not_a_power_may_still_be_swapped_by_a_power():
    """Only moves made by powers count for the per-turn limit: a card just given after a pluck may be swapped."""
    g = position(zones={0: ["cuckoo", "cuckoo", "heron"], 1: ["eagle", "sparrow", "swallow"]}, drawn="owl", active=0)
    g.apply(Keep(0, 1))  # the old cuckoo goes face up
    g.apply(Pluck(1, ((0, 2),)))  # P1 plucks P0's cuckoo
    g.apply(Gift(1, 1))  # and gives the eagle into P0's slot 2
    at(g, "blind_swap", 1)
    g.apply(BlindSwap(1, (0, 2), (1, 2)))
    assert (species(g, 0, 2), species(g, 1, 2)) == ("sparrow", "eagle")
