"""What the report shows, as plain data: engines and their results, scenarios, clauses and their coverage.

Two coverages per clause:

- **cited**: a scenario names the clause in its metadata (``clauses``; FAQ entries also through ``faq``);
- **exercised**: the reference interpreter cites the clause while the suite runs on it: in an event
  (``"clause"``) or in the error of an action it refuses.

A clause that is cited but never exercised is a finding: the scenario claims to test a rule the reference
never applies while running it. A normative clause (or FAQ entry) that no scenario cites is "uncovered".
"""

from __future__ import annotations

import datetime
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from baobei_conform.dsl.errors import ScenarioError
from baobei_conform.engines.reference import ReferenceEngine
from baobei_conform.engines.sanitize import clean_value
from baobei_conform.files.inputs import InputError, checked, load_json
from baobei_conform.results.conform import RunRecord, run_conformance
from baobei_conform.results.document import STATUSES, agreement, incomplete, part
from baobei_conform.results.merge import MergeError, merge_shards
from baobei_conform.runner.run import StepFailed
from baobei_conform.runner.walk import Walked, walk
from baobei_conform.suite.identity import suite_tag
from baobei_conform.suite.scenario import Scenario, load_scenario, scenario_files
from baobei_spec import Clause, Ruling, Spec, default_spec
from baobei_spec.summary import part_of

NOT_RUN = "notrun"  # the scenario is not in an engine's results (another selection, shard or suite version)
ALL_STATUSES = (*STATUSES, NOT_RUN)
# Worst first: a clause's status for an engine is the worst among its scenarios.
SEVERITY = ("error", "fail", "xpass", NOT_RUN, "variant", "skip", "xfail", "pass")
PART_ORDER = ("1", "2", "3", "4", "5", "6", "7", "B", "SUM", "FAQ", "REM")
FLAGS = ("uncovered", "unexercised", "exercised", "cited")


class ReportError(Exception):
    """A results file the report cannot use, or nothing to report on."""


def id_key(text: str) -> tuple:
    """Natural sort key for ids: 3.5.10 after 3.5.9, FAQ-10 after FAQ-09."""
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.split(r"[.\-]", text))


def part_key(p: str) -> tuple:
    return (PART_ORDER.index(p), "") if p in PART_ORDER else (len(PART_ORDER), p)


def slugify(text: str, taken: set[str] | None = None, fallback: str = "item") -> str:
    """A file-name-safe slug (``[a-z0-9._-]``), unique within ``taken`` (which it updates)."""
    slug = re.sub(r"[^a-z0-9._-]+", "-", str(text).lower()).strip("-.")[:60].strip("-.") or fallback
    if taken is not None:
        base, n = slug, 2
        while slug in taken:
            slug, n = f"{base}-{n}", n + 1
        taken.add(slug)
    return slug


def _text(value) -> str:
    return "" if value is None else value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def pct(n: int, m: int) -> float:
    return round(100.0 * n / m, 1) if m else 0.0


# --- engines --------------------------------------------------------------------------------------------


@dataclass
class EngineRun:
    """One engine's results document, normalized (every text a str, every status a known one)."""

    slug: str
    name: str
    source: str  # the results file, or "in process"
    info: dict  # engine metadata, values as display strings
    run: dict  # run metadata, values as display strings
    results: dict[str, dict]  # scenario id -> result entry
    counts: Counter
    by_part: dict[str, Counter]
    incomplete: str = ""  # "interrupted: 2 of 8 scenarios ran" when the run did not finish
    readings: dict[str, str] = field(default_factory=dict)  # declared in hello: ruling id -> reading id
    suite: dict = field(default_factory=dict)  # what the run judged by (suite/identity.py): version and digests
    agreement: str = "not recorded"  # results.agreement: on, off (rules only), not recorded

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def passed(self) -> int:
        return self.counts["pass"]

    @property
    def rate(self) -> float:
        return pct(self.passed, self.total)

    def badge(self) -> dict:
        """A shields.io endpoint badge: ``{"schemaVersion": 1, "label", "message", "color"}`` (Shields refuses any
        other key), the message naming what was passed: ``473/473 passed, suite 0.1.0 #1a2b3c4d`` (``suite_tag``:
        a digest of the version, scenarios, spec and contract), and agreement when it was not on. ``badge
        --verify`` rebuilds it from the results: any edit of either shows."""
        held = {"on": "", "off (rules only)": ", rules only"}.get(self.agreement, ", agreement not recorded")
        named = f"{held}, suite {suite_tag(self.suite)}" if self.suite else held
        if self.incomplete:  # never green: the run did not finish
            return {"schemaVersion": 1, "label": "baobei",
                    "message": f"{self.passed}/{self.total} passed, incomplete{named}", "color": "lightgrey"}
        return {"schemaVersion": 1, "label": "baobei", "message": f"{self.passed}/{self.total} passed{named}",
                "color": badge_color(self.passed, self.total)}


def badge_color(passed: int, total: int) -> str:
    if not total:
        return "lightgrey"
    rate = passed / total
    if rate == 1:
        return "brightgreen"
    return "green" if rate >= 0.9 else "yellow" if rate >= 0.75 else "orange" if rate >= 0.5 else "red"


def engine_run(document: dict, source: str, taken: set[str]) -> EngineRun:
    """An EngineRun from a results document valid against spec/schemas/results.schema.json (``load_results``, or
    a run in process); a failure's optional fields are given their empty values."""
    info, run = document["engine"], document["run"]
    name = info.get("name") or info["command"] or Path(source).stem
    results = {r["id"]: {"due": "", "differs": [], "reference_events": [], "state": None, **r}
               for r in document["results"]}
    counts = Counter(r["status"] for r in results.values())
    by_part: dict[str, Counter] = {}
    for r in results.values():
        by_part.setdefault(r["part"], Counter())[r["status"]] += 1
    suite = document.get("suite") or {}
    shown = {**{str(k): _text(v) for k, v in run.items()}, "agreement": agreement(document),
             **({"suite": suite_tag(suite)} | {f"{k} digest": _text(v) for k, v in suite.items() if k != "version"}
                if suite else {})}
    return EngineRun(slug=slugify(name, taken, "engine"), name=name, source=source,
                     info={str(k): _text(v) for k, v in info.items()}, run=shown,
                     results=results, counts=counts, by_part=by_part, incomplete=incomplete(document),
                     readings=info.get("readings", {}), suite=suite, agreement=agreement(document))


def load_document(path: str | Path, schema: str, what: str) -> dict:
    """A JSON input of the report (results, fuzz, mutation and rulings documents), read as every input is
    (inputs.py), valid against ``spec/schemas/SCHEMA``, its text made safe (it may come from another machine or a
    hand edit: sanitize.py). A ``ReportError`` names the file and the JSON path of what is wrong, on one line."""
    try:
        document = checked(load_json(path, what), schema, str(path), what)
    except InputError as exc:
        raise ReportError(exc.heading()) from None
    return clean_value(document, limit=1 << 20)


def load_results(path: str | Path) -> dict:
    """A results file: ``merge`` and the report read every shard through here."""
    return load_document(path, "results.schema.json", "a baobei results document")


def run_reference(scenarios: list[Scenario], broken: int = 0, roots=()) -> dict:
    """Run the suite on the reference in process (``run_conformance``, as ``baobei-conform`` does); the results
    document. ``broken``: how many scenario files did not load (the report lists them itself); ``roots``: the
    folders they were loaded from."""
    info = {**ReferenceEngine.info, "command": "reference (in process)",
            "capabilities": sorted(ReferenceEngine.capabilities)}
    run_info = {"argv": ["report"], "shard": None, "jobs": 1, "broken_files": broken}
    return run_conformance(RunRecord(scenarios, info, run_info, roots=roots), ReferenceEngine)


# --- scenarios ------------------------------------------------------------------------------------------


@dataclass
class Exercise:
    """What the reference's events cited while running one scenario, and the tables it went through."""

    clauses: set[str] = field(default_factory=set)
    rulings: set[str] = field(default_factory=set)
    error: str = ""  # the scenario does not run through on the reference: where it stopped
    walked: list[Walked] = field(default_factory=list)  # every step, with the table after it (the page's pictures)


def exercise(scenario: Scenario, engine: ReferenceEngine | None = None) -> Exercise:
    """Walk one scenario on the reference (runner/walk.py), collecting its events' clauses and rulings."""
    found = Exercise()
    engine = engine or ReferenceEngine()
    engine.refusals.clear()
    try:
        for walked in walk(scenario.steps, engine):
            found.walked.append(walked)
            for event in walked.events:
                if isinstance(event, dict):
                    if event.get("clause"):
                        found.clauses.add(str(event["clause"]))
                    found.clauses.update(str(c) for c in event.get("also") or ())
                    if event.get("ruling"):
                        found.rulings.add(str(event["ruling"]))
    except StepFailed as exc:
        where = f"line {scenario.file_line(exc.line)}: " if exc.line is not None else ""
        found.error = f"{where}{exc.message} (expected {exc.expected}, actual {exc.actual})"
    except Exception as exc:  # noqa: BLE001 - a crash of the reference is reported, not raised
        found.error = f"the reference raised {type(exc).__name__}: {exc}"
    found.clauses.update(engine.refusals)  # a refusal citing a clause is the reference applying it
    return found


@dataclass
class ScenarioRow:
    id: str
    slug: str
    title: str
    part: str
    file: str
    clauses: list[str]
    faq: list[str]
    rulings: list[str]
    tags: list[str]
    scenario: Scenario | None  # None: only known from a results file
    exercise: Exercise
    statuses: dict[str, str]  # engine slug -> status
    results: dict[str, dict]  # engine slug -> result entry (when run)
    unreachable: list[str] = field(default_factory=list)  # why its setup is a position no game reaches, if it is

    def tokens(self) -> str:
        return " ".join(f"{slug}:{status}" for slug, status in self.statuses.items())

    @property
    def disagree(self) -> bool:
        """The engines that ran it do not all end the same way."""
        return len({st for st in self.statuses.values() if st != NOT_RUN}) > 1

    @property
    def severity(self) -> int:
        """Rank of its worst status (0: error): the list sorts failures first by it."""
        return min((SEVERITY.index(st) for st in self.statuses.values()), default=len(SEVERITY))

    def search_text(self) -> str:
        return " ".join([self.id, self.title, self.file, *self.clauses, *self.faq, *self.rulings, *self.tags]).lower()


# --- clauses --------------------------------------------------------------------------------------------


@dataclass
class ClauseRow:
    clause: Clause
    part: str
    cited_by: list[str]  # scenario ids
    exercised_by: list[str]  # scenario ids whose reference run emitted an event citing it
    mutants: list[tuple[str, str]] = field(default_factory=list)  # (mutant breaking it, killed | survived | ...)

    @property
    def id(self) -> str:
        return self.clause.id

    @property
    def cited(self) -> bool:
        return bool(self.cited_by)

    @property
    def exercised(self) -> bool:
        return bool(self.exercised_by)

    @property
    def is_faq(self) -> bool:
        return self.clause.kind == "faq"

    @property
    def uncovered(self) -> bool:
        """A normative clause (or FAQ entry) that no scenario cites."""
        return self.clause.kind in ("normative", "faq") and not self.cited

    @property
    def unexercised(self) -> bool:
        """Cited but never exercised: a finding. FAQ entries are never cited by events, so they are exempt."""
        return self.cited and not self.exercised and not self.is_faq

    @property
    def flags(self) -> list[str]:
        return [f for f in FLAGS if getattr(self, f)]


@dataclass
class RulingRow:
    ruling: Ruling
    pinned_by: list[str]
    exercised_by: list[str]


@dataclass
class Report:
    spec: Spec
    engines: list[EngineRun]
    scenarios: list[ScenarioRow]
    clauses: dict[str, ClauseRow]
    rulings: dict[str, RulingRow]
    broken: list[str]  # scenario files that do not load
    scenarios_dir: str
    generated: str
    parts: list[str]
    part_titles: dict[str, str]
    fuzz: list = field(default_factory=list)  # FuzzRun (report/fuzz.py): one per ``--fuzz`` document

    def scenario(self, sid: str) -> ScenarioRow:
        return next(s for s in self.scenarios if s.id == sid)

    def clause_tokens(self, row: ClauseRow, by_id: dict[str, ScenarioRow]) -> str:
        tokens = {f"{slug}:{by_id[sid].statuses[slug]}" for sid in row.cited_by for slug in by_id[sid].statuses}
        return " ".join(sorted(tokens))

    def clause_flags(self, row: ClauseRow, by_id: dict[str, ScenarioRow]) -> str:
        """The clause's coverage flags, and ``disagree`` when the engines disagree on one of its scenarios."""
        return " ".join(row.flags + (["disagree"] if any(by_id[sid].disagree for sid in row.cited_by) else []))

    def clause_status(self, row: ClauseRow, slug: str, by_id: dict[str, ScenarioRow]) -> tuple[str, int, int]:
        """(worst status, passed, total) of the clause's scenarios on one engine; ('none', 0, 0) if uncited."""
        statuses = [by_id[sid].statuses[slug] for sid in row.cited_by]
        if not statuses:
            return "none", 0, 0
        worst = min(statuses, key=SEVERITY.index)
        return worst, statuses.count("pass"), len(statuses)

    def coverage(self) -> dict:
        rows = sorted(self.clauses.values(), key=lambda c: id_key(c.id))
        normative = [c for c in rows if c.clause.kind == "normative"]
        faq = [c for c in self.clauses.values() if c.is_faq]
        pinned = [r for r in self.rulings.values() if r.pinned_by]
        return {
            "normative": len(normative),
            "normative_cited": sum(c.cited for c in normative),
            "normative_exercised": sum(c.exercised for c in normative),
            "clauses": len(self.clauses),
            "cited": sum(c.cited for c in rows),
            "exercised": sum(c.exercised for c in rows),
            "uncovered": [c.id for c in rows if c.uncovered and not c.is_faq],
            "unexercised": [c.id for c in rows if c.unexercised],
            "exercised_uncited": [c.id for c in rows if c.exercised and not c.cited],
            "faq": len(faq),
            "faq_cited": sum(c.cited for c in faq),
            "faq_uncovered": [c.id for c in faq if not c.cited],
            "rulings": len(self.rulings),
            "rulings_pinned": len(pinned),
            "rulings_exercised": sum(bool(r.exercised_by) for r in self.rulings.values()),
            "rulings_unpinned": [r.ruling.id for r in self.rulings.values() if not r.pinned_by],
            "reference_errors": [(s.id, s.exercise.error) for s in self.scenarios if s.exercise.error],
            "results_only": [s.id for s in self.scenarios if s.scenario is None],
            "unknown_events": sorted({c for s in self.scenarios for c in s.exercise.clauses} - set(self.clauses)),
            "mutants": dict(m for c in rows for m in c.mutants),  # mutant -> status, when given
            "normative_unmutated": [c.id for c in normative if not c.mutants],
        }


def load_suite_dir(scenarios_dir: str | Path, spec: Spec) -> tuple[list[Scenario], list[str]]:
    """Every scenario under the folder (sorted by id) and the errors of the files that do not load."""
    scenarios, broken = [], []
    for path in scenario_files([scenarios_dir]) if Path(scenarios_dir).exists() else []:
        try:
            scenarios.append(load_scenario(path, spec))
        except ScenarioError as exc:
            broken.append(str(exc))
    scenarios.sort(key=lambda s: s.id)
    return scenarios, broken


def collect(results_files: list[str | Path] | None = None, scenarios_dir: str | Path = "scenarios",
            spec: Spec | None = None, mutants: list[dict] | None = None) -> Report:
    """Everything the report shows. No results file: the suite is run on the reference in process.
    ``mutants``: mutation results (``tools/mutate.py --json``'s ``mutants``), shown per clause."""
    spec = spec or default_spec()
    suite, broken = load_suite_dir(scenarios_dir, spec)
    taken: set[str] = set()
    if results_files:
        try:  # the shards of one engine's run (--shard K/N in a CI matrix) are one column
            documents = merge_shards([(load_results(f), str(f)) for f in results_files])
        except MergeError as exc:
            raise ReportError(str(exc)) from None
        engines = [engine_run(document, source, taken) for document, source in documents]
    else:
        if not suite:
            raise ReportError(f"no scenario under {scenarios_dir} and no results file: nothing to report")
        engines = [engine_run(run_reference(suite, len(broken), [scenarios_dir]), "in process", taken)]

    reference = ReferenceEngine()
    rows: dict[str, ScenarioRow] = {}
    slugs: set[str] = set()
    for s in suite:
        rows[s.id] = ScenarioRow(
            id=s.id, slug=slugify(s.id, slugs, "scenario"), title=s.title, part=part(s), file=s.path,
            clauses=list(s.clauses), faq=list(s.faq), rulings=list(s.rulings), tags=list(s.tags), scenario=s,
            exercise=exercise(s, reference), statuses={}, results={}, unreachable=list(s.unreachable))
    for eng in engines:  # scenarios only known from results files
        for sid, r in eng.results.items():
            if sid not in rows:
                rows[sid] = ScenarioRow(
                    id=sid, slug=slugify(sid, slugs, "scenario"), title=r["title"], part=r["part"], file=r["file"],
                    clauses=r["clauses"], faq=r["faq"], rulings=r["rulings"], tags=r["tags"], scenario=None,
                    exercise=Exercise(),
                    statuses={}, results={})
    for row in rows.values():
        for eng in engines:
            result = eng.results.get(row.id)
            row.statuses[eng.slug] = result["status"] if result else NOT_RUN
            if result:
                row.results[eng.slug] = result
    scenarios = sorted(rows.values(), key=lambda s: (part_key(s.part), s.id))

    clauses = {cid: ClauseRow(c, part_of(cid), [], []) for cid, c in spec.clauses.items()}
    rulings = {rid: RulingRow(r, [], []) for rid, r in sorted(spec.rulings.items(), key=lambda kv: id_key(kv[0]))}
    for row in scenarios:
        for cid in dict.fromkeys([*row.clauses, *row.faq]):
            if cid in clauses:
                clauses[cid].cited_by.append(row.id)
        for cid in sorted(row.exercise.clauses):
            if cid in clauses:
                clauses[cid].exercised_by.append(row.id)
        for rid in row.rulings:
            if rid in rulings:
                rulings[rid].pinned_by.append(row.id)
        for rid in sorted(row.exercise.rulings):
            if rid in rulings:
                rulings[rid].exercised_by.append(row.id)

    for entry in mutants or ():
        for cid in entry["clauses"]:
            if cid in clauses:
                clauses[cid].mutants.append((entry["mutant"], entry["status"]))

    parts = sorted({s.part for s in scenarios} | {p for e in engines for p in e.by_part}, key=part_key)
    part_titles = {}
    for sec in spec.sections.values():
        if "." not in sec.id:
            pid = "6" if sec.id == "A" else sec.id
            part_titles[pid] = f"Part {sec.id}: {sec.title}" if sec.id.isdigit() else sec.title
    return Report(spec=spec, engines=engines, scenarios=scenarios, clauses=clauses, rulings=rulings,
                  broken=broken, scenarios_dir=str(scenarios_dir),
                  generated=datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
                  parts=parts, part_titles=part_titles)
