"""The report shows, per clause, the mutants that break it and whether the suite kills them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from baobei_conform.report import report_main

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


def test_mutants_per_clause_and_on_the_index(tmp_path, capsys):
    mutants = tmp_path / "mutants.json"
    mutants.write_text(json.dumps({"summary": {}, "mutants": [
        {"mutant": "pelicans_dont_match", "clauses": ["3.1.7", "6.3.2"], "status": "killed"},
        {"mutant": "bao_<b>_minimum", "clauses": ["5.2.4"], "status": "survived"},
        {"mutant": "same_thing", "clauses": ["5.2.4"], "status": "equivalent"},
    ]}))
    out = tmp_path / "report"
    assert report_main(["--out", str(out), "--scenarios", str(SCENARIOS), "--mutants", str(mutants)]) == 0
    clauses = (out / "clauses.html").read_text()
    block = clauses[clauses.index('id="clause-3.1.7"'):]
    block = block[:block.index("</article>")]
    assert "Mutants breaking it: 1" in block and "<code>pelicans_dont_match</code>" in block and "killed" in block
    block = clauses[clauses.index('id="clause-5.2.4"'):]
    block = block[:block.index("</article>")]
    assert "bao_&lt;b&gt;_minimum" in block and "survived" in block and "<b>_" not in block
    index = (out / "index.html").read_text()
    assert "Mutants killed" in index and '<p class="big">1/2</p>' in index
    assert "B.2" in index  # the normative clause no mutant here breaks... among many
    plain = tmp_path / "plain"
    assert report_main(["--out", str(plain), "--scenarios", str(SCENARIOS)]) == 0
    assert "Mutants" not in (plain / "index.html").read_text()


def test_bad_mutants_file_is_a_clear_error(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("[]")
    assert report_main(["--out", str(tmp_path / "r"), "--scenarios", str(SCENARIOS), "--mutants", str(bad)]) == 2
    assert "not the JSON of tools/mutate.py --json" in capsys.readouterr().err


def test_mutants_need_the_mutation_tools_file(tmp_path, capsys):
    """The installed package runs no mutant: ``--mutants`` names the file ``tools/mutate.py --json`` wrote."""
    with pytest.raises(SystemExit) as exit_:
        report_main(["--out", str(tmp_path / "r"), "--scenarios", str(SCENARIOS), "--mutants"])
    assert exit_.value.code == 2 and "--mutants: expected one argument" in capsys.readouterr().err
    assert not (tmp_path / "r").exists()
