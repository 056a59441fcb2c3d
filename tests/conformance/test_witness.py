"""Witness games (conformance/fuzz/witness.py): for each switch reading a scenario that passes under its own reading and
fails under the other, in `baobei-conform rulings`, its JSON, its terminal review, and the review packet."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

from baobei_conform.cli.main import main
from baobei_conform.cli.rulings import BUDGET, render
from baobei_conform.engines.reference import ReferenceEngine
from baobei_conform.fuzz.witness import find_witness, key, load_text, read_cache, still_holds
from baobei_conform.runner.run import run_scenario
from baobei_spec import default_spec

ROOT = Path(__file__).resolve().parents[2]
SWITCH_READINGS = [(r, x.id) for r in default_spec().rulings.values() for x in r.readings if x.switch]


def declaring(declares: dict, plays: dict) -> ReferenceEngine:
    """The reference playing ``plays`` and declaring ``declares`` (so it runs those readings' steps)."""
    engine = ReferenceEngine(plays, declare=False)
    engine.readings = dict(declares)
    return engine


def test_the_witnesses_cover_most_switch_readings_and_each_tells_them_apart(review):
    """Acceptance: a witness for at least 80 % of the switch readings, each passing on an engine that follows its
    reading (either one) and failing on an engine that declares one reading and plays the other."""
    witnesses = {(r["id"], rd["id"]): rd["witness"] for r in review["rulings"] for rd in r["readings"]
                 if "witness" in rd}
    assert set(witnesses) == {(r.id, x) for r, x in SWITCH_READINGS}
    verified = {k: w for k, w in witnesses.items() if w.get("verified")}
    assert len(verified) >= 0.8 * len(SWITCH_READINGS), {k: w.get("note") for k, w in witnesses.items()}
    assert review["witnesses"] == {"switch_readings": len(SWITCH_READINGS), "verified": len(verified)}
    for (rid, reading), w in verified.items():
        adopted = default_spec().rulings[rid].adopted
        text = w["scenario"]["text"]
        assert f"under {rid} {adopted}\n" in text and f"under {rid} {reading}\n" in text, text
        scenario = load_text(w["scenario"]["id"], text)
        assert rid in scenario.rulings
        ours = {rid: reading}
        for follows in ({}, ours):  # passes under its own reading, the adopted one and the alternative alike
            outcome = run_scenario(scenario, declaring(follows, follows))
            assert outcome.status == "pass", (rid, reading, follows, outcome.message)
        for declares, plays in (({}, ours), (ours, {})):  # fails when the engine plays the other one
            outcome = run_scenario(scenario, declaring(declares, plays))
            assert outcome.status == "fail", (rid, reading, declares, plays)
        outcomes = w["step"]["outcomes"]
        assert [o["reading"] for o in outcomes] == [adopted, reading]
        assert outcomes[0]["lines"] != outcomes[1]["lines"]
        assert 1 <= w["step"]["number"] == w["actions"]


def test_the_terminal_review_draws_each_witness(review):
    text = render(review)
    assert f"witness games: {review['witnesses']['verified']} of {len(SWITCH_READINGS)} switch readings" in text
    r05 = text[text.index("R-05 ("):text.index("R-06 (")]
    assert "first diverging step: action" in r05
    assert "reading B (adopted) after it" in r05 and "reading A after it" in r05
    assert re.search(r"last turns p2 p0!", r05), "the differing fact is marked in reading A's table"


def test_a_search_with_a_small_budget_finds_and_verifies_a_witness(suite):
    """The search itself (not the cache): R-30 B from its citing scenarios and a few seeded games."""
    ruling = default_spec().rulings["R-30"]
    w = find_witness(ruling, "B", suite, {"max_examples": 10, "seconds": 20.0, "seed": 0})
    assert w["found"] and w["verified"], w.get("note")
    assert w["search"]["starts"] >= 1 and w["search"]["examples"] >= 1
    assert w["step"]["outcomes"][0]["lines"] != w["step"]["outcomes"][1]["lines"]


def test_no_witness_says_so_with_its_budget():
    """No citing scenario and no game searched: nothing found, and the note names the budget."""
    ruling = default_spec().rulings["R-05"]
    w = find_witness(ruling, "A", [], {"max_examples": 0, "seconds": 5.0, "seed": 3})
    assert w["found"] is False
    assert "0 examples or 5.0 s, seed 3" in w["note"]


def test_a_stale_cached_witness_is_not_trusted():
    """A cached witness is re-verified: with its readings' blocks swapped it fails, so it is searched again."""
    ruling = default_spec().rulings["R-05"]
    entry = read_cache()[key("R-05", "A")]
    assert still_holds(ruling, "A", entry) is not None
    text = entry["scenario"]["text"].replace("under R-05 A\n", "under R-05 X\n").replace(
        "under R-05 B\n", "under R-05 A\n").replace("under R-05 X\n", "under R-05 B\n")
    assert still_holds(ruling, "A", {**entry, "scenario": {**entry["scenario"], "text": text}}) is None


def test_cli_rulings_json_holds_the_witnesses(capsys):
    assert main(["rulings", "--games", "0", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    w = next(rd["witness"] for r in doc["rulings"] if r["id"] == "R-05" for rd in r["readings"] if rd["id"] == "A")
    assert w["verified"] and w["cached"]
    assert doc["budget"]["witness"] == BUDGET["witness"]


class Tags(HTMLParser):
    """Every tag and attribute of a page, to find what would be fetched."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def external(html: str) -> list[str]:
    """What a page would load from elsewhere: scripts, links, images, frames, remote addresses, CSS urls."""
    parser = Tags()
    parser.feed(html)
    found = [tag for tag, _ in parser.tags if tag in ("script", "link", "img", "iframe", "object", "embed")]
    found += [v for _, attrs in parser.tags for k, v in attrs.items()
              if k in ("src", "href", "action") and v and re.match(r"^(?:[a-z]+:|//)", v)]
    found += re.findall(r"url\(|@import", html)
    return found


def test_review_packet_pages_are_self_contained(tmp_path, capsys):
    out = tmp_path / "packet"
    assert main(["rulings", "--games", "0", "--review", str(out)]) == 0
    capsys.readouterr()
    pages = sorted(p.name for p in out.glob("R-*.html"))
    assert pages == sorted(f"{rid}.html" for rid in default_spec().rulings)
    r05 = (out / "R-05.html").read_text(encoding="utf-8")
    assert external(r05) == [] and external((out / "index.html").read_text(encoding="utf-8")) == []
    assert 'lang="es"' in r05 and 'lang="nl"' in r05 and "English" in r05
    spec = default_spec()
    assert spec.lines_es[288] in r05 or spec.lines_es[288].replace('"', "&#34;") in r05  # line 289, cited by A
    assert r05.count('data-witness="verified"') == 3  # A, C and D
    assert 'class="tb' in r05  # the diverging step drawn as tables
    assert "none known" in r05  # no results given: no engine is known to follow a reading
    witnesses = sorted(p.name for p in (out / "witnesses").glob("*.yaml"))
    assert len(witnesses) == len(SWITCH_READINGS)


def test_review_packet_names_engines_and_escapes_what_it_shows(tmp_path, capsys):
    """Engines from results documents (their declared readings), and text from a document escaped."""
    results = tmp_path / "results.json"
    assert main(["--scenarios", str(ROOT / "scenarios" / "7-deck"), "-k", "deck-final-phase-ends*", "--json",
                 str(results), "--no-report"]) == 0
    document = json.loads(results.read_text(encoding="utf-8"))
    document["engine"].update(name="<b>evil</b> engine", readings={"R-05": "A"})
    results.write_text(json.dumps(document), encoding="utf-8")
    out = tmp_path / "packet"
    assert main(["rulings", "--games", "0", "--review", str(out), "--results", str(results)]) == 0
    capsys.readouterr()
    r05 = (out / "R-05.html").read_text(encoding="utf-8")
    assert "<b>evil</b>" not in r05 and "&lt;b&gt;evil&lt;/b&gt; engine" in r05
    reading_a = r05[r05.index('id="reading-A"'):r05.index('id="reading-B"')]
    assert "&lt;b&gt;evil&lt;/b&gt; engine" in reading_a.split("Engines known to follow it:")[1][:200]


def test_review_packet_refuses_a_folder_it_did_not_write(tmp_path, capsys):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("keep me", encoding="utf-8")
    assert main(["rulings", "--games", "0", "--review", str(out)]) == 2
    assert "--review" in capsys.readouterr().err
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]
