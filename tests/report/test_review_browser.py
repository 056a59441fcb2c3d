"""The review packet in a real browser: headless Chromium opens a ruling's page with every network request refused,
the DOM it builds holds the witness tables and the three languages, and a screenshot of it (and of the page as
printed to PDF) is not blank. Skipped without Chromium, as tests/report/test_browser.py is (a failure in CI)."""

from __future__ import annotations

import struct

import pytest
from test_browser import browser, run_browser  # tests/report/ is on the path (pytest's rootdir-less import mode)

from baobei_conform.cli.main import main

NO_NETWORK = "--host-resolver-rules=MAP * ~NOTFOUND"  # any fetch from elsewhere fails: the page must not need one


@pytest.fixture(scope="module")
def packet(tmp_path_factory):
    exe = browser()
    tmp = tmp_path_factory.mktemp("review")
    out = tmp / "packet"
    assert main(["rulings", "--games", "0", "--review", str(out)]) == 0
    return exe, tmp, out


def test_review_page_renders_offline(packet):
    exe, tmp, out = packet
    dom = run_browser(exe, tmp / "profile", (out / "R-05.html").as_uri(), NO_NETWORK, "--dump-dom").stdout
    assert dom.count('data-witness="verified"') == 3
    assert dom.count('data-table="') >= 9  # before the diverging step and after it under each reading, three times
    assert 'lang="es"' in dom and 'lang="nl"' in dom and "English (the spec's rule)" in dom


def test_review_page_screenshot_and_print(packet):
    """R-30's page whole: its lines, both readings, the witness's three tables side by side, the ruling."""
    exe, tmp, out = packet
    png = tmp / "R-30.png"
    run_browser(exe, tmp / "profile", (out / "R-30.html").as_uri(), NO_NETWORK, f"--screenshot={png}",
                "--window-size=1280,3000")
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", data[16:24]) == (1280, 3000)
    assert len(data) > 60_000, f"{png}: a blank page compresses to a few kilobytes"
    pdf = tmp / "R-05.pdf"
    run_browser(exe, tmp / "profile", (out / "R-05.html").as_uri(), NO_NETWORK, f"--print-to-pdf={pdf}",
                "--no-pdf-header-footer")
    assert pdf.read_bytes()[:5] == b"%PDF-" and pdf.stat().st_size > 20_000
    print(f"\nscreenshot: {png} ({len(data)} bytes); printed: {pdf} ({pdf.stat().st_size} bytes)")
