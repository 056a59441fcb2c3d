"""Annex A (part 6): when powers activate (6.1), each power (6.3 - 6.9), order and limits (6.10, 6.11).

6.1.1 / 6.2.2: a power activates only through a "power" step, and those are scheduled in exactly
three places: 6.1.2 (``step_discard_power``), 6.1.3 and 6.1.4 (``pluck.resolve``). Seeing, taking,
keeping, swapping, giving, adding, penalty cards and showing never schedule one (6.1.5).
"""

from __future__ import annotations

from baobei_ref import deck, zones
from baobei_ref.actions import BlindSwap, MacawLook, MacawSwap, PeekAt, ShoebillReplace, ShowCard, TocoAdd
from baobei_ref.readings import reading

NO_EFFECT_ALSO = {"blind_swap": ("6.5.2",), "peek_two_swap": ("6.6.2",)}
DECISION = {  # power -> the decision that asks for its choices
    "peek": "white_pelican",
    "show": "brown_pelican",
    "blind_swap": "blind_swap",
    "peek_two_swap": "macaw",
    "add_to_rival": "toco_toucan",
}


def step_discard_power(g, card: str) -> None:
    """6.1.2: a drawn card discarded directly gives its power to the drawer, after the window (R-04)."""
    if g.catalog.power(card):
        g.then(["power", g.state.active, card, "6.1.2"])


POWER_ALSO = {  # the activation case (6.1.2 - 6.1.4) and the order rules behind each activation
    "6.1.2": ("6.1.1", "6.2.2"),
    "6.10.3": ("6.1.1", "6.1.3", "6.1.6", "6.10.1", "6.10.2", "6.2.2"),
    "6.10.4": ("6.1.1", "6.1.4", "6.1.6", "6.10.1", "6.10.2", "3.3.7", "6.2.2"),
    "6.10.5": ("6.1.1", "6.1.4", "6.1.6", "6.10.1", "3.3.7", "6.2.2"),
    "6.10.6": ("6.1.1", "6.1.4", "6.1.7", "6.10.1", "3.6.8", "6.2.2"),
}


def step_power(g, player: int, card: str, clause: str) -> None:
    """Activate ``card``'s power for ``player``; 6.8.1: a card without power does nothing.

    6.10.7: each power is completed before the next step; 6.9.1: the Shoebill runs 6.9.2 - 6.9.5.
    """
    power = g.catalog.power(card)
    if power is None:
        return
    g.emit("power", clause, also=POWER_ALSO.get(clause, ()), player=player, card=card, power=power)
    if power == "double_replace":
        g.then(["shoebill_draw", player, []])
    elif _possible(g, player, power):
        g.ask(DECISION[power], player)
    else:
        g.emit("power_without_effect", "6.10.7", also=NO_EFFECT_ALSO.get(power, ()), player=player, power=power)


def _hidden_cards(s) -> list[tuple[int, int]]:
    return [(p, slot) for p in s.players for slot in s.own_slots(p)]


def movable(s, target, player: int) -> bool:
    """A power may move/swap/replace this card: no active shield against ``player`` (4.2.7),
    not already moved by a power this turn (6.11.1, ruling R-08)."""
    return not zones.protected(s, target[0], player) and s.card_at(target) not in s.moved


def _pairs(s, player: int, need_movable: bool):
    """Ordered pairs of cards of two different players: apply accepts either order (the events name the order)."""
    cards = [t for t in _hidden_cards(s) if not need_movable or movable(s, t, player)]
    return [(a, b) for a in cards for b in cards if a[0] != b[0]]


def _possible(g, player: int, power: str) -> bool:
    s = g.state
    if power in ("peek", "show"):
        return bool(_hidden_cards(s))
    if power == "blind_swap":  # 6.5.2, ruling R-12
        return bool(_pairs(s, player, need_movable=True))
    if power == "peek_two_swap":  # 6.6.2, ruling R-12
        return bool(_pairs(s, player, need_movable=False))
    if power == "add_to_rival":
        return bool(_toco_rivals(s, player))
    raise AssertionError(power)


# --- White Pelican (6.3) and Brown Pelican (6.4) ----------------------------------------------------
def validate_peek(g, a: PeekAt) -> None:
    g.require_player(a)
    g.check_target(a.target, "6.3.1")


def perform_peek(g, a: PeekAt) -> None:
    g.state.see(g.state.card_at(a.target), a.player)
    g.emit("peeked", "6.3.1", player=a.player, target=list(a.target))
    g.then(["shield_check"])


def validate_show(g, a: ShowCard) -> None:
    g.require_player(a)
    g.check_target(a.target, "6.4.1")


def perform_show(g, a: ShowCard) -> None:
    """6.4.1: everyone sees it; 6.4.2: showing never activates a power nor opens a pluck."""
    card = g.state.card_at(a.target)
    g.state.show_all(card)
    g.emit("shown", "6.4.1", also=("6.4.2",), player=a.target[0], slot=a.target[1], card=card, by=a.player)
    g.then(["shield_check"])


# --- the blind-swap bird (6.5) and the Macaw (6.6) --------------------------------------------------
def _check_pair(g, a, clause: str) -> None:
    g.check_target(a.first, clause)
    g.check_target(a.second, clause)
    g.require(a.first[0] != a.second[0], "illegal_target", "the two cards must belong to two different players", clause)


def _check_movable(g, player: int, targets, clause: str) -> None:
    s = g.state
    for t in targets:
        g.require(not zones.protected(s, t[0], player), "shielded", f"player {t[0]}'s cards are shielded", "4.2.7")
        g.require(s.card_at(t) not in s.moved, "moved_by_power_this_turn",
                  f"the card in slot {t[1]} of player {t[0]} was already moved by a power this turn", "6.11.1")


def validate_blind_swap(g, a: BlindSwap) -> None:
    g.require_player(a)
    _check_pair(g, a, "6.5.1")
    _check_movable(g, a.player, (a.first, a.second), "6.5.1")


def swap_cards(g, player: int, first, second, clause: str) -> None:
    s = g.state
    s.moved.add(s.card_at(first))
    s.moved.add(s.card_at(second))
    zones.swap(s, first, second, by=player)
    g.emit("swapped", clause, ruling="R-08", also=("2.5.5", "6.11.1"), player=player, first=list(first),
           second=list(second))


def perform_blind_swap(g, a: BlindSwap) -> None:
    swap_cards(g, a.player, a.first, a.second, "6.5.1")
    g.then(["shield_check"])


def validate_macaw_look(g, a: MacawLook) -> None:
    g.require_player(a)
    _check_pair(g, a, "6.6.1")


def perform_macaw_look(g, a: MacawLook) -> None:
    """6.6.1: look at both; swapping is optional and only for cards a power may move (R-12)."""
    s = g.state
    s.see(s.card_at(a.first), a.player)
    s.see(s.card_at(a.second), a.player)
    g.emit("peeked", "6.6.1", player=a.player, target=list(a.first), second=list(a.second))
    if movable(s, a.first, a.player) and movable(s, a.second, a.player):
        g.ask("macaw_swap", a.player, first=list(a.first), second=list(a.second))
    else:
        g.emit("swap_impossible", "4.2.7", ruling="R-12", player=a.player)
        g.then(["shield_check"])


def validate_macaw_swap(g, a: MacawSwap) -> None:
    g.require_player(a)
    g.require(isinstance(a.swap, bool), "malformed_action", "swap is true or false")


def perform_macaw_swap(g, a: MacawSwap) -> None:
    d = g.state.pending.data
    if a.swap:
        swap_cards(g, a.player, tuple(d["first"]), tuple(d["second"]), "6.6.1")
    else:
        g.emit("swap_declined", "6.6.1", player=a.player)
    g.then(["shield_check"])


# --- Toco Toucan (6.7) -----------------------------------------------------------------------------
def _toco_rivals(s, player: int) -> list[int]:
    """6.7.1 / 6.7.3 (B.8): any rival, one with zero cards included, unless the shield protects them."""
    return [r for r in s.rivals(player) if not zones.protected(s, r, player)]


def validate_toco(g, a: TocoAdd) -> None:
    g.require_player(a)
    s = g.state
    g.require(a.rival in s.rivals(a.player), "illegal_target", f"player {a.rival} is not a rival", "6.7.1")
    g.require(not zones.protected(s, a.rival, a.player), "shielded", f"player {a.rival} is shielded", "4.2.7")


def perform_toco(g, a: TocoAdd) -> None:
    g.emit("toco_target", "6.7.1", also=("6.7.2",), player=a.player, rival=a.rival)
    g.then(["toco_draw", a.player, a.rival])


def step_toco_draw(g, player: int, rival: int) -> None:
    """6.7.1: the top deck card, unseen, goes to the rival, who picks the empty slot (6.7.2: no power)."""
    card = deck.draw(g, ["toco_draw", player, rival])
    if card is None:
        if g.state.pending is None:
            g.then(["shield_check"])
        return
    g.state.moved.add(card)  # ruling R-08
    g.then(["place", rival, card, player, "6.7.1"], ["shield_check"])


# --- Shoebill (6.9) --------------------------------------------------------------------------------
def step_shoebill_draw(g, player: int, drawn: list) -> None:
    """6.9.2: draw two cards one by one (a recycle may come between them, 7.1.7) and look at them."""
    s = g.state
    if len(drawn) < 2:
        card = deck.draw(g, ["shoebill_draw", player, drawn])
        if s.pending is not None:
            return
        if card is not None:
            s.see(card, player)
        g.then(["shoebill_draw", player, drawn + [card]])
        return
    cards = [c for c in drawn if c is not None]
    own, rival = shoebill_options(g, player)
    if not cards or (not own and not rival):  # 6.9.6: nothing possible, drawn cards go under
        s.under.extend(cards)
        g.emit("power_without_effect", "6.9.6", player=player, power="double_replace", slid_under=len(cards))
        g.then(["shield_check"])
        return
    g.ask("shoebill", player, cards=cards)


def shoebill_options(g, player: int) -> tuple[list[int], list[tuple[int, int]]]:
    """Own slots and rival targets the Shoebill may replace (4.2.7, 6.11.1, ruling R-19)."""
    s = g.state
    own = [slot for slot in s.own_slots(player) if s.zones[player][slot - 1] not in s.moved]
    rival = [(r, slot) for r in s.rivals(player) for slot in s.own_slots(r) if movable(s, (r, slot), player)]
    return own, rival


def validate_shoebill(g, a: ShoebillReplace) -> None:
    """6.9.3 / 6.9.6: every possible replacement is made (ruling R-11; one drawn card: one of them, R-21)."""
    g.require_player(a)
    cards = g.state.pending.data["cards"]
    own, rival = shoebill_options(g, a.player)
    used = []
    if a.own is not None:
        ok = isinstance(a.own, tuple) and len(a.own) == 2 and a.own[0] in range(len(cards))
        g.require(ok, "malformed_action", "own = (index of the drawn card, own slot)", "6.9.3")
        g.check_target((a.player, a.own[1]), "6.9.3")
        _check_movable(g, a.player, ((a.player, a.own[1]),), "6.9.3")
        used.append(a.own[0])
    if a.rival is not None:
        ok = isinstance(a.rival, tuple) and len(a.rival) == 3 and a.rival[0] in range(len(cards))
        g.require(ok, "malformed_action", "rival = (index of the drawn card, rival, slot)", "6.9.3")
        target = (a.rival[1], a.rival[2])
        g.check_target(target, "6.9.3")
        g.require(target[0] != a.player, "illegal_target", "the other card replaces a rival's card", "6.9.3")
        _check_movable(g, a.player, (target,), "6.9.3")
        used.append(a.rival[0])
    g.require(len(set(used)) == len(used), "illegal_target", "each drawn card replaces at most one card", "6.9.3")
    needed = min(len(cards), int(bool(own)) + int(bool(rival)))
    g.require(len(used) == needed, "illegal_target", f"make every possible replacement: {needed} here", "6.9.6")
    for refusal in (_first_card_own(g, a.own, len(cards)), _single_card(g, a.own, a.rival, own, rival, len(cards))):
        g.require(refusal is None, "illegal_target", refusal or "", "6.9.6")


def _first_card_own(g, own_choice, drawn: int) -> str | None:
    """R-19 (adopted B): the power user assigns the two drawn cards freely. Reading A (a switch): the
    first drawn card replaces the own card. Returns why a choice is refused, or None."""
    if reading(g.params, "R-19") == "A" and drawn == 2 and own_choice is not None and own_choice[0] != 0:
        return "the first drawn card replaces the own card (ruling R-19, reading A)"
    return None


def _single_card(g, own_choice, rival_choice, own, rival, drawn: int) -> str | None:
    """R-21 (adopted C): a single drawn card makes the replacement the power user chooses. Readings A / B
    (switches): it makes the own / the rival replacement whenever that one is possible."""
    chosen = reading(g.params, "R-21")
    if drawn != 1 or chosen == "C":
        return None
    if chosen == "A" and own and own_choice is None:
        return "a single drawn card makes the own replacement (ruling R-21, reading A)"
    if chosen == "B" and rival and rival_choice is None:
        return "a single drawn card makes the rival replacement (ruling R-21, reading B)"
    return None


def perform_shoebill(g, a: ShoebillReplace) -> None:
    """6.9.4 / 6.9.5: new cards face down into the slots; the old ones slid unseen under the pile."""
    s = g.state
    cards = list(s.pending.data["cards"])
    if a.own is not None:
        _shoebill_put(g, a.player, (a.player, a.own[1]), cards[a.own[0]])
    if a.rival is not None:
        _shoebill_put(g, a.player, (a.rival[1], a.rival[2]), cards[a.rival[0]])
    used = {x[0] for x in (a.own, a.rival) if x is not None}
    unused = [c for i, c in enumerate(cards) if i not in used]
    s.under.extend(unused)  # 6.9.6: a drawn card that cannot be used
    if unused:
        g.emit("slid_under", "6.9.6", also=("6.9.5",), player=a.player, count=len(unused))
    g.then(["shield_check"])


def _shoebill_put(g, player: int, target, card: str) -> None:
    s = g.state
    old = zones.replace(s, target[0], target[1], card, by=player)
    s.moved.add(card)  # ruling R-08
    s.under.append(old)
    g.emit("replaced", "6.9.4", ruling="R-08", also=("6.9.1", "6.9.2", "6.9.3", "6.9.5", "2.5.3", "6.11.1"),
           player=target[0], slot=target[1], by=player)


# --- legal actions ----------------------------------------------------------------------------
def legal_peek(g):
    return [PeekAt(g.state.pending.player, t) for t in _hidden_cards(g.state)]


def legal_show(g):
    return [ShowCard(g.state.pending.player, t) for t in _hidden_cards(g.state)]


def legal_blind_swap(g):
    p = g.state.pending.player
    return [BlindSwap(p, a, b) for a, b in _pairs(g.state, p, need_movable=True)]


def legal_macaw(g):
    p = g.state.pending.player
    return [MacawLook(p, a, b) for a, b in _pairs(g.state, p, need_movable=False)]


def legal_macaw_swap(g):
    p = g.state.pending.player
    return [MacawSwap(p, True), MacawSwap(p, False)]


def legal_toco(g):
    p = g.state.pending.player
    return [TocoAdd(p, r) for r in _toco_rivals(g.state, p)]


def legal_shoebill(g):
    p = g.state.pending.player
    n = len(g.state.pending.data["cards"])
    own, rival = shoebill_options(g, p)
    own_choices = [(i, slot) for i in range(n) for slot in own] or [None]
    rival_choices = [(i, r, slot) for i in range(n) for r, slot in rival] or [None]
    needed = min(n, int(bool(own)) + int(bool(rival)))
    out = []
    for o in own_choices + [None]:
        for r in rival_choices + [None]:
            made = [x for x in (o, r) if x is not None]
            if len(made) == needed and len({x[0] for x in made}) == len(made) \
                    and _first_card_own(g, o, n) is None and _single_card(g, o, r, own, rival, n) is None:
                out.append(ShoebillReplace(p, o, r))
    return list(dict.fromkeys(out))


STEPS = {
    "discard_power": step_discard_power,
    "power": step_power,
    "toco_draw": step_toco_draw,
    "shoebill_draw": step_shoebill_draw,
}
ANSWERS = {
    ("white_pelican", PeekAt): (validate_peek, perform_peek),
    ("brown_pelican", ShowCard): (validate_show, perform_show),
    ("blind_swap", BlindSwap): (validate_blind_swap, perform_blind_swap),
    ("macaw", MacawLook): (validate_macaw_look, perform_macaw_look),
    ("macaw_swap", MacawSwap): (validate_macaw_swap, perform_macaw_swap),
    ("toco_toucan", TocoAdd): (validate_toco, perform_toco),
    ("shoebill", ShoebillReplace): (validate_shoebill, perform_shoebill),
}
LEGAL = {
    "white_pelican": legal_peek,
    "brown_pelican": legal_show,
    "blind_swap": legal_blind_swap,
    "macaw": legal_macaw,
    "macaw_swap": legal_macaw_swap,
    "toco_toucan": legal_toco,
    "shoebill": legal_shoebill,
}
