"""Scenario files: YAML metadata plus a script, validated against the spec, compiled to steps.

A scenario lives at ``scenarios/<part>/<id>.yaml``; its ``id`` is the file name, stable and never
reused. Every error names the file, the line and column, and shows the offending text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from baobei_conform.dsl.compile import compile_script
from baobei_conform.dsl.errors import ScenarioError, nearest
from baobei_conform.dsl.parse import parse_script
from baobei_spec import Spec, default_spec

FIELDS = {"id": str, "title": str, "clauses": list, "faq": list, "rulings": list, "tags": list, "script": str}
REQUIRED = ("id", "title", "clauses", "script")


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

    def file_line(self, script_line: int) -> int:
        return self.script_line + script_line - 1


def _node_of(mapping: yaml.MappingNode, key: str):
    for k, v in mapping.value:
        if k.value == key:
            return v
    return None


def load_scenario(path: str | Path, spec: Spec | None = None) -> Scenario:
    """Load, validate and compile one scenario file; raise ScenarioError naming file:line:col."""
    path = Path(path)
    shown = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ScenarioError(f"cannot read: {exc}", shown) from None
    lines = text.split("\n")
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line, col = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        raise ScenarioError(f"not valid YAML: {getattr(exc, 'problem', exc)}", shown, line, col,
                            lines[line - 1] if line else "") from None
    if not isinstance(data, dict) or not isinstance(root, yaml.MappingNode):
        raise ScenarioError("a scenario is a YAML mapping with id, title, clauses and script", shown, 1, 1, lines[0])

    def fail(message: str, key: str, index: int | None = None):
        node = _node_of(root, key)
        if node is not None and index is not None and isinstance(node, yaml.SequenceNode) and index < len(node.value):
            node = node.value[index]
        mark = node.start_mark if node is not None else root.start_mark
        raise ScenarioError(message, shown, mark.line + 1, mark.column + 1, lines[mark.line])

    for key in data:
        if key not in FIELDS:
            fail(f"unknown field {key!r}; fields are {', '.join(FIELDS)}", key)
    for key in REQUIRED:
        if key not in data:
            raise ScenarioError(f"missing field {key!r}", shown, 1, 1, lines[0])
    for key, kind in FIELDS.items():
        if key in data and not isinstance(data[key], kind):
            fail(f"{key} must be a {kind.__name__}", key)
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

    script_node = _node_of(root, "script")
    # A block scalar ("script: |") starts on the line after its indicator.
    block = script_node.style in ("|", ">")
    first_line = script_node.start_mark.line + (2 if block else 1)
    column = 0
    if block and first_line - 1 < len(lines):
        body = lines[first_line - 1]
        column = len(body) - len(body.lstrip(" "))
    try:
        steps = compile_script(parse_script(data["script"], spec))
    except ScenarioError as exc:
        raise exc.located(shown, first_line - 1, column, lines) from None
    return Scenario(
        id=data["id"], title=data["title"], clauses=tuple(data["clauses"]), faq=tuple(data.get("faq") or ()),
        rulings=tuple(data.get("rulings") or ()), tags=tuple(data.get("tags") or ()), script=data["script"],
        path=shown, script_line=first_line, steps=steps,
    )


def scenario_files(paths) -> list[Path]:
    """Every ``*.yaml`` scenario under the given files or folders, sorted."""
    out: list[Path] = []
    for p in map(Path, paths):
        out += sorted(p.rglob("*.yaml")) if p.is_dir() else [p]
    return out
