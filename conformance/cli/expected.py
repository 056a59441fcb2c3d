"""The reference's observation after every action of a scenario, published beside its compiled steps.

``baobei-conform compile --expected`` adds them to each compiled scenario (``spec/schemas/expected.schema.json``),
so a runner in another language holds its engine to exact results, as WebAssembly's ``.wast`` -> JSON carries
the exact values of each ``assert_return``. The compiler itself never runs the reference (tests/test_architecture.py):
the observations come from running the reference as an engine, in process, and reading what any engine shows
over the protocol (``runner.walk.observe``): the canonical state (its pending decision in it), the events, every
player of the round's view and the legal actions. A scenario whose steps depend on a reading of a ruling gets a
run of observations for each reading its ``under`` steps name (one ruling read otherwise at a time); how each
field is compared is the contract's (``spec/contract.yaml``), written into every document so a runner needs
nothing else.
"""

from __future__ import annotations

from collections.abc import Iterator

from baobei_conform.engines.reference import ReferenceEngine
from baobei_conform.runner.walk import observe
from baobei_conform.suite.scenario import Scenario
from baobei_spec import default_spec

OBSERVED = ("setup", "new_game", "apply", "shuffle")  # the steps after which the engine is observed


class NotObserved(Exception):
    """The reference does not go through a scenario: its expectations cannot be published (``file:line: why``)."""


def comparison() -> dict:
    """How a runner compares each observed field with its engine's, as the contract (and the fuzzer) compares it."""
    contract = default_spec().contract
    informational = list(contract.informational)
    return {
        "state": "equal as JSON values (object keys in any order, lists in order)",
        "events": "in order, each event equal as a JSON value without its informational keys "
                  f"({', '.join(informational)})",
        "views": "each player's view equal as a JSON value",
        "legal_actions": "as a set of actions, each action a JSON value (object keys in any order): the list's "
                         "order is free, ordered permutations are distinct actions (spec/contract.yaml, legal_actions)",
        "informational": informational,
    }


def reading_runs(scenario: Scenario) -> list[dict[str, str]]:
    """The readings to observe the scenario under: the adopted ones (``{}``), then each other reading of a ruling
    that its ``under`` steps name."""
    rulings = default_spec().rulings
    named = dict.fromkeys((step["under"][0], reading) for step in scenario.steps if "under" in step
                          for reading in step["under"][1:])
    return [{}, *({ruling: reading} for ruling, reading in named if reading != rulings[ruling].adopted)]


def observations(scenario: Scenario, readings: dict[str, str]) -> Iterator[dict]:
    """What the reference following ``readings`` shows after each accepted action step of the scenario."""
    index = {id(step): i for i, step in enumerate(scenario.steps)}
    engine = ReferenceEngine(readings)
    walked = observe(scenario.steps, engine)
    while True:
        try:
            step = next(walked)
        except StopIteration:
            return
        except Exception as exc:  # noqa: BLE001 - a scenario the reference fails cannot be published
            name = ", ".join(f"{r} reading {x}" for r, x in readings.items()) or "the adopted readings"
            line = getattr(exc, "line", None)
            where = f"{scenario.path}:{scenario.file_line(line)}" if line else scenario.path
            raise NotObserved(f"{where}: the reference under {name} does not go through the scenario: "
                              f"{getattr(exc, 'message', exc)}") from None
        op = step.step["op"]
        if op not in OBSERVED or "code" in step.step or step.state is None:
            continue  # a check, or a refusal: the table is as the previous observation left it
        yield {"step": index[id(step.step)], "line": step.step["line"], **step.observation()}


def expected(scenario: Scenario) -> dict:
    """The ``expected`` member of a published scenario: how to compare, and one run of observations per reading.
    A reading other than the adopted ones that the reference does not go through is left out and said
    (``unobserved``); the adopted run must go through (``NotObserved``)."""
    runs, unobserved = [], []
    for readings in reading_runs(scenario):
        try:
            runs.append({"readings": readings, "observations": list(observations(scenario, readings))})
        except NotObserved as exc:
            if not readings:
                raise
            unobserved.append({"readings": readings, "why": str(exc)})
    return {"compare": comparison(), "runs": runs, "unobserved": unobserved}
