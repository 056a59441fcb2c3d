"""Invariants over random play: legal actions are accepted, rejected ones change nothing, cards are conserved."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from baobei_ref import Game, RuleError
from baobei_ref.actions import ACTIONS, Pluck, SimultaneousPlucks
from baobei_ref.canonical import all_cards
from baobei_ref.playout import choose, random_play


def _clone(g: Game) -> Game:
    return Game.from_json(json.loads(json.dumps(g.to_json())), params=g.params, catalog=g.catalog)


def _junk(rng: random.Random, n: int):
    """A random, usually illegal, action of any type with arbitrary fields."""
    cls = ACTIONS[rng.choice(sorted(ACTIONS))]
    player = rng.randrange(-1, n + 1)

    def target():
        return (rng.randrange(-1, n + 1), rng.randrange(0, 7))

    choices = {
        "first": lambda: rng.randrange(-1, n + 1),
        "order": lambda: ("owl-1",),
        "player": lambda: player,
        "slots": lambda: (rng.randrange(0, 7), rng.randrange(0, 7)),
        "slot": lambda: rng.randrange(0, 8),
        "targets": lambda: tuple(target() for _ in range(rng.choice((0, 1, 2, 3)))),
        "claims": lambda: (Pluck(player, (target(),)), Pluck(rng.randrange(n), (target(),))),
        "target": target,
        "first_target": target,
        "second": target,
        "swap": lambda: rng.choice((True, False)),
        "rival": lambda: rng.randrange(-1, n + 1),
        "own": lambda: (rng.randrange(0, 3), rng.randrange(0, 7)),
    }
    kwargs = {}
    for name in cls.__dataclass_fields__:
        if name == "first" and cls.__name__ in ("BlindSwap", "MacawLook"):
            kwargs[name] = target()
        elif name == "rival" and cls.__name__ == "ShoebillReplace":
            kwargs[name] = (rng.randrange(0, 3), *target())
        else:
            kwargs[name] = choices[name]()
    return cls(**kwargs)


@pytest.mark.clause("2.5.1", "7.1.5")
def test_cards_are_conserved_over_three_thousand_games():
    """No rule creates or destroys a card: all 66 are somewhere after every action of 3,000 games."""
    expected = sorted(Game(players=2).catalog.cards)
    actions = 0
    for seed in range(3000):
        g = Game(players=2 + seed % 5)
        for _ in random_play(g, random.Random(seed), max_actions=3000):
            actions += 1
            assert sorted(all_cards(g.state)) == expected, f"seed {seed}, action {actions}"
    assert actions > 30_000


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6))
def test_rejected_actions_change_nothing_and_accepted_ones_are_listed(seed, players):
    """apply() raises RuleError and leaves the canonical state unchanged, or the action was listed as legal."""
    rng = random.Random(seed)
    g = Game(players=players)
    for _ in range(400):
        if g.pending.kind == "game_over":
            break
        junk = _junk(rng, players)
        before = g.to_json()
        try:
            trial = _clone(g)
            trial.apply(junk)
        except RuleError:
            with pytest.raises(RuleError):
                g.apply(junk)
            assert g.to_json() == before, f"{junk} was rejected but changed the state"
        else:
            legal = list(g.legal_actions())
            if isinstance(junk, SimultaneousPlucks):  # a composite: its winning claim must be legal alone
                assert any(c in legal for c in junk.claims), f"{junk} was accepted but no claim is legal"
            elif g.pending.kind not in ("first_player", "deal", "recycle"):
                assert junk in legal, f"{junk} was accepted but is not listed as legal"
        g.apply(choose(g, rng))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6))
def test_every_listed_action_is_accepted(seed, players):
    """Every action legal_actions() lists is accepted by apply()."""
    rng = random.Random(seed)
    g = Game(players=players)
    for _ in range(150):
        if g.pending.kind == "game_over":
            break
        legal = g.legal_actions()
        sample = list(legal) if len(legal) <= 12 else [legal[rng.randrange(len(legal))] for _ in range(12)]
        for action in sample:
            _clone(g).apply(action)  # raises if a listed action is refused
        g.apply(choose(g, rng))


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6))
def test_canonical_state_round_trips(seed, players):
    """from_json(to_json()) gives the same position, and play continues identically from it."""
    rng = random.Random(seed)
    g = Game(players=players)
    for _ in range(120):
        if g.pending.kind == "game_over":
            break
        copy = _clone(g)
        assert copy.to_json() == g.to_json()
        action = choose(g, rng)
        assert [e.to_json() for e in copy.apply(action)] == [e.to_json() for e in g.apply(action)]
