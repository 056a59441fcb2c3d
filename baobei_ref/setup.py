"""Set up an exact position by species, the way scenarios and tests describe a table.

    >>> from baobei_ref.setup import position
    >>> g = position(zones={0: ["owl", "heron", None, "macaw"], 1: ["owl", "eagle", "sparrow", "swallow"]},
    ...              deck=["white_pelican"], discard=["flamingo"], active=0)
    >>> g.pending.kind, g.pending.player, g.state.card_at((0, 1))
    ('turn', 0, 'owl-1')

Card ids are given in catalog order per species (the first owl named is ``owl-1``). Every card
not placed goes below the named deck cards (``rest="deck"``, plain birds nearest the top) or
below the named discard cards (``rest="discard"``), so the 66 cards are always all on the table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from baobei_ref.agenda import TurnStart
from baobei_ref.cards import Catalog
from baobei_ref.errors import RuleError
from baobei_ref.game import Game
from baobei_ref.rules import Variant
from baobei_ref.state import Decision, Shield
from baobei_spec import Params


def position(
    zones: dict[int, list[str | None]],
    deck: Sequence[str] = (),
    discard: Sequence[str] = ("hummingbird",),
    under: Sequence[str] = (),
    active: int = 0,
    drawn: str | None = None,
    rest: Literal["deck", "discard"] = "deck",
    known: dict[int, list[tuple[int, int]]] | None = None,
    scores: dict[int, int] | None = None,
    bao: int | None = None,
    shield: Shield | None = None,
    recycles: int = 0,
    final_phase: bool = False,
    last_turns: list[int] | None = None,
    round: int = 1,
    turn: int = 1,
    first: int | None = None,
    params: Params | None = None,
    catalog: Catalog | None = None,
    variants: Sequence[Variant] = (),
) -> Game:
    """A game at the start of ``active``'s turn (or holding ``drawn``), the table exactly as given.

    ``zones`` maps each player (0..n-1, seating order) to species by slot (None: empty slot);
    ``deck`` is top first; ``discard`` bottom to top; ``known`` lists, per player, the
    (owner, slot) cards that player has seen (face-up cards are known to all); ``variants`` change its rules.
    """
    players = sorted(zones)
    if players != list(range(len(players))):
        raise RuleError("malformed_action", f"players must be numbered 0..n-1 in seating order, not {players}")
    g = Game(players=len(players), params=params, catalog=catalog, variants=variants)
    s = g.state
    pool: dict[str, list[str]] = {}
    for card in g.catalog.cards:
        pool.setdefault(g.catalog.species_of(card), []).append(card)

    def take(species: str) -> str:
        if species not in pool:
            raise RuleError("malformed_action", f"unknown species {species!r}; known: {', '.join(sorted(pool))}")
        if not pool[species]:
            raise RuleError("malformed_action", f"the catalog has no more {species!r} cards for this position")
        return pool[species].pop(0)

    s.zones = {p: [None if sp is None else take(sp) for sp in zones[p]] for p in players}
    top_deck = [take(sp) for sp in deck]
    pile = [take(sp) for sp in discard]
    s.under = [take(sp) for sp in under]
    s.box = []
    s.drawn = take(drawn) if drawn else None
    leftover = sorted((c for cards in pool.values() for c in cards), key=lambda c: (g.catalog.power(c) is not None,))
    if rest == "deck":
        s.deck = list(reversed(top_deck + leftover))
        s.discard = pile
    elif rest == "discard":
        s.deck = list(reversed(top_deck))
        s.discard = leftover + pile
    else:
        raise RuleError("malformed_action", f"rest is 'deck' or 'discard', not {rest!r}")
    if not s.discard:
        raise RuleError("malformed_action", "the discard pile needs at least its top card")
    s.seen = {}
    for card in s.discard:
        s.show_all(card)
    for p, targets in (known or {}).items():
        for t in targets:
            known_card = s.card_at((t[0], t[1]))
            if known_card is None:
                raise RuleError("malformed_action", f"player {p} cannot know an empty slot {tuple(t)}")
            s.see(known_card, p)
    s.scores = dict(scores) if scores else dict.fromkeys(players, 0)
    s.active, s.first, s.round, s.turn = active, first if first is not None else active, round, turn
    s.bao, s.recycles, s.final_phase = bao, recycles, final_phase
    s.shield = shield or ("armed" if bao is not None else "none")
    if last_turns is None and bao is not None:  # the rivals still owed a last turn after the active one
        owed = s.rivals(bao)
        last_turns = owed[owed.index(active) + 1 :] if active in owed else owed
    s.last_turns = list(last_turns) if last_turns is not None else None
    s.agenda = []
    if s.drawn:
        s.see(s.drawn, active)
        s.pending = Decision("drawn", active)
    else:
        s.pending = None
        s.agenda.append(TurnStart())
        g.run()
    return g
