"""What the reference shows, recorded action by action: over the whole suite and over seeded games with probes.

An ``Observer`` is the reference as an engine that keeps, for every action it is asked to apply, the states
around it, its events or its refusal (code and clause), the views of every player of the round and the short
legal-action lists: exactly what an engine shows over the protocol, so ``judge`` can hold it to the contract.
Seeded games are played by the fuzzer's policy; at every decision a few probes (an action of another type, a
near miss of the chosen one, a malformed one) are tried too, so the refusal precedence is exercised.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable
from dataclasses import dataclass, field

from baobei_conform.engines.reference import ReferenceEngine
from baobei_conform.fuzz.choices import Seeded
from baobei_conform.fuzz.policy import choose, example, near_miss
from baobei_conform.runner.run import run_scenario
from baobei_conform.suite.scenario import Scenario
from baobei_ref import CHANCE, Game, RuleError, action_from_json
from baobei_spec import default_spec
from baobei_spec.conditions import Json, Step, turn_before

LEGAL_LIMIT = 64  # legal_actions lists recorded when at most this long (as the fuzzer compares them)
GAMES = ((2, 33), (3, 40), (4, 8), (5, 11), (6, 35), (3, 7))  # (players, seed) of the seeded games
BAO_PERCENT = 4
PROBE_EVERY = 1  # probes at every decision


@dataclass
class Observed:
    """One action as the reference answered it (``code`` set: refused, the state unchanged)."""

    source: str  # where: "scenario <id>" or "game <players>p seed <n>", and the action's number there
    step: Step
    earlier: list[tuple[str, Json]]  # the turn's events before this action (action type of their reply, event)
    views: dict[int, Json] = field(default_factory=dict)
    legal: list[Json] | None = None
    code: str | None = None
    clause: str | None = None


class Observer(ReferenceEngine):
    """The reference in process, recording what it shows for each action (``observed``)."""

    def __init__(self, source: str = "", views: bool = True) -> None:
        super().__init__()
        self.source, self.with_views = source, views
        self.observed: list[Observed] = []
        self.history: list[tuple[str, Json]] = []
        self.catalog_ids = tuple(self.catalog.cards)
        self.count = 0

    def setup(self, state: dict, params: dict | None) -> None:
        super().setup(state, params)
        self.history = []

    def new_game(self, players: int) -> str | None:
        self.history = []
        return super().new_game(players)

    def apply(self, action: dict) -> tuple[list[dict] | None, str | None]:
        game = self.game
        assert game is not None
        before = game.to_json()
        self.count += 1
        where = f"{self.source}, action {self.count}"
        earlier = turn_before(self.history)
        try:
            events = [e.to_json() for e in game.apply(action_from_json(action))]
        except RuleError as exc:
            self.observed.append(Observed(where, Step(action, before, before, [], self.catalog_ids), earlier,
                                          code=exc.code, clause=exc.clause))
            return None, exc.code
        after = game.to_json()
        views = {p: game.view(p) for p in after["players"]} if self.with_views else {}
        legal = None
        if after["pending"]["kind"] not in CHANCE:
            listed = game.legal_actions()
            legal = [a.to_json() for a in listed] if len(listed) <= LEGAL_LIMIT else None
        self.observed.append(Observed(where, Step(action, before, after, events, self.catalog_ids), earlier, views,
                                      legal))
        self.history = turn_before(self.history + [(str(action.get("type")), e) for e in events])
        return events, None


def observe_suite(scenarios: Iterable[Scenario], must_pass: bool = True) -> list[Observed]:
    """Every action of every scenario, run on the reference (adopted readings): accepted ones and ``reject`` steps
    (up to the first failing step of a scenario that fails: only when not ``must_pass``)."""
    out: list[Observed] = []
    for scenario in scenarios:
        observer = Observer(f"scenario {scenario.id}")
        outcome = run_scenario(scenario, observer)
        if outcome.status != "pass" and must_pass:
            raise AssertionError(f"{scenario.id} does not pass on the reference: {outcome.message}")
        out += observer.observed
    return out


def probes(game: Game, chosen: Json, rng: random.Random) -> list[Json]:
    """Actions to try before ``chosen``: one of another type than the decision takes, the fuzzer's near miss of the
    chosen one, the chosen one with each field pushed out of range, claims a window refuses, and now and then one
    with a field of another JSON type (each refused or accepted: the judge holds either to the contract)."""
    vocabulary = default_spec().vocabulary
    pending = game.pending.to_json()
    player = pending["player"] if pending["player"] is not None else game.state.active or 0
    others = [t for t in vocabulary.actions if t not in vocabulary.decisions.get(pending["kind"], ())]
    out = [example(rng.choice(others), player, game.state.seats, rng), *out_of_range(chosen)]
    if pending["kind"] not in CHANCE:
        out.append(near_miss(action_from_json(chosen), rng, game.to_json()).to_json())
    if pending["kind"] == "window":
        claim = {"player": rng.choice(game.state.players), "targets": [[rng.randrange(game.state.seats), 1]]}
        out += [{"type": "pluck", **claim}, {"type": "simultaneous_plucks", "claims": []},
                {"type": "simultaneous_plucks", "claims": [claim, claim]}]
    fields = [f for f in chosen if f != "type"]
    if fields and rng.random() < 0.2:
        out.append({**chosen, rng.choice(fields): "1"})
    return out


def out_of_range(chosen: Json) -> list[Json]:
    """The chosen action with one field pushed where the rules refuse it: a shuffle missing a card, no or three
    targets, no claims, a target beyond any zone, a Shoebill choice of no drawn card or of the user's own card."""
    out = []
    if "order" in chosen:
        out.append({**chosen, "order": chosen["order"][1:]})
    if "targets" in chosen:
        out += [{**chosen, "targets": []}, {**chosen, "targets": chosen["targets"][:1] * 3}]
    out += [{**chosen, f: [chosen[f][0], 9]} for f in ("target", "first", "second") if isinstance(chosen.get(f), list)]
    if chosen["type"] == "shoebill_replace":
        if chosen["own"] is not None:
            out.append({**chosen, "own": [7, chosen["own"][1]]})
        if chosen["rival"] is not None:
            index, _, slot = chosen["rival"]
            out += [{**chosen, "rival": [7, *chosen["rival"][1:]]}, {**chosen, "rival": [index, chosen["player"], 1]}]
    return out


def observe_game(players: int, seed: int, views: bool = True) -> list[Observed]:
    """A seeded game played to its end by the fuzzer's policy, probes tried at every decision."""
    observer = Observer(f"game {players}p seed {seed}", views)
    observer.new_game(players)
    choices, rng = Seeded(seed), random.Random(seed)
    game = observer.game
    assert game is not None
    while game.pending.kind != "game_over":
        chosen = choose(game, choices, BAO_PERCENT).to_json()
        for probe in probes(game, chosen, rng):
            saved, history = copy.deepcopy(game), observer.history  # the game itself: a reference judged wrong may
            if observer.apply(probe)[1] is None:  # hold a state setup refuses; accepted: play on from where it was
                observer.game, observer.history, game = saved, history, saved
        observer.apply(chosen)
    return observer.observed


def observe_games(games: Iterable[tuple[int, int]] = GAMES) -> list[Observed]:
    return [o for players, seed in games for o in observe_game(players, seed)]
