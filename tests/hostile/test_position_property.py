"""A property of the one validator (``baobei_spec.position``): positions built by changing reachable ones either are
refused with ``malformed_state``, or are set up exactly (``to_json()`` is the setup, byte for byte), every legal
action listed there applies, and seeded play goes on from it through positions the validator accepts.

The reachable positions are those of seeded play by the fuzzer's policy (``tools/impossible_setups.reached``), up
to 30 of each decision kind; the changes are Hypothesis's (derandomized: the same in every run), one to three of:
a card moved to another place, a field of the decision or of what is owed given a value the table offers (a slot,
a card, a player), a scalar replaced by another of the state's own, an entry of a list or an object dropped,
repeated, added or swapped, a flag flipped.
"""

from __future__ import annotations

import copy
import json
import random
import sys
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from baobei_ref import Game, RuleError
from baobei_ref.canonical import position_rules
from baobei_ref.playout import choose
from baobei_spec.position import check_position

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
from impossible_setups import reached  # noqa: E402

CARD_LISTS = ("deck", "discard", "under", "moved")


MID_ACTION = ("pending", "owed_powers", "pluck", "drawing")  # what is most often wrong, changed half the time


@cache
def positions() -> tuple[dict, ...]:
    """Up to 30 states of each decision kind from 60 seeded games (owed powers, plucks, interrupted draws)."""
    by_kind: dict[str, list[dict]] = {}
    for i, state in enumerate(reached(60)):
        found = by_kind.setdefault(state["pending"]["kind"], [])
        if len(found) < 30 and i % 3 == 0:
            found.append(state)
    return tuple(s for found in by_kind.values() for s in found)


def canonical(state: dict) -> bytes:
    return json.dumps({"round_zones": None, **state}, sort_keys=True, separators=(",", ":")).encode()


def _leaves(value, path=()):
    """(path, value) of every scalar of a JSON value."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _leaves(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _leaves(v, (*path, i))
    else:
        yield path, value


def _lists(value, path=()):
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _lists(v, (*path, k))
    elif isinstance(value, list):
        yield path, value
        for i, v in enumerate(value):
            yield from _lists(v, (*path, i))


def _fields(value, path=()):
    """(path, value) of every entry of every object and list (scalars and the lists in them)."""
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for k, v in items:
        yield (*path, k), v
        yield from _fields(v, (*path, k))


def _plausible(state: dict, value) -> list:
    """Values of the same kind the table offers: its slots for a target, its cards for a card, its players."""
    if isinstance(value, list) and len(value) == 2 and all(type(v) is int for v in value):
        return [[int(p), i] for p, z in state["zones"].items() for i in range(1, len(z) + 2)]
    if isinstance(value, str) and "-" in value:
        return sorted({c for area in ("deck", "discard", "under", "box") for c in state[area] if isinstance(c, str)}
                      | {c.get("card") for z in state["zones"].values() for c in z
                         if isinstance(c, dict) and isinstance(c.get("card"), str)})
    if type(value) is int:
        longest = max((len(z) for z in state["zones"].values() if isinstance(z, list)), default=0)
        return [*range(-1, 9), *range(9, longest + 2)]
    return [None, value]


def _objects(value, path=()):
    if isinstance(value, dict):
        yield path, value
        for k, v in value.items():
            yield from _objects(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _objects(v, (*path, i))


def _at(state, path):
    for key in path:
        state = state[key]
    return state


def _set(state, path, value):
    _at(state, path[:-1])[path[-1]] = value


def change(state: dict, pick) -> dict:
    """``state`` changed up to three times; ``pick(options)`` chooses (Hypothesis's draw, or a seeded one)."""
    state = copy.deepcopy(state)
    for _ in range(pick([1, 2, 3])):
        how = pick(["move", "move", "leaf", "mid", "mid", "list", "key", "flag"])
        if how == "move":
            _move(state, pick)
        elif how == "leaf":  # a scalar replaced by another of the state's own of its type, or a plain value
            leaves = [leaf for leaf in _leaves(state) if leaf[0]]
            mid = [leaf for leaf in leaves if leaf[0][0] in MID_ACTION]
            path, value = pick(pick([leaves, mid or leaves]))
            _set(state, path, pick([v for _, v in leaves if type(v) is type(value)] + [None, 0, 1, 2, -1, 7]))
        elif how == "mid":  # a field of the decision or of what is owed given a value that could belong there
            fields = [(p, v) for p, v in _fields(state) if p[0] in MID_ACTION]
            if not fields:
                continue
            path, value = pick(fields)
            _set(state, path, pick(_plausible(state, value)))
        elif how == "list":
            lists = [(p, v) for p, v in _lists(state) if p and v]
            if not lists:
                continue
            path, items = pick(lists)
            i, j = pick(range(len(items))), pick(range(len(items)))
            op = pick(["drop", "repeat", "swap"])
            if op == "drop":
                items.pop(i)
            elif op == "repeat":
                items.insert(i, copy.deepcopy(items[i]))
            else:
                items[i], items[j] = items[j], items[i]
        elif how == "key":  # an object's entry dropped, or one added (a copy of another's value)
            objects = [(p, v) for p, v in _objects(state) if p and v]
            if not objects:
                continue
            path, entries = pick(objects)
            key = pick(sorted(entries, key=str))
            if pick([True, False]):
                del entries[key]
            else:
                entries[pick(["9", "extra", "owl-1", str(len(entries))])] = copy.deepcopy(entries[key])
        else:
            name = pick(["final_phase", "decisive"])
            state[name] = not state[name]
    return state


def _move(state: dict, pick) -> None:
    """A card from one place to another (every card still once): the deck, the pile, under it, a zone."""
    sources = [(area, i) for area in ("deck", "discard", "under") for i, c in enumerate(state[area])
               if isinstance(c, str)]
    sources += [(f"zone {p}", i) for p, z in state["zones"].items() for i, c in enumerate(z)
                if isinstance(c, dict) and isinstance(c.get("card"), str)]
    if not sources:  # every card in the box
        return
    area, i = pick(sources)
    if area.startswith("zone"):
        zone = state["zones"][area.split()[1]]
        card, zone[i] = zone[i]["card"], None
    else:
        card = state[area].pop(i)
    to = pick(["deck", "discard", "under", *(f"zone {p}" for p in state["zones"])])
    if to.startswith("zone"):
        zone = state["zones"][to.split()[1]]
        at = pick(range(len(zone) + 1))
        slot = {"card": card, "species": card.rsplit("-", 1)[0]}
        if at < len(zone) and zone[at] is None:
            zone[at] = slot
        else:
            zone.append(slot)
    else:
        state[to].insert(pick(range(len(state[to]) + 1)), card)
    state["top"] = state["discard"][-1] if state["discard"] else None


def _plays_on(g: Game, seed: int) -> None:
    """Seeded legal play for 60 actions (or to the end of the game): the reference never fails on it, and every
    position it reaches is one (the validator holds as an invariant of play)."""
    rng, rules = random.Random(seed), position_rules(g.params, g.catalog)
    for _ in range(60):
        check_position(g.to_json(), rules)
        if g.pending.kind == "game_over":
            return
        g.apply(choose(g, rng))


KINDS = sorted({s["pending"]["kind"] for s in positions()})


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=40, deadline=None, database=None, derandomize=True,  # the same examples each run, none kept
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), seed=st.integers(0, 2 ** 16))
def test_an_accepted_position_round_trips_and_every_listed_action_applies(kind, data, seed):
    start = data.draw(st.sampled_from([s for s in positions() if s["pending"]["kind"] == kind]))
    state = change(start, lambda options: data.draw(st.sampled_from(list(options))))
    try:
        g = Game.from_json(copy.deepcopy(state))
    except RuleError as exc:
        assert exc.code == "malformed_state" and exc.message
        return
    assert canonical(g.to_json()) == canonical(state)
    legal = g.legal_actions()
    for i in sorted({(seed * (k + 1)) % len(legal) for k in range(4)}) if len(legal) else []:
        game = Game.from_json(copy.deepcopy(state))
        game.apply(legal[i])  # listed, so accepted: a RuleError here is a failure
        _plays_on(game, seed + i)
    if g.pending.kind in ("first_player", "deal", "recycle"):
        g.apply(g.sample_chance(random.Random(seed)))
        _plays_on(g, seed)


def test_the_changes_reach_both_outcomes():
    """The property is not vacuous: the same changes, seeded, give refused positions and accepted ones, and many
    accepted ones are no reachable state themselves."""
    rng = random.Random(3)
    known = {canonical(s) for s in positions()}
    outcomes = {"refused": 0, "accepted": 0, "new": 0}
    for _ in range(400):
        state = change(rng.choice(positions()), lambda options: rng.choice(list(options)))
        try:
            Game.from_json(copy.deepcopy(state))
        except RuleError:
            outcomes["refused"] += 1
            continue
        outcomes["accepted"] += 1
        outcomes["new"] += canonical(state) not in known
    assert outcomes["refused"] > 100 and outcomes["accepted"] > 40 and outcomes["new"] > 20, outcomes
