"""6.7 Toco Toucan (power ``add_to_rival``): the top deck card, unseen, goes to a rival's zone."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from baobei_ref import deck, zones
from baobei_ref.actions import Action
from baobei_ref.agenda import PlaceCard, ShieldCheck, TocoDraw
from baobei_ref.powers.power import Power

if TYPE_CHECKING:
    from baobei_ref.game import Game
    from baobei_ref.state import State


@dataclass(frozen=True)
class TocoAdd(Action):
    """6.7.1 Toco Toucan: add the top deck card to ``rival``'s zone."""

    player: int
    rival: int


def rivals(s: State, player: int) -> list[int]:
    """6.7.1 / 6.7.3 (B.8): any rival, one with zero cards included, unless the shield protects them."""
    return [r for r in s.rivals(player) if not zones.protected(s, r, player)]


def validate_toco(g: Game, a: TocoAdd) -> None:
    g.require_player(a)
    s = g.state
    g.require(a.rival in s.rivals(a.player), "illegal_target", f"player {a.rival} is not a rival", "6.7.1")
    g.require(not zones.protected(s, a.rival, a.player), "shielded", f"player {a.rival} is shielded", "4.2.7")


def perform_toco(g: Game, a: TocoAdd) -> None:
    g.emit("toco_target", "6.7.1", also=("6.7.2",), player=a.player, rival=a.rival)
    g.then(TocoDraw(a.player, a.rival))


def step_toco_draw(g: Game, player: int, rival: int) -> None:
    """6.7.1: the top deck card, unseen, goes to the rival, who picks the empty slot (6.7.2: no power)."""
    card = deck.draw(g, TocoDraw(player, rival))
    if card is None:
        if g.state.pending is None:
            g.then(ShieldCheck())
        return
    g.rules.placed_by_power(g, card)  # ruling R-28
    g.then(PlaceCard(rival, card, player, "6.7.1"), ShieldCheck())


def legal_toco(g: Game) -> list[TocoAdd]:
    p = g.decision.decider
    return [TocoAdd(p, r) for r in rivals(g.state, p)]


POWER = Power(
    name="add_to_rival",
    decision="toco_toucan",
    possible=lambda g, player: bool(rivals(g.state, player)),
    actions={"toco_add": TocoAdd},
    answers={("toco_toucan", TocoAdd): (validate_toco, perform_toco)},
    legal={"toco_toucan": legal_toco},
    steps={"toco_draw": step_toco_draw},
)
