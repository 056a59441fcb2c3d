"""The pictures of a scenario page: the table at the setup and after each action, as the reference plays the
scenario, the slots it changed marked, its events and the checks after it beside it; and for
an engine failing at a step, its table beside the reference's there, what differs marked.

The reference's walk is the one the report's model made to learn which clauses it exercises (``Exercise``).
The engine's table is the state the results document keeps for a failure at an ``expect`` step or an agreement
difference (``state``); for other failures (a refusal, an engine error) only the reference's table is shown.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from markupsafe import Markup

from baobei_conform.runner.explain import event_text
from baobei_conform.runner.walk import Walked
from baobei_conform.suite.scenario import Scenario
from baobei_conform.table import DIFFERS, Faces, compare, layout
from baobei_conform.table.picture import Painter
from baobei_conform.table.steps import StepTables
from baobei_spec import Spec

FAILED = ("fail", "error", "xfail", "xpass")


@dataclass
class Shown:
    """One action of the scenario with the checks after it, as its page shows it."""

    line: int
    text: str  # its line of the script
    picture: Markup
    events: list[str] = field(default_factory=list)
    checks: list[tuple[int, str]] = field(default_factory=list)  # (file line, script line) of the checks after it
    views: list[Markup] = field(default_factory=list)
    failing: list[str] = field(default_factory=list)  # engines failing at one of its lines

    @property
    def lines(self) -> list[int]:
        return [self.line, *(line for line, _ in self.checks)]


@dataclass
class Positions:
    shown: list[Shown]
    states: dict[int, dict]  # file line -> the reference's state after that step
    faces: dict[int, Faces]  # file line -> the faces of the catalog in force there
    stopped: str = ""  # the reference does not go through the scenario: where it stopped


def positions(scenario: Scenario, walked: list[Walked], stopped: str, spec: Spec, painter: Painter,
              failing: dict[int, list[str]], catalog: Faces | None = None) -> Positions:
    """Draw the table after every action of the reference's walk through the scenario (``Exercise.walked``).
    ``catalog``: the spec's faces (made once for the whole report; a setup overriding values gets its own)."""
    script = scenario.script.split("\n")
    out = Positions([], {}, {}, stopped)
    tables = StepTables(spec, scenario.deck_named, catalog)

    def source(step: dict) -> str:
        line = step.get("line")
        return script[line - 1].strip() if isinstance(line, int) and 0 < line <= len(script) else step["op"]

    for w in walked:
        step, line = w.step, scenario.file_line(w.step["line"])
        if w.state is not None:
            out.states[line] = w.state
        if not w.action:
            out.faces[line] = tables.faces
            if out.shown:
                out.shown[-1].checks.append((line, source(step)))
                out.shown[-1].failing += failing.get(line, [])
            continue
        table = tables.after(step, w.state)
        out.faces[line] = tables.faces
        picture = painter.table(table) if table else Markup('<p class="muted">no table here</p>')
        views = [painter.table(tables.draw(view), f"what p{p} sees", f"p{p}'s view")
                 for p, view in sorted(w.views.items())]
        out.shown.append(Shown(line, source(step), picture, [event_text(e) for e in w.events], [], views,
                               list(failing.get(line, []))))
    return out


def failure_pair(result: dict, found: Positions, painter: Painter) -> Markup | None:
    """The engine's table and the reference's at the failing step, side by side, the differences marked; the
    reference's alone when the results keep no state of the engine there. None: no step of the walk is there."""
    line = result.get("line")
    if not isinstance(line, int) or line not in found.states:
        return None
    reference, faces = found.states[line], found.faces[line]
    ours = layout(reference, faces)
    engine = result.get("state")
    if not isinstance(engine, dict):
        return Markup('<div class="pair">') + painter.table(ours, f"the reference's table after line {line}",
                                                            "reference") + Markup(
            '<p class="muted">The results keep the engine\'s state only for a failure at an <code>expect</code> '
            'step or an agreement difference.</p></div>')
    theirs = layout(engine, faces)
    count = compare(ours, theirs, DIFFERS, both=True)
    return (Markup('<div class="pair">')
            + painter.table(theirs, f"the engine's table at line {line} ({count} differences marked !)", "engine")
            + painter.table(ours, f"the reference's table after line {line}", "reference") + Markup("</div>"))
