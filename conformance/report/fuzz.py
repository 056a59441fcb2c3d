"""The report's fuzzing section: one ``baobei-conform fuzz --json FILE`` document per engine, read safely.

The documents may come from another machine or an older version: every text is cleaned (sanitize.py), every
field checked for its type, and anything unusable is refused with the file's name (``ReportError``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from baobei_conform.fuzz.checklist import FUZZ_SCHEMA
from baobei_conform.report.model import ReportError, id_key, load_results, slugify


@dataclass
class FuzzRun:
    """One engine's fuzzing run, as the report shows it."""

    slug: str
    engine: str
    source: str  # the JSON file
    mode: str  # differential | invariants
    summary: dict[str, str]  # budget, games, actions, ... as display strings
    checks: list[dict]  # {check, what, status, reason}
    cited: list[str]  # clauses the reference cited during the run
    problem: dict | None  # {check, message, clauses, reproducer: {id, actions, verified, note, text, path} | None}
    notes: list[str]
    interrupted: bool = False  # a signal cut the run short: its figures are what it did until then

    @property
    def held(self) -> bool:
        return self.problem is None

    def reproducer_file(self, suffix: str = ".yaml") -> str | None:
        """Where the report keeps the reproducer's text (``.html``: its tables), relative to the report folder."""
        reproducer = (self.problem or {}).get("reproducer")
        return f"fuzz/{self.slug}/{slugify(reproducer['id'])}{suffix}" if reproducer else None


def _str(value) -> str:
    return "" if value is None else str(value)


def _strs(value) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else []


def _problem(raw) -> dict | None:
    if not isinstance(raw, dict):
        return None
    reproducer = raw.get("reproducer")
    if isinstance(reproducer, dict):
        actions = reproducer.get("actions")
        reproducer = {"id": _str(reproducer.get("id")) or "reproducer", "text": _str(reproducer.get("text")),
                      "actions": actions if isinstance(actions, int) else None,
                      "verified": reproducer.get("verified") is True, "note": _str(reproducer.get("note")),
                      "path": _str(reproducer.get("path"))}
    else:
        reproducer = None
    return {"check": _str(raw.get("check")), "message": _str(raw.get("message")), "clauses": _strs(raw.get("clauses")),
            "reproducer": reproducer}


def _checks(raw) -> list[dict]:
    return [{"check": _str(c.get("check")), "what": _str(c.get("what")),
             "status": c.get("status") if c.get("status") in ("held", "broken", "skipped") else "skipped",
             "reason": _str(c.get("reason"))} for c in raw if isinstance(c, dict)] if isinstance(raw, list) else []


def fuzz_run(document: dict, source: str, taken: set[str]) -> FuzzRun:
    """A FuzzRun from a fuzz document (schema baobei-fuzz/1)."""
    if not isinstance(document, dict) or document.get("schema") != FUZZ_SCHEMA:
        raise ReportError(f"{source}: not a `baobei-conform fuzz --json` document (schema {FUZZ_SCHEMA!r} expected)")
    engine = _str(document.get("engine")) or Path(source).stem
    options = document.get("options") if isinstance(document.get("options"), dict) else {}
    shown = {"mode": document.get("mode"), "budget (s)": document.get("budget_s"),
             "seconds": document.get("seconds"), "games": document.get("examples"),
             "actions": document.get("actions"), "actions per second": document.get("actions_per_s"),
             "first failure after (s)": document.get("failed_after_s"),
             "seed": options.get("seed"), "derandomized": options.get("derandomize"),
             "player counts": ", ".join(_strs(options.get("players"))) or None,
             "capabilities": ", ".join(_strs(document.get("capabilities"))) or None,
             "finished": document.get("finished")}
    return FuzzRun(slug=slugify(engine, taken, "engine"), engine=engine, source=source,
                   mode=_str(document.get("mode")) or "differential",
                   summary={k: _str(v) for k, v in shown.items() if v is not None and v != ""},
                   checks=_checks(document.get("checks")), cited=_strs(document.get("clauses_cited")),
                   problem=_problem(document.get("problem")), notes=_strs(document.get("notes")),
                   interrupted=document.get("interrupted") is True)


def clause_coverage(cited, exercised) -> tuple[float, list[str]]:
    """(share of the ``exercised`` clauses that are ``cited``, the ones that are not): how much of what the scenario
    suite exercises a fuzzing run reached."""
    exercised = set(exercised)
    missing = sorted(exercised - set(cited), key=id_key)
    return (round(1 - len(missing) / len(exercised), 4) if exercised else 1.0), missing


def load_fuzz(files: list) -> list[FuzzRun]:
    """The fuzz documents, in the order given."""
    taken: set[str] = set()
    return [fuzz_run(load_results(f), str(f), taken) for f in files]


def fuzz_rows(report) -> list[dict]:
    """Per run: the run, the share of the normative clauses the suite exercises that the reference cited during
    it, the ones it did not reach, and the normative clauses it cited."""
    normative = {cid for cid, row in report.clauses.items() if row.clause.kind == "normative"}
    exercised = {cid for cid in normative if report.clauses[cid].exercised}
    rows = []
    for run in report.fuzz:
        share, missing = clause_coverage(run.cited, exercised)
        rows.append({"run": run, "share": share, "missing": missing, "exercised": len(exercised),
                     "normative_cited": sorted(normative & set(run.cited), key=id_key),
                     "other_cited": sorted(set(run.cited) - normative, key=id_key)})
    return rows


def write_reproducers(runs: list[FuzzRun], out: Path) -> None:
    """Each run's reproducer scenario as a file of the report, so the page links to a scenario a user can keep."""
    for run in runs:
        where = run.reproducer_file()
        if where:
            path = out / where
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(run.problem["reproducer"]["text"], encoding="utf-8", newline="\n")
