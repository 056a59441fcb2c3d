"""Hold what an engine showed (``observe``) to the contract: every event in exactly one situation and citing its
clause, every refusal with the precedence's code, every list in its order and scope, every view with exactly
its fields, every listed action accepted; and every situation and refusal row produced at least once.

``judge(observed)`` returns the findings, each naming where it was seen; the reference must give none.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from baobei_conform.contract.observe import Observed
from baobei_spec import default_spec
from baobei_spec.conditions import LIST, MOVED, EventContext, Json, Step, turn_before
from baobei_spec.contract import action_key, refusal_rows, situations_of, view_data
from baobei_spec.model import Contract

NOT_DATA = ("kind", "clause")  # an event's keys besides its data fields (and the informational ones)


@dataclass
class Verdict:
    """The findings (what the contract does not describe exactly) and what was produced."""

    findings: list[str] = field(default_factory=list)
    situations: Counter[tuple[str, str]] = field(default_factory=Counter)  # (kind, situation id) -> times produced
    refusals: Counter[str] = field(default_factory=Counter)  # refusal row id -> times met

    def unproduced(self, contract: Contract) -> list[str]:
        """Described situations and refusal rows nothing produced."""
        out = [f"situation {s.kind}.{s.id} ({s.clause}) was never produced" for s in contract.situations()
               if (s.kind, s.id) not in self.situations]
        out += [f"refusal row {r.id} ({r.code or 'as ' + str(r.as_)}) was never met" for r in contract.refusals
                if r.id not in self.refusals]
        return out


def judge(observed: list[Observed], contract: Contract | None = None, complete: bool = False) -> Verdict:
    """Every observation against the contract; with ``complete``, every situation and row must have been produced."""
    contract = contract or default_spec().contract
    verdict = Verdict()
    for seen in observed:
        if seen.code is not None:
            _refused(seen, contract, verdict)
        else:
            _accepted(seen, contract, verdict)
    if complete:
        verdict.findings += verdict.unproduced(contract)
    return verdict


def _refused(seen: Observed, contract: Contract, verdict: Verdict) -> None:
    step = seen.step
    assert step.before is not None and step.action is not None
    rows = refusal_rows(step.before, step.action, contract)
    verdict.refusals.update(r.id for r in rows)
    if not rows:
        verdict.findings.append(f"{seen.source}: the reference refuses {step.action} with {seen.code!r}; the contract "
                                "accepts it")
        return
    row = rows[-1]
    if row.code != seen.code or row.clause != seen.clause:
        verdict.findings.append(f"{seen.source}: {step.action} at a {step.before['pending']['kind']!r} decision is "
                                f"refused with {seen.code!r} citing {seen.clause}; the contract's row {row.id} says "
                                f"{row.code!r} citing {row.clause}")


def _accepted(seen: Observed, contract: Contract, verdict: Verdict) -> None:
    step = seen.step
    if step.before is not None and step.action is not None:
        rows = refusal_rows(step.before, step.action, contract)
        if rows:
            verdict.findings.append(f"{seen.source}: the reference accepts {step.action}; the contract refuses it "
                                    f"(row {rows[-1].id}, {rows[-1].code!r})")
        _events(seen, contract, verdict)
    verdict.findings += [f"{seen.source}: {problem}" for problem in _lists(step, seen.views, contract)]
    verdict.findings += [f"{seen.source}: {problem}" for problem in _views(step.after, seen.views, contract)]
    verdict.findings += [f"{seen.source}: {problem}" for problem in _legal(step.after, seen.legal, contract)]


def _events(seen: Observed, contract: Contract, verdict: Verdict) -> None:
    step = seen.step
    assert step.action is not None and step.before is not None
    history = list(seen.earlier)
    for i, event in enumerate(step.events):
        kind = event.get("kind")
        where = f"{seen.source}: event {i + 1} {kind} [{event.get('clause')}] of {step.action.get('type')}"
        found = situations_of(EventContext(step.action, step.before, step.events, i, turn_before(history)), contract)
        history.append((str(step.action.get("type")), event))
        if kind not in contract.events:
            verdict.findings.append(f"{where}: the contract describes no event kind {kind!r}")
            continue
        if len(found) != 1:
            ids = ", ".join(s.id for s in found) or "none"
            verdict.findings.append(f"{where}: {len(found)} situations of {kind} match ({ids}); the contract means one")
            continue
        (situation,) = found
        verdict.situations[(situation.kind, situation.id)] += 1
        if event.get("clause") != situation.clause:
            verdict.findings.append(f"{where}: cites {event.get('clause')}, the contract's situation {situation.id} "
                                    f"cites {situation.clause}")
        data = sorted(k for k in event if k not in NOT_DATA and k not in contract.informational)
        if data != sorted(situation.fields):
            verdict.findings.append(f"{where}: fields {data}, the contract's situation {situation.id} has "
                                    f"{sorted(situation.fields)}")


def _lists(step: Step, views: dict[int, Json], contract: Contract) -> list[str]:
    """Each list with a check, on the state after, on each view, on each event of its kind; the moved rules."""
    out = []
    for rule in contract.lists:
        if rule.check is None:
            continue
        root, _, rest = rule.path.partition(".")
        if root == "state":
            docs = [step.after]
        elif root == "view":
            docs = list(views.values())
        else:  # event.<kind>.<field>
            docs = [e for e in step.events if e.get("kind") == rest.split(".")[0]]
        for doc in docs:
            problem = LIST[rule.check](doc, step)
            if problem:
                out.append(f"{rule.path}: {problem} (contract: {rule.order}; {rule.scope})")
    for moved in contract.moved:
        problem = MOVED[moved.check](step)
        if problem:
            out.append(f"moved: {problem} (contract: {moved.when})")
    return out


def _views(state: Json, views: dict[int, Json], contract: Contract) -> list[str]:
    """A view has exactly the contract's fields, and of the pending decision's data what it shows that viewer;
    the state's pending data has exactly the decision's keys."""
    out = []
    pending = state["pending"]
    keys = set(contract.pending_data.get(pending["kind"], {}))
    if set(pending["data"]) != keys:
        out.append(f"state.pending.data of a {pending['kind']} has {sorted(pending['data'])}, the contract "
                   f"{sorted(keys)}")
    for player, view in views.items():
        if set(view) != set(contract.view_fields):
            out.append(f"p{player}'s view has fields {sorted(view)}, the contract {sorted(contract.view_fields)}")
        shown = set(view["pending"]["data"])
        want = view_data(pending["kind"], player, pending["player"])
        if shown != want:
            out.append(f"p{player}'s view of a {pending['kind']} shows data {sorted(shown)}, the contract "
                       f"{sorted(want)}")
    return out


def _legal(state: Json, legal: list[Json] | None, contract: Contract) -> list[str]:
    """Listed actions: each once, each accepted by the contract, never simultaneous claims."""
    if legal is None:
        return []
    out = []
    keys = [action_key(a) for a in legal]
    if len(set(keys)) != len(keys):
        out.append("legal_actions lists an action twice")
    for action in legal:
        rows = refusal_rows(state, action, contract)
        if rows or action.get("type") == "simultaneous_plucks":
            out.append(f"legal_actions lists {action}, which the contract refuses"
                       + (f" (row {rows[-1].id})" if rows else " (simultaneous claims are never listed)"))
            break
    return out
