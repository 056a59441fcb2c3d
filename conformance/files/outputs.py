"""Outputs that are whole or absent, and only where the tool may write: paths checked before the work,
files renamed into place, folders the tool owns swapped in, results streamed.

CI systems and browsers read what a run writes, and a run can die at any moment (``kill -9``, a
full disk, Ctrl-C). Every output of a command is checked by ``output_problems`` before its work (a
typo in ``--json`` must not cost a whole run's results). A file is written under a temporary name in
its own folder and renamed over the old one; a folder (the HTML report, ``compile``'s output) is built
fresh beside its place and swapped in. So a reader sees the complete previous output, the complete new
one or (between the two renames of a swap) none, never a truncated or mixed one. ``ResultStream``
rewrites the results as scenarios finish, so a run that dies keeps what ran.

A folder swapped in whole is owned: it carries a marker (``.baobei-output``) listing the files the tool
wrote there. A folder is replaced only when it is missing, empty, or marked and holding nothing but what
its marker lists; the old one's listed files are deleted one by one, so a file the tool did not write is
never deleted, even one added while the new folder was being built.
"""

from __future__ import annotations

import json
import os
import secrets
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")
SWAP_ATTEMPTS = 20  # other runs swapping the same folder at the same time
MARKER = ".baobei-output"  # in every folder the tool owns: what wrote it and the files it wrote
MARKER_FORMAT = "baobei-output/1"
MARKER_BYTES = 16 * 1024 * 1024  # a marker larger than this is not one the tool wrote
SHOWN = 3  # foreign entries named in a refusal


class OutputRefused(OSError):
    """A folder that is not the tool's to replace, found at the moment of the swap (it changed during the work)."""


def write_atomic(path: str | Path, data: str | bytes, durable: bool = True) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder (created if missing), then
    rename it into place. ``durable``: on disk before the rename (a cache, whose entries check themselves, skips
    the wait)."""
    path = Path(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
            fh.flush()
            if durable:
                os.fsync(fh.fileno())
        os.chmod(temp, 0o644)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def replace_dir(out: str | Path, build: Callable[[Path], T], writer: str = "baobei-conform") -> T:
    """Build a folder with ``build(fresh_folder)`` beside ``out``, mark it as written by ``writer``, then swap
    it in place of ``out``. The old folder's listed files are deleted, nothing else (see ``remove_owned``)."""
    out = Path(os.path.abspath(out))
    out.parent.mkdir(parents=True, exist_ok=True)
    fresh = Path(tempfile.mkdtemp(prefix=f".{out.name}.building-", dir=out.parent))
    try:
        result = build(fresh)
        _write_marker(fresh, writer)
        fresh.chmod(0o755)
        old = []
        for _ in range(SWAP_ATTEMPTS):
            if os.path.lexists(out) and (problem := foreign(out)):
                raise OutputRefused(f"{out}: {problem}; nothing replaced, the new one was not kept")
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
        if fresh.is_dir():  # only what the build wrote: the fresh folder is ours alone
            remove_owned(fresh, set(_listing(fresh)))
        raise
    for aside in old:
        if not remove_owned(aside, listed(aside) or set()):
            print(f"{aside}: kept: it holds files the tool did not write (added while it worked)", file=sys.stderr)
    return _moved(result, fresh, out)


def _moved(result: T, fresh: Path, out: Path) -> T:
    """A path the build returned inside the fresh folder, as it is now inside ``out``."""
    if isinstance(result, Path) and result.is_relative_to(fresh):
        return out / result.relative_to(fresh)
    return result


def write_each(writes: Iterable[tuple[str, str | None, Callable[[], object]]]) -> list[str]:
    """Run each ``(option, path, write)`` whose path is given; the writes that failed, one line each. A failure
    late in a command (a full disk at the end of a run) is a message, not a traceback, and the others are still
    written; what a failed write would have replaced is left as it was (the results streamed during a run
    are marked incomplete)."""
    problems = []
    for label, path, write in writes:
        if not path:
            continue
        try:
            write()
        except OSError as exc:
            problems.append(unwritten(label, path, exc))
    return problems


def unwritten(label: str, path: str, exc: OSError) -> str:
    """The one line for an output that could not be written."""
    return f"{label} {path}: not written: {exc.strerror or exc}; what was there is left as it was"


def print_problems(command: str, problems: list[str]) -> int:
    """Print each problem of ``baobei-conform COMMAND`` on a line of its own; 2 (exit code) when there are any."""
    for problem in problems:
        print(f"baobei-conform{' ' + command if command else ''}: {problem}", file=sys.stderr)
    return 2 if problems else 0


class ResultStream:
    """Calls ``write(outcomes_so_far)`` at most every ``every`` seconds as outcomes arrive, and on ``flush``. A
    write that fails (a full disk) does not stop the run: the next one tries again, and the command's final
    write reports it."""

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
        try:
            self.write(list(self.outcomes))
        except OSError:
            pass


def _tree(root: Path, prefix: str = "") -> Iterator[tuple[str, bool]]:
    """Every entry under ``root`` as (relative posix path, is a real folder), a folder after its contents.
    Symbolic links are entries, never followed: deleting through one could reach anywhere."""
    with os.scandir(root / prefix if prefix else root) as it:
        entries = sorted(it, key=lambda e: e.name)
    for entry in entries:
        rel = prefix + entry.name
        if entry.is_dir(follow_symlinks=False):
            yield from _tree(root, rel + "/")
            yield rel, True
        else:
            yield rel, False


def _listing(folder: Path) -> list[str]:
    return [rel for rel, is_dir in _tree(folder) if not is_dir]


def _write_marker(folder: Path, writer: str) -> None:
    from baobei_conform import __version__

    files = _listing(folder)
    marker = {"format": MARKER_FORMAT, "written_by": writer, "version": __version__,
              "written": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "files": files,
              "note": "this folder is replaced whole by the next run; a file not listed here stops it"}
    (folder / MARKER).write_text(json.dumps(marker, indent=1) + "\n", encoding="utf-8")


def listed(folder: Path) -> set[str] | None:
    """The files the marker of ``folder`` lists, or None when it has no marker the tool wrote."""
    marker = folder / MARKER
    try:
        if marker.is_symlink() or not marker.is_file():
            return None
        with marker.open("rb") as fh:
            doc = json.loads(fh.read(MARKER_BYTES + 1))
    except (OSError, ValueError):
        return None
    files = doc.get("files") if isinstance(doc, dict) and doc.get("format") == MARKER_FORMAT else None
    if not isinstance(files, list) or not all(isinstance(f, str) for f in files):
        return None
    return {f for f in files if f and not f.startswith("/") and ".." not in f.split("/") and f != MARKER}


def foreign(folder: Path) -> str | None:
    """What ``folder`` holds that the tool did not write (one line), or None when it may be replaced: it is
    empty, or it carries the marker and holds nothing but the files and folders the marker lists."""
    if folder.is_symlink():
        return "is a symbolic link; give the folder itself"
    if not folder.is_dir():
        return "is a file, not a folder"
    files = listed(folder)
    if files is None:
        with os.scandir(folder) as it:
            if next(it, None) is None:
                return None
        return f"is not empty and was not written by this tool (no {MARKER} in it); choose another folder, or empty it"
    parents = {"/".join(f.split("/")[:i]) for f in files for i in range(1, f.count("/") + 1)}
    extra = []
    for rel, is_dir in _tree(folder):
        if rel != MARKER and rel not in (parents if is_dir else files):
            extra.append(rel + ("/" if is_dir else ""))
            if len(extra) > SHOWN:
                break
    if not extra:
        return None
    named = ", ".join(extra[:SHOWN]) + (" and more" if len(extra) > SHOWN else "")
    return (f"holds {named}, which this tool did not write, and the folder is replaced whole; move "
            f"{'it' if len(extra) == 1 else 'them'} out, or choose another folder")


def remove_owned(folder: Path, files: set[str]) -> bool:
    """Delete the ``files`` under ``folder``, its marker, and the folders left empty; True when nothing is left."""
    for rel, is_dir in _tree(folder):
        try:
            if is_dir:
                os.rmdir(folder / rel)  # only when empty: a foreign file keeps its folder
            elif rel in files or rel == MARKER:
                os.unlink(folder / rel)
        except OSError:
            pass
    try:
        os.rmdir(folder)
    except OSError:
        return False
    return True


def output_problems(*, files: Mapping[str, str | None] | None = None, owned: Mapping[str, str | None] | None = None,
                    folders: Mapping[str, str | None] | None = None, inputs: Iterable[str | None] = ()) -> list[str]:
    """Why the outputs of one command cannot be written, one line each naming the option, the path and what
    to do; empty: go ahead. Every writing command calls this before its work, so the policy is here.

    ``files`` (option -> path) are written whole (``write_atomic``); ``owned`` folders are replaced whole
    (``replace_dir``); ``folders`` get files written into them; ``inputs`` are what the command reads (the
    scenario sources above all). Nothing is created: missing parents are made when the output is written.
    """
    files, owned, folders = ({k: v for k, v in (m or {}).items() if v} for m in (files, owned, folders))
    sources = [(_resolved(p), p) for p in inputs if p and os.path.lexists(p)]
    problems: list[str] = []
    seen: dict[Path, str] = {}
    for label, path in (*files.items(), *owned.items(), *folders.items()):
        where = _resolved(path)
        if where in seen:
            problems.append(f"{label} {path}: also given as {seen[where]}; give each output its own path")
        seen[where] = f"{label} {path}"
    for label, path in files.items():
        problems += [f"{label} {path}: {p}" for p in [_file_problem(Path(path), sources)] if p]
    for label, path in folders.items():
        problems += [f"{label} {path}: {p}" for p in [_folder_problem(Path(path))] if p]
    for label, path in owned.items():
        problem = _owned_problem(Path(path), sources)
        problems += [f"{label} {path}: {problem}"] if problem else []
        inside = _resolved(path)
        problems += [f"{other}: inside {label} {path}, which is replaced whole; write it outside that folder"
                     for where, other in seen.items() if where != inside and where.is_relative_to(inside)]
    return problems


def _resolved(path: str | Path) -> Path:
    return Path(path).resolve()


def _place_problem(path: Path) -> str | None:
    """Why ``path`` cannot be created (its missing parents included), or None. Tried with a temporary file
    that disappears at once, never by creating anything that would stay."""
    ancestor = path.parent
    while not os.path.lexists(ancestor) and ancestor != ancestor.parent:
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        return f"{ancestor} is a file, not a folder"
    try:
        with tempfile.TemporaryFile(dir=ancestor):
            pass
    except OSError as exc:
        return f"cannot write in {ancestor}: {exc.strerror or exc}"
    return None


def _file_problem(path: Path, sources: list[tuple[Path, str]]) -> str | None:
    if path.is_dir():
        return "is a folder, not a file; give a file name"
    if os.path.lexists(path) and not path.is_file():
        return "exists and is not a regular file; give a file name"
    if any(_resolved(path) == source for source, _ in sources):
        return "is an input of this command; write the output elsewhere"
    return _place_problem(path)


def _folder_problem(path: Path) -> str | None:
    if os.path.lexists(path) and not path.is_dir():
        return "is a file, not a folder; give a folder"
    return _place_problem(path / "x")


def _owned_problem(path: Path, sources: list[tuple[Path, str]]) -> str | None:
    """Why the tool may not replace the folder ``path`` whole, or None."""
    where = _resolved(path)
    advice = "choose another folder"
    if where.parent == where:
        return f"is the root folder; {advice}"
    for name, place in (("the current folder", Path.cwd()), ("your home folder", Path(os.path.expanduser("~")))):
        place = place.resolve()
        if place.is_relative_to(where):
            return f"{'is' if place == where else 'contains'} {name}; {advice}"
    for source, given in sources:
        relation = "is" if source == where else "contains" if source.is_relative_to(where) else \
            "is inside" if where.is_relative_to(source) else None
        if relation:
            return f"{relation} {given}, which this command reads; {advice}, outside the inputs"
    if not os.path.lexists(path):
        return _place_problem(path)
    problem = foreign(path)
    if problem:
        return problem
    return _place_problem(path) or _place_problem(path / "x")  # the swap renames it in its parent
