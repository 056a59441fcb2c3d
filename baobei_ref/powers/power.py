"""What a card power is to the rules: one record per power, defined in that power's own module."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from baobei_ref.rules import Answer, AnswerKey, Legal, Step

if TYPE_CHECKING:
    from baobei_ref.actions import Action
    from baobei_ref.game import Game


@dataclass(frozen=True)
class Power:
    """A power of the catalog (``spec/catalog.yaml``: a species' ``power``) and every rule it adds.

    On activation (6.1) the power either starts with ``start`` or, when ``possible``, asks its user the
    ``decision``; otherwise it has no effect (6.10.7, citing ``no_effect_also`` too). ``actions`` are the
    protocol names of the actions answering its decisions; ``steps``, ``answers`` and ``legal`` join the
    game's tables, where variants may replace them like any rule step.
    """

    name: str
    decision: str
    possible: Callable[[Game, int], bool]
    actions: dict[str, type[Action]]
    answers: dict[AnswerKey, Answer]
    legal: dict[str, Legal]
    steps: dict[str, Step] = field(default_factory=dict)
    no_effect_also: tuple[str, ...] = ()
    start: Callable[[Game, int], None] | None = None
