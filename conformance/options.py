"""What every command line shares: argparse types and the default scenario folder.

Its own module, below the commands: the run, ``fuzz``, ``report`` and the smaller tools all use these,
and none of them may depend on another command's module to get them.
"""

from __future__ import annotations

import argparse
import os

from baobei_scenarios import SUITE_ROOT


def positive(kind: type, least: float):
    """An argparse type refusing values below ``least``, or zero when ``least`` is 0 (``-j 0`` runs nothing)."""
    def check(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if value < least or (least == 0 and value == 0):
            raise argparse.ArgumentTypeError(f"{text} is out of range: must be {'above' if least == 0 else 'at least'} "
                                             f"{least}")
        return value
    return check


def default_suite() -> list[str]:
    """The installed scenarios, shown relative to the current folder when they are under it (a checkout)."""
    relative = os.path.relpath(SUITE_ROOT)
    return [relative if not relative.startswith("..") else str(SUITE_ROOT)]
