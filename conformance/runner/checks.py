"""Judge an ``expect`` step: every check kind is one registered ``CheckKind``, in ``KINDS``.

A kind has its vocabulary name (the compiled step's ``what``, ``spec/vocabulary.yaml``), the engine answer it
reads (``reads``: the canonical state, a player's view, ``legal_actions``, or the events of the last action), the
optional capability that answer needs, and how it judges: ``(holds, expected, actual)``, the two as the failure
shows them. The runner plans its engine calls (``call_for``) and the capabilities a scenario needs
(``capability_for``) from the registry; adding a check is one ``@kind`` function here (plus its grammar rule,
vocabulary entry, docs row and judge cases).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from baobei_conform.engines.api import Call
from baobei_conform.runner.diff import diff
from baobei_conform.runner.event_fields import fields_match
from baobei_spec.conditions import Json
from baobei_spec.contract import compared_events

Verdict = tuple[bool, str, str]  # (holds, expected, actual)
Reads = Literal["state", "view", "legal_actions", "events"]  # the engine answer a check judges
Judge = Callable[[Json, Any], Verdict]  # (the compiled check, the answer it reads) -> verdict


@dataclass(frozen=True)
class CheckKind:
    what: str  # the vocabulary's name of the kind
    reads: Reads
    judge: Judge


KINDS: dict[str, CheckKind] = {}


def kind(what: str, reads: Reads = "state") -> Callable[[Judge], Judge]:
    """Register the judge of the check kind ``what``."""
    def register(judge: Judge) -> Judge:
        KINDS[what] = CheckKind(what, reads, judge)
        return judge
    return register


def _kind(check: Json) -> CheckKind:
    try:
        return KINDS[check["what"]]
    except KeyError:
        raise ValueError(f"unknown check {check.get('what')!r}") from None


def call_for(check: Json) -> Call | None:
    """The engine call whose answer the check judges; None for the events of the last action (no call)."""
    reads = _kind(check).reads
    if reads == "view":
        return ("view", check["viewer"])
    if reads == "events":
        return None
    return ("state",) if reads == "state" else ("legal_actions",)


def capability_for(check: Json) -> str | None:
    """The optional engine capability the check's answer needs (the state needs none)."""
    return {"view": "views", "legal_actions": "legal_actions", "events": "events"}.get(_kind(check).reads)


def judge(check: Json, answer: Any) -> Verdict:
    """The verdict on the answer ``call_for(check)`` got (the last action's events for an events check)."""
    return _kind(check).judge(check, answer)


def evaluate(check: Json, state: Json, events: list[Json], view: Callable[[int], Json],
             legal: list[Json] | None = None) -> Verdict:
    """(holds, expected, actual) for one check; ``view`` is a function player -> view JSON, ``legal`` the engine's
    legal actions (for a ``legal`` check)."""
    reads = _kind(check).reads
    answers = {"state": state, "events": events, "legal_actions": legal}
    answer = view(check["viewer"]) if reads == "view" else answers[reads]
    return judge(check, answer)


def species(card: str | None) -> str | None:
    """Card ids are ``<species>-<n>``."""
    return None if card is None else card.rsplit("-", 1)[0]


def _show(value: object) -> str:
    return "empty" if value is None else str(value)


def _same(expected: Any, actual: Any) -> bool:
    return expected == actual and isinstance(expected, bool) == isinstance(actual, bool)


def _is(expected: Any, actual: Any, text: Callable[[Any], str] = _show) -> Verdict:
    return _same(expected, actual), text(expected), text(actual)


# --- the table ---------------------------------------------------------------------------------------------
@kind("slot")
def _slot(check: Json, state: Json) -> Verdict:
    owner, slot = check["target"]
    zone = state["zones"].get(str(owner))
    actual: str | None
    if zone is None:
        actual = "no such player"
    elif not 1 <= slot <= len(zone):
        actual = "no such slot"
    else:
        actual = None if zone[slot - 1] is None else zone[slot - 1]["species"]
    return actual == check["species"], _show(check["species"]), _show(actual)


@kind("card_count")
def _card_count(check: Json, state: Json) -> Verdict:
    zone = state["zones"].get(str(check["player"]), [])
    return _is(check["count"], sum(1 for c in zone if c is not None), str)


@kind("slot_count")
def _slot_count(check: Json, state: Json) -> Verdict:
    return _is(check["count"], len(state["zones"].get(str(check["player"]), [])), str)


@kind("deck_count")
def _deck_count(check: Json, state: Json) -> Verdict:
    return len(state["deck"]) == check["count"], str(check["count"]), str(len(state["deck"]))


@kind("deck_top")
def _deck_top(check: Json, state: Json) -> Verdict:
    actual = species(state["deck"][0]) if state["deck"] else None
    return actual == check["species"], check["species"], _show(actual)


@kind("top")
@kind("drawn")
def _card_named(check: Json, state: Json) -> Verdict:
    """One card the state names: the face-up top of the discard pile, the drawn card."""
    actual = species(state[check["what"]])
    return actual == check["species"], check["species"], _show(actual)


@kind("discard")
def _discard(check: Json, state: Json) -> Verdict:
    actual = [species(c) for c in state["discard"]]
    return actual == check["species"], " ".join(check["species"]), " ".join(str(a) for a in actual)


@kind("discard_count")
def _discard_count(check: Json, state: Json) -> Verdict:
    return _is(check["count"], len(state["discard"]), str)


@kind("under_count")
def _under_count(check: Json, state: Json) -> Verdict:
    return _is(check["count"], len(state["under"]), str)


@kind("under")
def _under(check: Json, state: Json) -> Verdict:
    """In the state's order: the order the cards were slid under the pile, the first first (docs/protocol.md)."""
    actual, wanted = [str(species(c)) for c in state["under"]], check["species"]
    return actual == wanted, " ".join(wanted), " ".join(actual)


@kind("round_table")
def _round_table(check: Json, state: Json) -> Verdict:
    tables = state.get("round_zones")
    zone = None if tables is None else tables.get(str(check["player"]))
    actual = "no scored round" if zone is None else " ".join("_" if c is None else c["species"] for c in zone)
    wanted = " ".join("_" if s is None else s for s in check["species"])
    return actual == wanted, wanted, actual


# --- who decides, scores, the round ----------------------------------------------------------------------------
def _pending_text(kind: str, players: list[int]) -> str:
    return kind + "".join(f" p{p}" for p in players)


@kind("pending")
def _pending(check: Json, state: Json) -> Verdict:
    p = state["pending"]
    actual_players = p["players"] if p["kind"] == "window" else ([] if p["player"] is None else [p["player"]])
    want = check["players"]
    ok = p["kind"] == check["kind"] and (not want or want == actual_players)  # in order: clockwise (contract)
    return ok, _pending_text(check["kind"], want), _pending_text(p["kind"], actual_players)


def _score_of(table: Json | None, player: int) -> Any:
    return None if table is None else table.get(str(player))


@kind("round_score")
def _round_score(check: Json, state: Json) -> Verdict:
    actual = _score_of(state["round_scores"], check["player"])
    return actual == check["score"], str(check["score"]), _show(actual)


@kind("score")
def _score(check: Json, state: Json) -> Verdict:
    actual = _score_of(state["scores"], check["player"])
    return actual == check["score"], str(check["score"]), _show(actual)


def _player_text(player: int | None) -> str:
    return "none" if player is None else f"p{player}"


@kind("first")
@kind("winner")
@kind("bao")
def _seat(check: Json, state: Json) -> Verdict:
    """A player (or nobody) the state names: the first player, the winner, who called BAO."""
    actual = state[check["what"]]
    return actual == check["player"], _player_text(check["player"]), _player_text(actual)


@kind("shield")
def _shield(check: Json, state: Json) -> Verdict:
    return state["shield"] == check["state"], check["state"], state["shield"]


@kind("recycles")
def _recycles(check: Json, state: Json) -> Verdict:
    return state["recycles"] == check["count"], str(check["count"]), str(state["recycles"])


@kind("final_phase")
def _final_phase(check: Json, state: Json) -> Verdict:
    text = {True: "final phase", False: "no final phase"}
    return state["final_phase"] == check["value"], text[check["value"]], text[bool(state["final_phase"])]


def _owed_text(players: list[int] | None) -> str:
    if players is None:
        return "no last turns"
    return "last turns" + "".join(f" p{p}" for p in players) if players else "last turns, all played"


@kind("last_turns")
def _last_turns(check: Json, state: Json) -> Verdict:
    owed = state.get("last_turns")
    actual = None if owed is None else list(owed)  # in the order they are played: clockwise (contract)
    return actual == check["players"], _owed_text(check["players"]), _owed_text(actual)


# --- views, events, legal actions ------------------------------------------------------------------------------
@kind("view", reads="view")
def _view(check: Json, view: Json) -> Verdict:
    owner, slot = check["target"]
    zone = view["zones"].get(str(owner), [])
    cell = zone[slot - 1] if 1 <= slot <= len(zone) else "no such slot"
    actual = cell if isinstance(cell, str) else (None if cell is None else cell["species"])
    if cell is None:
        actual = "empty slot"
    return actual == check["species"], check["species"] or "hidden", actual or "hidden"


def _event_matches(event: Json, check: Json) -> bool:
    return (
        event.get("kind") == check["kind"]
        and ("player" not in check or event.get("player") == check["player"])
        and ("clause" not in check or event.get("clause") == check["clause"])
        and fields_match(event, check.get("fields") or {})
    )


def _event_text(e: Json) -> str:
    out: str = e["kind"]
    if e.get("player") is not None:
        out += f" for p{e['player']}"
    if e.get("clause"):
        out += f" ({e['clause']})"
    if e.get("fields"):
        out += " with " + ", ".join(f"{k} {v}" for k, v in e["fields"].items())
    return out


@kind("event", reads="events")
def _event(check: Json, events: list[Json]) -> Verdict:
    matching = [e for e in events if _event_matches(e, check)]
    seen = "; ".join(_event_text(e) for e in events) or "no events"
    return bool(matching) == check["present"], ("" if check["present"] else "no ") + _event_text(check), seen


def _listed(listed: bool) -> str:
    return "listed by legal_actions" if listed else "not listed by legal_actions"


@kind("legal", reads="legal_actions")
def _legal(check: Json, legal: list[Json] | None) -> Verdict:
    listed = isinstance(legal, list) and check["action"] in legal
    return listed == check["listed"], _listed(check["listed"]), _listed(listed)


# --- raw JSON: what the contract compares, stated exactly ----------------------------------------------------
SHOWN_JSON = 160  # characters of a JSON value a failure shows; longer values show their differing leaves
SHOWN_LEAVES = 6
_STEP = re.compile(r"\.?([^.\[\]]+)|\[(\d+)\]")
MISSING = object()


def path_steps(path: str) -> list[str | int]:
    """``zones.1[2].card`` -> ``["zones", "1", 2, "card"]``: keys of objects, indices of arrays (from 0), the
    paths ``runner/diff.py`` prints; ``.`` -> ``[]``, the whole value."""
    return [int(index) if index else key for key, index in _STEP.findall(path)]


def at_path(value: Any, path: str) -> Any:
    """The JSON value at ``path``, or ``MISSING`` where the path leads nowhere."""
    for step in path_steps(path):
        if isinstance(step, int) and isinstance(value, list) and step < len(value):
            value = value[step]
        elif isinstance(step, str) and isinstance(value, dict) and step in value:
            value = value[step]
        else:
            return MISSING
    return value


def json_text(value: Any) -> str:
    """JSON as a scenario writes it: compact, keys in their order."""
    return "(missing)" if value is MISSING else json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _json_verdict(want: Any, got: Any, path: str) -> Verdict:
    if got is not MISSING and not diff(want, got):
        return True, json_text(want), json_text(got)
    expected, actual = json_text(want), json_text(got)
    if got is not MISSING and max(len(expected), len(actual)) > SHOWN_JSON:
        leaves = diff(want, got, path)
        actual = "; ".join(leaves[:SHOWN_LEAVES]) + (f"; ... and {len(leaves) - SHOWN_LEAVES} more"
                                                     if len(leaves) > SHOWN_LEAVES else "")
        expected = f"{path} as stated"
    return False, expected, actual


@kind("state_json")
def _state_json(check: Json, state: Json) -> Verdict:
    return _json_verdict(check["value"], at_path(state, check["path"]), check["path"])


@kind("view_json", reads="view")
def _view_json(check: Json, view: Json) -> Verdict:
    return _json_verdict(check["value"], at_path(view, check["path"]), check["path"])


def _compared(events: Any) -> Any:
    """Events as the contract compares them (``compared_events``: in order, every field but ``also`` and
    ``ruling``), as JSON objects."""
    if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
        return events
    return [dict(e) for e in compared_events(events)]


@kind("event_list", reads="events")
def _event_list(check: Json, events: list[Json]) -> Verdict:
    return _json_verdict(_compared(check["events"]), _compared(events), "events")
