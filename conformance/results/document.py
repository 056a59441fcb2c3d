"""Results of a run: the console summary by part, the JSON document and JUnit XML."""

from __future__ import annotations

import json
import platform
import sys
import xml.etree.ElementTree as ET
from collections import Counter

from baobei_conform.files.outputs import write_atomic
from baobei_conform.protocol import PROTOCOL_VERSION
from baobei_conform.runner.context import failure_facts
from baobei_conform.runner.run import Outcome
from baobei_conform.suite.identity import suite_identity, suite_tag
from baobei_conform.suite.scenario import Scenario
from baobei_spec.summary import part_of

STATUSES = ("pass", "fail", "error", "skip", "xfail", "xpass", "variant")
SUMMARY_KEYS = {"pass": "passed", "fail": "failed", "error": "errors", "skip": "skipped",
                "xfail": "xfailed", "xpass": "xpassed", "variant": "variants"}
RESULTS_SCHEMA = "baobei-results/1"


def part(scenario: Scenario) -> str:
    """The rulebook part a scenario belongs to: that of its first clause."""
    return part_of(scenario.clauses[0]) if scenario.clauses else "?"


def tally(statuses) -> dict:
    """``{"total", "passed", "failed", ...}`` of a run's statuses."""
    counts = Counter(statuses)
    return {"total": sum(counts.values()), **{SUMMARY_KEYS[s]: counts.get(s, 0) for s in STATUSES}}


def summarize(outcomes: list[Outcome]) -> dict:
    return tally(o.status for o in outcomes)


def by_part(scenarios: list[Scenario], outcomes: list[Outcome]) -> dict[str, dict]:
    index = {s.id: s for s in scenarios}
    groups: dict[str, list[Outcome]] = {}
    for o in outcomes:
        groups.setdefault(part(index[o.scenario]), []).append(o)
    return {p: summarize(os) for p, os in sorted(groups.items())}


def results_document(scenarios, outcomes, engine_info: dict, run_info: dict, broken=(), suite: dict | None = None
                     ) -> dict:
    """The ``--json`` document (schema: spec/schemas/results.schema.json); ``broken``: the ScenarioErrors of
    scenario files that do not load, listed so every consumer shows them, not only a count; ``suite``: the suite's
    identity (suite/identity.py; by default that of the scenarios' own files)."""
    index = {s.id: s for s in scenarios}
    return {
        "schema": RESULTS_SCHEMA,
        "suite": suite or suite_identity([s.path for s in scenarios]),
        "engine": engine_info,
        "run": {"protocol": PROTOCOL_VERSION, "python": sys.version.split()[0], "platform": platform.platform(),
                **run_info},
        "summary": summarize(outcomes),
        "by_part": by_part(scenarios, outcomes),
        "results": [_result(index[o.scenario], o) for o in outcomes],
        "broken": [{"file": e.file, "line": e.line, "message": str(e)} for e in broken],
    }


def _result(s: Scenario, o: Outcome) -> dict:
    return {
        "id": s.id, "file": s.path, "title": s.title, "part": part(s), "status": o.status,
        "clauses": list(s.clauses), "faq": list(s.faq), "rulings": list(s.rulings), "tags": list(s.tags),
        "line": o.line, "message": o.message, "expected": o.expected, "actual": o.actual,
        "events": o.events, "stderr": o.stderr, "raw": o.raw, "seconds": round(o.seconds, 4),
        **({"check": o.check} if o.check and o.status in ("fail", "xfail") else {}),
        **(failure_facts(s, o) if o.status in ("fail", "xpass", "xfail") else {}),
        **({"state": o.state} if o.state is not None and o.status in ("fail", "xfail") else {}),
    }


def write_json(path: str, document: dict) -> None:
    """The document, renamed into place whole (outputs.py); never NaN or Infinity, which JSON lacks."""
    write_atomic(path, json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False) + "\n")


def exit_status(document: dict) -> int:
    """0 when every selected scenario ran and gave its expected result, else 1 (see ``baobei-conform -h``)."""
    s = document["summary"]
    clean = document["run"].get("complete", True) and not document.get("broken")
    return 0 if clean and s["failed"] == s["errors"] == s["xpassed"] == 0 else 1


def incomplete(document: dict) -> str:
    """``"interrupted: 2 of 8 scenarios ran"`` for a run that did not finish, else ``""``."""
    run = document.get("run") or {}
    if run.get("complete", True):
        return ""
    ran = run.get("ran", document["summary"]["total"])
    why = "interrupted" if run.get("interrupted") else "stopped early"
    if run.get("missing_shards"):
        n = str(run.get("merged_of", "?"))
        return f"shards {', '.join(f'{k}/{n}' for k in run['missing_shards'])} missing; {ran} scenarios ran"
    return f"{why}: {ran} of {run.get('selected', '?')} scenarios ran"


def agreement(document: dict) -> str:
    """Whether the run held the engine to agreement with the reference at every step (``run.agreement``): ``on``,
    ``off (rules only)``, or ``not recorded`` for a document that does not say (never guessed)."""
    value = (document.get("run") or {}).get("agreement")
    return "not recorded" if not isinstance(value, bool) else "on" if value else "off (rules only)"


def provenance(document: dict, short: bool = False) -> str:
    """``suite 0.1.0 #1a2b3c4d (scenarios sha256:..., spec ..., contract ...); agreement: on``: what a verdict
    certifies, on one line (``short``: each digest's first 12 hex digits, for the console)."""
    suite = document.get("suite") or {}
    digests = ", ".join(f"{k} {v[:len('sha256:') + 12] if short else v}" for k, v in suite.items() if k != "version")
    return f"suite {suite_tag(suite)} ({digests}); agreement: {agreement(document)}"


def write_junit(path: str, document: dict) -> None:
    """JUnit XML: one testcase per scenario, classname = part of the rulebook; a broken scenario file and an
    incomplete run are errors of their own, so CI shows them; the properties say how the run ended, which
    suite judged it (``suite_version``, ``suite_scenarios``, ``suite_spec``, ``suite_contract``) and whether
    agreement was on (``agreement``: ``on``, ``off (rules only)`` or ``not recorded``)."""
    s = document["summary"]
    broken = document.get("broken", [])
    unfinished = incomplete(document)
    suite = ET.Element("testsuite", name=f"baobei:{document['engine'].get('name', 'engine')}",
                       tests=str(s["total"] + len(broken) + bool(unfinished)), failures=str(s["failed"] + s["xpassed"]),
                       errors=str(s["errors"] + len(broken) + bool(unfinished)),
                       skipped=str(s["skipped"] + s["xfailed"]))
    properties = ET.SubElement(suite, "properties")
    run = document.get("run") or {}
    for name in ("complete", "interrupted", "selected", "ran"):
        if name in run:
            ET.SubElement(properties, "property", name=name, value=str(run[name]).lower())
    ET.SubElement(properties, "property", name="agreement", value=agreement(document))
    for name, value in (document.get("suite") or {}).items():  # what the verdict was judged by (suite/identity.py)
        ET.SubElement(properties, "property", name=f"suite_{name}", value=str(value))
    if unfinished:
        ET.SubElement(ET.SubElement(suite, "testcase", classname="baobei", name="run-incomplete"), "error",
                      message=f"INCOMPLETE run, {unfinished}").text = unfinished
    for b in broken:
        case = ET.SubElement(suite, "testcase", classname="broken-scenario-file", name=b["file"], file=b["file"])
        ET.SubElement(case, "error", message=b["message"].split("\n")[0]).text = b["message"]
    for r in document["results"]:
        case = ET.SubElement(suite, "testcase", classname=f"part-{r['part']}", name=r["id"],
                             file=r["file"], time=str(r["seconds"]))
        detail = f"{r['file']}:{r['line'] or ''}\n{r['message']}\nexpected: {r['expected']}\nactual: {r['actual']}"
        if r["status"] in ("fail", "xpass"):
            ET.SubElement(case, "failure", message=r["message"]).text = detail
        elif r["status"] == "error":
            ET.SubElement(case, "error", message=r["message"]).text = detail + "\n" + r["stderr"] + "\n" + r["raw"]
        elif r["status"] in ("skip", "xfail", "variant"):
            ET.SubElement(case, "skipped", message=r["message"])
    write_atomic(path, ET.tostring(suite, encoding="utf-8", xml_declaration=True))


def render_summary(document: dict) -> str:
    lines = ["", "part   total  pass  fail  error  skip  xfail  xpass  variant"]
    for p, c in document["by_part"].items():
        lines.append(f"{p:<6} {c['total']:>5} {c['passed']:>5} {c['failed']:>5} {c['errors']:>6} {c['skipped']:>5}"
                     f" {c['xfailed']:>6} {c['xpassed']:>6} {c['variants']:>8}")
    s = document["summary"]
    readings = document["engine"].get("readings")
    if readings:
        lines.insert(1, "the engine follows " + ", ".join(f"{r} reading {x}" for r, x in sorted(readings.items())))
    lines.append(f"{s['total']} scenarios: {s['passed']} passed, {s['failed']} failed, {s['errors']} errors, "
                 f"{s['skipped']} skipped, {s['xfailed']} xfailed, {s['xpassed']} xpassed, {s['variants']} variant"
                 + ("" if document["run"].get("complete", True) else " (INCOMPLETE run)"))
    lines.append(f"{s['passed']} passed, {s['failed'] + s['errors']} failed")
    lines.insert(1, provenance(document, short=True))
    if document["run"].get("agreement") is False:
        lines.append("rules only (--rules-only): the written expectations alone; agreement with the reference "
                     "(state, pending, events, views, legal actions after every step) was not checked")
    return "\n".join(lines)
