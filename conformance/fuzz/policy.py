"""The play policy: which action to take next, drawn from Hypothesis so that failures shrink.

Uniform random play calls BAO within a few turns and plucks blindly, so recycles, the final phase,
successful plucks, gifts, shields and most powers are rare. The policy weighs the choices instead:
each example draws how eager players are to call BAO (never, rarely, often), and plucks that match
(the policy reads the reference's true cards, as a fuzzer may) are far more likely than misses.
Every draw shrinks towards the first, plainest option: draw, keep, close the window, end the turn.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

from baobei_ref import Game
from baobei_ref import actions as A
from baobei_ref.pluck import legal_claims
from baobei_ref.powers import add_to_rival, blind_swap, peek, peek_two_swap, show
from baobei_ref.scoring import round_total

BAO_EAGERNESS = (0, 1, 4, 20)  # percent chance of calling BAO when it may be called
CHASE_BELOW = 15  # a player whose round total is at most this plucks and lowers it five times as eagerly
SAME_VALUE = 12  # the weight of a pluck on a card of the reference's value and another family, when there is one
TIED = 400  # the extra eagerness to call BAO when tied with the lowest rival (4.1.1: a tie fails)


def _claims(g: Game, player: int, reference: str | None) -> tuple[Sequence, ...]:
    """(matching singles, misses of the same value, other tempting misses, other misses, matching ordered doubles,
    every double) of one player; each action is built only if chosen."""
    claims = legal_claims(g, player)
    if not claims.targets or reference is None:
        return (), (), (), (), (), ()
    catalog, card_at = g.catalog, g.state.card_at
    family, value, _ = catalog.species[catalog.species_of(reference)]
    match, same_value, tempting, miss = [], [], [], []
    for t in claims.targets:
        species = catalog.species_of(card_at(t))
        their_family, their_value, _ = catalog.species[species]
        if their_family == family:  # 3.1.1, 3.1.6 (Catalog.matches)
            match.append((t,))
        elif their_value == value:  # what a misreading takes for a match: the same value (3.1.9: a Shoebill and a
            same_value.append((t,))  # Toco Toucan, the rulebook's own warning; rare, so chosen eagerly when there)
        elif their_family != species:  # or a bird of a family (pelicans, toucans)
            tempting.append((t,))
        else:
            miss.append((t,))
    singles = len(claims.targets)
    doubles = [a + b for a in match for b in match if a != b] if claims.size > singles else []

    def pluck(targets: tuple) -> A.Pluck:
        return A.Pluck(player, targets)
    return (_Lazy(match, pluck), _Lazy(same_value, pluck), _Lazy(tempting, pluck), _Lazy(miss, pluck),
            _Lazy(doubles, pluck), _Lazy(range(singles, claims.size), claims.__getitem__))


class _Lazy(Sequence):
    """``[make(item) for item in items]`` without building it (there may be thousands of doubles)."""

    def __init__(self, items: Sequence, make):
        self.items, self.make = items, make

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, i: int):
        return self.make(self.items[i])


def choose(g: Game, choices, bao_percent: int) -> A.Action:
    """The next action for the reference's pending decision (chance outcomes included)."""
    p = g.pending
    s = g.state
    if p.kind == "first_player":
        return A.ChooseFirstPlayer(choices.pick(p.players))
    if p.kind in ("deal", "recycle"):
        order = list(p.data["cards"])
        random.Random(choices.below(1 << 24)).shuffle(order)
        return A.Shuffle(tuple(order))
    if p.kind == "turn":
        legal = g.legal_actions()
        return choices.weighted([(6, legal[:1] if isinstance(legal[0], A.Draw) else []), (1, legal)])
    if p.kind == "drawn":
        match, same_value, tempting, miss, doubles, every_double = _claims(g, p.player, s.drawn)
        keeps = [A.Keep(p.player, slot) for slot in s.own_slots(p.player)]
        chase = 5 if round_total(g, p.player) <= CHASE_BELOW else 1  # a low total goes lower: BAO's edges (5.2)
        return choices.weighted([(4, keeps), (3, [A.Discard(p.player)]), (4 * chase, match), (SAME_VALUE, same_value),
                                 (2, tempting), (1, miss), (2 * chase, doubles), (1, every_double),
                                 (3 * chase, _lowering(g, p.player, s.drawn))])
    if p.kind == "window":
        top = s.discard[-1] if s.discard else None
        groups = [_claims(g, player, top) for player in p.players]
        match = _Chained([m for m, *_ in groups])
        owners = [player for player, (m, *_) in zip(p.players, groups, strict=True) for _ in range(len(m))]
        rivals = [(i, j) for i in range(len(owners)) for j in range(len(owners)) if owners[i] < owners[j]]
        return choices.weighted([(8, [A.CloseWindow()]), (4, match), (SAME_VALUE, _Chained([v for _, v, *_ in groups])),
                                 (2, _Chained([t for _, _, t, *_ in groups])),
                                 (1, _Chained([m for _, _, _, m, *_ in groups])),
                                 (2, _Chained([d for *_, d, _ in groups])),
                                 (1, _Lazy(rivals, lambda ij: A.SimultaneousPlucks((match[ij[0]], match[ij[1]]))))])
    legal = g.legal_actions()
    if p.kind == "end_turn":
        bao = [a for a in legal if isinstance(a, A.CallBao)]
        return choices.weighted([(100 - bao_percent, [a for a in legal if isinstance(a, A.EndTurn)]),
                                 (bao_percent + _bao_edge(g, p.player), bao)])
    return choices.weighted([(1, legal)])


class _Chained(Sequence):
    """Several players' lazy claims as one sequence (in player order)."""

    def __init__(self, parts: list[Sequence]):
        self.parts = [part for part in parts if len(part)]
        self.size = sum(len(part) for part in self.parts)

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, i: int):
        for part in self.parts:
            if i < len(part):
                return part[i]
            i -= len(part)
        raise IndexError(i)


def _lowering(g: Game, player: int, drawn: str) -> list[A.Action]:
    """Keeping the drawn card in place of the player's highest card, when that lowers their total: what players
    aim for, and how totals get low enough for BAO's edges (a failure below the minimum, 5.2.4)."""
    zone = g.state.zones[player]
    slot = max(g.state.own_slots(player), key=lambda i: g.catalog.value(zone[i - 1]), default=None)
    if slot is None or g.catalog.value(zone[slot - 1]) <= g.catalog.value(drawn):
        return []
    return [A.Keep(player, slot)]


def _bao_edge(g: Game, player: int) -> int:
    """Extra eagerness where BAO has its edges: a failure below the minimum (5.2.4; such positions are rare, so
    BAO is then called nearly always), a call the final phase may overtake (7.2.6: the deck about to be recycled
    for the last time), a tie with the lowest rival, a low or negative total."""
    s = g.state
    totals = {p: round_total(g, p) for p in s.players}
    mine, lowest = totals.pop(player), min(totals.values())
    low = g.params.bao_failure_factor * mine < g.params.bao_failure_minimum
    if low and mine >= lowest or s.recycles == g.params.final_phase_recycle - 1 and len(s.deck) <= len(s.players):
        return 400
    if mine == lowest:
        return TIED
    return 100 if low else 0  # a success at a low or negative total (5.2.2, 5.2.3)


def guarded(state: dict) -> list[tuple[int, int]]:
    """Slots of a canonical state a power may not touch now: cards already moved this turn (6.11.1), a shielded
    caller's cards (4.2.7)."""
    moved = set(state["moved"])
    out = [(int(p), i) for p, zone in state["zones"].items() for i, c in enumerate(zone, 1) if c and c["card"] in moved]
    if state["bao"] is not None and state["shield"] == "active":
        out += [(state["bao"], i) for i, c in enumerate(state["zones"][str(state["bao"])], 1) if c]
    return out


def near_miss(action: A.Action, rng: random.Random, players: int, guarded: list[tuple[int, int]]) -> A.Action:
    """An illegal-looking neighbour of a legal action: another player, slot or target; half the time a target
    is one of the ``guarded`` slots, where misreadings hide."""

    def target() -> tuple[int, int]:
        return rng.choice(guarded) if guarded and rng.random() < 0.5 else (rng.randrange(players), rng.randrange(1, 7))

    if isinstance(action, A.Draw) and rng.random() < 0.5:  # the other way to start a turn (B.4: not with no card)
        return A.TakeDiscard(action.player, rng.randrange(1, 7))
    changes = {}
    for f in dataclasses.fields(action):
        value = getattr(action, f.name)
        if f.name == "player":
            changes[f.name] = rng.randrange(players)
        elif f.name == "slot":
            changes[f.name] = rng.randrange(1, 7)
        elif f.name in ("target", "first", "second"):
            changes[f.name] = target()
        elif f.name == "targets" and value:
            changes[f.name] = tuple(target() for _ in value)
        elif f.name == "rival":
            changes[f.name] = rng.randrange(players) if isinstance(value, int) else value
    if guarded and isinstance(action, (peek.PeekAt, show.ShowCard, blind_swap.BlindSwap, peek_two_swap.MacawLook,
                                       add_to_rival.TocoAdd, A.Pluck)):
        changes.pop("player", None)  # the same player trying a guarded slot
    return dataclasses.replace(action, **changes) if changes else action
