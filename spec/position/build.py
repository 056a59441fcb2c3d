"""A table described by species (a scenario's ``setup`` block, a test's position) -> its canonical state.

Card ids follow the catalog order per species (the first owl named is ``owl-1``). Every card not named goes
below the named deck cards (``rest: deck``, plain birds nearest the top, so a drawn leftover activates no
power) or below the named discard cards (``rest: discard``), so every card of the catalog is on the table. The
position is the start of the active player's turn (2.6.1), or the moment after their draw (``drawn``, 2.7.1).
A card that cannot be handed out is named as the scenario language writes it (``zone p2 slot 1``, ``deck card 3``).
The state built is checked by :func:`~baobei_spec.position.check.check_position`: a description that names no
position of the game raises MalformedState.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypedDict

from baobei_spec.position.check import check_position
from baobei_spec.position.errors import MalformedState, need
from baobei_spec.position.reach import setup_turn
from baobei_spec.position.rules import PositionRules


class SetupOptions(TypedDict, total=False):
    """A setup block's items (the DSL parser's names): zones by species per player (None: an empty slot), the
    deck top first, the discard pile bottom to top, the cards under it, where the ``rest`` goes, the ``active``
    player and the card they hold (``drawn``), the (owner, slot) cards each player ``known``s, ``scores`` (per
    seat, p0 first), the BAO caller and ``shield``, ``recycles``, ``final_phase``, ``last_turns``, ``round``,
    ``turn`` (by default the first the table could be at, ``reach.setup_turn``) and ``first`` (the round's first
    player; the active one by default)."""

    zones: Mapping[int, Sequence[str | None]]
    deck: Sequence[str]
    discard: Sequence[str]
    under: Sequence[str]
    rest: str
    active: int
    drawn: str | None
    known: Mapping[int, Sequence[tuple[int, int]]]
    scores: Sequence[int] | Mapping[int, int]
    bao: int | None
    shield: str | None
    recycles: int
    final_phase: bool
    last_turns: Sequence[int] | None
    round: int
    turn: int
    first: int | None


class _Pool:
    """The catalog's cards, handed out by species in catalog order."""

    def __init__(self, rules: PositionRules) -> None:
        self.rules = rules
        self.cards: dict[str, list[str]] = {}
        for card in rules.cards:
            self.cards.setdefault(rules.species[card], []).append(card)

    def take(self, species: str | None, path: str) -> str:
        known = self.cards
        if not isinstance(species, str) or species not in known:
            raise MalformedState(path, f"unknown species {species!r}; known: {', '.join(sorted(known))}")
        need(bool(known[species]), path, f"the catalog has no more {species!r} cards for this position")
        return known[species].pop(0)

    def leftover(self) -> list[str]:
        """The cards not named, plain birds first."""
        rest = [card for cards in self.cards.values() for card in cards]
        return sorted(rest, key=lambda card: self.rules.power(card) is not None)


def _rivals(players: list[int], player: int) -> list[int]:
    i = players.index(player)
    return players[i + 1:] + players[:i]


def _pending(kind: str, player: int) -> dict[str, Any]:
    return {"kind": kind, "player": player, "players": [], "data": {}}


def _turn_start(state: dict[str, Any], zones: dict[int, list[str | None]]) -> dict[str, Any]:
    """The decision a turn starts with: ``turn`` (draw or take, 2.6.1), unless the player can neither draw nor
    take (7.1.8, ruling R-09: no deck, nothing to recycle, zero cards), who goes straight to the end of the turn:
    ``end_turn`` where BAO may be called (4.1.2, ruling R-17)."""
    active = state["active"]
    can_draw = bool(state["deck"]) or len(state["discard"]) > 1 or bool(state["under"])
    if can_draw or any(card is not None for card in zones[active]):
        return _pending("turn", active)
    if state["bao"] is None and not state["final_phase"] and state["last_turns"] is None:
        return _pending("end_turn", active)
    raise MalformedState("", f"player {active} can neither draw nor take the discard and the turn passes on at "
                             "once (7.1.8): set up the position where a decision is pending")


def _seen(options: SetupOptions, zones: dict[int, list[str | None]], discard: list[str], drawn: str | None,
          players: list[int], active: int) -> dict[str, list[int]]:
    """Face-up discards known to all, the drawn card to the active player, and what each player ``known``s."""
    seen: dict[str, set[int]] = {card: set(players) for card in discard}
    for p, targets in (options.get("known") or {}).items():
        for owner, slot in targets:
            zone = zones.get(owner, [])
            card = zone[slot - 1] if 1 <= slot <= len(zone) else None
            if card is None:
                raise MalformedState(f"p{p} knows", f"player {p} cannot know an empty slot {(owner, slot)}")
            seen.setdefault(card, set()).add(p)
    if drawn is not None:
        seen.setdefault(drawn, set()).add(active)
    return {card: sorted(ps) for card, ps in sorted(seen.items())}


def _players(options: SetupOptions, rules: PositionRules) -> list[int]:
    players = sorted(options.get("zones") or {})
    need(bool(players), "zones", "a setup names every player's zone ('zone p0: owl _ heron')")
    need(players == list(range(len(players))), "zones", f"players must be numbered 0..n-1 in seating order, not "
         f"{players}")
    need(rules.min_players <= len(players) <= rules.max_players, "zones", f"BAO BEI is played by "
         f"{rules.min_players} to {rules.max_players} players, not {len(players)}")
    return players


def build_position(options: SetupOptions, rules: PositionRules) -> dict[str, Any]:
    """The canonical state ``options`` describe (MalformedState when it is no position of the game)."""
    players = _players(options, rules)
    pool = _Pool(rules)
    zones = {p: [None if sp is None else pool.take(sp, f"zone p{p} slot {i}")
                 for i, sp in enumerate(options["zones"][p], start=1)] for p in players}
    top_deck = [pool.take(sp, f"deck card {i + 1}") for i, sp in enumerate(options.get("deck", ()))]
    pile = [pool.take(sp, f"discard card {i + 1}") for i, sp in enumerate(options.get("discard", ("hummingbird",)))]
    under = [pool.take(sp, f"under card {i + 1}") for i, sp in enumerate(options.get("under", ()))]
    drawn_species = options.get("drawn")
    drawn = pool.take(drawn_species, "holds") if drawn_species else None
    rest = options.get("rest", "deck")
    need(rest in ("deck", "discard"), "rest", f"is 'deck' or 'discard', not {rest!r}")
    deck, discard = (top_deck + pool.leftover(), pile) if rest == "deck" else (top_deck, pool.leftover() + pile)
    need(bool(discard), "discard", "the discard pile needs at least its top card")
    active = options.get("active", 0)
    need(active in players, "active", f"must be one of the players {players}")
    bao = options.get("bao")
    last_turns = options.get("last_turns")
    if last_turns is None and bao is not None and bao in players:  # the rivals still owed a last turn after the active
        owed = _rivals(players, bao)
        last_turns = owed[owed.index(active) + 1:] if active in owed else owed
    scores = options.get("scores") or {}
    by_seat = dict(scores) if isinstance(scores, Mapping) else dict(enumerate(scores))
    first = options.get("first")
    state: dict[str, Any] = {
        "seats": len(players), "players": players, "round": options.get("round", 1), "decisive": False,
        "turn": 1, "active": active, "first": active if first is None else first,
        "zones": {str(p): [None if c is None else {"card": c, "species": rules.species[c]} for c in z]
                  for p, z in zones.items()},
        "deck": deck, "discard": discard, "top": discard[-1], "under": under, "box": [], "drawn": drawn,
        "seen": _seen(options, zones, discard, drawn, players, active),
        "scores": {str(p): v for p, v in sorted(by_seat.items())} if by_seat else {str(p): 0 for p in players},
        "round_scores": None, "round_zones": None, "bao": bao,
        "shield": options.get("shield") or ("armed" if bao is not None else "none"),
        "recycles": options.get("recycles", 0), "final_phase": options.get("final_phase", False),
        "last_turns": None if last_turns is None else list(last_turns), "moved": [],
        "pending": {}, "owed_powers": [], "pluck": None, "drawing": None, "winner": None,
    }  # a setup position is at the start of a turn or just after its draw: nothing of an action is owed yet
    state["turn"] = options["turn"] if "turn" in options else setup_turn(state, rules)
    state["pending"] = _pending("drawn", active) if drawn else _turn_start(state, zones)
    check_position(state, rules)
    return state
