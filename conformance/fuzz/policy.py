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
from collections.abc import Callable, Sequence
from typing import Any

from baobei_conform.fuzz.choices import Options
from baobei_ref import Game
from baobei_ref import actions as A
from baobei_ref.pluck import legal_claims
from baobei_ref.powers import add_to_rival, blind_swap, peek, peek_two_swap, show
from baobei_ref.scoring import round_total
from baobei_spec import default_spec

BAO_EAGERNESS = (0, 1, 4, 20)  # percent chance of calling BAO when it may be called
CHASE_BELOW = 15  # a player whose round total is at most this plucks and lowers it five times as eagerly
SAME_VALUE = 12  # the weight of a pluck on a card of the reference's value and another family, when there is one
TIED = 400  # the extra eagerness to call BAO when tied with the lowest rival (4.1.1: a tie fails)
SIMULTANEOUS = 1 << 12  # seeds of simultaneous claims a window offers (each builds one set of claims)


def _claims(g: Game, player: int, reference: str | None) -> tuple[Options[A.Action], ...]:
    """(matching singles, misses of the same value, other tempting misses, other misses, matching ordered doubles,
    every double) of one player; each action is built only if chosen."""
    claims = legal_claims(g, player)
    if not claims.targets or reference is None:
        return (), (), (), (), (), ()
    catalog, card_at = g.catalog, g.state.card_at
    family, value, _ = catalog.species[catalog.species_of(reference)]
    match, same_value, tempting, miss = [], [], [], []
    for t in claims.targets:
        card = card_at(t)
        if card is None:  # a claim names a card: never so
            continue
        species = catalog.species_of(card)
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


class _Lazy:
    """``[make(item) for item in items]`` without building it (there may be thousands of doubles)."""

    def __init__(self, items: Sequence[Any], make: Callable[[Any], A.Action]):
        self.items, self.make = items, make

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, i: int) -> A.Action:
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
        player = p.decider
        match, same_value, tempting, miss, doubles, every_double = _claims(g, player, s.drawn)
        keeps = [A.Keep(player, slot) for slot in s.own_slots(player)]
        chase = 5 if round_total(g, player) <= CHASE_BELOW else 1  # a low total goes lower: BAO's edges (5.2)
        return choices.weighted([(4, keeps), (3, [A.Discard(player)]), (4 * chase, match), (SAME_VALUE, same_value),
                                 (2, tempting), (1, miss), (2 * chase, doubles), (1, every_double),
                                 (3 * chase, _lowering(g, player, s.drawn))])
    if p.kind == "window":
        top = s.discard[-1] if s.discard else None
        groups = [_claims(g, player, top) for player in p.players]
        match = _Chained([m for m, *_ in groups])
        claimants = [player for player, (*_, every) in zip(p.players, groups, strict=True) if len(every)]
        return choices.weighted([(8, [A.CloseWindow()]), (4, match), (SAME_VALUE, _Chained([v for _, v, *_ in groups])),
                                 (2, _Chained([t for _, _, t, *_ in groups])),
                                 (1, _Chained([m for _, _, _, m, *_ in groups])),
                                 (2, _Chained([d for *_, d, _ in groups])),
                                 (3, _Lazy(range(SIMULTANEOUS if claimants and len(p.players) > 1 else 0),
                                           lambda seed: simultaneous(g, claimants, random.Random(seed))))])
    legal = g.legal_actions()
    if p.kind == "end_turn":
        bao = [a for a in legal if isinstance(a, A.CallBao)]
        return choices.weighted([(100 - bao_percent, [a for a in legal if isinstance(a, A.EndTurn)]),
                                 (bao_percent + _bao_edge(g, p.decider), bao)])
    return choices.weighted([(1, legal)])


def simultaneous(g: Game, claimants: list[int], rng: random.Random) -> A.SimultaneousPlucks:
    """Simultaneous claims on the open window (3.2.5, ruling R-16: the valid one nearest clockwise to the active player
    wins), which the reference's legal_actions never lists: two or more of the window's players, in any order, so
    claimants before and after the active player clockwise meet; each claim matching, missing or (now and then)
    invalid: a zero-card player's or one on an empty slot, which priority skips. ``claimants`` (players with a valid
    claim) are never empty and the window has another player: the first chosen claims validly, so the set is
    accepted."""
    s, window = g.state, g.decision.players
    first = rng.choice(claimants)
    others = [p for p in window if p != first]
    chosen = [first, *rng.sample(others, rng.randint(1, len(others)))]
    top = s.discard[-1]

    def claim(player: int, valid: bool) -> A.Pluck:
        legal = legal_claims(g, player)
        matching = [(t,) for t in legal.targets if (card := s.card_at(t)) is not None and g.catalog.matches(top, card)]
        if not len(legal) or not valid and rng.random() < 0.15:  # invalid: skipped by priority
            return A.Pluck(player, ((rng.randrange(s.seats), rng.randrange(1, 7)),))
        if matching and rng.random() < 0.5:
            return A.Pluck(player, rng.choice(matching))
        return legal[rng.randrange(len(legal.targets) if rng.random() < 0.7 else len(legal))]

    claims = [claim(player, i == 0) for i, player in enumerate(chosen)]
    rng.shuffle(claims)
    return A.SimultaneousPlucks(tuple(claims))


class _Chained:
    """Several players' lazy claims as one sequence (in player order)."""

    def __init__(self, parts: list[Options[A.Action]]):
        self.parts = [part for part in parts if len(part)]
        self.size = sum(len(part) for part in self.parts)

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, i: int) -> A.Action:
        for part in self.parts:
            if i < len(part):
                return part[i]
            i -= len(part)
        raise IndexError(i)


def _lowering(g: Game, player: int, drawn: str | None) -> list[A.Action]:
    """Keeping the drawn card in place of the player's highest card, when that lowers their total: what players
    aim for, and how totals get low enough for BAO's edges (a failure below the minimum, 5.2.4)."""
    values = {i: g.catalog.value(c) for i, c in enumerate(g.state.zones[player], 1) if c is not None}
    slot = max(values, key=values.__getitem__, default=None)
    if drawn is None or slot is None or values[slot] <= g.catalog.value(drawn):
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


def near_miss(action: A.Action, rng: random.Random, state: dict) -> A.Action:
    """An action the rules may refuse, tried beside the policy's ``action`` at the canonical ``state``, so that every
    refusal code and its precedence is exercised (spec/contract.yaml refusals): a third of the time an action of
    another type than the decision takes (half of those a call_bao: during a window it is bao_not_allowed; a gift or
    a power at a turn wrong_decision); at a window, half the time a claim by one of its players, one holding no
    card when there is one (no_cards, 3.4.1: a zero-card player is one of the window's players, R-20); else an
    illegal-looking neighbour of ``action``: another player, slot or target (half the time one of the ``guarded``
    slots, where misreadings hide), or a take instead of a draw (no_cards for a player with no card to replace,
    B.4)."""
    pending = state["pending"]
    seats, kind = state["seats"], pending["kind"]
    player = pending["player"] if pending["player"] is not None else state["active"]
    if rng.random() < 1 / 3:  # call_bao half the time: its refusal row comes before every other type's (4.1.2)
        taken = default_spec().vocabulary.decisions.get(kind, ())
        others = [t for t in default_spec().vocabulary.actions if t not in taken]
        other = "call_bao" if "call_bao" in others and rng.random() < 0.5 else rng.choice(others)
        return A.action_from_json(example(other, player, seats, rng))
    if kind == "window" and rng.random() < 0.5:
        empty = [p for p in pending["players"] if not any(state["zones"][str(p)])]
        cards = [(int(p), i) for p, zone in state["zones"].items() for i, c in enumerate(zone, 1) if c]
        claimant = rng.choice(empty or pending["players"])
        return A.Pluck(claimant, (rng.choice(cards) if cards else (rng.randrange(seats), 1),))
    return _neighbour(action, rng, seats, guarded(state))


def _neighbour(action: A.Action, rng: random.Random, players: int, guarded: list[tuple[int, int]]) -> A.Action:
    """An illegal-looking neighbour of a legal action: another player, slot or target; half the time a target
    is one of the ``guarded`` slots, where misreadings hide."""

    def target() -> tuple[int, int]:
        return rng.choice(guarded) if guarded and rng.random() < 0.5 else (rng.randrange(players), rng.randrange(1, 7))

    if isinstance(action, A.Draw) and rng.random() < 0.5:  # the other way to start a turn (B.4: not with no card)
        return A.TakeDiscard(action.player, rng.randrange(1, 7))
    changes: dict[str, object] = {}
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


def example(action_type: str, player: int, seats: int, rng: random.Random) -> dict:
    """A well-formed action of ``action_type`` with plausible values (as the shapes of the contract type them)."""
    def target() -> list[int]:
        return [rng.randrange(seats), rng.randrange(1, 6)]
    values = {
        "integer": lambda: player, "boolean": lambda: bool(rng.randrange(2)), "target": target,
        "list of integer": lambda: [1, 2], "list of string": lambda: [], "list of target": lambda: [target()],
        "list of claim": lambda: [{"player": player, "targets": [target()]}],
        "own choice": lambda: [0, rng.randrange(1, 5)], "rival choice": lambda: [1, rng.randrange(seats), 1],
    }
    shape = default_spec().contract.shapes[action_type]
    return {"type": action_type, **{name: values[kind]() for name, kind in shape.items()}}
