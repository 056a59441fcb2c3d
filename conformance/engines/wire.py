"""Reading an engine's reply line: bounded in depth and number size, never NaN, never a worker's death.

An engine is someone else's program: a reply nested a thousand levels deep, an integer of ten thousand
digits or ``NaN`` would crash or poison what reads it later (the checks, the JSON and JUnit writers,
a browser's ``JSON.parse``). ``decode`` turns each into a ``ValueError`` the client reports as that
scenario's protocol error. A JSON file a user gives is read by the same ``decode`` (inputs.py), so this
module sits beside the protocol rather than inside it.
"""

from __future__ import annotations

import json
import re

import orjson

MAX_DEPTH = 64  # nesting of arrays and objects; a canonical state needs 5
MAX_DIGITS = 40  # digits of a number; scores and counts need a handful
# orjson reads a line unless it holds a wide number: orjson would read a float where json reads an integer,
# and a number of more than MAX_DIGITS digits must be refused. The test runs at C speed on every reply:
# digits and points become "0", so a wide number is a run of "0" (in a string too: a false alarm only costs
# time). Whatever orjson refuses (not JSON, NaN, 1e999, a lone surrogate escape) the standard library reads
# with the bounds below, which decide.
_SHAPE = bytes.maketrans(b"0123456789.", b"00000000000")
_WIDE = b"0" * 19  # may not fit 64 bits, or be too long
_PRINTABLE = bytes(range(0x20, 0x7F))
_ESCAPE = re.compile(rb'\\[^"/nt]')  # an escape that may stand for a character the outputs must not carry


class Unbounded(ValueError):
    """JSON, but nested too deeply, with a number too long, or not finite."""


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise Unbounded(f"an integer of {len(text)} digits (at most {MAX_DIGITS})")
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if len(text) > 2 * MAX_DIGITS or value in (float("inf"), float("-inf")):
        raise Unbounded(f"a number out of range: {text[:20]}...")
    return value


def _constant(name: str):
    raise Unbounded(f"{name} is not a JSON number")


_BRACKETS = bytes.maketrans(b"{}", b"[]")
_NOT_STRUCTURE = bytes(sorted(set(range(256)) - set(b'[]{}"')))


def depth(line: bytes, limit: int = MAX_DEPTH) -> int:
    """How deeply arrays and objects nest in a line of valid JSON, up to ``limit + 1``, at C speed.

    Escaped backslashes and quotes go first (only in a line that has a backslash), so the quotes left delimit
    strings; then only brackets and quotes are kept: each string is its two quotes around the brackets it holds.
    Strings holding none are ``""`` pairs, dropped in one pass, which never pairs two strings' quotes while each
    string before them was a pair; when a quote is left (a string holds a bracket) the text between the quotes is
    set aside. What remains is the structure, as one kind of bracket; each pass then removes the innermost pairs
    (``replace`` does not rescan what it joined), so the passes count the levels. Splitting the whole line at its
    quotes instead took 4 times as long on a state (a few hundred strings): every reply's cost (measured).
    """
    text = line.replace(b"\\\\", b"").replace(b'\\"', b"") if b"\\" in line else line
    kept = text.translate(None, _NOT_STRUCTURE)
    structure = kept.replace(b'""', b"")
    if b'"' in structure:
        structure = b"".join(kept.split(b'"')[::2])
    structure = structure.translate(_BRACKETS)
    levels = 0
    while structure and levels <= limit:
        structure, levels = structure.replace(b"[]", b""), levels + 1
    return levels


def plain(line: bytes, limit: int) -> bool:
    """Nothing in this line needs cleaning (sanitize.py): printable ASCII, harmless escapes, no text over ``limit``."""
    if len(line) > limit or line.translate(None, _PRINTABLE):
        return False
    return b"\\" not in line or not _ESCAPE.search(line.replace(b"\\\\", b""))  # escaped backslashes set aside


_ENCODE = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode


def encode(value, end: bool = True) -> bytes:
    """One compact line of JSON, UTF-8, with its newline unless ``end`` is false (orjson; the standard library
    for what orjson does not write, such as an integer beyond 64 bits)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_APPEND_NEWLINE) if end else orjson.dumps(value)
    except TypeError:
        return (_ENCODE(value) + "\n" * end).encode()


def _read(line: bytes | str, standard):
    """orjson's value of the line unless it may hold a wide number or orjson refuses it: then ``standard``'s
    (the standard library's reading, which decides with its own answer or error)."""
    if isinstance(line, bytes) and _WIDE not in line.translate(_SHAPE):
        try:
            return orjson.loads(line)
        except orjson.JSONDecodeError:
            pass
    return standard(line)


def loads(line: bytes | str):
    """``json.loads`` at orjson's speed, with the same answer."""
    return _read(line, json.loads)  # bytes: decoded as UTF-8 by json itself


def _bounded(line: bytes | str):
    return json.loads(line, parse_int=_int, parse_float=_float, parse_constant=_constant)


def decode(line: bytes, limit: int = MAX_DEPTH):
    """The JSON value of one line (or of a whole file: inputs.py) nested at most ``limit`` levels; ValueError when
    it is not JSON, Unbounded (with the reason) beyond the bounds."""
    try:
        value = _read(line, _bounded)
    except RecursionError:
        raise Unbounded(f"nested more than {limit} levels deep") from None
    except Unbounded:
        raise
    except ValueError:  # not JSON, not UTF-8
        raise ValueError("not JSON") from None
    # More than ``limit`` levels take 2 bytes each and as many opening brackets (counted at C speed: most replies,
    # views and events, have fewer, and skip the structure's passes).
    if len(line) > 2 * limit and line.count(b"[") + line.count(b"{") > limit and depth(line, limit) > limit:
        raise Unbounded(f"nested more than {limit} levels deep")
    return value
