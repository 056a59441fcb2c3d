"""The misreadings of ``examples/wrong_engine`` as mutants: loaded from that file, not copied.

Each is a variant of the rules (``baobei_ref.rules.Variant``): the reference engine composes it into every game."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from baobei_conform.mutants.patching import Mutant

ENGINE = Path(__file__).resolve().parents[2] / "examples" / "wrong_engine" / "engine.py"


def wrong_engine_mutants() -> dict[str, Mutant]:
    """Its ``BUGS`` as mutants (none when the examples folder is not there, e.g. an installed package)."""
    if not ENGINE.is_file():
        return {}
    spec = importlib.util.spec_from_file_location("baobei_wrong_engine", ENGINE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return {name: Mutant(name, variant.doc, tuple(clauses), _nothing, origin="wrong_engine", variants=(variant,))
            for name, (variant, clauses) in module.BUGS.items()}


def _nothing() -> None:
    """A wrong-engine mutant patches nothing: its variant changes the rules of each game it plays."""
