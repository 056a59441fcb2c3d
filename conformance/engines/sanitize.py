"""Engine-supplied text made safe for every output: XML, JSON, HTML and the terminal.

An engine's stderr, raw lines, names and event fields end up in ``results.json``, ``results.xml``,
the HTML report and the console. Control characters (ANSI escapes, NUL), bidi controls, lone
surrogates and the non-characters XML forbids are replaced by visible escapes (``\\x1b``, ``\\u202e``),
and long texts are cut with their length stated. Done once, where the engine's text enters a result.
"""

from __future__ import annotations

import math
import re

MAX_TEXT = 4000  # characters of one text (a raw line, a message) kept in the outputs
MAX_STDERR = 16000  # characters of the stderr tail kept
# C0 controls but tab and newline, DEL and C1, bidi embeddings/overrides/isolates and marks, surrogates, U+FFFE/F.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
                     "\ud800-\udfff\ufffe\uffff]")


def _escape(match: re.Match) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def clean(text: str, limit: int = MAX_TEXT) -> str:
    """``text`` with every unsafe character escaped, cut to ``limit`` characters (the cut says how long it was)."""
    if not isinstance(text, str):
        text = str(text)
    if len(text) > limit:
        text = f"{text[:limit]}... [truncated: {len(text)} characters in all]"
    return _UNSAFE.sub(_escape, text)


def clean_tail(text: str, limit: int = MAX_STDERR) -> str:
    """A log tail: its last ``limit`` characters (what came last matters most), made safe."""
    if len(text) > limit:
        text = f"[truncated: {len(text)} characters in all, the last {limit} follow]\n{text[-limit:]}"
    return _UNSAFE.sub(_escape, text)


def clean_value(value, limit: int = MAX_TEXT):
    """A JSON value from an engine with every string cleaned (keys too); numbers are already finite (wire.py)."""
    if isinstance(value, str):
        return clean(value, limit)
    if isinstance(value, dict):
        return {clean(str(k), limit): clean_value(v, limit) for k, v in value.items()}
    if isinstance(value, list):
        return [clean_value(v, limit) for v in value]
    if isinstance(value, float) and not math.isfinite(value):  # NaN or infinity from an in-process engine
        return None
    return value
