"""Cards and matching (§ 3.1): physical cards with stable ids, species, families, values, powers."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

from baobei_spec import Spec, default_spec


@dataclass(frozen=True)
class Catalog:
    """The species and physical cards of one game, built from the spec's catalog (6.2.1, a rule parameter)."""

    species: dict[str, tuple[str, int, str | None]]  # species id -> (family, value, power)
    cards: tuple[str, ...]  # every physical card id, e.g. "owl-3", in catalog order

    @classmethod
    def from_spec(cls, spec: Spec | None = None) -> Catalog:
        spec = spec or default_spec()
        return cls.from_entries([(s.id, s.family, s.value, s.power, s.count) for s in spec.species_list])

    @classmethod
    def from_entries(cls, entries: Iterable[tuple[str, str, int, str | None, int]]) -> Catalog:
        """Entries are (species, family, value, power, count), as the engine protocol sends them."""
        species = {sid: (family, value, power) for sid, family, value, power, _ in entries}
        cards = tuple(f"{sid}-{n}" for sid, _, _, _, count in entries for n in range(1, count + 1))
        return cls(species, cards)

    def species_of(self, card: str) -> str:
        """The species of a card id ("owl-3" -> "owl"); a catalog card's is looked up (the rules ask often)."""
        try:
            return self.species_by_card[card]
        except KeyError:
            return card.rsplit("-", 1)[0]

    @cached_property
    def species_by_card(self) -> dict[str, str]:
        """Card id -> species for every card, built once."""
        return {card: card.rsplit("-", 1)[0] for card in self.cards}

    @cached_property
    def faces(self) -> dict[str, dict[str, str]]:
        """Card id -> the slot a canonical state or view shows for it face up, ``{"card", "species"}``; built once
        and shared by every document (states and views are read, never changed in place)."""
        return {card: {"card": card, "species": species} for card, species in self.species_by_card.items()}

    def value(self, card: str) -> int:
        return self.species[self.species_of(card)][1]

    def power(self, card: str) -> str | None:
        return self.species[self.species_of(card)][2]

    def matches(self, reference: str, target: str) -> bool:
        """3.1.1 / 3.1.6: same species, or the same matching family (3.1.7 and 6.3.2 pelicans, 3.1.8 toucans);
        never by value (3.1.9, 6.9.7: the Shoebill is its own family)."""
        return self.species[self.species_of(reference)][0] == self.species[self.species_of(target)][0]
