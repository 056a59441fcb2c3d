"""The report's filters in a real browser: headless Chromium loads index.html with a filter in the address
(``#status=fail``), the DOM it dumps shows which rows the script hid; then a screenshot.

Skipped when no Chromium is installed (``apt-get install chromium`` on Debian)."""

from __future__ import annotations

import json
import os
import re
import shutil
import struct
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from baobei_conform.report import build_report, collect

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def browser() -> str:
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    if os.environ.get("CI"):  # .ci/run installs Chromium: in CI a missing browser is a failure, not a skip
        pytest.fail(f"CI has no headless browser on PATH (looked for {', '.join(BROWSERS)})")
    pytest.skip(f"no headless browser on PATH (looked for {', '.join(BROWSERS)}); "
                "install one, e.g. `apt-get install -y chromium`, to run the report's filters in a browser")


def run_browser(exe: str, profile: Path, url: str, *extra: str) -> subprocess.CompletedProcess:
    argv = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
            "--hide-scrollbars", f"--user-data-dir={profile}", "--virtual-time-budget=3000", *extra, url]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done


class Dom(HTMLParser):
    """Filterable rows of the dumped DOM: their data-* attributes and whether the script hid them."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[dict] = []
        self.counts: dict[str, str] = {}
        self._count: str | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "data-filter-row" in attrs:
            self.rows.append({**attrs, "hidden": "hidden" in attrs})
        self._count = attrs.get("data-filter-count") if tag == "output" else None

    def handle_data(self, data):
        if self._count and data.strip():
            self.counts.setdefault(self._count, data.strip())


def dump(exe: str, profile: Path, url: str) -> Dom:
    dom = Dom()
    dom.feed(run_browser(exe, profile, url, "--dump-dom").stdout)
    assert dom.rows, "the dumped DOM has no filterable rows"
    return dom


@pytest.fixture(scope="module")
def one_failure(tmp_path_factory):
    """A report where exactly one scenario failed: the reference's results with one status changed."""
    exe = browser()
    tmp = tmp_path_factory.mktemp("browser")
    report = collect(scenarios_dir=SCENARIOS)
    from baobei_conform.report.model import run_reference  # the same runner the report uses in process

    scenarios = [s.scenario for s in report.scenarios if s.scenario is not None]
    document = run_reference(scenarios)
    failed = next(r for r in document["results"] if r["part"] == "3")
    failed.update(status="fail", message="expect top", expected="top is swallow", actual="top is eagle", line=12)
    results = tmp / "one-failure.json"
    results.write_text(json.dumps(document), encoding="utf-8")
    index = build_report(tmp / "report", [results], scenarios_dir=SCENARIOS)
    return exe, tmp, index, failed


def test_hash_filter_shows_only_the_failed_scenario(one_failure):
    exe, tmp, index, failed = one_failure
    dom = dump(exe, tmp / "profile", index.as_uri() + "#status=fail")
    scenarios = [r for r in dom.rows if "data-scenario" in r]
    assert len(scenarios) > 100
    assert [r["data-scenario"] for r in scenarios if not r["hidden"]] == [failed["id"]]
    clauses = [r for r in dom.rows if "data-clause" in r]
    visible = {r["data-clause"] for r in clauses if not r["hidden"]}
    assert visible == set(failed["clauses"]) | set(failed["faq"])  # the clauses the failed scenario cites
    assert dom.counts["scenarios"] == f"1 of {len(scenarios)} shown"


def test_hash_filter_by_part_and_text(one_failure):
    exe, tmp, index, failed = one_failure
    dom = dump(exe, tmp / "profile", index.as_uri() + "#part=B")
    shown = [r for r in dom.rows if "data-scenario" in r and not r["hidden"]]
    assert shown and all(r["data-part"] == "B" for r in shown)
    assert all(r["hidden"] for r in dom.rows if "data-scenario" in r and r["data-part"] != "B")

    dom = dump(exe, tmp / "profile", index.as_uri() + "#text=pelican%20family&engine=baobei-ref&status=pass")
    shown = [r for r in dom.rows if "data-scenario" in r and not r["hidden"]]
    assert shown and all("pelican" in r["data-text"] and "family" in r["data-text"] for r in shown)
    assert failed["id"] not in {r["data-scenario"] for r in shown}

    dom = dump(exe, tmp / "profile", index.as_uri() + "#flag=unexercised")
    shown = [r for r in dom.rows if "data-clause" in r and not r["hidden"]]
    assert shown and all("unexercised" in r["data-flags"].split() for r in shown)


def test_screenshot(one_failure):
    """The overview (117 of 118 passed) and the clause tree filtered down to the failed scenario's clauses."""
    exe, tmp, index, failed = one_failure
    for page in ("index.html", "clauses.html"):
        png = tmp / f"{page}.png"
        url = index.with_name(page).as_uri() + "#status=fail"
        run_browser(exe, tmp / "profile", url, f"--screenshot={png}", "--window-size=1280,900")
        data = png.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        assert struct.unpack(">II", data[16:24]) == (1280, 900)
        assert len(data) > 20_000, f"{png}: a blank page compresses to a few kilobytes"
        print(f"\nscreenshot: {png} ({len(data)} bytes)")


CONTRAST_PAGE = """<!doctype html><html><head><meta charset="utf-8">
<link rel="stylesheet" href="static/report.css"></head><body>
<p>{badges}</p><pre id="out"></pre>
<script>
function lum(rgb) {{
  return rgb.match(/[0-9.]+/g).slice(0, 3).map(Number).map(function (c) {{
    c /= 255; return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
  }}).reduce(function (sum, c, i) {{ return sum + c * [0.2126, 0.7152, 0.0722][i]; }}, 0);
}}
var out = {{}};
document.querySelectorAll(".st").forEach(function (el) {{
  var style = getComputedStyle(el), a = lum(style.color), b = lum(style.backgroundColor);
  out[el.className] = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}});
document.getElementById("out").textContent = JSON.stringify(out);
</script></body></html>"""


class Pre(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.inside, self.text = False, ""

    def handle_starttag(self, tag, attrs):
        self.inside = dict(attrs).get("id") == "out"

    def handle_data(self, data):
        if self.inside:
            self.text += data


def test_every_status_badge_has_aa_contrast(one_failure):
    """White text on each status colour, as Chromium computes it from report.css: at least 4.5:1 (WCAG AA)."""
    from baobei_conform.report.model import ALL_STATUSES

    exe, tmp, index, _ = one_failure
    page = index.with_name("contrast.html")
    badges = "".join(f'<span class="st st-{st}">{st}</span>' for st in (*ALL_STATUSES, "none"))
    page.write_text(CONTRAST_PAGE.format(badges=badges), encoding="utf-8")
    pre = Pre()
    pre.feed(run_browser(exe, tmp / "profile", page.as_uri(), "--dump-dom").stdout)
    ratios = json.loads(pre.text)
    assert set(ratios) == {f"st st-{st}" for st in (*ALL_STATUSES, "none")}
    low = {k: round(v, 2) for k, v in ratios.items() if v < 4.5}
    assert not low, f"badges below 4.5:1: {low}"


ANCHOR_PROBE = """<script>
window.addEventListener("load", function () {
  setTimeout(function () {
    var target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
    var bar = document.querySelector(".filterbar");
    var out = document.createElement("pre");
    out.id = "out";
    out.textContent = JSON.stringify({target: target.getBoundingClientRect().top,
                                      bar: bar.getBoundingClientRect().bottom, scrolled: window.scrollY});
    document.body.appendChild(out);
  }, 300);
});
</script></body>"""


def test_an_anchor_lands_below_the_sticky_filter_bar(one_failure):
    """A link to a clause scrolls it into view below the filter bar, not under it."""
    exe, tmp, index, _ = one_failure
    page = index.with_name("clauses-probe.html")
    page.write_text(index.with_name("clauses.html").read_text(encoding="utf-8").replace("</body>", ANCHOR_PROBE),
                    encoding="utf-8")
    pre = Pre()
    pre.feed(run_browser(exe, tmp / "profile", page.as_uri() + "#clause-5.2.4", "--dump-dom",
                         "--window-size=1280,900").stdout)
    where = json.loads(pre.text)
    assert where["scrolled"] > 0, where  # the page did scroll to the clause
    assert where["bar"] <= where["target"] < where["bar"] + 40, where


OPEN_ALL = """<script>document.querySelectorAll("details").forEach(function (d) { d.open = true; });</script></body>"""


@pytest.fixture(scope="module")
def tables_report(tmp_path_factory):
    """The tiny suite of the pictures (tests/report/tables.py) on the reference and on an engine that gives no gifts."""
    import sys

    from tables import ROOT as REPO
    from tables import tiny_suite

    from baobei_conform.cli.main import main

    exe = browser()
    tmp = tmp_path_factory.mktemp("tables-browser")
    suite = tiny_suite(tmp / "scenarios")
    wrong = [sys.executable, str(REPO / "examples" / "wrong_engine" / "engine.py"), "--bug", "no_gift"]
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(tmp)
        assert main(["-q", "--no-report", "--scenarios", str(suite), "--json", str(tmp / "ref.json")]) == 0
        assert main(["-q", "--no-report", "--scenarios", str(suite), "--json", str(tmp / "wrong.json"), "--",
                     *wrong]) == 1
    index = build_report(tmp / "report", [tmp / "ref.json", tmp / "wrong.json"], scenarios_dir=suite)
    return exe, tmp, index.parent


class Resources(HTMLParser):
    """Every address the page loads or links to."""

    def __init__(self) -> None:
        super().__init__()
        self.addresses: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.addresses += [value for name, value in attrs if name in ("src", "href", "srcset", "data") and value]


def test_the_pictures_of_the_table_in_a_browser(tables_report):
    """A scenario page with a setup, a power, a pluck with a gift and a BAO, and a failing engine's page: as
    Chromium builds them, a picture per action with a row per player and an element per slot, the changed and the
    differing slots marked, nothing loaded from outside; then screenshots of both, every step unfolded."""
    from tables import DOUBLE, figures, marked

    exe, tmp, out = tables_report
    pages = {"combined": out / "scenarios" / "tables-power-pluck-gift-bao.html",
             "failing": out / "scenarios" / f"{DOUBLE}.html"}
    dom = {name: run_browser(exe, tmp / "profile", path.as_uri(), "--dump-dom").stdout for name, path in pages.items()}

    steps = dom["combined"][dom["combined"].index('id="table"'):]  # the page's table, step by step
    combined = [f for f in figures(steps) if not f["view"]]
    assert len(combined) == 6 and all(sorted(f["rows"]) == [0, 1, 2] for f in combined)
    assert [len(combined[-1]["rows"][p]) for p in range(3)] == [4, 4, 5]  # an element per slot, the added one too
    assert [marked(f, "chg") for f in combined[2:5]] == [{(1, 1)}, {(0, 2), (1, 1)}, {(2, 5)}]  # pluck, gift, power
    assert {"bao", "shield"} <= {fact for fact, _ in combined[5]["marked"]}

    failing = figures(dom["failing"])
    engine, reference = failing[0], failing[1]  # the failure section comes first on the page
    assert (engine["name"], reference["name"]) == ("engine", "reference")
    assert marked(engine, "dif") == marked(reference, "dif") == {(1, 2), (2, 1)}  # the highlighted difference

    for name, html in dom.items():
        resources = Resources()
        resources.feed(html)
        assert resources.addresses, name
        outside = [a for a in resources.addresses if re.match(r"([a-z][a-z0-9+.-]*:|//)", a, re.I)
                   and not a.startswith("#")]
        assert not outside, (name, outside)  # every address is a file of the report itself

    for name, path in pages.items():
        probe = path.with_name(f"{path.stem}-open.html")
        probe.write_text(path.read_text(encoding="utf-8").replace("</body>", OPEN_ALL), encoding="utf-8")
        png = tmp / f"tables-{name}.png"
        run_browser(exe, tmp / "profile", probe.as_uri(), f"--screenshot={png}", "--window-size=1280,2400")
        data = png.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", data[16:24]) == (1280, 2400)
        assert len(data) > 60_000, f"{png}: a page without its pictures compresses to far less"
        print(f"\nscreenshot: {png} ({len(data)} bytes)")
