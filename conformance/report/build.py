"""Render the report: static HTML pages (Jinja2, autoescaped), a CSS and a script copied next to them, badges."""

from __future__ import annotations

import contextlib
import gc
import json
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
from jinja2 import Environment, FileSystemBytecodeCache, FileSystemLoader, StrictUndefined, select_autoescape

from baobei_conform.dsl.errors import ScenarioError
from baobei_conform.files.outputs import replace_dir
from baobei_conform.fuzz.witness import tables
from baobei_conform.report.fuzz import FuzzRun, fuzz_rows, load_fuzz, write_reproducers
from baobei_conform.report.model import (
    ALL_STATUSES,
    ClauseRow,
    Report,
    ScenarioRow,
    collect,
    exercise,
    id_key,
    load_document,
    part_key,
    pct,
)
from baobei_conform.report.positions import FAILED, failure_pair, positions
from baobei_conform.suite.cache import cache_dir
from baobei_conform.suite.scenario import load_scenario
from baobei_conform.table import Faces
from baobei_conform.table.picture import Painter, legend

HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"
STATIC = HERE / "static"
STATIC_FILES = ("report.css", "report.js")


class CompiledTemplates(FileSystemBytecodeCache):
    """The templates compiled once, kept in the user's cache folder (cache.py): Jinja keys each by its name and
    the checksum of its source, writes it renamed into place and ignores one it cannot read back. A folder that
    cannot be read or written only leaves the templates compiled each time."""

    def load_bytecode(self, bucket) -> None:
        with contextlib.suppress(OSError):
            super().load_bytecode(bucket)

    def dump_bytecode(self, bucket) -> None:
        with contextlib.suppress(OSError):
            super().dump_bytecode(bucket)


def _compiled_templates() -> CompiledTemplates | None:
    folder = cache_dir() / "templates"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return CompiledTemplates(str(folder))


def environment() -> Environment:
    env = Environment(loader=FileSystemLoader(str(TEMPLATES)), autoescape=select_autoescape(["html", "j2"],
                      default_for_string=True, default=True), undefined=StrictUndefined, trim_blocks=True,
                      lstrip_blocks=True, keep_trailing_newline=True, bytecode_cache=_compiled_templates())
    env.filters["pct"] = pct
    env.filters["duration"] = duration
    env.filters["tojson_line"] = lambda v: json.dumps(v, ensure_ascii=False)
    return env


def duration(seconds: float) -> str:
    """Milliseconds below a second (a fast engine's scenarios never read "0 s"), seconds above."""
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def _sections(report: Report) -> list[dict]:
    """The outline: top sections with their subsections, each with its clause rows in rulebook order."""
    spec = report.spec
    top_of: dict[str, dict[str, Any]] = {}
    tops = []
    for sec in spec.sections.values():
        if "." not in sec.id:
            entry = {"section": sec, "title": report.part_titles.get("6" if sec.id == "A" else sec.id, sec.title),
                     "subs": [], "clauses": []}
            tops.append(entry)
            top_of["6" if sec.id == "A" else sec.id] = entry
    subs: dict[str, dict[str, Any]] = {}
    for sec in spec.sections.values():
        if "." in sec.id:
            head = sec.id.split(".")[0]
            entry = {"section": sec, "title": f"{sec.id} {sec.title}", "clauses": []}
            subs[sec.id] = entry
            if head in top_of:
                top_of[head]["subs"].append(entry)
    orphans: list[ClauseRow] = []
    rows = sorted(report.clauses.values(), key=lambda r: (r.clause.line_es, id_key(r.id)))
    for row in rows:
        sid = row.clause.section
        if sid in subs:
            subs[sid]["clauses"].append(row)
        elif sid in spec.sections and "." not in sid:
            top_of["6" if sid == "A" else sid]["clauses"].append(row)
        else:
            orphans.append(row)
    if orphans:
        tops.append({"section": None, "title": "Clauses outside the outline", "subs": [], "clauses": orphans})
    return tops


def build_report(out_dir, results_files: list | None = None, scenarios_dir="scenarios", impact_file=None,
                 mutants: list[dict] | None = None, fuzz_files: list | None = None) -> Path:
    """Write the report into ``out_dir``; return the path of its index.html.

    Several results files: several engines side by side. None: the suite is run on the reference in process.
    ``impact_file``: a ``baobei-conform rulings --json FILE`` document, shown on the rulings page.
    ``mutants``: mutation results to show per clause (see ``load_mutants``).
    ``fuzz_files``: ``baobei-conform fuzz --json FILE`` documents, one fuzzing section per engine.
    """
    fuzz = load_fuzz(fuzz_files or [])  # read first: a bad file is refused before the suite runs
    impact = load_impact(impact_file) if impact_file else None
    report = collect([Path(f) for f in results_files or []], scenarios_dir, mutants=mutants)
    report.fuzz = fuzz
    return write_report(report, Path(out_dir), impact)


def load_impact(path) -> dict:
    """The rulings impact document, indexed ``{ruling: {reading: measured reading}}`` plus its consistency."""
    doc = load_document(path, "rulings.schema.json", "a `baobei-conform rulings --json` document")
    readings = {r["id"]: {rd["id"]: rd for rd in r["readings"]} for r in doc["rulings"]}
    painter, faces = Painter(), Faces()
    for rd in (rd for by_reading in readings.values() for rd in by_reading.values()):
        if (rd.get("witness") or {}).get("found"):  # the diverging step drawn: before it, each reading after it
            rd["witness"]["pictures"] = [painter.table(t, title, title) for title, t in tables(rd["witness"], faces)]
    return {"readings": readings, "consistency": doc.get("consistency") or [], "budget": doc.get("budget") or {}}


def write_report(report: Report, out: Path, impact: dict | None = None) -> Path:
    """Build the report in a fresh folder and swap it in for ``out``: never half of one run, nor two runs mixed."""
    with _settled():
        return replace_dir(out, lambda fresh: _write_pages(report, fresh, impact), "baobei-conform report")


@contextlib.contextmanager
def _settled():
    """The report's data lives until the last page is written: the garbage collector is spared walking all of it
    again and again while the pages are made (``gc.freeze``; about 0.08 s of the 1.3 s the full suite's pages take,
    measured), and given it back at the end."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


@dataclass(frozen=True)
class Page:
    """A top-level page: its file, its label in the navigation (in this order), and what its template
    (``<id>.html.j2``) shows besides what every page gets. A new page is a template and a row here."""

    file: str
    label: str
    data: Callable[[Report, list[ClauseRow], dict | None], dict]  # (report, clause rows, impact) -> variables

    @property
    def id(self) -> str:
        return self.file.removesuffix(".html")


PAGES = (
    Page("index.html", "Overview", lambda report, rows, impact: {"clause_rows": rows, "fuzz_rows": fuzz_rows(report)}),
    Page("clauses.html", "Clauses", lambda report, rows, impact: {"tops": _sections(report)}),
    Page("faq.html", "FAQ", lambda report, rows, impact: {"faq_rows": [r for r in rows if r.is_faq]}),
    Page("rulings.html", "Rulings",
         lambda report, rows, impact: {"provisional": report.spec.provisional_facts(), "impact": impact}),
    Page("provisional.html", "Provisional facts",
         lambda report, rows, impact: {"provisional": report.spec.provisional_facts()}),
)


def _write_pages(report: Report, out: Path, impact: dict | None) -> Path:
    for sub in ("static", "scenarios", "badges"):
        (out / sub).mkdir()
    for name in STATIC_FILES:
        shutil.copyfile(STATIC / name, out / "static" / name)

    env = environment()
    by_id = {s.id: s for s in report.scenarios}
    clause_rows = sorted(report.clauses.values(), key=lambda r: (r.clause.line_es, id_key(r.id)))
    common = {
        "report": report, "engines": report.engines, "by_id": by_id, "coverage": report.coverage(),
        "statuses": ALL_STATUSES, "parts": report.parts, "part_titles": report.part_titles,
        "clause_parts": sorted({r.part for r in clause_rows} | set(report.parts), key=part_key), "pages": PAGES,
    }

    for page in PAGES:
        html = env.get_template(f"{page.id}.html.j2").render(**common, root="", page_id=page.id,
                                                             **page.data(report, clause_rows, impact))
        _write_page(out / page.file, html)
    write_reproducers(report.fuzz, out)
    scenario_template = env.get_template("scenario.html.j2")
    painter, faces = Painter(), Faces(report.spec)
    common["legend"] = legend(faces, painter)
    for run in report.fuzz:
        for found in run.problems:
            if run.reproducer_file(found):
                html = env.get_template("reproducer.html.j2").render(
                    **common, root="../../", page_id="reproducer", run=run, found=found,
                    **_reproducer(run, found, out, report, painter, faces))
                _write_page(out / run.reproducer_file(found, ".html"), html)
    for s in report.scenarios:
        html = scenario_template.render(**common, root="../", page_id="scenario", s=s,
                                        **_pictures(s, report, painter, faces), **_source(s))
        _write_page(out / "scenarios" / f"{s.slug}.html", html)
        s.exercise.walked = []  # drawn: the tables need not outlive their page
    for eng in report.engines:
        (out / "badges" / f"{eng.slug}.json").write_text(json.dumps(eng.badge(), indent=2) + "\n", encoding="utf-8")
    return out / "index.html"


def _write_page(path: Path, html: str) -> None:
    """A page as UTF-8 bytes, its newlines as they are: the same bytes as a text file with ``newline="\\n"``, written
    six times faster (the suite's pages are 29 MB; through a text file that took 0.3 s of CPU, measured)."""
    path.write_bytes(html.encode("utf-8"))


def _failing(s: ScenarioRow) -> dict[int, list[str]]:
    """File line -> the engines whose result stops there."""
    failing: dict[int, list[str]] = {}
    for slug, r in s.results.items():
        if r["line"] is not None and r["status"] in FAILED:
            failing.setdefault(r["line"], []).append(slug)
    return failing


def _pictures(s: ScenarioRow, report: Report, painter: Painter, faces: Faces) -> dict:
    """The table after every action on the reference, and each failing engine's table beside the reference's."""
    if s.scenario is None:
        return {"positions": None, "pairs": {}}
    found = positions(s.scenario, s.exercise.walked, s.exercise.error, report.spec, painter, _failing(s), faces)
    pairs = {slug: failure_pair(r, found, painter) for slug, r in s.results.items() if r["status"] in FAILED}
    return {"positions": found, "pairs": {slug: pair for slug, pair in pairs.items() if pair is not None}}


def _reproducer(run: FuzzRun, found: dict, out: Path, report: Report, painter: Painter, faces: Faces) -> dict:
    """A fuzz reproducer drawn as a scenario page draws its scenario: loaded from the file the report wrote (a
    scenario file like any: safely, its errors shown), walked on the reference (it passes there when verified)."""
    path = out / str(run.reproducer_file(found))
    text = found["reproducer"]["text"]
    source = [{"line": i + 1, "text": line} for i, line in enumerate(text.rstrip("\n").split("\n"))]
    drawn: dict[str, Any] = {"file": path.name, "source": source, "positions": None, "problem": ""}
    try:
        scenario = load_scenario(path, report.spec)
    except ScenarioError as exc:
        return {**drawn, "problem": str(exc).replace(str(out) + "/", "")}
    walked = exercise(scenario)
    drawn["positions"] = positions(scenario, walked.walked, walked.error, report.spec, painter, {}, faces)
    return drawn


def _source(s: ScenarioRow) -> dict:
    """The scenario's DSL script as (file line, text, engines failing there), and its compiled steps."""
    if s.scenario is None:
        return {"source": [], "steps": []}
    failing = _failing(s)
    first = s.scenario.script_line
    source = [{"line": first + i, "text": text, "failing": failing.get(first + i, [])}
              for i, text in enumerate(s.scenario.script.rstrip("\n").split("\n"))]
    steps = []
    for step in s.scenario.steps:
        line = s.scenario.file_line(step["line"]) if isinstance(step.get("line"), int) else None
        brief = {k: "…" if k == "state" else v for k, v in step.items() if k not in ("op", "line")}
        steps.append({"line": line, "op": step.get("op", "?"), "brief": json.dumps(brief, ensure_ascii=False),
                      "full": orjson.dumps(step, option=orjson.OPT_INDENT_2).decode(),  # = json.dumps(indent=2)
                      "failing": failing.get(line, []) if line is not None else []})
    return {"source": source, "steps": steps}
