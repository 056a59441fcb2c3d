"""What the tool reads from its user, read one way everywhere: scenario and expectations files (YAML), results
shards, mutation, rulings and fuzz documents and engine manifests (JSON).

A path may name anything: a FIFO (reading it waits for a writer forever), a socket, ``/dev/zero`` (endless),
a file that grows while it is read. So only regular files are opened (checked before and after the open, which
never blocks), at most ``cap + 1`` bytes are read whatever ``st_size`` says, and YAML and JSON are bounded in
depth before anything recursive walks them. Every refusal is an ``InputError`` naming the file, and its line and
column where the text has them: never a traceback, never a hang.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from collections.abc import Iterable
from functools import cache
from pathlib import Path

import yaml

from baobei_conform.engines.sanitize import clean
from baobei_conform.engines.wire import Unbounded, decode
from baobei_spec import SPEC_ROOT

JSON_CAP = 256 << 20  # bytes of a JSON document (a results file with every engine reply at its cap stays below)
JSON_DEPTH = 100  # nesting of a JSON document: a results file needs the replies' 64 plus its own few
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present: 10x faster; safe after screening
LINE_BREAK = re.compile("\r\n|[\n\r\x85\u2028\u2029]")  # YAML's line breaks: its marks count lines by them
MAX_NUMBER = 40  # characters of a YAML number: none of our inputs needs more, int() of a long one is quadratic
_NOT_REGULAR = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"),
                (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"))
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)


class InputError(Exception):
    """An input the tool cannot use. ``str()`` gives ``file:line:col: message`` (``file: message`` without a
    position) and, when the offending line is known, the line with a caret under the column."""

    def __init__(self, message: str, file: str = "<input>", line: int = 0, column: int = 0, text: str = ""):
        self.message, self.file, self.line, self.column, self.text = message, file, line, column, text
        super().__init__(self.render())

    def heading(self) -> str:
        """``file:line:col: message``, on one line."""
        return f"{self.file}:{self.line}:{self.column}: {self.message}" if self.line else f"{self.file}: {self.message}"

    def render(self) -> str:
        out = self.heading()
        if self.text:
            out += f"\n    {self.text}\n    {' ' * max(self.column - 1, 0)}^"
        return out


def _not_regular(mode: int) -> str | None:
    return next((kind for test, kind in _NOT_REGULAR if test(mode)), None if stat.S_ISREG(mode) else "not a file")


def read_bytes(path: str | Path, cap: int, what: str = "this file") -> bytes:
    """The bytes of a regular file of at most ``cap`` bytes (``what``: the kind of file, for the message)."""
    shown = str(path)
    try:
        kind = _not_regular(os.stat(path).st_mode)  # before opening: opening a device may already do something
        if kind:
            raise InputError(f"not a regular file but {kind}: skipped", shown)
        fd = os.open(path, _OPEN_FLAGS)  # O_NONBLOCK: a FIFO swapped in since the stat does not block the open
    except OSError as exc:
        raise InputError(f"cannot read: {exc}", shown) from None
    try:
        kind = _not_regular(os.fstat(fd).st_mode)
        if kind:
            raise InputError(f"not a regular file but {kind}: skipped", shown)
        chunks, size = [], 0
        while size <= cap:
            chunk = os.read(fd, min(cap + 1 - size, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise InputError(f"cannot read: {exc}", shown) from None
    finally:
        os.close(fd)
    if size > cap:
        raise InputError(f"the file has more than {cap} bytes; {what} has at most {cap}", shown)
    return b"".join(chunks)


def content_digest(files: Iterable[tuple[str, Path]], cap: int) -> str:
    """``sha256:HEX`` over ``(relative path, file)`` pairs, sorted by path: each path, then its length and bytes."""
    digest = hashlib.sha256()
    for name, path in sorted(files):
        try:
            data = read_bytes(path, cap)
        except InputError:
            data = None
        digest.update(name.encode("utf-8", "surrogateescape") + b"\0")
        digest.update(b"unreadable\0" if data is None else b"%d\0" % len(data) + data)
    return f"sha256:{digest.hexdigest()}"


def line_of(lines: list[str], number: int) -> str:
    """Line ``number`` (1-based) of a text split into ``lines``, or "" past its end."""
    return lines[number - 1] if 0 < number <= len(lines) else ""


def located(message: str, shown: str, text: str, offset: int) -> InputError:
    """An error at a character offset of a file's text."""
    line = text.count("\n", 0, offset) + 1
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    return InputError(message, shown, line, offset - start + 1, text[start:end if end >= 0 else len(text)])


def decode_text(data: bytes, shown: str) -> str:
    """UTF-8 text (a leading BOM dropped); a bad byte is an error at its line and column."""
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        good = data[:exc.start].decode("utf-8")
        raise located(f"not UTF-8: byte 0x{data[exc.start]:02x} cannot start or continue a character", shown,
                      good + data[exc.start:].decode("utf-8", "replace"), len(good)) from None


def read_text(path: str | Path, cap: int, what: str = "this file") -> str:
    """A regular file's UTF-8 text, at most ``cap`` bytes."""
    return decode_text(read_bytes(path, cap, what), str(path))


# --- YAML -----------------------------------------------------------------------------------------------


def _screen(text: str, shown: str, lines: list[str], what: str, max_depth: int) -> None:
    """Refuse what none of our YAML inputs needs and what would blow YAML up: deep nesting, anchors and aliases
    (alias bombs), explicit tags, numbers too long to convert. Read as events, which nests no Python calls."""
    resolver = yaml.resolver.Resolver()
    depth = 0

    def fail(message: str, event) -> None:
        mark = event.start_mark
        raise InputError(message, shown, mark.line + 1, mark.column + 1, line_of(lines, mark.line + 1))

    for event in yaml.parse(text, Loader=LOADER):
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
            fail(f"anchors and aliases (&name, *name) are not allowed in {what}", event)
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > max_depth:
                fail(f"nested more than {max_depth} levels deep", event)
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
        if isinstance(event, yaml.NodeEvent) and getattr(event, "tag", None):  # the parser leaves implicit tags unset
            fail(f"explicit YAML tags ({event.tag}) are not allowed in {what}", event)
        if isinstance(event, yaml.ScalarEvent) and not event.style and len(event.value) > MAX_NUMBER and \
                resolver.resolve(yaml.ScalarNode, event.value, (True, False)).endswith((":int", ":float")):
            fail(f"a number of {len(event.value)} characters ({what} has no number longer than {MAX_NUMBER})",
                 event)


def load_yaml(text: str, shown: str, what: str, max_depth: int) -> tuple[yaml.Node | None, object, list[str]]:
    """The one way a YAML input is read: screened (``_screen``), then composed and constructed with the safe
    loader. Returns the node tree (for positions), the data and the text's lines; an ``InputError`` at
    file:line:col otherwise."""
    lines = LINE_BREAK.split(text)
    try:
        _screen(text, shown, lines, what, max_depth)
        loader = LOADER(text)  # composing nests a call per level: only after _screen bounded the depth
        try:
            root = loader.get_single_node()
            data = loader.construct_document(root) if root is not None else None
        finally:
            loader.dispose()
    except yaml.reader.ReaderError as exc:  # a character YAML refuses: located by its offset
        raise located(f"not valid YAML: character {exc.character!r} is not allowed", shown, text,
                      exc.position) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line, col = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        raise InputError(f"not valid YAML: {getattr(exc, 'problem', None) or exc}", shown, line, col,
                         line_of(lines, line)) from None
    return root, data, lines


# --- JSON -----------------------------------------------------------------------------------------------


def load_json(path: str | Path, what: str, cap: int = JSON_CAP, max_depth: int = JSON_DEPTH):
    """A JSON file's value: at most ``cap`` bytes, ``max_depth`` levels, numbers finite and of bounded width
    (wire.py, as for an engine's replies)."""
    shown = str(path)
    data = read_bytes(path, cap, what)
    try:
        return decode(data, max_depth)
    except Unbounded as exc:
        raise InputError(f"not usable as {what}: {exc}", shown) from None
    except ValueError:
        pass
    text = decode_text(data, shown)  # not JSON: the standard library says where
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"not JSON: {exc.msg}", shown, exc.lineno, exc.colno,
                         line_of(text.split("\n"), exc.lineno)[:200]) from None
    raise InputError("not JSON", shown)


@cache
def _validator(name: str):
    """A validator of ``spec/schemas/NAME``, with every schema of that folder available to its ``$ref``s."""
    import jsonschema
    from referencing import Registry, Resource

    schemas = {p.name: json.loads(p.read_text(encoding="utf-8")) for p in (SPEC_ROOT / "schemas").glob("*.json")}
    registry = Registry().with_resources((s["$id"], Resource.from_contents(s)) for s in schemas.values())
    return jsonschema.Draft202012Validator(schemas[name], registry=registry), schemas[name]


def checked(document, schema: str, shown: str, what: str):
    """``document`` if it is valid against ``spec/schemas/SCHEMA``, else an ``InputError`` naming the file, the
    JSON path of the first problem and what is wrong there."""
    validator, root = _validator(schema)
    identity = root.get("properties", {}).get("schema", {}).get("const")
    if identity and (not isinstance(document, dict) or document.get("schema") != identity):
        raise InputError(f"not {what} (schema {identity!r} expected)", shown)
    import jsonschema

    error = jsonschema.exceptions.best_match(validator.iter_errors(document))
    if error is None:
        return document
    raise InputError(f"not {what}: {error.json_path}: {clean(error.message, 300)}", shown)
