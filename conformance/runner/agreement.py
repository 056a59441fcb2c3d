"""What an engine's answers must agree on with the reference's: one definition, for the fuzzer and every scenario run.

After an action, the engine's canonical state (its pending decision apart), its events (by the contract's
``compared_event``: every field but the informational ones, in order), every player's view and its legal actions
(as a set: ``action_key``, ordered permutations distinct) must equal the reference's at the same point. Each
function returns the first ``Disagreement`` or None.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from baobei_conform.runner.diff import ABSENT, first_difference, first_leaf
from baobei_spec.conditions import Json
from baobei_spec.contract import action_key, compared_events

CHANCE = ("deal", "recycle", "first_player")  # decisions of chance: nobody lists their outcomes
LEGAL_LIST_LIMIT = 64  # legal actions are compared where the reference lists at most this many (permutations grow)
KINDS = ("pending", "state", "events", "view", "legal_actions")  # the check is named ``agree KIND``


@dataclass
class Disagreement:
    """Where the engine parts from the reference: the kind, the first differing JSON path, both values there."""

    kind: str  # one of KINDS
    path: str
    reference: Any
    engine: Any
    message: str  # the fuzzer's wording of it

    def shown(self, value: Any) -> str:
        return "(missing)" if value is ABSENT else repr(value)


def _leaf(kind: str, reference: Any, engine: Any, path: str, message: str) -> Disagreement:
    where, left, right = first_leaf(reference, engine, path) or (path, reference, engine)
    return Disagreement(kind, where or "$", left, right, message)


def state(reference: Json, engine: Any) -> Disagreement | None:
    """The canonical states: the pending decision first (``pending``), then the rest (``state``)."""
    if engine is reference or engine == reference:
        return None
    theirs = engine.get("pending", ABSENT) if isinstance(engine, dict) else ABSENT
    if theirs != reference.get("pending"):
        return _leaf("pending", reference.get("pending"), theirs, "$.pending", first_difference(reference, engine))
    return _leaf("state", reference, engine, "$", first_difference(reference, engine))


def view(player: int, reference: Json, engine: Any) -> Disagreement | None:
    if engine is reference or engine == reference:
        return None
    return _leaf("view", reference, engine, f"$.view[p{player}]",
                 f"p{player}'s view: " + first_difference(reference, engine))


def events(reference: list[Json], engine: Any) -> Disagreement | None:
    """The events of one action, in order, each by ``compared_event``."""
    listed = engine if isinstance(engine, list) else []
    ours, theirs = compared_events(reference), compared_events([e if isinstance(e, dict) else {} for e in listed])
    if ours == theirs:
        return None
    for i, (a, b) in enumerate(zip(ours, theirs, strict=False)):
        if a != b:
            where = first_difference(dict(a), dict(b), "event")
            message = f"events: event {i + 1} ({reference[i].get('kind')}) {where}"
            return _leaf("events", dict(a), dict(b), f"$.events[{i}]", message)
    message = (f"events: the reference has {len(reference)} ({[_key(e) for e in reference]}), the engine "
               f"{len(listed)} ({[_key(e) for e in listed if isinstance(e, dict)]})")
    return Disagreement("events", "$.events.length", len(reference), len(listed), message)


def legal_actions(reference: list[Json], engine: Any) -> Disagreement | None:
    """The legal actions as sets; the first one only one side lists."""
    want = {action_key(a): a for a in reference}
    got = {action_key(a): a for a in engine} if isinstance(engine, list) else {}
    if isinstance(engine, list) and want.keys() == got.keys():
        return None
    extra = [got[k] for k in sorted(got.keys() - want.keys())]
    missing = [want[k] for k in sorted(want.keys() - got.keys())]
    if extra:
        return Disagreement("legal_actions", "$.legal_actions[+]", ABSENT, extra[0],
                            f"legal_actions lists {extra[:3]}, which the rules refuse")
    return Disagreement("legal_actions", "$.legal_actions[-]", missing[0] if missing else reference, ABSENT
                        if missing else engine, f"legal_actions omits {missing[:3]}")


class _Decision(Protocol):
    @property
    def kind(self) -> str: ...


class _Action(Protocol):
    def to_json(self) -> Json: ...


class Playing(Protocol):
    """What ``listed`` reads of the reference's game (the judge's runner never imports the reference)."""

    @property
    def pending(self) -> _Decision: ...

    def legal_actions(self) -> Sequence[_Action]: ...


def listed(game: Playing) -> list[Json] | None:
    """The reference game's legal actions as compared (JSON), or None where they are not: a decision of chance
    (nobody lists its outcomes), none listed, or more than ``LEGAL_LIST_LIMIT``."""
    if game.pending.kind in CHANCE:
        return None
    legal = game.legal_actions()
    return [a.to_json() for a in legal] if 0 < len(legal) <= LEGAL_LIST_LIMIT else None


def _key(event: Json) -> tuple[object, object, object]:
    return event.get("kind"), event.get("player"), event.get("clause")
