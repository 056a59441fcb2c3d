"""Read the pictures of the table back out of a report page: each figure, its rows of slots and their marks."""

from __future__ import annotations

import shutil
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# A setup, a power, a pluck with a gift and a BAO on one page: p0 draws a Toco Toucan, plucks p1's Golden Toucan
# with it (one family, 3.1.7), gives p1 a card (3.4.5), the Toco Toucan's power then adds a card to p2 (6.10.3,
# 6.7.1), and p0 calls BAO at the end of the turn (4.1.2), which arms the shield (4.2.2).
COMBINED = """\
id: tables-power-pluck-gift-bao
title: A drawn Toco Toucan plucks a Golden Toucan, the gift, its power, then BAO
clauses: ["6.1.3", "3.4.5", "4.1.2"]
tags: [tables]
script: |
  setup
    zone p0: owl heron eagle sparrow
    zone p1: golden_toucan kingfisher flamingo swallow
    zone p2: sparrow heron eagle swallow
    deck: toco_toucan hummingbird
    active p0
    p0 knows p0.1 p0.2
    p1 knows p1.3 p1.4
    p2 knows p2.3 p2.4
  end
  p0 draws
  p0 plucks p1.1
  p0 gives 2
  p0 adds to p2
  expect p2.5 is hummingbird
  p0 calls bao
  expect shield armed
"""
DOUBLE = "pluck-double-own-and-rival-gift-is-the-non-target"  # fails on an engine that gives no gift (line 20)


def tiny_suite(folder: Path) -> Path:
    (folder / "6-powers").mkdir(parents=True)
    (folder / "6-powers" / "tables-power-pluck-gift-bao.yaml").write_text(COMBINED, encoding="utf-8")
    (folder / "3-pluck").mkdir()
    shutil.copy(ROOT / "scenarios" / "3-pluck" / f"{DOUBLE}.yaml", folder / "3-pluck")
    return folder


class Figures(HTMLParser):
    """Every ``figure.tb``: its data-table name, its rows (player -> [(slot, classes)]), its marked facts."""

    def __init__(self) -> None:
        super().__init__()
        self.figures: list[dict] = []
        self.player: int | None = None
        self.tags: set[str] = set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        self.tags.add(tag)
        if tag == "figure" and "tb" in classes:
            self.figures.append({"name": attrs.get("data-table"), "rows": {}, "marked": [], "view": "view" in classes})
        elif not self.figures:
            return
        figure = self.figures[-1]
        if "data-player" in attrs:
            self.player = int(attrs["data-player"])
            figure["rows"][self.player] = []
        if "data-slot" in attrs and self.player is not None and "c" in classes:
            figure["rows"][self.player].append((int(attrs["data-slot"]), set(classes)))
        if "data-fact" in attrs and ({"chg", "dif"} & set(classes)):
            figure["marked"].append((attrs["data-fact"], set(classes)))

    def handle_endtag(self, tag):
        if tag == "figure":
            self.player = None


def figures(html: str) -> list[dict]:
    parser = Figures()
    parser.feed(html)
    return parser.figures


def marked(figure: dict, mark: str) -> set[tuple[int, int]]:
    return {(p, slot) for p, slots in figure["rows"].items() for slot, classes in slots if mark in classes}
