"""The named conditions of ``contract.yaml``, each defined once, on what an engine shows (JSON only).

Three families, read from the contract's ``match`` (which situation an event is in), ``when`` (which refusal
row holds) and ``check`` (a list's order and scope, when cards count as moved). None of them asks the
reference anything: they read canonical states, actions and events, so the contract can be held against
the reference (``baobei_conform.contract``) and an engine alike.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

Json = dict[str, Any]


# --- what the conditions read ---------------------------------------------------------------------------
TURN_STARTS = ("dealt", "neutral_discard", "drew", "took_discard", "turn_without_action")  # a turn's first events


@dataclass(frozen=True)
class EventContext:
    """An event as an engine shows it: the action whose reply carried it, the state before that action, the
    reply's events and the event's place among them, and the turn's events before it (``turn_before``)."""

    action: Json
    before: Json
    events: list[Json]
    index: int
    earlier: list[tuple[str, Json]] = field(default_factory=list)  # (action type of their reply, event), turn only

    @property
    def event(self) -> Json:
        return self.events[self.index]

    def latest(self, *kinds: str) -> tuple[str, Json] | None:
        """The turn's latest earlier event of one of ``kinds``, with the type of the action its reply answered."""
        for action_type, event in reversed(self.earlier):
            if event.get("kind") in kinds:
                return action_type, event
        return None

    def pluck(self) -> Json | None:
        """The pluck an event belongs to: itself, or the turn's latest pluck."""
        if self.event.get("kind") == "pluck":
            return self.event
        found = self.latest("pluck")
        return found[1] if found else None


def turn_before(history: list[tuple[str, Json]]) -> list[tuple[str, Json]]:
    """The events of ``history`` (a game's, in order) since its turn began: from the last of ``TURN_STARTS`` on."""
    for i in range(len(history) - 1, -1, -1):
        if history[i][1].get("kind") in TURN_STARTS:
            return history[i:]
    return history


@dataclass(frozen=True)
class Step:
    """One action and what it showed: the states around it, its events; ``catalog``: every card id in catalog order."""

    action: Json | None
    before: Json | None
    after: Json
    events: list[Json]
    catalog: tuple[str, ...] = ()


def rivals(state: Json, player: Any) -> list[int]:
    """The other players of the round, clockwise from ``player`` (the next one first)."""
    players = list(state["players"])
    if player not in players:
        return players
    i = players.index(player)
    return players[i + 1:] + players[:i]


def _zone(state: Json, owner: Any) -> list[Any] | None:
    zone = state["zones"].get(str(owner)) if isinstance(owner, int) and not isinstance(owner, bool) else None
    return zone if isinstance(zone, list) else None


def card_at(state: Json, target: Any) -> str | None:
    """The card id in ``[owner, slot]``, or None (an empty or non-existent slot, a player not in the round)."""
    if not (isinstance(target, list | tuple) and len(target) == 2):
        return None
    zone, slot = _zone(state, target[0]), target[1]
    if zone is None or not isinstance(slot, int) or not 1 <= slot <= len(zone) or zone[slot - 1] is None:
        return None
    card = zone[slot - 1].get("card")
    return card if isinstance(card, str) else None


def count(state: Json, player: Any) -> int:
    zone = _zone(state, player)
    return 0 if zone is None else sum(1 for c in zone if c is not None)


def protected(state: Json, owner: Any, by: Any) -> bool:
    """4.2.7: an active shield protects the BAO caller's cards from rivals (never from the caller, 4.2.8)."""
    return bool(state["shield"] == "active" and owner == state["bao"] and by != state["bao"])


# --- situations: which one an event is in -----------------------------------------------------------------
def _action(ctx: EventContext, types: list[str]) -> bool:
    """The action whose reply carries the event is of one of these types."""
    return ctx.action.get("type") in types


def _decision(ctx: EventContext, kinds: list[str]) -> bool:
    """The decision pending before that action is of one of these kinds."""
    return bool(ctx.before["pending"]["kind"] in kinds)


def _fields(ctx: EventContext, wanted: dict[str, Any]) -> bool:
    """Each named field of the event has this value (or one of these values)."""
    return all(ctx.event.get(k) in (v if isinstance(v, list) else [v]) for k, v in wanted.items())


def _targets(ctx: EventContext, n: int) -> bool:
    """The pluck the event belongs to (the event itself, or the turn's latest) names ``n`` targets."""
    pluck = ctx.pluck()
    return pluck is not None and len(pluck.get("targets") or ()) == n


def _own_draw(ctx: EventContext, wanted: bool) -> bool:
    """That pluck is (or is not) an own-draw pluck."""
    pluck = ctx.pluck()
    return pluck is not None and pluck.get("own_draw") is wanted


def _own_target(ctx: EventContext, wanted: bool) -> bool:
    """The removed card is (or is not) the plucker's own: the event's ``player`` (the owner) is its ``by``."""
    return (ctx.event.get("player") == ctx.event.get("by")) is wanted


def _card(ctx: EventContext, which: str) -> bool:
    """The event's card is ``direct_discard`` (the card the turn's ``discard`` action put on the pile),
    ``pluck_reference`` (the turn's pluck's reference), ``pluck_first`` or ``pluck_second`` (its targets' cards)."""
    card = ctx.event.get("card")
    if which == "direct_discard":
        found = [e for t, e in ctx.earlier if t == "discard" and e.get("kind") == "discarded"]
        return bool(found) and found[-1].get("card") == card
    pluck = ctx.pluck()
    if pluck is None:
        return False
    cards = list(pluck.get("cards") or ())
    wanted = {"pluck_reference": [pluck.get("reference")], "pluck_first": cards[:1], "pluck_second": cards[1:2]}
    return card in wanted[which]


def _cause(ctx: EventContext, kind: str) -> bool:
    """The turn's latest event among those that add a card (``penalty``, ``toco_target``) is of this kind."""
    found = ctx.latest("penalty", "toco_target")
    return found is not None and found[1].get("kind") == kind


def _shielded(ctx: EventContext, wanted: bool) -> bool:
    """A card the action names (``first``, ``second``) is shielded against its player, in the state before."""
    player = ctx.action.get("player")
    shielded = any(isinstance(t, list) and t and protected(ctx.before, t[0], player)
                   for t in (ctx.action.get("first"), ctx.action.get("second")))
    return shielded is wanted


def _bao(ctx: EventContext, outcome: str) -> bool:
    """The call's outcome by the round totals (the reply's ``round_scored``): ``success`` (strictly below every
    rival, not negative), ``success_negative``, ``failure``."""
    scored = next((e for e in ctx.events[ctx.index:] if e.get("kind") == "round_scored"), None)
    if scored is None:
        return False
    totals = dict(scored.get("totals") or {})
    mine = totals.pop(str(ctx.event.get("player")), None)
    if not isinstance(mine, int):
        return False
    success = all(mine < t for t in totals.values())
    got = "failure" if not success else "success_negative" if mine < 0 else "success"
    return got == outcome


def _decisive(ctx: EventContext, wanted: bool) -> bool:
    """The round being scored is (or is not) a decisive round."""
    return ctx.before.get("decisive") is wanted


SITUATION: dict[str, Callable[[EventContext, Any], bool]] = {
    "action": _action, "decision": _decision, "fields": _fields, "targets": _targets, "own_draw": _own_draw,
    "own_target": _own_target, "card": _card, "cause": _cause, "shielded": _shielded, "bao": _bao,
    "decisive": _decisive,
}


# --- refusals: which row holds --------------------------------------------------------------------------
@dataclass(frozen=True)
class Refusing:
    """An action and the state it is tried on, for a refusal row's condition: ``of`` is the field it reads,
    ``answers`` the action types that answer the pending decision, ``shape`` what is wrong with the action's shape,
    ``refused`` whether the contract refuses an action in this state (for a set of simultaneous claims)."""

    state: Json
    action: Json
    of: str | None
    answers: tuple[str, ...]
    shape: str | None
    refused: Callable[[Json, Json], bool]

    def targets(self) -> list[Any]:
        """The target(s) the named field gives: a target, a list of targets, slots, or a Shoebill choice."""
        action, of = self.action, self.of
        value = action.get(of) if of else None
        if of == "targets":
            return list(value or ())
        if of == "slots":
            return [[action.get("player"), s] for s in value or ()]
        if of == "slot":
            return [[action.get("player"), value]]
        if of == "own":
            return [] if value is None else [[action.get("player"), value[1]]]
        if of == "rival":
            return [] if value is None else [value[1:]]
        return [] if of is None else [value]

    @property
    def drawn(self) -> list[Any]:
        """The cards a pending decision carries (a shuffle's, the Shoebill's)."""
        return list(self.state["pending"]["data"].get("cards") or ())

    def spare(self) -> tuple[int, int]:
        """(own cards left to give, rival targets owed a gift) of a pluck (3.4.1, 3.6.3)."""
        player, targets = self.action["player"], list(self.action["targets"])
        rival_targets = sum(1 for t in targets if t[0] != player)
        return count(self.state, player) - (len(targets) - rival_targets), rival_targets

    def shoebill_options(self) -> int:
        """How many replacements a Shoebill must make (R-11): own and rival sides possible, at most one per card."""
        state, player = self.state, self.action["player"]
        moved = set(state["moved"])
        own = any(c is not None and c["card"] not in moved for c in _zone(state, player) or ())
        rival = any(c is not None and c["card"] not in moved and not protected(state, r, player)
                    for r in rivals(state, player) for c in _zone(state, r) or ())
        return min(len(self.drawn), int(own) + int(rival))


def placements(state: Json, owner: Any) -> list[int]:
    """2.5.4: the empty slots of the owner's zone, or a new slot after the last when none is empty."""
    zone = _zone(state, owner) or []
    empty = [i for i, c in enumerate(zone, 1) if c is None]
    return empty or [len(zone) + 1]


def _no_valid_claim(r: Refusing) -> bool:
    return all(r.refused(r.state, {"type": "pluck", **c}) for c in r.action["claims"])


REFUSAL: dict[str, Callable[[Refusing], bool]] = {
    "not_an_action": lambda r: r.shape is not None,
    "always": lambda r: True,
    "not_an_answer": lambda r: r.action["type"] not in r.answers,
    "not_eligible": lambda r: r.action["first"] not in r.state["pending"]["players"],
    "not_a_permutation": lambda r: sorted(r.action["order"]) != sorted(r.drawn),
    "not_the_decider": lambda r: r.action.get("player") != r.state["pending"]["player"],
    "not_a_claimant": lambda r: r.action["player"] not in r.state["pending"]["players"],
    "wrong_peek_count": lambda r: len(set(r.action["slots"])) != len(r.action["slots"])
    or len(r.action["slots"]) != r.state["pending"]["data"].get("count"),
    "empty_own_slot": lambda r: any(card_at(r.state, t) is None for t in r.targets()),
    "empty_target": lambda r: any(card_at(r.state, t) is None for t in r.targets()),
    "nothing_to_draw": lambda r: not r.state["deck"] and len(r.state["discard"]) <= 1 and not r.state["under"],
    "no_own_card": lambda r: count(r.state, r.action["player"]) == 0,
    "not_one_or_two_targets": lambda r: len(r.action["targets"]) not in (1, 2),
    "same_target_twice": lambda r: len({tuple(t) for t in r.action["targets"]}) != len(r.action["targets"]),
    "shielded_target": lambda r: any(protected(r.state, t[0], r.action["player"]) for t in r.targets()),
    "moved_target": lambda r: any(card_at(r.state, t) in r.state["moved"] for t in r.targets()),
    "nothing_to_give": lambda r: len(r.action["targets"]) == 1 and r.spare()[0] < r.spare()[1],
    "nothing_to_give_double": lambda r: len(r.action["targets"]) == 2 and r.spare()[0] < r.spare()[1],
    "no_claims": lambda r: not r.action["claims"],
    "two_claims_one_player": lambda r: len({c["player"] for c in r.action["claims"]}) != len(r.action["claims"]),
    "no_valid_claim": _no_valid_claim,
    "not_a_placement": lambda r: r.action["slot"] not in placements(r.state, r.action["player"]),
    "one_owner": lambda r: r.action["first"][0] == r.action["second"][0],
    "not_a_rival": lambda r: r.action["rival"] not in rivals(r.state, r.action["player"]),
    "shielded_rival": lambda r: protected(r.state, r.action["rival"], r.action["player"]),
    "bad_drawn_index": lambda r: r.of is not None and r.action[r.of] is not None
    and r.action[r.of][0] not in range(len(r.drawn)),
    "rival_is_user": lambda r: r.action["rival"] is not None and r.action["rival"][1] == r.action["player"],
    "one_drawn_card_twice": lambda r: r.action["own"] is not None and r.action["rival"] is not None
    and r.action["own"][0] == r.action["rival"][0],
    "not_every_replacement": lambda r: sum(r.action[k] is not None for k in ("own", "rival")) != r.shoebill_options(),
}


# --- lists: order and scope; moved cards -------------------------------------------------------------------
def _ascending_players(doc: Json, step: Step) -> str | None:
    """``players`` lists seat numbers in ascending order."""
    players = doc["players"]
    return None if players == sorted(players) else f"players {players} are not ascending"


def _round_keys(doc: Json, step: Step) -> str | None:
    """``zones`` has one key per player of the round, no other."""
    keys, players = sorted(doc["zones"]), sorted(str(p) for p in doc["players"])
    return None if keys == players else f"zones are keyed {keys}, the players of the round are {players}"


def _deck_top_first(doc: Json, step: Step) -> str | None:
    """A turn's draw takes ``deck[0]`` of the state before it."""
    before, action = step.before, step.action or {}
    if before is None or action.get("type") != "draw" or not before["deck"] or doc["pending"]["kind"] != "drawn":
        return None
    top = before["deck"][0]
    return None if doc["drawn"] == top else f"the draw took {doc['drawn']}, deck[0] was {top}"


def _top_is_last(doc: Json, step: Step) -> str | None:
    """``top`` is the last card of ``discard`` (None when it is empty)."""
    last = doc["discard"][-1] if doc["discard"] else None
    return None if doc["top"] == last else f"top is {doc['top']}, the last discard {last}"


def _under_appended(doc: Json, step: Step) -> str | None:
    """Cards slid under the pile are appended: ``under`` keeps what it held (unless a recycle or a new round
    took it)."""
    before = step.before
    if before is None or before["round"] != doc["round"] or any(e.get("kind") == "recycled" for e in step.events):
        return None
    kept = doc["under"][:len(before["under"])]
    return None if kept == before["under"] else f"under was {before['under']}, now begins {kept}"


def _box_in_catalog_order(doc: Json, step: Step) -> str | None:
    """``box`` lists its cards in catalog order."""
    box = set(doc["box"])
    ordered = [c for c in step.catalog if c in box]
    return None if doc["box"] == ordered else "box is not in catalog order"


def _seen_in_round(doc: Json, step: Step) -> str | None:
    """Each card's players in ``seen`` are ascending, at least one, and players of the round only."""
    players = set(doc["players"])
    for card, who in doc["seen"].items():
        if not who or who != sorted(who) or not set(who) <= players:
            return f"seen[{card}] is {who}: ascending players of the round {sorted(players)} expected"
    return None


def _seat_keys(doc: Json, step: Step) -> str | None:
    """``scores`` has one key per seat."""
    seats = [str(p) for p in range(step.after["seats"])]
    keys = sorted(doc["scores"])
    return None if keys == sorted(seats) else f"scores are keyed {keys}, the seats are {seats}"


def _round_score_keys(doc: Json, step: Step) -> str | None:
    """``round_scores`` and ``round_zones`` have the same keys (the players of the last scored round)."""
    scores, zones = doc["round_scores"], doc.get("round_zones")
    if scores is None or zones is None or sorted(scores) == sorted(zones):
        return None
    return f"round_scores keyed {sorted(scores)}, round_zones {sorted(zones)}"


def _clockwise_last_turns(doc: Json, step: Step) -> str | None:
    """``last_turns`` is in the order the turns are played: clockwise from the active player."""
    owed = doc["last_turns"]
    if not owed or doc["active"] is None:
        return None
    order = [p for p in rivals(doc, doc["active"]) if p in owed]
    return None if owed == order else f"last_turns {owed}: clockwise from p{doc['active']} is {order}"


def _ascending_moved(doc: Json, step: Step) -> str | None:
    """``moved`` lists card ids in ascending order."""
    return None if doc["moved"] == sorted(doc["moved"]) else f"moved {doc['moved']} is not sorted"


def _pending_players(doc: Json, step: Step) -> str | None:
    """``pending.players``: first_player, the players of the round ascending; window, every other player of the
    round clockwise from the active player; any other decision, empty."""
    pending = doc["pending"]
    want = {"first_player": list(doc["players"]), "window": rivals(doc, doc["active"])}.get(pending["kind"], [])
    return None if pending["players"] == want else f"pending.players of a {pending['kind']} is {pending['players']}, " \
                                                    f"the contract says {want}"


def _pending_cards(doc: Json, step: Step) -> str | None:
    """``pending.data.cards``: a deal's are the box in its order, a recycle's ascending."""
    pending = doc["pending"]
    cards = pending["data"].get("cards")
    if pending["kind"] == "deal" and cards != doc["box"]:
        return "a deal's cards are not the box, in its order"
    if pending["kind"] == "recycle" and cards != sorted(cards):
        return "a recycle's cards are not ascending"
    return None


def _round_scored_keys(doc: Json, step: Step) -> str | None:
    """``round_scored``'s totals and scores are keyed by the players of the round, no other."""
    players = sorted(str(p) for p in (step.before or step.after)["players"])
    for name in ("totals", "scores"):
        if sorted(doc.get(name) or {}) != players:
            return f"round_scored.{name} keyed {sorted(doc.get(name) or {})}, the round's players are {players}"
    return None


def _ascending_decisive(doc: Json, step: Step) -> str | None:
    """``decisive_round.players`` is ascending."""
    return None if doc["players"] == sorted(doc["players"]) else f"decisive_round players {doc['players']} unsorted"


def _same_turn(step: Step) -> bool:
    return step.before is not None and (step.before["round"], step.before["turn"]) == (step.after["round"],
                                                                                      step.after["turn"])


def _swapped_moved(step: Step) -> str | None:
    """After a swap, both cards it exchanged are in ``moved`` (until the turn ends)."""
    if not _same_turn(step):
        return None
    for e in step.events:
        if e.get("kind") == "swapped":
            for target in (e["first"], e["second"]):
                card = card_at(step.after, target)
                if card is not None and card not in step.after["moved"]:
                    return f"{card}, swapped into {target}, is not in moved"
    return None


def _shoebill_cards_moved(step: Step) -> str | None:
    """The Shoebill's drawn cards are in ``moved`` while its user chooses (a shoebill decision), and the cards it put
    into zones after it replaced."""
    after = step.after
    if after["pending"]["kind"] == "shoebill":
        missing = [c for c in after["pending"]["data"].get("cards") or () if c not in after["moved"]]
        if missing:
            return f"the Shoebill's drawn cards {missing} wait for their slots, not in moved"
    if not _same_turn(step):
        return None
    for e in step.events:
        if e.get("kind") == "replaced":
            card = card_at(after, [e["player"], e["slot"]])
            if card is not None and card not in after["moved"]:
                return f"{card}, put into p{e['player']}.{e['slot']} by a Shoebill, is not in moved"
    return None


def _toco_card_moved(step: Step) -> str | None:
    """While a Toco Toucan's card waits for its slot (a place decision citing 6.7.1), it is already in ``moved``."""
    pending = step.after["pending"]
    if pending["kind"] != "place" or pending["data"].get("clause") != "6.7.1":
        return None
    card = pending["data"].get("card")
    return None if card in step.after["moved"] else f"the Toco Toucan's card {card} waits for a slot, not in moved"


def _moved_cleared(step: Step) -> str | None:
    """At a turn decision nothing has moved yet this turn."""
    after = step.after
    return None if after["pending"]["kind"] != "turn" or not after["moved"] else f"moved {after['moved']} at a turn"


LIST: dict[str, Callable[[Json, Step], str | None]] = {
    "ascending_players": _ascending_players, "round_keys": _round_keys, "deck_top_first": _deck_top_first,
    "top_is_last": _top_is_last, "under_appended": _under_appended, "box_in_catalog_order": _box_in_catalog_order,
    "seen_in_round": _seen_in_round, "seat_keys": _seat_keys, "round_score_keys": _round_score_keys,
    "clockwise_last_turns": _clockwise_last_turns, "ascending_moved": _ascending_moved,
    "pending_players": _pending_players, "pending_cards": _pending_cards, "round_scored_keys": _round_scored_keys,
    "ascending_decisive": _ascending_decisive,
}
MOVED: dict[str, Callable[[Step], str | None]] = {
    "swapped_moved": _swapped_moved, "shoebill_cards_moved": _shoebill_cards_moved, "toco_card_moved": _toco_card_moved,
    "moved_cleared": _moved_cleared,
}
