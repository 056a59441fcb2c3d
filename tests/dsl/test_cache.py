"""The cache of compiled scenarios (conformance/suite/cache.py): never stale, never trusted when corrupt, safe under
concurrent writers, and a run that cannot use it works uncached. Every test points the cache at its tmp_path."""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path

import orjson
import pytest

from baobei_conform.cli.main import main
from baobei_conform.suite import cache
from baobei_conform.suite.cache import CompiledCache, compiled_cache
from baobei_conform.suite.scenario import _compile, _entry, load_scenario, scenario_files
from baobei_spec import default_spec

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = """id: {id}
title: a drawn card discarded is the top of the discard pile
clauses: ["3.6.1"]
script: |
  setup
    zone p0: owl kingfisher owl eagle heron
    zone p1: owl swallow hummingbird flamingo sparrow
    deck: {card}
    active p0
    p0 knows p0.1 p0.2
    p1 knows p1.1 p1.2
  end
  p0 draws
  p0 discards
  expect top is {card}
"""


@pytest.fixture
def in_tmp(tmp_path, monkeypatch) -> Path:
    """The process's cache in ``tmp_path/cache``; the folder."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("BAOBEI_CACHE_DIR", str(folder))
    compiled_cache.cache_clear()
    yield folder / "scenarios"
    compiled_cache.cache_clear()


def entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.json"))


def write(tmp_path: Path, card: str = "sparrow", name: str = "kept") -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(SCENARIO.format(id=name, card=card), encoding="utf-8")
    return path


def fresh(path: Path):
    return _compile(path, str(path), path.read_bytes(), default_spec())


def test_a_scenario_is_compiled_once_then_served_from_the_cache(in_tmp, tmp_path, monkeypatch):
    path = write(tmp_path)
    first = load_scenario(path)
    assert len(entries(in_tmp)) == 1
    monkeypatch.setattr("baobei_conform.suite.scenario._compile", lambda *a: pytest.fail("compiled again"))
    again = load_scenario(path)
    assert again == first and again.steps == first.steps and again.deck_named == first.deck_named


def test_a_changed_scenario_file_is_compiled_again_never_served_stale(in_tmp, tmp_path):
    path = write(tmp_path, card="sparrow")
    assert "sparrow" in repr(load_scenario(path).steps[-1])
    path = write(tmp_path, card="heron")  # the same file, one word changed
    changed = load_scenario(path)
    assert "heron" in repr(changed.steps[-1]) and "sparrow" not in repr(changed.steps[-1])
    assert changed.steps == fresh(path).steps
    assert len(entries(in_tmp)) == 2


def test_the_key_covers_the_compiler_the_file_name_and_the_bytes(monkeypatch):
    store = CompiledCache(Path("unused"))
    key = store.key("a.yaml", b"x")
    assert len({key, store.key("b.yaml", b"x"), store.key("a.yaml", b"y")}) == 3
    monkeypatch.setattr(cache, "compiler_digest", lambda: "another compiler")
    assert store.key("a.yaml", b"x") != key
    named = {name for name, _ in cache.compiler_files()}
    for part in ("conformance/dsl/grammar.lark", "conformance/dsl/parse.py", "conformance/dsl/compile.py",
                 "conformance/suite/scenario.py", "spec/clauses/part3.yaml", "spec/position/build.py",
                 "lark/__init__.py"):
        assert part in named, part


def test_a_moved_file_keeps_its_entry_but_takes_its_new_path(in_tmp, tmp_path):
    path = write(tmp_path)
    load_scenario(path)
    moved = tmp_path / "elsewhere"
    moved.mkdir()
    (moved / path.name).write_bytes(path.read_bytes())
    assert load_scenario(moved / path.name).path == str(moved / path.name)
    assert len(entries(in_tmp)) == 1


@pytest.mark.parametrize("damage", [
    lambda blob: b"not json at all",
    lambda blob: blob[: len(blob) // 2],  # truncated
    lambda blob: blob.replace(b'"top","species":"sparrow', b'"top","species":"heron'),  # altered: digest mismatch
    lambda blob: b"",
])
def test_a_corrupt_entry_is_ignored_and_rewritten(in_tmp, tmp_path, damage):
    path = write(tmp_path)
    expected = load_scenario(path)
    [entry] = entries(in_tmp)
    good = entry.read_bytes()
    assert damage(good) != good
    entry.write_bytes(damage(good))
    loaded = load_scenario(path)
    assert loaded.steps == expected.steps
    assert entry.read_bytes() == good  # rewritten whole


def test_an_entry_of_another_key_is_not_served(in_tmp, tmp_path):
    """An entry renamed to another file's key (its own digest intact) names its key inside: refused."""
    one, other = write(tmp_path, name="one"), write(tmp_path, card="heron", name="other")
    load_scenario(one)
    load_scenario(other)
    store = compiled_cache()
    one_key, other_key = (store.key(p.name, p.read_bytes()) for p in (one, other))
    (in_tmp / f"{other_key}.json").write_bytes((in_tmp / f"{one_key}.json").read_bytes())
    assert load_scenario(other).id == "other"


def test_an_unwritable_cache_leaves_the_run_uncached_and_says_so_with_v_only(tmp_path, monkeypatch, capsys):
    blocker = tmp_path / "a-file"
    blocker.write_text("in the way of the cache folder\n", encoding="utf-8")
    monkeypatch.setenv("BAOBEI_CACHE_DIR", str(blocker))
    compiled_cache.cache_clear()
    try:
        path = write(tmp_path)
        assert load_scenario(path).steps == fresh(path).steps
        assert main(["lint", str(path)]) == 0
        assert "without the cache" not in capsys.readouterr().err
        assert main(["lint", "-v", str(path), str(write(tmp_path, name="another"))]) == 0
        err = capsys.readouterr().err
        assert err.count("scenarios compiled without the cache") == 1 and str(blocker) in err
    finally:
        compiled_cache.cache_clear()
    assert blocker.read_text(encoding="utf-8") == "in the way of the cache folder\n"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_cache_folder_leaves_the_run_uncached(in_tmp, tmp_path):
    in_tmp.mkdir(parents=True)
    in_tmp.chmod(0o500)
    try:
        path = write(tmp_path)
        assert load_scenario(path).steps == fresh(path).steps
        assert compiled_cache().note and not entries(in_tmp)
    finally:
        in_tmp.chmod(0o700)


def _write_many(folder: str, key: str, entry: dict, rounds: int) -> None:
    store = CompiledCache(Path(folder))
    whole = orjson.loads(orjson.dumps({**entry, "key": key}))  # as JSON keeps it: lists for tuples
    for _ in range(rounds):
        store.put(key, entry)
        assert store.get(key) == whole, "half an entry, or another's"
    assert store.note is None


def test_concurrent_writers_leave_whole_entries_and_no_temporary_files(in_tmp, tmp_path):
    path = write(tmp_path)
    store = compiled_cache()
    key, entry = store.key(path.name, path.read_bytes()), _entry(fresh(path))
    context = multiprocessing.get_context("spawn")
    writers = [context.Process(target=_write_many, args=(str(in_tmp), key, entry, 30)) for _ in range(4)]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join(120)
        assert writer.exitcode == 0
    assert [p.name for p in in_tmp.iterdir()] == [f"{key}.json"]  # no temporary file left behind
    assert load_scenario(path).steps == fresh(path).steps


def test_every_suite_scenario_served_from_the_cache_equals_its_fresh_compilation(in_tmp):
    """The cache keeps what a compiled scenario is (JSON keeps no tuples, no integer keys): each field survives."""
    for path in scenario_files([ROOT / "scenarios"]):
        compiled = fresh(path)
        load_scenario(path)  # stored
        cached = load_scenario(path)
        assert cached == compiled, path
        assert (cached.steps, cached.notes, cached.deck_named) == (compiled.steps, compiled.notes,
                                                                   compiled.deck_named), path


def test_the_fuzzer_s_starts_served_from_the_cache_equal_their_fresh_compilation(in_tmp):
    """Every fuzzing run starts from every scenario's setup, compiled once (fuzz/positions.py)."""
    from baobei_conform.fuzz.positions import _step, compiled, load_corpus

    starts, _ = load_corpus.__wrapped__((str(ROOT / "scenarios"),))
    assert len(starts) > 400 and len(entries(in_tmp)) >= len(starts)
    for start in starts:
        assert compiled(start.setup) == start and start.step == _step(start.setup), start.setup
