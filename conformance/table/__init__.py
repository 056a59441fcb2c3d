"""Pictures of the table: one position (a canonical state, or a player's view) drawn for people.

``layout`` reads the document into rows of slots, heaps and facts; ``compare`` marks what changed or differs;
``picture`` draws it as HTML (the report), ``text`` as a terminal table (``explain --table``, ``--show-table``).
Only the spec is read (the catalog's faces): no runner, no reference, so any tool can draw any engine's state.

    >>> from baobei_conform.table import Faces, layout, text
    >>> lines = text.render(layout(state, Faces()), width=100)  # doctest: +SKIP
"""

from baobei_conform.table import picture, text
from baobei_conform.table.layout import CHANGED, DIFFERS, Faces, Table, compare, layout

__all__ = ["CHANGED", "DIFFERS", "Faces", "Table", "compare", "layout", "picture", "text"]
