"""A mutant: one realistic misreading of the rulebook, with the clauses it breaks and how it is switched on.

Three ways, the most contained first (``docs/mutants.md``):

- ``@variant``: a change to the rules of each game (:class:`baobei_ref.rules.Variant`), as the rulings' readings
  and the wrong engine's misreadings are: the reference engine composes it into every game it plays, and nothing
  outside those games changes;
- ``@parameters``: a misread number: the reference engine starts with these rule parameters;
- ``@patch``: what no named rule or table of :class:`~baobei_ref.rules.Rules` reaches (a zone primitive, a scoring
  internal, a catalog method) is patched into the reference's modules in memory and restored afterwards
  (:func:`mutants.patching.applied`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from baobei_ref.rules import Rules, Variant
from baobei_spec import Params

Change = Callable[[Rules], None]  # a variant's change to a game's rules; a patch's, to the reference's own tables
ParamChanges = Callable[[Params], dict[str, Any]]  # the spec's parameters -> the fields a misreading changes


@dataclass(frozen=True)
class Mutant:
    """A misreading: its name, what it gets wrong, the clauses it breaks, and exactly one way to switch it on."""

    name: str
    doc: str
    clauses: tuple[str, ...]
    variant: Variant | None = None
    params: ParamChanges | None = None
    patch: Change | None = None
    equivalent: str = ""  # why no scenario can tell it from the reference (then it is not counted)
    origin: str = "mutants"  # the module (or examples/wrong_engine) that defines it

    def __post_init__(self) -> None:
        if sum(way is not None for way in (self.variant, self.params, self.patch)) != 1:
            raise ValueError(f"mutant {self.name}: exactly one of a variant, parameters or a patch")

    @property
    def kind(self) -> str:
        """variant | parameters | patch."""
        return "variant" if self.variant else "parameters" if self.params else "patch"


REGISTRY: dict[str, Mutant] = {}


def _registrar(kind: str, clauses: tuple[str, ...], equivalent: str) -> Callable:
    def register(fn: Callable) -> Callable:
        name, doc = fn.__name__, (fn.__doc__ or "").strip()
        if name in REGISTRY:
            raise ValueError(f"two mutants named {name}")
        way: dict[str, Any] = {"variant": Variant(name, doc, fn)} if kind == "variant" else {kind: fn}
        REGISTRY[name] = Mutant(name, doc, clauses, equivalent=equivalent, origin=fn.__module__.rsplit(".", 1)[-1],
                                **way)
        return fn
    return register


def variant(*clauses: str, equivalent: str = "") -> Callable[[Change], Change]:
    """Register ``fn(rules)``, a change to one game's :class:`Rules`, as a mutant breaking ``clauses`` (its
    docstring says how)."""
    return _registrar("variant", clauses, equivalent)


def parameters(*clauses: str, equivalent: str = "") -> Callable[[ParamChanges], ParamChanges]:
    """Register ``fn(params)``, the rule parameters a misreading changes (``{"bao_failure_factor": 1}``)."""
    return _registrar("params", clauses, equivalent)


def patch(*clauses: str, equivalent: str = "") -> Callable[[Change], Change]:
    """Register ``fn(rules)``, which patches the reference's modules (``rules`` holds the reference's own step,
    answer and legal-action tables, changed in place too), for a misreading no named rule reaches."""
    return _registrar("patch", clauses, equivalent)
