"""6.9 Shoebill (power ``double_replace``): draw two cards, replace an own card and a rival's with them.

Rulings R-11 (every possible replacement is made), R-19 (who assigns the drawn cards) and R-21 (a single
drawn card) are named rules: ``first_card_own`` and ``single_card`` (variants may replace them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from baobei_ref import deck, zones
from baobei_ref.actions import Action, Target
from baobei_ref.agenda import ShieldCheck, ShoebillDraw
from baobei_ref.powers.power import Power
from baobei_ref.rules import reading

if TYPE_CHECKING:
    from baobei_ref.game import Game

Own = tuple[int, int] | None  # (index of the drawn card, own slot)
Rival = tuple[int, int, int] | None  # (index of the drawn card, rival, slot)


@dataclass(frozen=True)
class ShoebillReplace(Action):
    """6.9.3: ``own`` = (drawn index, own slot), ``rival`` = (drawn index, rival, slot); None when impossible."""

    player: int
    own: Own
    rival: Rival


def start(g: Game, player: int) -> None:
    """6.9.1: the Shoebill runs 6.9.2 - 6.9.5, starting with the draw (ruling R-30: even when it can replace
    nothing, 6.9.6)."""
    if not g.rules.shoebill_draws(g, player):
        g.emit("power_without_effect", "6.10.7", ruling="R-30", player=player, power="double_replace")
        return
    g.then(ShoebillDraw(player, ()))


def draws_always(g: Game, player: int) -> bool:
    """Ruling R-30 (adopted A): the two cards are drawn first; what cannot be used goes under the pile (6.9.6)."""
    return True


def draws_only_if_possible(g: Game, player: int) -> bool:
    """Ruling R-30, reading B (a switch): with no replacement possible the power has no effect and draws
    nothing (6.10.7)."""
    own, rival = options(g, player)
    return bool(own or rival)


def step_shoebill_draw(g: Game, player: int, drawn: tuple[str | None, ...]) -> None:
    """6.9.2: draw two cards one by one (a recycle may come between them, 7.1.7) and look at them."""
    s = g.state
    if len(drawn) < 2:
        card = deck.draw(g, ShoebillDraw(player, drawn))
        if s.pending is not None:
            return
        if card is not None:
            s.see(card, player)
            g.rules.placed_by_power(g, card)  # ruling R-28: moved from the moment the power draws it
        g.then(ShoebillDraw(player, (*drawn, card)))
        return
    cards = [c for c in drawn if c is not None]
    own, rival = options(g, player)
    if not cards or (not own and not rival):  # 6.9.6: nothing possible, drawn cards go under
        s.under.extend(cards)
        g.emit("power_without_effect", "6.9.6", player=player, power="double_replace", slid_under=len(cards))
        g.then(ShieldCheck())
        return
    g.ask("shoebill", player, cards=cards)


def options(g: Game, player: int) -> tuple[list[int], list[Target]]:
    """Own slots and rival targets the Shoebill may replace (4.2.7, 6.11.1, ruling R-19)."""
    s = g.state
    own = [slot for slot in s.own_slots(player) if s.zones[player][slot - 1] not in s.moved]
    rival = [(r, slot) for r in s.rivals(player) for slot in s.own_slots(r) if g.rules.movable(g, (r, slot), player)]
    return own, rival


def validate_shoebill(g: Game, a: ShoebillReplace) -> None:
    """6.9.3 / 6.9.6: every possible replacement is made (ruling R-11; one drawn card: one of them, R-21)."""
    g.require_player(a)
    cards = g.decision.data["cards"]
    own, rival = options(g, a.player)
    used = []
    if a.own is not None:
        ok = isinstance(a.own, tuple) and len(a.own) == 2 and a.own[0] in range(len(cards))
        g.require(ok, "malformed_action", "own = (index of the drawn card, own slot)", "6.9.3")
        g.check_target((a.player, a.own[1]), "6.9.3")
        g.rules.check_movable(g, a.player, ((a.player, a.own[1]),), "6.9.3")
        used.append(a.own[0])
    if a.rival is not None:
        ok = isinstance(a.rival, tuple) and len(a.rival) == 3 and a.rival[0] in range(len(cards))
        g.require(ok, "malformed_action", "rival = (index of the drawn card, rival, slot)", "6.9.3")
        target = (a.rival[1], a.rival[2])
        g.check_target(target, "6.9.3")
        g.require(target[0] != a.player, "illegal_target", "the other card replaces a rival's card", "6.9.3")
        g.rules.check_movable(g, a.player, (target,), "6.9.3")
        used.append(a.rival[0])
    g.require(len(set(used)) == len(used), "illegal_target", "each drawn card replaces at most one card", "6.9.3")
    needed = min(len(cards), int(bool(own)) + int(bool(rival)))
    g.require(len(used) == needed, "illegal_target", f"make every possible replacement: {needed} here", "6.9.6")
    for refusal in (g.rules.first_card_own(g, a.own, len(cards)),
                    g.rules.single_card(g, a.own, a.rival, own, rival, len(cards))):
        g.require(refusal is None, "illegal_target", refusal or "", "6.9.6")


def user_assigns(g: Game, own_choice: Own, drawn: int) -> str | None:
    """R-19 (adopted B): the power user assigns the two drawn cards freely. Returns why a choice is refused, or None."""
    return None


def first_card_own(g: Game, own_choice: Own, drawn: int) -> str | None:
    """R-19, reading A (a switch): the first drawn card replaces the own card."""
    if drawn == 2 and own_choice is not None and own_choice[0] != 0:
        return "the first drawn card replaces the own card (ruling R-19, reading A)"
    return None


def single_card_chosen(g: Game, own_choice: Own, rival_choice: Rival, own: list[int], rival: list[Target],
                       drawn: int) -> str | None:
    """R-21 (adopted C): a single drawn card makes the replacement the power user chooses."""
    return None


def single_card_own(g: Game, own_choice: Own, rival_choice: Rival, own: list[int], rival: list[Target],
                    drawn: int) -> str | None:
    """R-21, reading A (a switch): a single drawn card makes the own replacement whenever it is possible."""
    if drawn == 1 and own and own_choice is None:
        return "a single drawn card makes the own replacement (ruling R-21, reading A)"
    return None


def single_card_rival(g: Game, own_choice: Own, rival_choice: Rival, own: list[int], rival: list[Target],
                      drawn: int) -> str | None:
    """R-21, reading B (a switch): a single drawn card makes the rival replacement whenever it is possible."""
    if drawn == 1 and rival and rival_choice is None:
        return "a single drawn card makes the rival replacement (ruling R-21, reading B)"
    return None


def perform_shoebill(g: Game, a: ShoebillReplace) -> None:
    """6.9.4 / 6.9.5: new cards face down into the slots; the old ones slid unseen under the pile."""
    s = g.state
    cards = list(g.decision.data["cards"])
    if a.own is not None:
        put(g, a.player, (a.player, a.own[1]), cards[a.own[0]])
    if a.rival is not None:
        put(g, a.player, (a.rival[1], a.rival[2]), cards[a.rival[0]])
    used = {x[0] for x in (a.own, a.rival) if x is not None}
    unused = [c for i, c in enumerate(cards) if i not in used]
    s.under.extend(unused)  # 6.9.6: a drawn card that cannot be used
    if unused:
        g.emit("slid_under", "6.9.6", also=("6.9.5",), player=a.player, count=len(unused))
    g.then(ShieldCheck())


def put(g: Game, player: int, target: Target, card: str) -> None:
    s = g.state
    old = zones.replace(s, target[0], target[1], card, by=player)
    s.under.append(old)
    g.emit("replaced", "6.9.4", ruling="R-28", also=("6.9.1", "6.9.2", "6.9.3", "6.9.5", "2.5.3", "6.11.1"),
           player=target[0], slot=target[1], by=player)


def legal_shoebill(g: Game) -> list[ShoebillReplace]:
    p = g.decision.decider
    n = len(g.decision.data["cards"])
    own, rival = options(g, p)
    own_choices: list[Own] = [(i, slot) for i in range(n) for slot in own] or [None]
    rival_choices: list[Rival] = [(i, r, slot) for i in range(n) for r, slot in rival] or [None]
    needed = min(n, int(bool(own)) + int(bool(rival)))
    out = []
    for o in own_choices + [None]:
        for r in rival_choices + [None]:
            made: list[Any] = [x for x in (o, r) if x is not None]
            if len(made) == needed and len({x[0] for x in made}) == len(made) \
                    and g.rules.first_card_own(g, o, n) is None and g.rules.single_card(g, o, r, own, rival, n) is None:
                out.append(ShoebillReplace(p, o, r))
    return list(dict.fromkeys(out))


POWER = Power(
    name="double_replace",
    decision="shoebill",
    possible=lambda g, player: True,  # 6.9.6 is settled once the cards are drawn
    actions={"shoebill_replace": ShoebillReplace},
    answers={("shoebill", ShoebillReplace): (validate_shoebill, perform_shoebill)},
    legal={"shoebill": legal_shoebill},
    steps={"shoebill_draw": step_shoebill_draw},
    start=start,
)
VARIANTS = (
    reading("R-19", "A", first_card_own=first_card_own),
    reading("R-21", "A", single_card=single_card_own),
    reading("R-21", "B", single_card=single_card_rival),
    reading("R-30", "B", shoebill_draws=draws_only_if_possible),
)
