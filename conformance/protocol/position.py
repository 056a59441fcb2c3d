"""Is a ``setup`` state a position of the game? ``baobei-ref serve`` refuses one that is not (``malformed_state``).

A canonical state from the wire is checked before the reference adopts it: every field of the right
type, players and slots in range, every catalog card exactly once, and a pending decision consistent
with the table. Without this, ``active: -1`` or a card in two places becomes a game in which the
rules' own checks no longer hold (a refused action could change the state).
"""

from __future__ import annotations

from baobei_spec import default_spec

FIELDS = ("seats", "players", "round", "decisive", "turn", "active", "first", "zones", "deck", "discard", "top",
          "under", "box", "drawn", "seen", "scores", "round_scores", "bao", "shield", "recycles", "final_phase",
          "last_turns", "moved", "pending", "owed_powers", "pluck", "drawing", "winner")
OPTIONAL = ("round_zones",)  # the final table of the last scored round, when a round has been scored
BIG = 10 ** 9  # bound of any count or score
SHIELDS = ("none", "armed", "active")
CHANCE = ("first_player", "deal", "recycle", "window", "game_over")  # decided by nobody in particular
POWER_CLAUSES = ("6.1.2", "6.10.3", "6.10.4", "6.10.5", "6.10.6")  # why an owed power activates
DRAWS = ("turn", "penalty", "toco_toucan", "shoebill")  # the draws a recycle can interrupt


class Malformed(Exception):
    """What makes the state no position of the game."""


def need(ok: bool, message: str) -> None:
    if not ok:
        raise Malformed(message)


def _int(value, name: str, low: int = 0, high: int = BIG) -> int:
    need(type(value) is int and low <= value <= high, f"{name} must be an integer from {low} to {high}")
    return value


def _player(value, name: str, players, optional: bool = True) -> None:
    if value is None and optional:
        return
    need(type(value) is int and value in players, f"{name} must be one of the players {sorted(players)}"
         + (" or null" if optional else ""))


def _cards(value, name: str, catalog: dict[str, str]) -> list[str]:
    try:  # a set of the ids against the catalog's keys (strings): one C-speed test for the whole list
        ok = isinstance(value, list) and catalog.keys() >= set(value)
    except TypeError:  # an unhashable entry (a list, an object)
        ok = False
    need(ok, f"{name} must be a list of card ids of the catalog")
    return value


def _card(value, name: str, catalog, optional: bool = True) -> str | None:
    if value is None and optional:
        return None
    need(isinstance(value, str) and value in catalog, f"{name} must be a card id of the catalog")
    return value


def _by_player(value, name: str, seats: int, optional: bool = False) -> None:
    if value is None and optional:
        return
    need(isinstance(value, dict) and all(isinstance(k, str) and k.isdigit() and int(k) < seats for k in value),
         f"{name} must map seat numbers (strings) to integers")
    for k, v in value.items():
        _int(v, f"{name}.{k}", -BIG)


def check_position(state, species_of: dict[str, str], min_players: int, max_players: int) -> None:
    """Raise Malformed (saying why) unless ``state`` is a position of the game; ``species_of`` is the catalog."""
    need(isinstance(state, dict), "a state is a JSON object")
    for name in FIELDS:
        need(name in state, f"the state lacks {name!r}")
    extra = sorted(set(state) - set(FIELDS) - set(OPTIONAL))
    need(not extra, f"unknown field {extra[:1]}")
    seats = _int(state["seats"], "seats", min_players, max_players)
    players = state["players"]
    need(isinstance(players, list) and len(players) >= 2 and len(set(map(repr, players))) == len(players)
         and all(type(p) is int and 0 <= p < seats for p in players),
         f"players must list two or more distinct seats from 0 to {seats - 1}")
    for name in ("round", "turn", "recycles"):
        _int(state[name], name)
    for name in ("decisive", "final_phase"):
        need(isinstance(state[name], bool), f"{name} must be true or false")
    for name in ("active", "first", "bao"):
        _player(state[name], name, players)
    _player(state["winner"], "winner", range(seats))
    need(state["shield"] in SHIELDS if isinstance(state["shield"], str) else False, f"shield must be one of {SHIELDS}")
    zones = state["zones"]
    need(isinstance(zones, dict) and sorted(zones) == sorted(str(p) for p in players),
         "zones must have one zone per player of the round, keyed by seat number")
    for owner, zone in zones.items():
        # Every slot was made for a card, so a zone has at most as many slots as the game has cards.
        need(isinstance(zone, list) and len(zone) <= len(species_of), f"zone {owner} must be a list of at most "
             f"{len(species_of)} slots")
        for i, slot in enumerate(zone, start=1):  # messages formatted only for a bad slot: this runs per card
            if slot is None:
                continue
            if not (isinstance(slot, dict) and set(slot) == {"card", "species"}):
                raise Malformed(f"zone {owner} slot {i}: a slot is null or {{card, species}}")
            card = slot["card"]
            if not (isinstance(card, str) and card in species_of):
                raise Malformed(f"zone {owner} slot {i} must be a card id of the catalog")
            if slot["species"] != species_of[card]:
                raise Malformed(f"zone {owner} slot {i}: {card} is a {species_of[card]}")
    for name in ("deck", "discard", "under", "box", "moved"):
        _cards(state[name], name, species_of)
    need(state["top"] == (state["discard"][-1] if state["discard"] else None), "top must be the last discard")
    _card(state["drawn"], "drawn", species_of)
    seen = state["seen"]
    need(isinstance(seen, dict) and all(k in species_of for k in seen), "seen must map card ids to seats")
    for card, viewers in seen.items():
        if not (isinstance(viewers, list) and all(type(p) is int and 0 <= p < seats for p in viewers)):
            raise Malformed(f"seen.{card} must list seats")
    _by_player(state["scores"], "scores", seats)
    _by_player(state["round_scores"], "round_scores", seats, optional=True)
    round_zones = state.get("round_zones")
    need(round_zones is None or (isinstance(round_zones, dict) and all(
        isinstance(z, list) and len(z) <= len(species_of) and all(
            c is None or (isinstance(c, dict) and set(c) == {"card", "species"} and c["card"] in species_of
                          and c["species"] == species_of[c["card"]]) for c in z)
        and k.isdigit() and int(k) < seats for k, z in round_zones.items())),
         "round_zones must be null or map seats to lists of slots (null or {card, species})")
    last = state["last_turns"]
    need(last is None or (isinstance(last, list) and all(type(p) is int and p in players for p in last)),
         "last_turns must be null or a list of players")
    _pending(state, players, species_of)
    _owed(state, players, species_of)  # that every card is in one place, the reference checks (check_cards)


def _pending(state: dict, players: list[int], species_of: dict[str, str]) -> None:
    """Check the pending decision against the table."""
    pending = state["pending"]
    need(isinstance(pending, dict) and set(pending) == {"kind", "player", "players", "data"},
         "pending must be {kind, player, players, data}")
    kind, data = pending["kind"], pending["data"]
    decisions = default_spec().vocabulary.decisions
    need(isinstance(kind, str) and kind in decisions, f"pending.kind must be one of {', '.join(decisions)}")
    need(isinstance(data, dict), "pending.data must be an object")
    need(isinstance(pending["players"], list) and all(type(p) is int and p in players for p in pending["players"]),
         "pending.players must list players of the round")
    if kind in CHANCE:
        need(pending["player"] is None, f"a {kind!r} decision has no player")
    else:
        _player(pending["player"], "pending.player", players, optional=False)
    if kind in ("turn", "drawn", "end_turn"):
        need(pending["player"] == state["active"], f"a {kind!r} decision is the active player's")
    need((kind == "drawn") <= (state["drawn"] is not None), "a 'drawn' decision needs the drawn card")
    if kind == "first_player":
        need(bool(pending["players"]), "a 'first_player' decision lists the eligible players")
    if kind == "deal":
        need(sorted(_cards(data.get("cards"), "pending.data.cards", species_of)) == sorted(state["box"]),
             "a 'deal' shuffles exactly the cards of the box")
    if kind == "recycle":
        need(sorted(_cards(data.get("cards"), "pending.data.cards", species_of))
             == sorted(state["discard"][:-1] + state["under"]),
             "a 'recycle' shuffles exactly the discards below the top and the cards under the pile")
    if kind == "window":
        _card(data.get("reference"), "pending.data.reference", species_of, optional=False)
        need(bool(pending["players"]), "a 'window' lists who may claim")
    if kind == "gift":
        _player(data.get("rival"), "pending.data.rival", players, optional=False)
        zone = state["zones"][str(data["rival"])]
        slot = _int(data.get("slot"), "pending.data.slot", 1, len(zone) or 1)
        need(slot <= len(zone) and zone[slot - 1] is None, "a 'gift' goes into the rival's empty slot")
    if kind == "initial_peek":
        _int(data.get("count"), "pending.data.count", 0, len(species_of))
    if kind == "game_over":
        need(data.get("winner") == state["winner"], "a 'game_over' names the state's winner")
    if kind == "macaw_swap":
        for name in ("first", "second"):
            target = data.get(name)
            need(isinstance(target, list) and len(target) == 2 and all(type(t) is int for t in target),
                 f"pending.data.{name} must be [player, slot]")
    if kind == "place":
        _int(data.get("by"), "pending.data.by", 0, state["seats"] - 1)
        need(isinstance(data.get("clause"), str), "pending.data.clause must be a clause id")
        _card(data.get("card"), "pending.data.card", species_of, optional=False)
    if kind == "shoebill":
        _cards(data.get("cards"), "pending.data.cards", species_of)


def _owed(state: dict, players: list[int], species_of: dict[str, str]) -> None:
    """Check what the state says is still owed after the pending decision (owed powers, a pluck, a draw)."""
    powers = state["owed_powers"]
    need(isinstance(powers, list) and all(isinstance(p, dict) and set(p) == {"player", "card", "clause"}
                                          for p in powers), "owed_powers must list {player, card, clause}")
    for i, power in enumerate(powers):
        _player(power["player"], f"owed_powers[{i}].player", players, optional=False)
        _card(power["card"], f"owed_powers[{i}].card", species_of, optional=False)
        need(power["clause"] in POWER_CLAUSES, f"owed_powers[{i}].clause must be one of {', '.join(POWER_CLAUSES)}")
    kind = state["pending"]["kind"]
    pluck = state["pluck"]
    need((pluck is not None) == (kind == "gift"), "pluck is set exactly while a gift is pending")
    if pluck is not None:
        need(isinstance(pluck, dict) and set(pluck) == {"player", "targets"}, "pluck must be {player, targets}")
        _player(pluck["player"], "pluck.player", players, optional=False)
        targets = pluck["targets"]
        need(isinstance(targets, list) and len(targets) in (1, 2) and all(
            isinstance(t, list) and len(t) == 2 and type(t[0]) is int and t[0] in players and type(t[1]) is int
            and 1 <= t[1] <= len(state["zones"][str(t[0])]) for t in targets),
             "pluck.targets must list one or two [player, slot] of the table")
    drawing = state["drawing"]
    need((drawing is not None) == (kind == "recycle"), "drawing is set exactly while a recycle is pending")
    if drawing is not None:
        need(isinstance(drawing, dict) and set(drawing) == {"for", "player", "rival", "cards"},
             "drawing must be {for, player, rival, cards}")
        need(drawing["for"] in DRAWS, f"drawing.for must be one of {', '.join(DRAWS)}")
        _player(drawing["player"], "drawing.player", players, optional=False)
        if drawing["for"] == "toco_toucan":
            _player(drawing["rival"], "drawing.rival", players, optional=False)
        else:
            need(drawing["rival"] is None, "drawing.rival is the Toco Toucan's rival, null for another draw")
        need(len(_cards(drawing["cards"], "drawing.cards", species_of)) <= (drawing["for"] == "shoebill"),
             "drawing.cards holds the Shoebill's first card, and nothing for another draw")
