"""The engine interface the runner drives, and the reference interpreter behind it in process."""

from __future__ import annotations

import dataclasses
from typing import Protocol

from baobei_ref import Game, RuleError, action_from_json
from baobei_ref.game import default_params


class Engine(Protocol):
    """What the runner needs from an engine. ``apply`` returns (events, None) or (None, error code)."""

    name: str

    def setup(self, state: dict, params: dict | None) -> None: ...

    def new_game(self, players: int) -> None: ...

    def apply(self, action: dict) -> tuple[list[dict] | None, str | None]: ...

    def state(self) -> dict: ...

    def view(self, player: int) -> dict: ...


def params_with(overrides: dict | None):
    """The spec's rule parameters with a scenario's overrides (e.g. a lower threshold)."""
    params = default_params()
    if not overrides:
        return params
    changes = {}
    for key, value in overrides.items():
        current = getattr(params, key)
        changes[key] = {**current, **{int(k): v for k, v in value.items()}} if isinstance(current, dict) else value
    return dataclasses.replace(params, **changes)


class ReferenceEngine:
    """The reference interpreter, in process."""

    name = "baobei-ref"

    def __init__(self) -> None:
        self.game: Game | None = None

    def setup(self, state: dict, params: dict | None) -> None:
        self.game = Game.from_json(state, params=params_with(params))

    def new_game(self, players: int) -> None:
        self.game = Game(players=players)

    def apply(self, action: dict) -> tuple[list[dict] | None, str | None]:
        try:
            events = self.game.apply(action_from_json(action))
        except RuleError as exc:
            return None, exc.code
        return [e.to_json() for e in events], None

    def state(self) -> dict:
        return self.game.to_json()

    def view(self, player: int) -> dict:
        return self.game.view(player)
