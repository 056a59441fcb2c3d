"""The rules one game follows: its rule steps by name, and the variants that replace some of them.

A :class:`Variant` is a change to the rules: a ruling read otherwise than adopted (rule parameter
``rulings``; the register marks those readings ``switch: true``) or a deliberate misreading
(``examples/wrong_engine``, most mutants of ``tools/mutate.py``). Each :class:`~baobei_ref.game.Game`
composes its own :class:`Rules`, so games under different variants run side by side in one process.
Without variants a game shares the reference's step, answer and legal-action tables (a patch of the
mutation tool, ``tools/mutants``, changes those in place, for what no named rule reaches).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from baobei_ref.actions import Action, Target
    from baobei_ref.agenda import Step as AgendaStep
    from baobei_ref.game import Game

Step = Callable[..., None]  # an agenda step: the game, then the step's own arguments
Answer = tuple[Callable[["Game", Any], None], Callable[["Game", Any], None]]  # (validate, perform)
AnswerKey = tuple[str, type["Action"]]  # (decision kind, action class)
Legal = Callable[["Game"], Sequence["Action"]]
Refusal = Callable[["Game", Any, Any, list[int], list["Target"], int], "str | None"]


@dataclass(slots=True)
class Rules:
    """Every rule step a variant may replace: the agenda steps, the answers to decisions, the legal
    actions per decision, and the named rules below (each the adopted reading unless a variant says otherwise)."""

    steps: dict[str, Step]
    answers: dict[AnswerKey, Answer]
    legal: dict[str, Legal]
    matches: Callable[[Game, str, str], bool]  # 3.1.1 / 3.1.6
    check_claim: Callable[[Game, int, tuple[Target, ...], bool], None]  # 3.2.4, 3.2.6, ruling R-10: a valid attempt
    resolve: Callable[[Game, int, tuple[Target, ...], bool], None]  # 3.3 - 3.6: one pluck attempt resolved
    bao_score: Callable[[Game, int, list[int]], tuple[int, str]]  # 5.2.2 - 5.2.4
    next_round: Callable[[Game, dict[int, int]], None]  # 2.4.1
    start_final_phase: Callable[[Game], None]  # 7.2.2
    view: Callable[[Game, int], dict[str, Any]]  # 2.2.1, ruling R-27
    movable: Callable[[Game, Target, int], bool]  # 4.2.7, 6.11.1
    check_movable: Callable[[Game, int, Sequence[Target], str], None]  # 4.2.7, 6.11.1
    discard_power_order: Callable[[Game, list[AgendaStep], str], None]  # ruling R-04
    final_phase_after_bao: Callable[[Game], None]  # ruling R-05
    last_turns: Callable[[Game], list[int]]  # ruling R-06
    bao_in_decisive_round: Callable[[Game], bool]  # ruling R-07
    skip_turn_without_draw: Callable[[Game], bool]  # ruling R-09
    deal_order: Callable[[Game, int], list[int]]  # ruling R-15
    bao_moment: Callable[[Game], bool]  # ruling R-17
    first_card_own: Callable[[Game, Any, int], str | None]  # ruling R-19
    single_card: Refusal  # ruling R-21
    placed_by_power: Callable[[Game, str], None]  # ruling R-28: a card a power puts into a zone
    shoebill_draws: Callable[[Game, int], bool]  # ruling R-30: a Shoebill that can replace nothing

    def with_variants(self, variants: Sequence[Variant]) -> Rules:
        """These rules changed by ``variants`` in order (the tables copied first: never these)."""
        if not variants:
            return self
        rules = replace(self, steps=dict(self.steps), answers=dict(self.answers), legal=dict(self.legal))
        for variant in variants:
            variant.change(rules)
        return rules


@dataclass(frozen=True)
class Variant:
    """A named change to the rules: ``change`` replaces rule steps of a game's own :class:`Rules`
    (it may wrap the step it replaces, read from the same object)."""

    name: str
    doc: str
    change: Callable[[Rules], None]
    ruling: str | None = None  # a reading of this ruling (spec/rulings.yaml), or None: a misreading
    reading: str | None = None


def reading(ruling: str, chosen: str, **named: Callable[..., Any]) -> Variant:
    """The variant reading ``ruling`` as ``chosen``: the named rules replaced by the given functions."""

    unknown = set(named) - set(Rules.__dataclass_fields__)
    if unknown:
        raise ValueError(f"{ruling} {chosen}: no named rule {', '.join(sorted(unknown))}")

    def change(rules: Rules) -> None:
        for name, fn in named.items():
            setattr(rules, name, fn)

    return Variant(f"{ruling} {chosen}", f"ruling {ruling}, reading {chosen}", change, ruling, chosen)
