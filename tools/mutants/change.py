"""Helpers that keep each mutant a few lines: wrap an answer, a step, the resolution of a pluck attempt.

Each takes the :class:`~baobei_ref.rules.Rules` to change: one game's own (a variant) or the reference's shared
tables (a patch, restored by :func:`mutants.patching.applied`), and reads what it wraps from the same object.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from baobei_ref.rules import Rules


def answer(rules: Rules, kind: str, action: type, validate: Callable | None = None,
           perform: Callable | None = None) -> None:
    """Replace the validation and/or the effect of an answer to a decision."""
    old_validate, old_perform = rules.answers[(kind, action)]
    rules.answers[(kind, action)] = (validate or old_validate, perform or old_perform)


def original(rules: Rules, kind: str, action: type) -> tuple[Callable, Callable]:
    """The (validate, perform) pair of an answer as it is now."""
    return rules.answers[(kind, action)]


def no_check(g, a) -> None:
    """A validation that accepts everything."""


def then_also(rules: Rules, kind: str, action: type, extra: Callable) -> None:
    """After the answer's effect, ``extra(g, a)`` (e.g. an extra step a misreading adds)."""
    validate, perform = rules.answers[(kind, action)]

    def wrong(g, a):
        perform(g, a)
        extra(g, a)

    rules.answers[(kind, action)] = (validate, wrong)


def step(rules: Rules, name: str, fn: Callable) -> None:
    """Replace the agenda step called ``name``; ``fn(original, g, *args)``, the args being the step's fields."""
    old = rules.steps[name]
    rules.steps[name] = lambda g, *args: fn(old, g, *args)


def params_during(rules: Rules, name: str, change: Callable) -> None:
    """Run the agenda step ``name`` under the rule parameters ``change(g, params)`` gives (None: unchanged), the
    game's own restored afterwards: a number misread at one moment of the game only."""
    def run(old, g, *args):
        own = g.params
        g.params = change(g, own) or own
        try:
            return old(g, *args)
        finally:
            g.params = own
    step(rules, name, run)


def scheduled(g, call: Callable) -> list:
    """The steps ``call()`` schedules with ``g.then``, captured instead of scheduled (the caller decides)."""
    captured: list = []
    g.then = lambda *steps: captured.extend(steps)
    try:
        call()
    finally:
        del g.then
    return captured


@dataclass
class Attempt:
    """One pluck attempt as :func:`resolution` sees it, before the reference resolves it."""

    player: int
    targets: tuple
    own_draw: bool
    reference: str
    cards: list
    success: bool
    seen: dict  # card -> who had seen it before the attempt


def resolution(rules: Rules, fix: Callable) -> None:
    """Wrap the resolution of every pluck attempt: ``fix(g, attempt, steps)`` may change the table the
    reference just left and returns the steps to schedule (gifts, shield check, powers, penalty...)."""
    old = rules.resolve

    def wrong(g, player, targets, own_draw):
        s = g.state
        reference = s.drawn if own_draw else s.discard[-1]
        cards = [s.card_at(t) for t in targets]
        attempt = Attempt(player, tuple(targets), own_draw, reference, cards,
                          all(c is not None and g.catalog.matches(reference, c) for c in cards),
                          {c: frozenset(s.seen.get(c, ())) for c in cards if c is not None})
        g.then(*fix(g, attempt, scheduled(g, lambda: old(g, player, targets, own_draw))))

    rules.resolve = wrong


def claim_check(rules: Rules, extra: Callable) -> None:
    """Add a condition ``extra(g, player, targets, own_draw)`` to every claim's validation (own draw and window)."""
    old = rules.check_claim

    def check(g, player, targets, own_draw):
        old(g, player, targets, own_draw)
        extra(g, player, targets, own_draw)

    rules.check_claim = check


def claims_excused(rules: Rules, excuse: Callable) -> None:
    """Accept claims the reference refuses when ``excuse(g, player, error)`` holds (a missed condition)."""
    from baobei_ref.errors import RuleError

    old = rules.check_claim

    def check(g, player, targets, own_draw):
        try:
            old(g, player, targets, own_draw)
        except RuleError as exc:
            if not excuse(g, player, exc):
                raise

    rules.check_claim = check


def looks_refused(rules: Rules, condition: Callable, code: str, clause: str) -> None:
    """Looking (White Pelican, Brown Pelican, Macaw) refused on a card where ``condition(g, player, target)``."""
    from baobei_ref.powers.peek import PeekAt
    from baobei_ref.powers.peek_two_swap import MacawLook
    from baobei_ref.powers.show import ShowCard

    for kind, action, targets in (("white_pelican", PeekAt, lambda a: [a.target]),
                                  ("brown_pelican", ShowCard, lambda a: [a.target]),
                                  ("macaw", MacawLook, lambda a: [a.first, a.second])):
        validate, _ = original(rules, kind, action)

        def check(g, a, validate=validate, targets=targets):
            validate(g, a)
            for t in targets(a):
                g.require(not condition(g, a.player, t), code, "this card may not be looked at", clause)

        answer(rules, kind, action, validate=check)


def placed_seen(rules: Rules, clause: str) -> None:
    """The owner of a zone looks at the card added to it under ``clause`` (the penalty, the Toco Toucan's)."""

    def place(old, g, owner, card, by, why):
        if why == clause:
            g.state.see(card, owner)
        old(g, owner, card, by, why)

    step(rules, "place", place)
