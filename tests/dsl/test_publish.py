"""``baobei-conform compile``: the compiled steps published as JSON, one file per scenario, checked by schema."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
from referencing import Registry, Resource

from baobei_conform.cli.main import main
from baobei_conform.suite.scenario import load_scenario, scenario_files
from baobei_scenarios import SUITE_ROOT
from baobei_spec import SPEC_ROOT

SCHEMAS = ("compiled.schema.json", "steps.schema.json", "state.schema.json")


def _validator() -> jsonschema.Draft202012Validator:
    schemas = {n: json.loads((SPEC_ROOT / "schemas" / n).read_text(encoding="utf-8")) for n in SCHEMAS}
    registry = Registry().with_resources((s["$id"], Resource.from_contents(s)) for s in schemas.values())
    return jsonschema.Draft202012Validator(schemas["compiled.schema.json"], registry=registry)


def test_every_scenario_is_published_as_its_steps_and_matches_the_schema(tmp_path, capsys):
    out = tmp_path / "compiled"
    assert main(["compile", str(SUITE_ROOT), "--out", str(out)]) == 0
    files = scenario_files([SUITE_ROOT])
    written = sorted(out.rglob("*.json"))
    assert len(written) == len(files) > 400
    validator = _validator()
    for path in files:
        source = path.relative_to(SUITE_ROOT)
        document = json.loads((out / source.with_suffix(".json")).read_text(encoding="utf-8"))
        validator.validate(document)
        scenario = load_scenario(path)
        assert (document["id"], document["source"], document["steps"]) == (scenario.id, source.as_posix(),
                                                                           scenario.steps)
        first = document["steps"][0]["line"]  # a step's line, placed in the file, is its script's line there
        assert path.read_text(encoding="utf-8").splitlines()[document["script_line"] + first - 2].strip()
    assert f"{len(files)} scenarios compiled" in capsys.readouterr().out


def test_the_schema_refuses_a_step_the_runner_would_not_know(tmp_path):
    assert main(["compile", str(SUITE_ROOT / "2-turn"), "--out", str(tmp_path / "c")]) == 0
    document = json.loads(next((tmp_path / "c").rglob("*.json")).read_text(encoding="utf-8"))
    document["steps"].append({"op": "teleport", "line": 1})
    assert not _validator().is_valid(document)


def test_a_scenario_that_does_not_compile_is_named_and_nothing_is_written(tmp_path, capsys):
    folder = tmp_path / "suite"
    folder.mkdir()
    good = next(Path(SUITE_ROOT, "2-turn").glob("*.yaml"))
    (folder / good.name).write_text(good.read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "typo.yaml").write_text("id: typo\ntitle: t\nclauses: ['2.6.1']\nscript: |\n  new game 2 players\n"
                                      "  p0 drawz\n", encoding="utf-8")
    out = tmp_path / "compiled"
    assert main(["compile", str(folder), "--out", str(out)]) == 1
    assert "typo.yaml:6:6:" in capsys.readouterr().err
    assert not list(out.rglob("*.json"))
