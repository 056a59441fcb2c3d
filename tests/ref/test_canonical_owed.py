"""The canonical state is the table and what is owed, nothing of the reference's own: ``setup(state())``
at every point of a game continues exactly as the game itself, and a state whose owed facts contradict
its pending decision is refused."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace

import pytest

from baobei_conform.fuzz.choices import Seeded
from baobei_conform.fuzz.policy import choose
from baobei_ref import Game, RuleError
from baobei_ref.actions import CloseWindow, Discard, Pluck, Shuffle
from baobei_ref.game import default_params
from baobei_ref.powers.add_to_rival import TocoAdd
from baobei_ref.setup import position

# Readings that change what is owed or in which order (R-04: whose power first: last turns).
READINGS = ({}, {"R-04": "A"}, {"R-06": "A"}, {"R-05": "A"}, {"R-05": "D"}, {"R-17": "A"}, {"R-21": "B"})


def _params(rulings: dict):
    return replace(default_params(), rulings=rulings) if rulings else None


def _clone(g: Game) -> Game:
    return Game.from_json(json.loads(json.dumps(g.to_json())), params=g.params, catalog=g.catalog)


def _snapshot(g: Game, events) -> tuple:
    legal = g.legal_actions()
    return [e.to_json() for e in events], g.to_json(), len(legal), [legal[i] for i in range(min(len(legal), 40))]


def _games(count: int):
    """Seeded games played by the fuzz policy (plucks that match, gifts, powers, recycles, BAO)."""
    for seed in range(count):
        yield seed, 2 + seed % 5, _params(READINGS[seed % len(READINGS)]), (0, 1, 4, 20)[seed % 4]


def _owed_facts(state: dict) -> list[str]:
    facts = [f"power {p['clause']}" for p in state["owed_powers"]]
    facts += ["pluck"] if state["pluck"] else []
    return facts + ([f"drawing {state['drawing']['for']}"] if state["drawing"] else [])


@pytest.mark.clause("6.10.1", "3.4.4", "7.1.1", "4.2.2")
def test_every_state_of_seeded_games_continues_identically_after_setup():
    """At every step the game is replaced by ``setup(state())`` of itself and must go on exactly as an
    untouched copy: same events, states and legal actions to the end of the game. The games reach every
    owed fact (each power clause, a pluck's gifts, each interrupted draw), or the check would be hollow."""
    seen: Counter = Counter()
    steps = 0
    for seed, players, params, bao in _games(42):
        original, copied, choices = Game(players, params), Game(players, params), Seeded(seed)
        while original.pending.kind != "game_over":
            action = choose(original, choices, bao)
            expected = _snapshot(original, original.apply(action))
            got = _snapshot(copied, copied.apply(action))
            assert got == expected, f"seed {seed}, step {steps}: {action}"
            copied = _clone(copied)
            assert _snapshot(copied, [])[1:] == expected[1:], f"seed {seed}, step {steps}: setup(state()) differs"
            seen.update(_owed_facts(expected[1]))
            steps += 1
    assert steps > 5_000
    wanted = {"power 6.1.2", "power 6.10.3", "power 6.10.4", "power 6.10.5", "power 6.10.6", "pluck",
              "drawing turn", "drawing penalty", "drawing shoebill"}  # a Toco Toucan's: the test after next
    assert wanted <= set(seen), f"never reached: {sorted(wanted - set(seen))}"


@pytest.mark.clause("6.10.1", "3.4.4")
@pytest.mark.parametrize("seed", [1, 6])
def test_from_every_point_the_rest_of_the_game_is_the_same(seed):
    """From every state of a whole game, a fresh ``setup(state())`` replays the rest of the game's actions
    with the very events and states the game had."""
    _, players, params, bao = list(_games(seed + 1))[seed]
    g, choices = Game(players, params), Seeded(seed)
    clones, history = [], []
    while g.pending.kind != "game_over":
        clones.append(_clone(g))
        action = choose(g, choices, bao)
        history.append((action, _snapshot(g, g.apply(action))))
    assert len(history) > 100
    for start, clone in enumerate(clones):
        for step, (action, expected) in enumerate(history[start:], start):
            assert _snapshot(clone, clone.apply(action)) == expected, f"from step {start}, step {step}"


def _gift_position() -> Game:
    """Player 0 called BAO; player 1 plucks two cards in the window (one of the caller's): two gifts owed."""
    g = position(zones={0: ["owl", "heron", "eagle"], 1: ["owl", "sparrow", "swallow"], 2: ["owl", "cuckoo"]},
                 drawn="owl", active=2, bao=0, last_turns=[])
    g.apply(Discard(2))
    g.apply(Pluck(1, ((0, 1), (2, 1))))
    return g


@pytest.mark.clause("3.6.7", "4.2.2", "4.2.9")
def test_a_pluck_giving_gifts_is_stated_by_its_targets():
    """The pending gift, the gift after it and the shield the caller's removed card arms follow from the
    pluck's targets: after setup, both gifts are given and the shield activates once they are done."""
    g = _gift_position()
    state = g.to_json()
    assert state["pending"]["kind"] == "gift" and state["pending"]["data"] == {"rival": 0, "slot": 1}
    assert state["pluck"] == {"player": 1, "targets": [[0, 1], [2, 1]]}
    assert "agenda" not in state and "shield_touched" not in state
    copy = _clone(g)
    for game in (g, copy):
        game.apply(game.legal_actions()[0])
        assert game.pending.kind == "gift" and game.pending.data == {"rival": 2, "slot": 1}
        events = game.apply(game.legal_actions()[0])
        assert "shield_activated" in [e.kind for e in events]
    assert copy.to_json() == g.to_json()


@pytest.mark.clause("6.9.2", "7.1.7")
def test_a_recycle_between_the_shoebills_two_draws_keeps_the_first_card_in_hand():
    """6.9.2 / 7.1.7: the deck runs out after the Shoebill's first card; the state says the player holds it,
    and after setup the same shuffle gives the same second card and the same choice."""
    g = position(zones={0: ["owl", "heron"], 1: ["eagle", "sparrow"]}, drawn="shoebill", deck=["cuckoo"],
                 rest="discard")
    g.apply(Discard(0))
    g.apply(CloseWindow())
    state = g.to_json()
    (cuckoo,) = state["drawing"]["cards"]
    assert state["pending"]["kind"] == "recycle" and cuckoo.startswith("cuckoo-")
    assert state["drawing"] == {"for": "shoebill", "player": 0, "rival": None, "cards": [cuckoo]}
    copy = _clone(g)
    shuffle = Shuffle(tuple(g.pending.data["cards"]))
    assert [e.to_json() for e in copy.apply(shuffle)] == [e.to_json() for e in g.apply(shuffle)]
    assert copy.to_json() == g.to_json() and cuckoo in g.pending.data["cards"]


def test_a_recycle_before_the_toco_toucans_draw_keeps_the_rival_it_gives_to():
    """6.7.1 / 7.1.7: the deck is empty when the Toco Toucan draws for its rival (random play rarely gets
    there); the state says whose card it will be, and after setup the same shuffle gives it to that rival."""
    g = position(zones={0: ["owl", "heron"], 1: ["eagle", "sparrow"]}, drawn="toco_toucan", deck=[], rest="discard")
    g.apply(Discard(0))
    g.apply(CloseWindow())
    g.apply(TocoAdd(0, 1))
    state = g.to_json()
    assert state["pending"]["kind"] == "recycle"
    assert state["drawing"] == {"for": "toco_toucan", "player": 0, "rival": 1, "cards": []}
    copy = _clone(g)
    shuffle = Shuffle(tuple(g.pending.data["cards"]))
    events = [e.to_json() for e in g.apply(shuffle)]
    assert [e.to_json() for e in copy.apply(shuffle)] == events
    assert copy.to_json() == g.to_json() and g.state.count(1) == 3  # the rival got the card


@pytest.mark.parametrize(("change", "message"), [
    (lambda s: {**s, "pluck": None}, "pluck: a gift is owed by a successful pluck"),
    (lambda s: {**s, "pluck": {"player": 1, "targets": [[2, 1]]}}, "the first rival slot of the pluck still empty"),
    (lambda s: {**s, "drawing": {"for": "turn", "player": 1, "rival": None, "cards": []}},
     "drawing: is the draw a recycle interrupted exactly while a 'recycle' is pending"),
    (lambda s: {**s, "owed_powers": [{"player": 1, "card": "cuckoo-1", "clause": "6.1.2"}]},
     r"owed_powers\[0\].player: a 6.1.2 power is the active player's"),
])
def test_owed_facts_that_contradict_the_pending_decision_are_refused(change, message):
    state = _gift_position().to_json()
    with pytest.raises(RuleError, match=message) as refused:
        Game.from_json(change(state))
    assert refused.value.code == "malformed_state"
