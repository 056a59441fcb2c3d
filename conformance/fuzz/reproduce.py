"""A found failure written as a scenario file, checked to pass on the reference and fail on the engine.

The scenario sets up the start position (or starts a new game), plays the shrunk actions in the
scenario language and states the reference's answer where the engine went wrong: the refused action
itself, a ``reject`` for a near miss, or ``expect`` lines for each differing field (raw JSON where no other check
names it). Its clauses are those the reference cited at the failing step. When those lines still hold on the
engine (a problem found without the reference: a card lost, a view that shows too much), the scenario is run on
both and the first difference of their observations at its end is stated (``observed``); a reproducer is verified
only once it was run and passed on the reference and failed on the engine. The implementer keeps it as a
regression test.
"""

from __future__ import annotations

import hashlib
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import yaml

from baobei_conform.engines.reference import ReferenceEngine
from baobei_conform.fuzz import compare
from baobei_conform.fuzz.dsl_text import action_text
from baobei_conform.fuzz.trial import Found, Trial
from baobei_conform.runner.run import run_scenario, run_steps
from baobei_conform.suite.scenario import Scenario, load_scenario
from baobei_spec import default_spec
from baobei_spec.contract import action_key


@dataclass
class Reproducer:
    id: str
    text: str  # the scenario file
    actions: int  # actions after the setup
    verified: bool  # passes on the reference and fails on the engine
    note: str = ""


def _species(card: str) -> str:
    return card.rsplit("-", 1)[0]


def scenario_text(found: Found, engine_name: str, observed: Sequence[str] = ()) -> tuple[str, str, int]:
    """(id, file text, number of actions) for ``found``; ``observed``: more expect lines (``observed``)."""
    body = [found.start.script()] + [action_text(a, _species) for a in found.actions]
    if found.probe is not None:
        body.append(f"reject {found.code}: {action_text(found.probe, _species)}")
    body += [*found.problem.expect, *observed]
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


CANNOT_STATE = "the scenario language cannot state this difference: the scenario passes on the engine"


def reproduce(found: Found, engine, engine_name: str) -> Reproducer:
    """The scenario for ``found``, run on a fresh reference (must pass) and on ``engine`` (must not); when it passes
    on the engine, again with the observed difference stated."""
    first = _checked(*scenario_text(found, engine_name), engine)
    if first.verified or first.note != CANNOT_STATE or first.scenario is None:
        return first.reproducer
    lines = observed(first.scenario, engine)
    return _checked(*scenario_text(found, engine_name, lines), engine).reproducer if lines else first.reproducer


def observed(scenario: Scenario, engine) -> list[str]:
    """Expect lines for where the engine's observations at the scenario's end (the canonical state, each view, the
    last events, legal_actions: those it has the capability for) first differ from the reference's."""
    reference = ReferenceEngine()
    try:
        ours, theirs = run_steps(scenario.steps, reference), run_steps(scenario.steps, engine)
        state = reference.state()
        lines = compare.raw_line("state", state, engine.state())[0]
        capabilities = set(engine.capabilities)
        for player in state["players"] if "views" in capabilities else ():
            lines += compare.raw_line(f"view p{player}", reference.view(player), engine.view(player))[0]
        if "events" in capabilities and (parted := compare.events_problem(ours, theirs)) is not None:
            lines += parted.expect[-1:]
        if "legal_actions" in capabilities:
            legal = {action_key(a): a for a in reference.legal_actions()}
            lines += [line for p in Trial.legal_problems(legal, engine.legal_actions()) for line in p.expect]
    except Exception:  # noqa: BLE001 - an engine that fails here fails the scenario already: nothing to add
        return []
    return lines


@dataclass
class _Checked:
    reproducer: Reproducer
    scenario: Scenario | None

    @property
    def verified(self) -> bool:
        return self.reproducer.verified

    @property
    def note(self) -> str:
        return self.reproducer.note


def _checked(ident: str, text: str, count: int, engine) -> _Checked:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"{ident}.yaml"
        path.write_text(text, encoding="utf-8")
        try:
            scenario = load_scenario(path)
        except Exception as exc:  # noqa: BLE001 - a reproducer the DSL cannot state is reported, not raised
            return _Checked(Reproducer(ident, text, count, False, f"not a valid scenario: {exc}"), None)
    on_reference = run_scenario(scenario, ReferenceEngine())
    if on_reference.status != "pass":
        return _Checked(Reproducer(ident, text, count, False,
                                   f"the reference does not pass it: {on_reference.message}"), scenario)
    on_engine = run_scenario(scenario, engine)
    if on_engine.status == "pass":
        return _Checked(Reproducer(ident, text, count, False, CANNOT_STATE), scenario)
    detail = f" (expected {on_engine.expected}, got {on_engine.actual})" if on_engine.expected else ""
    return _Checked(Reproducer(ident, text, count, True,
                               f"{on_engine.status} on the engine: {on_engine.message}{detail}"), scenario)
