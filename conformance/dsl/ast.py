"""The typed AST of a scenario script. Every node knows its line in the script."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Action = dict[str, Any]  # an action in its wire form (docs/protocol.md), built by dsl/actions.py


@dataclass(frozen=True)
class Setup:
    """An exact table: zones by species, deck, discard, ... (``baobei_spec.position.SetupOptions``)."""

    line: int
    options: dict[str, Any] = field(default_factory=dict)
    # an item's key (``zones.1`` for p1's zone) -> its (line, column) in the script, where its errors point
    places: dict[str, tuple[int, int]] = field(default_factory=dict)


@dataclass(frozen=True)
class SetupState:
    """A canonical state written as JSON (``setup raw JSON``): any position the protocol can carry."""

    line: int
    state: object


@dataclass(frozen=True)
class NewGame:
    """Round one from scratch: the first player and the deal are chance outcomes to supply."""

    line: int
    players: int
    code: str | None = None  # the error code a refused player count must get


@dataclass(frozen=True)
class ShuffleSpecies:
    """A chance outcome named by species, top first; the runner maps species to the cards to shuffle."""

    order: tuple[str, ...]


@dataclass(frozen=True)
class Act:
    line: int
    action: Action | ShuffleSpecies


@dataclass(frozen=True)
class Reject:
    line: int
    code: str
    action: Action


@dataclass(frozen=True)
class Replay:
    """``replay``: the same actions from the same start must give the same state (the fuzzer's determinism)."""

    line: int


@dataclass(frozen=True)
class Check:
    """What must hold: ``what`` names the check (see steps.schema.json), ``args`` its operands."""

    what: str
    args: dict[str, Any]


@dataclass(frozen=True)
class Expect:
    line: int
    check: Check


@dataclass(frozen=True)
class Under:
    """Steps that hold only under some readings of a ruling (``under R-05 A D`` ... ``end``)."""

    line: int
    ruling: str
    readings: tuple[str, ...]
    statements: tuple[Act | Reject | Replay | Expect, ...]


Statement = Setup | SetupState | NewGame | Act | Reject | Replay | Expect | Under
