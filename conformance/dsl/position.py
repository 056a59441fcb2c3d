"""A ``setup`` block -> the canonical state it describes (spec/schemas/state.schema.json), from the spec alone.

The judge must not ask the engine under test, nor the reference, what a scenario's table is: a bug in
a rules engine would silently move every expectation. So the table is built here from the catalog and
the rule parameters only.

Card ids follow the catalog order per species (the first owl named is ``owl-1``). Every card not named
goes below the named deck cards (``rest in deck``, plain birds nearest the top) or below the named
discard cards (``rest in discard``), so every card of the catalog is on the table. The position is the
start of the active player's turn (2.6.1), or the moment after their draw (``holds``, 2.7.1).
"""

from __future__ import annotations

from baobei_spec import Spec, default_spec


class ImpossibleSetup(ValueError):
    """The block names no position of the game (a card the catalog lacks, an empty discard pile...)."""


def _card(card: str) -> dict:
    return {"card": card, "species": card.rsplit("-", 1)[0]}


class _Pool:
    """The catalog's physical cards, handed out by species in catalog order."""

    def __init__(self, spec: Spec):
        self.cards = {s.id: [f"{s.id}-{n}" for n in range(1, s.count + 1)] for s in spec.species_list}
        self.plain = {s.id: s.power is None for s in spec.species_list}

    def take(self, species: str) -> str:
        if species not in self.cards:
            raise ImpossibleSetup(f"unknown species {species!r}; known: {', '.join(sorted(self.cards))}")
        if not self.cards[species]:
            raise ImpossibleSetup(f"the catalog has no more {species!r} cards for this position")
        return self.cards[species].pop(0)

    def leftover(self) -> list[str]:
        """The cards not named, plain birds first (so a drawn leftover activates no power)."""
        rest = [card for cards in self.cards.values() for card in cards]
        return sorted(rest, key=lambda card: not self.plain[card.rsplit("-", 1)[0]])


def _rivals(players: list[int], player: int) -> list[int]:
    """The other players, clockwise from ``player``."""
    i = players.index(player)
    return players[i + 1:] + players[:i]


def _pending(kind: str, player: int) -> dict:
    return {"kind": kind, "player": player, "players": [], "data": {}}


def _turn_start(zones: dict, deck: list, discard: list, under: list, active: int, bao, final_phase: bool,
                last_turns) -> dict:
    """The decision a turn starts with: ``turn`` (draw or take, 2.6.1), unless the player can neither draw
    nor take (7.1.8, ruling R-09: no deck, nothing to recycle, zero cards), who goes straight to the end of
    the turn: ``end_turn`` where BAO may be called (4.1.2, ruling R-17)."""
    can_draw = bool(deck) or len(discard) > 1 or bool(under)
    if can_draw or any(card is not None for card in zones[active]):
        return _pending("turn", active)
    if bao is None and not final_phase and last_turns is None:
        return _pending("end_turn", active)
    raise ImpossibleSetup(f"player {active} can neither draw nor take the discard and the turn passes on at once "
                          "(7.1.8): set up the position where a decision is pending")


def setup_state(options: dict, spec: Spec | None = None) -> dict:
    """The canonical state of a setup block's ``options`` (the parser's items: zones, deck, discard, under,
    rest, active, drawn, known, scores, bao, shield, recycles, final_phase, last_turns, round)."""
    spec = spec or default_spec()
    params = spec.params
    zones_by_species: dict[int, list[str | None]] = options.get("zones") or {}
    if not zones_by_species:
        raise ImpossibleSetup("a setup names every player's zone ('zone p0: owl _ heron')")
    players = sorted(zones_by_species)
    if players != list(range(len(players))):
        raise ImpossibleSetup(f"players must be numbered 0..n-1 in seating order, not {players}")
    if not params.min_players <= len(players) <= params.max_players:
        raise ImpossibleSetup(f"BAO BEI is played by {params.min_players} to {params.max_players} players, "
                              f"not {len(players)}")
    pool = _Pool(spec)
    zones = {p: [None if sp is None else pool.take(sp) for sp in zones_by_species[p]] for p in players}
    top_deck = [pool.take(sp) for sp in options.get("deck", ())]
    pile = [pool.take(sp) for sp in options.get("discard", ("hummingbird",))]
    under = [pool.take(sp) for sp in options.get("under", ())]
    drawn = pool.take(options["drawn"]) if options.get("drawn") else None
    rest = options.get("rest", "deck")
    if rest == "deck":
        deck, discard = top_deck + pool.leftover(), pile
    elif rest == "discard":
        deck, discard = top_deck, pool.leftover() + pile
    else:
        raise ImpossibleSetup(f"rest is 'deck' or 'discard', not {rest!r}")
    if not discard:
        raise ImpossibleSetup("the discard pile needs at least its top card")
    seen: dict[str, set[int]] = {card: set(players) for card in discard}
    for p, targets in (options.get("known") or {}).items():
        for owner, slot in targets:
            zone = zones.get(owner, [])
            card = zone[slot - 1] if 1 <= slot <= len(zone) else None
            if card is None:
                raise ImpossibleSetup(f"player {p} cannot know an empty slot {(owner, slot)}")
            seen.setdefault(card, set()).add(p)
    active = options.get("active", 0)
    bao, final_phase = options.get("bao"), options.get("final_phase", False)
    last_turns = options.get("last_turns")
    if last_turns is None and bao is not None:  # the rivals still owed a last turn after the active one
        owed = _rivals(players, bao)
        last_turns = owed[owed.index(active) + 1:] if active in owed else owed
    if drawn:
        seen.setdefault(drawn, set()).add(active)
        pending = _pending("drawn", active)
    else:
        pending = _turn_start(zones, deck, discard, under, active, bao, final_phase, last_turns)
    scores = dict(enumerate(options["scores"])) if "scores" in options else dict.fromkeys(players, 0)
    return {
        "seats": len(players),
        "players": players,
        "round": options.get("round", 1),
        "decisive": False,
        "turn": 1,
        "active": active,
        "first": active,
        "zones": {str(p): [None if c is None else _card(c) for c in z] for p, z in zones.items()},
        "deck": deck,
        "discard": discard,
        "top": discard[-1],
        "under": under,
        "box": [],
        "drawn": drawn,
        "seen": {c: sorted(ps) for c, ps in sorted(seen.items()) if ps},
        "scores": {str(p): v for p, v in sorted(scores.items())},
        "round_scores": None,
        "round_zones": None,
        "bao": bao,
        "shield": options.get("shield") or ("armed" if bao is not None else "none"),
        "recycles": options.get("recycles", 0),
        "final_phase": final_phase,
        "last_turns": None if last_turns is None else list(last_turns),
        "moved": [],
        "pending": pending,
        "owed_powers": [],  # a setup position is at the start of a turn: nothing of an action is owed yet
        "pluck": None,
        "drawing": None,
        "winner": None,
    }
