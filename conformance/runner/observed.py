"""What of an engine's observation after a step must agree with the reference's, field by field.

An observation is what an engine shows after an action (``Walked.observation``; the published expectations are
the reference's): its canonical state, the events of the action, every player of the round's view and its legal
actions. Which fields are compared, and how, is the contract's (spec/contract.yaml through
``baobei_spec.contract``, the definition the fuzzer compares by): the state and each view exactly, the events in
order without their informational keys, the legal actions as a set of actions. Views and legal actions are
compared only with an engine that announces the capability; the informational keys are shown, never counted.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import Any

from baobei_conform.runner.diff import diff
from baobei_spec.conditions import Json
from baobei_spec.contract import action_key, compared_events, contract

READ_WITH = ("events", "views", "legal_actions")  # fields compared only with an engine announcing that capability


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


def differences(reference: Json, engine: Json, capabilities: Collection[str]) -> list[str]:
    """Each compared leaf where the engine's observation differs from the reference's, ``path: reference -> engine``
    (empty: they agree)."""
    lines = diff(reference["state"], engine["state"], "state")
    if "events" in capabilities:
        ours, theirs = (compared_events([e if isinstance(e, dict) else {} for e in o["events"] or []])
                        for o in (reference, engine))
        lines += diff([dict(e) for e in ours], [dict(e) for e in theirs], "events")
    if "views" in capabilities:
        for player, view in reference["views"].items():
            lines += diff(view, (engine["views"] or {}).get(player), f"views.p{player}")
    if "legal_actions" in capabilities:
        lines += legal_differences(reference["legal_actions"] or [], engine["legal_actions"])
    return lines


def legal_differences(reference: list[Json], engine: object) -> list[str]:
    """The actions only one side lists (legal actions are a set: ``action_key`` is an action's identity)."""
    if not isinstance(engine, list):
        return [f"legal_actions: {len(reference)} actions -> {json.dumps(engine)}"]
    want, got = ({action_key(a): a for a in side} for side in (reference, engine))
    return ([f"legal_actions: {_text(want[k])} -> (not listed)" for k in sorted(want.keys() - got.keys())]
            + [f"legal_actions: (not listed) -> {_text(got[k])}" for k in sorted(got.keys() - want.keys())])


def informational_differences(reference: list[Json], engine: list[Any]) -> list[str]:
    """Where the events' informational keys (``also``, ``ruling``) differ, events paired in order."""
    keys = contract().informational
    def kept(events: list[Any]) -> list[Json]:
        return [{k: e[k] for k in keys if k in e} if isinstance(e, dict) else {} for e in events or []]
    return diff(kept(reference), kept(engine)[:len(reference or [])], "events")


def _text(action: object) -> str:
    return json.dumps(action, sort_keys=True, ensure_ascii=False)
