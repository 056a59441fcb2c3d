"""Scenario files under scenarios/ are collected as tests (one per scenario, named by its id)."""

pytest_plugins = ["baobei_conform.pytest_plugin"]
