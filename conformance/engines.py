"""Which engine to test: the reference (default), ``python:module:factory``, an executable, a directory
with a ``baobei-engine.json`` manifest, or a command line after ``--``."""

from __future__ import annotations

import importlib
import json
import os
import shlex
import shutil
from collections.abc import Callable
from pathlib import Path

from baobei_conform.protocol.client import StdioEngine
from baobei_conform.runner.engine import Engine, ReferenceEngine, params_to_json

MANIFEST = "baobei-engine.json"


class EngineSpecError(Exception):
    """The engine argument names nothing we can run."""


def engine_factory(target: str | None, command: list[str] | None, timeout: float = 10.0,
                   validator=None) -> tuple[Callable[[], Engine], str]:
    """A factory of fresh engine instances (one per worker, and on restart) and a description."""
    params = params_to_json()
    if command:
        return (lambda: _stdio(command, params, timeout, validator, None)), shlex.join(command)
    if target in (None, "reference"):
        return ReferenceEngine, "reference (in process)"
    if target.startswith("python:"):
        try:
            _, module, factory = target.split(":")
            fn = getattr(importlib.import_module(module), factory)
        except (ValueError, ImportError, AttributeError) as exc:
            raise EngineSpecError(f"{target}: expected python:module:factory ({exc})") from None
        return fn, target
    path = Path(target)
    if path.is_dir():
        manifest = path / MANIFEST
        try:
            data = json.loads(manifest.read_text(encoding="utf-8"))
            argv = data["command"]
        except (OSError, ValueError, KeyError) as exc:
            raise EngineSpecError(f"{manifest}: a manifest is JSON with a 'command' list ({exc})") from None
        if isinstance(argv, str):
            argv = shlex.split(argv)
        cwd = str(path.resolve())
        return (lambda: _stdio(argv, params, timeout, validator, cwd)), f"{shlex.join(argv)} (in {path})"
    if path.is_file() and os.access(path, os.X_OK):
        argv = [str(path.resolve())]
        return (lambda: _stdio(argv, params, timeout, validator, None)), str(path)
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


def _stdio(argv, params, timeout, validator, cwd) -> StdioEngine:
    engine = StdioEngine(list(argv), params, timeout=timeout, validator=validator, cwd=cwd)
    engine.start()
    return engine
