"""The reference's switches (rule parameter ``rulings``): each alternative reading of spec/rulings.yaml
that the reference implements behaves as its text says, and the default is the adopted reading.

R-05's readings are pinned in test_part2_turn_deck_zero.py; this file pins R-04 A, R-06 A, R-07 B,
R-09 B, R-15 A, R-17 A, R-19 A, R-21 A and B, R-28 B and R-30 B, each against the adopted reading.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from baobei_ref import RuleError
from baobei_ref.actions import ChooseFirstPlayer, CloseWindow, Discard, Draw, EndTurn, Pluck, Shuffle, TakeDiscard
from baobei_ref.game import Game, default_catalog, default_params
from baobei_ref.powers.add_to_rival import TocoAdd
from baobei_ref.powers.double_replace import ShoebillReplace
from baobei_ref.setup import position

CAT = default_catalog()
# Every card but one Eagle in a zone (33 + 32 = 65): the deck is empty and cannot be rebuilt.
FULL = {
    0: ["hummingbird"] * 5 + ["sparrow"] * 5 + ["swallow"] * 5 + ["kingfisher"] * 5 + ["owl"] * 5 + ["heron"] * 5
    + ["golden_toucan", "shoebill", "shoebill"],
    1: ["white_pelican"] * 5 + ["brown_pelican"] * 5 + ["cuckoo"] * 5 + ["macaw"] * 5 + ["flamingo"] * 5
    + ["eagle"] * 4 + ["toco_toucan"] * 3,
}


def under(reading: str | None, ruling: str):
    """Rule parameters reading ``ruling`` as ``reading`` (None: the adopted reading)."""
    return None if reading is None else replace(default_params(), rulings={ruling: reading})


@pytest.mark.clause("6.1.2", "6.10.5", "R-04")
@pytest.mark.parametrize(("reading", "first"), [(None, (1, "brown_pelican")), ("A", (0, "white_pelican"))])
def test_r04_whose_power_first_after_a_window_pluck_on_a_direct_discard(reading, first):
    """Adopted B: the plucker's removed Brown Pelican first, then the active player's discarded White
    Pelican (lines 144, 264); A: the discard's power first, as it was visible first."""
    g = position(zones={0: ["owl", "heron"], 1: ["brown_pelican", "eagle"]}, drawn="white_pelican",
                 params=under(reading, "R-04"))
    g.apply(Discard(0))
    g.apply(Pluck(1, ((1, 1),)))  # the pelicans match (line 72)
    assert (g.pending.player, g.pending.kind) == first


@pytest.mark.clause("7.1.8", "R-09")
@pytest.mark.parametrize(("reading", "pending"), [(None, ("turn", 0)), ("B", ("end_turn", 0))])
def test_r09_a_turn_that_starts_with_nothing_to_draw(reading, pending):
    """Adopted A: the player may still take the discard (line 282: skip only the impossible draw);
    B: the whole turn is skipped, straight to its end."""
    table = position(zones=FULL, deck=[], discard=["eagle"], active=1).to_json()  # p1 may take the Eagle
    g = Game.from_json(table, params=under(reading, "R-09") or default_params())
    g.apply(TakeDiscard(1, 1))  # the White Pelican it replaces is the only card on the pile
    g.apply(CloseWindow())
    g.apply(EndTurn(1))
    assert (g.pending.kind, g.pending.player) == pending


@pytest.mark.clause("2.1.2", "2.3.1", "R-15")
@pytest.mark.parametrize("reading", [None, "A"])
def test_r15_dealing_order(reading):
    """Adopted B: one card at a time, p0 first; A: each player's five cards in one block."""
    g = Game(players=2, params=under(reading, "R-15"))
    g.apply(ChooseFirstPlayer(0))
    order = tuple(sorted(g.pending.data["cards"], key=lambda c: (CAT.species_of(c) != "owl", c)))
    g.apply(Shuffle(order))  # the five Owls on top of the deck
    owls = [sum(CAT.species_of(c) == "owl" for c in g.state.zones[p]) for p in (0, 1)]
    assert owls == ([5, 0] if reading == "A" else [3, 2])


@pytest.mark.clause("4.1.2", "7.2.5", "R-17")
@pytest.mark.parametrize(("reading", "pending"), [(None, "turn"), ("A", "end_turn")])
def test_r17_no_bao_in_the_final_phase(reading, pending):
    """Adopted B: no BAO during the final phase (line 290), so the turn ends by itself; A: BAO may be
    called at the end of any turn while nobody has called it."""
    g = position(zones={0: ["owl"], 1: ["heron"], 2: ["eagle"]}, deck=["sparrow"], recycles=2, final_phase=True,
                 last_turns=[1, 2], params=under(reading, "R-17"))
    g.apply(Draw(0))
    g.apply(Discard(0))
    g.apply(CloseWindow())
    assert g.pending.kind == pending


@pytest.mark.clause("5.4.1", "R-07")
@pytest.mark.parametrize(("reading", "pending"), [(None, "end_turn"), ("B", "turn")])
def test_r07_bao_in_a_decisive_round(reading, pending):
    """Adopted A: a decisive round is a normal round (line 202 limits only the threshold and who plays),
    so BAO may be called at the end of a turn; B: no BAO in a decisive round."""
    table = position(zones={0: ["owl"], 1: ["heron"]}, deck=["sparrow"]).to_json()
    g = Game.from_json({**table, "decisive": True, "round": 2}, params=under(reading, "R-07") or default_params())
    g.apply(Draw(0))
    g.apply(Discard(0))
    g.apply(CloseWindow())
    assert g.pending.kind == pending


@pytest.mark.clause("7.2.3", "7.2.4", "R-06")
@pytest.mark.parametrize(("reading", "turns"), [(None, (1, [2])), ("A", (2, []))])
def test_r06_who_triggered_a_final_phase_caused_by_a_penalty(reading, turns):
    """Adopted B: the active player's turn anchors the phase (lines 288, 354), so the penalized player 1
    still plays a last turn; A: player 1 triggered it and does not play again (line 289)."""
    g = position(zones={0: ["owl", "heron"], 1: ["eagle", "flamingo"], 2: ["kingfisher", "swallow"]},
                 drawn="owl", deck=[], discard=["sparrow"], rest="discard", recycles=1, active=0,
                 params=under(reading, "R-06"))
    g.apply(Discard(0))
    g.apply(Pluck(1, ((2, 1),)))  # a Kingfisher is no Owl: the penalty draw needs the second recycle
    g.apply(Shuffle(tuple(sorted(g.pending.data["cards"], key=lambda c: (CAT.power(c) is not None, c)))))
    assert g.pending.kind == "turn" and (g.pending.player, g.to_json()["last_turns"]) == turns


def shoebill_pending(zones: dict, deck: list[str], discard: list[str], reading, ruling: str) -> Game:
    """Player 0 draws a Shoebill, discards it, nobody plucks: its power asks for the replacements."""
    g = position(zones=zones, deck=["shoebill", *deck], discard=discard, params=under(reading, ruling))
    g.apply(Draw(0))
    g.apply(Discard(0))
    g.apply(CloseWindow())
    if g.pending.kind == "recycle":
        g.apply(Shuffle(tuple(g.pending.data["cards"])))
    assert g.pending.kind == "shoebill"
    return g


@pytest.mark.clause("6.9.3", "R-19")
@pytest.mark.parametrize("reading", [None, "A"])
def test_r19_which_drawn_card_replaces_the_own_card(reading):
    """Adopted B: the user assigns the two drawn cards freely (line 247: "Elige una"); A: the first
    drawn card replaces the own card."""
    g = shoebill_pending({0: ["owl", "heron"], 1: ["eagle", "flamingo"]}, ["sparrow", "swallow"], ["kingfisher"],
                         reading, "R-19")
    second_to_own = ShoebillReplace(0, (1, 1), (0, 1, 1))
    assert (second_to_own in g.legal_actions()) is (reading is None)
    if reading is None:
        g.apply(second_to_own)
        assert CAT.species_of(g.state.zones[0][0]) == "swallow"
    else:
        with pytest.raises(RuleError, match="R-19, reading A"):
            g.apply(second_to_own)


@pytest.mark.clause("6.9.6", "7.1.8", "R-21")
@pytest.mark.parametrize(("reading", "allowed"), [(None, {"own", "rival"}), ("A", {"own"}), ("B", {"rival"})])
def test_r21_a_single_drawn_card(reading, allowed):
    """Adopted C: one possible replacement, the user's choice (line 251); A: the own one; B: the rival one."""
    zones = {0: FULL[0][:-1], 1: FULL[1]}  # one Shoebill in the deck, the Eagle on the pile: nothing else
    g = shoebill_pending(zones, [], ["eagle"], reading, "R-21")
    assert len(g.pending.data["cards"]) == 1  # the recycled Eagle; the second draw is impossible
    choices = {"own": ShoebillReplace(0, (0, 1), None), "rival": ShoebillReplace(0, None, (0, 1, 1))}
    assert {k for k, a in choices.items() if a in g.legal_actions()} == allowed
    for name in allowed ^ set(choices):
        with pytest.raises(RuleError, match=f"R-21, reading {reading}"):
            g.apply(choices[name])


@pytest.mark.clause("6.11.1", "6.9.4", "6.7.1", "R-28")
@pytest.mark.parametrize("reading", [None, "B"])
def test_r28_cards_a_power_puts_into_a_zone(reading):
    """Adopted A: the Shoebill's placed cards and a Toco Toucan's added card count as moved by a power this
    turn, the added one from its draw; B: only moved, swapped and replaced cards count (line 268), so a
    second Shoebill of the same turn may replace a placed card and the added card is never marked."""
    g = position(zones={0: ["shoebill", "owl", "heron"], 1: ["eagle", "sparrow", None]}, drawn="shoebill",
                 deck=["hummingbird", "kingfisher", "swallow", "flamingo", "toco_toucan", "owl"], active=0,
                 params=under(reading, "R-28"))
    g.apply(Pluck(0, ((0, 1),)))
    g.apply(ShoebillReplace(0, (0, 2), (1, 1, 1)))  # the drawn Shoebill places a Hummingbird and a Kingfisher
    placed = {g.state.zones[0][1], g.state.zones[1][0]}
    assert (placed <= set(g.to_json()["moved"])) is (reading is None)
    again = ShoebillReplace(0, (0, 2), (1, 1, 1))  # the removed Shoebill replaces both placed cards
    if reading is None:
        with pytest.raises(RuleError, match="moved_by_power_this_turn|already moved"):
            g.apply(again)
    else:
        g.apply(again)
        assert [CAT.species_of(c) for c in (g.state.zones[0][1], g.state.zones[1][0])] == ["swallow", "flamingo"]


@pytest.mark.clause("6.7.1", "6.11.1", "R-28")
@pytest.mark.parametrize("reading", [None, "B"])
def test_r28_a_toco_card_counts_as_moved_from_its_draw(reading):
    """Adopted A: the Toco Toucan's card is in the moved list as soon as it is drawn, while its slot is still
    being chosen; B: it never is."""
    g = position(zones={0: ["owl", "heron"], 1: ["eagle", None, None]}, deck=["toco_toucan", "sparrow"],
                 params=under(reading, "R-28"))
    g.apply(Draw(0))
    g.apply(Discard(0))
    g.apply(CloseWindow())
    g.apply(TocoAdd(0, 1))
    assert g.pending.kind == "place" and g.pending.player == 1  # two empty slots: p1 chooses (ruling R-18)
    sparrow = g.to_json()["pending"]["data"]["card"]
    assert (sparrow in g.to_json()["moved"]) is (reading is None)


@pytest.mark.clause("6.9.2", "6.9.6", "6.10.7", "R-30")
@pytest.mark.parametrize(("reading", "drawn"), [(None, 2), ("B", 0)])
def test_r30_a_shoebill_that_can_replace_nothing(reading, drawn):
    """Adopted A: the two cards are drawn and slid under the pile (line 251); B: the power has no effect and
    draws nothing (line 266)."""
    g = position(zones={0: [None], 1: [None]}, deck=["shoebill", "owl", "heron", "eagle"],
                 params=under(reading, "R-30"))
    deck = len(g.to_json()["deck"])
    g.apply(Draw(0))
    g.apply(Discard(0))
    after = g.to_json()
    assert (deck - 1 - len(after["deck"]), len(after["under"])) == (drawn, drawn)
    assert (g.pending.kind, g.pending.player) == ("end_turn", 0)

