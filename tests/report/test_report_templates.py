"""The report's templates compiled once and kept in the user's cache folder (report/build.py: CompiledTemplates);
a cache folder that cannot be used only leaves them compiled each time."""

from __future__ import annotations

import pytest
from jinja2 import Environment

from baobei_conform.report.build import environment

NAMES = ("base.html.j2", "scenario.html.j2", "macros.html.j2")


def test_templates_compiled_once_are_loaded_from_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("BAOBEI_CACHE_DIR", str(tmp_path))
    for name in NAMES:
        environment().get_template(name)
    assert len(list((tmp_path / "templates").iterdir())) == len(NAMES)
    monkeypatch.setattr(Environment, "compile", lambda *a, **k: pytest.fail("compiled again"))
    for name in NAMES:
        assert environment().get_template(name).render is not None


def test_a_changed_template_is_compiled_again(tmp_path, monkeypatch):
    """Jinja keys an entry by the template's source checksum: an edited template is never served stale."""
    monkeypatch.setenv("BAOBEI_CACHE_DIR", str(tmp_path))
    env = environment()
    env.get_template("base.html.j2")
    compiled = []
    original = Environment.compile
    monkeypatch.setattr(Environment, "compile", lambda self, source, *a, **k: compiled.append(source) or original(
        self, source, *a, **k))
    edited = env.loader.get_source(env, "base.html.j2")[0] + "<!-- edited -->\n"
    monkeypatch.setattr(type(env.loader), "get_source", lambda self, e, name: (edited, None, lambda: True))
    environment().get_template("base.html.j2")
    assert compiled and "<!-- edited -->" in compiled[0]


@pytest.mark.parametrize("damage", [b"", b"garbage that is no bytecode"])
def test_a_corrupt_or_unusable_cache_only_costs_a_compilation(tmp_path, monkeypatch, damage):
    monkeypatch.setenv("BAOBEI_CACHE_DIR", str(tmp_path))
    environment().get_template("base.html.j2")
    for entry in (tmp_path / "templates").iterdir():
        entry.write_bytes(damage)
    assert environment().get_template("base.html.j2") is not None
    blocker = tmp_path / "a-file"
    blocker.write_text("in the way\n", encoding="utf-8")
    monkeypatch.setenv("BAOBEI_CACHE_DIR", str(blocker))
    assert environment().get_template("base.html.j2") is not None
    assert blocker.read_text(encoding="utf-8") == "in the way\n"
