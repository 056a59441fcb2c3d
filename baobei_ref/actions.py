"""Actions: every answer a player (or chance) can give to the pending decision.

2.5.6: the set of actions is closed; no action lets a player look at, move or rearrange face-down
cards on their own initiative. Actions are small frozen records; ``to_json``/``action_from_json``
carry them over the engine protocol unchanged. A target is ``(owner, slot)`` with slots numbered from 1.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

Target = tuple[int, int]


@dataclass(frozen=True)
class Action:
    """Base class. ``player`` is who acts; chance outcomes and closing a window have none."""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": ACTION_NAMES[type(self)]}
        for name in field_names(type(self)):
            value = getattr(self, name)
            data[name] = value if value.__class__ in _PLAIN else _jsonify(value)  # most fields: a player, a slot
        return data


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def field_names(cls: type[Action]) -> tuple[str, ...]:
    """The fields of an action type, in order (``dataclasses.fields`` builds them anew on every call: actions
    cross the protocol thousands of times a second while fuzzing)."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls))
    return names


_PLAIN = frozenset({int, str, bool, type(None)})  # JSON as they are


def _jsonify(value: object) -> object:
    if isinstance(value, Action):
        return {k: v for k, v in value.to_json().items() if k != "type"}
    if isinstance(value, tuple):
        return [_jsonify(v) for v in value]
    return value


# --- chance outcomes (supplied by the caller or drawn from a seeded RNG) ---
@dataclass(frozen=True)
class ChooseFirstPlayer(Action):
    """2.4.1 / 5.4.1: the random first player of round one or of a decisive round."""

    first: int


@dataclass(frozen=True)
class Shuffle(Action):
    """The deck order, top first: the deal (2.3.1) or a recycle (7.1.5)."""

    order: tuple[str, ...]


# --- setup ---
@dataclass(frozen=True)
class InitialPeek(Action):
    """2.2.1: look at exactly two own slots once."""

    player: int
    slots: tuple[int, ...]


# --- the turn (part 2) ---
@dataclass(frozen=True)
class Draw(Action):
    """2.6.2 / 2.7.1: draw the top card of the deck and look at it."""

    player: int


@dataclass(frozen=True)
class TakeDiscard(Action):
    """2.8: take the top discard into ``slot``, replacing (and discarding) the card there."""

    player: int
    slot: int


@dataclass(frozen=True)
class Keep(Action):
    """2.7.3: keep the drawn card in ``slot``; the old card is discarded face up."""

    player: int
    slot: int


@dataclass(frozen=True)
class Discard(Action):
    """2.7.4: discard the drawn card face up without replacing."""

    player: int


# --- plucking (part 3) ---
@dataclass(frozen=True)
class Pluck(Action):
    """3.1.5 / 3.6.2: a claim with one target (pluck) or two ordered targets (double pluck)."""

    player: int
    targets: tuple[Target, ...]


@dataclass(frozen=True)
class SimultaneousPlucks(Action):
    """3.2.5: claims whose order cannot be decided; the one nearest clockwise to the active player wins."""

    claims: tuple[Pluck, ...]


@dataclass(frozen=True)
class CloseWindow(Action):
    """Nobody (else) claims: the reaction window on the current discard closes."""


@dataclass(frozen=True)
class Gift(Action):
    """3.4.4 / 3.6.7: give own card in ``slot`` to the rival whose card was removed."""

    player: int
    slot: int


@dataclass(frozen=True)
class Place(Action):
    """2.5.4: put an added card (penalty, Toco Toucan) into the empty ``slot`` of one's own zone."""

    player: int
    slot: int


# --- end of turn (part 4) ---
@dataclass(frozen=True)
class CallBao(Action):
    """4.1.2: call BAO at the end of one's own turn."""

    player: int


@dataclass(frozen=True)
class EndTurn(Action):
    """End the turn without calling BAO."""

    player: int


# Every action type by its protocol name; each power's own actions join from its module (baobei_ref.powers).
ACTIONS: dict[str, type[Action]] = {
    "choose_first_player": ChooseFirstPlayer,
    "shuffle": Shuffle,
    "initial_peek": InitialPeek,
    "draw": Draw,
    "take_discard": TakeDiscard,
    "keep": Keep,
    "discard": Discard,
    "pluck": Pluck,
    "simultaneous_plucks": SimultaneousPlucks,
    "close_window": CloseWindow,
    "gift": Gift,
    "place": Place,
    "call_bao": CallBao,
    "end_turn": EndTurn,
}
ACTION_NAMES = {cls: name for name, cls in ACTIONS.items()}


def _tupled(value: object) -> object:
    if isinstance(value, list):
        return tuple(_tupled(v) for v in value)
    return value


def action_from_json(data: Any) -> Action:
    """Build an action from its JSON form; ``RuleError("malformed_action")`` naming what is wrong when the value
    has not the action's shape (spec/contract.yaml, shapes: an unknown type, a missing or extra field, a field of
    another JSON type), before any rule is asked."""
    from baobei_ref.errors import RuleError
    from baobei_spec.contract import shape_problem

    problem = shape_problem(data)
    if problem is not None:
        raise RuleError("malformed_action", problem)
    cls = ACTIONS[data["type"]]
    kwargs: dict[str, object] = {}
    for name in field_names(cls):
        value = data[name]
        if cls is SimultaneousPlucks:
            value = tuple(Pluck(c["player"], tuple((owner, slot) for owner, slot in c["targets"])) for c in value)
        kwargs[name] = _tupled(value)
    return cls(**kwargs)


__all__ = ["ACTIONS", "Action", "Target", "action_from_json", *(cls.__name__ for cls in ACTIONS.values())]
