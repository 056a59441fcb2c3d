"""Set up an exact position by species, the way scenarios and tests describe a table.

    >>> from baobei_ref.setup import position
    >>> g = position(zones={0: ["owl", "heron", None, "macaw"], 1: ["owl", "eagle", "sparrow", "swallow"]},
    ...              deck=["white_pelican"], discard=["flamingo"], active=0)
    >>> g.pending.kind, g.pending.player, g.state.card_at((0, 1))
    ('turn', 0, 'owl-1')

The table is built by the scenarios' own builder (``baobei_spec.position.build_position``: card ids in catalog
order per species, every card not named below the named deck or discard cards, the position checked), then
set up with ``Game.from_json``; a description that is no position of the game is a RuleError
``malformed_state``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from baobei_ref.canonical import position_rules
from baobei_ref.cards import Catalog
from baobei_ref.errors import RuleError
from baobei_ref.game import Game, default_catalog, default_params
from baobei_ref.rules import Variant
from baobei_ref.state import Shield
from baobei_spec import Params
from baobei_spec.position import MalformedState, SetupOptions, build_position


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
    options: SetupOptions = {
        "zones": zones, "deck": deck, "discard": discard, "under": under, "active": active, "drawn": drawn,
        "rest": rest, "known": known or {}, "scores": scores or {}, "bao": bao, "shield": shield,
        "recycles": recycles, "final_phase": final_phase, "last_turns": last_turns, "round": round, "turn": turn,
        "first": first,
    }
    params, catalog = params or default_params(), catalog or default_catalog()
    try:
        state = build_position(options, position_rules(params, catalog))
    except MalformedState as exc:
        raise RuleError("malformed_state", str(exc)) from None
    return Game.from_json(state, params=params, catalog=catalog, variants=variants)
