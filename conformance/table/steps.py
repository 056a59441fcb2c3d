"""The tables of a scenario's steps, in order: what every picture of a walk through a scenario shares.

The report's scenario pages and ``explain --table`` draw the table after each action of a scenario. Both need the
same bookkeeping: a ``setup`` step's value overrides change the faces (``params["catalog"]``), the deck cards it
named are shown while they are the deck's next cards, and each table is marked with what changed since the one
before (a setup or a new game starts afresh). Steps are the compiled steps of docs/scenarios.md; nothing here runs
anything.
"""

from __future__ import annotations

from baobei_conform.table.layout import Faces, Table, compare, layout
from baobei_spec import Spec


class StepTables:
    """Lay out the state after each step of one scenario, in the order of its steps."""

    def __init__(self, spec: Spec, deck_named: dict[int, int] | None = None, faces: Faces | None = None):
        """``deck_named``: setup's script line -> deck cards it names (``Scenario.deck_named``). ``faces``: the
        spec's faces, when made already."""
        self.spec, self.deck_named = spec, deck_named or {}
        self.base = faces or Faces(spec)
        self.faces, self.named = self.base, frozenset[str]()
        self.previous: Table | None = None

    def after(self, step: dict, state: dict | None) -> Table | None:
        """The table after ``step`` (None without a state), marked with what changed since the last one."""
        if step.get("op") == "setup":
            override = (step.get("params") or {}).get("catalog")
            self.faces = Faces(self.spec, override) if override else self.base
            deck = (step.get("state") or {}).get("deck") or []
            line = step.get("line")
            self.named = frozenset(deck[:self.deck_named.get(line, 0) if isinstance(line, int) else 0])
        if state is None:
            return None
        table = self.draw(state)
        if self.previous is not None and step.get("op") not in ("setup", "new_game"):
            compare(self.previous, table)
        self.previous = table
        return table

    def draw(self, doc: dict) -> Table:
        """A state or a player's view at this point, with the faces and named deck cards in force, unmarked."""
        return layout(doc, self.faces, self.named)
