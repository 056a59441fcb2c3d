"""A run's outputs are listeners registered in one place: they hear each event in that order (the console's summary
before the files), and the report is built from the --json file only when that file holds the document."""

from __future__ import annotations

from baobei_conform.reporters import files
from baobei_conform.reporters.listener import Finished, Listener, run_outputs


def test_the_outputs_are_registered_in_one_order(tmp_path):
    console = Listener()
    outputs = run_outputs(console, str(tmp_path / "r.json"), str(tmp_path / "r.xml"), str(tmp_path / "rep"), "s")
    assert outputs.listeners[0] is console
    assert [getattr(o, "option", None) for o in outputs.listeners[1:3]] == ["--json", "--junit"]
    assert isinstance(outputs.listeners[3], files.ReportFolder) and outputs.listeners[3].results is outputs.listeners[1]
    assert [type(o) for o in run_outputs(None, None, None, None, "s").listeners] == []


def test_the_report_reads_the_json_file_only_when_it_was_written(tmp_path, monkeypatch):
    built: list = []
    monkeypatch.setattr(files, "write_run_report", lambda out, document, scenarios, results: built.append(results))
    (tmp_path / "file").write_text("")  # a results file under it cannot be written
    for json_file, results in ((tmp_path / "r.json", str(tmp_path / "r.json")), (tmp_path / "file" / "r.json", None)):
        built.clear()
        outputs = run_outputs(None, str(json_file), None, str(tmp_path / "rep"), "s")
        problems = outputs.run_finished(Finished({"summary": {}}, [], False))
        assert built == [results]
        assert len(problems) == (results is None), problems
