"""Scenario files: YAML metadata plus a script, validated against the spec, compiled to steps.

A scenario lives at ``scenarios/<part>/<id>.yaml``; its ``id`` is the file name, stable and never
reused. Every error names the file, the line and column, and shows the offending text.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from pathlib import Path

import yaml

from baobei_conform.dsl.ast import Setup
from baobei_conform.dsl.errors import ScenarioError, nearest
from baobei_conform.files.inputs import InputError, decode_text, line_of, load_yaml, read_bytes
from baobei_conform.suite.cache import compiled_cache
from baobei_spec import Spec, default_spec

FIELDS = {"id": str, "title": str, "clauses": list, "faq": list, "rulings": list, "ruling_notes": dict, "tags": list,
          "script": str}
REQUIRED = ("id", "title", "clauses", "script")
OPTIONAL_LISTS = ("faq", "rulings", "tags")
MAX_BYTES = 1 << 20  # a scenario file is a few hundred bytes
MAX_DEPTH = 8  # YAML nesting: a mapping of strings and lists of strings needs 2


@dataclass(frozen=True)
class Scenario:
    id: str
    title: str
    clauses: tuple[str, ...]
    faq: tuple[str, ...]
    rulings: tuple[str, ...]
    tags: tuple[str, ...]
    script: str
    path: str
    script_line: int  # file line of the script's first line
    steps: list[dict] = field(compare=False, repr=False)
    notes: dict[str, str] = field(default_factory=dict, compare=False)  # ruling -> why no reading changes it
    # setup's script line -> how many deck cards it names, top first (the pictures of the table show them)
    deck_named: dict[int, int] = field(default_factory=dict, compare=False)
    # why each setup that says ``unreachable:`` sets up a position no game reaches (docs/scenarios.md)
    unreachable: tuple[str, ...] = field(default=(), compare=False)

    def file_line(self, script_line: int) -> int:
        return self.script_line + script_line - 1


def _node_of(mapping: yaml.MappingNode, key: str):
    for k, v in mapping.value:
        if k.value == key:
            return v
    return None


def _read(path: Path, shown: str) -> bytes:
    """The file's bytes (inputs.py: a regular file of at most MAX_BYTES)."""
    try:
        return read_bytes(path, MAX_BYTES, "a scenario file")
    except InputError as exc:
        raise ScenarioError(exc.message, exc.file, exc.line, exc.column, exc.text) from None


def _yaml(data: bytes, shown: str) -> tuple[yaml.Node | None, object, list[str]]:
    """The file's YAML (inputs.py: UTF-8, screened, bounded in depth)."""
    try:
        return load_yaml(decode_text(data, shown), shown, "a scenario file", MAX_DEPTH)
    except InputError as exc:
        raise ScenarioError(exc.message, exc.file, exc.line, exc.column, exc.text) from None


def load_scenario(path: str | Path, spec: Spec | None = None) -> Scenario:
    """Load, validate and compile one scenario file; raise ScenarioError naming file:line:col. Against the
    package's spec, a file compiled before is taken from the cache of compiled scenarios (cache.py)."""
    path = Path(path)
    shown = str(path)
    data = _read(path, shown)
    if spec is not None and spec is not default_spec():
        return _compile(path, shown, data, spec)  # another spec: the cache's keys do not cover it
    return compiled_cache().compiled(path.name, data, lambda: _compile(path, shown, data, default_spec()), _entry,
                                     lambda entry: _from_entry(entry, shown))


def _entry(scenario: Scenario) -> dict:
    """What the cache keeps of a compiled scenario: every field but its path (the same file may move)."""
    kept = {f.name: getattr(scenario, f.name) for f in fields(scenario) if f.name != "path"}
    kept["deck_named"] = list(scenario.deck_named.items())  # JSON keys are strings
    return kept


def _from_entry(entry: dict, shown: str) -> Scenario:
    """The scenario a cache entry keeps, at ``shown``."""
    values = {f.name: entry[f.name] for f in fields(Scenario) if f.name != "path"}
    for name in ("clauses", "faq", "rulings", "tags"):
        values[name] = tuple(values[name])
    values["deck_named"] = {int(line): int(count) for line, count in values["deck_named"]}
    return Scenario(path=shown, **values)


def _compile(path: Path, shown: str, raw: bytes, spec: Spec) -> Scenario:
    """Validate and compile a scenario file's bytes against ``spec``."""
    from baobei_conform.dsl.compile import compile_script  # the parser (lark) only when something is compiled
    from baobei_conform.dsl.parse import parse_script

    root, data, lines = _yaml(raw, shown)
    if not isinstance(data, dict) or not isinstance(root, yaml.MappingNode):
        raise ScenarioError("a scenario is a YAML mapping with id, title, clauses and script", shown, 1, 1, lines[0])

    def fail(message: str, key: str, index: int | None = None):
        node = _node_of(root, key)
        if node is not None and index is not None and isinstance(node, yaml.SequenceNode) and index < len(node.value):
            node = node.value[index]
        mark = node.start_mark if node is not None else root.start_mark
        raise ScenarioError(message, shown, mark.line + 1, mark.column + 1, line_of(lines, mark.line + 1))

    for key in data:
        if key not in FIELDS:
            fail(f"unknown field {key!r}; fields are {', '.join(FIELDS)}", key)
    for key in REQUIRED:
        if key not in data:
            raise ScenarioError(f"missing field {key!r}", shown, 1, 1, lines[0])
    for key, kind in FIELDS.items():
        if key in data and not isinstance(data[key], kind) and not (data[key] is None and key in OPTIONAL_LISTS):
            fail(f"{key} must be a {kind.__name__}", key)
    for key in OPTIONAL_LISTS:
        for i, entry in enumerate(data.get(key) or ()):
            if not isinstance(entry, str):
                fail(f"{key} entries are strings; entry {i + 1} is {type(entry).__name__} {entry!r:.40}", key, i)
    if data["id"] != path.stem:
        fail(f"the id {data['id']!r} must equal the file name {path.stem!r}", "id")
    for i, cid in enumerate(data["clauses"]):
        if not isinstance(cid, str):
            fail(f"clause id {cid!r} must be quoted: YAML reads 6.10 as the number 6.1", "clauses", i)
        if cid not in spec.clauses:
            fail(f"unknown clause {cid!r}{nearest(cid, spec.clauses)}", "clauses", i)
    faq_ids = {c.id for c in spec.faq()}
    for i, fid in enumerate(data.get("faq") or ()):
        if fid not in faq_ids:
            fail(f"unknown FAQ entry {fid!r}{nearest(str(fid), faq_ids)}", "faq", i)
    for i, rid in enumerate(data.get("rulings") or ()):
        if rid not in spec.rulings:
            fail(f"unknown ruling {rid!r}{nearest(str(rid), spec.rulings)}", "rulings", i)
    for rid, why in (data.get("ruling_notes") or {}).items():
        if rid not in (data.get("rulings") or ()) or not isinstance(why, str) or not why.strip():
            fail(f"ruling_notes: {rid!r} must be a ruling the scenario cites, with a reason", "ruling_notes")

    script_node = _node_of(root, "script")
    # A block scalar ("script: |") starts on the line after its indicator.
    block = script_node.style in ("|", ">")
    first_line = script_node.start_mark.line + (2 if block else 1)
    column = 0
    if block and first_line - 1 < len(lines):
        body = lines[first_line - 1]
        column = len(body) - len(body.lstrip(" "))
    try:
        statements = parse_script(data["script"], spec)
        steps = compile_script(statements)
        _check_readings(steps, data.get("rulings") or [], spec)
    except ScenarioError as exc:
        raise exc.located(shown, first_line - 1, column, lines) from None
    except Exception as exc:  # noqa: BLE001 - whatever the script holds, an error for this file, never a traceback
        raise ScenarioError(f"the script cannot be compiled: {type(exc).__name__}: {exc}", shown, first_line, 1,
                            line_of(lines, first_line)) from None
    return Scenario(
        id=data["id"], title=data["title"], clauses=tuple(data["clauses"]), faq=tuple(data.get("faq") or ()),
        rulings=tuple(data.get("rulings") or ()), tags=tuple(data.get("tags") or ()), script=data["script"],
        path=shown, script_line=first_line, steps=steps, notes=dict(data.get("ruling_notes") or {}),
        deck_named={st.line: len(st.options.get("deck", ())) for st in statements if isinstance(st, Setup)},
        unreachable=tuple(st.options["unreachable"] for st in statements
                          if isinstance(st, Setup) and "unreachable" in st.options),
    )


def _check_readings(steps: list[dict], cited: list, spec: Spec) -> None:
    """``under R-05 A`` names a reading of a ruling the scenario cites in ``rulings``."""
    for step in steps:
        if "under" not in step:
            continue
        rid, *readings = step["under"]
        if rid not in spec.rulings:
            raise ScenarioError(f"unknown ruling {rid!r}{nearest(rid, spec.rulings)}", line=step["line"], column=1)
        known = [r.id for r in spec.rulings[rid].readings]
        for reading in (r for r in readings if r not in known):
            raise ScenarioError(f"{rid} has no reading {reading!r}; its readings are {', '.join(known)}",
                                line=step["line"], column=1)
        if rid not in cited:
            raise ScenarioError(f"steps under {rid} need {rid} in the scenario's rulings", line=step["line"], column=1)


def scenario_files(paths) -> list[Path]:
    """Every ``*.yaml`` entry under the given files or folders, sorted. Nothing is opened here: an entry that is
    no regular file (a FIFO, a device, a link to one) is listed too, and ``load_scenario`` refuses it, an error
    for that entry, as it refuses any file it cannot use."""
    out: list[Path] = []
    for p in map(Path, paths):
        out += sorted(p.rglob("*.yaml")) if p.is_dir() else [p]
    return out


def unreachable_setups(paths) -> dict:
    """The scenarios whose setup says ``unreachable: "why"`` (a position no game reaches, on purpose), with their
    reasons, among the scenario files under ``paths`` that load (``lint`` reports the others)."""
    loaded, marked = 0, {}
    for path in scenario_files(paths):
        try:
            scenario = load_scenario(path)
        except ScenarioError:
            continue
        loaded += 1
        if scenario.unreachable:
            marked[scenario.id] = list(scenario.unreachable)
    return {"count": len(marked), "scenarios": loaded, "reasons": marked}

