"""The layout of one position: what a picture of the table shows, as plain data both renderings read.

``layout`` reads a canonical state (docs/protocol.md section 5: omniscient, every face-down card with its species
and who has seen it) or a view (section 3.5: what one player may know, unseen cards as backs). ``compare`` marks
what differs between two layouts: the slots and facts a step changed, or where an engine's table departs from the
reference's. ``picture.py`` draws a layout as HTML for the report, ``text.py`` as a table for the terminal: one
layout, so both show the same thing.

An engine's state may be anything: every field is read defensively, and what cannot be read is drawn as unknown,
never raised.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from baobei_spec import Spec, default_spec

CHANGED, DIFFERS = "changed", "differs"  # the marks: since the previous position, against the other table
POWER_MARKS = {"peek": "peek", "show": "show", "blind_swap": "swap", "peek_two_swap": "peek 2",
               "add_to_rival": "add 1", "double_replace": "replace 2"}  # short enough for a card's face
CHANCE = ("first_player", "deal", "recycle")
NEXT_SHOWN = 6  # named deck cards shown at most (a fuzz reproducer names the whole deck)


@dataclass(frozen=True)
class Face:
    """A species as cards show it: a three-letter code (printed on every card: no colour needed to read it), its
    English name, value and power from the catalog, and a hue shared by its pluck family."""

    species: str
    code: str
    name: str
    value: int | None
    power: str | None
    family: str
    hue: int

    @property
    def power_mark(self) -> str:
        return POWER_MARKS.get(self.power, self.power[:9]) if self.power else ""


def _code(name: str, taken: set[str]) -> str:
    """OWL, HER, WPE (White Pelican): the first letters; a digit where two species would share one."""
    words = re.findall(r"[A-Za-z]+", name) or ["X"]
    base = (words[0][:3] if len(words) == 1 else words[0][0] + words[-1][:2]).upper()
    code, n = base, 2
    while code in taken:
        code, n = f"{base[:2]}{n}", n + 1
    taken.add(code)
    return code


class Faces:
    """The card faces of a catalog: the spec's, with a setup's value overrides (``params["catalog"]``) applied."""

    def __init__(self, spec: Spec | None = None, catalog: list | None = None):
        spec = spec or default_spec()
        taken: set[str] = set()
        families = list(dict.fromkeys(sp.family for sp in spec.species_list))
        self.faces: dict[str, Face] = {}
        for sp in spec.species_list:
            hue = round(families.index(sp.family) * 360 / max(len(families), 1) + 15) % 360
            self.faces[sp.id] = Face(sp.id, _code(sp.names.get("en") or sp.id, taken), sp.names.get("en") or sp.id,
                                     sp.value, sp.power, sp.family, hue)
        for entry in catalog if isinstance(catalog, list) else ():
            known = self.faces.get(str(entry.get("species"))) if isinstance(entry, dict) else None
            if known and isinstance(entry.get("value"), int):
                self.faces[known.species] = Face(known.species, known.code, known.name, entry["value"],
                                                 known.power, known.family, known.hue)

    def of(self, species) -> Face:
        """The face of a species; one the catalog lacks (an engine's invention) is drawn with its own name."""
        if species in self.faces:
            return self.faces[species]
        text = str(species)[:24]
        return Face(text, "?" + text[:3].upper(), text, None, None, text, 0)

    def of_card(self, card) -> Face:
        """A card id is its species and a number (``owl-3``)."""
        return self.of(str(card).rsplit("-", 1)[0])

    def legend(self) -> list[Face]:
        return list(self.faces.values())


@dataclass(slots=True)
class Card:
    """A card as drawn: its face, or a back (``face`` None: the picture does not know the species)."""

    face: Face | None
    card: str | None = None  # the id, when known
    known_by: tuple[int, ...] | None = None  # who has seen it (omniscient pictures only)
    up: bool = False  # face up: the discard pile's top, the zones shown at the end of a round
    moved: bool = False  # moved by a power this turn (6.11.1)

    def signature(self) -> tuple:
        """What tells two cards apart in a slot (whether a power moved it is the fact ``moved``, compared there)."""
        face = self.face
        return (self.card, face and face.species, face and face.value, self.known_by, self.up)


@dataclass(slots=True)
class Slot:
    number: int
    card: Card | None  # None: an empty slot
    mark: str = ""
    sig: tuple | None = None  # what tells it apart: the card's signature, None when empty

    def __post_init__(self) -> None:
        self.sig = self.card.signature() if self.card else None


@dataclass
class Row:
    """A player of the round: their slots in order, what they are now (active, answering, BAO, ...), their score."""

    player: int
    slots: list[Slot]
    tags: list[str]
    score: str
    mark: str = ""  # the score differs


@dataclass
class Heap:
    """The discard pile (its top face up), the deck (the next cards where the scenario named them), the cards under
    the pile and the held drawn card: how many, and the cards the picture shows."""

    key: str
    label: str
    count: int | None  # None: not known (a view's held card)
    cards: list[Card]
    note: str = ""
    mark: str = ""
    more: int = 0  # named deck cards not shown (beyond NEXT_SHOWN)

    def signature(self) -> tuple:
        return (self.count, tuple(c.signature() for c in self.cards), self.note, self.more)


@dataclass
class Fact:
    key: str
    label: str
    text: str
    mark: str = ""


@dataclass
class Table:
    rows: list[Row]
    heaps: list[Heap]
    facts: list[Fact]
    viewer: int | None = None  # a view: whose
    revealed: bool = False  # the rows are the zones as the round ended, every card shown (5.1.1)
    problem: str = ""  # the document is no state or view the picture can read

    def marked(self) -> int:
        """How many slots, heaps, facts and rows carry a mark."""
        items: list = [*(slot for row in self.rows for slot in row.slots), *self.heaps, *self.facts, *self.rows]
        return sum(bool(item.mark) for item in items)


# --- reading a document ---------------------------------------------------------------------------------


def _list(value) -> list:
    return value if isinstance(value, list) else []


def _dict(value) -> dict:
    return value if isinstance(value, dict) else {}


def _int(value) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _players(value) -> list[int]:
    return [p for p in value if type(p) is int] if isinstance(value, list) else []


def _who(players: Iterable[int]) -> str:
    return " ".join(f"p{p}" for p in players) or "-"


def _target(value) -> str:
    pair = _list(value)
    return f"p{pair[0]}.{pair[1]}" if len(pair) == 2 else str(value)


class _Reader:
    """One document read into cards: the faces, who has seen what (a state), the cards moved this turn."""

    def __init__(self, doc: dict, faces: Faces, view: bool):
        self.faces, self.view = faces, view
        self.seen = _dict(doc.get("seen"))
        self.moved = {str(c) for c in _list(doc.get("moved"))}

    def card(self, card, species=None, up: bool = False) -> Card:
        if card is None and species is None:
            return Card(None)  # a back
        face = self.faces.of(species) if species is not None else self.faces.of_card(card)
        known = None if self.view or up else tuple(_players(self.seen.get(str(card))))
        return Card(face, None if card is None else str(card), known, up, str(card) in self.moved)

    def code(self, card) -> str:
        face = self.faces.of_card(card)
        return f"{face.code}{'' if face.value is None else face.value}"

    def slot(self, number: int, cell, up: bool) -> Slot:
        if not isinstance(cell, dict):
            return Slot(number, None)
        card, species = cell.get("card"), cell.get("species")
        if species is None and card is not None:
            species = str(card).rsplit("-", 1)[0]
        return Slot(number, self.card(card, species, up))


def layout(doc, faces: Faces | None = None, named: Iterable[str] = ()) -> Table:
    """The picture of a canonical state or a view (a view has ``deck_count``). ``named``: deck cards the scenario
    named, shown face up on the deck while they are its next cards (the rest of the deck is only counted)."""
    faces = faces or Faces()
    if not isinstance(doc, dict):
        return Table([], [], [], problem=f"not a state: {str(doc)[:80]}")
    try:
        return _layout(doc, faces, set(named))
    except (TypeError, ValueError, AttributeError, KeyError, IndexError) as exc:  # a state no engine should send
        return Table([], [], [], problem=f"the state cannot be drawn: {type(exc).__name__}: {str(exc)[:120]}")


def _layout(doc: dict, faces: Faces, named: set[str]) -> Table:
    view = "deck_count" in doc
    read = _Reader(doc, faces, view)
    pending = _dict(doc.get("pending"))
    answering = _players(pending.get("players")) or _players([pending.get("player")])
    zones, revealed = _dict(doc.get("zones")), False
    round_zones = _dict(doc.get("round_zones"))
    if round_zones and not any(isinstance(c, dict) for z in zones.values() for c in _list(z)):
        zones, revealed = round_zones, True  # between rounds: the table as the round ended, every card shown
    players = _players(doc.get("players")) or sorted(int(k) for k in zones if str(k).isdigit())
    scores, round_scores = _dict(doc.get("scores")), _dict(doc.get("round_scores"))
    bao, last_turns = _int(doc.get("bao")), _players(doc.get("last_turns"))
    rows = []
    for p in players:
        tags = [t for t, on in (("viewer", view and doc.get("player") == p), ("active", doc.get("active") == p),
                                ("answers", p in answering), ("BAO", bao == p),
                                ("last turn", p in last_turns), ("shown", revealed)) if on]
        score = str(scores.get(str(p), "?"))
        if str(p) in round_scores:
            score += f" (round {round_scores[str(p)]})"
        cells = _list(zones.get(str(p)))
        rows.append(Row(p, [read.slot(i, cell, revealed) for i, cell in enumerate(cells, 1)], tags, score))
    facts = _facts(doc, pending, answering, read)
    return Table(rows, _heaps(doc, view, pending, read, named), facts, doc.get("player") if view else None, revealed)


def _heaps(doc: dict, view: bool, pending: dict, read: _Reader, named: set[str]) -> list[Heap]:
    discard = _list(doc.get("discard"))
    heaps = [Heap("discard", "discard", len(discard), [read.card(discard[-1], up=True)] if discard else [])]
    if view:
        heaps.append(Heap("deck", "deck", _int(doc.get("deck_count")), []))
        heaps.append(Heap("under", "under the pile", _int(doc.get("under_count")), []))
    else:
        deck = _list(doc.get("deck"))
        shown = []
        for card in deck if named else ():
            if not isinstance(card, str) or card not in named:
                break
            shown.append(read.card(card))
        heaps.append(Heap("deck", "deck", len(deck), shown[:NEXT_SHOWN], "next" if shown else "",
                          more=max(0, len(shown) - NEXT_SHOWN)))
        under = _list(doc.get("under"))
        heaps.append(Heap("under", "under the pile", len(under), [read.card(c) for c in under]))
        box = _list(doc.get("box"))
        if box:  # a new game, or between rounds: the cards not dealt yet
            heaps.append(Heap("box", "in the box", len(box), []))
    drawn = doc.get("drawn")
    holder = doc.get("active")
    if drawn is not None:
        heaps.append(Heap("held", "held", 1, [read.card(drawn)], f"by p{holder}"))
    elif view and pending.get("kind") == "drawn":  # the active player holds a card this viewer has not seen
        heaps.append(Heap("held", "held", 1, [Card(None)], f"by p{holder}"))
    else:
        heaps.append(Heap("held", "held", 0, []))
    return heaps


def _pending_text(pending: dict, answering: list[int], read: _Reader) -> str:
    kind = str(pending.get("kind", "?"))
    data = _dict(pending.get("data"))
    if kind in CHANCE:
        who = "chance" + (f" among {_who(answering)}" if answering else "")
    elif kind == "window":
        who = f"{_who(answering)} may pluck" if answering else "nobody may pluck"
    elif kind == "game_over":
        who = f"winner {_who(_players(data.get('winner')) or _players([data.get('winner')]))}"
    else:
        who = f"{_who(answering)} answers"
    details = []
    if "reference" in data:
        details.append(f"reference {read.code(data['reference'])}")
    if "rival" in data and "slot" in data:
        details.append(f"into p{data['rival']}.{data['slot']}")
    if "card" in data:
        details.append(f"card {read.code(data['card'])}" + (f" from p{data['by']}" if "by" in data else ""))
    if kind in ("deal", "recycle"):
        details.append(f"{len(_list(data.get('cards')))} cards to shuffle")
    elif "cards" in data:
        details.append("drawn " + " ".join(read.code(c) for c in _list(data["cards"])))
    if "first" in data and "second" in data:
        details.append(f"looked at {_target(data['first'])} and {_target(data['second'])}")
    if "count" in data:
        details.append(f"{data['count']} slots to look at")
    return f"{kind}: {who}" + "".join(f", {d}" for d in details)


def _facts(doc: dict, pending: dict, answering: list[int], read: _Reader) -> list[Fact]:
    view = read.view
    round_text = f"{doc.get('round', '?')}{' (decisive)' if doc.get('decisive') else ''}, turn {doc.get('turn', '?')}"
    facts = [Fact("pending", "pending", _pending_text(pending, answering, read) if pending else "none"),
             Fact("round", "round", round_text)]
    owed = [o for o in _list(doc.get("owed_powers")) if isinstance(o, dict)]
    if owed:
        facts.append(Fact("owed", "powers owed", ", ".join(
            f"p{o.get('player')} {read.code(o.get('card'))} ({o.get('clause')})" for o in owed)))
    pluck = _dict(doc.get("pluck"))
    if pluck:
        facts.append(Fact("pluck", "gifts owed", f"p{pluck.get('player')} for "
                          + " ".join(_target(t) for t in _list(pluck.get("targets")))))
    drawing = _dict(doc.get("drawing"))
    if drawing:
        held = " ".join(read.code(c) for c in _list(drawing.get("cards")))
        facts.append(Fact("drawing", "draw after the shuffle", f"{drawing.get('for')} of p{drawing.get('player')}"
                          + (f" for p{drawing['rival']}" if drawing.get("rival") is not None else "")
                          + (f", holding {held}" if held else "")))
    bao = _int(doc.get("bao"))
    last = doc.get("last_turns")
    facts += [Fact("bao", "BAO", "none" if bao is None else f"called by p{bao}"),
              Fact("shield", "shield", str(doc.get("shield", "?"))),
              Fact("last_turns", "last turns", "-" if last is None else _who(_players(last)) if last else "none left"),
              Fact("recycles", "recycles", str(doc.get("recycles", "?"))),
              Fact("final_phase", "final phase", "yes" if doc.get("final_phase") else "no")]
    moved = _list(doc.get("moved"))
    if moved and not view:
        facts.append(Fact("moved", "moved by powers this turn", " ".join(read.code(c) for c in moved)))
    if doc.get("winner") is not None:
        facts.append(Fact("winner", "winner", f"p{doc.get('winner')}"))
    return facts


# --- differences ----------------------------------------------------------------------------------------


def compare(old: Table, new: Table, mark: str = CHANGED, both: bool = False) -> int:
    """Mark in ``new`` every slot, heap, fact and row score that differs from ``old`` (and in ``old`` too with
    ``both``: two tables side by side). Returns how many things differ."""
    count = 0
    old_rows = {row.player: row for row in old.rows}
    for row in new.rows:
        before = old_rows.pop(row.player, None)
        slots = before.slots if before else []
        for i, slot in enumerate(row.slots):
            other = slots[i] if i < len(slots) else None
            if other is None or other.sig != slot.sig:
                count += 1
                slot.mark = mark
                if both and other is not None:
                    other.mark = mark
        for other in slots[len(row.slots):] if both else ():  # slots the new table lacks
            count += 1
            other.mark = mark
        if before is None or before.score != row.score:  # tags follow the pending decision, marked with it
            count += 1
            row.mark = mark
            if both and before is not None:
                before.mark = mark
    for row in old_rows.values():  # a player the new table lacks
        count += 1
        if both:
            row.mark = mark
    for kind in ("heaps", "facts"):
        old_items = {item.key: item for item in getattr(old, kind)}
        for item in getattr(new, kind):
            other = old_items.pop(item.key, None)
            if other is None or _sig(other) != _sig(item):
                count += 1
                item.mark = mark
                if both and other is not None:
                    other.mark = mark
        for other in old_items.values():
            count += 1
            if both:
                other.mark = mark
    return count


def _sig(item: Heap | Fact) -> object:
    return item.signature() if isinstance(item, Heap) else item.text


# What the marks mean, in the words both renderings print with their legend.
MARKS = (
    ("OWL5", "a card: its species' code and value (every card says it in letters: no colour needed)"),
    ("/02", "face down, seen by p0 and p2 (face-up cards are seen by all)"),
    ("??", "face down, not known to this player (a player's view)"),
    ("..", "an empty slot"),
    ("*", "changed by this step"),
    ("!", "differs from the other table"),
)
