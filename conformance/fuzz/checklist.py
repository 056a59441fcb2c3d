"""The fuzzer's checks, one registered ``FuzzCheck`` each, and which a run made and which held: the JSON's
``checks`` and the report's table. ``compare.Problem`` takes only a registered check's name.

A check with a problem of the run is ``broken``; the others ``held`` for every action played (or are ``skipped``
with the reason: the engine lacks the capability, or the mode does not make them).
"""

from __future__ import annotations

from dataclasses import dataclass

FUZZ_SCHEMA = "baobei-fuzz/1"  # the JSON of ``baobei-conform fuzz --json FILE``, read by the report

@dataclass(frozen=True)
class FuzzCheck:
    """One check the fuzzer makes: the ``Problem.check`` it reports, what it asserts in each mode that makes it
    (``differential`` against the reference, ``invariants`` without it), and the capability it needs."""

    name: str
    asserts: dict[str, str]  # mode -> what it asserts there
    needs: str | None = None


CHECKS: dict[str, FuzzCheck] = {}


def register(name: str, needs: str | None = None, **asserts: str) -> FuzzCheck:
    """Register a fuzzer check; ``compare.Problem`` takes only a registered check's name."""
    check = CHECKS[name] = FuzzCheck(name, asserts, needs)
    return check


register("state", differential="the observable state and the pending decision agree with the reference's after "
                               "every action")
register("events", "events",
         differential="each action's events agree with the reference's: kinds, players, governing clauses",
         invariants="each action's events are objects of the protocol: a string kind, and a string clause where given")
register("view", "views", differential="every player's view agrees with the reference's",
         invariants="each view shows every card the player has seen and hides every card they have not")
register("cards", invariants="every card of the catalog is in exactly one place after every action")
BOTH = ("differential", "invariants")
register("legal_actions", "legal_actions", **dict.fromkeys(
    BOTH, "legal_actions lists exactly the actions apply accepts (near misses and listed samples)"))
register("refused", differential="every action the reference accepts is accepted")
register("probe", **dict.fromkeys(BOTH, "a refused near-miss action leaves the state unchanged (and, against the "
                                        "reference, is refused with its error code)"))
register("setup", **dict.fromkeys(BOTH, "setup(state()) gives the state back"))
register("determinism", **dict.fromkeys(BOTH, "the same actions from the same start give the same states"))
register("error", **dict.fromkeys(BOTH, "the engine answers every request (no crash, timeout or malformed reply)"))


def checklist(mode: str, capabilities, broken: set[str]) -> list[dict]:
    """The run's checks in a fixed order: ``{check, what, status: held | broken | skipped, reason}``."""
    caps = set(capabilities)
    out = []
    for check in CHECKS.values():
        if mode not in check.asserts:
            continue
        if check.needs and check.needs not in caps:
            status, reason = "skipped", f"the engine does not offer the capability {check.needs!r}"
        elif check.name in broken:
            status, reason = "broken", ""
        else:
            status, reason = "held", ""
        out.append({"check": check.name, "what": check.asserts[mode], "status": status, "reason": reason})
    return out
