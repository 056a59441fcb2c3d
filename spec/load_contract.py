"""Load contract.yaml (the observable contract) and hold it to the vocabulary; every problem names the entry."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from baobei_spec.conditions import LIST, MOVED, REFUSAL, SITUATION
from baobei_spec.load import _NAME, Problem, _read_yaml
from baobei_spec.model import Contract, EventContract, ListRule, MovedRule, Refusal, Situation, Vocabulary

CONTRACT_KEYS = ("informational", "events", "shapes", "refusals", "lists", "views", "legal_actions", "moved")
VIEWERS = ("all", "decider", "none")  # to whom a view shows a pending decision's data key
Raw = dict[Any, Any]


def _mapping(raw: object, rel: str, entry: str, problems: list[Problem]) -> Raw:
    if not isinstance(raw, dict):
        problems.append(Problem(rel, entry, f"must be a mapping, not {raw!r}"))
        return {}
    return raw


SITUATION_KEYS = ("id", "clause", "when", "match", "fields", "instead_of")
REFUSAL_KEYS = ("id", "decisions", "actions", "when", "of", "code", "as", "clause", "text")
LIST_KEYS = ("path", "order", "scope", "check")
MOVED_KEYS = ("id", "clause", "when", "check")


def _keys(raw: Raw, allowed: tuple[str, ...], rel: str, entry: str, problems: list[Problem]) -> None:
    """A row has only the keys its table defines (a stray comma in a flow mapping makes a key)."""
    for key in raw:
        if key not in allowed:
            problems.append(Problem(rel, entry, f"unknown key {key!r}; keys are {', '.join(allowed)}"))


def _text(raw: dict[str, Any], key: str, rel: str, entry: str, problems: list[Problem]) -> str:
    value = raw.get(key)
    if not isinstance(value, str) or not value.strip():
        problems.append(Problem(rel, entry, f"`{key}` must be a non-empty text"))
        return ""
    return value


def _known(names: object, known: Iterable[str], what: str, rel: str, entry: str,
           problems: list[Problem]) -> tuple[str, ...]:
    """A list of names each of which is ``known`` (a vocabulary's decision kinds, action types...)."""
    known = set(known)
    items = names if isinstance(names, list) else [] if names is None else [names]
    for name in items:
        if name not in known:
            problems.append(Problem(rel, entry, f"unknown {what} {name!r}"))
    return tuple(str(n) for n in items)


def _situations(kind: str, raw: object, fields: tuple[str, ...], vocab: Vocabulary, rel: str,
                problems: list[Problem]) -> tuple[Situation, ...]:
    out: list[Situation] = []
    for i, item in enumerate(raw if isinstance(raw, list) else [], start=1):
        entry = f"events.{kind} situation {i}"
        item = _mapping(item, rel, entry, problems)
        sid = str(item.get("id"))
        if not _NAME.fullmatch(sid) or any(s.id == sid for s in out):
            problems.append(Problem(rel, entry, f"situation id {sid!r} must be a unique snake_case name"))
        entry = f"events.{kind}.{sid}"
        _keys(item, SITUATION_KEYS, rel, entry, problems)
        match = _mapping(item.get("match", {}), rel, entry, problems)
        for name in match:
            if name not in SITUATION:
                problems.append(Problem(rel, entry, f"unknown condition {name!r}; known: {', '.join(SITUATION)}"))
        present = _known(item.get("fields", list(fields)), fields, "field", rel, entry, problems)
        instead = _known(item.get("instead_of"), vocab.decisions, "decision", rel, entry, problems)
        out.append(Situation(kind, sid, str(item.get("clause")), _text(item, "when", rel, entry, problems), dict(match),
                             present, instead))
    if not out:
        problems.append(Problem(rel, f"events.{kind}", "needs at least one situation"))
    return tuple(out)


def _contract_events(raw: Raw, vocab: Vocabulary, rel: str, problems: list[Problem]) -> dict[str, EventContract]:
    """Every event kind of the vocabulary, in its order, with exactly its fields."""
    events = _mapping(raw.get("events"), rel, "events", problems)
    if list(events) != list(vocab.events):
        problems.append(Problem(rel, "events", "must list the vocabulary's event kinds, in its order"))
    out = {}
    for kind, item in events.items():
        item = _mapping(item, rel, f"events.{kind}", problems)
        fields = _mapping(item.get("fields", {}), rel, f"events.{kind}.fields", problems)
        if kind in vocab.events and tuple(fields) != tuple(dict.fromkeys(vocab.events[kind])):
            problems.append(Problem(rel, f"events.{kind}", f"fields {list(fields)} are not the vocabulary's "
                                                           f"{list(vocab.events[kind])}"))
        out[str(kind)] = EventContract(str(kind), {str(f): str(m) for f, m in fields.items()},
                                       _situations(str(kind), item.get("situations"), tuple(fields), vocab, rel,
                                                   problems))
    return out


def _contract_shapes(raw: Raw, vocab: Vocabulary, rel: str, problems: list[Problem]) -> dict[str, dict[str, str]]:
    from baobei_spec.contract import type_check

    shapes = _mapping(raw.get("shapes"), rel, "shapes", problems)
    if list(shapes) != list(vocab.actions):
        problems.append(Problem(rel, "shapes", "must list the vocabulary's action types, in its order"))
    out = {}
    for action, fields in shapes.items():
        fields = _mapping(fields or {}, rel, f"shapes.{action}", problems)
        if action in vocab.actions and list(fields) != list(vocab.actions[action]):
            problems.append(Problem(rel, f"shapes.{action}", "must give each of the action's fields, in order"))
        for name, type_name in fields.items():
            if type_check(str(type_name)) is None:
                problems.append(Problem(rel, f"shapes.{action}.{name}", f"unknown type {type_name!r}"))
        out[str(action)] = {str(f): str(t) for f, t in fields.items()}
    return out


def _contract_refusals(raw: Raw, vocab: Vocabulary, rel: str, problems: list[Problem]) -> tuple[Refusal, ...]:
    out: list[Refusal] = []
    rows = raw.get("refusals")
    for i, item in enumerate(rows if isinstance(rows, list) else [], start=1):
        item = _mapping(item, rel, f"refusals row {i}", problems)
        rid = str(item.get("id"))
        entry = f"refusals.{rid}"
        _keys(item, REFUSAL_KEYS, rel, entry, problems)
        if any(r.id == rid for r in out):
            problems.append(Problem(rel, entry, "duplicate row id"))
        when = str(item.get("when"))
        if when not in REFUSAL:
            problems.append(Problem(rel, entry, f"unknown condition {when!r}"))
        code, as_ = item.get("code"), item.get("as")
        unknown = code is not None and vocab.error_codes and code not in vocab.error_codes  # (errors.yaml may not load)
        if (code is None) == (as_ is None) or unknown:
            problems.append(Problem(rel, entry, "needs a `code` of errors.yaml, or `as` (an action type) instead"))
        if as_ is not None and as_ not in vocab.actions:
            problems.append(Problem(rel, entry, f"`as` names unknown action type {as_!r}"))
        clause = item.get("clause")
        out.append(Refusal(rid, _known(item.get("decisions"), vocab.decisions, "decision", rel, entry, problems),
                           _known(item.get("actions"), vocab.actions, "action type", rel, entry, problems), when,
                           None if item.get("of") is None else str(item["of"]), None if code is None else str(code),
                           None if clause is None else str(clause), _text(item, "text", rel, entry, problems),
                           None if as_ is None else str(as_)))
    if not out or out[0].when != "not_an_action" or out[0].decisions or out[0].actions:
        problems.append(Problem(rel, "refusals", "the first row must be not_an_action, for any decision and action"))
    return tuple(out)


def _rows(raw: Raw, table: str, name: str, keys: tuple[str, ...], checks: dict[str, Any], required: bool, rel: str,
          problems: list[Problem]) -> list[tuple[str, Raw]]:
    """The rows of a table as (entry, mapping), named by their ``name`` key: only its ``keys``; ``check`` one of
    ``checks`` (absent unless ``required``)."""
    rows = raw.get(table)
    out = []
    for i, item in enumerate(rows if isinstance(rows, list) else [], start=1):
        item = _mapping(item, rel, f"{table} row {i}", problems)
        entry = f"{table}.{item.get(name)}"
        _keys(item, keys, rel, entry, problems)
        check = item.get("check")
        if (check is not None or required) and check not in checks:
            problems.append(Problem(rel, entry, f"unknown check {check!r}"))
        out.append((entry, item))
    return out


def _contract_lists(raw: Raw, rel: str, problems: list[Problem]) -> tuple[ListRule, ...]:
    return tuple(ListRule(_text(item, "path", rel, entry, problems), _text(item, "order", rel, entry, problems),
                          _text(item, "scope", rel, entry, problems), None if item.get("check") is None
                          else str(item["check"]))
                 for entry, item in _rows(raw, "lists", "path", LIST_KEYS, LIST, False, rel, problems))


def _contract_moved(raw: Raw, rel: str, problems: list[Problem]) -> tuple[MovedRule, ...]:
    return tuple(MovedRule(str(item.get("id")), str(item.get("clause")), _text(item, "when", rel, entry, problems),
                           str(item.get("check")))
                 for entry, item in _rows(raw, "moved", "id", MOVED_KEYS, MOVED, True, rel, problems))


def load_contract(root: Path, vocab: Vocabulary, problems: list[Problem]) -> Contract:
    """contract.yaml, held to the vocabulary: every event kind, action type and decision kind, nothing else."""
    rel = "contract.yaml"
    raw = _mapping(_read_yaml(root, rel, problems) or {}, rel, "-", problems)
    for key in sorted(set(raw) ^ set(CONTRACT_KEYS), key=str):
        problems.append(Problem(rel, str(key), f"{'unknown' if key in raw else 'missing'} key; keys are "
                                               f"{', '.join(CONTRACT_KEYS)}"))
    views = _mapping(raw.get("views", {}), rel, "views", problems)
    pending = _mapping(views.get("pending_data", {}), rel, "views.pending_data", problems)
    if list(pending) != list(vocab.decisions):
        problems.append(Problem(rel, "views.pending_data", "must list the vocabulary's decision kinds, in its order"))
    for kind, keys in pending.items():
        for key, who in _mapping(keys, rel, f"views.pending_data.{kind}", problems).items():
            if who not in VIEWERS:
                problems.append(Problem(rel, f"views.pending_data.{kind}.{key}", f"is one of {', '.join(VIEWERS)}"))
    legal = _mapping(raw.get("legal_actions", {}), rel, "legal_actions", problems)
    if sorted(legal) != ["identity", "listed", "order"]:
        problems.append(Problem(rel, "legal_actions", "gives identity, listed and order"))
    informational = raw.get("informational")
    return Contract(
        events=_contract_events(raw, vocab, rel, problems),
        informational=tuple(str(k) for k in informational) if isinstance(informational, list) else (),
        shapes=_contract_shapes(raw, vocab, rel, problems),
        refusals=_contract_refusals(raw, vocab, rel, problems),
        lists=_contract_lists(raw, rel, problems),
        view_fields={str(k): str(v) for k, v in _mapping(views.get("fields", {}), rel, "views.fields",
                                                          problems).items()},
        pending_data={str(k): {str(f): str(w) for f, w in (v or {}).items()} for k, v in pending.items()},
        legal_actions={str(k): str(v) for k, v in legal.items()},
        moved=_contract_moved(raw, rel, problems),
    )
