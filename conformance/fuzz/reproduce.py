"""A found failure written as a scenario file, checked to pass on the reference and fail on the engine.

The scenario sets up the start position (or starts a new game), plays the shrunk actions in the
scenario language and states the reference's answer where the engine went wrong: the refused action
itself, a ``reject`` for a near miss, or ``expect`` lines for each differing field. Its clauses are those
the reference cited at the failing step. The implementer keeps it as a regression test.
"""

from __future__ import annotations

import hashlib
import tempfile
from dataclasses import dataclass
from pathlib import Path

import yaml

from baobei_conform.fuzz.dsl_text import action_text
from baobei_conform.fuzz.trial import Found
from baobei_conform.runner.engine import ReferenceEngine
from baobei_conform.runner.run import run_scenario
from baobei_conform.scenario import load_scenario
from baobei_spec import default_spec


@dataclass
class Reproducer:
    id: str
    text: str  # the scenario file
    actions: int  # actions after the setup
    verified: bool  # passes on the reference and fails on the engine
    note: str = ""


def _species(card: str) -> str:
    return card.rsplit("-", 1)[0]


def scenario_text(found: Found, engine_name: str) -> tuple[str, str, int]:
    """(id, file text, number of actions) for ``found``."""
    body = [found.start.script()] + [action_text(a, _species) for a in found.actions]
    if found.probe is not None:
        body.append(f"reject {found.code}: {action_text(found.probe, _species)}")
    body += found.problem.expect
    script = "\n".join(body) + "\n"
    digest = hashlib.sha1(script.encode()).hexdigest()[:8]
    ident = f"fuzz-{found.problem.check.replace('_', '-')}-{digest}"
    known = default_spec().clauses
    clauses = list(dict.fromkeys(c for c in found.clauses if c in known)) or ["2.6.1"]
    document = {
        "id": ident,
        "title": f"Found by baobei-conform fuzz on {engine_name}: {found.problem.message}"[:300],
        "clauses": clauses,
        "tags": ["fuzz", "reproducer", found.problem.check],
    }
    text = yaml.safe_dump(document, sort_keys=False, allow_unicode=True, width=1000, default_flow_style=None)
    text += "script: |\n" + "".join(f"  {line}\n" for line in script.splitlines())
    return ident, text, len(found.actions) + (found.probe is not None)


def reproduce(found: Found, engine, engine_name: str) -> Reproducer:
    """The scenario for ``found``, run on a fresh reference (must pass) and on ``engine`` (must not)."""
    ident, text, count = scenario_text(found, engine_name)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"{ident}.yaml"
        path.write_text(text, encoding="utf-8")
        try:
            scenario = load_scenario(path)
        except Exception as exc:  # noqa: BLE001 - a reproducer the DSL cannot state is reported, not raised
            return Reproducer(ident, text, count, False, f"not a valid scenario: {exc}")
    on_reference = run_scenario(scenario, ReferenceEngine())
    if on_reference.status != "pass":
        return Reproducer(ident, text, count, False, f"the reference does not pass it: {on_reference.message}")
    on_engine = run_scenario(scenario, engine)
    if on_engine.status == "pass":
        return Reproducer(ident, text, count, False, "the scenario language cannot state this difference: "
                                                      "the scenario passes on the engine")
    detail = f" (expected {on_engine.expected}, got {on_engine.actual})" if on_engine.expected else ""
    return Reproducer(ident, text, count, True, f"{on_engine.status} on the engine: {on_engine.message}{detail}")
