"""6.5 the blind-swap bird (power ``blind_swap``, ruling R-03 names it): swap two cards of two players unseen."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from baobei_ref.actions import Action, Target
from baobei_ref.agenda import ShieldCheck
from baobei_ref.powers import targets
from baobei_ref.powers.power import Power

if TYPE_CHECKING:
    from baobei_ref.game import Game


@dataclass(frozen=True)
class BlindSwap(Action):
    """6.5.1 blind-swap bird: swap two cards of two different players unseen."""

    player: int
    first: Target
    second: Target


def validate_blind_swap(g: Game, a: BlindSwap) -> None:
    g.require_player(a)
    targets.check_pair(g, a, "6.5.1")
    g.rules.check_movable(g, a.player, (a.first, a.second), "6.5.1")


def perform_blind_swap(g: Game, a: BlindSwap) -> None:
    targets.swap_cards(g, a.player, a.first, a.second, "6.5.1")
    g.then(ShieldCheck())


def legal_blind_swap(g: Game) -> list[BlindSwap]:
    p = g.decision.decider
    return [BlindSwap(p, a, b) for a, b in targets.pairs(g, p, need_movable=True)]


POWER = Power(
    name="blind_swap",
    decision="blind_swap",
    possible=lambda g, player: bool(targets.pairs(g, player, need_movable=True)),  # 6.5.2, ruling R-12
    actions={"blind_swap": BlindSwap},
    answers={("blind_swap", BlindSwap): (validate_blind_swap, perform_blind_swap)},
    legal={"blind_swap": legal_blind_swap},
    no_effect_also=("6.5.2",),
)
