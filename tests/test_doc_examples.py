"""The examples in docs/ and in docstrings run as written."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

import baobei_ref.game
import baobei_ref.setup
import baobei_spec
import baobei_spec.position

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("module", [baobei_ref.game, baobei_ref.setup, baobei_spec, baobei_spec.position],
                         ids=lambda m: m.__name__)
def test_docstring_examples(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_reference_walkthrough():
    result = doctest.testfile(str(ROOT / "docs" / "reference.md"), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 10 and result.failed == 0
