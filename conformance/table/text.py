"""A layout (layout.py) as a compact text table for the terminal: ``explain --table``, a run's ``--show-table``.

    pending  gift: p2 answers, into p1.3
    round 1, turn 1   BAO none   shield none   last turns -   recycles 0   final phase no
         1       2         3     4
    p0   OWL5/0  SPA2/012  SWA3  KIN4   score 0  active
    p1   EAG12   FLA11     ..*   HUM1   score 0
    discard: 2, top HER6   deck: 53   under the pile: 0   held: -

Fitted to a width (a table wider than it is cut into column groups, two tables side by side are put one above
the other), in colour only when asked (``wants_colour``: a terminal, and ``NO_COLOR`` unset). The marks ``*`` and
``!`` are text, so a table without colour says as much as one with it.
"""

from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass

from baobei_conform.table.layout import CHANGED, DIFFERS, MARKS, Card, Faces, Slot, Table

ANSI = re.compile(r"\033\[[0-9;]*m")
STYLES = {CHANGED: "1;33", DIFFERS: "1;31", "dim": "2", "bold": "1"}
SUFFIX = {CHANGED: "*", DIFFERS: "!"}
GAP = "   "


def wants_colour(stream) -> bool:
    """Colour only on a terminal, never when ``NO_COLOR`` is set (https://no-color.org)."""
    return bool(getattr(stream, "isatty", lambda: False)()) and not os.environ.get("NO_COLOR")


@dataclass(frozen=True)
class Screen:
    """Where text tables go: how wide they may be, and whether in colour."""

    width: int = 100
    colour: bool = False

    @classmethod
    def of(cls, stream) -> Screen:
        """The terminal's width (``COLUMNS`` first; 100 when not a terminal) and colour as ``wants_colour`` says."""
        return cls(max(40, shutil.get_terminal_size((100, 24)).columns), wants_colour(stream))


def visible(text: str) -> int:
    return len(ANSI.sub("", text))


class _Ink:
    def __init__(self, colour: bool):
        self.colour = colour

    def __call__(self, text: str, style: str = "") -> str:
        return f"\033[{STYLES[style]}m{text}\033[0m" if self.colour and style in STYLES and text else text


def card_text(card: Card | None) -> str:
    """``OWL5/02``, ``??`` (a back), ``..`` (no card)."""
    if card is None:
        return ".."
    if card.face is None:
        return "??"
    value = "" if card.face.value is None else str(card.face.value)
    seen = "/" + "".join(str(p) for p in card.known_by) if card.known_by else ""
    return f"{card.face.code}{value}{seen}"


def _cell(slot: Slot) -> tuple[str, str]:
    """The slot's text with its mark, and its style."""
    text = card_text(slot.card) + SUFFIX.get(slot.mark, "")
    return text, slot.mark or ("dim" if slot.card is None or slot.card.face is None else "")


def render(table: Table, width: int = 100, colour: bool = False) -> list[str]:
    """The table's lines, none wider than ``width`` (where a single column group allows)."""
    ink = _Ink(colour)
    if table.problem:
        return [table.problem]
    facts = {f.key: f for f in table.facts}
    lines = []
    if "pending" in facts:
        lines.append(_marked(ink, "pending  " + facts["pending"].text, facts["pending"].mark))
    others = [_marked(ink, f"{f.label} {f.text}", f.mark) for f in table.facts if f.key != "pending"]
    lines += _wrap(others, width)
    lines += _zones(table, width, ink)
    lines += _wrap([_heap(h, ink) for h in table.heaps], width)
    return lines


def _marked(ink: _Ink, text: str, mark: str) -> str:
    return ink(text + SUFFIX.get(mark, ""), mark)


def _heap(heap, ink: _Ink) -> str:
    """``discard: 3, top HER6``, ``deck: 50, next CUC9``, ``under the pile: 1: SHO13``, ``held: OWL5/0 by p0``."""
    cards = " ".join(card_text(c) for c in heap.cards)
    count = "?" if heap.count is None else heap.count
    if heap.key == "held":
        text = f"held: {cards} {heap.note}" if heap.count else "held: -"
    elif heap.key == "discard":
        text = f"discard: {count}" + (f", top {cards}" if cards else "")
    else:
        text = f"{heap.label}: {count}" + (f", {heap.note} {cards}" if heap.note else f": {cards}" if cards else "")
        text += f" (and {heap.more} more named)" if heap.more else ""
    return _marked(ink, text, heap.mark)


def _wrap(items: list[str], width: int) -> list[str]:
    """Items joined by a gap, as many per line as fit."""
    lines: list[str] = []
    for item in items:
        if lines and visible(lines[-1]) + len(GAP) + visible(item) <= width:
            lines[-1] += GAP + item
        else:
            lines.append(item)
    return lines


def _zones(table: Table, width: int, ink: _Ink) -> list[str]:
    """A header of slot numbers, then a line per player; cut into groups of columns when too wide."""
    if not table.rows:
        return []
    cells = [[_cell(s) for s in row.slots] for row in table.rows]
    columns = max(len(r) for r in cells)
    widths = [max([len(str(i + 1))] + [len(r[i][0]) for r in cells if i < len(r)]) for i in range(columns)]
    label = max(len(f"p{row.player}") for row in table.rows) + 2
    ends = [_marked(ink, f"score {row.score}", row.mark) + ("  " + " ".join(row.tags) if row.tags else "")
            for row in table.rows]
    groups, start = [], 0
    while start < columns:  # as many columns as fit beside the label (at least one)
        end, used = start, label
        while end < columns and (end == start or used + widths[end] + 2 <= width):
            used += widths[end] + 2
            end += 1
        groups.append((start, end))
        start = end
    lines = []
    for first, last in groups:
        lines.append(" " * label + "  ".join(str(i + 1).ljust(widths[i]) for i in range(first, last)).rstrip())
        for row, row_cells, end_text in zip(table.rows, cells, ends, strict=True):
            parts = []
            for i in range(first, last):
                text, style = row_cells[i] if i < len(row_cells) else ("", "")
                parts.append(ink(text, style) + " " * (widths[i] - len(text)))
            line = ink(f"p{row.player}".ljust(label), "bold" if "active" in row.tags else "") + "  ".join(parts)
            if len(groups) == 1 and visible(line) + 3 + visible(end_text) <= width:
                lines.append(line.rstrip() if not end_text else line + GAP + end_text)
            else:
                lines.append(line.rstrip())
                if first == 0:
                    lines.append(" " * label + end_text)
    return lines


def beside(blocks: list[tuple[str, list[str]]], width: int) -> list[str]:
    """Titled blocks of lines side by side when they fit in ``width``, else one above the other."""
    widths = [max([visible(title), *(visible(line) for line in lines)]) for title, lines in blocks]
    if sum(widths) + len(GAP) * (len(blocks) - 1) > width:
        out = []
        for title, lines in blocks:
            out += [title, *("  " + line for line in lines)]
        return out
    height = max(len(lines) + 1 for _, lines in blocks)
    rows = []
    for i in range(height):
        parts = []
        for (title, lines), w in zip(blocks, widths, strict=True):
            text = title if i == 0 else lines[i - 1] if i - 1 < len(lines) else ""
            parts.append(text + " " * (w - visible(text)))
        rows.append(GAP.join(parts).rstrip())
    return rows


def legend(faces: Faces, width: int = 100) -> list[str]:
    """What the codes and marks mean: one item per species (code, name, value, power), then the marks."""
    species = [f"{f.code} {f.name} {'' if f.value is None else f.value}" + (f" ({f.power_mark})" if f.power else "")
               for f in faces.legend()]
    return _wrap(species, width) + [f"{mark}  {meaning}" for mark, meaning in MARKS]
