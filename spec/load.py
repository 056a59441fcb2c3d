"""Load the spec files and check them; every problem names the file and the entry."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from baobei_spec.model import (
    KINDS,
    RULING_STATUSES,
    Clause,
    ErrorCode,
    Fact,
    Params,
    Reading,
    Ruling,
    Section,
    Spec,
    Species,
    Vocabulary,
)

SPEC_ROOT = Path(__file__).resolve().parent
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present: the same safe subset, ~10x faster
RULEBOOK_ES = "rulebook/000_6fef198ee512738b.txt"
RULEBOOK_NL = "rulebook/002_5e82730e00f7d66f.txt"
_NAME = re.compile(r"[a-z][a-z_]*")
VOCABULARY_KEYS = ("parts", "actions", "decisions", "events", "checks")
# Cross-references as the Spanish text writes them: "§ 3.5", "§§ 6.1 y 6.10", "parte 3", "anexo A".
_REF_PATTERNS = (
    re.compile(r"§§? ?(\d+\.\d+)(?: y (\d+\.\d+))?"),
    re.compile(r"\bparte (\d)\b"),
    re.compile(r"\banexo ([AB])\b"),
)


@dataclass(frozen=True)
class Problem:
    """One failed check: which file, which entry, what is wrong."""

    file: str
    entry: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {self.entry}: {self.message}"


class SpecError(Exception):
    """The spec files are broken; ``problems`` lists every failed check."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


def text_refs(text: str) -> list[str]:
    """Section ids a Spanish clause text cross-references."""
    found: list[str] = []
    for pattern in _REF_PATTERNS:
        for match in pattern.finditer(text):
            found.extend(g for g in match.groups() if g)
    return found


def _read_yaml(root: Path, rel: str, problems: list[Problem]) -> Any:
    path = root / rel
    try:
        with path.open(encoding="utf-8") as fh:
            return yaml.load(fh, Loader=SAFE_LOADER)
    except (OSError, yaml.YAMLError) as exc:
        problems.append(Problem(rel, "-", f"cannot be read: {exc}"))
        return None


def _entries(data: object, rel: str, problems: list[Problem]) -> list[dict[str, Any]]:
    """The mappings of a YAML list; anything else is a problem, not a crash."""
    if data is None:
        return []
    if not isinstance(data, list):
        problems.append(Problem(rel, "-", "must be a list of entries"))
        return []
    out = []
    for i, item in enumerate(data, start=1):
        if isinstance(item, dict):
            out.append(item)
        else:
            problems.append(Problem(rel, f"entry {i}", f"must be a mapping, not {item!r}"))
    return out


def _fact(raw: object, rel: str, entry: str, problems: list[Problem]) -> Fact:
    if not isinstance(raw, dict) or "value" not in raw:
        problems.append(Problem(rel, entry, "a fact needs `value` and `source` or `provisional`"))
        return Fact(None)
    source = tuple(raw.get("source") or ())
    provisional = raw.get("provisional")
    if not source and not provisional:
        problems.append(Problem(rel, entry, "a fact must cite `source` lines or a `provisional` ruling"))
    return Fact(raw["value"], source, provisional)


def _load_sections(root: Path, problems: list[Problem]) -> dict[str, Section]:
    sections: dict[str, Section] = {}
    for raw in _entries(_read_yaml(root, "outline.yaml", problems), "outline.yaml", problems):
        sid = str(raw.get("id"))
        if sid in sections:
            problems.append(Problem("outline.yaml", sid, "duplicate section id"))
        lines = raw.get("lines")
        if not (isinstance(lines, list) and len(lines) == 2 and all(isinstance(n, int) for n in lines)):
            problems.append(Problem("outline.yaml", sid, "`lines` must be [first, last] line numbers"))
            continue
        first, last = lines
        sections[sid] = Section(sid, raw["title"], first, last)
    return sections


def _section_of(line: int, sections: dict[str, Section]) -> str | None:
    """The narrowest section whose line range holds ``line``."""
    best = None
    for sec in sections.values():
        if sec.first_line <= line <= sec.last_line:
            if best is None or (sec.last_line - sec.first_line) <= (best.last_line - best.first_line):
                best = sec
    return best.id if best else None


def _load_clauses(root: Path, sections: dict[str, Section], problems: list[Problem]) -> dict[str, Clause]:
    clauses: dict[str, Clause] = {}
    files = sorted((root / "clauses").glob("*.yaml"))
    if not files:
        problems.append(Problem("clauses/", "-", "no clause files"))
    for path in files:
        rel = f"clauses/{path.name}"
        for raw in _entries(_read_yaml(root, rel, problems), rel, problems):
            cid = str(raw.get("id", "?"))
            if cid in clauses:
                problems.append(Problem(rel, cid, f"duplicate clause id (also in {clauses[cid].file})"))
                continue
            missing = [k for k in ("kind", "lines", "es", "nl", "en") if not raw.get(k)]
            if missing:
                problems.append(Problem(rel, cid, f"missing or empty: {', '.join(missing)}"))
                continue
            if raw["kind"] not in KINDS:
                problems.append(Problem(rel, cid, f"kind {raw['kind']!r} is not one of {', '.join(KINDS)}"))
            if raw["en"].strip() == "TODO":
                problems.append(Problem(rel, cid, "the English rule is still TODO"))
            lines = raw["lines"]
            if not (isinstance(lines, dict) and all(isinstance(lines.get(k), int) for k in ("es", "nl"))):
                problems.append(Problem(rel, cid, "`lines` must give the es and nl line numbers"))
                continue
            line_es, line_nl = lines["es"], lines["nl"]
            clauses[cid] = Clause(
                id=cid,
                kind=raw["kind"],
                section=_section_of(line_es, sections) or "?",
                line_es=line_es,
                line_nl=line_nl,
                es=raw["es"],
                nl=raw["nl"],
                en=raw["en"],
                refs=tuple(str(r) for r in raw.get("refs") or ()),
                file=rel,
            )
    return clauses


def _load_catalog(root: Path, problems: list[Problem]) -> tuple[tuple[Species, ...], dict[str, tuple[int, ...]], int]:
    rel = "catalog.yaml"
    raw = _read_yaml(root, rel, problems) or {}
    species: list[Species] = []
    seen: set[str] = set()
    families = {name: tuple(v.get("source") or ()) for name, v in (raw.get("families") or {}).items()}
    for item in raw.get("species") or []:
        sid = str(item.get("id"))
        if sid in seen:
            problems.append(Problem(rel, sid, "duplicate species id"))
        seen.add(sid)
        facts = {k: _fact(item.get(k), rel, f"{sid}.{k}", problems) for k in ("family", "value", "power", "count")}
        names = dict(item.get("names") or {})
        facts["names"] = Fact(
            {k: names.get(k) for k in ("es", "nl", "en")}, tuple(names.get("source") or ()), names.get("provisional")
        )
        if not facts["names"].source and not facts["names"].provisional:
            problems.append(Problem(rel, f"{sid}.names", "a fact must cite `source` lines or a `provisional` ruling"))
        for lang in ("es", "nl", "en"):
            if not names.get(lang):
                problems.append(Problem(rel, sid, f"missing {lang} name"))
        species.append(
            Species(
                id=sid,
                names={k: names.get(k, "") for k in ("es", "nl", "en")},
                family=facts["family"].value,
                value=facts["value"].value,
                power=facts["power"].value,
                count=facts["count"].value,
                facts=facts,
            )
        )
    total = _fact(raw.get("total"), rel, "total", problems).value
    counted = sum(sp.count for sp in species if isinstance(sp.count, int))
    if counted != total:
        problems.append(Problem(rel, "total", f"species counts sum to {counted}, the catalog states {total}"))
    return tuple(species), families, total


def _load_params(root: Path, problems: list[Problem]) -> Params:
    rel = "params.yaml"
    raw = _read_yaml(root, rel, problems) or {}
    names = (
        "players", "hand_size", "decisive_hand_size", "initial_peek", "threshold",
        "bao_failure_minimum", "bao_failure_factor", "final_phase_recycle",
    )
    facts = {n: _fact(raw.get(n), rel, n, problems) for n in names}

    def by_count(name: str) -> dict[int, int]:
        return {int(k): int(v) for k, v in (facts[name].value or {}).items()}

    players = facts["players"].value or {"min": 0, "max": -1}
    return Params(
        min_players=players["min"],
        max_players=players["max"],
        hand_size=by_count("hand_size"),
        decisive_hand_size=by_count("decisive_hand_size"),
        initial_peek=facts["initial_peek"].value,
        threshold=by_count("threshold"),
        bao_failure_minimum=facts["bao_failure_minimum"].value,
        bao_failure_factor=facts["bao_failure_factor"].value,
        final_phase_recycle=facts["final_phase_recycle"].value,
        facts=facts,
    )


def _clause_ids(raw_ids: Any, rel: str, entry: str, problems: list[Problem]) -> tuple[str, ...]:
    """Clause ids must be quoted strings: YAML reads 6.10 as the number 6.1."""
    for c in raw_ids or ():
        if not isinstance(c, str):
            problems.append(Problem(rel, entry, f"clause id {c!r} must be a quoted string"))
    return tuple(str(c) for c in raw_ids or ())


def _lines(raw: object, rel: str, entry: str, problems: list[Problem]) -> tuple[int, ...]:
    if not isinstance(raw, list) or not all(isinstance(n, int) for n in raw):
        problems.append(Problem(rel, entry, "`supports` and `contradicts` must be lists of line numbers"))
        return ()
    return tuple(raw)


def _readings(raw: dict[str, Any], rel: str, rid: str, problems: list[Problem]) -> tuple[Reading, ...]:
    """A ruling's readings: each an id, a text and the lines for and against it; the adopted one among them."""
    out: list[Reading] = []
    for i, item in enumerate(raw["readings"] if isinstance(raw["readings"], list) else (), start=1):
        entry = f"{rid} reading {i}"
        if not isinstance(item, dict) or not item.get("id") or not item.get("text"):
            problems.append(Problem(rel, entry, "a reading is a mapping with id, text, supports, contradicts"))
            continue
        entry = f"{rid} reading {item['id']}"
        if any(r.id == item["id"] for r in out):
            problems.append(Problem(rel, entry, "duplicate reading id"))
        out.append(Reading(str(item["id"]), item["text"], _lines(item.get("supports"), rel, entry, problems),
                           _lines(item.get("contradicts"), rel, entry, problems), item.get("switch") is True))
    if not out:
        problems.append(Problem(rel, rid, "`readings` must list at least the adopted reading"))
    elif raw.get("adopted") not in {r.id for r in out}:
        problems.append(Problem(rel, rid, f"adopted reading {raw.get('adopted')!r} is not one of its readings"))
    elif any(r.switch and r.id == raw["adopted"] for r in out):
        problems.append(Problem(rel, rid, "the adopted reading is the default, not a switch"))
    return tuple(out)


def _load_rulings(root: Path, problems: list[Problem]) -> dict[str, Ruling]:
    rel = "rulings.yaml"
    rulings: dict[str, Ruling] = {}
    for raw in _entries(_read_yaml(root, rel, problems), rel, problems):
        rid = str(raw.get("id"))
        if rid in rulings:
            problems.append(Problem(rel, rid, "duplicate ruling id"))
        needed = ("clauses", "question", "readings", "adopted", "ruling", "reason", "status")
        missing = [k for k in needed if not raw.get(k)]
        if missing:
            problems.append(Problem(rel, rid, f"missing or empty: {', '.join(missing)}"))
            continue
        if raw["status"] not in RULING_STATUSES:
            problems.append(Problem(rel, rid, f"status {raw['status']!r} is not one of {', '.join(RULING_STATUSES)}"))
        rulings[rid] = Ruling(
            rid, _clause_ids(raw["clauses"], rel, rid, problems), raw["question"], _readings(raw, rel, rid, problems),
            str(raw["adopted"]), raw["ruling"], raw["reason"], raw["status"],
        )
    return rulings


def _load_errors(root: Path, problems: list[Problem]) -> dict[str, ErrorCode]:
    rel = "errors.yaml"
    errors: dict[str, ErrorCode] = {}
    for raw in _entries(_read_yaml(root, rel, problems), rel, problems):
        code = str(raw.get("code"))
        if code in errors:
            problems.append(Problem(rel, code, "duplicate error code"))
        errors[code] = ErrorCode(code, raw.get("meaning", ""), _clause_ids(raw.get("clauses"), rel, code, problems))
    return errors


def _names(raw: object, rel: str, entry: str, problems: list[Problem]) -> list[str]:
    """A list of snake_case names (a mapping gives its keys); anything else is a problem."""
    items = list(raw) if isinstance(raw, dict | list) else None
    if items is None:
        problems.append(Problem(rel, entry, f"must be a list or mapping of names, not {raw!r}"))
        return []
    bad = [n for n in items if not (isinstance(n, str) and _NAME.fullmatch(n))]
    if bad or len(set(items)) != len(items):
        problems.append(Problem(rel, entry, f"names must be unique snake_case strings: {items}"))
    return [n for n in items if isinstance(n, str)]


def _load_vocabulary(root: Path, errors: dict[str, ErrorCode], problems: list[Problem]) -> Vocabulary:
    rel = "vocabulary.yaml"
    raw = _read_yaml(root, rel, problems)
    raw = raw if isinstance(raw, dict) else {}
    for key in VOCABULARY_KEYS:
        if not isinstance(raw.get(key), dict | list):
            problems.append(Problem(rel, key, "missing (or not a list / mapping)"))
    for key in sorted(set(raw) - set(VOCABULARY_KEYS), key=str):
        problems.append(Problem(rel, str(key), f"unknown key; keys are {', '.join(VOCABULARY_KEYS)}"))

    def mapping(key: str) -> dict[Any, Any]:
        value = raw.get(key)
        return value if isinstance(value, dict) else {}

    for group in ("actions", "decisions", "events", "checks"):
        _names(mapping(group), rel, group, problems)
    actions = {t: {str(f): str(d) for f, d in v.items()} if isinstance(v, dict) else {}
               for t, v in mapping("actions").items()}
    for t, fields in actions.items():
        _names(fields, rel, f"actions.{t}", problems)
    decisions = {k: tuple(_names(v or [], rel, f"decisions.{k}", problems)) for k, v in mapping("decisions").items()}
    events = {k: tuple(_names(v or [], rel, f"events.{k}", problems)) for k, v in mapping("events").items()}
    checks = {w: {str(f): str(e) for f, e in v.items()} if isinstance(v, dict) else {}
              for w, v in mapping("checks").items()}
    for kind, types in decisions.items():
        for t in types:
            if t not in actions:
                problems.append(Problem(rel, f"decisions.{kind}", f"unknown action type {t!r}"))
    for t in actions:
        if not any(t in types for types in decisions.values()):
            problems.append(Problem(rel, f"actions.{t}", "answers no decision"))
    forms = [f for v in checks.values() for f in v]
    _names(forms, rel, "checks (statement forms)", problems)
    for what, examples in checks.items():
        if not examples or not all(e.startswith("expect ") for e in examples.values()):
            problems.append(Problem(rel, f"checks.{what}", "needs statement forms, each with an `expect ...` example"))
    parts = tuple(str(p) for p in raw.get("parts") or ())
    return Vocabulary(parts, actions, decisions, events, checks, tuple(errors))


def _read_lines(root: Path, rel: str, problems: list[Problem]) -> tuple[str, ...]:
    try:
        return tuple((root / rel).read_text(encoding="utf-8").split("\n"))
    except OSError as exc:
        problems.append(Problem(rel, "-", f"cannot be read: {exc}"))
        return ()


@cache
def default_spec() -> Spec:
    """The spec of this package, loaded and checked once per process (it never changes)."""
    return load_spec()


def load_spec(root: Path | str | None = None, strict: bool = True) -> Spec:
    """Load and check the spec under ``root`` (default: this package).

    With ``strict`` (the default) any failed check raises :class:`SpecError` listing them all;
    otherwise the problems are returned on ``Spec.problems``.
    """
    from baobei_spec.checks import check_spec  # checks need the loaded records
    from baobei_spec.load_contract import load_contract

    root = Path(root) if root is not None else SPEC_ROOT
    problems: list[Problem] = []
    sections = _load_sections(root, problems)
    clauses = _load_clauses(root, sections, problems)
    species, families, total = _load_catalog(root, problems)
    errors = _load_errors(root, problems)
    vocabulary = _load_vocabulary(root, errors, problems)
    spec = Spec(
        sections=sections,
        clauses=clauses,
        species_list=species,
        families=families,
        total_cards=total,
        params=_load_params(root, problems),
        rulings=_load_rulings(root, problems),
        errors=errors,
        lines_es=_read_lines(root, RULEBOOK_ES, problems),
        lines_nl=_read_lines(root, RULEBOOK_NL, problems),
        vocabulary=vocabulary,
        contract=load_contract(root, vocabulary, problems),
        problems=(),
    )
    problems.extend(check_spec(spec))
    if strict and problems:
        raise SpecError(problems)
    object.__setattr__(spec, "problems", tuple(problems))
    return spec
