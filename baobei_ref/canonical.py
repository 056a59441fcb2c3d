"""The canonical state as a deterministic JSON document, its inverse, and player views.

The JSON Schema is ``spec/schemas/state.schema.json``. A canonical state holds everything needed to
continue the game exactly, in the game's terms: in the middle of an action, what is still owed
(``baobei_ref.owed``), never the reference's own agenda. The documents are to be read, not changed in
place: the slot of a card shown face up is the catalog's one object for it (``Catalog.faces``) and the
slot of a hidden card one object too, shared by every state and view (states and views of every player
after every action are the protocol's and the fuzzer's bulk; building them slot by slot cost a quarter more).
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

import orjson

from baobei_ref.cards import Catalog
from baobei_ref.owed import owed, rebuild
from baobei_ref.state import Decision, State
from baobei_spec import Params
from baobei_spec.position import PositionRules, check_position
from baobei_spec.position.decision import DecisionData

if TYPE_CHECKING:
    from baobei_ref.game import Game

HIDDEN: dict[str, None] = {"card": None, "species": None}  # the slot of a card the viewer has not seen
Face = dict[str, str]


class _Sorted(dict[frozenset[int], list[int]]):
    """A set of players -> its sorted list, one shared list per set (``seen`` is most of a state's cost:
    sorting each card's players anew took two thirds of it)."""

    def __missing__(self, players: frozenset[int]) -> list[int]:
        self[players] = listed = sorted(players)
        return listed


SORTED = _Sorted()


def _zone(zone: list[str | None], faces: dict[str, Face]) -> list[Face | None]:
    """A zone's slots, every card face up."""
    return [None if c is None else faces[c] for c in zone]


def state_to_json(g: Game) -> dict[str, Any]:
    s: State = g.state
    faces, seen = g.catalog.faces, s.seen
    return {
        "seats": s.seats,
        "players": list(s.players),
        "round": s.round,
        "decisive": s.decisive,
        "turn": s.turn,
        "active": s.active,
        "first": s.first,
        "zones": {str(p): _zone(z, faces) for p, z in sorted(s.zones.items())},
        "deck": list(reversed(s.deck)),
        "discard": list(s.discard),
        "top": s.discard[-1] if s.discard else None,
        "under": list(s.under),
        "box": list(s.box),
        "drawn": s.drawn,
        "seen": {c: SORTED[seen[c]] for c in sorted(seen) if seen[c]},
        "scores": {str(p): v for p, v in sorted(s.scores.items())},
        "round_scores": None if s.round_scores is None else {str(p): v for p, v in sorted(s.round_scores.items())},
        "round_zones": None if s.round_zones is None else {
            str(p): _zone(z, faces) for p, z in sorted(s.round_zones.items())},
        "bao": s.bao,
        "shield": s.shield,
        "recycles": s.recycles,
        "final_phase": s.final_phase,
        "last_turns": None if s.last_turns is None else list(s.last_turns),
        "moved": sorted(s.moved),
        "pending": g.pending.to_json(),
        **owed(s, g.catalog.power),
        "winner": s.winner,
    }


_RULES: dict[tuple[int, int], tuple[Params, Catalog, PositionRules]] = {}  # by the objects' identity


def position_rules(params: Params, catalog: Catalog) -> PositionRules:
    """What a position of a game under ``params`` and ``catalog`` may hold (built once per pair)."""
    key = (id(params), id(catalog))
    known = _RULES.get(key)
    if known is not None and known[0] is params and known[1] is catalog:
        return known[2]
    counts = Counter(catalog.species_of(card) for card in catalog.cards)
    rules = PositionRules.of(params, [(sid, power, counts[sid], value)
                                      for sid, (_, value, power) in catalog.species.items()])
    if len(_RULES) >= 64:
        _RULES.clear()
    _RULES[key] = (params, catalog, rules)
    return rules


_CHECKED: dict[bytes, PositionRules] = {}  # the last states found to be positions (their JSON text) -> under what
_CHECKED_KEPT = 8
_CHECKED_LOCK = threading.Lock()


def check_once(data: Any, rules: PositionRules) -> None:
    """``check_position``, not repeated for one of the last few states it passed under the same rules: the
    conformance harness sets every scenario's position up twice, on the engine and on the reference it holds the
    engine's answers to (a pure check of the JSON text: a state that differs in any byte is checked)."""
    try:
        key: bytes | None = orjson.dumps(data)
    except TypeError:  # what is no JSON orjson writes (a key that is no string): checked, never remembered
        key = None
    if key is not None:
        known = _CHECKED.get(key)
        if known is rules or (known is not None and known == rules):
            return
    check_position(data, rules)
    if key is not None:
        with _CHECKED_LOCK:
            if len(_CHECKED) >= _CHECKED_KEPT:
                del _CHECKED[next(iter(_CHECKED))]
            _CHECKED[key] = rules


def _slots(zone: list[dict[str, str] | None]) -> list[str | None]:
    return [None if c is None else c["card"] for c in zone]


def state_from_json(new_game: Callable[..., Game], data: dict[str, Any], params: Params, catalog: Catalog) -> Game:
    """A Game (``new_game(players=..., params=..., catalog=...)``) at the exact position ``data`` describes, which
    ``check_position`` has found to be one (``Game.from_json`` checks it first)."""
    g = new_game(players=data["seats"], params=params, catalog=catalog)
    s = g.state
    s.players = list(data["players"])
    s.round, s.decisive, s.turn = data["round"], data["decisive"], data["turn"]
    s.active, s.first = data["active"], data["first"]
    s.zones = {int(p): _slots(z) for p, z in data["zones"].items()}
    s.deck = list(reversed(data["deck"]))
    s.discard, s.under, s.drawn = list(data["discard"]), list(data["under"]), data["drawn"]
    s.box = list(data["box"])
    s.seen = {c: frozenset(ps) for c, ps in data["seen"].items()}
    s.scores = {int(p): v for p, v in data["scores"].items()}
    rs = data["round_scores"]
    s.round_scores = None if rs is None else {int(p): v for p, v in rs.items()}
    rz = data.get("round_zones")
    s.round_zones = None if rz is None else {int(p): _slots(z) for p, z in rz.items()}
    s.bao, s.shield = data["bao"], data["shield"]
    s.recycles, s.final_phase = data["recycles"], data["final_phase"]
    s.last_turns = None if data["last_turns"] is None else list(data["last_turns"])
    s.moved = set(data["moved"])
    p = data["pending"]
    # check_position took the data for its kind's fields (baobei_spec.position.decision.DATA) before
    s.pending = Decision(p["kind"], p["player"], tuple(p["players"]), cast(DecisionData, dict(p["data"])))
    s.winner = data["winner"]
    rebuild(s, data)
    return g


def view(g: Game, player: int) -> dict[str, Any]:
    """What ``player`` may know under perfect memory (ruling R-27): cards they have seen keep their identity,
    every other hidden card is anonymous; deck and under-pile are counts."""
    s: State = g.state
    faces, seen = g.catalog.faces, s.seen.get  # asked card by card: a state has seen far more cards than slots

    def slots(zone: list[str | None]) -> list[Face | dict[str, None] | None]:
        return [None if c is None else faces[c] if player in seen(c, ()) else HIDDEN for c in zone]

    decision = g.pending
    pending = decision.to_json()
    if "card" in decision.data or "cards" in decision.data:  # else the decision's data as the state shows it
        pending["data"] = {
            k: v for k, v in decision.data.items()
            if k not in ("card", "cards")
            or (decision.player == player and k == "cards" and decision.kind == "shoebill")
        }
    return {
        "player": player,
        "players": list(s.players),
        "round": s.round,
        "turn": s.turn,
        "active": s.active,
        "zones": {str(p): slots(z) for p, z in sorted(s.zones.items())},
        "deck_count": len(s.deck),
        "discard": list(s.discard),
        "top": s.discard[-1] if s.discard else None,
        "under_count": len(s.under),
        "drawn": s.drawn if s.drawn is not None and player in seen(s.drawn, ()) else None,
        "scores": {str(p): v for p, v in sorted(s.scores.items())},
        "bao": s.bao,
        "shield": s.shield,
        "recycles": s.recycles,
        "final_phase": s.final_phase,
        "pending": pending,
    }
