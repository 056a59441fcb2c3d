"""Actions and positions written back in the scenario language, so a found failure is a scenario.

The inverse of the DSL's parser for what random play produces: ``action_text`` for every action (from the DSL's
statement <-> action table, ``dsl/statements.py``), ``setup_text`` for a position at a turn boundary (or holding a
drawn card).
"""

from __future__ import annotations

import json

from lark import LarkError

from baobei_conform.dsl.parse import ToAst, parser
from baobei_conform.dsl.statements import statement
from baobei_ref import actions as A


def action_text(action: A.Action | dict, species_of) -> str:
    """One DSL statement for ``action`` (the DSL's own statement <-> action table); ``species_of(card id)`` names
    shuffled cards. An action no statement writes back exactly (a one-slot initial peek, a malformed one) is
    ``raw JSON``, which a ``reject`` or an ``expect legal`` takes."""
    wire = action.to_json() if isinstance(action, A.Action) else action
    if isinstance(wire, dict) and wire.get("type") == "shuffle":
        return statement(wire, species_of)  # by species: the scenario names the cards the engine shuffles
    try:
        text = statement(wire, species_of)
    except (ValueError, KeyError, TypeError, AttributeError):
        text = None
    if text is None or _read_back(text) != wire:
        return "raw " + json.dumps(wire, ensure_ascii=False)
    return text


def _read_back(text: str):
    """The action a statement parses to, or None when it does not parse to an action."""
    try:
        (act,) = ToAst().transform(parser().parse(text + "\n"))
    except (LarkError, ValueError):
        return None
    return getattr(act, "action", None)


def representable(state: dict) -> bool:
    """A position a DSL ``setup`` block can state: every seat playing, not a decisive round, at the start of
    the active player's turn or holding the card just drawn (so nothing of an action is owed)."""
    pending = state["pending"]["kind"]
    return (
        not state["decisive"]
        and state["players"] == list(range(state["seats"]))
        and not state["box"]
        and (pending == "turn" and state["drawn"] is None or pending == "drawn" and state["drawn"] is not None)
        and state["pending"]["player"] == state["active"]
    )


def setup_text(state: dict, threshold: int | None = None) -> str:
    """The ``setup`` block of a representable canonical state (all 66 cards named where they lie)."""

    def sp(card: str) -> str:
        return card.rsplit("-", 1)[0]

    lines = ["setup"]
    for p, zone in state["zones"].items():
        lines.append(f"  zone p{p}: " + " ".join("_" if c is None else c["species"] for c in zone))
    lines.append("  deck: " + " ".join(sp(c) for c in state["deck"]))
    lines.append("  discard: " + " ".join(sp(c) for c in state["discard"]))
    if state["under"]:
        lines.append("  under: " + " ".join(sp(c) for c in state["under"]))
    lines.append(f"  active p{state['active']}")
    if state["drawn"]:
        lines.append(f"  holds {sp(state['drawn'])}")
    seen = state["seen"]
    for viewer in state["players"]:
        known = [f"p{p}.{i}" for p, zone in state["zones"].items() for i, c in enumerate(zone, 1)
                 if c is not None and viewer in seen.get(c["card"], ())]
        if known:
            lines.append(f"  p{viewer} knows " + " ".join(known))
    if any(state["scores"].values()):
        lines.append("  scores " + " ".join(str(state["scores"][str(p)]) for p in state["players"]))
    if state["bao"] is not None:
        lines.append(f"  bao p{state['bao']}")
        lines.append(f"  shield {state['shield']}")
    if state["last_turns"] is not None:
        lines.append("  last turns" + "".join(f" p{p}" for p in state["last_turns"]))
    if state["recycles"]:
        lines.append(f"  recycles {state['recycles']}")
    if state["final_phase"]:
        lines.append("  final phase")
    if state["round"] != 1:
        lines.append(f"  round {state['round']}")
    if threshold is not None:
        lines.append(f"  threshold {threshold}")
    lines.append("end")
    return "\n".join(lines)
