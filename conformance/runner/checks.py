"""Judge an ``expect`` step against an engine's canonical state, last events and views."""

from __future__ import annotations

from baobei_conform.runner.event_fields import fields_match


def species(card: str | None) -> str | None:
    """Card ids are ``<species>-<n>``."""
    return None if card is None else card.rsplit("-", 1)[0]


def _slot(state: dict, owner: int, slot: int):
    zone = state["zones"].get(str(owner))
    if zone is None:
        return "no such player"
    if not 1 <= slot <= len(zone):
        return "no such slot"
    return None if zone[slot - 1] is None else zone[slot - 1]["species"]


def _show(value) -> str:
    return "empty" if value is None else str(value)


def evaluate(check: dict, state: dict, events: list[dict], view, legal: list | None = None) -> tuple[bool, str, str]:
    """(holds, expected, actual) for one check; ``view`` is a function player -> view JSON, ``legal`` the engine's
    legal actions (for a ``legal`` check)."""
    what = check["what"]
    if what == "legal":
        listed = isinstance(legal, list) and check["action"] in legal
        return listed == check["listed"], _listed(check["listed"]), _listed(listed)
    if what == "slot":
        actual = _slot(state, *check["target"])
        return actual == check["species"], _show(check["species"]), _show(actual)
    if what in ("card_count", "slot_count"):
        zone = state["zones"].get(str(check["player"]), [])
        actual = sum(1 for c in zone if c is not None) if what == "card_count" else len(zone)
        return actual == check["count"], str(check["count"]), str(actual)
    if what == "deck_count":
        return len(state["deck"]) == check["count"], str(check["count"]), str(len(state["deck"]))
    if what == "deck_top":
        actual = species(state["deck"][0]) if state["deck"] else None
        return actual == check["species"], check["species"], _show(actual)
    if what == "top":
        actual = species(state["top"])
        return actual == check["species"], check["species"], _show(actual)
    if what == "discard":
        actual = [species(c) for c in state["discard"]]
        return actual == check["species"], " ".join(check["species"]), " ".join(actual)
    if what in ("discard_count", "under_count"):
        actual = len(state["discard" if what == "discard_count" else "under"])
        return actual == check["count"], str(check["count"]), str(actual)
    if what == "pending":
        p = state["pending"]
        actual_players = p["players"] if p["kind"] == "window" else ([] if p["player"] is None else [p["player"]])
        want = check["players"]
        ok = p["kind"] == check["kind"] and (not want or sorted(want) == sorted(actual_players))
        return ok, _pending_text(check["kind"], want), _pending_text(p["kind"], actual_players)
    if what == "event":
        matching = [e for e in events if _event_matches(e, check)]
        wanted = _event_text(check)
        seen = "; ".join(_event_text(e) for e in events) or "no events"
        return bool(matching) == check["present"], ("" if check["present"] else "no ") + wanted, seen
    if what in ("round_score", "score"):
        table = state["round_scores"] if what == "round_score" else state["scores"]
        actual = None if table is None else table.get(str(check["player"]))
        return actual == check["score"], str(check["score"]), _show(actual)
    if what in ("first", "winner", "bao"):
        actual = state[what]
        return actual == check["player"], _player_text(check["player"]), _player_text(actual)
    if what == "view":
        owner, slot = check["target"]
        zone = view(check["viewer"])["zones"].get(str(owner), [])
        cell = zone[slot - 1] if 1 <= slot <= len(zone) else "no such slot"
        actual = cell if isinstance(cell, str) else (None if cell is None else cell["species"])
        if cell is None:
            actual = "empty slot"
        return actual == check["species"], check["species"] or "hidden", actual or "hidden"
    if what == "shield":
        return state["shield"] == check["state"], check["state"], state["shield"]
    if what == "recycles":
        return state["recycles"] == check["count"], str(check["count"]), str(state["recycles"])
    if what == "final_phase":
        text = {True: "final phase", False: "no final phase"}
        return state["final_phase"] == check["value"], text[check["value"]], text[bool(state["final_phase"])]
    if what == "round_table":
        tables = state.get("round_zones")
        zone = None if tables is None else tables.get(str(check["player"]))
        actual = "no scored round" if zone is None else " ".join(
            "_" if c is None else c["species"] for c in zone)
        return actual == " ".join("_" if s is None else s for s in check["species"]), " ".join(
            "_" if s is None else s for s in check["species"]), actual
    if what == "under":
        actual = sorted(species(c) for c in state["under"])
        return actual == sorted(check["species"]), " ".join(sorted(check["species"])), " ".join(actual)
    if what == "drawn":
        actual = species(state["drawn"])
        return actual == check["species"], check["species"], _show(actual)
    if what == "last_turns":
        owed = state.get("last_turns")
        actual = None if owed is None else sorted(owed)
        return actual == check["players"], _owed_text(check["players"]), _owed_text(actual)
    raise ValueError(f"unknown check {what!r}")


def _player_text(player: int | None) -> str:
    return "none" if player is None else f"p{player}"


def _owed_text(players: list[int] | None) -> str:
    if players is None:
        return "no last turns"
    return "last turns" + "".join(f" p{p}" for p in players) if players else "last turns, all played"


def _listed(listed: bool) -> str:
    return "listed by legal_actions" if listed else "not listed by legal_actions"


def _pending_text(kind: str, players: list[int]) -> str:
    return kind + "".join(f" p{p}" for p in players)


def _event_matches(event: dict, check: dict) -> bool:
    return (
        event.get("kind") == check["kind"]
        and ("player" not in check or event.get("player") == check["player"])
        and ("clause" not in check or event.get("clause") == check["clause"])
        and fields_match(event, check.get("fields") or {})
    )


def _event_text(e: dict) -> str:
    out = e["kind"]
    if e.get("player") is not None:
        out += f" for p{e['player']}"
    if e.get("clause"):
        out += f" ({e['clause']})"
    if e.get("fields"):
        out += " with " + ", ".join(f"{k} {v}" for k, v in e["fields"].items())
    return out
