"""The misreadings of ``examples/wrong_engine`` as mutants: loaded from that file, not copied.

Each is a variant of the rules (``baobei_ref.rules.Variant``): the reference engine composes it into every game."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from .mutant import Mutant

ENGINE = Path(__file__).resolve().parents[2] / "examples" / "wrong_engine" / "engine.py"


def wrong_engine_mutants() -> dict[str, Mutant]:
    """Its ``BUGS`` as mutants."""
    spec = importlib.util.spec_from_file_location("baobei_wrong_engine", ENGINE)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load the wrong engine from {ENGINE}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return {name: Mutant(name, variant.doc, tuple(clauses), variant=variant, origin="wrong_engine")
            for name, (variant, clauses) in module.BUGS.items()}
