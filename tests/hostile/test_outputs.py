"""Outputs are whole or absent (outputs.py): a write that dies keeps the previous file, a report build that
dies keeps the previous folder, concurrent builds never mix, and results reach the disk as the run goes."""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path

import pytest
from test_hostile_engines import hostile, scenarios

from baobei_conform.cli.main import main
from baobei_conform.files import outputs
from baobei_conform.files.outputs import ResultStream, replace_dir, write_atomic


def test_a_write_that_dies_before_the_rename_keeps_the_previous_file(tmp_path, monkeypatch):
    target = tmp_path / "results.json"
    target.write_text('{"previous": true}\n')

    def die(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(outputs.os, "replace", die)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(target, '{"new": true}\n' * 1000)
    assert target.read_text() == '{"previous": true}\n'
    assert os.listdir(tmp_path) == ["results.json"]  # no temporary file left behind


def test_a_build_that_dies_keeps_the_previous_folder(tmp_path):
    out = tmp_path / "report"
    replace_dir(out, lambda d: (d / "index.html").write_text("first"))

    def half(folder: Path) -> None:
        (folder / "index.html").write_text("second")
        raise OSError("disk full")

    with pytest.raises(OSError):
        replace_dir(out, half)
    assert (out / "index.html").read_text() == "first"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report"]


def test_concurrent_builds_never_mix(tmp_path, monkeypatch):
    out = tmp_path / "report"
    errors = []
    rename = os.rename

    def slow_rename(src, dst):  # widens the window between setting the old folder aside and moving in the new
        time.sleep(0.005)
        rename(src, dst)

    monkeypatch.setattr(outputs.os, "rename", slow_rename)

    def build(name: str) -> None:
        def pages(folder: Path) -> Path:
            for i in range(30):
                (folder / f"page{i}.html").write_text(name)
                time.sleep(0.001)
            return folder / "page0.html"

        try:
            for _ in range(5):
                assert replace_dir(out, pages) == out / "page0.html"
        except Exception as exc:  # noqa: BLE001 - collected, then asserted
            errors.append(exc)

    threads = [threading.Thread(target=build, args=(name,)) for name in ("one", "two", "three")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    pages = [p for p in out.iterdir() if p.name != outputs.MARKER]
    assert len({p.read_text() for p in pages}) == 1 and len(pages) == 30
    assert outputs.listed(out) == {p.name for p in pages}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report"]


def test_the_stream_writes_at_most_once_per_interval(monkeypatch):
    written = []
    clock = iter([0.0, 0.5, 1.2, 1.3, 2.5])
    monkeypatch.setattr(outputs.time, "monotonic", lambda: next(clock))
    stream = ResultStream(written.append, every=1.0)
    stream.flush()  # at 0.0
    for outcome in ("a", "b", "c", "d"):  # at 0.5 (too soon), 1.2 (written), 1.3 (too soon), 2.5 (written)
        stream.add(outcome)
    assert written == [[], ["a", "b"], ["a", "b", "c", "d"]]


def test_results_are_on_disk_while_the_run_goes_on(tmp_path):
    command, _ = hostile(tmp_path, "hang")
    out = tmp_path / "r.json"
    argv = ["--scenarios", str(scenarios(tmp_path / "s", 4)), "--json", str(out), "--no-report", "-q",
            "--timeout", "1", "--breaker", "0", "--", *command]
    run = threading.Thread(target=main, args=(argv,))
    run.start()
    seen = []
    while run.is_alive():
        if out.exists():
            seen.append(json.loads(out.read_text(encoding="utf-8")))
        time.sleep(0.1)
    run.join()
    partial = [d for d in seen if 0 < len(d["results"]) < 4]
    assert partial and all(d["run"]["complete"] is False for d in partial)
    assert json.loads(out.read_text(encoding="utf-8"))["run"]["complete"] is True



# --- folders the tool owns: only its own files are ever deleted ---------------------------------------------

def built(out: Path, pages: dict[str, str]) -> Path:
    """A folder swapped in by ``replace_dir`` holding ``pages`` (relative path -> text)."""
    def build(folder: Path) -> Path:
        for name, text in pages.items():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_text(text)
        return folder
    return replace_dir(out, build, "test")


def test_a_file_added_while_the_new_folder_is_built_stops_the_swap(tmp_path):
    out = built(tmp_path / "report", {"index.html": "first", "scenarios/a.html": "a"})

    def build(folder: Path) -> None:
        (folder / "index.html").write_text("second")
        (out / "scenarios" / "notes.md").write_text("the user's")  # the user, meanwhile

    with pytest.raises(outputs.OutputRefused, match="holds scenarios/notes.md, which this tool did not write"):
        replace_dir(out, build)
    assert (out / "index.html").read_text() == "first" and (out / "scenarios" / "notes.md").read_text() == "the user's"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report"]  # the fresh folder is gone


def test_a_file_added_after_the_last_check_is_never_deleted(tmp_path, monkeypatch, capsys):
    out = built(tmp_path / "report", {"index.html": "first", "scenarios/a.html": "a"})
    (out / "scenarios" / "notes.md").write_text("the user's")
    monkeypatch.setattr(outputs, "foreign", lambda folder: None)  # as if added between the check and the rename
    built(out, {"index.html": "second"})
    assert (out / "index.html").read_text() == "second" and outputs.listed(out) == {"index.html"}
    [kept] = [p for p in tmp_path.iterdir() if p.name != "report"]
    assert tree_of(kept) == {"scenarios/notes.md": "the user's"}  # the listed files went, the user's stayed
    assert f"{kept}: kept" in capsys.readouterr().err


def tree_of(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): p.read_text() for p in folder.rglob("*") if p.is_file()}


def test_deleting_an_old_folder_never_follows_a_symbolic_link(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "a.html").write_text("the user's page")
    out = built(tmp_path / "report", {"index.html": "first", "scenarios/a.html": "a"})
    for path in (out / "scenarios").iterdir():
        path.unlink()
    (out / "scenarios").rmdir()
    (out / "scenarios").symlink_to(elsewhere)  # a listed folder turned into a link to the user's files
    assert outputs.foreign(out).startswith("holds scenarios, which this tool did not write")
    assert outputs.remove_owned(out, outputs.listed(out)) is False
    assert (elsewhere / "a.html").read_text() == "the user's page" and (out / "scenarios").is_symlink()


@pytest.mark.parametrize("marker", ["not json", '{"format": "baobei-output/2", "files": []}',
                                    '{"format": "baobei-output/1", "files": "index.html"}', "[]"])
def test_a_marker_the_tool_did_not_write_makes_the_folder_foreign(tmp_path, marker):
    out = built(tmp_path / "report", {"index.html": "first"})
    (out / outputs.MARKER).write_text(marker)
    assert "was not written by this tool" in outputs.foreign(out)
