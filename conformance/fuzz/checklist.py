"""Which checks a fuzzing run made on an engine, and which held: the JSON's ``checks`` and the report's table.

A check with a problem of the run is ``broken``; the others ``held`` for every action played (or are ``skipped``
with the reason: the engine lacks the capability, or the mode does not make them).
"""

from __future__ import annotations

FUZZ_SCHEMA = "baobei-fuzz/1"  # the JSON of ``baobei-conform fuzz --json FILE``, read by the report

# (id: the Problem.check it reports, what it asserts, the capability it needs, the modes that make it)
CHECKS = (
    ("state", "the observable state and the pending decision agree with the reference's after every action",
     None, ("differential",)),
    ("events", "each action's events agree with the reference's: kinds, players, governing clauses",
     "events", ("differential",)),
    ("events", "each action's events are objects of the protocol: a string kind, and a string clause where given",
     "events", ("invariants",)),
    ("view", "every player's view agrees with the reference's", "views", ("differential",)),
    ("view", "each view shows every card the player has seen and hides every card they have not",
     "views", ("invariants",)),
    ("cards", "every card of the catalog is in exactly one place after every action", None, ("invariants",)),
    ("legal_actions", "legal_actions lists exactly the actions apply accepts (near misses and listed samples)",
     "legal_actions", ("differential", "invariants")),
    ("refused", "every action the reference accepts is accepted", None, ("differential",)),
    ("probe", "a refused near-miss action leaves the state unchanged (and, against the reference, is refused "
              "with its error code)", None, ("differential", "invariants")),
    ("setup", "setup(state()) gives the state back", None, ("differential", "invariants")),
    ("determinism", "the same actions from the same start give the same states", None,
     ("differential", "invariants")),
    ("error", "the engine answers every request (no crash, timeout or malformed reply)", None,
     ("differential", "invariants")),
)


def checklist(mode: str, capabilities, broken: set[str]) -> list[dict]:
    """The run's checks in a fixed order: ``{check, what, status: held | broken | skipped, reason}``."""
    caps = set(capabilities)
    out = []
    for check, what, needs, modes in CHECKS:
        if mode not in modes:
            continue
        if needs and needs not in caps:
            status, reason = "skipped", f"the engine does not offer the capability {needs!r}"
        elif check in broken:
            status, reason = "broken", ""
        else:
            status, reason = "held", ""
        out.append({"check": check, "what": what, "status": status, "reason": reason})
    return out
