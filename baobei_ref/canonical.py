"""The canonical state as a deterministic JSON document, its inverse, and player views.

The JSON Schema is ``spec/schemas/state.schema.json``. A canonical state holds everything needed to
continue the game exactly, in the game's terms: in the middle of an action, what is still owed
(``baobei_ref.owed``), never the reference's own agenda. The documents are to be read, not changed in
place: the slot of a card shown face up is the catalog's one object for it (``Catalog.faces``) and the
slot of a hidden card one object too, shared by every state and view (states and views of every player
after every action are the protocol's and the fuzzer's bulk; building them slot by slot cost a quarter more).
"""

from __future__ import annotations

from baobei_ref.agenda import PlaceCard, ShoebillDraw
from baobei_ref.errors import RuleError
from baobei_ref.owed import owed, rebuild
from baobei_ref.state import Decision, State

HIDDEN = {"card": None, "species": None}  # the slot of a card the viewer has not seen


class _Sorted(dict):
    """A set of players -> its sorted list, one shared list per set (``seen`` is most of a state's cost:
    sorting each card's players anew took two thirds of it)."""

    def __missing__(self, players: frozenset[int]) -> list[int]:
        self[players] = listed = sorted(players)
        return listed


SORTED = _Sorted()


def _zone(zone: list[str | None], faces: dict[str, dict]) -> list[dict | None]:
    """A zone's slots, every card face up."""
    return [None if c is None else faces[c] for c in zone]


def state_to_json(g) -> dict:
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
        "pending": s.pending.to_json(),
        **owed(s, g.catalog.power),
        "winner": s.winner,
    }


def state_from_json(cls, data: dict, params=None, catalog=None):
    """Build a Game at the exact position ``data`` describes; a malformed position is a RuleError."""
    try:
        g = cls(players=data["seats"], params=params, catalog=catalog)
        s = g.state
        s.players = list(data["players"])
        s.round, s.decisive, s.turn = data["round"], data["decisive"], data["turn"]
        s.active, s.first = data["active"], data["first"]
        s.zones = {int(p): [None if c is None else c["card"] for c in z] for p, z in data["zones"].items()}
        s.deck = list(reversed(data["deck"]))
        s.discard, s.under, s.drawn = list(data["discard"]), list(data["under"]), data["drawn"]
        s.box = list(data.get("box", []))
        s.seen = {c: frozenset(ps) for c, ps in data["seen"].items()}
        s.scores = {int(p): v for p, v in data["scores"].items()}
        rs = data.get("round_scores")
        s.round_scores = None if rs is None else {int(p): v for p, v in rs.items()}
        rz = data.get("round_zones")
        s.round_zones = None if rz is None else {int(p): [None if c is None else c["card"] for c in z]
                                                 for p, z in rz.items()}
        s.bao, s.shield = data["bao"], data["shield"]
        s.recycles, s.final_phase = data["recycles"], data["final_phase"]
        s.last_turns = None if data["last_turns"] is None else list(data["last_turns"])
        s.moved = set(data["moved"])
        p = data["pending"]
        s.pending = Decision(p["kind"], p.get("player"), tuple(p.get("players") or ()), dict(p.get("data") or {}))
        s.winner = data.get("winner")
        rebuild(s, data)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise RuleError("malformed_action", f"malformed canonical state: {exc!r}") from exc
    check_cards(g)
    return g


def held_cards(s: State) -> list[str]:
    """Cards in nobody's zone nor pile: in a hand, or carried by a decision or a scheduled step."""
    held = [s.drawn] if s.drawn else []
    data = s.pending.data
    if s.pending.kind in ("place",):
        held.append(data["card"])
    if s.pending.kind == "shoebill":
        held.extend(data["cards"])
    for step in s.agenda:
        if isinstance(step, PlaceCard):
            held.append(step.card)
        elif isinstance(step, ShoebillDraw):
            held.extend(c for c in step.drawn if c)
    return held


def all_cards(s: State) -> list[str]:
    """Every card of the game wherever it is; the rules never create nor destroy one."""
    zoned = [c for z in s.zones.values() for c in z if c is not None]
    return zoned + s.deck + s.discard + s.under + s.box + held_cards(s)


def check_cards(g) -> None:
    cards = all_cards(g.state)
    expected = sorted(g.catalog.cards)
    if sorted(cards) != expected:
        from collections import Counter

        have, want = Counter(cards), Counter(expected)
        extra = sorted((have - want).elements())
        missing = sorted((want - have).elements())
        raise RuleError("malformed_action", f"the position must hold every card once: missing {missing[:8]}"
                        f"{'...' if len(missing) > 8 else ''}, extra or duplicated {extra[:8]}")


def view(g, player: int) -> dict:
    """What ``player`` may know under perfect memory (ruling R-27): cards they have seen keep their identity,
    every other hidden card is anonymous; deck and under-pile are counts."""
    s: State = g.state
    faces = g.catalog.faces
    known = {c for c, players in s.seen.items() if player in players}

    def slots(zone: list[str | None]) -> list[dict | None]:
        return [faces[c] if c in known else None if c is None else HIDDEN for c in zone]

    pending = s.pending.to_json()
    pending["data"] = {
        k: v for k, v in pending["data"].items()
        if k not in ("card", "cards") or (s.pending.player == player and k == "cards" and s.pending.kind == "shoebill")
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
        "drawn": s.drawn if s.drawn in known else None,
        "scores": {str(p): v for p, v in sorted(s.scores.items())},
        "bao": s.bao,
        "shield": s.shield,
        "recycles": s.recycles,
        "final_phase": s.final_phase,
        "pending": pending,
    }
