"""Typed records for the spec. Plain frozen dataclasses: the spec never changes once loaded."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal, get_args

ClauseKind = Literal["normative", "example", "informative", "summary", "faq"]
KINDS: tuple[ClauseKind, ...] = get_args(ClauseKind)
RulingStatus = Literal["decided", "provisional"]  # decided: final; provisional: until the publisher confirms
RULING_STATUSES: tuple[RulingStatus, ...] = get_args(RulingStatus)


def part_of(clause_id: str) -> str:
    """The rulebook part a clause id belongs to: '3' for 3.5.4, 'B' for B.2, 'FAQ' for FAQ-07."""
    return clause_id.split("-")[0].split(".")[0]


@dataclass(frozen=True)
class Section:
    """A heading of the reconstructed outline (e.g. ``3.5`` Failed pluck)."""

    id: str
    title: str
    first_line: int
    last_line: int


@dataclass(frozen=True)
class Clause:
    """One paragraph, bullet or numbered step of the rulebook, in both languages."""

    id: str
    kind: ClauseKind
    section: str
    line_es: int
    line_nl: int
    es: str
    nl: str
    en: str
    refs: tuple[str, ...]
    file: str


@dataclass(frozen=True)
class Fact:
    """A catalog or parameter value with where it comes from: rulebook lines or a ruling."""

    value: Any  # as the YAML file gives it (checked by the loader and spec/checks.py)
    source: tuple[int, ...] = ()
    provisional: str | None = None


@dataclass(frozen=True)
class Species:
    """A bird of the card catalog."""

    id: str
    names: dict[str, str]
    family: str
    value: int
    power: str | None
    count: int
    facts: dict[str, Fact] = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True)
class Params:
    """Rule parameters an engine receives; catalog and thresholds are never hard-coded."""

    min_players: int
    max_players: int
    hand_size: dict[int, int]
    decisive_hand_size: dict[int, int]
    initial_peek: int
    threshold: dict[int, int]
    bao_failure_minimum: int
    bao_failure_factor: int
    final_phase_recycle: int
    rulings: dict[str, str] = field(default_factory=dict)  # ruling id -> reading; absent: the adopted one
    facts: dict[str, Fact] = field(default_factory=dict, compare=False, repr=False)

    def with_overrides(self, overrides: Mapping[str, Any] | None) -> Params:
        """These parameters changed by a setup's overrides (docs/protocol.md 3.2): a by-player-count map is merged
        key by key (player counts as strings or numbers), any other value replaces this one's. ``catalog`` is no
        parameter of this record (the reference's catalog carries it)."""
        if not overrides:
            return self
        changes: dict[str, Any] = {}
        for key, value in overrides.items():
            if key not in OVERRIDABLE:
                raise ValueError(f"unknown rule parameter {key!r}; known: {', '.join(OVERRIDABLE)}")
            current = getattr(self, key)
            changes[key] = {**current, **{int(k): v for k, v in value.items()}} if isinstance(current, dict) else value
        return replace(self, **changes)


# The rule parameters a setup may override (docs/protocol.md 3.2), besides the catalog's card values.
OVERRIDABLE = ("hand_size", "decisive_hand_size", "initial_peek", "threshold", "bao_failure_minimum",
               "bao_failure_factor", "final_phase_recycle")


@dataclass(frozen=True)
class Reading:
    """One way to read an open point, with the rulebook lines (Spanish numbering) for and against it.

    ``switch``: the reference implements it behind its rule parameters, so its impact can be measured."""

    id: str
    text: str
    supports: tuple[int, ...]
    contradicts: tuple[int, ...]
    switch: bool = False


@dataclass(frozen=True)
class Ruling:
    """An entry of the rulings register: where the text is silent or ambiguous, what we decided."""

    id: str
    clauses: tuple[str, ...]
    question: str
    readings: tuple[Reading, ...]
    adopted: str
    ruling: str
    reason: str
    status: RulingStatus

    def reading(self, reading_id: str) -> Reading:
        return next(r for r in self.readings if r.id == reading_id)

    def alternatives(self) -> tuple[Reading, ...]:
        """Every reading but the adopted one."""
        return tuple(r for r in self.readings if r.id != self.adopted)


@dataclass(frozen=True)
class ErrorCode:
    """A stable error code an engine answers an illegal action with."""

    code: str
    meaning: str
    clauses: tuple[str, ...]


@dataclass(frozen=True)
class Vocabulary:
    """The names the protocol and the scenario language share (``vocabulary.yaml``): one place for each."""

    parts: tuple[str, ...]
    actions: dict[str, dict[str, str]]  # action type -> {field: what it holds}, in protocol order
    decisions: dict[str, tuple[str, ...]]  # decision kind -> the action types that answer it
    events: dict[str, tuple[str, ...]]  # event kind -> its data fields
    checks: dict[str, dict[str, str]]  # check kind (``what``) -> {statement form: example}
    error_codes: tuple[str, ...]  # those of errors.yaml

    def forms(self) -> dict[str, str]:
        """Statement form (a grammar rule of ``expect``) -> the check kind it compiles to."""
        return {form: what for what, forms in self.checks.items() for form in forms}

    def answers(self, action_type: str) -> list[str]:
        """The decision kinds an action type answers."""
        return [kind for kind, types in self.decisions.items() if action_type in types]

    def check_event(self, kind: str, fields: Iterable[str]) -> None:
        """Refuse an event the vocabulary lacks, or a data field it does not list for that kind."""
        known = self.events.get(kind)
        if known is None:
            raise ValueError(f"event kind {kind!r} is not in spec/vocabulary.yaml")
        extra = [f for f in fields if f not in known]
        if extra:
            raise ValueError(f"event {kind!r}: field(s) {', '.join(extra)} not in spec/vocabulary.yaml")


@dataclass(frozen=True)
class Situation:
    """One situation an event kind is emitted in (``contract.yaml``): the clause it cites there, and what tells it."""

    kind: str
    id: str
    clause: str
    when: str
    match: dict[str, Any]  # named conditions (conditions.SITUATION), all of which hold in this situation only
    fields: tuple[str, ...]  # the data fields the event carries here
    instead_of: tuple[str, ...] = ()  # decision kinds it stands for: emitted although none is asked


@dataclass(frozen=True)
class EventContract:
    """An event kind: its data fields (every one compared) and the situations that emit it."""

    kind: str
    fields: dict[str, str]  # data field -> what it holds, in the vocabulary's order
    situations: tuple[Situation, ...]


@dataclass(frozen=True)
class Refusal:
    """A row of the refusal precedence: the first row that holds gives the code (``as_``: the first claim's, as that
    action type)."""

    id: str
    decisions: tuple[str, ...]  # () = any decision
    actions: tuple[str, ...]  # () = any action type
    when: str  # a condition of conditions.REFUSAL
    of: str | None  # the action field the condition reads
    code: str | None
    clause: str | None
    text: str
    as_: str | None = None


@dataclass(frozen=True)
class ListRule:
    """The order and scope of one list (or map) of the state, the views or the replies."""

    path: str
    order: str
    scope: str
    check: str | None  # a check of conditions.LIST, or None (described only)


@dataclass(frozen=True)
class MovedRule:
    """When a card counts as moved by a power this turn (6.11.1, ruling R-08)."""

    id: str
    clause: str
    when: str
    check: str


@dataclass(frozen=True)
class Contract:
    """The observable contract (``contract.yaml``): events and their situations, action shapes, the refusal
    precedence, list orders and scopes, views, legal-action identity, when cards count as moved."""

    events: dict[str, EventContract]
    informational: tuple[str, ...]  # event keys never compared (``also``, ``ruling``)
    shapes: dict[str, dict[str, str]]  # action type -> field -> JSON type
    refusals: tuple[Refusal, ...]
    lists: tuple[ListRule, ...]
    view_fields: dict[str, str]
    pending_data: dict[str, dict[str, str]]  # decision kind -> data key -> who a view shows it to
    legal_actions: dict[str, str]
    moved: tuple[MovedRule, ...]

    def situations(self) -> list[Situation]:
        return [s for e in self.events.values() for s in e.situations]

    def compared_event(self, event: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
        """What of an event must agree with the reference: every key but the informational ones, sorted by key.

        Two engines' events agree when these tuples are equal, list by list in the events' order; the values are
        the JSON values (lists stay lists: compare the tuples, do not hash them)."""
        return tuple(sorted((k, v) for k, v in event.items() if k not in self.informational))


@dataclass(frozen=True)
class Spec:
    """The whole spec, indexed by id."""

    sections: dict[str, Section]
    clauses: dict[str, Clause]
    species_list: tuple[Species, ...]
    families: dict[str, tuple[int, ...]]
    total_cards: int
    params: Params
    rulings: dict[str, Ruling]
    errors: dict[str, ErrorCode]
    lines_es: tuple[str, ...]
    lines_nl: tuple[str, ...]
    vocabulary: Vocabulary
    contract: Contract
    problems: tuple[Any, ...] = ()  # the loader's Problem records (non-strict loads only)

    def clause(self, clause_id: str) -> Clause:
        return self.clauses[clause_id]

    def species(self, species_id: str) -> Species:
        for sp in self.species_list:
            if sp.id == species_id:
                return sp
        raise KeyError(species_id)

    def faq(self) -> list[Clause]:
        return [c for c in self.clauses.values() if c.kind == "faq"]

    def provisional_facts(self) -> list[tuple[str, str]]:
        """(where, ruling id) for every fact chosen by a provisional ruling."""
        out = []
        for sp in self.species_list:
            for name, fact in sp.facts.items():
                if fact.provisional:
                    out.append((f"catalog:{sp.id}.{name}", fact.provisional))
        for name, fact in self.params.facts.items():
            if fact.provisional:
                out.append((f"params:{name}", fact.provisional))
        return out
