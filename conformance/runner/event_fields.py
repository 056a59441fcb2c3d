"""``expect event KIND with FIELD VALUE, ...``: checks on an event's fields (which card, slot, player).

Values are compared by kind: a number or a player (``p1``) with the field's number; a slot
(``p1.2``) with a ``[player, slot]`` field; a word with a card field by species (``card owl``
matches ``owl-3``), with any other text field exactly (``power peek``), or with a yes/no field
(``success true``).
"""

from __future__ import annotations

from baobei_spec.conditions import Json


def field_matches(actual: object, expected: object) -> bool:
    if isinstance(expected, str):
        if isinstance(actual, bool):
            return expected == str(actual).lower()
        return isinstance(actual, str) and (actual == expected or actual.rsplit("-", 1)[0] == expected)
    if isinstance(expected, list):
        return actual == expected
    return isinstance(actual, int) and not isinstance(actual, bool) and actual == expected


def fields_match(event: Json, fields: Json) -> bool:
    """Every named field is in the event with the expected value."""
    return all(name in event and field_matches(event[name], value) for name, value in fields.items())
