"""Outputs that are whole or absent: paths checked before the run, files renamed into place, folders
swapped in, results streamed.

CI systems and browsers read what a run writes, and a run can die at any moment (``kill -9``, a
full disk, Ctrl-C). Every output path is checked writable before the run (a typo in ``--json`` must
not cost a whole run's results). A file is written under a temporary name in its own folder and
renamed over the old one; a folder (the HTML report) is built fresh beside its place and swapped in.
So a reader sees the complete previous output, the complete new one or (between the two renames of a
swap) none, never a truncated or mixed one. ``ResultStream`` rewrites the results as scenarios
finish, so a run that dies keeps what ran.
"""

from __future__ import annotations

import os
import secrets
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")
SWAP_ATTEMPTS = 20  # other runs swapping the same folder at the same time


def write_atomic(path: str | Path, data: str | bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder, then rename it into place."""
    path = Path(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(temp, 0o644)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def replace_dir(out: str | Path, build: Callable[[Path], T]) -> T:
    """Build a folder with ``build(fresh_folder)`` beside ``out``, then swap it in place of ``out``."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    fresh = Path(tempfile.mkdtemp(prefix=f".{out.name}.building-", dir=out.parent))
    try:
        result = build(fresh)
        fresh.chmod(0o755)
        old = []
        for _ in range(SWAP_ATTEMPTS):
            aside = out.with_name(f".{out.name}.old-{secrets.token_hex(4)}")
            try:
                os.rename(out, aside)
                old.append(aside)
            except FileNotFoundError:
                pass
            try:
                os.rename(fresh, out)
                break
            except OSError:  # another run put its folder there in between: set that one aside too
                continue
        else:
            raise OSError(f"{out}: could not put the new folder in place (other runs keep writing it)")
    except BaseException:
        shutil.rmtree(fresh, ignore_errors=True)
        raise
    for aside in old:
        shutil.rmtree(aside, ignore_errors=True)
    return _moved(result, fresh, out)


def _moved(result: T, fresh: Path, out: Path) -> T:
    """A path the build returned inside the fresh folder, as it is now inside ``out``."""
    if isinstance(result, Path) and result.is_relative_to(fresh):
        return out / result.relative_to(fresh)  # type: ignore[return-value]
    return result


class ResultStream:
    """Calls ``write(outcomes_so_far)`` at most every ``every`` seconds as outcomes arrive, and on ``flush``."""

    def __init__(self, write: Callable[[list], None], every: float = 1.0):
        self.write, self.every = write, every
        self.outcomes: list = []
        self.last = 0.0

    def add(self, outcome) -> None:
        self.outcomes.append(outcome)
        now = time.monotonic()
        if now - self.last >= self.every:
            self._write(now)

    def flush(self) -> None:
        self._write(time.monotonic())

    def _write(self, now: float) -> None:
        self.last = now
        self.write(list(self.outcomes))


def unwritable_file(path: str) -> str | None:
    """Why ``path`` cannot be written as a file, or None. Files are written through a temporary file in
    their folder and renamed into place, so the folder is what must be writable; nothing is created at
    ``path`` itself (a reader must never see an empty results file)."""
    p = Path(path)
    if p.is_dir():
        return f"{path} is a folder, not a file"
    try:
        with tempfile.TemporaryFile(dir=p.parent):
            pass
    except OSError as exc:
        return f"cannot write {path}: {exc.strerror or exc}"
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
