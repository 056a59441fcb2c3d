"""6.4 Brown Pelican (power ``show``): show one face-down card of any zone to everyone."""

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
class ShowCard(Action):
    """6.4.1 Brown Pelican: show one face-down card to everyone."""

    player: int
    target: Target


def validate_show(g: Game, a: ShowCard) -> None:
    g.require_player(a)
    g.check_target(a.target, "6.4.1")


def perform_show(g: Game, a: ShowCard) -> None:
    """6.4.1: everyone sees it; 6.4.2: showing never activates a power nor opens a pluck."""
    card = g.check_target(a.target, "6.4.1")
    g.state.show_all(card)
    g.emit("shown", "6.4.1", also=("6.4.2",), player=a.target[0], slot=a.target[1], card=card, by=a.player)
    g.then(ShieldCheck())


def legal_show(g: Game) -> list[ShowCard]:
    return [ShowCard(g.decision.decider, t) for t in targets.hidden_cards(g.state)]


POWER = Power(
    name="show",
    decision="brown_pelican",
    possible=lambda g, player: bool(targets.hidden_cards(g.state)),
    actions={"show_card": ShowCard},
    answers={("brown_pelican", ShowCard): (validate_show, perform_show)},
    legal={"brown_pelican": legal_show},
)
