"""The report's pictures of the table: every scenario page draws the setup and the table after each action with
what it changed marked; a failing engine's page draws its table beside the reference's at the failing step, what
differs marked; the views a scenario checks; fuzz reproducers; and it all stays off the overview."""

from __future__ import annotations

import json
import sys

import pytest
from tables import DOUBLE, ROOT, figures, marked, tiny_suite

from baobei_conform.cli.main import main
from baobei_conform.report import build_report

WRONG = [sys.executable, str(ROOT / "examples" / "wrong_engine" / "engine.py"), "--bug", "no_gift"]


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    """The tiny suite's report on the reference alone, and on a wrong engine (no gifts) beside the reference."""
    tmp = tmp_path_factory.mktemp("tables")
    suite = tiny_suite(tmp / "scenarios")
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(tmp)
        assert main(["-q", "--no-report", "--scenarios", str(suite), "--json", str(tmp / "ref.json")]) == 0
        assert main(["-q", "--no-report", "--scenarios", str(suite), "--json", str(tmp / "wrong.json"), "--",
                     *WRONG]) == 1
    alone = build_report(tmp / "alone", scenarios_dir=suite)
    both = build_report(tmp / "both", [tmp / "ref.json", tmp / "wrong.json"], scenarios_dir=suite)
    return tmp, alone.parent, both.parent


def page(folder, sid: str) -> str:
    return (folder / "scenarios" / f"{sid}.html").read_text(encoding="utf-8")


def test_a_scenario_page_draws_the_setup_and_the_table_after_every_action(reports):
    _, alone, _ = reports
    html = page(alone, "tables-power-pluck-gift-bao")
    pictures = [f for f in figures(html) if not f["view"]]
    assert len(pictures) == 6  # the setup, the draw, the pluck, the gift, the Toco Toucan's card, BAO
    assert html.count('<details id="T') == 6 and '<details id="T6" open>' in html  # the setup open, the rest folded
    for figure in pictures:
        assert sorted(figure["rows"]) == [0, 1, 2]  # a row per player
    setup, draw, pluck, gift, toco, bao = pictures
    assert [len(setup["rows"][p]) for p in range(3)] == [4, 4, 4]
    assert [len(toco["rows"][p]) for p in range(3)] == [4, 4, 5]  # the Toco Toucan's card in a new slot of p2
    assert not marked(setup, "chg") and not marked(draw, "chg")  # a draw changes no slot (the held card does)
    assert marked(pluck, "chg") == {(1, 1)}  # the Golden Toucan plucked: a hole
    assert marked(gift, "chg") == {(0, 2), (1, 1)}  # p0's card given into it
    assert marked(toco, "chg") == {(2, 5)}
    assert not marked(bao, "chg") and {"bao", "shield", "last_turns"} <= {f for f, _ in bao["marked"]}
    assert "pluck [3.1.5] player=0, targets=[[1, 1]]" in html and "power [6.10.3] player=0, card=toco_toucan-1" in html
    assert html.count('class="c ho chg"') == 2  # the holes left by the pluck and by the gift, each changed once


def test_a_failing_engine_is_drawn_beside_the_reference_at_the_failing_step(reports):
    tmp, _, both = reports
    result = next(r for r in json.loads((tmp / "wrong.json").read_text(encoding="utf-8"))["results"]
                  if r["id"] == DOUBLE)
    assert result["status"] == "fail" and result["line"] == 20 and result["state"]["zones"]["2"][0] is None
    html = page(both, DOUBLE)
    section = html[html.index('<section class="failure'):html.index("</section>")]
    engine, reference = (f for f in figures(section))
    assert (engine["name"], reference["name"]) == ("engine", "reference")
    assert marked(engine, "dif") == marked(reference, "dif") == {(1, 2), (2, 1)}  # the gift kept, the slot empty
    assert "2 differences marked !" in section
    assert '<details id="T18" open class="failing">' in html  # the pluck the failing check follows: open


def test_the_views_a_scenario_checks_are_drawn_as_that_player_sees_them(tmp_path):
    suite = tmp_path / "scenarios" / "3-pluck"
    suite.mkdir(parents=True)
    sid = "pluck-offensive-gift-given-unseen"
    (suite / f"{sid}.yaml").write_bytes((ROOT / "scenarios" / "3-pluck" / f"{sid}.yaml").read_bytes())
    html = page(build_report(tmp_path / "r", scenarios_dir=tmp_path / "scenarios").parent, sid)
    views = [f for f in figures(html) if f["view"]]
    assert [v["name"] for v in views] == ["p0's view", "p1's view", "p2's view"]  # the three `sees` checks
    for view in views:
        p2 = view["rows"][2]
        assert "bk" in dict(p2)[2]  # the given card: a back to every player (given unseen, 3.4.4)


def test_the_pictures_stay_off_the_overview(reports):
    _, alone, _ = reports
    index = (alone / "index.html").read_text(encoding="utf-8")
    assert 'class="tb' not in index and "tb-legend" not in index
    assert "tb-legend" in page(alone, DOUBLE)  # the legend is on each scenario page


def test_an_engines_state_is_drawn_as_text_whatever_it_holds(reports, tmp_path):
    """The state comes from the engine: markup in its species, players and facts is shown escaped, and a state of
    the wrong shape is said to be one, beside the reference's table."""
    tmp, _, _ = reports
    document = json.loads((tmp / "wrong.json").read_text(encoding="utf-8"))
    result = next(r for r in document["results"] if r["id"] == DOUBLE)
    result["state"]["zones"]["1"][1] = {"card": "<img src=x onerror=alert(1)>-1", "species": "<script>alert(2)"}
    result["state"]["pending"] = {"kind": "</figure><script>alert(3)</script>", "player": "<b>", "data": []}
    result["state"]["shield"] = '"><svg onload=alert(4)>'
    odd = next(r for r in document["results"] if r["id"] != DOUBLE)
    odd.update(status="fail", line=18, state={"zones": "not zones", "players": [0, "x"]})  # its `expect shield`
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    out = build_report(tmp_path / "r", [path], scenarios_dir=tmp / "scenarios").parent
    html = page(out, DOUBLE)
    for bit in ("<script>alert", "<img src", "<svg", "</figure><script"):
        assert bit not in html
    engine = figures(html[html.index('<section class="failure'):])[0]
    assert any("dif" in classes for _, classes in engine["rows"][1])
    assert "&lt;/figure&gt;&lt;script&gt;alert(3)&lt;/script&gt;" in html  # shown, as text
    assert "?&lt;SC" in html  # the unknown species' code
    other = page(out, odd["id"])
    engine = figures(other[other.index('<section class="failure'):])[0]
    assert engine["name"] == "engine" and engine["rows"] == {0: []} and "no slots" in other
