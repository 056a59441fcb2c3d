"""pytest collects every scenario file as one test item named by its id (registered as a ``pytest11`` entry
point, so it is active wherever baobei is installed).

In this checkout, ``pytest`` runs the suite on the reference. In an implementer's repository,
``pytest --baobei-engine ./my_engine`` adds the installed scenarios to whatever pytest collects and runs them
on that engine (one engine process per pytest process, so ``-n N`` with pytest-xdist works). Only files of
the installed suite, or of ``--baobei-scenarios`` folders, are ever taken as scenarios: other YAML files
of the project are left alone.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from baobei_conform.dsl.errors import ScenarioError
from baobei_conform.harness.factory import EngineSpecError, engine_from_text
from baobei_conform.harness.run import apply_expectations
from baobei_conform.runner.explain import LANGS, describe_failure
from baobei_conform.runner.run import run_scenario
from baobei_conform.suite.expectations import ExpectationsError, load_expectations
from baobei_conform.suite.scenario import load_scenario
from baobei_scenarios import SUITE_ROOT
from baobei_spec import default_spec

ENGINE = pytest.StashKey["EngineHolder"]()
ROOTS = pytest.StashKey["list[Path]"]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("baobei", "BAO BEI conformance scenarios")
    group.addoption("--baobei-engine", metavar="SPEC",
                    help="run the installed scenarios on this engine, as baobei-conform takes it: reference, "
                         "./executable, ./folder (with baobei-engine.json), python:module:factory, or a quoted "
                         "command line such as 'node engine.js'")
    group.addoption("--baobei-scenarios", metavar="PATH", action="append", default=[],
                    help="scenario files or folders instead of the installed suite (repeatable)")
    group.addoption("--baobei-expectations", metavar="FILE", help="known failures of the engine (YAML): xfail")
    group.addoption("--baobei-timeout", metavar="SECONDS", type=float, default=10.0,
                    help="seconds per engine answer (default 10)")
    group.addoption("--baobei-lang", choices=LANGS, default="en", help="language of the clauses shown with failures")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "clause(*ids): the rulebook clauses (and rulings) a test checks")
    given = [Path(p).resolve() for p in config.getoption("baobei_scenarios")]
    config.stash[ROOTS] = [SUITE_ROOT, *given]
    spec = config.getoption("baobei_engine")
    if spec is None and not given:
        config.stash[ENGINE] = EngineHolder(None, {})
        return
    try:
        factory = engine_from_text(spec or "reference", config.getoption("baobei_timeout"))
        expected = load_expectations(p) if (p := config.getoption("baobei_expectations")) else {}
    except (EngineSpecError, ExpectationsError) as exc:
        raise pytest.UsageError(f"baobei: {exc}") from None
    config.stash[ENGINE] = EngineHolder(factory, expected)
    config.add_cleanup(config.stash[ENGINE].stop)
    for path in given or [SUITE_ROOT]:  # collected wherever pytest runs, besides the project's own tests
        if str(path) not in config.args:
            config.args.append(str(path))


@pytest.hookimpl(tryfirst=True)
def pytest_collect_directory(path: Path, parent: pytest.Collector):
    """The installed suite's folder is a plain folder to pytest, never a package to import."""
    if path == SUITE_ROOT:
        return pytest.Dir.from_parent(parent, path=path)
    return None


def pytest_collect_file(parent: pytest.Collector, file_path: Path):
    roots = parent.config.stash[ROOTS]
    if file_path.suffix == ".yaml" and any(file_path == r or r in file_path.parents for r in roots):
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


class EngineHolder:
    """One engine per pytest process, started at its first scenario and restarted after an engine error."""

    def __init__(self, factory, expected: dict[str, dict]) -> None:
        self.factory, self.expected, self.current = factory, expected, None

    def engine(self):
        if self.current is None:
            self.current = self.factory()
        return self.current

    def stop(self) -> None:
        if self.current is not None and hasattr(self.current, "stop"):
            self.current.stop()
        self.current = None


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
        self.user_properties.append(("clauses", " ".join(scenario.clauses)))

    def runtest(self):
        holder = self.config.stash[ENGINE]
        if holder.factory is None:
            holder.factory = engine_from_text("reference", 10.0)
        try:
            engine = holder.engine()
        except Exception as exc:  # noqa: BLE001 - an engine that does not start fails the item, with its reason
            raise ScenarioFailed(f"the engine does not start: {getattr(exc, 'message', exc)}\n"
                                 f"{getattr(exc, 'stderr', '')}".rstrip()) from None
        outcome = apply_expectations(run_scenario(self.scenario, engine), holder.expected)
        if outcome.status == "error":
            holder.stop()  # a crashed, hung or lying engine is restarted for the next scenario
        if outcome.status == "skip":
            pytest.skip(outcome.message)
        if outcome.status == "xfail":
            pytest.xfail(outcome.message)
        if outcome.status != "pass":
            raise ScenarioFailed(describe_failure(self.scenario, outcome, default_spec(),
                                                  self.config.getoption("baobei_lang")))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style=None):
        if isinstance(excinfo.value, ScenarioFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, 0, f"scenario {self.scenario.id}"


class BrokenScenario(pytest.Item):
    def __init__(self, *, error, **kwargs):
        super().__init__(**kwargs)
        self.error = error

    def runtest(self):
        raise ScenarioFailed(str(self.error))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style=None) -> str:
        return str(excinfo.value)

    def reportinfo(self):
        return self.path, 0, f"scenario file {self.path.name}"
