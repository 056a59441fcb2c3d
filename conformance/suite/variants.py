"""Engines that follow another reading of a ruling: which steps they run, and how they are judged.

An engine declares readings in its ``hello`` reply (``"readings": {"R-05": "A"}``). A scenario's
``under R-05 A`` steps run only for engines that follow that reading (the adopted one when nothing is
declared). A scenario citing a ruling the engine reads differently is judged by that reading's own
steps when the scenario has them; otherwise it is reported ``variant``, never ``pass``.
"""

from __future__ import annotations

from typing import Protocol, TypeVar

from baobei_conform.suite.scenario import Scenario
from baobei_spec import default_spec


class Judged(Protocol):
    """What a reading's judgement reads and rewrites of an outcome (the runner's Outcome; the runner imports
    this module, so it is named by shape here)."""

    status: str
    message: str


Outcome = TypeVar("Outcome", bound=Judged)


def engine_readings(engine) -> dict[str, str]:
    """The readings an engine declared (none: it follows every adopted reading)."""
    return dict(getattr(engine, "readings", None) or {})


def reading_problems(readings) -> list[str]:
    """What is wrong with a declaration: not a mapping, an unknown ruling, an unknown reading."""
    if not isinstance(readings, dict):
        return ["readings must be an object of ruling id -> reading id"]
    rulings = default_spec().rulings
    out = []
    for rid, chosen in readings.items():
        if rid not in rulings:
            out.append(f"unknown ruling {rid!r}")
        elif chosen not in {r.id for r in rulings[rid].readings}:
            out.append(f"{rid} has no reading {chosen!r}")
    return out


def in_force(readings: dict[str, str], ruling: str) -> str:
    return readings.get(ruling) or default_spec().rulings[ruling].adopted


def steps_for(steps: list[dict], readings: dict[str, str]) -> list[dict]:
    """The steps an engine following ``readings`` runs: every step, ``under`` ones only for their reading."""
    return [s for s in steps if "under" not in s or in_force(readings, s["under"][0]) in s["under"][1:]]


def departures(scenario: Scenario, readings: dict[str, str]) -> list[str]:
    """The rulings the scenario cites that the engine reads otherwise than adopted."""
    return [r for r in scenario.rulings if in_force(readings, r) != default_spec().rulings[r].adopted]


def states_reading(scenario: Scenario, ruling: str, reading: str) -> bool:
    return any(s["under"][0] == ruling and reading in s["under"][1:] for s in scenario.steps if "under" in s)


def judge_readings(scenario: Scenario, outcome: Outcome, readings: dict[str, str]) -> Outcome:
    """``variant`` for a scenario that depends on a declared reading it has no expectations for."""
    differ = departures(scenario, readings)
    if not differ or outcome.status in ("error", "skip"):
        return outcome
    named = ", ".join(f"{r} reading {readings[r]}" for r in differ)
    if all(states_reading(scenario, r, readings[r]) for r in differ):
        outcome.message = f"judged under {named}: {outcome.message}".rstrip(": ")
        return outcome
    held = "the adopted expectations held" if outcome.status == "pass" else f"adopted expectations: {outcome.message}"
    outcome.status, outcome.message = "variant", f"the engine follows {named}; no expectations for it ({held})"
    return outcome
