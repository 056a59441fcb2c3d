"""The BAO BEI rulebook as data: clauses, outline, card catalog, rule parameters, rulings, errors.

Everything else in baobei cites this package by clause id. Load it once::

    >>> from baobei_spec import load_spec
    >>> spec = load_spec()
    >>> spec.clause("3.5.5").kind
    'normative'
    >>> spec.species("shoebill").value
    13
"""

from baobei_spec.load import SPEC_ROOT, SpecError, default_spec, load_spec
from baobei_spec.model import Clause, ErrorCode, Params, Ruling, Section, Spec, Species, Vocabulary

__all__ = [
    "SPEC_ROOT",
    "Clause",
    "ErrorCode",
    "Params",
    "Ruling",
    "Section",
    "Spec",
    "SpecError",
    "Species",
    "Vocabulary",
    "default_spec",
    "load_spec",
]
