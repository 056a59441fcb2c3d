"""The one validator of positions (``baobei_spec.position``), held to the state schema, and right-and-wrong cases:
for each check, a reached position it accepts and the same position changed one way, which it refuses for that
field (so that a check that is dropped or loosened fails here, by name)."""

from __future__ import annotations

import copy
import json
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path

import jsonschema
import pytest

from baobei_spec import SPEC_ROOT, default_spec
from baobei_spec.position import MalformedState, PositionRules, check_position, decision, shape

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
from impossible_setups import reached  # noqa: E402

SCHEMA = json.loads((SPEC_ROOT / "schemas" / "state.schema.json").read_text(encoding="utf-8"))
RULES = PositionRules.from_spec(default_spec())


@cache
def states() -> tuple[dict, ...]:
    return tuple(reached(60))


def a(kind: str, where: Callable[[dict], bool] = lambda s: True) -> dict:
    """A reached position pending ``kind`` (and ``where``), as a copy to change."""
    return copy.deepcopy(next(s for s in states() if s["pending"]["kind"] == kind and where(s)))


# --- the schema -----------------------------------------------------------------------------------------------
def test_the_validator_reads_the_fields_the_schema_defines():
    assert SCHEMA["required"] == list(shape.FIELDS)
    assert set(SCHEMA["properties"]) == set(shape.FIELDS) | set(shape.OPTIONAL)
    props = SCHEMA["properties"]
    assert props["shield"]["enum"] == list(shape.SHIELDS)
    assert props["pending"]["required"] == list(shape.PENDING_KEYS)
    assert props["pending"]["properties"]["kind"]["enum"] == list(decision.DATA)
    assert list(decision.DATA) == list(default_spec().vocabulary.decisions)
    assert props["owed_powers"]["items"]["required"] == list(shape.OWED_KEYS)
    assert props["owed_powers"]["items"]["properties"]["clause"]["enum"] == list(shape.POWER_CLAUSES)
    pluck, drawing = props["pluck"]["oneOf"][1], props["drawing"]["oneOf"][1]
    assert pluck["required"] == list(shape.PLUCK_KEYS) and drawing["required"] == list(shape.DRAWING_KEYS)
    assert drawing["properties"]["for"]["enum"] == list(shape.DRAWS)
    assert props["seats"]["minimum"] == RULES.min_players and props["seats"]["maximum"] == RULES.max_players


def test_the_decision_data_type_has_the_fields_the_validator_reads():
    """``DecisionData`` (the reference's ``Decision.data``, what mypy holds every ``ask`` to) and ``DATA`` (what the
    validator takes each kind's data for, which every reached position passes) name the same fields."""
    assert list(decision.DecisionData.__annotations__) == list(dict.fromkeys(
        name for fields in decision.DATA.values() for name in fields))


def test_what_the_schema_refuses_the_validator_refuses():
    """Every field given a value of each other JSON type: a value the schema refuses is refused by the validator
    too (which is stricter: it knows the catalog, the players and the moment)."""
    validator = jsonschema.Draft202012Validator(SCHEMA)
    base = a("window")
    checked = 0
    for name in SCHEMA["properties"]:
        for value in (None, True, -1, 0, 3, "x", [], [0], {}, {"0": 1}):
            state = {**base, name: value}
            if not validator.is_valid(state):
                with pytest.raises(MalformedState):
                    check_position(state, RULES)
                checked += 1
    assert checked > 200


def test_every_reached_state_is_valid_by_both():
    validator = jsonschema.Draft202012Validator(SCHEMA)
    for state in states()[::7]:
        validator.validate(state)
        check_position(state, RULES)


# --- right and wrong: (a position pending this kind, the change, the field it is refused for) ---------------------
def _zone_cards(s: dict, p: int) -> list[str]:
    return [c["card"] for c in s["zones"][str(p)] if c]


def _card_to_zone(s: dict, area: str, player: int) -> dict:
    card = s[area].pop(0)
    s["zones"][str(player)].append({"card": card, "species": card.rsplit("-", 1)[0]})
    return s


def _swap_last_turns(s: dict) -> dict:
    s["last_turns"] = s["last_turns"][::-1]
    return s


def _fill_gift_slot(s: dict) -> dict:
    data = s["pending"]["data"]
    card = s["deck"].pop(0)
    s["zones"][str(data["rival"])][data["slot"] - 1] = {"card": card, "species": card.rsplit("-", 1)[0]}
    return s


def _giver_keeps_one(s: dict) -> dict:
    giver = str(s["pending"]["player"])
    held = [i for i, c in enumerate(s["zones"][giver]) if c]
    for i in held[1:]:
        s["deck"].append(s["zones"][giver][i]["card"])
        s["zones"][giver][i] = None
    return s


def _one_empty_slot(s: dict) -> dict:
    zone = s["zones"][str(s["pending"]["player"])]
    empty = [i for i, c in enumerate(zone) if c is None]
    for i in empty[1:]:
        card = s["deck"].pop(0)
        zone[i] = {"card": card, "species": card.rsplit("-", 1)[0]}
    return s


def _macaw_same_player(s: dict) -> dict:
    data = s["pending"]["data"]
    owner = data["first"][0]
    other = next(i for i, c in enumerate(s["zones"][str(owner)], 1) if c and [owner, i] != data["first"])
    data["second"] = [owner, other]
    return s


def _macaw_unseen(s: dict) -> dict:
    owner, slot = s["pending"]["data"]["second"]
    card = s["zones"][str(owner)][slot - 1]["card"]
    viewers = [p for p in s["seen"][card] if p != s["pending"]["player"]]
    s["seen"] = {k: v for k, v in s["seen"].items() if k != card} | ({card: viewers} if viewers else {})
    return s


def _owed_card_in_a_zone(s: dict) -> dict:
    card = s["owed_powers"][0]["card"]
    s["discard"].remove(card)
    s["zones"][str(s["players"][0])].append({"card": card, "species": card.rsplit("-", 1)[0]})
    s["top"] = s["discard"][-1]
    return s


def _seen_by(s: dict, card: str, viewers: list[int]) -> dict:
    s["seen"][card] = viewers
    return s


def _moved_card_to_deck(s: dict) -> dict:
    card = s["moved"][0]
    for zone in s["zones"].values():
        for i, c in enumerate(zone):
            if c and c["card"] == card:
                zone[i] = None
    s["deck"].append(card)
    s["seen"].pop(card, None)
    return s


def _peeked_one_more(s: dict) -> dict:
    p = s["pending"]["player"]
    card = next(c for c in _zone_cards(s, p) if c not in s["seen"])
    s["seen"][card] = [p]
    return s


def _winner_not_lowest(s: dict) -> dict:
    other = next(p for p in s["players"] if p != s["winner"])
    s["winner"] = s["pending"]["data"]["winner"] = other
    return s


def _unseen_zone_card(s: dict) -> tuple[str, int] | None:
    return next(((p, i) for p, zone in s["zones"].items() for i, c in enumerate(zone)
                 if c and c["card"] not in s["seen"] and c["card"] not in s["moved"]), None)


def _unseen_zone_card_to_deck(s: dict) -> dict:
    p, i = _unseen_zone_card(s)
    s["deck"].append(s["zones"][p][i]["card"])
    s["zones"][p][i] = None
    return s


def _unsorted_recycle(s: dict) -> dict:
    s["pending"]["data"]["cards"] = s["pending"]["data"]["cards"][::-1]
    return s


CASES = [  # id, kind, where, change, path
    ("turn-0-in-play", "turn", None, lambda s: {**s, "turn": 0}, "turn"),
    ("first-null-at-deal", "deal", None, lambda s: {**s, "first": None}, "first"),
    ("decisive-round-1", "turn", lambda s: s["round"] == 1, lambda s: {**s, "decisive": True}, "decisive"),
    ("box-at-turn", "turn", None, lambda s: {**s, "box": [s["deck"][0]], "deck": s["deck"][1:]}, "box"),
    ("zone-slots-at-deal", "deal", None, lambda s: {**s, "zones": {k: [None] for k in s["zones"]}}, "zones"),
    ("shield-none-after-bao", "turn", lambda s: s["bao"] is not None and not s["final_phase"],
     lambda s: {**s, "shield": "none"}, "shield"),
    ("recycles-without-final-phase", "turn", lambda s: s["bao"] is None and not s["final_phase"],
     lambda s: {**s, "recycles": 2}, "recycles"),
    ("last-turns-without-bao", "turn", lambda s: s["bao"] is None and not s["final_phase"],
     lambda s: {**s, "last_turns": []}, "last_turns"),
    ("last-turns-counterclockwise", "turn", lambda s: s["last_turns"] and len(s["last_turns"]) > 1,
     _swap_last_turns, "last_turns"),
    ("round-scores-in-round-1", "turn", lambda s: s["round"] == 1,
     lambda s: {**s, "round_scores": dict(s["scores"])}, "round_scores"),
    ("winner-not-lowest", "game_over", None, _winner_not_lowest, "winner"),
    ("turns-left-at-game-over", "game_over", None, lambda s: {**s, "last_turns": [s["players"][0]]}, "last_turns"),
    ("round-zones-not-the-zones", "game_over", None, lambda s: {**s, "round_zones": {
        k: [None] * len(z) for k, z in s["zones"].items()}}, "round_zones"),
    ("deck-card-known", "turn", None, lambda s: _seen_by(s, s["deck"][0], [0]), "seen."),
    ("discard-not-known-to-all", "turn", None, lambda s: _seen_by(s, s["discard"][0], [0]), "seen."),
    ("drawn-known-to-a-rival", "drawn", None, lambda s: _seen_by(s, s["drawn"], s["players"]), "seen."),
    ("zone-unseen-at-game-over", "game_over", lambda s: _zone_cards(s, 0),
     lambda s: _seen_by(s, _zone_cards(s, 0)[0], [0]), "seen."),
    ("placed-card-known", "place", None, lambda s: _seen_by(s, s["pending"]["data"]["card"], [0]), "seen."),
    ("moved-at-turn", "turn", None, lambda s: {**s, "moved": [_zone_cards(s, 0)[0]]}, "moved"),
    ("moved-card-in-deck", "end_turn", lambda s: s["moved"], _moved_card_to_deck, "moved"),
    ("peeked-one-more", "initial_peek", lambda s: s["pending"]["player"] != s["players"][0], _peeked_one_more,
     "zones."),
    ("box-out-of-catalog-order", "deal", None, lambda s: {**s, "box": s["box"][::-1], "pending": {
        **s["pending"], "data": {"cards": s["box"][::-1]}}}, "box"),
    ("deal-other-cards", "deal", None, lambda s: {**s, "pending": {**s["pending"], "data": {
        "cards": s["box"][1:] + s["box"][:1]}}}, "pending.data.cards"),
    ("recycle-unsorted", "recycle", None, _unsorted_recycle, "pending.data.cards"),
    ("recycle-with-a-deck", "recycle", lambda s: _unseen_zone_card(s) is not None, _unseen_zone_card_to_deck, "deck"),
    ("window-reference-not-top", "window", lambda s: len(s["discard"]) > 1,
     lambda s: {**s, "pending": {**s["pending"], "data": {"reference": s["discard"][0]}}}, "pending.data.reference"),
    ("window-players", "window", None, lambda s: {**s, "pending": {**s["pending"], "players": s["players"]}},
     "pending.players"),
    ("end-turn-after-bao", "end_turn", lambda s: s["bao"] is None and s["players"][1:],
     lambda s: {**s, "bao": s["players"][-1] if s["players"][-1] != s["active"] else s["players"][0],
                "shield": "armed", "last_turns": []}, "pending.kind"),
    ("gift-into-a-filled-slot", "gift", None, _fill_gift_slot, "pending.data.slot"),
    ("gift-from-one-card", "gift", None, _giver_keeps_one, "pending"),
    ("place-with-one-empty-slot", "place", None, _one_empty_slot, "pending"),
    ("penalty-placed-by-another", "place", lambda s: s["pending"]["data"]["clause"] == "3.5.6",
     lambda s: {**s, "pending": {**s["pending"], "data": {**s["pending"]["data"], "by": next(
         p for p in s["players"] if p != s["pending"]["player"])}}}, "pending.data.by"),
    ("macaw-one-players-cards", "macaw_swap", lambda s: sum(1 for c in s["zones"][str(
        s["pending"]["data"]["first"][0])] if c) > 1, _macaw_same_player, "pending.data"),
    ("macaw-card-not-looked-at", "macaw_swap", None, _macaw_unseen, "seen."),
    ("pluck-without-gift", "window", None, lambda s: {**s, "pluck": {"player": s["pending"]["players"][0],
                                                                     "targets": [[s["active"], 1]]}}, "pluck"),
    ("drawing-turn-of-another", "recycle", lambda s: s["drawing"]["for"] == "turn",
     lambda s: {**s, "drawing": {**s["drawing"], "player": next(p for p in s["players"] if p != s["active"])}},
     "drawing.player"),
    ("owed-at-end-turn", "end_turn", None, lambda s: {**s, "owed_powers": [
        {"player": s["active"], "card": s["discard"][-1], "clause": "6.1.2"}]}, "owed_powers"),
    ("owed-in-a-zone", "gift", lambda s: s["owed_powers"], _owed_card_in_a_zone, "owed_powers[0].card"),
    ("owed-in-the-wrong-order", "gift", lambda s: len(s["owed_powers"]) == 2 and s["owed_powers"][0]["clause"]
     == "6.10.3", lambda s: {**s, "owed_powers": s["owed_powers"][::-1]}, "owed_powers"),
    ("window-owes-another-card", "window", lambda s: s["owed_powers"], lambda s: {**s, "owed_powers": [
        {**s["owed_powers"][0], "clause": "6.10.5", "player": s["pending"]["players"][0]}]}, "owed_powers"),
]


@pytest.mark.parametrize(("kind", "where", "change", "path"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_a_reached_position_changed_one_way_is_refused_for_that_field(kind, where, change, path):
    base = a(kind, where or (lambda s: True))
    check_position(base, RULES)  # the position itself is one
    with pytest.raises(MalformedState) as refused:
        check_position(change(copy.deepcopy(base)), RULES)
    assert refused.value.path.startswith(path), str(refused.value)
