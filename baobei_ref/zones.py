"""Fixed positions (§ 2.5): the only ways a card enters, leaves or moves within a zone.

2.5.1: slots never move or renumber; nothing but these functions changes a zone.

Every mutation names who causes it, so the BAO shield (§ 4.2) can tell a rival modification of
the caller's zone from the caller's own.
"""

from __future__ import annotations

from baobei_ref.state import State


def rival_modification(s: State, owner: int, by: int) -> bool:
    """4.2.3: ``by`` changing ``owner``'s zone is a rival modification of the caller's while the shield is armed."""
    return s.shield == "armed" and owner == s.bao and by != s.bao


def _touch(s: State, owner: int, by: int) -> None:
    """4.2.3: adding, removing, replacing, swapping or moving a caller's card is a modification."""
    if rival_modification(s, owner, by):
        s.shield_touched = True


def protected(s: State, owner: int, by: int) -> bool:
    """4.2.7: an active shield stops rivals from modifying the caller's cards; 4.2.8: never the caller."""
    return s.shield == "active" and owner == s.bao and by != s.bao


def _occupied(zone: list[str | None], slot: int) -> str:
    """The card in ``slot``; the rules validate a target before they take or replace its card."""
    card = zone[slot - 1]
    if card is None:
        raise RuntimeError(f"slot {slot} is empty")
    return card


def remove(s: State, owner: int, slot: int, by: int) -> str:
    """2.5.2: the slot becomes empty; no other card moves."""
    zone = s.zones[owner]
    card = _occupied(zone, slot)
    zone[slot - 1] = None
    _touch(s, owner, by)
    return card


def replace(s: State, owner: int, slot: int, card: str, by: int) -> str:
    """2.5.3: the new card takes exactly the old card's slot; returns the old card."""
    zone = s.zones[owner]
    old = _occupied(zone, slot)
    zone[slot - 1] = card
    _touch(s, owner, by)
    return old


def add(s: State, owner: int, slot: int, card: str, by: int) -> None:
    """2.5.4: an added card goes to the chosen empty slot, or to a new slot after the last one."""
    zone = s.zones[owner]
    if slot == len(zone) + 1:
        zone.append(card)
    else:
        zone[slot - 1] = card
    _touch(s, owner, by)


def placement_slots(s: State, owner: int) -> list[int]:
    """2.5.4: where an added card may go: any empty slot, or a new one only when none is empty."""
    empty = s.empty_slots(owner)
    return empty or [len(s.zones[owner]) + 1]


def swap(s: State, a: tuple[int, int], b: tuple[int, int], by: int) -> None:
    """2.5.5 / 6.5.1: two cards exchange slots; they keep their identity."""
    za, zb = s.zones[a[0]], s.zones[b[0]]
    za[a[1] - 1], zb[b[1] - 1] = zb[b[1] - 1], za[a[1] - 1]
    _touch(s, a[0], by)
    _touch(s, b[0], by)
