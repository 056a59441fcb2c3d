"""Every field of a canonical state of the right type and in range: what ``spec/schemas/state.schema.json``
says, with the catalog's card ids and the table's players (which the schema cannot know).

``FIELDS`` is the schema's ``required`` list and ``OPTIONAL`` its one optional field; a test holds them and the
enumerations below to the schema. Each check names the field's path; the rest of the validator reads the
state only once these hold.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from baobei_spec.position.errors import MalformedState, need
from baobei_spec.position.rules import PositionRules

BIG = 10 ** 9  # bound of any count or score
SHIELDS = ("none", "armed", "active")
POWER_CLAUSES = ("6.1.2", "6.10.3", "6.10.4", "6.10.5", "6.10.6")  # why an owed power activates
DRAWS = ("turn", "penalty", "toco_toucan", "shoebill")  # the draws a recycle can interrupt
PENDING_KEYS = ("kind", "player", "players", "data")
OWED_KEYS = ("player", "card", "clause")
PLUCK_KEYS = ("player", "targets")
DRAWING_KEYS = ("for", "player", "rival", "cards")
SLOT_KEYS = ("card", "species")


@dataclass(frozen=True)
class Frame:
    """What the field checks need besides the value: the catalog, the seats and the round's players."""

    rules: PositionRules
    seats: int
    players: frozenset[int]


Check = Callable[[Any, str, Frame], None]


def integer(value: Any, path: str, low: int = 0, high: int = BIG) -> int:
    if not (type(value) is int and low <= value <= high):
        raise MalformedState(path, f"must be an integer from {low} to {high}")
    return int(value)


def flag(value: Any, path: str) -> None:
    need(isinstance(value, bool), path, "must be true or false")


def player(value: Any, path: str, frame: Frame, nullable: bool = False) -> None:
    if (value is None and nullable) or (type(value) is int and value in frame.players):
        return
    raise MalformedState(path, f"must be one of the round's players {sorted(frame.players)}"
                               + (" or null" if nullable else ""))


def card(value: Any, path: str, frame: Frame, nullable: bool = False) -> None:
    if (value is None and nullable) or (isinstance(value, str) and value in frame.rules.species):
        return
    raise MalformedState(path, "must be a card id of the catalog" + (" or null" if nullable else ""))


def cards(value: Any, path: str, frame: Frame) -> None:
    need(isinstance(value, list), path, "must be a list of card ids")
    try:  # a set of the ids against the catalog's (strings): one C-speed test for the whole list
        ok = frame.rules.species.keys() >= set(value)
    except TypeError:  # an unhashable entry (a list, an object)
        ok = False
    if not ok:
        bad = next(i for i, c in enumerate(value) if not isinstance(c, str) or c not in frame.rules.species)
        raise MalformedState(f"{path}[{bad}]", "must be a card id of the catalog")


def slots(value: Any, path: str, frame: Frame) -> None:
    """A zone: null (an empty slot) or ``{card, species}`` per slot; every slot was made for a card."""
    most, species_of = len(frame.rules.cards), frame.rules.species
    need(isinstance(value, list) and len(value) <= most, path, f"must be a list of at most {most} slots")
    for i, slot in enumerate(value):
        try:  # the common case at C speed: null, or exactly {card, species} of a catalog card
            if slot is None or (type(slot) is dict and len(slot) == 2 and slot.get("species") is not None
                                and species_of.get(slot.get("card", "")) == slot.get("species")):
                continue
        except TypeError:  # an unhashable card
            pass
        where = f"{path}[{i}]"
        if not (isinstance(slot, dict) and set(slot) == set(SLOT_KEYS)):
            raise MalformedState(where, "a slot is null or {card, species}")
        card(slot["card"], f"{where}.card", frame)
        species = species_of[slot["card"]]
        need(slot["species"] == species, f"{where}.species", f"{slot['card']} is a {species}")


def by_seat(value: Any, path: str, frame: Frame, item: Callable[[Any, str], object]) -> None:
    """An object keyed by seat numbers as strings."""
    need(isinstance(value, dict), path, "must map seat numbers (strings) to values")
    seats = _seats(frame.seats)
    for key, item_value in value.items():
        if key not in seats:
            raise MalformedState(f"{path}.{key}", f"is no seat: seats are '0' to '{frame.seats - 1}'")
        item(item_value, f"{path}.{key}")


@cache
def _seats(seats: int) -> frozenset[str]:
    return frozenset(str(seat) for seat in range(seats))


@cache
def _viewers(players: frozenset[int]) -> frozenset[tuple[int, ...]]:
    """Every list of viewers a card may have among ``players``: a non-empty subset, sorted."""
    ordered = sorted(players)
    return frozenset(tuple(p for i, p in enumerate(ordered) if mask >> i & 1) for mask in range(1, 1 << len(ordered)))


def score_map(value: Any, path: str, frame: Frame, nullable: bool = False) -> None:
    if value is None and nullable:
        return
    by_seat(value, path, frame, lambda v, p: integer(v, p, -BIG))


def exact_keys(value: Any, path: str, keys: tuple[str, ...]) -> dict[str, Any]:
    need(isinstance(value, dict), path, f"must be an object {{{', '.join(keys)}}}")
    missing = [k for k in keys if k not in value]
    need(not missing, path, f"lacks {', '.join(missing)}")
    extra = sorted(set(value) - set(keys))
    need(not extra, f"{path}.{extra[0]}" if extra else path, f"is no field of {{{', '.join(keys)}}}")
    return dict(value)


def target(value: Any, path: str, frame: Frame) -> None:
    """``[owner, slot]``: a player of the round and a slot number from 1."""
    need(isinstance(value, list) and len(value) == 2 and type(value[0]) is int and type(value[1]) is int
         and value[0] in frame.players and 1 <= value[1] <= BIG, path, "must be [player, slot] of the table")


# --- the fields, as the schema lists them ---------------------------------------------------------------------
def _seen(value: Any, path: str, frame: Frame) -> None:
    need(isinstance(value, dict), path, "must map card ids to the players who know them")
    try:  # the common case in one pass: catalog cards, each with a sorted non-empty list of distinct players
        lists = value.values()
        if (frame.rules.species.keys() >= value.keys() and all(type(v) is list for v in lists)
                and _viewers(frame.players).issuperset(map(tuple, lists))
                and {type(p) for viewers in lists for p in viewers} <= {int}):
            return
    except TypeError:  # an unhashable entry
        pass
    for key, viewers in value.items():
        card(key, f"{path}.{key}", frame)
        where = f"{path}.{key}"
        need(isinstance(viewers, list) and bool(viewers), where, "must list the players who know it (at least one)")
        for i, viewer in enumerate(viewers):
            player(viewer, f"{where}[{i}]", frame)
        need(len(set(viewers)) == len(viewers), where, f"names a player twice: {viewers}")
        need(viewers == sorted(viewers), where, f"must be sorted: {sorted(viewers)}, not {viewers}")


def _zones(value: Any, path: str, frame: Frame) -> None:
    need(isinstance(value, dict) and set(value) == {str(p) for p in frame.players}, path,
         f"must hold one zone per player of the round, keyed {sorted(str(p) for p in frame.players)}")
    for owner, zone in value.items():
        slots(zone, f"{path}.{owner}", frame)


def _round_zones(value: Any, path: str, frame: Frame) -> None:
    if value is not None:
        by_seat(value, path, frame, lambda zone, where: slots(zone, where, frame))


def _moved(value: Any, path: str, frame: Frame) -> None:
    cards(value, path, frame)
    need(len(set(value)) == len(value), path, "names a card twice")
    need(value == sorted(value), path, "must be sorted")


def _last_turns(value: Any, path: str, frame: Frame) -> None:
    if value is None:
        return
    need(isinstance(value, list), path, "must be null or a list of players")
    for i, p in enumerate(value):
        player(p, f"{path}[{i}]", frame)
    need(len(set(value)) == len(value), path, "names a player twice")


def _pending(value: Any, path: str, frame: Frame) -> None:
    pending = exact_keys(value, path, PENDING_KEYS)
    need(isinstance(pending["kind"], str), f"{path}.kind", "must be a decision kind")
    player(pending["player"], f"{path}.player", frame, nullable=True)
    need(isinstance(pending["players"], list), f"{path}.players", "must be a list of players")
    for i, p in enumerate(pending["players"]):
        player(p, f"{path}.players[{i}]", frame)
    need(isinstance(pending["data"], dict), f"{path}.data", "must be an object")


def _owed_powers(value: Any, path: str, frame: Frame) -> None:
    need(isinstance(value, list), path, "must be a list of {player, card, clause}")
    for i, item in enumerate(value):
        power = exact_keys(item, f"{path}[{i}]", OWED_KEYS)
        player(power["player"], f"{path}[{i}].player", frame)
        card(power["card"], f"{path}[{i}].card", frame)
        need(power["clause"] in POWER_CLAUSES, f"{path}[{i}].clause", f"must be one of {', '.join(POWER_CLAUSES)}")


def _pluck(value: Any, path: str, frame: Frame) -> None:
    if value is None:
        return
    pluck = exact_keys(value, path, PLUCK_KEYS)
    player(pluck["player"], f"{path}.player", frame)
    targets = pluck["targets"]
    need(isinstance(targets, list) and len(targets) in (1, 2), f"{path}.targets", "must list one or two targets")
    for i, t in enumerate(targets):
        target(t, f"{path}.targets[{i}]", frame)


def _drawing(value: Any, path: str, frame: Frame) -> None:
    if value is None:
        return
    drawing = exact_keys(value, path, DRAWING_KEYS)
    need(drawing["for"] in DRAWS, f"{path}.for", f"must be one of {', '.join(DRAWS)}")
    player(drawing["player"], f"{path}.player", frame)
    player(drawing["rival"], f"{path}.rival", frame, nullable=True)
    cards(drawing["cards"], f"{path}.cards", frame)


def _nullable_player(value: Any, path: str, frame: Frame) -> None:
    player(value, path, frame, nullable=True)


def _nullable_card(value: Any, path: str, frame: Frame) -> None:
    card(value, path, frame, nullable=True)


def _count(low: int) -> Check:
    def check(value: Any, path: str, frame: Frame) -> None:
        integer(value, path, low)
    return check


def _flag(value: Any, path: str, frame: Frame) -> None:
    flag(value, path)


def _shield(value: Any, path: str, frame: Frame) -> None:
    need(isinstance(value, str) and value in SHIELDS, path, f"must be one of {', '.join(SHIELDS)}")


def _scores(value: Any, path: str, frame: Frame) -> None:
    score_map(value, path, frame)


def _round_scores(value: Any, path: str, frame: Frame) -> None:
    score_map(value, path, frame, nullable=True)


def _read_first(value: Any, path: str, frame: Frame) -> None:
    """Seats and players: checked by ``frame``, before the others."""


FIELDS: Mapping[str, Check] = {
    "seats": _read_first,
    "players": _read_first,
    "round": _count(1),
    "decisive": _flag,
    "turn": _count(0),
    "active": _nullable_player,
    "first": _nullable_player,
    "zones": _zones,
    "deck": cards,
    "discard": cards,
    "top": _nullable_card,
    "under": cards,
    "box": cards,
    "drawn": _nullable_card,
    "seen": _seen,
    "scores": _scores,
    "round_scores": _round_scores,
    "bao": _nullable_player,
    "shield": _shield,
    "recycles": _count(0),
    "final_phase": _flag,
    "last_turns": _last_turns,
    "moved": _moved,
    "pending": _pending,
    "owed_powers": _owed_powers,
    "pluck": _pluck,
    "drawing": _drawing,
    "winner": _nullable_player,
}
OPTIONAL: Mapping[str, Check] = {"round_zones": _round_zones}  # the last scored round's table, when known


def frame(state: Any, rules: PositionRules) -> Frame:
    """The seats and players of a state (checked first: every other field is read against them)."""
    need(isinstance(state, dict), "", "a canonical state is a JSON object")
    missing = [name for name in FIELDS if name not in state]
    need(not missing, missing[0] if missing else "", "is missing (every field of the canonical state is required)")
    extra = sorted(set(state) - set(FIELDS) - set(OPTIONAL))
    need(not extra, extra[0] if extra else "", "is no field of the canonical state")
    seats = integer(state["seats"], "seats", rules.min_players, rules.max_players)
    players = state["players"]
    need(isinstance(players, list) and len(players) >= 2 and all(type(p) is int for p in players), "players",
         "must list two or more players")
    need(all(0 <= p < seats for p in players), "players", f"must be seats from 0 to {seats - 1}")
    need(players == sorted(set(players)), "players", "must list each player once, in seating order")
    return Frame(rules, seats, frozenset(players))


def check_shape(state: Any, rules: PositionRules) -> Frame:
    """The state's frame once every field has its type and range (MalformedState naming the first that does not)."""
    f = frame(state, rules)
    for name, check in FIELDS.items():
        check(state[name], name, f)
    for name, check in OPTIONAL.items():
        if name in state:
            check(state[name], name, f)
    return f
