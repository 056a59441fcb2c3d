"""Scenario files: YAML metadata plus a script, validated against the spec, compiled to steps.

A scenario lives at ``scenarios/<part>/<id>.yaml``; its ``id`` is the file name, stable and never
reused. Every error names the file, the line and column, and shows the offending text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from baobei_conform.dsl.ast import Setup
from baobei_conform.dsl.compile import compile_script
from baobei_conform.dsl.errors import ScenarioError, nearest
from baobei_conform.dsl.parse import parse_script
from baobei_spec import Spec, default_spec

FIELDS = {"id": str, "title": str, "clauses": list, "faq": list, "rulings": list, "ruling_notes": dict, "tags": list,
          "script": str}
REQUIRED = ("id", "title", "clauses", "script")
OPTIONAL_LISTS = ("faq", "rulings", "tags")
MAX_BYTES = 1 << 20  # a scenario file is a few hundred bytes
MAX_DEPTH = 8  # YAML nesting: a mapping of strings and lists of strings needs 2
MAX_NUMBER = 40  # characters of a number anywhere in the YAML
MAX_SCRIPT_DIGITS = 9  # digits of a number in the script (player counts, slots, scores)
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present: 10x faster; safe after _screen
_LINE_BREAK = re.compile("\r\n|[\n\r\x85\u2028\u2029]")  # YAML's line breaks: its marks count lines by them
_LONG_NUMBER = re.compile(rf"\d{{{MAX_SCRIPT_DIGITS + 1},}}")


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

    def file_line(self, script_line: int) -> int:
        return self.script_line + script_line - 1


def _node_of(mapping: yaml.MappingNode, key: str):
    for k, v in mapping.value:
        if k.value == key:
            return v
    return None


def _line(lines: list[str], number: int) -> str:
    """Line ``number`` (1-based) of the file, or "" past its end."""
    return lines[number - 1] if 0 < number <= len(lines) else ""


def _located(message: str, shown: str, text: str, offset: int) -> ScenarioError:
    """An error at a character offset of the file's text."""
    line = text.count("\n", 0, offset) + 1
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    return ScenarioError(message, shown, line, offset - start + 1, text[start:end if end >= 0 else len(text)])


def _read(path: Path, shown: str) -> str:
    """The file's text: at most MAX_BYTES of UTF-8 (a bad byte is an error at its line and column)."""
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise ScenarioError(f"the file has {size} bytes; a scenario file has at most {MAX_BYTES}", shown)
        data = path.read_bytes()
    except OSError as exc:
        raise ScenarioError(f"cannot read: {exc}", shown) from None
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        good = data[:exc.start].decode("utf-8")
        raise _located(f"not UTF-8: byte 0x{data[exc.start]:02x} cannot start or continue a character", shown,
                       good + data[exc.start:].decode("utf-8", "replace"), len(good)) from None


def _screen(text: str, shown: str, lines: list[str]) -> None:
    """Refuse what a scenario never needs and would blow up YAML: deep nesting, anchors and aliases (alias
    bombs), explicit tags, numbers too long to convert. Read as events, which nests no Python calls."""
    resolver = yaml.resolver.Resolver()
    depth = 0

    def fail(message: str, event) -> None:
        mark = event.start_mark
        raise ScenarioError(message, shown, mark.line + 1, mark.column + 1, _line(lines, mark.line + 1))

    for event in yaml.parse(text, Loader=LOADER):
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
            fail("anchors and aliases (&name, *name) are not allowed in a scenario file", event)
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                fail(f"nested more than {MAX_DEPTH} levels deep", event)
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
        if isinstance(event, yaml.NodeEvent) and getattr(event, "tag", None):  # the parser leaves implicit tags unset
            fail(f"explicit YAML tags ({event.tag}) are not allowed in a scenario file", event)
        if isinstance(event, yaml.ScalarEvent) and not event.style and len(event.value) > MAX_NUMBER and \
                resolver.resolve(yaml.ScalarNode, event.value, (True, False)).endswith((":int", ":float")):
            fail(f"a number of {len(event.value)} characters (a scenario has no number longer than {MAX_NUMBER})",
                 event)


def _compose(text: str, shown: str, lines: list[str]) -> tuple[yaml.Node, object]:
    """The YAML node tree (for positions) and the data, screened first."""
    try:
        _screen(text, shown, lines)
        loader = LOADER(text)  # composing nests a call per level: only after _screen bounded the depth
        try:
            root = loader.get_single_node()
            data = loader.construct_document(root) if root is not None else None
        finally:
            loader.dispose()
    except yaml.reader.ReaderError as exc:  # a character YAML refuses: located by its offset
        raise _located(f"not valid YAML: character {exc.character!r} is not allowed", shown, text,
                       exc.position) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line, col = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        raise ScenarioError(f"not valid YAML: {getattr(exc, 'problem', None) or exc}", shown, line, col,
                            _line(lines, line)) from None
    return root, data


def load_scenario(path: str | Path, spec: Spec | None = None) -> Scenario:
    """Load, validate and compile one scenario file; raise ScenarioError naming file:line:col."""
    path = Path(path)
    shown = str(path)
    text = _read(path, shown)
    lines = _LINE_BREAK.split(text)
    root, data = _compose(text, shown, lines)
    if not isinstance(data, dict) or not isinstance(root, yaml.MappingNode):
        raise ScenarioError("a scenario is a YAML mapping with id, title, clauses and script", shown, 1, 1, lines[0])

    def fail(message: str, key: str, index: int | None = None):
        node = _node_of(root, key)
        if node is not None and index is not None and isinstance(node, yaml.SequenceNode) and index < len(node.value):
            node = node.value[index]
        mark = node.start_mark if node is not None else root.start_mark
        raise ScenarioError(message, shown, mark.line + 1, mark.column + 1, _line(lines, mark.line + 1))

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
    spec = spec or default_spec()
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
    long_number = _LONG_NUMBER.search(data["script"])
    try:
        if long_number:
            where = _located("", "", data["script"], long_number.start())
            raise ScenarioError(f"a number of {len(long_number.group())} digits (at most {MAX_SCRIPT_DIGITS})",
                                line=where.line, column=where.column, text=where.text)
        statements = parse_script(data["script"], spec)
        steps = compile_script(statements)
        _check_readings(steps, data.get("rulings") or [], spec)
    except ScenarioError as exc:
        raise exc.located(shown, first_line - 1, column, lines) from None
    except Exception as exc:  # noqa: BLE001 - whatever the script holds, an error for this file, never a traceback
        raise ScenarioError(f"the script cannot be compiled: {type(exc).__name__}: {exc}", shown, first_line, 1,
                            _line(lines, first_line)) from None
    return Scenario(
        id=data["id"], title=data["title"], clauses=tuple(data["clauses"]), faq=tuple(data.get("faq") or ()),
        rulings=tuple(data.get("rulings") or ()), tags=tuple(data.get("tags") or ()), script=data["script"],
        path=shown, script_line=first_line, steps=steps, notes=dict(data.get("ruling_notes") or {}),
        deck_named={st.line: len(st.options.get("deck", ())) for st in statements if isinstance(st, Setup)},
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
    """Every ``*.yaml`` scenario under the given files or folders, sorted."""
    out: list[Path] = []
    for p in map(Path, paths):
        out += sorted(p.rglob("*.yaml")) if p.is_dir() else [p]
    return out
