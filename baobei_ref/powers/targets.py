"""What powers may look at and move: hidden cards, pairs of two players' cards, the shield and the
per-turn limit (4.2.7, 6.11.1, rulings R-08 and R-28), and the swap two powers share (6.5.1, 6.6.1)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from baobei_ref import zones
from baobei_ref.actions import Target
from baobei_ref.rules import reading

if TYPE_CHECKING:
    from baobei_ref.game import Game
    from baobei_ref.state import State


class TwoTargets(Protocol):
    """An action naming two cards: the blind swap, the Macaw's look."""

    @property
    def first(self) -> Target: ...

    @property
    def second(self) -> Target: ...


def hidden_cards(s: State) -> list[Target]:
    """Every card in a zone, as (owner, slot)."""
    return [(p, slot) for p in s.players for slot in s.own_slots(p)]


def movable(g: Game, target: Target, player: int) -> bool:
    """A power may move/swap/replace this card: no active shield against ``player`` (4.2.7),
    not already moved by a power this turn (6.11.1, ruling R-08)."""
    s = g.state
    return not zones.protected(s, target[0], player) and s.card_at(target) not in s.moved


def counts_as_moved(g: Game, card: str) -> None:
    """Ruling R-28 (adopted A): a card a power puts into a zone counts as moved by a power this turn (6.11.1),
    from the moment the power draws it."""
    g.state.moved.add(card)


def not_counted(g: Game, card: str) -> None:
    """Ruling R-28, reading B (a switch): only moving, swapping and replacing count (268); an added or placed
    card does not."""


def pairs(g: Game, player: int, need_movable: bool) -> list[tuple[Target, Target]]:
    """Two cards of two different players (6.5.1, 6.6.1); both movable by ``player`` when ``need_movable``.
    Ordered pairs: apply accepts either order (the events name the order)."""
    cards = [t for t in hidden_cards(g.state) if not need_movable or g.rules.movable(g, t, player)]
    return [(a, b) for a in cards for b in cards if a[0] != b[0]]


def check_pair(g: Game, a: TwoTargets, clause: str) -> None:
    g.check_target(a.first, clause)
    g.check_target(a.second, clause)
    g.require(a.first[0] != a.second[0], "illegal_target", "the two cards must belong to two different players", clause)


def check_movable(g: Game, player: int, targets: Sequence[Target], clause: str) -> None:
    """Refuse a target no power of ``player`` may move now (4.2.7, 6.11.1)."""
    s = g.state
    for t in targets:
        g.require(not zones.protected(s, t[0], player), "shielded", f"player {t[0]}'s cards are shielded", "4.2.7")
        g.require(s.card_at(t) not in s.moved, "moved_by_power_this_turn",
                  f"the card in slot {t[1]} of player {t[0]} was already moved by a power this turn", "6.11.1")


def swap_cards(g: Game, player: int, first: Target, second: Target, clause: str) -> None:
    """2.5.5: two cards exchange slots; both count as moved by a power this turn (6.11.1, ruling R-08)."""
    s = g.state
    for card in (s.card_at(first), s.card_at(second)):
        if card is not None:
            s.moved.add(card)
    zones.swap(s, first, second, by=player)
    g.emit("swapped", clause, ruling="R-08", also=("2.5.5", "6.11.1"), player=player, first=list(first),
           second=list(second))


VARIANTS = (reading("R-28", "B", placed_by_power=not_counted),)
