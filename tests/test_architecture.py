"""The judge's layering, read from the source with ``ast`` (nothing is imported to check it).

Nodes of the import graph: each subpackage of ``conformance/`` (engines, files, suite, dsl, runner, protocol,
harness, results, reporters, report, fuzz, cli, ...) is one node, and each top-level module left (signals,
options, the pytest plugin) is a node of its own: the packages are layers, so a cycle between two of them is a
module in the wrong home. Every import counts, at the top of a
module, inside a function or under ``TYPE_CHECKING``: a dependency deferred is still a dependency.
"""

from __future__ import annotations

import ast
import tomllib
from functools import cache
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
JUDGE = "baobei_conform"
REFERENCE = "baobei_ref"

# The modules of the judge that run the reference as one engine among others, and why.
RUNS_THE_REFERENCE = {
    "baobei_conform.engines.reference": "the in-process adapter: the reference as an engine, actions from the wire",
    "baobei_conform.protocol.server": "`baobei-ref serve`: the reference behind the stdio protocol",
    "baobei_conform.fuzz": "differential play: the reference's answer after every action, its legal actions",
    "baobei_conform.cli.rulings": "measures what each reading of a ruling changes in random play on the reference",
    "baobei_conform.fuzz.witness": "plays a witness game on the reference at two readings to find where they part ways",
    "baobei_conform.contract": "records what the reference shows for every action, to hold it to spec/contract.yaml",
    "baobei_conform.cli.trace": "`trace`: a seeded reference game action by action, replayed on an engine",
}
# Never the reference, not even through another module: what a scenario expects comes from the spec.
NEVER_THE_REFERENCE = ("baobei_conform.dsl", "baobei_conform.suite")
# The mutation tool (tools/mutate.py, tools/mutants/): a development tool of the checkout, never installed. What of
# the judge it uses to run the suite on each mutant: the loader and the public entry points of the runner.
MUTATION_TOOL = REPO / "tools" / "mutants"
MUTATION_TOOL_USES = {"baobei_conform.harness.run", "baobei_conform.suite.scenario", "baobei_conform.runner.run",
                      "baobei_conform.engines.reference"}


@cache
def package_dirs() -> dict[str, Path]:
    """Package name -> folder, as pyproject.toml installs them."""
    setuptools = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    folders = setuptools.get("package-dir", {})
    return {name: REPO / folders.get(name, name) for name in setuptools["packages"] if "." not in name}


@cache
def modules() -> dict[str, Path]:
    """Every module of the repository's packages: dotted name -> file."""
    out = {}
    for package, folder in package_dirs().items():
        for path in folder.rglob("*.py"):
            parts = path.relative_to(folder).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join((package, *parts))] = path
    return out


def _resolve(name: str) -> str | None:
    """The module an imported name is: itself, or the package it was taken from."""
    known = modules()
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


@cache
def imports(module: str) -> dict[str, int]:
    """The repository modules ``module`` imports (-> the line of the first import), parents included."""
    path = modules()[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: dict[str, int] = {}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0]  # from . import x: this package; from .. : its parent
                base = f"{anchor}.{base}" if base else anchor
            names = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        else:
            continue
        for name in names:
            target = _resolve(name)
            while target and target != module:  # importing a.b.c runs a and a.b first
                found.setdefault(target, node.lineno)
                target = target.rpartition(".")[0]
    return found


def node_of(module: str) -> str:
    """``dsl`` for baobei_conform.dsl.parse, ``harness`` for baobei_conform.harness.run."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def judge_graph() -> dict[str, dict[str, tuple[str, int]]]:
    """Node -> node it imports -> (the first module and line that does)."""
    graph: dict[str, dict[str, tuple[str, int]]] = {}
    for module in sorted(modules()):
        if not module.startswith(JUDGE + "."):
            continue
        for target, line in imports(module).items():
            if target.startswith(JUDGE + ".") and node_of(target) != node_of(module):
                graph.setdefault(node_of(module), {}).setdefault(node_of(target), (module, line))
    return graph


def cycles(graph: dict[str, dict]) -> list[list[str]]:
    """The strongly connected components with more than one node (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, {}))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        while work:
            node, successors = work[-1]
            for nxt in successors:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, {})))))
                    break
                if nxt in stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def _where(module: str, line: int) -> str:
    return f"{modules()[module].relative_to(REPO)}:{line}"


def test_no_cycle_between_the_parts_of_the_judge():
    graph = judge_graph()
    assert {"runner", "protocol", "report", "harness", "cli"} <= set(graph)  # the walk sees the judge
    assert "dsl" in graph["runner"] or "dsl" in graph["harness"]
    problems = []
    for component in cycles(graph):
        edges = [f"  {a} -> {b} ({_where(*graph[a][b])})" for a in component for b in component if b in graph[a]]
        problems.append(f"cycle between {', '.join(component)}:\n" + "\n".join(edges))
    assert not problems, "\n".join(problems)


def test_the_scenario_compiler_never_imports_the_reference():
    """Not directly, not through any module it imports: the compiled steps come from the spec alone."""
    for start in [m for m in modules() if m.startswith(NEVER_THE_REFERENCE)]:
        seen, todo = {start: None}, [start]
        while todo:
            module = todo.pop()
            for target in imports(module):
                if target not in seen:
                    seen[target] = module
                    todo.append(target)
        reached = sorted(m for m in seen if m.split(".")[0] == REFERENCE)
        if reached:
            chain, module = [], reached[0]
            while module:
                chain.append(module)
                module = seen[module]
            raise AssertionError(f"{start} imports the reference: {' <- '.join(chain)}")


def test_only_the_listed_modules_run_the_reference():
    importers = {m: line for m in modules() if m.startswith(JUDGE + ".")
                 for t, line in imports(m).items() if t.split(".")[0] == REFERENCE}
    listed = tuple(RUNS_THE_REFERENCE)
    unlisted = [_where(m, line) for m, line in importers.items() if not (m + ".").startswith(
        tuple(name + "." for name in listed))]
    assert not unlisted, f"these modules of the judge import {REFERENCE}; list them with the reason: {unlisted}"
    stale = [name for name in listed if not any((m + ".").startswith(name + ".") for m in importers)]
    assert not stale, f"listed as running the reference but no longer importing it: {stale}"


# The reference's public surface: the names its package exports (baobei_ref/__init__.py's __all__) and its actions'
# module. The modules of the judge that need more of it, and why; every other module keeps to the surface.
REFERENCE_SURFACE = ("baobei_ref", "baobei_ref.actions")
NEEDS_THE_INTERNALS = {
    "baobei_conform.engines.reference": "the adapter: the reference as an engine, its rule variants (rules.Variant)",
    "baobei_conform.fuzz.policy": "plays as a player who knows the rules: the claims a pluck allows, the powers' "
                                  "targets, a round's total",
}


def _exports(module: str) -> set[str]:
    """The names ``module`` declares public: its ``__all__`` (literal strings; a starred entry names none)."""
    for node in ast.walk(ast.parse(modules()[module].read_text(encoding="utf-8"))):
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "__all__" for t in node.targets):
            return {e.value for e in getattr(node.value, "elts", []) if isinstance(e, ast.Constant)}
    return set()


def internal_imports(module: str) -> list[tuple[str, int]]:
    """``(what, line)`` of every import of the reference by ``module`` beyond its public surface."""
    public = _exports(REFERENCE) | {"actions"}
    actions = modules()["baobei_ref.actions"].read_text(encoding="utf-8")
    found = []
    for node in ast.walk(ast.parse(modules()[module].read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(a.name, node.lineno) for a in node.names
                      if a.name.split(".")[0] == REFERENCE and a.name not in REFERENCE_SURFACE]
        elif isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").split(".")[0] == REFERENCE:
            if node.module not in REFERENCE_SURFACE:
                found.append((node.module, node.lineno))
            elif node.module == REFERENCE:
                found += [(f"{REFERENCE}.{a.name}", node.lineno) for a in node.names
                          if a.name not in public and f"class {a.name}(" not in actions]
    return found


def test_outside_the_adapter_the_judge_keeps_to_the_reference_public_surface():
    judge = [m for m in modules() if m.startswith(JUDGE + ".")]
    beyond = {m: internal_imports(m) for m in judge if internal_imports(m)}
    offending = [f"{_where(m, line)} imports {what}" for m, found in beyond.items() if m not in NEEDS_THE_INTERNALS
                 for what, line in found]
    assert not offending, ("import these from baobei_ref (its __all__), or name the module in NEEDS_THE_INTERNALS "
                           f"with the reason: {offending}")
    stale = set(NEEDS_THE_INTERNALS) - set(beyond)
    assert not stale, f"named in NEEDS_THE_INTERNALS but keeping to the surface: {stale}"
    assert {"Game", "RuleError", "CHANCE", "default_params"} <= _exports(REFERENCE)  # the walk reads the surface


def test_one_run_function_makes_the_results_documents():
    """The command line, the report's reference run and the benchmarks all go through conform.run_conformance."""
    def calls(module: str, name: str) -> bool:
        tree = ast.parse(modules()[module].read_text(encoding="utf-8"))
        return any(isinstance(n, ast.Call) and name in (getattr(n.func, "id", None), getattr(n.func, "attr", None))
                   for n in ast.walk(tree))

    judge = [m for m in modules() if m.startswith(JUDGE + ".")]
    assert [m for m in judge if calls(m, "results_document")] == ["baobei_conform.results.conform"]
    assert sorted(m for m in judge if calls(m, "run_suite")) == ["baobei_conform.cli.rulings",
                                                                 "baobei_conform.results.conform"]
    for user in ("baobei_conform.cli.main", "baobei_conform.report.model"):
        assert calls(user, "run_conformance"), user
    assert "run_conformance" in (REPO / "bench" / "run.py").read_text(encoding="utf-8")


def test_the_walk_finds_a_cycle_and_a_chain():
    """The checks above would pass vacuously if the walk missed imports: it must see these."""
    assert cycles({"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1}, "d": {"a": 1}}) == [["a", "b", "c"]]
    assert "baobei_conform.dsl.parse" in imports("baobei_conform.suite.scenario")
    assert "baobei_conform.dsl" in imports("baobei_conform.suite.scenario")  # the package runs first
    assert "baobei_ref" in imports("baobei_conform.engines.reference")


def _absolute_imports(path: Path) -> dict[str, int]:
    """The absolute module names a file imports (-> the line of the first import)."""
    found: dict[str, int] = {}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.setdefault(alias.name, node.lineno)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.setdefault(node.module, node.lineno)
    return found


def test_no_installed_module_is_a_mutant():
    """``pip install`` ships the spec, the reference, the harness, the fuzzer and the report: no misreading of the
    reference, no module of the mutation tool, nothing that imports it (``report --mutants`` reads its file)."""
    tool = sorted(MUTATION_TOOL.glob("*.py"))
    assert len(tool) > 5 and (MUTATION_TOOL / "__init__.py").is_file()  # the walk below sees the tool
    installed = modules()
    assert "baobei_conform.report.cli" in installed  # ... and the installed modules
    inside = [str(p.relative_to(REPO)) for p in tool for folder in package_dirs().values() if folder in p.parents]
    assert not inside, f"modules of the mutation tool inside an installed package: {inside}"
    named = [m for m in installed if "mutant" in m.lower()]
    assert not named, f"installed modules named as mutants: {named}"
    users = [_where(m, line) for m, path in installed.items()
             for name, line in _absolute_imports(path).items() if name.split(".")[0] in ("mutants", "mutate")]
    assert not users, f"installed modules importing the mutation tool: {users}"


def test_the_mutation_tool_runs_the_suite_through_public_entry_points():
    used: dict[str, str] = {}
    for path in [*MUTATION_TOOL.glob("*.py"), REPO / "tools" / "mutate.py"]:
        for name, line in _absolute_imports(path).items():
            if name.split(".")[0] == JUDGE:
                used.setdefault(name, f"{path.relative_to(REPO)}:{line}")
    assert set(used) == MUTATION_TOOL_USES, {n: w for n, w in used.items() if n not in MUTATION_TOOL_USES}


# What a position is, in one place (issue 25, item 3): the modules that may write a canonical state as a dict.
WRITES_A_STATE = {
    "baobei_spec.position.build": "the one builder: a table described by species -> its canonical state",
    "baobei_ref.canonical": "state_to_json: the reference's own game written out (the inverse of from_json)",
}
STATE_FIELDS = ("seats", "players", "zones", "deck", "discard", "seen", "scores", "pending", "owed_powers", "pluck")


def _state_literals(module: str) -> list[int]:
    """Lines of the dict literals in ``module`` that name most fields of a canonical state with their values (a
    table of what to do per field, its values all functions, is none)."""
    tree = ast.parse(modules()[module].read_text(encoding="utf-8"))
    return [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Dict)
            and sum(isinstance(k, ast.Constant) and k.value in STATE_FIELDS for k in node.keys) >= 7
            and not all(isinstance(v, ast.Name | ast.Call) for v in node.values)]


def _defines(module: str, name: str) -> bool:
    tree = ast.parse(modules()[module].read_text(encoding="utf-8"))
    return any(isinstance(n, ast.FunctionDef) and n.name == name for n in ast.walk(tree))


def test_one_position_builder_and_one_validator():
    """A canonical state is built from a description in one module and checked by one validator, both in the spec
    (so the scenario compiler, which never imports the reference, and the reference share them)."""
    writers = {m: _state_literals(m) for m in modules() if _state_literals(m)}
    assert set(writers) == set(WRITES_A_STATE), {m: _where(m, lines[0]) for m, lines in writers.items()}
    validators = [m for m in modules() if _defines(m, "check_position")]
    assert validators == ["baobei_spec.position.check"], validators
    spec_imports = {t for m in modules() if m.startswith("baobei_spec") for t in imports(m)}
    assert not {t for t in spec_imports if t.split(".")[0] in (REFERENCE, JUDGE)}, "the spec imports no code of ours"
    for user in ("baobei_ref.game", "baobei_conform.dsl.compile", "baobei_ref.setup"):
        assert "baobei_spec.position" in imports(user), user


def test_every_package_folder_is_installed():
    """A subpackage missing from pyproject.toml's list works in the checkout and is absent from ``pip install .``."""
    listed = set(tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"])
    found = {".".join((name, *init.parent.relative_to(folder).parts))
             for name, folder in package_dirs().items() for init in folder.rglob("__init__.py")}
    assert {"baobei_conform.reporters", "baobei_conform.cli"} <= found  # the walk sees the subpackages
    assert not found - listed, f"list these packages in pyproject.toml: {sorted(found - listed)}"
