"""Helpers shared by the reference's unit tests."""

from __future__ import annotations

import pytest

from baobei_ref import Game, RuleError


def rejected(g: Game, action, *codes: str) -> RuleError:
    """``action`` is refused with one of ``codes`` and the state is left exactly as it was."""
    before = g.to_json()
    with pytest.raises(RuleError) as err:
        g.apply(action)
    assert err.value.code in codes, err.value
    assert g.to_json() == before
    return err.value
