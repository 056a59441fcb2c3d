"""Compiled scenarios kept between runs, so startup does not grow with the suite.

A scenario's compiled form depends only on its file's bytes, its file name (the id must equal it) and the
compiler: the DSL, the loader, the spec it checks names against (code and data), the parser and YAML
libraries, the Python version. An entry is keyed by a digest of all of these, so a changed scenario, grammar or
spec is compiled afresh and never served stale. Entries live where the user's caches go: ``$BAOBEI_CACHE_DIR``,
else ``$XDG_CACHE_HOME/baobei``, else ``~/.cache/baobei``.

An entry is written to a temporary file and renamed into place (concurrent runs never see half an entry; the
last writer wins with the same bytes), and carries a digest of its payload: one that is truncated, altered or
not JSON is ignored and rewritten, never trusted. A cache that cannot be read or written (a read-only install,
no home) leaves the run uncached; ``note`` says so, once, for the command line's ``-v``.
"""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Callable
from functools import cache
from importlib.util import find_spec
from pathlib import Path
from typing import TypeVar

import orjson

from baobei_conform.files.inputs import content_digest
from baobei_conform.files.outputs import write_atomic
from baobei_spec import SPEC_ROOT

ENTRY_CAP = 4 << 20  # bytes of one entry: a compiled scenario is a few KB
HERE = Path(__file__).resolve().parent.parent  # the package's folder
# The compiler's own files, beside the spec's (every file of baobei_spec, code and data).
COMPILER = ("suite/cache.py", "suite/scenario.py", "files/inputs.py", "dsl")
LIBRARIES = ("lark", "yaml")  # their __init__ holds their version
T = TypeVar("T")


def cache_dir() -> Path:
    """The folder of baobei's caches, from the environment (XDG base directories)."""
    if os.environ.get("BAOBEI_CACHE_DIR"):
        return Path(os.environ["BAOBEI_CACHE_DIR"])
    if os.environ.get("XDG_CACHE_HOME"):
        return Path(os.environ["XDG_CACHE_HOME"]) / "baobei"
    return Path.home() / ".cache" / "baobei"


def _files(root: Path, names: tuple[str, ...] | None = None) -> list[tuple[str, Path]]:
    """``(name, path)`` of every file under ``root`` (or of the named files and folders in it), caches left out."""
    out = []
    for top in [root / n for n in names] if names else [root]:
        for path in [top] if top.is_file() else sorted(top.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                out.append((f"{root.name}/{path.relative_to(root).as_posix()}", path))
    return out


def compiler_files() -> list[tuple[str, Path]]:
    """``(name, path)`` of every file a compiled scenario depends on besides its own."""
    files = _files(HERE, COMPILER) + _files(SPEC_ROOT)
    for library in LIBRARIES:
        found = find_spec(library)
        if found is not None and found.origin:
            files.append((f"{library}/__init__.py", Path(found.origin)))
    return files


@cache
def compiler_digest() -> str:
    """The digest of the compiler's files and the Python version (computed once per process: ~2 ms)."""
    return f"python {sys.version} {content_digest(compiler_files(), ENTRY_CAP)}"


class CompiledCache:
    """Compiled scenarios by key, in one folder; every failure to use it leaves the caller compiling."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.note: str | None = None  # the first reason it could not be used, if any

    def key(self, name: str, data: bytes) -> str:
        """The entry's key: the compiler, the file's name and its bytes."""
        digest = hashlib.sha256(compiler_digest().encode() + b"\0" + name.encode("utf-8", "surrogateescape") + b"\0")
        digest.update(data)
        return digest.hexdigest()

    def compiled(self, name: str, data: bytes, make: Callable[[], T], keep: Callable[[T], dict],
                 restore: Callable[[dict], T]) -> T:
        """What ``make()`` compiles from the file ``name`` of ``data``, from the cache when it holds it: ``keep``
        gives the entry to store, ``restore`` the value back from one (an entry it cannot read is compiled again)."""
        key = self.key(name, data)
        entry = self.get(key)
        if entry is not None:
            try:
                return restore(entry)
            except (KeyError, TypeError, ValueError):
                pass  # an entry of another shape: compiled again and rewritten
        made = make()
        self.put(key, keep(made))
        return made

    def get(self, key: str) -> dict | None:
        """The payload stored under ``key``, or None when missing, unreadable or corrupt."""
        try:
            with open(self.folder / f"{key}.json", "rb") as fh:
                blob = fh.read(ENTRY_CAP + 1)
        except FileNotFoundError:
            return None
        except OSError as exc:
            self._unusable(f"cannot read {self.folder}: {exc.strerror or exc}")
            return None
        check, _, payload = blob.partition(b"\n")
        if check != hashlib.sha256(payload).hexdigest().encode():
            return None  # truncated or altered: compiled again and rewritten
        try:
            entry = orjson.loads(payload)
        except orjson.JSONDecodeError:
            return None
        return entry if isinstance(entry, dict) and entry.get("key") == key else None

    def put(self, key: str, entry: dict) -> None:
        """Store ``entry`` under ``key``, renamed into place whole; a failure only makes ``note``."""
        if self.note is not None:
            return  # known unusable: no second attempt per scenario
        payload = orjson.dumps({**entry, "key": key})
        try:
            write_atomic(self.folder / f"{key}.json", hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload,
                         durable=False)
        except OSError as exc:
            self._unusable(f"cannot write {self.folder}: {exc.strerror or exc}")

    def _unusable(self, why: str) -> None:
        if self.note is None:
            self.note = f"baobei-conform: scenarios compiled without the cache ({why})"


@cache
def compiled_cache() -> CompiledCache:
    """This process's cache of compiled scenarios (its folder read from the environment once)."""
    return CompiledCache(cache_dir() / "scenarios")
