"""Which suite a run judged by: the package version and content digests of the scenario files and of the spec.

A results document carries it (``suite``), so shards run from different scenario folders, spec files or
versions are never merged into one verdict (merge.py). A digest is a sha256 over the sorted relative paths
and the bytes of the files (inputs.py reads them: an entry that is no regular file, or too big, counts by its
name), so the same folder gives the same digest on any machine and any checkout, installed or not.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path

from baobei_conform.inputs import content_digest
from baobei_conform.scenario import MAX_BYTES, scenario_files
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


def suite_identity(roots: Sequence[str | Path]) -> dict:
    """``{version, scenarios, spec}``: ``roots`` are the scenario folders (or files) the run loaded from."""
    from baobei_conform import __version__

    return {"version": __version__, "scenarios": content_digest(_scenario_entries(roots), MAX_BYTES),
            "spec": spec_digest()}
