"""The report's fuzzing section: one ``baobei-conform fuzz --json FILE`` document per engine, read safely.

The documents may come from another machine or an older version: each is read as every input is (inputs.py),
validated against spec/schemas/fuzz.schema.json (anything unusable is refused with the file's name and the JSON
path, ``ReportError``) and every text is cleaned (sanitize.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from baobei_conform.report.model import id_key, load_document, slugify
from baobei_spec import default_spec


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
    # the distinct problems, the most frequent first: {check, group, games, shrunk, message, clauses,
    # reproducer: {id, actions, verified, note, text, path} | None}
    problems: list[dict]
    notes: list[str]
    interrupted: bool = False  # a signal cut the run short: its figures are what it did until then
    tried: dict[str, dict[str, int]] = field(default_factory=dict)  # decision kind -> action type -> times tried
    refusals: dict[str, int] = field(default_factory=dict)  # error code -> probes refused with it

    @property
    def held(self) -> bool:
        return not self.problems

    @property
    def checks_broken(self) -> list[str]:
        return list(dict.fromkeys(p["check"] for p in self.problems))

    def reproducer_file(self, problem: dict, suffix: str = ".yaml") -> str | None:
        """Where the report keeps a problem's reproducer (``.html``: its tables), relative to the report folder."""
        reproducer = problem.get("reproducer")
        return f"fuzz/{self.slug}/{slugify(reproducer['id'])}{suffix}" if reproducer else None


def _str(value) -> str:
    return "" if value is None else str(value)


def _problem(raw: dict) -> dict:
    reproducer = raw.get("reproducer")
    if reproducer is not None:
        reproducer = {"id": reproducer["id"], "text": reproducer["text"], "actions": reproducer.get("actions"),
                      "verified": reproducer.get("verified") is True, "note": reproducer.get("note", ""),
                      "path": reproducer.get("path", "")}
    return {"check": raw["check"], "group": raw.get("group", raw["check"]), "games": raw.get("games"),
            "shrunk": raw.get("shrunk", True), "message": raw["message"], "clauses": raw.get("clauses", []),
            "reproducer": reproducer}


def fuzz_run(document: dict, source: str, taken: set[str]) -> FuzzRun:
    """A FuzzRun from a fuzz document valid against spec/schemas/fuzz.schema.json (``load_fuzz``)."""
    engine = document["engine"] or Path(source).stem
    options = document.get("options", {})
    shown = {"mode": document["mode"], "budget (s)": document.get("budget_s"),
             "seconds": document.get("seconds"), "games": document.get("examples"),
             "actions": document.get("actions"), "actions per second": document.get("actions_per_s"),
             "first failure after (s)": document.get("failed_after_s"),
             "seed": options.get("seed"), "derandomized": options.get("derandomize"),
             "player counts": ", ".join(map(str, options.get("players", []))) or None,
             "capabilities": ", ".join(document.get("capabilities", [])) or None,
             "finished": document.get("finished")}
    checks = [{"check": c["check"], "what": c.get("what", ""), "status": c["status"], "reason": c.get("reason", "")}
              for c in document["checks"]]
    return FuzzRun(slug=slugify(engine, taken, "engine"), engine=engine, source=source, mode=document["mode"],
                   summary={k: _str(v) for k, v in shown.items() if v is not None and v != ""},
                   checks=checks, cited=document["clauses_cited"],
                   problems=[_problem(p) for p in document.get("problems", [document["problem"]] if document[
                       "problem"] else [])],  # a run written before problems were listed: its one problem
                   notes=document["notes"], interrupted=document.get("interrupted", False),
                   tried=document.get("tried", {}), refusals=document.get("refusals", {}))


def clause_coverage(cited, exercised) -> tuple[float, list[str]]:
    """(share of the ``exercised`` clauses that are ``cited``, the ones that are not): how much of what the scenario
    suite exercises a fuzzing run reached."""
    exercised = set(exercised)
    missing = sorted(exercised - set(cited), key=id_key)
    return (round(1 - len(missing) / len(exercised), 4) if exercised else 1.0), missing


def load_fuzz(files: list) -> list[FuzzRun]:
    """The fuzz documents, in the order given."""
    taken: set[str] = set()
    return [fuzz_run(load_document(f, "fuzz.schema.json", "a `baobei-conform fuzz --json` document"), str(f), taken)
            for f in files]


def refusal_codes(refusals: dict[str, int]) -> list[tuple[str, int]]:
    """Every error code an action may be refused with (errors.yaml; malformed_state answers a setup only) and how
    often a probe of the run got it, 0 for one never tried; codes the spec does not know after them."""
    known = [code for code in default_spec().errors if code != "malformed_state"]
    return [(code, refusals.get(code, 0)) for code in known] + sorted(
        (code, n) for code, n in refusals.items() if code not in known)


def fuzz_rows(report) -> list[dict]:
    """Per run: the run, the share of the normative clauses the suite exercises that the reference cited during
    it, the ones it did not reach, the normative clauses it cited, and how often each refusal code was tried."""
    normative = {cid for cid, row in report.clauses.items() if row.clause.kind == "normative"}
    exercised = {cid for cid in normative if report.clauses[cid].exercised}
    rows = []
    for run in report.fuzz:
        share, missing = clause_coverage(run.cited, exercised)
        rows.append({"run": run, "share": share, "missing": missing, "exercised": len(exercised),
                     "normative_cited": sorted(normative & set(run.cited), key=id_key),
                     "other_cited": sorted(set(run.cited) - normative, key=id_key),
                     "codes": refusal_codes(run.refusals) if run.tried else []})
    return rows


def write_reproducers(runs: list[FuzzRun], out: Path) -> None:
    """Each run's reproducer scenarios as files of the report, so the page links to scenarios a user can keep."""
    for run in runs:
        for problem in run.problems:
            where = run.reproducer_file(problem)
            if where:
                path = out / where
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(problem["reproducer"]["text"], encoding="utf-8", newline="\n")
