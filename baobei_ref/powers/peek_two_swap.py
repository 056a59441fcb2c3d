"""6.6 Macaw (power ``peek_two_swap``): look at two cards of two players, then swap them or not."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from baobei_ref import zones
from baobei_ref.actions import Action, Target
from baobei_ref.agenda import ShieldCheck
from baobei_ref.powers import targets
from baobei_ref.powers.power import Power

if TYPE_CHECKING:
    from baobei_ref.game import Game


@dataclass(frozen=True)
class MacawLook(Action):
    """6.6.1 Macaw: look at two cards of two different players."""

    player: int
    first: Target
    second: Target


@dataclass(frozen=True)
class MacawSwap(Action):
    """6.6.1 Macaw: swap the two cards looked at, or not."""

    player: int
    swap: bool


def validate_macaw_look(g: Game, a: MacawLook) -> None:
    g.require_player(a)
    targets.check_pair(g, a, "6.6.1")


def perform_macaw_look(g: Game, a: MacawLook) -> None:
    """6.6.1: look at both; swapping is optional and only for cards a power may move (R-12)."""
    s = g.state
    s.see(g.check_target(a.first, "6.6.1"), a.player)
    s.see(g.check_target(a.second, "6.6.1"), a.player)
    g.emit("peeked", "6.6.1", player=a.player, target=list(a.first), second=list(a.second))
    if g.rules.movable(g, a.first, a.player) and g.rules.movable(g, a.second, a.player):
        g.ask("macaw_swap", a.player, first=list(a.first), second=list(a.second))
    else:  # a shielded card (4.2.7), else one a power already moved this turn (6.11.1)
        shielded = any(zones.protected(s, t[0], a.player) for t in (a.first, a.second))
        g.emit("swap_impossible", "4.2.7" if shielded else "6.11.1", ruling="R-12", player=a.player)
        g.then(ShieldCheck())


def validate_macaw_swap(g: Game, a: MacawSwap) -> None:
    g.require_player(a)
    g.require(isinstance(a.swap, bool), "malformed_action", "swap is true or false")


def perform_macaw_swap(g: Game, a: MacawSwap) -> None:
    d = g.decision.data
    if a.swap:
        targets.swap_cards(g, a.player, (d["first"][0], d["first"][1]), (d["second"][0], d["second"][1]), "6.6.1")
    else:
        g.emit("swap_declined", "6.6.1", player=a.player)
    g.then(ShieldCheck())


def legal_macaw(g: Game) -> list[MacawLook]:
    p = g.decision.decider
    return [MacawLook(p, a, b) for a, b in targets.pairs(g, p, need_movable=False)]


def legal_macaw_swap(g: Game) -> list[MacawSwap]:
    p = g.decision.decider
    return [MacawSwap(p, True), MacawSwap(p, False)]


POWER = Power(
    name="peek_two_swap",
    decision="macaw",
    possible=lambda g, player: bool(targets.pairs(g, player, need_movable=False)),  # 6.6.2, ruling R-12
    actions={"macaw_look": MacawLook, "macaw_swap": MacawSwap},
    answers={("macaw", MacawLook): (validate_macaw_look, perform_macaw_look),
             ("macaw_swap", MacawSwap): (validate_macaw_swap, perform_macaw_swap)},
    legal={"macaw": legal_macaw, "macaw_swap": legal_macaw_swap},
    no_effect_also=("6.6.2",),
)
