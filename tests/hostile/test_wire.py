"""Reading reply lines: the fast tests that let ordinary replies skip the slow paths must never let a
hostile one through (a long number, a huge exponent, a non-finite constant, a character to clean)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from baobei_conform.engines.sanitize import MAX_TEXT, clean_value
from baobei_conform.engines.wire import MAX_DEPTH, MAX_DIGITS, Unbounded, decode, depth, encode, loads, plain

ORDINARY = json.dumps({"seq": 3, "ok": True, "events": [{"kind": "drew", "player": 1, "card": "owl-3",
                                                          "clause": "2.6.2", "score": -12, "value": 1.5}]})


@pytest.mark.parametrize("text", [
    "1" * (MAX_DIGITS + 1), "-" + "9" * 500, "1." + "0" * (2 * MAX_DIGITS), "1e999", "1E+999",
    "NaN", "Infinity", "-Infinity",
])
def test_every_unbounded_number_is_refused_wherever_it_stands(text):
    for line in (text, f'{{"seq":1,"x":[0,{text}]}}', f'{{"seq":1,"ok":true,"events":[{{"v":{text}}}]}}'):
        with pytest.raises(Unbounded):
            decode(line.encode())


def test_bounded_numbers_and_lookalikes_in_text_decode_as_json():
    assert decode(ORDINARY.encode()) == json.loads(ORDINARY)
    lookalike = json.dumps({"card": "e000-1", "note": "0" * 100, "nan": "NaN is text here"})
    assert decode(lookalike.encode()) == json.loads(lookalike)  # strings: parsed slowly, still accepted
    assert decode(("1" * MAX_DIGITS).encode()) == int("1" * MAX_DIGITS)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(10 ** 30), max_value=10 ** 30)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4), max_leaves=20)


@given(JSON_VALUES, st.booleans())
def test_decoding_is_the_standard_librarys_whatever_reads_it(value, ensure_ascii):
    """orjson reads most lines (speed only): every value, wide integers and lone surrogates included, decodes as
    ``json.loads`` reads it, type for type."""
    line = json.dumps(value, ensure_ascii=ensure_ascii).encode("utf-8", "surrogatepass")
    try:
        want = json.loads(line)
    except ValueError:  # a lone surrogate written raw is not UTF-8: refused both ways
        with pytest.raises(ValueError):
            decode(line)
        return
    got = decode(line)
    assert got == want and repr(got) == repr(want)  # 10**25 stays an int, never 1e25


@pytest.mark.parametrize("text, value", [
    ("12345678901234567890123", 12345678901234567890123),  # beyond 64 bits: an int, as json reads it
    ('"\\ud800"', "\ud800"),  # an escaped lone surrogate: json accepts it, orjson does not
    ('{"a":1,"a":2}', {"a": 2}),  # the last of duplicate keys, both ways
    ("-0", 0), ("1.5e3", 1500.0),
])
def test_lines_orjson_reads_otherwise_are_read_as_json_reads_them(text, value):
    got = loads(text.encode())
    assert got == value and type(got) is type(value)
    assert decode(text.encode()) == value


def test_encoding_writes_one_compact_line_even_where_orjson_cannot():
    assert encode({"ok": True, "seq": 1}) == b'{"ok":true,"seq":1}\n'
    assert encode([1], end=False) == b"[1]"
    assert json.loads(encode({"n": 10 ** 30})) == {"n": 10 ** 30}  # beyond 64 bits: the standard library writes it


def test_nesting_beyond_the_bound_is_refused():
    with pytest.raises(Unbounded):
        decode(("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)).encode())


@pytest.mark.parametrize("text", [
    "\x1b[31mred", "nul\x00", "bell\x07", "back\bspace", "form\ffeed", "cr\r", "del\x7f", "c1\x85",
    "bidi\u202eevil", "mark\u200f", "isolate\u2066", "\ufffe", "caf\u00e9",
])
def test_a_line_with_anything_to_clean_is_not_plain(text):
    for ensure_ascii in (True, False):
        line = json.dumps({"seq": 1, "ok": True, "events": [{"kind": text}]}, ensure_ascii=ensure_ascii)
        assert not plain(line.encode(), MAX_TEXT), line
        assert clean_value(json.loads(line)) != json.loads(line) or text == "caf\u00e9"


def test_ordinary_lines_are_plain_and_long_ones_are_not():
    assert plain(ORDINARY.encode(), MAX_TEXT)
    assert plain(json.dumps({"t": 'quote " slash / back \\ tab \t nl \n'}).encode(), MAX_TEXT)
    assert not plain(json.dumps({"kind": "x" * MAX_TEXT}).encode(), MAX_TEXT)


def nesting(value) -> int:
    if isinstance(value, dict):
        return 1 + max(map(nesting, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(nesting, value), default=0)
    return 0


TRICKY_TEXT = st.text(alphabet='[]{}"\\\\/ a\u00e9\n', max_size=8)
JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | TRICKY_TEXT,
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TRICKY_TEXT, inner, max_size=3),
                           max_leaves=40)


@given(JSON_VALUES, st.booleans())
def test_depth_read_from_the_text_is_the_nesting_of_the_value(value, ensure_ascii):
    line = json.dumps(value, ensure_ascii=ensure_ascii).encode()
    assert depth(line) == min(nesting(value), MAX_DEPTH + 1)


def test_brackets_in_strings_hide_no_nesting():
    deep = "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
    for prefix in ('"]]]]]]]]",', '"\\\\\\"]]]]",', '{"k]]]]": 1},'):
        with pytest.raises(Unbounded):
            decode(f"[{prefix}{deep}]".encode())
    assert decode(('["' + "[" * 200 + '"]').encode()) == ["[" * 200]
