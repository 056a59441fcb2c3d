"""The conformance scenarios, shipped as package data so an installed ``baobei-conform`` runs them from any
folder. ``SUITE_ROOT`` is where they are (the checkout's ``scenarios/`` in an editable install)."""

from pathlib import Path

SUITE_ROOT = Path(__file__).resolve().parent
