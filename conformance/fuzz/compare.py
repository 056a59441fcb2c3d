"""What an engine must get right after every action: how to state differences from the reference (what must agree
is conformance/runner/agreement.py), and invariants.

Each function returns a list of problems (empty when all holds), each a ``Problem`` that says what
differs, the ``expect`` lines that pin the reference's answer (readable ones where a check names the field, and
always the exact raw JSON line: ``expect state PATH is JSON``, ``expect view pN PATH is JSON``,
``expect events are JSON``), so a found failure can be written as a scenario, and its ``group``: the check and
where (a JSON path's shape, an event kind, an action type), which tells one problem from another in a run.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from baobei_conform.fuzz.checklist import CHECKS
from baobei_conform.runner import agreement
from baobei_conform.runner.agreement import CHANCE  # noqa: F401 - the fuzzer reads it here
from baobei_conform.runner.checks import at_path, json_text
from baobei_conform.runner.diff import ABSENT, first_difference, first_leaf
from baobei_spec.contract import compared_events


@dataclass
class Problem:
    check: str  # the name of a registered fuzzer check (checklist.CHECKS)
    message: str
    expect: list[str] = field(default_factory=list)  # DSL expect lines stating the reference's answer
    where: str = ""  # what tells it from another problem of its check: a path's shape, an event kind, a type

    def __post_init__(self) -> None:
        if self.check not in CHECKS:
            raise ValueError(f"{self.check!r} is no fuzzer check (checklist.CHECKS)")

    @property
    def group(self) -> str:
        """The problem's identity in a run: its check and where (``state zones.*[].card``)."""
        return f"{self.check} {self.where}".strip()


_LAST_STEP = re.compile(r"(\.[^.\[\]]+|\[\d+\])$")


def differing_path(ref, eng) -> str | None:
    """The path (``zones.1[2].card``, as runner/diff.py prints it) of the first place two JSON values differ,
    taken up to what the reference has there (a key only the engine has: its parent object); None when they
    agree. At that path the reference's value is the one to state: the engine's differs, or it has none.
    ``.``: the whole value."""
    leaf = first_leaf(ref, eng)
    if leaf is None:
        return None
    path, left, _ = leaf
    if left is ABSENT:
        path = _LAST_STEP.sub("", path)
    return path.lstrip(".") or "."  # "." the whole value (a key only the engine has, at the top)


def path_shape(path: str) -> str:
    """What a path says of the problem, without which slot, card or player: ``zones.1[2].card`` ->
    ``zones.*[].card`` (keys with digits and array indices are where, not what)."""
    steps = re.findall(r"\.?([^.\[\]]+)|(\[\d+\])", path)
    return "".join("[]" if index else ("." if i else "") + ("*" if re.search(r"\d", key) else key)
                   for i, (key, index) in enumerate(steps))


def raw_line(prefix: str, ref, eng) -> tuple[list[str], str]:
    """``expect PREFIX PATH is JSON`` at the first difference (no line when they agree), and the path's shape."""
    path = differing_path(ref, eng)
    if path is None:
        return [], ""
    return [f"expect {prefix} {path} is {json_text(at_path(ref, path))}"], path_shape(path)


def _species(card) -> str | None:
    return None if card is None else card.rsplit("-", 1)[0]


def _slot_lines(ref: dict, eng: dict) -> list[str]:
    lines = []
    for p, zone in ref["zones"].items():
        other = eng.get("zones", {}).get(p) or []
        if len(other) != len(zone):
            lines.append(f"expect p{p} has {len(zone)} slots")
        for i, cell in enumerate(zone, 1):
            theirs = other[i - 1] if i <= len(other) else "missing"
            if theirs != cell:
                lines.append(f"expect p{p}.{i} empty" if cell is None else f"expect p{p}.{i} is {cell['species']}")
    return lines


def state_expectations(ref: dict, eng: dict) -> list[str]:
    """DSL lines that hold on ``ref`` and fail on ``eng``, for every differing field the DSL can state."""
    lines = _slot_lines(ref, eng)
    get = eng.get
    if len(ref["deck"]) != len(get("deck") or []):
        lines.append(f"expect deck has {len(ref['deck'])} cards")
    elif ref["deck"] and _species(ref["deck"][0]) != _species((get("deck") or [None])[0]):
        lines.append(f"expect deck top is {_species(ref['deck'][0])}")
    if [_species(c) for c in ref["discard"]] != [_species(c) for c in get("discard") or []]:
        lines.append("expect discard is: " + " ".join(str(_species(c)) for c in ref["discard"]) if ref["discard"] else
                     "expect discard has 0 cards")  # the DSL names at least one species in a pile's list
    if len(ref["under"]) != len(get("under") or []):
        lines.append(f"expect under has {len(ref['under'])} cards")
    rp, ep = ref["pending"], get("pending") or {}
    who = rp["players"] if rp["kind"] == "window" else ([] if rp["player"] is None else [rp["player"]])
    theirs = ep.get("players") if ep.get("kind") == "window" else ([ep.get("player")] if ep.get("player") is not None
                                                                   else [])
    if rp["kind"] != ep.get("kind") or who != theirs:  # in order, as ``expect pending`` compares them
        lines.append(f"expect pending {rp['kind']}" + "".join(f" p{p}" for p in who))
    for key, word in (("scores", "score"), ("round_scores", "round score")):
        for p, value in (ref[key] or {}).items():
            if (get(key) or {}).get(p) != value:
                lines.append(f"expect {word} p{p} {value}")
    for key, word in (("first", "first player"), ("winner", "winner"), ("bao", "bao")):
        if ref[key] is not None and get(key) != ref[key]:
            lines.append(f"expect {word} p{ref[key]}")
    if get("shield") != ref["shield"]:
        lines.append(f"expect shield {ref['shield']}")
    if get("recycles") != ref["recycles"]:
        lines.append(f"expect recycles {ref['recycles']}")
    owed = ref["last_turns"]
    if owed != get("last_turns"):  # in order, as ``expect last turns`` compares them
        lines.append("expect no last turns" if owed is None else "expect last turns" + "".join(f" p{p}" for p in owed))
    if ref["final_phase"] and not get("final_phase"):
        lines.append("expect final phase")
    if ref["drawn"] and _species(get("drawn")) != _species(ref["drawn"]):
        lines.append(f"expect holds {_species(ref['drawn'])}")
    return lines


def state_problem(ref: dict, eng) -> Problem:
    """The engine's canonical state differs from the reference's after an action."""
    lines, shape = raw_line("state", ref, eng)
    return Problem("state", first_difference(ref, eng), state_expectations(ref, eng) + lines, shape)


def setup_problem(state: dict, back) -> Problem:
    """``setup(state)`` then ``state()`` does not give ``state`` back (the reference's does): stated from a raw setup
    of that state (``setup raw JSON``, the problem's start)."""
    lines, shape = raw_line("state", state, back)
    return Problem("setup", "setup(state()) does not give the state back: " + first_difference(state, back), lines,
                   shape)


def view_problem(player: int, ref: dict, eng) -> Problem:
    """A player's view differs from the reference's."""
    lines, shape = raw_line(f"view p{player}", ref, eng)
    return Problem("view", f"p{player}'s view: " + first_difference(ref, eng),
                   view_expectations(player, ref, eng) + lines, shape)


def view_expectations(player: int, ref: dict, eng: dict) -> list[str]:
    """``expect pV sees ...`` lines for the zone cells the two views show differently."""
    lines = []
    for p, zone in ref["zones"].items():
        other = (eng.get("zones") or {}).get(p) or []
        for i, cell in enumerate(zone, 1):
            if cell is None or (i <= len(other) and other[i - 1] == cell):
                continue
            seen = f"as {cell['species']}" if cell["species"] else "hidden"
            lines.append(f"expect p{player} sees p{p}.{i} {seen}")
    return lines


def event_key(event: dict) -> tuple:
    """What an ``expect event`` line can state of an event: its kind, player and clause."""
    return event.get("kind"), event.get("player"), event.get("clause")


def event_difference(ref: list[dict], eng: list) -> str | None:
    """Where an engine's events part from the reference's by the contract (``compared_event``, in order: every
    field but ``also`` and ``ruling``), or None when they agree."""
    parted = agreement.events(ref, eng)  # what must agree: one definition with the scenario runs
    return None if parted is None else parted.message


def events_problem(ref: list[dict], eng: list) -> Problem | None:
    """The engine's events of an action part from the reference's (``event_difference``), or None."""
    parted = event_difference(ref, eng)
    if parted is None:
        return None
    ours, theirs = compared_events(ref), compared_events([e if isinstance(e, dict) else {} for e in eng])
    at = next((i for i, (a, b) in enumerate(zip(ours, theirs, strict=False)) if a != b), min(len(ours), len(theirs)))
    differing = ref[at] if at < len(ref) else eng[at]
    exact = "expect events are " + json_text([dict(e) for e in ours])
    return Problem("events", parted, [*event_expectations(ref, eng), exact],
                   str(differing.get("kind") if isinstance(differing, dict) else "not an event"))


def event_expectations(ref: list[dict], eng: list[dict]) -> list[str]:
    """``expect event`` / ``expect no event`` lines for events one side has and the other lacks."""
    theirs, ours = Counter(event_key(e) for e in eng), Counter(event_key(e) for e in ref)
    lines = []
    for kind, player, clause in ours - theirs:
        lines.append(f"expect event {kind}" + ("" if player is None else f" for p{player}") + f" clause {clause}")
    for kind, player, _ in theirs - ours:
        if not any(k == kind and (player is None or p == player) for k, p, _ in ours):
            lines.append(f"expect no event {kind}" + ("" if player is None else f" for p{player}"))
    return lines


def placed_cards(state: dict) -> Counter:
    """Where the canonical state says each card is: zones, deck, piles, the box, the hand, a pending decision,
    the Shoebill's first card while a recycle interrupts its second draw."""
    cards = [c["card"] for zone in state["zones"].values() for c in zone if c is not None]
    cards += state["deck"] + state["discard"] + state["under"] + state.get("box", [])
    if state.get("drawn"):
        cards.append(state["drawn"])
    pending = state["pending"]
    if pending["kind"] not in CHANCE:
        data = pending.get("data") or {}
        cards += ([data["card"]] if isinstance(data.get("card"), str) else []) + list(data.get("cards") or [])
    cards += list((state.get("drawing") or {}).get("cards") or [])
    return Counter(cards)


def conservation(state: dict, catalog_cards: list[str]) -> list[Problem]:
    """Every card of the catalog in exactly one place."""
    have, want = placed_cards(state), Counter(catalog_cards)
    if have == want:
        return []
    missing, extra = sorted((want - have).elements()), sorted((have - want).elements())
    return [Problem("cards", f"cards missing {missing[:6]}, duplicated or unknown {extra[:6]}")]


def view_secrecy(state: dict, player: int, view: dict) -> list[Problem]:
    """A view shows every zone card the player has seen and hides the others; no unseen card is named in
    the drawn card or the pending decision either."""
    seen = state["seen"]
    problems = []
    for p, zone in state["zones"].items():
        shown = (view.get("zones") or {}).get(p) or []
        for i, cell in enumerate(zone, 1):
            if cell is None:
                continue
            got = shown[i - 1] if i <= len(shown) else None
            knows = player in seen.get(cell["card"], ())
            if knows and (not isinstance(got, dict) or got.get("card") != cell["card"]):
                problems.append(Problem("view", f"p{player}'s view hides p{p}.{i}, a card p{player} has seen"))
            elif not knows and isinstance(got, dict) and (got.get("card") or got.get("species")):
                problems.append(Problem("view", f"p{player}'s view shows p{p}.{i} ({got.get('species')}), "
                                                f"a card p{player} has not seen",
                                        [f"expect p{player} sees p{p}.{i} hidden"]))
    drawn = view.get("drawn")
    if isinstance(drawn, str) and player not in seen.get(drawn, ()):
        problems.append(Problem("view", f"p{player}'s view names the drawn card {drawn}, unseen by p{player}"))
    data = (view.get("pending") or {}).get("data") or {}
    named = [data.get("card")] + list(data.get("cards") or [])
    hidden = [c for c in named if isinstance(c, str) and c not in state["discard"] and player not in seen.get(c, ())]
    if hidden:
        problems.append(Problem("view", f"p{player}'s view of the pending decision names unseen cards {hidden[:3]}"))
    return problems
