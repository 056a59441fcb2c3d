"""Which suite a run judged by: the package version and content digests of the scenario files, of the spec and
of the observable contract (``spec/contract.yaml``, also part of the spec: named on its own because a pass
certifies it).

A results document carries it (``suite``), so shards run from different scenario folders, spec files or
versions are never merged into one verdict (merge.py), and a badge names it (``suite_tag``). A digest is a
sha256 over the sorted relative paths and the bytes of the files (inputs.py reads them: an entry that is no
regular file, or too big, counts by its name), so the same folder gives the same digest on any machine and any
checkout, installed or not.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from baobei_conform.files.inputs import content_digest
from baobei_conform.suite.scenario import MAX_BYTES, scenario_files
from baobei_spec import SPEC_ROOT

SPEC_CAP = 16 << 20  # bytes of one spec file (the rulebook's text is 36 KB, the clauses 156 KB in all)
SPEC_DATA = ("*.yaml", "clauses/*.yaml", "rulebook/*.txt", "schemas/*.json")  # as pyproject.toml installs them


def _scenario_entries(roots: Sequence[str | Path]) -> list[tuple[str, Path]]:
    entries = []
    for root in map(Path, roots):
        for path in scenario_files([root]):
            entries.append((path.relative_to(root).as_posix() if root.is_dir() else path.name, path))
    return entries


@cache
def spec_digest() -> str:
    """The digest of the spec's data files (they do not change while the tool runs)."""
    return content_digest(((p.relative_to(SPEC_ROOT).as_posix(), p) for pattern in SPEC_DATA
                           for p in SPEC_ROOT.glob(pattern)), SPEC_CAP)


@cache
def contract_digest() -> str:
    """The digest of the observable contract alone."""
    return content_digest([("contract.yaml", SPEC_ROOT / "contract.yaml")], SPEC_CAP)


def suite_identity(roots: Sequence[str | Path]) -> dict:
    """``{version, scenarios, spec, contract}``: ``roots`` are the scenario folders (or files) the run loaded
    from."""
    from baobei_conform import __version__

    return {"version": __version__, "scenarios": content_digest(_scenario_entries(roots), MAX_BYTES),
            "spec": spec_digest(), "contract": contract_digest()}


def suite_tag(suite: dict) -> str:
    """``0.1.0 #1a2b3c4d``: the version and the first 8 hex digits of a sha256 over the whole identity (canonical
    JSON), short enough for a badge; any digest that changes changes it."""
    whole = hashlib.sha256(json.dumps(suite, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
    return f"{suite.get('version')} #{whole[:8]}"
