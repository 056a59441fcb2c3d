"""``explain SCENARIO ENGINE``: a step is marked only where a field the contract compares differs; the differing
fields are printed with both values; what is compared and what is informational is said."""

from __future__ import annotations

import io
import sys
from pathlib import Path

from baobei_conform.engines.reference import ReferenceEngine
from baobei_conform.runner.explain import side_by_side
from baobei_conform.suite.scenario import load_scenario
from baobei_spec import default_spec

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "examples" / "wrong_engine"))
from engine import BUGS  # noqa: E402

PLUCK = ROOT / "scenarios" / "2-turn" / "slots-given-away-slot-takes-a-later-penalty.yaml"  # its checks pass both


def explained(engine, path: Path = PLUCK) -> tuple[bool, str]:
    out = io.StringIO()
    agrees = side_by_side(load_scenario(path), engine, default_spec(), out)
    return agrees, out.getvalue()


def wrong(bug: str) -> ReferenceEngine:
    return ReferenceEngine(variants=[BUGS[bug][0]])


def test_the_reference_against_itself_marks_nothing_and_says_what_is_compared():
    agrees, out = explained(ReferenceEngine())
    assert agrees and "DIFFERS" not in out and "informational, not compared" not in out
    assert "compared after every action: state (exactly); events (in order, every key but also, ruling); every " \
           "player of the round's view (exactly); legal_actions (as a set of actions)" in out
    assert "not compared: the events' also, ruling (informational" in out


def test_a_view_misreading_is_marked_with_both_values_though_every_check_passes():
    agrees, out = explained(wrong("view_shows_own_cards"))
    assert not agrees and "STOPPED" not in out
    first = out.index("  <- DIFFERS: ")
    assert out[:first].rstrip().endswith("setup")  # marked from the first action where a view differs
    # p0 looked at slots 1 and 2 in the initial peek (line 16): slot 3, unseen, is what the view must not show
    assert 'views.p0.zones.0[2].card: null -> "sparrow-1"' in out and "zones.0[0]" not in out
    assert "<- DIFFERS: the same 12 compared fields as after line 8" in out  # repeated differences are named once
    assert "steps where a compared field differs from the reference" in out


def test_a_listing_misreading_is_marked_on_legal_actions_only():
    agrees, out = explained(wrong("take_into_any_slot_listed"))
    lines = [line.strip() for line in out.splitlines() if line.startswith("     ")]
    assert not agrees and lines and all(line.startswith(("legal_actions: (not listed) -> {", "... and"))
                                        for line in lines)
    assert '"type": "take_discard"' in out


def test_an_engine_without_a_capability_is_not_compared_on_it():
    engine = wrong("take_into_any_slot_listed")
    engine.capabilities = frozenset({"events", "views"})
    agrees, out = explained(engine)
    assert agrees and "DIFFERS" not in out
    assert "legal_actions (the engine does not announce the capability)" in out


class OtherAlso(ReferenceEngine):
    """Right in every compared field; its events cite other ``also`` clauses and no ruling."""

    def apply(self, action):
        events, code = super().apply(action)
        return [{k: v for k, v in e.items() if k != "ruling"} | {"also": ["9.9.9"]} for e in events or []] \
            if code is None else None, code


def test_informational_fields_are_shown_but_never_mark_a_step():
    agrees, out = explained(OtherAlso())
    assert agrees and "DIFFERS" not in out
    assert 'informational, not compared (reference -> engine):\n     events[0].also[0]: "2.6.1" -> "9.9.9"' in out
    assert 'events[0].ruling: "R-14" -> (missing)' in out


def test_a_wrong_event_field_is_marked_with_its_path():
    class WrongClause(ReferenceEngine):
        def apply(self, action):
            events, code = super().apply(action)
            return [{**e, "clause": "9.9.9"} if e["kind"] == "drew" else e for e in events or []] \
                if code is None else None, code

    agrees, out = explained(WrongClause())
    assert not agrees
    assert '<- DIFFERS: 1 compared field (reference -> engine):\n     events[0].clause: "2.7.1" -> "9.9.9"' in out


def test_a_step_whose_run_stops_later_is_not_compared_on_what_was_sent_after_it():
    """The pluck's run goes on to a BAO call the wrong engine accepts: its state is read after that call, so the
    pluck is compared on its events alone (they agree); the step where the engine stops says why."""
    agrees, out = explained(wrong("no_gift"), ROOT / "scenarios" / "4-bao" / "bao-call-refused-while-gift-pending.yaml")
    assert not agrees and "DIFFERS" not in out and "state.bao" not in out
    assert "engine STOPPED here: expect pending (expected gift p0, actual end_turn p0)" in out


def test_the_reference_follows_the_engines_declared_readings():
    """An engine declaring R-05 A beside a reference of the adopted B would differ from the second recycle on."""
    path = ROOT / "scenarios" / "7-deck" / "deck-final-phase-after-bao-keeps-the-last-turns.yaml"
    agrees, out = explained(ReferenceEngine({"R-05": "A"}), path)
    assert agrees and "DIFFERS" not in out and "p0 draws" in out  # the steps under A, run by both
    disagrees, _ = explained(ReferenceEngine({"R-05": "A"}, declare=False), path)
    assert not disagrees  # undeclared: the adopted steps, which its answers do not follow
