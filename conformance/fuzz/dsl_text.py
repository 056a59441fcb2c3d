"""Actions and positions written back in the scenario language, so a found failure is a scenario.

The inverse of the DSL's parser for what random play produces: ``action_text`` for every action,
``setup_text`` for a position at a turn boundary (or holding a drawn card).
"""

from __future__ import annotations

from baobei_ref import actions as A
from baobei_ref.powers import add_to_rival, blind_swap, double_replace, peek, peek_two_swap, show


def _t(target) -> str:
    owner, slot = target
    return f"p{owner}.{slot}"


def action_text(action: A.Action, species_of) -> str:
    """One DSL statement for ``action``; ``species_of(card id)`` names shuffled cards."""
    match action:
        case A.ChooseFirstPlayer(first=p):
            return f"first player p{p}"
        case A.Shuffle(order=order):
            return "shuffle: " + " ".join(species_of(c) for c in order)
        case A.InitialPeek(player=p, slots=(a, b)):
            return f"p{p} peeks at slots {a} {b}"
        case A.Draw(player=p):
            return f"p{p} draws"
        case A.TakeDiscard(player=p, slot=s):
            return f"p{p} takes discard into {s}"
        case A.Keep(player=p, slot=s):
            return f"p{p} keeps into {s}"
        case A.Discard(player=p):
            return f"p{p} discards"
        case A.Pluck():
            return _claim(action)
        case A.SimultaneousPlucks(claims=claims):
            return "simultaneously " + ", ".join(_claim(c) for c in claims)
        case A.CloseWindow():
            return "nobody plucks"
        case A.Gift(player=p, slot=s):
            return f"p{p} gives {s}"
        case A.Place(player=p, slot=s):
            return f"p{p} places into {s}"
        case peek.PeekAt(player=p, target=t):
            return f"p{p} peeks at {_t(t)}"
        case show.ShowCard(player=p, target=t):
            return f"p{p} shows {_t(t)}"
        case blind_swap.BlindSwap(player=p, first=a, second=b):
            return f"p{p} swaps {_t(a)} with {_t(b)}"
        case peek_two_swap.MacawLook(player=p, first=a, second=b):
            return f"p{p} looks at {_t(a)} and {_t(b)}"
        case peek_two_swap.MacawSwap(player=p, swap=swap):
            return f"p{p} {'swaps' if swap else 'leaves'} them"
        case add_to_rival.TocoAdd(player=p, rival=r):
            return f"p{p} adds to p{r}"
        case double_replace.ShoebillReplace(player=p, own=own, rival=rival):
            parts = []
            if own is not None:
                parts.append(f"p{p}.{own[1]} with drawn {own[0] + 1}")
            if rival is not None:
                parts.append(f"p{rival[1]}.{rival[2]} with drawn {rival[0] + 1}")
            return f"p{p} replaces " + (", ".join(parts) if parts else "nothing")
        case A.CallBao(player=p):
            return f"p{p} calls bao"
        case A.EndTurn(player=p):
            return f"p{p} ends turn"
    raise ValueError(f"no DSL statement for {action!r}")


def _claim(pluck: A.Pluck) -> str:
    return f"p{pluck.player} plucks " + " then ".join(_t(t) for t in pluck.targets)


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
