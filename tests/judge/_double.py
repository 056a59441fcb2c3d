"""An engine double for judging the judge: it knows no rule, it answers what a test tells it.

A meta-test hands it a *world* (the canonical state, the events of every action, each player's
view) that a right engine would report, or the same world with one field misreported, and checks
the judge's verdict. It is deliberately not the reference interpreter: the judge must catch a
wrong answer whatever engine gives it.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from baobei_conform.protocol.client import EngineProblem


def card(species: str, n: int = 1) -> dict:
    return {"card": f"{species}-{n}", "species": species}


HIDDEN = {"card": None, "species": None}


def base_world() -> dict:
    """A 3-player table in which every right-side statement of the judge's cases holds."""
    state = {
        "zones": {
            "0": [card("owl"), card("heron"), None, card("eagle")],
            "1": [card("sparrow"), None, card("swallow"), card("kingfisher"), card("macaw")],
            "2": [card("owl", 2), card("flamingo"), card("hummingbird"), card("cuckoo")],
        },
        "deck": ["owl-3", "heron-2"],
        "discard": ["hummingbird-2", "eagle-2", "owl-4"],
        "top": "owl-4",
        "under": ["heron-3", "heron-4"],
        "drawn": "shoebill-1",
        "pending": {"kind": "window", "player": None, "players": [1, 2], "data": {}},
        "scores": {"0": 30, "1": 12, "2": -3},
        "round_scores": {"0": 18, "1": 5, "2": 0},
        "first": 2, "winner": 1, "bao": 0, "shield": "active", "recycles": 1, "final_phase": True,
    }
    events = [{"kind": "power", "clause": "6.10.3", "player": 0, "card": "shoebill-1", "power": "double_replace"},
              {"kind": "penalty", "clause": "3.5.5", "player": 1}]
    views = {  # p2 knows p1.1; p0 knows nothing of p1's zone
        "2": {"zones": {"1": [card("sparrow"), None, HIDDEN, HIDDEN, HIDDEN]}},
        "0": {"zones": {"1": [HIDDEN, None, HIDDEN, HIDDEN, HIDDEN]}},
    }
    legal = [{"type": "draw", "player": 0}, {"type": "take_discard", "player": 0, "slot": 2}]
    return {"state": state, "events": events, "views": views, "legal": legal}


class Double:
    """Reports ``world``; ``refuse[i]`` is the code the i-th action (0-based) is refused with;
    ``after[i]`` changes the world when the i-th action arrives (accepted or not)."""

    name = "double"

    def __init__(self, world: dict, refuse: dict[int, str] | None = None,
                 after: dict[int, Callable[[dict], None]] | None = None,
                 capabilities=frozenset({"views", "events", "legal_actions"}), broken: str | None = None):
        self.world, self.refuse, self.after = world, refuse or {}, after or {}
        self.capabilities, self.broken = capabilities, broken
        self.received: list = []

    def setup(self, state: dict, params: dict | None) -> None:
        self.received.append(("setup", state, params))
        if self.broken == "setup":
            raise EngineProblem("the engine closed its output")

    def new_game(self, players: int) -> None:
        self.received.append(("new_game", players))
        if self.broken == "new_game":
            raise EngineProblem("the engine closed its output")

    def apply(self, action: dict):
        index = sum(1 for r in self.received if r[0] == "apply")
        self.received.append(("apply", action))
        if index in self.after:
            self.after[index](self.world)
        if index in self.refuse:
            return None, self.refuse[index]
        return copy.deepcopy(self.world["events"]), None

    def state(self) -> dict:
        return copy.deepcopy(self.world["state"])

    def view(self, player: int) -> dict:
        return copy.deepcopy(self.world["views"][str(player)])

    def legal_actions(self) -> list[dict]:
        return copy.deepcopy(self.world["legal"])

    def actions(self) -> list[dict]:
        return [r[1] for r in self.received if r[0] == "apply"]
