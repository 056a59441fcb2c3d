"""A layout (layout.py) as HTML for the report: a row of cards per player, the heaps, the facts.

Plain HTML and the report's stylesheet (``.tb`` rules in report.css): no script, no image, no font fetched, and
every text escaped here (an engine's state may hold anything). Readable in print and in grey scale: every card
carries its code, value and power in letters, face-down cards a double border, backs a hatch and a ``?``, empty
slots a dashed outline; changed and differing slots are outlined and marked ``*`` and ``!`` in text.
"""

from __future__ import annotations

import functools
from html import escape as _escape

from markupsafe import Markup

from baobei_conform.table.layout import CHANGED, DIFFERS, Card, Faces, Heap, Row, Table


@functools.lru_cache(maxsize=8192)
def _escaped(text: str) -> str:
    return _escape(text, quote=True)


def escape(text) -> str:
    """Text for HTML (markup, quotes and all): the picture's every piece of text goes through it (the same few
    words recur in every table: remembered)."""
    return _escaped(str(text))


MARK_CLASS = {CHANGED: " chg", DIFFERS: " dif"}
MARK_WORD = {CHANGED: ", changed by this step", DIFFERS: ", differs from the other table"}


class Painter:
    """Draws tables; remembers the cards it drew (a card in a slot looks the same in most steps of a scenario)."""

    def __init__(self) -> None:
        self._cards: dict[tuple, str] = {}

    def card(self, card: Card | None, where: str = "", slot: int | None = None, mark: str = "") -> str:
        key = (card and (card.signature(), card.moved, card.face and card.face.hue), where, slot, mark)
        html = self._cards.get(key)
        if html is None:
            html = self._cards[key] = _card(card, where, slot, mark)
        return html

    def table(self, table: Table, caption: str = "", name: str = "") -> Markup:
        """One picture; ``name`` (``engine``, ``reference``, ``p1's view``) is its data-table attribute."""
        out = [f'<figure class="tb{" view" if table.viewer is not None else ""}" data-table="{escape(name)}">']
        if caption:
            out.append(f'<figcaption>{escape(caption)}</figcaption>')
        if table.problem:
            out.append(f'<p class="warn">{escape(table.problem)}</p></figure>')
            return Markup("".join(out))
        facts = {f.key: f for f in table.facts}
        if "pending" in facts:
            f = facts["pending"]
            out.append(f'<p class="tb-p{MARK_CLASS.get(f.mark, "")}" data-fact="pending">{escape(f.text)}</p>')
        out.append('<div class="tb-z">')
        out += [self._row(row, table) for row in table.rows]
        out.append('</div><div class="tb-h">')
        out += [self._heap(h) for h in table.heaps]
        out.append('</div><dl class="tb-f">')
        out += [f'<div data-fact="{escape(f.key)}"{_mark_attr(f.mark)}><dt>{escape(f.label)}</dt>'
                f'<dd>{escape(f.text)}</dd></div>' for f in table.facts if f.key != "pending"]
        out.append("</dl></figure>")
        return Markup("".join(out))

    def _row(self, row: Row, table: Table) -> str:
        tags = "".join(f'<i class="tg">{escape(t)}</i>' for t in row.tags)
        cls = " act" if "active" in row.tags else ""
        head = (f'<div class="tb-r{cls}" data-player="{row.player}"><span class="tb-w"><b>p{row.player}</b>{tags}'
                f'<span class="sc{MARK_CLASS.get(row.mark, "")}">score {escape(row.score)}</span></span>')
        slots = "".join(self.card(s.card, f"p{row.player}.{s.number}", s.number, s.mark) for s in row.slots)
        return head + (slots or '<span class="muted">no slots</span>') + "</div>"

    def _heap(self, heap: Heap) -> str:
        count = "?" if heap.count is None else str(heap.count)
        if heap.key == "held":
            label = f"held {escape(heap.note)}" if heap.count else "held: none"
        else:
            label = f"{escape(heap.label)} {count}"
        cards = "".join(self.card(c, heap.label) for c in heap.cards)
        if heap.key == "deck":
            cards = f'<span class="c bk deck" title="the deck, {count} cards face down"><b>{count}</b></span>' + (
                f'<span class="nx">{escape(heap.note)}</span>{cards}' if cards else "") + (
                f'<span class="nx">and {heap.more} more named</span>' if heap.more else "")
        return (f'<span class="hp{MARK_CLASS.get(heap.mark, "")}" data-heap="{escape(heap.key)}">'
                f'<em>{label}</em>{cards}</span>')


def _mark_attr(mark: str) -> str:
    return f' class="{MARK_CLASS[mark].strip()}"' if mark in MARK_CLASS else ""


def _card(card: Card | None, where: str, slot: int | None, mark: str) -> str:
    number = f"<i>{slot}</i>" if slot is not None else ""
    attr = f' data-slot="{slot}"' if slot is not None else ""
    extra = MARK_CLASS.get(mark, "")
    if card is None:
        return f'<span class="c ho{extra}"{attr} title="{escape(where)}: empty{MARK_WORD.get(mark, "")}">{number}' \
               f'<small>empty</small></span>'
    face = card.face
    if face is None:
        return f'<span class="c bk{extra}"{attr} title="{escape(where)}: face down, not known to this player' \
               f'{MARK_WORD.get(mark, "")}">{number}<b>?</b></span>'
    state = "up" if card.up else "dn"
    seen = ""
    if card.known_by is not None:
        seen = f", seen by {' '.join(f'p{p}' for p in card.known_by)}" if card.known_by else ", seen by nobody"
    title = (f"{where}: {card.card or face.species}, {face.name} {'' if face.value is None else face.value}"
             f"{', power ' + face.power if face.power else ''}, face {'up' if card.up else 'down'}{seen}"
             f"{', moved by a power this turn' if card.moved else ''}{MARK_WORD.get(mark, '')}")
    power = f'<small class="pw">{escape(face.power_mark)}</small>' if face.power else ""
    known = f'<small class="sb">{"".join(str(p) for p in card.known_by)}</small>' if card.known_by else ""
    value = "" if face.value is None else face.value
    return (f'<span class="c {state}{extra}{" mv" if card.moved else ""}"{attr} style="--h:{face.hue}" '
            f'title="{escape(title)}">{number}<b>{escape(face.code)}</b><em>{value}</em>{power}{known}</span>')


def legend(faces: Faces, painter: Painter | None = None) -> Markup:
    """Every species as a face-up card with its name, then a sample of each kind of slot and mark."""
    painter = painter or Painter()
    cards = "".join(f'<span class="lg">{painter.card(Card(f, up=True), "legend")}<span>{escape(f.name)}'
                    f'{" · " + escape(f.power_mark) if f.power else ""}</span></span>' for f in faces.legend())
    owl = faces.legend()[0]
    samples = [(Card(owl, known_by=(0, 2)), "", "face down, seen by p0 and p2"),
               (Card(owl, known_by=()), "", "face down, seen by nobody"),
               (Card(None), "", "face down, not known to this player (a view)"),
               (None, "", "an empty slot"),
               (Card(owl, known_by=(0,)), CHANGED, "* changed by this step"),
               (Card(owl, known_by=(1,)), DIFFERS, "! differs from the table beside it")]
    kinds = "".join(f'<span class="lg">{painter.card(c, "legend", 1, mark)}<span>{escape(text)}</span></span>'
                    for c, mark, text in samples)
    return Markup('<details class="tb-legend"><summary>Legend: the cards and marks of the tables</summary>'
                  f'<div class="lgs">{cards}</div><div class="lgs">{kinds}</div>'
                  '<p class="muted">A card shows its slot number, its species code, value and power, and at the '
                  'bottom the players who have seen it (face-up cards are seen by all).</p></details>')
