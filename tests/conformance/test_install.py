"""A NON-editable install works from any folder: ``pip install .`` of a copy of the checkout into a fresh
virtualenv, then ``baobei-conform`` and ``pytest --baobei-engine`` in an empty folder (slow: about 30 s,
marked ``install``; deselect with ``-m 'not install'``). The runtime dependencies come from the system
site-packages and nothing is downloaded at run time; pip gets the build backend from its configured index."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"
SKIP_COPY = shutil.ignore_patterns(".git", ".venv*", "build", "*.egg-info", "baobei-report", "__pycache__",
                                   "node_modules", ".pytest_cache", ".hypothesis", ".ruff_cache")

pytestmark = pytest.mark.install


def shipped(folder: Path) -> set[str]:
    """Every file under the folder, relative; compiled Python and hidden files (.gitkeep) left out."""
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*")
            if p.is_file() and "__pycache__" not in p.parts and not p.name.startswith(".")}


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> tuple[Path, Path, dict]:
    """(the venv's bin folder, an empty folder to work in, the environment)."""
    tmp = tmp_path_factory.mktemp("install")
    shutil.copytree(ROOT, tmp / "clone", ignore=SKIP_COPY)
    venv.EnvBuilder(system_site_packages=True, symlinks=True).create(tmp / "venv")
    bin_dir = tmp / "venv" / "bin"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    missing = subprocess.run([bin_dir / "python", "-c", "import lark, yaml, jinja2, jsonschema, pytest"],
                             capture_output=True, text=True, env=env)
    if missing.returncode:
        pytest.skip(f"the system site-packages lack a runtime dependency: {missing.stderr.strip()[-200:]}")
    pip = subprocess.run([sys.executable, "-m", "pip", "--python", str(bin_dir / "python"), "install", "--no-deps",
                          "--quiet", str(tmp / "clone")], capture_output=True, text=True, env=env, timeout=300)
    if pip.returncode and "satisfies the requirement setuptools" in pip.stderr:
        pytest.skip("pip cannot get the build backend (setuptools) from its index")
    assert pip.returncode == 0, pip.stderr[-2000:]
    work = tmp / "empty"
    work.mkdir()
    return bin_dir, work, env


def run(installed, *argv, timeout: float = 120) -> subprocess.CompletedProcess:
    bin_dir, work, env = installed
    program = [str(bin_dir / argv[0])] if (bin_dir / argv[0]).exists() else [argv[0]]
    return subprocess.run([*program, *argv[1:]], cwd=work, env=env, capture_output=True, text=True, timeout=timeout)


def test_every_scenario_file_is_installed_outside_the_checkout(installed):
    found = run(installed, "python", "-c", "import baobei_scenarios; print(baobei_scenarios.SUITE_ROOT)")
    root = Path(found.stdout.strip())
    assert ROOT not in root.parents and "site-packages" in root.parts
    assert shipped(root) == shipped(SCENARIOS) and len(shipped(root)) > 100


def test_installed_command_runs_the_whole_suite_from_an_empty_folder(installed):
    proc = run(installed, "baobei-conform", "-q", "--json", "r.json", "--", "baobei-ref", "serve")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    document = json.loads((installed[1] / "r.json").read_text(encoding="utf-8"))
    total = len(list(SCENARIOS.rglob("*.yaml")))
    assert document["summary"]["total"] == document["summary"]["passed"] == total
    assert (installed[1] / "baobei-report" / "index.html").is_file()


def test_installed_rulings_json_works_from_an_empty_folder(installed):
    proc = run(installed, "baobei-conform", "rulings", "--json", "--games", "0")
    assert proc.returncode == 0, proc.stderr[-3000:]
    doc = json.loads(proc.stdout)
    assert doc["schema"] == "baobei-rulings/1" and "cannot read" not in proc.stderr
    witnesses = [rd["witness"] for r in doc["rulings"] for rd in r["readings"] if "witness" in rd]
    assert witnesses and all(w["cached"] for w in witnesses)  # conformance/witnesses.json is installed and reused


def test_installed_command_refuses_an_empty_selection(installed):
    (installed[1] / "empty_dir").mkdir(exist_ok=True)
    proc = run(installed, "baobei-conform", "--no-report", "--scenarios", "empty_dir")
    assert proc.returncode == 2
    assert "no scenario selected" in proc.stderr and "empty_dir" in proc.stderr


def test_no_mutant_module_is_installed(installed):
    """The mutation tool and its misreadings stay in the checkout (tools/mutants): the distribution's record lists
    the spec, the reference, the harness, the fuzzer and the report, and no module of the tool."""
    found = run(installed, "python", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])")
    site = Path(found.stdout.strip())
    [record] = site.glob("baobei-*.dist-info/RECORD")
    files = [line.split(",")[0] for line in record.read_text(encoding="utf-8").splitlines()]
    for package in ("baobei_spec/", "baobei_ref/powers/", "baobei_conform/runner/", "baobei_conform/fuzz/",
                    "baobei_conform/report/", "baobei_scenarios/"):
        assert any(f.startswith(package) for f in files), package
    modules = [f for f in files if f.endswith((".py", ".pyc"))]
    assert [f for f in modules if "mutant" in f.lower() or "mutate" in f.lower()] == []
    on_disk = [p for name in ("baobei_spec", "baobei_ref", "baobei_conform", "baobei_scenarios")
               for p in (site / name).rglob("*") if "mutant" in p.name.lower() and p.suffix in (".py", ".pyc")]
    assert on_disk == []
    assert "baobei_spec/schemas/mutants.schema.json" in files  # the format the installed report reads, no module


def test_installed_report_reads_a_mutants_file(installed):
    """``report --mutants`` reads the file ``tools/mutate.py --json`` writes; the installed package runs no mutant."""
    (installed[1] / "m.json").write_text(json.dumps({"summary": {}, "mutants": [
        {"mutant": "no_gift", "clauses": ["3.4.5"], "status": "killed"}]}), encoding="utf-8")
    proc = run(installed, "baobei-conform", "report", "--mutants", "m.json", "--out", "mutants-report", timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    clauses = (installed[1] / "mutants-report" / "clauses.html").read_text(encoding="utf-8")
    assert "<code>no_gift</code>" in clauses
    assert '<p class="big">1/1</p>' in (installed[1] / "mutants-report" / "index.html").read_text(encoding="utf-8")


def test_installed_version(installed):
    for argv in (["baobei-conform", "--version"], ["python", "-m", "baobei_conform", "--version"]):
        proc = run(installed, *argv)
        assert proc.returncode == 0 and proc.stdout.strip() == "baobei-conform 0.1.0", argv


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["serial", "xdist"])
def test_installed_pytest_plugin_runs_the_suite_on_an_engine(installed, workers):
    if workers and run(installed, "python", "-c", "import xdist").returncode:
        pytest.skip("pytest-xdist is not installed")
    proc = run(installed, "python", "-m", "pytest", "-q", "-p", "no:cacheprovider", "--baobei-engine", "reference",
               *workers, timeout=300)
    total = len(list(SCENARIOS.rglob("*.yaml")))
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert f"{total} passed" in proc.stdout
