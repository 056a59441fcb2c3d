"""Meta-tests: every check and statement form is judged right on a right engine and fails, naming the
step, the expected and the actual value, on an engine double wrong in exactly one respect."""

from __future__ import annotations

import pytest
from _cases import CASES

from baobei_spec import default_spec


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_the_judge(case):
    case.run()


def test_every_check_form_has_a_right_and_a_wrong_case():
    """Adding a check kind to spec/vocabulary.yaml without its meta-tests fails here."""
    forms = default_spec().vocabulary.forms()
    for side in ("right", "wrong"):
        covered = {c.form for c in CASES if c.side == side}
        assert sorted(set(forms) - covered) == [], f"check forms without a {side} case"
    assert {c.form for c in CASES if c.side == "wrong" and c.form in forms} == set(forms)


def test_every_statement_form_has_a_right_and_a_wrong_case():
    for form in ("setup", "new_game", "act", "reject", "expect"):
        assert {c.side for c in CASES if c.form == form} == {"right", "wrong"}, form


def test_the_case_names_are_unique():
    names = [c.name for c in CASES]
    assert len(names) == len(set(names))
