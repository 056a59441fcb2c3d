"""Which engine to test: the reference (default), ``python:module:factory``, an executable, a directory
with a ``baobei-engine.json`` manifest, or a command line after ``--``."""

from __future__ import annotations

import importlib
import os
import shlex
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

from baobei_conform.engines.api import Engine, as_engine
from baobei_conform.engines.reference import ReferenceEngine, params_to_json
from baobei_conform.files.inputs import InputError, load_json
from baobei_conform.protocol.client import MAX_LINE, StdioEngine

MANIFEST = "baobei-engine.json"
MANIFEST_BYTES = 1 << 20


class EngineSpecError(Exception):
    """The engine argument names nothing we can run."""


SERVED_REFERENCE = [sys.executable, "-m", "baobei_conform.protocol.server", "serve"]  # `baobei-ref serve`


def engine_factory(target: str | None, command: list[str] | None, timeout: float = 10.0,
                   validator=None, max_line: int = MAX_LINE, transcript=None) -> tuple[Callable[[], Engine], str]:
    """A factory of fresh engine instances (one per worker, and on restart) and a description.

    With a ``transcript`` (``--trace-protocol``) every message is written to it, so the engine must speak the
    protocol: the reference then runs as ``baobei-ref serve``, and a ``python:`` engine (called in process,
    no messages) is an error."""
    params = params_to_json()

    def stdio(argv: list[str], cwd: str | None) -> Callable[[], Engine]:
        return lambda: _stdio(argv, params, timeout, validator, cwd, max_line, transcript)

    if command:
        return stdio(command, None), shlex.join(command)
    if target in (None, "reference"):
        if transcript is not None:
            return stdio(SERVED_REFERENCE, None), "reference (baobei-ref serve, over the protocol)"
        return ReferenceEngine, "reference (in process)"
    if target.startswith("python:") and transcript is not None:
        raise EngineSpecError(f"{target}: --trace-protocol records the protocol's messages, and a python: engine is "
                              "called in process; serve it over the protocol (baobei_conform.protocol.server.serve)")
    if target.startswith("python:"):
        try:
            _, module, factory = target.split(":")
            fn = getattr(importlib.import_module(module), factory)
        except (ValueError, ImportError, AttributeError) as exc:
            raise EngineSpecError(f"{target}: expected python:module:factory ({exc})") from None
        return (lambda: as_engine(fn())), target
    path = Path(target)
    if path.is_dir():
        manifest = path / MANIFEST
        try:  # inputs.py: a regular file, capped, bounded JSON
            data = load_json(manifest, "an engine manifest", MANIFEST_BYTES)
        except InputError as exc:
            raise EngineSpecError(f"{exc.heading()} (a manifest is JSON with a 'command' list)") from None
        argv = data.get("command") if isinstance(data, dict) else None
        if isinstance(argv, str):
            argv = shlex.split(argv)
        if not argv or not isinstance(argv, list) or not all(isinstance(a, str) for a in argv):
            raise EngineSpecError(f"{manifest}: a manifest is JSON with a 'command': a list of strings, or one "
                                  "command line")
        cwd = str(path.resolve())
        return stdio(argv, cwd), f"{shlex.join(argv)} (in {path})"
    if path.is_file() and os.access(path, os.X_OK):
        argv = [str(path.resolve())]
        return stdio(argv, None), str(path)
    raise EngineSpecError(f"{target}: not 'reference', python:module:factory, an executable, or a folder with "
                          f"{MANIFEST}; or give a command after --")


def engine_from_text(text: str, timeout: float = 10.0) -> Callable[[], Engine]:
    """A factory from one string (a pytest option): an engine specifier, or else a quoted command line."""
    try:
        return engine_factory(text, None, timeout)[0]
    except EngineSpecError:
        command = shlex.split(text)
        if len(command) < 2 and not shutil.which(text):
            raise
        return engine_factory(None, command, timeout)[0]


def _stdio(argv, params, timeout, validator, cwd, max_line, transcript=None) -> StdioEngine:
    engine = StdioEngine(list(argv), params, timeout=timeout, validator=validator, cwd=cwd, max_line=max_line,
                         transcript=transcript)
    engine.start()
    return engine
