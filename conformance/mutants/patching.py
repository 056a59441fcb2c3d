"""Mutants: one realistic misreading of the rulebook each, patched into the reference in process.

A mutant is a function that patches ``baobei_ref`` (module functions, the step and answer tables,
class methods) or the rule parameters the reference engine starts with. :func:`applied` snapshots
every such place first and restores it afterwards, so no file is touched and mutants never leak
into each other. Helpers keep each mutant a few lines: wrap an answer, a step, a function.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from baobei_ref import game
from baobei_ref.rules import Variant

PATCHABLE = ("baobei_ref", "baobei_conform.runner.engine")  # module prefixes a mutant may change


@dataclass(frozen=True)
class Mutant:
    """A misreading: its name, what it gets wrong, the clauses it breaks, how to switch it on."""

    name: str
    doc: str
    clauses: tuple[str, ...]
    apply: Callable[[], None]
    equivalent: str = ""  # why no scenario can tell it from the reference (then it is not counted)
    origin: str = "mutants"  # the module (or examples/wrong_engine) that defines it
    variants: tuple[Variant, ...] = ()  # changes to the rules of each game instead of patches (the wrong engine's)


REGISTRY: dict[str, Mutant] = {}


def mutant(*clauses: str, equivalent: str = "") -> Callable:
    """Register the decorated function as a mutant breaking ``clauses`` (its docstring says how)."""

    def register(fn: Callable[[], None]) -> Callable[[], None]:
        if fn.__name__ in REGISTRY:
            raise ValueError(f"two mutants named {fn.__name__}")
        REGISTRY[fn.__name__] = Mutant(fn.__name__, (fn.__doc__ or "").strip(), clauses, fn, equivalent,
                                       fn.__module__.rsplit(".", 1)[-1])
        return fn

    return register


# --- snapshot and restore ----------------------------------------------------------------------------
def _modules() -> list:
    return [m for name, m in sorted(sys.modules.items()) if m is not None and name.startswith(PATCHABLE)]


def _snapshot() -> list[tuple]:
    saved = []
    for module in _modules():
        space = vars(module)
        saved.append((space, dict(space)))
        for key, value in list(space.items()):
            if key.startswith("__"):
                continue
            if isinstance(value, dict):
                saved.append((value, dict(value)))
            elif isinstance(value, type) and value.__module__ == module.__name__:
                saved.append((value, dict(vars(value))))
    return saved


def _restore(saved: list[tuple]) -> None:
    for target, before in saved:
        if isinstance(target, type):
            for key in set(vars(target)) - set(before):
                delattr(target, key)
            for key, value in before.items():
                if vars(target).get(key) is not value:
                    setattr(target, key, value)
        else:
            target.clear()
            target.update(before)


@contextmanager
def applied(m: Mutant | None) -> Iterator[None]:
    """The reference with ``m`` switched on (None: the plain reference), restored on exit."""
    saved = _snapshot()
    try:
        if m is not None:
            m.apply()
        yield
    finally:
        _restore(saved)


# --- helpers for writing mutants ----------------------------------------------------------------------
def answer(kind: str, action: type, validate: Callable | None = None, perform: Callable | None = None) -> None:
    """Replace the validation and/or the effect of an answer to a decision."""
    old_validate, old_perform = game.ANSWERS[(kind, action)]
    game.ANSWERS[(kind, action)] = (validate or old_validate, perform or old_perform)


def original(kind: str, action: type) -> tuple[Callable, Callable]:
    """The (validate, perform) pair of an answer as it is now."""
    return game.ANSWERS[(kind, action)]


def no_check(g, a) -> None:
    """A validation that accepts everything."""


def then_also(kind: str, action: type, extra: Callable) -> None:
    """After the answer's effect, ``extra(g, a)`` (e.g. an extra step a misreading adds)."""
    validate, perform = game.ANSWERS[(kind, action)]

    def wrong(g, a):
        perform(g, a)
        extra(g, a)

    game.ANSWERS[(kind, action)] = (validate, wrong)


def step(name: str, fn: Callable) -> None:
    """Replace the agenda step called ``name``; ``fn(original, g, *args)``, the args being the step's fields."""
    old = game.STEPS[name]
    game.STEPS[name] = lambda g, *args: fn(old, g, *args)


def params_during(name: str, change: Callable) -> None:
    """Run the agenda step ``name`` under the rule parameters ``change(g, params)`` gives (None: unchanged), the
    game's own restored afterwards: a number misread at one moment of the game only."""
    def run(old, g, *args):
        own = g.params
        g.params = change(g, own) or own
        try:
            return old(g, *args)
        finally:
            g.params = own
    step(name, run)


def scheduled(g, call: Callable) -> list:
    """The steps ``call()`` schedules with ``g.then``, captured instead of scheduled (the caller decides)."""
    captured: list = []
    g.then = lambda *steps: captured.extend(steps)
    try:
        call()
    finally:
        del g.then
    return captured


def params(**changes) -> None:
    """The reference engine starts with these rule parameters changed (a misread number)."""
    from baobei_conform.runner import engine

    old = engine.default_params
    engine.default_params = lambda: dataclasses.replace(old(), **changes)


def defaults():
    """The spec's rule parameters."""
    return game.default_params()


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


def resolution(fix: Callable) -> None:
    """Wrap the resolution of every pluck attempt: ``fix(g, attempt, steps)`` may change the table the
    reference just left and returns the steps to schedule (gifts, shield check, powers, penalty...)."""
    from baobei_ref import pluck

    old = pluck.resolve

    def wrong(g, player, targets, own_draw):
        s = g.state
        reference = s.drawn if own_draw else s.discard[-1]
        cards = [s.card_at(t) for t in targets]
        attempt = Attempt(player, tuple(targets), own_draw, reference, cards,
                          all(c is not None and g.catalog.matches(reference, c) for c in cards),
                          {c: frozenset(s.seen.get(c, ())) for c in cards if c is not None})
        g.then(*fix(g, attempt, scheduled(g, lambda: old(g, player, targets, own_draw))))

    pluck.resolve = wrong


def claims_excused(excuse: Callable) -> None:
    """Accept claims the reference refuses when ``excuse(g, player, error)`` holds (a missed condition)."""
    from baobei_ref import pluck
    from baobei_ref.errors import RuleError

    old = pluck.check_claim

    def check(g, player, targets, own_draw):
        try:
            old(g, player, targets, own_draw)
        except RuleError as exc:
            if not excuse(g, player, exc):
                raise

    pluck.check_claim = check


def looks_refused(condition: Callable, code: str, clause: str) -> None:
    """Looking (White Pelican, Brown Pelican, Macaw) refused on a card where ``condition(g, player, target)``."""
    from baobei_ref.powers.peek import PeekAt
    from baobei_ref.powers.peek_two_swap import MacawLook
    from baobei_ref.powers.show import ShowCard

    for kind, action, targets in (("white_pelican", PeekAt, lambda a: [a.target]),
                                  ("brown_pelican", ShowCard, lambda a: [a.target]),
                                  ("macaw", MacawLook, lambda a: [a.first, a.second])):
        validate, _ = original(kind, action)

        def check(g, a, validate=validate, targets=targets):
            validate(g, a)
            for t in targets(a):
                g.require(not condition(g, a.player, t), code, "this card may not be looked at", clause)

        answer(kind, action, validate=check)


def placed_seen(clause: str) -> None:
    """The owner of a zone looks at the card added to it under ``clause`` (the penalty, the Toco Toucan's)."""

    def place(old, g, owner, card, by, why):
        if why == clause:
            g.state.see(card, owner)
        old(g, owner, card, by, why)

    step("place", place)
