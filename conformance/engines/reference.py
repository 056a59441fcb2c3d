"""The reference interpreter as an engine in process, and the rule parameters as the handshake carries them."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from baobei_conform.engines.api import Call, Engine, Results, run_calls
from baobei_conform.engines.commands import CAPABILITIES
from baobei_ref import Catalog, Game, RuleError, action_from_json
from baobei_ref.game import default_catalog, default_params
from baobei_ref.rules import Variant
from baobei_spec import Params
from baobei_spec.conditions import Json


def params_with(overrides: Json | None, params: Params | None = None) -> Params:
    """Rule parameters with a scenario's overrides (e.g. a lower threshold)."""
    return (params or default_params()).with_overrides(overrides)


def params_to_json(params: Params | None = None, catalog: Catalog | None = None) -> Json:
    """The rule parameters as the handshake sends them: catalog, hand sizes, thresholds, ..."""
    params = params or default_params()
    catalog = catalog or default_catalog()
    counts: dict[str, int] = {}
    for card in catalog.cards:
        counts[catalog.species_of(card)] = counts.get(catalog.species_of(card), 0) + 1
    return {
        "catalog": [{"species": sid, "family": fam, "value": val, "power": pw, "count": counts[sid]}
                    for sid, (fam, val, pw) in catalog.species.items()],
        "players": {"min": params.min_players, "max": params.max_players},
        "hand_size": {str(k): v for k, v in params.hand_size.items()},
        "decisive_hand_size": {str(k): v for k, v in params.decisive_hand_size.items()},
        "initial_peek": params.initial_peek,
        "threshold": {str(k): v for k, v in params.threshold.items()},
        "bao_failure_minimum": params.bao_failure_minimum,
        "bao_failure_factor": params.bao_failure_factor,
        "final_phase_recycle": params.final_phase_recycle,
    }


def catalog_from_json(entries: list[Json]) -> Catalog:
    """The catalog the handshake (or a setup override) describes."""
    return Catalog.from_entries([(c["species"], c["family"], c["value"], c["power"], c["count"]) for c in entries])


def params_from_json(data: Json) -> tuple[Params, Catalog]:
    """(Params, Catalog) from the handshake's parameters."""
    catalog = catalog_from_json(data["catalog"])
    params = Params(
        min_players=data["players"]["min"], max_players=data["players"]["max"],
        hand_size={int(k): v for k, v in data["hand_size"].items()},
        decisive_hand_size={int(k): v for k, v in data["decisive_hand_size"].items()},
        initial_peek=data["initial_peek"], threshold={int(k): v for k, v in data["threshold"].items()},
        bao_failure_minimum=data["bao_failure_minimum"], bao_failure_factor=data["bao_failure_factor"],
        final_phase_recycle=data["final_phase_recycle"],
    )
    return params, catalog


def _with_rulings(params: Params, rulings: dict[str, str]) -> Params:
    """``params`` reading the rulings so; the same object when it already does (what a position may hold is built
    once per parameters object: a new one per engine, twice per scenario with agreement, cost as much again)."""
    return params if params.rulings == rulings else dataclasses.replace(params, rulings=rulings)


class ReferenceEngine(Engine):
    """The reference interpreter, in process: each call is answered when it is sent."""

    name = "baobei-ref"
    capabilities = frozenset(CAPABILITIES)  # every optional feature of the protocol
    info = {"name": "baobei-ref", "version": "0.1.0", "language": "python"}

    def __init__(self, readings: dict[str, str] | None = None, declare: bool = True,
                 variants: Sequence[Variant] = (), params: Params | None = None) -> None:
        """``readings``: rulings to read otherwise than adopted (``{"R-05": "A"}``), declared like an
        engine's unless ``declare`` is false (then judged by the adopted expectations, as a bug would be).
        ``variants``: further changes to the rules of every game it plays (e.g. a misreading).
        ``params``: the rule parameters it starts with (default: the spec's; a misread number, say)."""
        self.game: Game | None = None
        self.variants = tuple(variants)
        self.rulings = dict(readings or {})
        self.readings = dict(self.rulings) if declare else {}
        self.params = _with_rulings(params or default_params(), self.rulings)
        self.catalog = default_catalog()
        self.refusals: list[str] = []  # clauses the refused actions cited (the report's coverage reads them)

    def send(self, calls: list[Call]) -> Results:
        return run_calls(self, calls)

    def collect(self, ticket: Results) -> Results:
        return ticket

    def configure(self, params: Json | None) -> None:
        """Adopt the handshake's rule parameters."""
        if params:
            played, self.catalog = params_from_json(params)
            self.params = _with_rulings(played, self.rulings)

    def setup(self, state: Json, params: Json | None) -> None:
        catalog = self.catalog
        if params and "catalog" in params:  # card values overridden for this position
            params = dict(params)
            catalog = catalog_from_json(params.pop("catalog"))
        self.game = Game.from_json(state, params=params_with(params, self.params), catalog=catalog,
                                   variants=self.variants)

    def new_game(self, players: int) -> str | None:
        """None, or the error code refusing a number of players the rules do not define (2.1.1)."""
        try:
            self.game = Game(players=players, params=self.params, catalog=self.catalog, variants=self.variants)
        except RuleError as exc:
            if exc.clause:
                self.refusals.append(exc.clause)
            return exc.code
        return None

    def apply(self, action: Json) -> tuple[list[Json] | None, str | None]:
        try:
            events = self._game().apply(action_from_json(action))
        except RuleError as exc:
            if exc.clause:
                self.refusals.append(exc.clause)
            return None, exc.code
        return [e.to_json() for e in events], None

    def state(self) -> Json:
        return self._game().to_json()

    def view(self, player: int) -> Json:
        return self._game().view(player)

    def legal_actions(self) -> list[Json]:
        return [a.to_json() for a in self._game().legal_actions()]

    def _game(self) -> Game:
        """The game a call plays on; a call before any game (the server refuses one, NEEDS_GAME) is an error."""
        if self.game is None:
            raise RuntimeError("no game yet: start one with setup or new_game")
        return self.game
