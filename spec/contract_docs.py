"""The observable contract as Markdown: the page docs/spec/contract.md and the tables docs/protocol.md holds
between ``<!-- contract:NAME -->`` markers (both written by tools/gen_docs.py, checked current by the tests)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from baobei_spec.model import Contract, Situation, Spec

REGION = re.compile(r"(<!-- contract:(?P<name>[a-z-]+) -->\n)(?P<body>.*?)(<!-- /contract:(?P=name) -->)", re.S)


def cell(text: object) -> str:
    """Text safe inside a Markdown table cell."""
    return " ".join(str(text).split()).replace("|", "\\|")


def names(items: Iterable[str]) -> str:
    listed = list(items)
    return ", ".join(f"`{n}`" for n in listed) if listed else "-"


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = [header, ["---"] * len(header), *rows]
    return ["| " + " | ".join(r) + " |" for r in lines]


def _situation_row(s: Situation) -> list[str]:
    return [f"`{s.kind}`", s.clause, cell(s.when), names(s.instead_of) if s.instead_of else "", names(s.fields)]


def events_table(c: Contract) -> list[str]:
    """One row per situation: the clause an event cites there, when, the decision it stands for if it is emitted
    instead of asking one, its data fields (every one compared)."""
    return _table(["`kind`", "clause", "situation", "instead of asking", "data"],
                  [_situation_row(s) for s in c.situations()])


def refusals_table(c: Contract) -> list[str]:
    rows = []
    for i, r in enumerate(c.refusals, 1):
        code = f"`{r.code}`" if r.code else f"the first claim's, as a `{r.as_}`"
        rows.append([str(i), names(r.decisions) if r.decisions else "any", names(r.actions) if r.actions else "any",
                     cell(r.text), code, r.clause or "-"])
    return _table(["#", "decision", "action", "when", "code", "cites"], rows)


def errors_table(spec: Spec) -> list[str]:
    rows = [[f"`{e.code}`", cell(e.meaning), ", ".join(e.clauses) or "-"] for e in spec.errors.values()]
    return _table(["code", "meaning", "clauses"], rows)


def lists_table(c: Contract, prefixes: tuple[str, ...]) -> list[str]:
    rows = [[f"`{r.path}`", cell(r.order), cell(r.scope)] for r in c.lists if r.path.startswith(prefixes)]
    return _table(["list", "order", "scope"], rows)


def shapes_table(c: Contract) -> list[str]:
    rows = [[f"`{t}`", ", ".join(f"`{f}`: {cell(k)}" for f, k in fields.items()) or "-"]
            for t, fields in c.shapes.items()]
    return _table(["action", "fields: JSON type"], rows)


def view_fields_table(c: Contract) -> list[str]:
    return _table(["field", "shows"], [[f"`{f}`", cell(what)] for f, what in c.view_fields.items()])


WHO = {"all": "every viewer", "decider": "the decision's player only", "none": "nobody"}


def view_data_table(c: Contract) -> list[str]:
    rows = [[f"`{kind}`", "; ".join(f"`{k}`: {WHO[w]}" for k, w in keys.items()) or "(no data)"]
            for kind, keys in c.pending_data.items()]
    return _table(["decision", "`pending.data` keys: shown in a view to"], rows)


def moved_table(c: Contract) -> list[str]:
    return _table(["a card counts as moved", "clause"], [[cell(m.when), m.clause] for m in c.moved])


def legal_text(c: Contract) -> list[str]:
    return [f"- **{key.capitalize()}.** {cell(text)}." for key, text in c.legal_actions.items()]


REGIONS: dict[str, Callable[[Spec], list[str]]] = {
    "error-codes": errors_table,
    "refusals": lambda spec: refusals_table(spec.contract),
    "events": lambda spec: events_table(spec.contract),
    "state-lists": lambda spec: lists_table(spec.contract, ("state.",)),
    "reply-lists": lambda spec: lists_table(spec.contract, ("view.", "event", "legal_actions", "hello.")),
    "moved": lambda spec: moved_table(spec.contract),
    "view-fields": lambda spec: view_fields_table(spec.contract),
    "view-data": lambda spec: view_data_table(spec.contract),
    "legal-actions": lambda spec: legal_text(spec.contract),
    "shapes": lambda spec: shapes_table(spec.contract),
}


def fill_regions(text: str, spec: Spec) -> str:
    """``text`` (docs/protocol.md) with every marked region rendered anew; an unknown region name is an error."""
    def render(match: re.Match[str]) -> str:
        name = match["name"]
        if name not in REGIONS:
            raise ValueError(f"unknown contract region {name!r} (known: {', '.join(REGIONS)})")
        return match[1] + "\n".join(REGIONS[name](spec)) + "\n" + match[4]
    return REGION.sub(render, text)


def region_names(text: str) -> list[str]:
    return [m["name"] for m in REGION.finditer(text)]


def render_page(spec: Spec, generated: str) -> str:
    """docs/spec/contract.md: the whole contract, for implementers."""
    c = spec.contract
    out = [
        "# The observable contract", "", generated, "",
        "What an engine must answer exactly, beyond the rules' outcome: which clause each event cites in which",
        "situation, which code refuses an action, the order and scope of every list, what a view shows. The fuzzer and",
        "the agreement checks compare by it; `tests/conformance/test_contract_reference.py` holds the reference to it",
        "over the whole suite and seeded games. The source is `spec/contract.yaml`; `baobei_spec.contract` has the",
        "functions comparers call (`compared_event`, `action_key`, `refusal_for`, `shape_problem`).", "",
        "## Events", "",
        f"Compared: `kind`, `clause` and every data field, in the events' order. Informational (never compared): "
        f"{names(c.informational)}. An event cites exactly its situation's clause.", "",
        *events_table(c), "",
        "## Refusals: which code", "",
        "The first row whose decision, action and condition hold gives the code (exactly one code is right); no row",
        "holds for an accepted action. *cites*: the clause the reference gives with the refusal (it counts as",
        "exercised in the report; it is not part of the protocol's answer).", "",
        *refusals_table(c), "",
        "## Action shapes", "",
        "An action whose type is unknown, that lacks a field or has one more, or whose field has another JSON type is",
        "`malformed_action` (row 1). `target` is `[owner, slot]`; `claim` `{player, targets}`; `own choice`",
        "`[drawn index, slot]` or `null`; `rival choice` `[drawn index, rival, slot]` or `null`.", "",
        *shapes_table(c), "",
        "## Lists: order and scope", "",
        "The players of the round are `state.players`: in a decisive round only the tied players, not every seat.", "",
        *lists_table(c, ("",)), "",
        "## Views", "",
        "A view is asked for the players of the round; it has exactly these fields:", "",
        *view_fields_table(c), "",
        *view_data_table(c), "",
        "## legal_actions", "",
        *legal_text(c), "",
        "## When a card counts as moved", "",
        *moved_table(c),
    ]
    return "\n".join(out) + "\n"
