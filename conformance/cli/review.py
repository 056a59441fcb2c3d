"""``baobei-conform rulings --review OUT``: the review packet, one self-contained page per ruling for a rules team.

Each page holds what a publisher needs to decide without running anything: the question, the rulebook lines
its readings cite in Spanish, Dutch and our English rule side by side, each reading with its supporting and
contradicting lines, the scenarios that pin it, the engines known to follow it (from results documents), and
the witness game drawn as tables. The pages are offline HTML (the report's stylesheet inlined, no script, no
image, no font fetched), printable, autoescaped (report/build.py's environment); the witness scenarios are
written beside them. OUT is replaced whole under the output-folder rule (outputs.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from baobei_conform.files.outputs import replace_dir
from baobei_conform.fuzz.witness import tables
from baobei_conform.report.build import STATIC, environment
from baobei_conform.report.model import ReportError, engine_run, load_results
from baobei_conform.suite.scenario import Scenario
from baobei_conform.table import Faces
from baobei_conform.table.picture import Painter, legend
from baobei_spec import Spec, default_spec

__all__ = ["ReportError", "engines_of", "write_packet"]


@dataclass(frozen=True)
class Engine:
    name: str
    readings: dict[str, str]  # declared in its hello: ruling -> reading (none: every adopted reading)


def engines_of(paths: list[str]) -> list[Engine]:
    """The engines of the given results documents, read as the report reads them (a bad file: ReportError)."""
    taken: set[str] = set()
    runs = [engine_run(load_results(p), str(p), taken) for p in paths]
    return [Engine(r.name, dict(r.readings)) for r in runs]


@dataclass(frozen=True)
class Line:
    number: int
    es: str
    nl: str
    en: list[tuple[str, str]]  # (clause id, our English rule) of the clauses written on this line


def lines_of(spec: Spec, numbers) -> list[Line]:
    """Rulebook lines (Spanish numbering; the Dutch text is line-aligned) with the clauses stated on them."""
    out = []
    for n in sorted(set(numbers)):
        if 1 <= n <= len(spec.lines_es):
            en = [(c.id, c.en) for c in spec.clauses.values() if c.line_es == n]
            out.append(Line(n, spec.lines_es[n - 1], spec.lines_nl[n - 1] if n <= len(spec.lines_nl) else "", en))
    return out


def pinned_by(scenarios: list[Scenario], ruling: str, reading: str, adopted: str) -> list[str]:
    """The scenarios that state this reading's outcome: an ``under`` block for it, or (the adopted reading) a
    citing scenario's steps that hold for every reading."""
    out = []
    for s in scenarios:
        if ruling not in s.rulings:
            continue
        blocks = [st["under"][1:] for st in s.steps if st.get("under") and st["under"][0] == ruling]
        if any(reading in b for b in blocks) or (reading == adopted and not blocks):
            out.append(s.id)
    return sorted(out)


def _page_data(r: dict, spec: Spec, scenarios: list[Scenario], engines: list[Engine], faces: Faces,
               painter: Painter) -> dict:
    ruling = spec.rulings[r["id"]]
    cited = {n for rd in r["readings"] for n in (*rd["supports"], *rd["contradicts"])}
    cited |= {spec.clauses[c].line_es for c in ruling.clauses if c in spec.clauses}
    readings = []
    for rd in r["readings"]:
        follow = [e.name for e in engines if e.readings.get(r["id"], ruling.adopted) == rd["id"]]
        w = rd.get("witness")
        pictures = [(title, painter.table(t, title, title)) for title, t in tables(w, faces)] \
            if w and w.get("found") else []
        readings.append({**rd, "engines": follow, "pinned": pinned_by(scenarios, r["id"], rd["id"], ruling.adopted),
                         "witness": w, "pictures": pictures, "lines_for": lines_of(spec, rd["supports"]),
                         "lines_against": lines_of(spec, rd["contradicts"])})
    return {"r": r, "ruling": ruling, "lines": lines_of(spec, cited), "readings": readings}


def write_packet(out: str | Path, doc: dict, scenarios: list[Scenario], engines: list[Engine]) -> Path:
    """Write the packet for the rulings document ``doc`` (rulings.impact) into ``out``; its index's path."""
    spec = default_spec()
    env = environment()
    css = (STATIC / "report.css").read_text(encoding="utf-8")
    faces, painter = Faces(spec), Painter()
    pages = [_page_data(r, spec, scenarios, engines, faces, painter) for r in doc["rulings"]]
    shared = {"css": css, "legend": legend(faces, painter), "engines": engines, "doc": doc}

    def build(fresh: Path) -> Path:
        (fresh / "witnesses").mkdir()
        for page in pages:
            html = env.get_template("review.html.j2").render(page=page, **shared)
            (fresh / f"{page['r']['id']}.html").write_text(html, encoding="utf-8")
            for rd in page["readings"]:
                w = rd["witness"]
                if w and w.get("found"):
                    (fresh / "witnesses" / f"{w['scenario']['id']}.yaml").write_text(w["scenario"]["text"],
                                                                                  encoding="utf-8")
        index = fresh / "index.html"
        index.write_text(env.get_template("review-index.html.j2").render(pages=pages, **shared), encoding="utf-8")
        return index

    return replace_dir(out, build, "baobei-conform rulings --review")
