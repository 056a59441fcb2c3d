"""Shared test setup."""

import pytest


@pytest.fixture(autouse=True)
def report_in_tmp(tmp_path, monkeypatch):
    """In-process runs of baobei-conform write their default HTML report under tmp_path, not the checkout."""
    import baobei_conform.cli

    monkeypatch.setattr(baobei_conform.cli, "DEFAULT_REPORT_DIR", str(tmp_path / "baobei-report"))
