"""pytest collects every scenario file as one test item named by its id, run on the reference."""

from __future__ import annotations

from pathlib import Path

import pytest

from baobei_conform.dsl.errors import ScenarioError
from baobei_conform.runner.engine import ReferenceEngine
from baobei_conform.runner.explain import describe_failure
from baobei_conform.runner.run import run_scenario
from baobei_conform.scenario import load_scenario
from baobei_spec import default_spec


def pytest_collect_file(parent, file_path: Path):
    if file_path.suffix == ".yaml" and "scenarios" in file_path.parts:
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


class ScenarioFile(pytest.File):
    def collect(self):
        try:
            scenario = load_scenario(self.path)
        except ScenarioError as exc:
            yield BrokenScenario.from_parent(self, name=self.path.stem, error=exc)
            return
        item = ScenarioItem.from_parent(self, name=scenario.id, scenario=scenario)
        for cid in scenario.clauses:
            item.add_marker(pytest.mark.clause(cid))
        yield item


class ScenarioFailed(Exception):
    pass


class ScenarioItem(pytest.Item):
    def __init__(self, *, scenario, **kwargs):
        super().__init__(**kwargs)
        self.scenario = scenario

    def runtest(self):
        outcome = run_scenario(self.scenario, ReferenceEngine())
        if outcome.status != "pass":
            raise ScenarioFailed(describe_failure(self.scenario, outcome, default_spec()))

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, ScenarioFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, 0, f"scenario {self.scenario.id}"


class BrokenScenario(pytest.Item):
    def __init__(self, *, error, **kwargs):
        super().__init__(**kwargs)
        self.error = error

    def runtest(self):
        raise ScenarioFailed(str(self.error))

    def repr_failure(self, excinfo):
        return str(excinfo.value)

    def reportinfo(self):
        return self.path, 0, f"scenario file {self.path.name}"
