"""Known failures of an engine (``--expectations FILE``), validated so a typo is an error at its line,
never a traceback, and an id the suite does not know is a warning (it may belong to another suite version)."""

from __future__ import annotations

from pathlib import Path

import yaml

from baobei_conform.files.inputs import InputError, load_yaml, read_text

STATUSES = ("fail", "error", "skip")
FIELDS = ("status", "reason", "link")
MAX_BYTES = 4 << 20  # thousands of entries of a few hundred bytes
MAX_DEPTH = 4  # expected -> id -> {status, reason, link}


class ExpectationsError(Exception):
    """The expectations file is unusable; the message names file:line:col."""


def _at(path: Path, node, message: str) -> ExpectationsError:
    mark = node.start_mark
    return ExpectationsError(f"{path}:{mark.line + 1}:{mark.column + 1}: {message}")


def _entries(path: Path, root) -> yaml.MappingNode | None:
    """The mapping of scenario ids: the document itself, or its ``expected`` key."""
    if root is None:
        return None
    if not isinstance(root, yaml.MappingNode):
        raise _at(path, root, "expected a mapping of scenario id -> {status, reason, link}")
    for key, value in root.value:
        if key.value == "expected":
            if not isinstance(value, yaml.MappingNode):
                raise _at(path, value, "'expected' must map scenario ids to {status, reason, link}")
            return value
    return root


def load_expectations(path: str | Path) -> dict[str, dict]:
    """``{scenario id: {status, reason, link, line}}``; raise ExpectationsError naming file:line:col."""
    path = Path(path)
    try:  # inputs.py: a regular file, capped, its YAML screened and bounded in depth
        root, _, _ = load_yaml(read_text(path, MAX_BYTES, "an expectations file"), str(path), "an expectations file",
                               MAX_DEPTH)
    except InputError as exc:
        raise ExpectationsError(exc.heading()) from None
    entries = _entries(path, root)
    expected: dict[str, dict] = {}
    for key, value in entries.value if entries else ():
        if not isinstance(key, yaml.ScalarNode) or not key.value:
            raise _at(path, key, "a scenario id must be a plain name")
        if key.value in expected:
            raise _at(path, key, f"{key.value}: listed twice")
        if not isinstance(value, yaml.MappingNode):
            raise _at(path, value, f"{key.value}: expected {{status: fail|error|skip, reason, link}}")
        entry = {}
        for field, item in value.value:
            if field.value not in FIELDS:
                raise _at(path, field, f"{key.value}: unknown field {field.value!r}; fields are {', '.join(FIELDS)}")
            if not isinstance(item, yaml.ScalarNode):
                raise _at(path, item, f"{key.value}: {field.value} must be text")
            entry[field.value] = item.value
        if entry.get("status") not in STATUSES:
            raise _at(path, value, f"{key.value}: status must be fail, error or skip")
        expected[key.value] = {**entry, "line": key.start_mark.line + 1}
    return expected


def unknown_ids(path: str | Path, expected: dict[str, dict], known: set[str]) -> list[str]:
    """A warning (file:line) for each listed id that is no scenario of the suite."""
    return [f"{path}:{e['line']}: warning: {sid!r} is not a scenario of this suite"
            for sid, e in expected.items() if sid not in known]
