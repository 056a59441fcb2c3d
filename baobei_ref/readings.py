"""Which reading of a ruling the game follows (rule parameter ``rulings``, e.g. ``{"R-05": "A"}``).

The default is the reading the rulings register adopts (spec/rulings.yaml). Each alternative the
reference implements is listed in :data:`SWITCHES` and takes effect in exactly one function of the
part module its ruling concerns; the register marks the same readings ``switch: true``.
"""

from __future__ import annotations

from baobei_spec import Params, default_spec

SWITCHES: dict[str, tuple[str, ...]] = {
    "R-04": ("A",),  # pluck._discard_power_order
    "R-05": ("A", "C", "D"),  # deck.start_final_phase
    "R-06": ("A",),  # deck._last_turns
    "R-07": ("B",),  # bao.bao_allowed
    "R-09": ("B",),  # turn.step_turn_start
    "R-15": ("A",),  # turn.step_deal
    "R-17": ("A",),  # bao.bao_allowed
    "R-19": ("A",),  # powers._first_card_own
    "R-21": ("A", "B"),  # powers._single_card
}


def reading(params: Params, ruling: str) -> str:
    """The reading of ``ruling`` in force under ``params``."""
    return params.rulings.get(ruling) or default_spec().rulings[ruling].adopted


def unknown_readings(rulings: dict) -> list[str]:
    """The ``ruling: reading`` choices that are neither an adopted reading nor an implemented switch."""
    spec = default_spec().rulings
    return [f"{rid}: {rd}" for rid, rd in rulings.items()
            if rid not in spec or (rd != spec[rid].adopted and rd not in SWITCHES.get(rid, ()))]
