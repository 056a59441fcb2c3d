"""Lint every name a script uses: a typo must be an error, never a check that holds vacuously.

Species, event kinds, decision kinds and error codes come from the spec (``spec/vocabulary.yaml``,
``catalog.yaml``, ``errors.yaml``), clause ids from its clauses. Players and slots are checked
against the table the script sets up (``setup`` zones or ``new game N players``), except inside
``reject`` statements, whose point may be a player or slot that does not exist.
"""

from __future__ import annotations

import json

from lark import Token, Tree

from baobei_conform.dsl.errors import nearest
from baobei_spec import Spec

# Action rules whose numbers are slots of the acting player.
SLOT_RULES = frozenset({"take", "keep", "gift", "place", "initial_peek"})
# Setup items whose player tokens define the table rather than refer to it.
DEFINING = frozenset({"zone"})


Known = dict[str, tuple[str, frozenset[str]]]  # token type -> (what it names, the valid names)


class _Table:
    """The seats a script set up and the most slots each zone can have after ``actions`` actions.

    A zone starts with its setup slots (or a deal); a new slot is created only when a card is added to
    a full zone (2.5.4), at most one per zone per action; a later round deals at most the largest hand.
    """

    def __init__(self, slots: dict[int, int], largest_hand: int, exact: bool):
        self.seats = len(slots)
        self.slots, self.largest_hand, self.exact = slots, largest_hand, exact
        self.actions = 0

    def most_slots(self, player: int) -> int:
        start = self.slots.get(player, 0)
        return start if self.exact else max(start, self.largest_hand) + self.actions


def _known(spec: Spec) -> Known:
    """Token type -> (what it names, the valid names), built once per spec."""
    cached = _KNOWN.get(id(spec))
    if cached is None or cached[0] is not spec:
        vocabulary = spec.vocabulary
        cached = _KNOWN[id(spec)] = (spec, {
            "SPECIES": ("species", frozenset(s.id for s in spec.species_list)),
            "EVENT": ("event kind", frozenset(vocabulary.events)),
            "DECISION": ("decision kind", frozenset(vocabulary.decisions)),
            "ERROR_CODE": ("error code", frozenset(vocabulary.error_codes)),
            "CLAUSE": ("clause", frozenset(spec.clauses)),
        })
    return cached[1]


_KNOWN: dict[int, tuple[Spec, Known]] = {}  # by id: a Spec holds dicts, so it is not hashable


def name_problems(tree: Tree[Token], spec: Spec) -> list[tuple[str, Token]]:
    """(message, token) for every unknown name, absent player or impossible slot in a parse tree."""
    known = _known(spec)
    largest_hand = max([*spec.params.hand_size.values(), *spec.params.decisive_hand_size.values()], default=0)
    problems: list[tuple[str, Token]] = []
    table: _Table | None = None
    for stmt in _subtrees(tree):
        if stmt.data == "setup":
            zones = {int(str(z.children[0])[1:]): len(z.children) - 1 for z in _subtrees(stmt) if z.data == "zone"}
            table = _Table(zones, largest_hand, exact=True)
        elif stmt.data == "setup_raw":
            table = _raw_table(str(stmt.children[0]), largest_hand)
        elif stmt.data == "new_game":
            table = _Table(dict.fromkeys(range(int(str(stmt.children[0]))), 0), largest_hand, exact=False)
        # A refused or unlisted action may name a player or slot that cannot exist: that may be its point.
        check = _subtrees(stmt)[0] if stmt.data == "expect" else None
        deliberate = stmt.data == "reject" or (check is not None and check.data == "not_legal")
        _walk(stmt, known, None if deliberate else table, problems)
        if check is not None and check.data in ("event", "no_event"):
            problems += _event_player_problems(check, spec.vocabulary.events)
        if table is not None:
            table.exact = False  # from here on, zones may have been dealt again or grown
            table.actions += stmt.data == "act"
    return problems


def _subtrees(node: Tree[Token]) -> list[Tree[Token]]:
    """The rules under ``node`` (its tokens left out)."""
    return [c for c in node.children if isinstance(c, Tree)]


def _raw_table(text: str, largest_hand: int) -> _Table | None:
    """The seats and slots of ``setup raw JSON`` (None, so nothing is checked, when it holds no zones: the compiler
    refuses that state)."""
    try:
        zones = json.loads(text).get("zones")
        return _Table({int(p): len(zone) for p, zone in zones.items()}, largest_hand, exact=True)
    except (ValueError, RecursionError, AttributeError, TypeError):
        return None


CARD_FIELDS = ("card", "reference", "cards")  # event fields whose word value names a species


def _walk(node: Tree[Token], known: Known, table: _Table | None, out: list[tuple[str, Token]]) -> None:
    """Check the tokens of ``node`` and its subtrees (players and slots only with a ``table``)."""
    tokens = []
    for child in node.children:
        if isinstance(child, Tree):
            _walk(child, known, table, out)
        else:
            tokens.append(child)
    for token in tokens:
        what, names = known.get(token.type, (None, None))
        if node.data == "event_field" and token.type == "SPECIES" and str(node.children[0]) not in CARD_FIELDS:
            continue  # a word that is not a card: a power's name, yes or no (conformance/runner/event_fields.py)
        if names is not None and token not in names:
            out.append((f"unknown {what} {str(token)!r}{nearest(str(token), names)}", token))
    if table is None or node.data in DEFINING:
        return
    for token in tokens:
        if token.type in ("PLAYER", "TARGET"):
            owner, _, slot = token[1:].partition(".")
            if int(owner) >= table.seats:
                where = f"{token}: " if slot else ""
                out.append((f"{where}p{owner} is not at the table: the scenario seats {table.seats} players "
                            f"(p0-p{table.seats - 1})", token))
            elif slot:
                out += _slot_problem(int(owner), int(slot), token, table)
    actor = int(tokens[0][1:]) if node.data in SLOT_RULES else table.seats  # "p0 keeps into 3"
    if actor < table.seats:
        out += [p for t in tokens if t.type == "INT" for p in _slot_problem(actor, int(t), t, table)]


def _event_player_problems(check: Tree[Token], events: dict[str, tuple[str, ...]]) -> list[tuple[str, Token]]:
    """``for pN`` on an event kind without a ``player`` field, or ``with FIELD ...`` naming a field the kind
    lacks, never matches: vacuous under ``no event``."""
    kind, *rest = check.children
    players = [t for t in rest if isinstance(t, Token) and t.type == "PLAYER"]
    fields = events.get(str(kind))
    if fields is None:
        return []  # an unknown kind is reported on its own
    out = []
    if players and "player" not in fields:
        out.append((f"a {str(kind)!r} event has no player (its fields: {', '.join(fields) or 'none'}), "
                    f"so 'for {players[0]}' never matches", players[0]))
    for named in (t for t in rest if isinstance(t, Tree) and t.data == "event_fields"):
        for field in _subtrees(named):
            name = field.children[0]
            assert isinstance(name, Token)  # grammar.lark: event_field starts with its FIELD
            if str(name) not in fields:
                out.append((f"a {str(kind)!r} event has no field {str(name)!r}{nearest(str(name), fields)} "
                            f"(its fields: {', '.join(fields) or 'none'})", name))
    return out


def _slot_problem(owner: int, slot: int, token: Token, table: _Table) -> list[tuple[str, Token]]:
    most = table.most_slots(owner)
    if slot < 1:
        return [(f"slot {slot} of p{owner} cannot exist: slots number from 1", token)]
    if slot > most:
        why = "in the setup" if table.exact else "at this point of the script"
        return [(f"slot {slot} of p{owner} cannot exist: p{owner} has at most {most} slots {why}", token)]
    return []
