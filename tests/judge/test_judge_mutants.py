"""Mutants of the judge: each plants one small bug in the runner, the checks, the expectations logic,
the report's clause status or the diff, and the judge's cases (tests/judge/_cases.py) must catch it."""

from __future__ import annotations

import pytest
from _cases import failing_cases
from _mutate import Mutant, applied

CHECKS = "baobei_conform.runner.checks"
RUN = "baobei_conform.runner.run"
HARNESS = "baobei_conform.harness.run"
MODEL = "baobei_conform.report.model"
DIFF = "baobei_conform.runner.diff"

MUTANTS = [
    # --- checks.py: a comparison inverted, a field skipped, a check short-circuited ---
    Mutant(CHECKS, 'return actual == check["species"], _show(check["species"]), _show(actual)',
           'return actual is not None, _show(check["species"]), _show(actual)', "a slot check ignores the species"),
    Mutant(CHECKS, 'actual, wanted = [str(species(c)) for c in state["under"]], check["species"]',
           'actual, wanted = sorted(str(species(c)) for c in state["under"]), sorted(check["species"])',
           "the cards under the pile compared in any order"),
    Mutant(CHECKS, "sum(1 for c in zone if c is not None)", "sum(1 for c in zone)", "cards counted with empty slots"),
    Mutant(CHECKS, 'len(state["deck"]) == check["count"], str', 'len(state["deck"]) >= check["count"], str',
           "the deck count is a minimum"),
    Mutant(CHECKS, 'species(state["deck"][0])', 'species(state["deck"][-1])', "the deck top read at the bottom"),
    Mutant(CHECKS, 'actual = species(state[check["what"]])',
           'actual = species(state["discard"][0] if check["what"] == "top" else state[check["what"]])',
           "the top read at the bottom of the pile"),
    Mutant(CHECKS, 'return actual == check["species"], " ".join',
           'return sorted(actual) == sorted(check["species"]), " ".join', "the discard pile compared unordered"),
    Mutant(CHECKS, 'return _is(check["count"], len(state["discard"]), str)',
           'return _is(check["count"], len(state["under"]), str)', "the discard count reads the under pile"),
    Mutant(CHECKS, 'return _is(check["count"], len(state["under"]), str)',
           'return _is(check["count"], len(state["discard"]), str)', "the under count reads the discard pile"),
    Mutant(CHECKS, "(not want or want == actual_players)", "True", "expect pending ignores its player list"),
    Mutant(CHECKS, "(not want or want == actual_players)", "(not want or sorted(want) == sorted(actual_players))",
           "expect pending compares its players as a set"),
    Mutant(CHECKS, "actual = None if owed is None else list(owed)", "actual = None if owed is None else sorted(owed)",
           "expect last turns compares its players as a set"),
    Mutant(CHECKS, 'ok = p["kind"] == check["kind"] and', "ok = True and", "expect pending ignores the kind"),
    Mutant(CHECKS, 'return bool(matching) == check["present"], (', 'return bool(matching) or not check["present"], (',
           "expect no event always holds"),
    Mutant(CHECKS, 'and ("clause" not in check or event.get("clause") == check["clause"])', "and True",
           "expect event ignores its clause"),
    Mutant(CHECKS, '("player" not in check or event.get("player") == check["player"])', "True",
           "expect event ignores its player"),
    Mutant(CHECKS, 'event.get("kind") == check["kind"]', 'event.get("kind") is not None', "any event kind matches"),
    Mutant(CHECKS, 'actual = _score_of(state["round_scores"]', 'actual = _score_of(state["scores"]',
           "the round score read from the cumulative scores"),
    Mutant(CHECKS, 'actual = state[check["what"]]', 'actual = state["first"]', "winner and bao read the first player"),
    Mutant(CHECKS, 'actual = "empty slot"', "actual = None", "an empty slot passes for a hidden card"),
    Mutant(CHECKS, 'state["shield"] == check["state"]', 'state["shield"] != "none"', "any shield but none holds"),
    Mutant(CHECKS, 'state["recycles"] == check["count"]', 'state["recycles"] >= check["count"]',
           "the recycle count is a minimum"),
    Mutant(CHECKS, 'return state["final_phase"] == check["value"]', "return True", "the final phase always holds"),
    Mutant(CHECKS, 'actual = species(state[check["what"]])', 'actual = species(state[check["what"]] or "shoebill-1")',
           "a missing drawn card passes"),
    Mutant(CHECKS, 'at_path(state, check["path"])', 'at_path(state, check["path"].split(".")[0])',
           "a state path is read at its first key only"),
    Mutant(CHECKS, "if got is not MISSING and not diff(want, got):", "if want == got:", "raw JSON: true equals 1"),
    Mutant(CHECKS, 'if isinstance(step, int) and isinstance(value, list) and step < len(value):',
           'if isinstance(step, int) and isinstance(value, list):',
           "a path past the end of an array crashes the judge"),
    Mutant(CHECKS, "return [dict(e) for e in compared_events(events)]", "return events",
           "events compared with their also and ruling"),
    Mutant(CHECKS, "_compared(check[\"events\"]), _compared(events)", "_compared(check[\"events\"]), sorted("
           "_compared(events), key=str)", "events compared in any order"),
    # --- run.py: steps ---
    Mutant(RUN, "        if changed:\n", "        if False:\n", "a reject step ignores a state change"),
    Mutant(RUN, 'diff(before, get(need["after"]))\n        if changed:',
           "diff(before, before)\n        if changed:", "a reject step compares the wrong states"),
    Mutant(RUN, "    if changed:\n        raise StepFailed(f\"the same actions",
           "    if False:\n        raise StepFailed(f\"the same actions", "a replay ignores another state"),
    Mutant(RUN, "        if code is not None:\n            what", "        if False:\n            what",
           "a replay ignores a refused action"),
    Mutant(RUN, "            history.append(calls[-1])\n", "", "a replay plays none of the actions again"),
    Mutant(RUN, 'if code != step["code"]:', "if False:", "a reject step accepts any error code"),
    Mutant(RUN, "        if code is None:\n            raise", "        if False:\n            raise",
           "a reject step accepts an accepted action"),
    Mutant(RUN, "        if code is not None:\n            raise", "        if False:\n            raise",
           "an apply step ignores a refusal"),
    Mutant(RUN, "        if not ok:\n", "        if False:\n", "a failed expect is ignored"),
    Mutant(CHECKS, 'return ("view", check["viewer"])', 'return ("view", 0)',
           "a view check reads another player's view"),
    Mutant(RUN, 'need["apply"], state_at = call(("apply", step["action"])), None',
           'need["apply"] = call(("apply", step["action"]))',
           "an expect reuses the state from before the latest action"),
    Mutant(RUN, "        left.remove(match)\n", "", "a shuffle may name the same card twice"),
    Mutant(CHECKS, '"legal_actions", "events": "events"}', '"legal_actions"}',
           "event checks run on engines without events"),
    Mutant(RUN, 'return Outcome(scenario.id, "error", message=exc.message',
           'return Outcome(scenario.id, "pass", message=exc.message', "a broken engine passes"),
    # --- the expectations file ---
    Mutant(HARNESS, 'if outcome.status == known["status"]:', 'if outcome.status in ("fail", "error", "skip"):',
           "a known fail also excuses an error"),
    Mutant(HARNESS, 'elif outcome.status == "pass":', "elif False:", "a known failure that passes is not reported"),
    # --- the report's status of a clause ---
    Mutant(MODEL, "worst = min(statuses, key=SEVERITY.index)", "worst = max(statuses, key=SEVERITY.index)",
           "a clause takes the best status of its scenarios"),
    Mutant(MODEL, "worst = min(statuses, key=SEVERITY.index)", "worst = statuses[0]",
           "a clause takes the status of its first scenario"),
    Mutant(MODEL, 'return worst, statuses.count("pass"), len(statuses)', "return worst, len(statuses), len(statuses)",
           "every scenario of a clause counts as passed"),
    # --- the reject step's diff ---
    Mutant(DIFF, "isinstance(expected, bool) == isinstance(actual, bool)", "True", "true equals 1"),
    Mutant(DIFF, "keys = [*expected, *(k for k in actual if k not in expected)]", "keys = list(expected)",
           "a key only the actual side has is ignored"),
    Mutant(DIFF, "for i in range(max(len(expected), len(actual)))", "for i in range(len(expected))",
           "a longer actual array is ignored"),
]


def test_there_are_enough_mutants_and_the_judge_is_clean():
    assert len(MUTANTS) >= 20
    assert failing_cases() == []


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.why for m in MUTANTS])
def test_the_judge_cases_kill_the_mutant(mutant):
    with applied(mutant):
        killed_by = failing_cases()
    assert killed_by, f"mutant survived: {mutant.why}"
