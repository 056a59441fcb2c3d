"""The table in the terminal (conformance/table/text.py): ``explain --table`` pinned by a golden, fitted to the
width, in colour only on a terminal without ``NO_COLOR``; two tables side by side or stacked; a run's
``--show-table``."""

from __future__ import annotations

import difflib
import io
import re
import sys
from pathlib import Path

import pytest
from _positions import setup_state

from baobei_conform.cli.main import main
from baobei_conform.table import DIFFERS, compare, layout, text
from baobei_conform.table.text import ANSI, Screen, visible, wants_colour

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).with_name("explain_table.txt")
SCENARIO = "scenarios/4-bao/bao-call-after-taking-discard-and-window.yaml"
WRONG = [sys.executable, str(ROOT / "examples" / "wrong_engine" / "engine.py")]


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def explain(capsys, monkeypatch, *args: str, width: int = 100, code: int = 0) -> str:
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("COLUMNS", str(width))
    assert main(["explain", *args]) == code
    return capsys.readouterr().out


def test_explain_table_prints_the_table_after_every_action_as_the_golden_says(capsys, monkeypatch):
    """The golden is the command's whole output; after a deliberate change, regenerate it from the repository root:
    ``COLUMNS=100 NO_COLOR=1 baobei-conform explain SCENARIO --table > tests/table/explain_table.txt``."""
    monkeypatch.setenv("NO_COLOR", "1")
    out = explain(capsys, monkeypatch, SCENARIO, "--table")
    golden = GOLDEN.read_text(encoding="utf-8")
    assert out == golden, "".join(difflib.unified_diff(golden.splitlines(True), out.splitlines(True), "golden", "now"))
    # what the golden holds: a table after the setup and after each of the four actions, nowhere else
    assert out.count("\n    pending  ") == 5
    assert re.search(r"\n    p1 +EAG12/1 +FLA11/1 +\.\.\* +HUM1 +score 0\n", out)  # p2 plucked p1.3: a hole, changed
    assert re.search(r"\n    p1 +EAG12/1 +FLA11/1 +HUM1\* +HUM1 ", out)  # p2 gave its slot 4 into it, unseen
    assert "BAO called by p0*   shield armed*   last turns p2*" in out
    for block in out.split("\n\n"):
        if block.startswith("    pending  "):  # the tables fit the width
            assert max(len(line) for line in block.splitlines()) <= 100, block


def test_no_colour_without_a_terminal_or_with_no_color(capsys, monkeypatch):
    out = explain(capsys, monkeypatch, SCENARIO, "--table")
    assert "\033" not in out  # captured output is no terminal
    assert not wants_colour(io.StringIO()) and wants_colour(Terminal())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not wants_colour(Terminal())
    monkeypatch.delenv("NO_COLOR")
    lines = text.render(marked_pair()[1], 100, colour=True)
    assert any("\033[1;31m" in line for line in lines)  # differences in red on a terminal ...
    plain = text.render(marked_pair()[1], 100, colour=False)
    assert [ANSI.sub("", line) for line in lines] == plain  # ... and the same text without it


def test_no_color_output_on_a_terminal_has_no_escape_codes(monkeypatch):
    """explain --table writing to a terminal: in colour, unless NO_COLOR is set; the text is the same either way."""
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("COLUMNS", "100")
    outputs = {}
    for no_color in ("", "1"):
        monkeypatch.setenv("NO_COLOR", no_color)
        terminal = Terminal()
        monkeypatch.setattr(sys, "stdout", terminal)
        assert main(["explain", SCENARIO, "--table"]) == 0
        outputs[no_color] = terminal.getvalue()
    assert "\033[" in outputs[""] and "\033" not in outputs["1"]
    assert ANSI.sub("", outputs[""]) == outputs["1"] == GOLDEN.read_text(encoding="utf-8")


def marked_pair():
    state = setup_state({"zones": {0: ["owl", "heron", "swallow"], 1: ["eagle", None, "owl"]}})
    other = setup_state({"zones": {0: ["owl", "heron", "swallow"], 1: ["eagle", "heron", "owl"]}})
    a, b = layout(state), layout(other)
    compare(a, b, DIFFERS, both=True)
    return a, b


@pytest.mark.parametrize("width", [40, 60, 100])
def test_a_table_fits_the_width_it_is_given(width):
    zones = {p: ["owl", "heron", "swallow", "kingfisher", "eagle", "flamingo"] for p in range(2)}
    zones.update({p: ["sparrow", None, "hummingbird", "macaw"] for p in range(2, 6)})
    table = layout(setup_state({"zones": zones, "discard": ["eagle"], "bao": 3, "active": 4}))
    lines = text.render(table, width)
    assert max(visible(line) for line in lines) <= width
    slots = " ".join(lines)
    for code in ("OWL5", "FLA11", "SPA2", "MAC10"):  # cut into column groups, nothing dropped
        assert code in slots
    assert sum(line.startswith("p5") for line in lines) == (1 if width >= 60 else 2)


def test_two_tables_go_side_by_side_when_they_fit_and_one_above_the_other_when_not():
    a, b = marked_pair()
    wide = text.beside([("engine", text.render(b, 60)), ("reference", text.render(a, 60))], 200)
    assert wide[0].startswith("engine") and "reference" in wide[0]
    narrow = text.beside([("engine", text.render(b, 60)), ("reference", text.render(a, 60))], 70)
    assert narrow[0] == "engine" and "reference" in narrow and len(narrow) > len(wide)
    assert any("HER6!" in line for line in wide) and any("..!" in line for line in wide)


def test_explain_with_an_engine_draws_both_tables_and_marks_what_differs(capsys, monkeypatch):
    out = explain(capsys, monkeypatch, "scenarios/3-pluck/pluck-double-own-and-rival-gift-is-the-non-target.yaml",
                  "--table", "--", *WRONG, "--bug", "no_gift", width=160, code=1)
    assert "engine STOPPED here: expect slot (expected flamingo, actual empty)" in out
    tables = out[out.index("engine STOPPED here"):]
    assert re.search(r"reference +engine", tables)
    assert re.search(r"p2  FLA11! .* p2  \.\.! ", tables)  # the gift went to p2.1 on the reference, not on the engine


def test_explain_view_draws_what_one_player_sees(capsys, monkeypatch):
    out = explain(capsys, monkeypatch, "scenarios/3-pluck/pluck-offensive-gift-given-unseen.yaml", "--view", "1")
    assert "tables: what p1 sees after every action" in out
    first = out[out.index(":7  setup"):out.index(":18 ")]
    own = first.split("\n    p1 ", 1)[1].split("\n")[0]
    # p1 looked at its slots 1 and 2 in the initial peek (line 16) and at nothing else: a rival's cards are backs
    assert own.split()[:4] == ["OWL5", "SWA3", "??", "??"]
    assert first.split("\n    p0 ", 1)[1].split("\n")[0].split()[:4] == ["??"] * 4
    assert "viewer" in first


def test_a_run_shows_the_tables_at_each_failing_step_with_show_table(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("COLUMNS", "130")
    code = main(["--no-report", "--show-table", "-k", "pluck-double-own-and-rival-gift-is-the-non-target",
                 "-k", "bao-call-refused-while-gift-pending", "--", *WRONG, "--bug", "no_gift"])
    assert code == 1
    out = capsys.readouterr().out
    assert out.count("the tables at line") == 2
    assert "  the tables at line 20 (2 differences marked !):" in out
    assert re.search(r"pending  end_turn: p0 answers! +pending  gift: p0 answers, into p1\.1!", out)
    assert main(["--no-report", "-k", "bao-call-refused-while-gift-pending", "--", *WRONG, "--bug", "no_gift"]) == 1
    assert "the tables at line" not in capsys.readouterr().out  # only when asked


def test_the_screen_is_the_terminals_width(monkeypatch):
    monkeypatch.setenv("COLUMNS", "77")
    assert Screen.of(io.StringIO()) == Screen(77, False)
    monkeypatch.setenv("COLUMNS", "10")
    assert Screen.of(Terminal()).width == 40  # never narrower than a table can be read
