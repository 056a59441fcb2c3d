"""Parse a script with the LALR grammar into the typed AST; errors name line, column and a caret."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from lark import Lark, Token, Transformer, UnexpectedCharacters, UnexpectedInput, UnexpectedToken, v_args

from baobei_conform.dsl import statements
from baobei_conform.dsl.ast import (
    Act,
    Check,
    Expect,
    NewGame,
    Reject,
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


@cache
def parser() -> Lark:
    """The LALR parser, built once."""
    return Lark(GRAMMAR.read_text(encoding="utf-8"), parser="lalr", propagate_positions=True)


@cache
def _check_kinds() -> dict[str, str]:
    """Statement form -> check kind (spec/vocabulary.yaml)."""
    return default_spec().vocabulary.forms()


def _value(token):
    """A field's value from its token: players and counts as numbers, slots as [player, slot], words as text."""
    if token.type == "PLAYER":
        return _player(token)
    if token.type == "TARGET":
        return list(_target(token))
    return int(token) if token.type in ("INT", "SIGNED_INT") else str(token)


def _player(token) -> int:
    return int(str(token)[1:])


def _target(token) -> tuple[int, int]:
    owner, slot = str(token)[1:].split(".")
    return int(owner), int(slot)


def _item(meta, key: str, value) -> tuple[str, object, tuple[int, int]]:
    """A setup item: its option key, its value and where it is written (its errors point there)."""
    return key, value, (meta.line, meta.column)


@v_args(meta=True)
class ToAst(Transformer):
    """Tree -> typed AST. Setup items become ``baobei_spec.position.SetupOptions``; actions their wire form."""

    def start(self, meta, stmts) -> list[Statement]:
        return list(stmts)

    def reading_block(self, meta, c):
        readings = tuple(str(t) for t in c[1:] if getattr(t, "type", None) == "READING")
        return Under(meta.line, str(c[0]), readings, tuple(c[1 + len(readings):]))

    # --- table ---
    def new_game(self, meta, c):
        return NewGame(meta.line, int(c[0]))

    def reject_new_game(self, meta, c):
        return NewGame(meta.line, int(c[1]), str(c[0]))

    def setup(self, meta, items):
        options: dict = {}
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

    def setup_raw(self, meta, c):
        return SetupState(meta.line, json.loads(c[0]))

    def zone(self, meta, c):
        return _item(meta, "zones", {_player(c[0]): [s for s in c[1:]]})

    def slot(self, meta, c):
        return None if c[0] == "_" else str(c[0])

    def deck(self, meta, c):
        return _item(meta, "deck", [str(s) for s in c])

    def discard(self, meta, c):
        return _item(meta, "discard", [str(s) for s in c])

    def under(self, meta, c):
        return _item(meta, "under", [str(s) for s in c])

    def rest(self, meta, c):
        return _item(meta, "rest", str(c[0]))

    def active(self, meta, c):
        return _item(meta, "active", _player(c[0]))

    def holds(self, meta, c):
        return _item(meta, "drawn", str(c[0]))

    def knows(self, meta, c):
        return _item(meta, "known", (_player(c[0]), [_target(t) for t in c[1:]]))

    def scores(self, meta, c):
        return _item(meta, "scores", [int(x) for x in c])

    def bao(self, meta, c):
        return _item(meta, "bao", _player(c[0]))

    def shield(self, meta, c):
        return _item(meta, "shield", str(c[0]))

    def recycles(self, meta, c):
        return _item(meta, "recycles", int(c[0]))

    def final_phase(self, meta, c):
        return _item(meta, "final_phase", True)

    def last_turns(self, meta, c):
        return _item(meta, "last_turns", [_player(p) for p in c])

    def round(self, meta, c):
        return _item(meta, "round", int(c[0]))

    def threshold(self, meta, c):
        return _item(meta, "threshold", int(c[0]))

    def value(self, meta, c):
        return _item(meta, "values", {str(c[0]): (int(c[1]), meta.line)})

    def rule(self, meta, c):
        return _item(meta, "rules", {str(c[0]): (int(c[1]), meta.line)})

    def unreachable(self, meta, c):
        return _item(meta, "unreachable", str(c[0])[1:-1].strip())

    # --- decisions ---
    def act(self, meta, c):
        return Act(meta.line, c[0])

    def reject(self, meta, c):
        return Reject(meta.line, str(c[0]), c[1])

    # An action's statement is a form of the one statement <-> action table (statements.py), built by
    # ``__default__``; these are the statements made of parts.
    def pluck(self, meta, c):
        return c[0]

    def simultaneous(self, meta, c):
        return statements.simultaneous(c)

    def replacement(self, meta, c):
        return _target(c[0]), int(c[1]) - 1  # "with drawn 1" is the first drawn card

    def shoebill(self, meta, c):
        return statements.shoebill(_player(c[0]), c[1:])

    def shoebill_nothing(self, meta, c):
        return statements.shoebill(_player(c[0]), [])

    def shuffle(self, meta, c):
        return statements.shuffle([str(s) for s in c])

    # --- expectations ---
    def expect(self, meta, c):
        return Expect(meta.line, c[0])

    def __default__(self, data, children, meta):
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
        return super().__default__(data, children, meta)

    def slot_empty(self, meta, c):
        return Check("slot", {**dict(c), "species": None})

    def sees_hidden(self, meta, c):
        return Check("view", {**dict(c), "species": None})

    def discard_is(self, meta, c):
        return Check("discard", {"species": [str(s) for s in c]})

    def pending(self, meta, c):
        return Check("pending", {"kind": str(c[0]), "players": [_player(p) for p in c[1:]]})

    def event(self, meta, c):
        args: dict = {"kind": str(c[0]), "present": True}
        for tok in c[1:]:
            if isinstance(tok, dict):
                args["fields"] = tok
            elif tok.type == "PLAYER":
                args["player"] = _player(tok)
            else:
                args["clause"] = str(tok)
        return Check("event", args)

    def no_event(self, meta, c):
        check = self.event(meta, c)
        check.args["present"] = False
        return check

    def event_fields(self, meta, c):
        return dict(c)

    def event_field(self, meta, c):
        return str(c[0]), _value(c[1])

    def final_phase_is(self, meta, c):
        return Check("final_phase", {"value": True})

    def no_final_phase(self, meta, c):
        return Check("final_phase", {"value": False})

    def no_bao(self, meta, c):
        return Check("bao", {"player": None})

    def last_turns_is(self, meta, c):
        return Check("last_turns", {"players": [_player(p) for p in c]})

    def no_last_turns(self, meta, c):
        return Check("last_turns", {"players": None})

    def round_table(self, meta, c):
        return Check("round_table", {"player": _player(c[0]), "species": list(c[1:])})

    def under_is(self, meta, c):
        return Check("under", {"species": [str(s) for s in c]})

    def raw(self, meta, c):
        return json.loads(c[0])  # valid: raw_problems read it before

    def state_is(self, meta, c):
        return Check("state_json", {"path": str(c[0]), "value": json.loads(c[1])})

    def view_is(self, meta, c):
        return Check("view_json", {"viewer": _player(c[0]), "path": str(c[1]), "value": json.loads(c[2])})

    def events_are(self, meta, c):
        return Check("event_list", {"events": json.loads(c[0])})

    def legal_is(self, meta, c):
        return _legal(meta, c[0], True)

    def not_legal(self, meta, c):
        return _legal(meta, c[0], False)


def _legal(meta, act, listed: bool) -> Check:
    if isinstance(act, ShuffleSpecies):
        raise ScenarioError("a shuffle names cards by species: its legality cannot be checked", line=meta.line,
                            column=meta.column)
    return Check("legal", {"action": act, "listed": listed})


def raw_problems(tree) -> list[tuple[str, Token]]:
    """(message, token) for each raw JSON of the script that is no JSON, and each ``expect events are`` that is no
    list of events (objects with a string ``kind``)."""
    out = []
    for node in tree.iter_subtrees():
        for token in (c for c in node.children if isinstance(c, Token) and c.type == "JSON"):
            try:
                value = json.loads(str(token))
            except (ValueError, RecursionError) as exc:
                at = Token("JSON", "", line=token.line, column=token.column + getattr(exc, "pos", 0))
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
    problems.sort(key=lambda problem: (problem[1].line, problem[1].column))
    errors = [ScenarioError(message, line=t.line, column=t.column, text=lines[t.line - 1]) for message, t in problems]
    if errors:
        first = errors[0]
        raise ScenarioError(first.message, line=first.line, column=first.column, text=first.text, more=errors[1:])
    return ToAst().transform(tree)
