"""6.3 White Pelican (power ``peek``): look at one face-down card of any zone."""

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
class PeekAt(Action):
    """6.3.1 White Pelican: look at one face-down card."""

    player: int
    target: Target


def validate_peek(g: Game, a: PeekAt) -> None:
    g.require_player(a)
    g.check_target(a.target, "6.3.1")


def perform_peek(g: Game, a: PeekAt) -> None:
    card = g.state.card_at(a.target)
    if card is not None:
        g.state.see(card, a.player)
    g.emit("peeked", "6.3.1", player=a.player, target=list(a.target))
    g.then(ShieldCheck())


def legal_peek(g: Game) -> list[PeekAt]:
    return [PeekAt(g.decision.decider, t) for t in targets.hidden_cards(g.state)]


POWER = Power(
    name="peek",
    decision="white_pelican",
    possible=lambda g, player: bool(targets.hidden_cards(g.state)),
    actions={"peek_at": PeekAt},
    answers={("white_pelican", PeekAt): (validate_peek, perform_peek)},
    legal={"white_pelican": legal_peek},
)
