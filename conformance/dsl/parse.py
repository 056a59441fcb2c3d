"""Parse a script with the LALR grammar into the typed AST; errors name line, column and a caret."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from lark import Lark, Token, Transformer, Tree, UnexpectedCharacters, UnexpectedInput, UnexpectedToken, v_args
from lark.tree import Meta

from baobei_conform.dsl import statements
from baobei_conform.dsl.ast import (
    Act,
    Action,
    Check,
    Expect,
    NewGame,
    Reject,
    Replay,
    Setup,
    SetupState,
    ShuffleSpecies,
    Statement,
    Under,
)
from baobei_conform.dsl.bounds import number_problems
from baobei_conform.dsl.errors import ScenarioError
from baobei_conform.dsl.names import name_problems
from baobei_spec import Spec, default_spec

GRAMMAR = Path(__file__).with_name("grammar.lark")
Item = tuple[str, Any, tuple[int, int]]  # a setup item: its option key, its value, where it is written
Field = tuple[str, object]  # an event field of a check: its name and value


@cache
def parser() -> Lark:
    """The LALR parser, built once."""
    return Lark(GRAMMAR.read_text(encoding="utf-8"), parser="lalr", propagate_positions=True)


@cache
def _check_kinds() -> dict[str, str]:
    """Statement form -> check kind (spec/vocabulary.yaml)."""
    return default_spec().vocabulary.forms()


def _value(token: Token) -> int | str | list[int]:
    """A field's value from its token: players and counts as numbers, slots as [player, slot], words as text."""
    if token.type == "PLAYER":
        return _player(token)
    if token.type == "TARGET":
        return list(_target(token))
    return int(token) if token.type in ("INT", "SIGNED_INT") else str(token)


def _player(token: Token) -> int:
    return int(str(token)[1:])


def _target(token: Token) -> tuple[int, int]:
    owner, slot = str(token)[1:].split(".")
    return int(owner), int(slot)


def _item(meta: Meta, key: str, value: object) -> Item:
    """A setup item: its option key, its value and where it is written (its errors point there)."""
    return key, value, (meta.line, meta.column)


@v_args(meta=True)
class ToAst(Transformer[Token, list[Statement]]):
    """Tree -> typed AST. Setup items become ``baobei_spec.position.SetupOptions``; actions their wire form."""

    def start(self, meta: Meta, stmts: list[Statement]) -> list[Statement]:
        return list(stmts)

    def reading_block(self, meta: Meta, c: list[Any]) -> Under:
        readings = tuple(str(t) for t in c[1:] if getattr(t, "type", None) == "READING")
        return Under(meta.line, str(c[0]), readings, tuple(c[1 + len(readings):]))

    # --- table ---
    def new_game(self, meta: Meta, c: list[Any]) -> NewGame:
        return NewGame(meta.line, int(c[0]))

    def reject_new_game(self, meta: Meta, c: list[Any]) -> NewGame:
        return NewGame(meta.line, int(c[1]), str(c[0]))

    def setup(self, meta: Meta, items: list[Item]) -> Setup:
        options: dict[str, Any] = {}
        places: dict[str, tuple[int, int]] = {}
        for key, value, place in items:
            if key == "zones":
                options.setdefault("zones", {}).update(value)
                places.update({f"zones.{p}": place for p in value})
                continue
            if key == "known":
                options.setdefault("known", {}).setdefault(value[0], []).extend(value[1])
                places.setdefault(f"p{value[0]} knows", place)  # the path the builder's errors name
                continue
            elif key in ("values", "rules"):
                options.setdefault(key, {}).update(value)
            else:
                options[key] = value
            places.setdefault(key, place)
        return Setup(meta.line, options, places)

    def setup_raw(self, meta: Meta, c: list[Any]) -> SetupState:
        return SetupState(meta.line, json.loads(c[0]))

    def zone(self, meta: Meta, c: list[Any]) -> Item:
        return _item(meta, "zones", {_player(c[0]): [s for s in c[1:]]})

    def slot(self, meta: Meta, c: list[Any]) -> str | None:
        return None if c[0] == "_" else str(c[0])

    def deck(self, meta: Meta, c: list[Any]) -> Item:
        return _item(meta, "deck", [str(s) for s in c])

    def discard(self, meta: Meta, c: list[Any]) -> Item:
        return _item(meta, "discard", [str(s) for s in c])

    def under(self, meta: Meta, c: list[Any]) -> Item:
        return _item(meta, "under", [str(s) for s in c])

    def rest(self, meta: Meta, c: list[Any]) -> Item:
        return _item(meta, "rest", str(c[0]))

    def active(self, meta: Meta, c: list[Any]) -> Item:
        return _item(meta, "active", _player(c[0]))

    def holds(self, meta: Meta, c: list[Any]) -> Item:
        return _item(meta, "drawn", str(c[0]))

    def knows(self, meta: Meta, c: list[Any]) -> Item:
        return _item(meta, "known", (_player(c[0]), [_target(t) for t in c[1:]]))

    def scores(self, meta: Meta, c: list[Any]) -> Item:
        return _item(meta, "scores", [int(x) for x in c])

    def bao(self, meta: Meta, c: list[Any]) -> Item:
        return _item(meta, "bao", _player(c[0]))

    def shield(self, meta: Meta, c: list[Any]) -> Item:
        return _item(meta, "shield", str(c[0]))

    def recycles(self, meta: Meta, c: list[Any]) -> Item:
        return _item(meta, "recycles", int(c[0]))

    def final_phase(self, meta: Meta, c: list[Any]) -> Item:
        return _item(meta, "final_phase", True)

    def last_turns(self, meta: Meta, c: list[Any]) -> Item:
        return _item(meta, "last_turns", [_player(p) for p in c])

    def round(self, meta: Meta, c: list[Any]) -> Item:
        return _item(meta, "round", int(c[0]))

    def threshold(self, meta: Meta, c: list[Any]) -> Item:
        return _item(meta, "threshold", int(c[0]))

    def value(self, meta: Meta, c: list[Any]) -> Item:
        return _item(meta, "values", {str(c[0]): (int(c[1]), meta.line)})

    def rule(self, meta: Meta, c: list[Any]) -> Item:
        return _item(meta, "rules", {str(c[0]): (int(c[1]), meta.line)})

    def unreachable(self, meta: Meta, c: list[Any]) -> Item:
        return _item(meta, "unreachable", str(c[0])[1:-1].strip())

    # --- decisions ---
    def act(self, meta: Meta, c: list[Any]) -> Act:
        return Act(meta.line, c[0])

    def reject(self, meta: Meta, c: list[Any]) -> Reject:
        return Reject(meta.line, str(c[0]), c[1])

    def replay(self, meta: Meta, c: list[Any]) -> Replay:
        return Replay(meta.line)

    # An action's statement is a form of the one statement <-> action table (statements.py), built by
    # ``__default__``; these are the statements made of parts.
    def pluck(self, meta: Meta, c: list[Any]) -> Action:
        plucked: Action = c[0]
        return plucked

    def simultaneous(self, meta: Meta, c: list[Any]) -> Action:
        return statements.simultaneous(c)

    def replacement(self, meta: Meta, c: list[Any]) -> tuple[tuple[int, int], int]:
        return _target(c[0]), int(c[1]) - 1  # "with drawn 1" is the first drawn card

    def shoebill(self, meta: Meta, c: list[Any]) -> Action:
        return statements.shoebill(_player(c[0]), c[1:])

    def shoebill_nothing(self, meta: Meta, c: list[Any]) -> Action:
        return statements.shoebill(_player(c[0]), [])

    def shuffle(self, meta: Meta, c: list[Any]) -> ShuffleSpecies:
        return statements.shuffle([str(s) for s in c])

    # --- expectations ---
    def expect(self, meta: Meta, c: list[Any]) -> Expect:
        return Expect(meta.line, c[0])

    def __default__(self, data: Token, children: list[Any], meta: Meta) -> object:
        """A ``field_NAME`` rule is (NAME, value); an action's form is its action (statements.py); a check form
        made only of fields is that check (the vocabulary names its kind): a new check of that shape needs no code
        here."""
        if data.startswith("field_"):
            return data.removeprefix("field_"), _value(children[0])
        form = statements.BY_RULE.get(data)
        if form is not None:
            return form.build([_value(c) if isinstance(c, Token) else c for c in children])
        kind = _check_kinds().get(data)
        if kind is not None and children and all(isinstance(c, tuple) for c in children):
            return Check(kind, dict(children))
        return Tree(data, children, meta)  # lark's default: the node kept

    def slot_empty(self, meta: Meta, c: list[Any]) -> Check:
        return Check("slot", {**dict(c), "species": None})

    def sees_hidden(self, meta: Meta, c: list[Any]) -> Check:
        return Check("view", {**dict(c), "species": None})

    def discard_is(self, meta: Meta, c: list[Any]) -> Check:
        return Check("discard", {"species": [str(s) for s in c]})

    def pending(self, meta: Meta, c: list[Any]) -> Check:
        return Check("pending", {"kind": str(c[0]), "players": [_player(p) for p in c[1:]]})

    def event(self, meta: Meta, c: list[Any]) -> Check:
        args: dict[str, Any] = {"kind": str(c[0]), "present": True}
        for tok in c[1:]:
            if isinstance(tok, dict):
                args["fields"] = tok
            elif tok.type == "PLAYER":
                args["player"] = _player(tok)
            else:
                args["clause"] = str(tok)
        return Check("event", args)

    def no_event(self, meta: Meta, c: list[Any]) -> Check:
        check = self.event(meta, c)
        check.args["present"] = False
        return check

    def event_fields(self, meta: Meta, c: list[Any]) -> dict[str, object]:
        return dict(c)

    def event_field(self, meta: Meta, c: list[Any]) -> Field:
        return str(c[0]), _value(c[1])

    def final_phase_is(self, meta: Meta, c: list[Any]) -> Check:
        return Check("final_phase", {"value": True})

    def no_final_phase(self, meta: Meta, c: list[Any]) -> Check:
        return Check("final_phase", {"value": False})

    def no_bao(self, meta: Meta, c: list[Any]) -> Check:
        return Check("bao", {"player": None})

    def last_turns_is(self, meta: Meta, c: list[Any]) -> Check:
        return Check("last_turns", {"players": [_player(p) for p in c]})

    def no_last_turns(self, meta: Meta, c: list[Any]) -> Check:
        return Check("last_turns", {"players": None})

    def round_table(self, meta: Meta, c: list[Any]) -> Check:
        return Check("round_table", {"player": _player(c[0]), "species": list(c[1:])})

    def under_is(self, meta: Meta, c: list[Any]) -> Check:
        return Check("under", {"species": [str(s) for s in c]})

    def raw(self, meta: Meta, c: list[Any]) -> object:
        return json.loads(c[0])  # valid: raw_problems read it before

    def state_is(self, meta: Meta, c: list[Any]) -> Check:
        return Check("state_json", {"path": str(c[0]), "value": json.loads(c[1])})

    def view_is(self, meta: Meta, c: list[Any]) -> Check:
        return Check("view_json", {"viewer": _player(c[0]), "path": str(c[1]), "value": json.loads(c[2])})

    def events_are(self, meta: Meta, c: list[Any]) -> Check:
        return Check("event_list", {"events": json.loads(c[0])})

    def legal_is(self, meta: Meta, c: list[Any]) -> Check:
        return _legal(meta, c[0], True)

    def not_legal(self, meta: Meta, c: list[Any]) -> Check:
        return _legal(meta, c[0], False)


def _legal(meta: Meta, act: Action | ShuffleSpecies, listed: bool) -> Check:
    if isinstance(act, ShuffleSpecies):
        raise ScenarioError("a shuffle names cards by species: its legality cannot be checked", line=meta.line,
                            column=meta.column)
    return Check("legal", {"action": act, "listed": listed})


def _place(token: Token) -> tuple[int, int]:
    """A token's (line, column): the lexer places every token of a parse (``Token`` types both as optional)."""
    return token.line or 0, token.column or 0


def raw_problems(tree: Tree[Token]) -> list[tuple[str, Token]]:
    """(message, token) for each raw JSON of the script that is no JSON, and each ``expect events are`` that is no
    list of events (objects with a string ``kind``)."""
    out = []
    for node in tree.iter_subtrees():
        for token in (c for c in node.children if isinstance(c, Token) and c.type == "JSON"):
            try:
                value = json.loads(str(token))
            except (ValueError, RecursionError) as exc:
                line, column = _place(token)
                at = Token("JSON", "", line=line, column=column + getattr(exc, "pos", 0))
                out.append((f"not JSON: {getattr(exc, 'msg', exc)} (JSON runs to the end of the line)", at))
                continue
            if node.data == "events_are" and not (isinstance(value, list) and all(
                    isinstance(e, dict) and isinstance(e.get("kind"), str) for e in value)):
                out.append(("'expect events are' takes a JSON list of events, each an object with a kind", token))
    return out


_DESCRIBED = {"_NL": "end of line", "TARGET": "a slot like p1.3", "PLAYER": "a player like p1",
              "SPECIES": "a species", "INT": "a number", "SIGNED_INT": "a number", "CLAUSE": "a clause id",
              "EVENT": "an event kind", "DECISION": "a decision kind", "ERROR_CODE": "an error code",
              "RULING": "a ruling id like R-05", "READING": "a reading letter like A",
              "FIELD": "an event field", "RULE_NAME": "a rule parameter",
              "JSON": "JSON", "JSON_PATH": "a path like pending.players or zones.1[0]"}


def _describe(name: str) -> str:
    if name in _DESCRIBED:
        return _DESCRIBED[name]
    try:
        pattern = parser().get_terminal(name).pattern
    except KeyError:
        return name.lower()
    return repr(pattern.value) if pattern.type == "str" else name.lower()


def _expected(exc: UnexpectedInput) -> str:
    names = getattr(exc, "expected", None) or getattr(exc, "allowed", None) or ()
    shown = sorted({_describe(n) for n in names})
    return ", ".join(shown[:14]) + (" ..." if len(shown) > 14 else "")


def parse_script(text: str, spec: Spec | None = None) -> list[Statement]:
    """The AST of ``text``; a syntax error, a number out of its bounds (bounds.py), an unknown name, a player not
    at the table or a slot that cannot exist is a ScenarioError with line, column, caret and what was expected
    (all of them)."""
    if not text.endswith("\n"):
        text += "\n"
    lines = text.split("\n")
    try:
        tree = parser().parse(text)
    except UnexpectedInput as exc:
        line = exc.line if exc.line and exc.line > 0 else len(lines)
        source = lines[line - 1] if 0 < line <= len(lines) else ""
        if isinstance(exc, UnexpectedToken) and exc.token.type == "$END":
            message = f"the script ends too early; expected {_expected(exc)}"
        elif isinstance(exc, UnexpectedCharacters):
            message = f"unexpected {source[exc.column - 1:exc.column]!r}; expected {_expected(exc)}"
        else:
            message = f"unexpected {str(getattr(exc, 'token', '')).strip()!r}; expected {_expected(exc)}"
        raise ScenarioError(message, line=line, column=exc.column if exc.column > 0 else 1, text=source) from None
    spec = spec or default_spec()
    problems = raw_problems(tree) + (number_problems(tree, spec) or name_problems(tree, spec))  # names count seats
    problems.sort(key=lambda problem: _place(problem[1]))
    places = [(message, *_place(t)) for message, t in problems]
    errors = [ScenarioError(message, line=line, column=column, text=lines[line - 1])
              for message, line, column in places]
    if errors:
        first = errors[0]
        raise ScenarioError(first.message, line=first.line, column=first.column, text=first.text,
                            more=tuple(errors[1:]))
    return ToAst().transform(tree)
