"""What an engine's answers must agree on with the reference's: one comparison, for every scenario run, the fuzzer,
``explain`` and the published observations.

After an action, the engine's events (by the contract's ``compared_event``: every field but the informational ones,
in order), its canonical state (the pending decision first), every player's view and its legal actions (as a set:
``action_key``, ordered permutations distinct) must equal the reference's at the same point. Each ``*_differences``
yields every differing leaf as a ``Disagreement``, in that order; the runner and the fuzzer stop at the first one
(``state``, ``view``, ``events``, ``legal_actions``), ``explain`` and a runner of the published observations show
them all (``differences``). Values are equal as Python compares them, except that a differing leaf is told apart
from ``true``/``1`` (over stdio the schema has already refused a number for a boolean).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from baobei_conform.runner.diff import ABSENT, diff, first_difference, leaves, shown
from baobei_spec.conditions import Json
from baobei_spec.contract import action_key, compared_events, contract

CHANCE = ("deal", "recycle", "first_player")  # decisions of chance: nobody lists their outcomes
LEGAL_LIST_LIMIT = 64  # legal actions are compared where the reference lists at most this many (permutations grow)
KINDS = ("events", "pending", "state", "view", "legal_actions")  # the check is named ``agree KIND``, in this order
READ_WITH = ("events", "views", "legal_actions")  # fields compared only with an engine announcing that capability


@dataclass
class Disagreement:
    """One leaf where the engine parts from the reference: the kind, its JSON path in the observation (``state...``,
    ``events[i]...``, ``views.pN...``, ``legal_actions``), both values there (``ABSENT``: that side lacks it)."""

    kind: str  # one of KINDS
    path: str
    reference: Any
    engine: Any
    message: str  # the fuzzer's wording of the first difference of its field

    def shown(self, value: Any) -> str:
        return shown(value, "(not listed)" if self.kind == "legal_actions" else "(missing)")

    @property
    def line(self) -> str:
        """``path: reference -> engine``, as ``explain`` prints it."""
        return f"{self.path}: {self.shown(self.reference)} -> {self.shown(self.engine)}"


def _leaves(kind: str, reference: Any, engine: Any, path: str, message: str) -> Iterator[Disagreement]:
    for where, left, right in leaves(reference, engine, path):
        yield Disagreement(kind, where, left, right, message)


def state_differences(reference: Json, engine: Any) -> Iterator[Disagreement]:
    """The canonical states: the pending decision's leaves first (``pending``), then the rest's (``state``)."""
    if engine is reference or engine == reference:
        return
    message = first_difference(reference, engine)
    if not isinstance(engine, dict):
        yield Disagreement("state", "state", reference, engine, message)
        return
    yield from _leaves("pending", reference.get("pending"), engine.get("pending", ABSENT), "state.pending", message)
    ours, theirs = ({k: v for k, v in side.items() if k != "pending"} for side in (reference, engine))
    yield from _leaves("state", ours, theirs, "state", message)


def view_differences(player: int, reference: Json, engine: Any) -> Iterator[Disagreement]:
    if engine is reference or engine == reference:
        return
    yield from _leaves("view", reference, engine, f"views.p{player}",
                       f"p{player}'s view: " + first_difference(reference, engine))


def event_differences(reference: list[Json], engine: Any) -> Iterator[Disagreement]:
    """The events of one action, in order, each by ``compared_event``; an event only one side has is one leaf."""
    if engine is reference or engine == reference:  # the informational keys too: the common case, at C speed
        return
    listed = engine if isinstance(engine, list) else []
    ours = [dict(e) for e in compared_events(reference)]
    theirs = [dict(e) for e in compared_events([e if isinstance(e, dict) else {} for e in listed])]
    if ours == theirs:
        return
    for i in range(max(len(ours), len(theirs))):
        if i < len(ours) and i < len(theirs):
            if ours[i] != theirs[i]:
                where = first_difference(ours[i], theirs[i], "event")
                yield from _leaves("events", ours[i], theirs[i], f"events[{i}]",
                                   f"events: event {i + 1} ({reference[i].get('kind')}) {where}")
            continue
        message = (f"events: the reference has {len(reference)} ({[_key(e) for e in reference]}), the engine "
                   f"{len(listed)} ({[_key(e) for e in listed if isinstance(e, dict)]})")
        yield Disagreement("events", f"events[{i}]", ours[i] if i < len(ours) else ABSENT,
                           theirs[i] if i < len(theirs) else ABSENT, message)


def legal_differences(reference: list[Json], engine: Any) -> Iterator[Disagreement]:
    """The legal actions as sets: each action only the engine lists, then each only the reference lists."""
    if not isinstance(engine, list):
        yield Disagreement("legal_actions", "legal_actions", reference, engine, f"legal_actions is {engine!r}")
        return
    want, got = ({action_key(a): a for a in side} for side in (reference, engine))
    if want.keys() == got.keys():
        return
    extra = [got[k] for k in sorted(got.keys() - want.keys())]
    missing = [want[k] for k in sorted(want.keys() - got.keys())]
    message = f"legal_actions lists {extra[:3]}, which the rules refuse" if extra else \
        f"legal_actions omits {missing[:3]}"
    for action in extra:
        yield Disagreement("legal_actions", "legal_actions", ABSENT, action, message)
    for action in missing:
        yield Disagreement("legal_actions", "legal_actions", action, ABSENT, message)


def observation_differences(reference: Json, engine: Json, capabilities: Collection[str]
                            ) -> Iterator[Disagreement]:
    """Every compared leaf where two observations (``Walked.observation``: ``state``, ``events``, ``views``
    player as a decimal string -> view, ``legal_actions``; the published expectations) differ, in ``KINDS``
    order. A field is compared where the engine has its capability and the reference's observation has it (no
    state: not read; no legal actions: none listed)."""
    if "events" in capabilities:
        yield from event_differences(reference["events"] or [], engine["events"])
    if reference["state"] is not None:
        yield from state_differences(reference["state"], engine["state"])
    if "views" in capabilities:
        for player, view in reference["views"].items():
            yield from view_differences(int(player), view, (engine["views"] or {}).get(player))
    if "legal_actions" in capabilities and reference["legal_actions"] is not None:
        yield from legal_differences(reference["legal_actions"], engine["legal_actions"])


def differences(reference: Json, engine: Json, capabilities: Collection[str]) -> list[str]:
    """Each compared leaf where the observations differ, ``path: reference -> engine`` (empty: they agree)."""
    return [d.line for d in observation_differences(reference, engine, capabilities)]


def state(reference: Json, engine: Any) -> Disagreement | None:
    return next(state_differences(reference, engine), None)


def view(player: int, reference: Json, engine: Any) -> Disagreement | None:
    return next(view_differences(player, reference, engine), None)


def events(reference: list[Json], engine: Any) -> Disagreement | None:
    return next(event_differences(reference, engine), None)


def legal_actions(reference: list[Json], engine: Any) -> Disagreement | None:
    return next(legal_differences(reference, engine), None)


def compared_fields(capabilities: Collection[str]) -> tuple[list[str], list[str]]:
    """(the fields compared with an engine of these capabilities, the informational ones and those not read, each
    with why): what ``explain`` says before the steps."""
    informational = ", ".join(contract().informational)
    compared = ["state (exactly)"]
    other = [f"the events' {informational} (informational: shown where they differ, never a difference)"]
    for name, how in (("events", f"events (in order, every key but {informational})"),
                      ("views", "every player of the round's view (exactly)"),
                      ("legal_actions", "legal_actions (as a set of actions)")):
        if name in capabilities:
            compared.append(how)
        else:
            other.append(f"{name} (the engine does not announce the capability)")
    return compared, other


def informational_differences(reference: list[Json], engine: list[Json]) -> list[str]:
    """Where the events' informational keys (``also``, ``ruling``) differ, events paired in order."""
    keys = contract().informational

    def kept(events: list[Json]) -> list[Json]:
        return [{k: e[k] for k in keys if k in e} if isinstance(e, dict) else {} for e in events or []]
    return diff(kept(reference), kept(engine)[:len(reference or [])], "events")


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
