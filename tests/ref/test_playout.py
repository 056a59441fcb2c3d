"""Invariants of the reference over random play, with the fuzzer's own machinery (``baobei_conform.fuzz``), so a
failure shrinks to a short game: in process and over stdio (``baobei-ref serve``), every card in one place, views
hiding unseen cards, listed actions accepted, refused ones changing nothing, determinism, ``setup(state())``; and
the reference over the protocol agreeing with the reference in process after every action. Also junk actions of
every type, and the canonical state's round trip."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from baobei_conform.engines.reference import ReferenceEngine
from baobei_conform.fuzz.positions import corpus
from baobei_conform.fuzz.trial import Trial
from baobei_conform.harness.factory import engine_factory
from baobei_ref import Game, RuleError
from baobei_ref.actions import ACTIONS, Pluck, SimultaneousPlucks
from baobei_ref.playout import choose

ROOT = Path(__file__).resolve().parents[2]
# Scenario setups seed the games as they do the fuzzer's (a few parts: loading the whole corpus takes seconds)
STARTS = tuple(str(ROOT / "scenarios" / part) for part in ("4-bao", "7-deck", "b-zero-cards"))


def games(n: int):
    """Hypothesis settings for ``n`` whole games (each a few hundred actions), the same games every run."""
    return settings(max_examples=n, deadline=None, suppress_health_check=list(HealthCheck), database=None,
                    derandomize=True)


@pytest.fixture(scope="module")
def served():
    """``baobei-ref serve`` over stdio, started once for the module."""
    factory, _ = engine_factory(None, [sys.executable, "-m", "baobei_conform.protocol.server", "serve"])
    engine = factory()
    yield engine
    engine.stop()


@pytest.mark.clause("2.5.1", "7.1.5", "2.2.1")
@games(12)
@given(st.data())
def test_the_reference_in_process_keeps_every_invariant(data):
    """No card created or lost, views hide what a player has not seen, listed actions accepted, refused ones change
    nothing, replay deterministic, setup(state()) round trips: a failure is Found, shrunk by Hypothesis."""
    Trial(ReferenceEngine(), corpus(STARTS), differential=False).play(data)


@games(4)
@given(st.data())
def test_the_reference_over_stdio_keeps_every_invariant(served, data):
    Trial(served, corpus(STARTS), differential=False).play(data)


@games(4)
@given(st.data())
def test_the_reference_over_stdio_agrees_with_the_reference_in_process(served, data):
    """State, pending decision, events, every view, short legal_actions lists and near-miss refusal codes."""
    Trial(served, corpus(STARTS), differential=True).play(data)




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
