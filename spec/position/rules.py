"""The catalog and rule parameters a position is built and checked against, in one small record.

A position names cards by id (``owl-3``), so what it may hold follows from the catalog (which cards
exist, which have a power) and a few rule parameters (player counts, hand sizes, the initial peek, the
recycle that starts the final phase). The reference, the scenario compiler and ``baobei-ref serve``
each have these under their own types; this record is what the builder and the validator read.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from baobei_spec.model import Params, Spec


@dataclass(frozen=True)
class PositionRules:
    """``cards`` in catalog order; ``species`` card -> species; ``powers`` species -> power or None."""

    cards: tuple[str, ...]
    species: Mapping[str, str]
    powers: Mapping[str, str | None]
    min_players: int
    max_players: int
    hand_size: Mapping[int, int]
    decisive_hand_size: Mapping[int, int]
    initial_peek: int
    final_phase_recycle: int
    values: Mapping[str, int]  # species -> card value (6.2.1): what a round can score
    threshold: Mapping[int, int]  # player count -> the game-end threshold (5.3.2, ruling R-02)

    @classmethod
    def of(cls, params: Params, catalog: Iterable[tuple[str, str | None, int, int]]) -> PositionRules:
        """From rule parameters and catalog entries ``(species, power, count, value)`` (card ids
        ``<species>-<n>``)."""
        entries = list(catalog)
        cards = tuple(f"{sid}-{n}" for sid, _, count, _ in entries for n in range(1, count + 1))
        return cls(cards=cards, species={card: card.rsplit("-", 1)[0] for card in cards},
                   powers={sid: power for sid, power, _, _ in entries}, min_players=params.min_players,
                   max_players=params.max_players, hand_size=dict(params.hand_size),
                   decisive_hand_size=dict(params.decisive_hand_size), initial_peek=params.initial_peek,
                   final_phase_recycle=params.final_phase_recycle,
                   values={sid: value for sid, _, _, value in entries}, threshold=dict(params.threshold))

    @classmethod
    def from_spec(cls, spec: Spec, params: Params | None = None,
                  values: Mapping[str, int] | None = None) -> PositionRules:
        """The spec's catalog under ``params`` (the spec's own by default) and card ``values`` (a setup's
        overrides, species -> value; the catalog's by default)."""
        changed = values or {}
        return cls.of(params or spec.params,
                      [(s.id, s.power, s.count, changed.get(s.id, s.value)) for s in spec.species_list])

    def lowest_round_score(self) -> int:
        """The lowest score of one round for all players together: every card of negative value in one zone
        (5.2.5, line 194: the Golden Toucan's -5 is the deck's only negative card); no other score is negative."""
        counts: dict[str, int] = {}
        for card in self.cards:
            counts[self.species[card]] = counts.get(self.species[card], 0) + 1
        return sum(min(value, 0) * counts.get(sid, 0) for sid, value in self.values.items())

    def power(self, card: str) -> str | None:
        """The power of a catalog card (None: a plain bird, 6.8.1)."""
        return self.powers[self.species[card]]
