"""Which reading of a ruling a game follows (rule parameter ``rulings``, e.g. ``{"R-05": "A"}``).

The default is the reading the rulings register adopts (spec/rulings.yaml), written as the reference's
named rule. Each alternative the reference implements is a :class:`~baobei_ref.rules.Variant` declared
next to the rule it replaces (in the part module its ruling concerns); :data:`SWITCHES` lists them, and
the register marks the same readings ``switch: true``.
"""

from __future__ import annotations

from baobei_ref import bao, deck, pluck, powers, turn
from baobei_ref.rules import Variant
from baobei_spec import default_spec

VARIANTS: dict[tuple[str, str], Variant] = {
    (v.ruling, v.reading): v
    for v in (*turn.VARIANTS, *pluck.VARIANTS, *bao.VARIANTS, *deck.VARIANTS, *powers.VARIANTS)
    if v.ruling is not None and v.reading is not None
}
SWITCHES: dict[str, tuple[str, ...]] = {
    rid: tuple(sorted(rd for r, rd in VARIANTS if r == rid)) for rid in sorted({r for r, _ in VARIANTS})
}


def reading_variants(rulings: dict[str, str]) -> list[Variant]:
    """The variants for the readings ``rulings`` chooses (the adopted ones need none), in ruling order."""
    return [VARIANTS[(rid, rd)] for rid, rd in sorted(rulings.items()) if (rid, rd) in VARIANTS]


def unknown_readings(rulings: dict[str, str]) -> list[str]:
    """The ``ruling: reading`` choices that are neither an adopted reading nor an implemented switch."""
    spec = default_spec().rulings
    return [f"{rid}: {rd}" for rid, rd in rulings.items()
            if rid not in spec or (rd != spec[rid].adopted and rd not in SWITCHES.get(rid, ()))]
