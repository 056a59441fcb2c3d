"""The steps of the agenda: what the rules still have to do, one typed record per kind of step.

The agenda is private to the reference. Between two actions it only ever holds what the canonical
state says in the game's own terms (``baobei_ref.owed``): the end of the turn, owed powers, the shield
check and gifts of a pluck, and the draw a recycle interrupted. Each part module maps its step types
to the functions that run them (``STEPS``); a step's fields are that function's arguments.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from operator import attrgetter
from typing import Any, ClassVar

_ARGS: dict[type, Callable[[object], tuple[Any, ...]]] = {}  # step type -> its fields (the agenda's hot path)


@dataclass(frozen=True, slots=True)
class Step:
    """Base class; ``name`` is the step's name in the game's words (for mutants and messages)."""

    name: ClassVar[str]

    def args(self) -> tuple[Any, ...]:
        """The fields, in order: the arguments of the function that runs the step."""
        get = _ARGS.get(type(self))
        if get is None:
            get = _ARGS[type(self)] = _getter(self.__match_args__)
        return get(self)


def _getter(names: tuple[str, ...]) -> Callable[[object], tuple[Any, ...]]:
    if len(names) > 1:
        return attrgetter(*names)
    return (lambda step: (getattr(step, names[0]),)) if names else (lambda step: ())


@dataclass(frozen=True, slots=True)
class RoundStart(Step):
    """2.1: a new round: empty table, then the first player (round one, decisive rounds) or the deal."""

    name = "round_start"


@dataclass(frozen=True, slots=True)
class Deal(Step):
    """2.1.2 / 2.1.3: deal the shuffled deck into the zones."""

    name = "deal"


@dataclass(frozen=True, slots=True)
class InitialPeeks(Step):
    """2.2.1: ask the initial peek of the player at ``index`` of the round's players, then the next."""

    name = "initial_peek"
    index: int


@dataclass(frozen=True, slots=True)
class Flip(Step):
    """2.3.1: turn up the first, neutral discard and start the first turn."""

    name = "flip"


@dataclass(frozen=True, slots=True)
class TurnStart(Step):
    """2.6: the active player's turn begins."""

    name = "turn_start"


@dataclass(frozen=True, slots=True)
class TurnDraw(Step):
    """2.7.1: the active player draws the top card (after a recycle if the deck is empty)."""

    name = "draw_turn"


@dataclass(frozen=True, slots=True)
class Window(Step):
    """3.2.3: the reaction window on the normal discard ``reference``."""

    name = "window"
    reference: str


@dataclass(frozen=True, slots=True)
class DiscardPower(Step):
    """6.1.2: the power of ``card``, discarded directly by the active player, after the window (R-04)."""

    name = "discard_power"
    card: str


@dataclass(frozen=True, slots=True)
class Power(Step):
    """6.1.3 / 6.1.4: ``player`` activates ``card``'s power, as ``clause`` says (6.10.3 - 6.10.6)."""

    name = "power"
    player: int
    card: str
    clause: str


@dataclass(frozen=True, slots=True)
class TocoDraw(Step):
    """6.7.1: the Toco Toucan's top deck card for ``rival``."""

    name = "toco_draw"
    player: int
    rival: int


@dataclass(frozen=True, slots=True)
class ShoebillDraw(Step):
    """6.9.2: the Shoebill's two draws; ``drawn`` holds the cards drawn so far (None: no card to draw)."""

    name = "shoebill_draw"
    player: int
    drawn: tuple[str | None, ...]


@dataclass(frozen=True, slots=True)
class GiftOwed(Step):
    """3.4.4 / 3.6.7: ``player`` gives an own card into ``rival``'s emptied ``slot``."""

    name = "gift"
    player: int
    rival: int
    slot: int


@dataclass(frozen=True, slots=True)
class Penalty(Step):
    """3.5.5: ``player`` draws a penalty card."""

    name = "penalty"
    player: int


@dataclass(frozen=True, slots=True)
class PlaceCard(Step):
    """2.5.4: ``card`` is added to ``owner``'s zone because of ``by`` (``clause``: the penalty or the Toco Toucan)."""

    name = "place"
    owner: int
    card: str
    by: int
    clause: str


@dataclass(frozen=True, slots=True)
class ShieldCheck(Step):
    """4.2.2: after a rival's modification of the caller's zone is complete, the shield activates."""

    name = "shield_check"


@dataclass(frozen=True, slots=True)
class TurnEnd(Step):
    """4.1.2: the end of the turn, when BAO may be called."""

    name = "end_turn"


@dataclass(frozen=True, slots=True)
class NextTurn(Step):
    """2.4.1 / 4.1.4 / 7.2.4: the next player's turn, or the end of the round."""

    name = "next_turn"


@dataclass(frozen=True, slots=True)
class ScoreRound(Step):
    """5.1 - 5.4: score the round; the game ends, or the next round starts."""

    name = "score_round"


BY_NAME: dict[str, type[Step]] = {cls.name: cls for cls in Step.__subclasses__()}
