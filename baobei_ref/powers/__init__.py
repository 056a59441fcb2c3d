"""Annex A (part 6): when powers activate (6.1), every power (6.3 - 6.9), order and limits (6.10, 6.11).

6.1.1 / 6.2.2: a power activates only through a "power" step, and those are scheduled in exactly
three places: 6.1.2 (``step_discard_power``), 6.1.3 and 6.1.4 (``pluck.resolve``). Seeing, taking,
keeping, swapping, giving, adding, penalty cards and showing never schedule one (6.1.5).

The registry: every module of this package that defines ``POWER`` (a :class:`Power`) is a power, keyed
by the catalog's power id; its actions, steps, answers and legal actions join the game's tables here. A
new power is one module plus its catalog and vocabulary entries; nothing below names a power.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import TYPE_CHECKING, Any

from baobei_ref import agenda
from baobei_ref.actions import ACTION_NAMES, ACTIONS
from baobei_ref.powers.power import Power
from baobei_ref.rules import Answer, AnswerKey, Legal, Step, Variant
from baobei_spec import default_spec

if TYPE_CHECKING:
    from baobei_ref.game import Game

POWERS: dict[str, Power] = {}
VARIANTS: list[Variant] = []  # readings of rulings the powers implement as switches
for _info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
    _module = importlib.import_module(f"{__name__}.{_info.name}")
    if hasattr(_module, "POWER"):
        POWERS[_module.POWER.name] = _module.POWER
    VARIANTS.extend(getattr(_module, "VARIANTS", ()))  # the power modules' and the shared targets' readings


def step_discard_power(g: Game, card: str) -> None:
    """6.1.2: a drawn card discarded directly gives its power to the drawer, after the window (R-04)."""
    if g.catalog.power(card):
        g.then(agenda.Power(g.state.active_player, card, "6.1.2"))


POWER_ALSO = {  # the activation case (6.1.2 - 6.1.4) and the order rules behind each activation
    "6.1.2": ("6.1.1", "6.2.2"),
    "6.10.3": ("6.1.1", "6.1.3", "6.1.6", "6.10.1", "6.10.2", "6.2.2"),
    "6.10.4": ("6.1.1", "6.1.4", "6.1.6", "6.10.1", "6.10.2", "3.3.7", "6.2.2"),
    "6.10.5": ("6.1.1", "6.1.4", "6.1.6", "6.10.1", "3.3.7", "6.2.2"),
    "6.10.6": ("6.1.1", "6.1.4", "6.1.7", "6.10.1", "3.6.8", "6.2.2"),
}


def step_power(g: Game, player: int, card: str, clause: str) -> None:
    """Activate ``card``'s power for ``player``; 6.8.1: a card without power does nothing.

    6.10.7: each power is completed before the next step, and one without any possible effect has none.
    """
    name = g.catalog.power(card)
    if name is None:
        return
    power = POWERS[name]
    g.emit("power", clause, also=POWER_ALSO.get(clause, ()), player=player, card=card, power=name)
    if power.start is not None:
        power.start(g, player)
    elif power.possible(g, player):
        g.ask(power.decision, player)
    else:
        g.emit("power_without_effect", "6.10.7", also=power.no_effect_also, player=player, power=name)


def _joined(table: str) -> dict[Any, Any]:
    return {key: value for power in POWERS.values() for key, value in getattr(power, table).items()}


def _join_actions() -> None:
    """Add the powers' actions to ACTIONS, all in the vocabulary's order (the protocol's tables follow it)."""
    order = {name: i for i, name in enumerate(default_spec().vocabulary.actions)}
    joined = {**ACTIONS, **{name: cls for power in POWERS.values() for name, cls in power.actions.items()}}
    ACTIONS.clear()
    ACTIONS.update(sorted(joined.items(), key=lambda item: order.get(item[0], len(order))))
    ACTION_NAMES.update({cls: name for name, cls in joined.items()})


_join_actions()
STEPS: dict[str, Step] = {"discard_power": step_discard_power, "power": step_power, **_joined("steps")}
ANSWERS: dict[AnswerKey, Answer] = _joined("answers")
LEGAL: dict[str, Legal] = _joined("legal")
