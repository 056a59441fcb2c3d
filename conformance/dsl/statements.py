"""Statement <-> action, in one table: how the scenario language writes each action of the protocol.

Each form names its grammar rule (``grammar.lark``), the action type it stands for (``spec/vocabulary.yaml``) and
its words, ``{field}`` where a field of the action goes; the words fix some fields (``swaps them``: ``swap``
true). The parser builds an action from a form's tokens (``build``), the fuzzer writes a found action back as a
statement (``statement``), both from this table; a test reads every action type both ways. Fields are written as
their vocabulary kind says: a player ``p1``, a slot ``3``, a target ``p1.3``, several slots ``1 3``, a pluck's
targets ``p1.3 then p2.1``. Three statements are made of parts and written by hand below: simultaneous plucks, the
Shoebill's replacements and a shuffle (by species, top first).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from baobei_conform.dsl.actions import action, claims
from baobei_conform.dsl.ast import ShuffleSpecies
from baobei_spec import default_spec

_PLACE = re.compile(r"\{(\w+)\}")


def _target(t: list[int]) -> str:
    return f"p{t[0]}.{t[1]}"


WRITE: Mapping[str, Callable[[Any], str]] = {  # a field's vocabulary kind -> how a statement writes its value
    "player": lambda p: f"p{p}",
    "slot": str,
    "[owner, slot]": _target,
    "[slot, ...]": lambda slots: " ".join(map(str, slots)),
    "[[owner, slot], ...]": lambda targets: " then ".join(map(_target, targets)),
}
LISTS = ("[slot, ...]", "[[owner, slot], ...]")  # a field that takes the rest of the statement's values


@cache
def _kinds(kind: str) -> dict[str, str]:
    return dict(default_spec().vocabulary.actions[kind])


@dataclass(frozen=True)
class Form:
    """One statement form of an action type: ``rule`` of the grammar, ``words`` with ``{field}`` places."""

    rule: str
    kind: str
    words: str
    fixed: Mapping[str, Any] = field(default_factory=dict)

    @property
    def places(self) -> list[str]:
        return _PLACE.findall(self.words)

    def build(self, values: list[Any]) -> dict[str, Any]:
        """The action of a statement whose tokens hold ``values`` (players and slots as numbers, targets as
        [owner, slot]), in the order of the places."""
        got: dict[str, Any] = dict(self.fixed)
        rest = list(values)
        for name in self.places:
            got[name] = rest if _kinds(self.kind)[name] in LISTS else rest.pop(0)
        return action(self.kind, *(got[name] for name in _kinds(self.kind)))

    def write(self, act: Mapping[str, Any]) -> str | None:
        """The statement of ``act`` in this form, or None when it is another type or the words fix other values."""
        if act.get("type") != self.kind or any(act.get(name) != value for name, value in self.fixed.items()):
            return None
        kinds = _kinds(self.kind)
        return _PLACE.sub(lambda m: WRITE[kinds[m.group(1)]](act[m.group(1)]), self.words)


FORMS: tuple[Form, ...] = (
    Form("first_player", "choose_first_player", "first player {first}"),
    Form("initial_peek", "initial_peek", "{player} peeks at slots {slots}"),
    Form("draw", "draw", "{player} draws"),
    Form("take", "take_discard", "{player} takes discard into {slot}"),
    Form("keep", "keep", "{player} keeps into {slot}"),
    Form("discard_drawn", "discard", "{player} discards"),
    Form("claim", "pluck", "{player} plucks {targets}"),
    Form("close", "close_window", "nobody plucks"),
    Form("gift", "gift", "{player} gives {slot}"),
    Form("place", "place", "{player} places into {slot}"),
    Form("peek", "peek_at", "{player} peeks at {target}"),
    Form("show", "show_card", "{player} shows {target}"),
    Form("blind_swap", "blind_swap", "{player} swaps {first} with {second}"),
    Form("macaw_look", "macaw_look", "{player} looks at {first} and {second}"),
    Form("macaw_swap", "macaw_swap", "{player} swaps them", {"swap": True}),
    Form("macaw_leave", "macaw_swap", "{player} leaves them", {"swap": False}),
    Form("toco", "toco_add", "{player} adds to {rival}"),
    Form("call_bao", "call_bao", "{player} calls bao"),
    Form("end_turn", "end_turn", "{player} ends turn"),
)
BY_RULE: Mapping[str, Form] = {form.rule: form for form in FORMS}


# --- the statements made of parts ----------------------------------------------------------------------------
def simultaneous(plucks: list[dict[str, Any]]) -> dict[str, Any]:
    """``simultaneously p1 plucks p0.2, p2 plucks p2.1``: the claims, each a pluck's fields (3.2.5)."""
    return claims(plucks)


def shoebill(player: int, replacements: list[tuple[list[int], int]]) -> dict[str, Any]:
    """``p0 replaces p0.1 with drawn 2, p1.3 with drawn 1`` (drawn cards numbered from 1: the first is index 0):
    the replacement in the player's own zone is ``own``, the other ``rival``; ``replaces nothing``: neither."""
    own = rival = None
    for (owner, slot), index in replacements:
        if owner == player:
            own = (index, slot)
        else:
            rival = (index, owner, slot)
    return action("shoebill_replace", player, own, rival)


def shuffle(species: list[str]) -> ShuffleSpecies:
    """``shuffle: owl heron``: a chance outcome named by species, top first (the runner picks the cards)."""
    return ShuffleSpecies(tuple(species))


def _shoebill_text(act: Mapping[str, Any]) -> str:
    parts = []
    if act["own"] is not None:
        parts.append(f"p{act['player']}.{act['own'][1]} with drawn {act['own'][0] + 1}")
    if act["rival"] is not None:
        parts.append(f"p{act['rival'][1]}.{act['rival'][2]} with drawn {act['rival'][0] + 1}")
    return f"p{act['player']} replaces " + (", ".join(parts) if parts else "nothing")


def statement(act: Mapping[str, Any], species_of: Callable[[str], str]) -> str:
    """One DSL statement for an action in its wire form; ``species_of(card id)`` names a shuffle's cards."""
    kind = act.get("type")
    if kind == "shuffle":
        return "shuffle: " + " ".join(species_of(card) for card in act["order"])
    if kind == "simultaneous_plucks":
        return "simultaneously " + ", ".join(statement({"type": "pluck", **c}, species_of) for c in act["claims"])
    if kind == "shoebill_replace":
        return _shoebill_text(act)
    for form in FORMS:
        text = form.write(act)
        if text is not None:
            return text
    raise ValueError(f"no DSL statement for {dict(act)!r}")
