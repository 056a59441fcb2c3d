"""Output paths are checked before the run: a typo in ``--json`` must not cost a whole run's results."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def unwritable_file(path: str) -> str | None:
    """Why ``path`` cannot be written as a file, or None. Leaves nothing behind."""
    p = Path(path)
    if p.is_dir():
        return f"{path} is a folder, not a file"
    existed = p.exists()
    try:
        with open(p, "a", encoding="utf-8"):
            pass
    except OSError as exc:
        return f"cannot write {path}: {exc.strerror or exc}"
    if not existed:
        p.unlink()
    return None


def unwritable_folder(path: str) -> str | None:
    """Why files cannot be written in folder ``path`` (created if missing), or None."""
    try:
        os.makedirs(path, exist_ok=True)
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as exc:
        return f"cannot write in {path}: {exc.strerror or exc}"
    return None
