"""The layout of a position (conformance/table/layout.py): what every picture of the table shows, read from a
canonical state or a view; what changed or differs, marked; any document an engine might send, drawn or refused
in words, never raised."""

from __future__ import annotations

import copy
import re

from _positions import setup_state
from hypothesis import given, settings
from hypothesis import strategies as st

from baobei_conform.engines.reference import ReferenceEngine
from baobei_conform.table import CHANGED, DIFFERS, Faces, compare, layout, picture, text
from baobei_conform.table.steps import StepTables
from baobei_spec import default_spec

ZONES = {0: ["owl", "heron", None, "kingfisher"], 1: ["eagle", "flamingo", "heron", "golden_toucan"]}


def state(**options) -> dict:
    return setup_state({"zones": ZONES, "discard": ["sparrow"], "deck": ["cuckoo", "macaw"], **options})


def slot_text(table, player: int) -> list[str]:
    row = next(r for r in table.rows if r.player == player)
    return [text.card_text(s.card) for s in row.slots]


def test_every_player_is_a_row_of_numbered_slots_with_the_heaps_and_the_facts():
    table = layout(state(known={0: [(0, 1), (1, 2)]}, bao=1, active=0))
    assert [r.player for r in table.rows] == [0, 1]
    assert [s.number for s in table.rows[0].slots] == [1, 2, 3, 4]
    assert slot_text(table, 0) == ["OWL5/0", "HER6", "..", "KIN4"]  # the empty slot is a hole, not a gap
    assert slot_text(table, 1) == ["EAG12", "FLA11/0", "HER6", "GTO-5"]
    assert table.rows[0].tags == ["active", "answers"] and "BAO" in table.rows[1].tags
    heaps = {h.key: h for h in table.heaps}
    assert heaps["discard"].count == 1 and heaps["discard"].cards[0].up and heaps["discard"].cards[0].face.code == "SPA"
    assert heaps["deck"].count == 66 - 7 - 1 and heaps["deck"].cards == []  # no deck card named: only counted
    assert heaps["held"].count == 0 and heaps["under"].count == 0
    facts = {f.key: f.text for f in table.facts}
    assert facts["pending"] == "turn: p0 answers"
    assert (facts["bao"], facts["shield"], facts["last_turns"], facts["final_phase"]) == (
        "called by p1", "armed", "none left", "no")  # p0 plays the last of the last turns


def test_faces_come_from_the_catalog_with_codes_readable_without_colour():
    spec = default_spec()
    faces = Faces(spec)
    codes = [f.code for f in faces.legend()]
    assert len(set(codes)) == len(codes) == len(spec.species_list)
    for sp in spec.species_list:
        face = faces.of(sp.id)
        assert (face.value, face.power, face.family) == (sp.value, sp.power, sp.family)
    # one family, one hue: the pelicans (and the toucans) look alike, as they pluck alike
    assert faces.of("white_pelican").hue == faces.of("brown_pelican").hue != faces.of("owl").hue
    assert faces.of("toco_toucan").hue == faces.of("golden_toucan").hue != faces.of("shoebill").hue
    assert faces.of("golden_toucan").value == -5 and faces.of("shoebill").power_mark == "replace 2"
    # a setup's value override changes the drawn value, not the species
    catalog = [{"species": "owl", "family": "owl", "value": 40, "power": None, "count": 5}]
    assert Faces(spec, catalog).of("owl").value == 40 and Faces(spec, catalog).of("owl").code == "OWL"
    assert faces.of("dodo").code == "?DOD" and faces.of("dodo").value is None  # an engine's invention


def test_the_deck_shows_the_cards_the_scenario_named_while_they_are_next():
    s = state()
    tables = StepTables(default_spec(), {1: 2})
    first = tables.after({"op": "setup", "line": 1, "state": s}, s)
    deck = next(h for h in first.heaps if h.key == "deck")
    assert [c.face.code for c in deck.cards] == ["CUC", "MAC"] and deck.note == "next"
    later = copy.deepcopy(s)
    later["deck"] = later["deck"][1:]  # the cuckoo drawn: the macaw is next, then unnamed cards
    deck = next(h for h in tables.after({"op": "apply", "line": 2}, later).heaps if h.key == "deck")
    assert [c.face.code for c in deck.cards] == ["MAC"] and deck.mark == CHANGED


def test_what_an_action_changed_is_marked_and_nothing_else():
    before = state()
    after = copy.deepcopy(before)
    after["zones"]["0"][2] = after["zones"]["1"][0]  # a card moves into the empty slot
    after["zones"]["1"][0] = None
    after["seen"]["heron-1"] = [1]
    old, new = layout(before), layout(after)
    assert compare(old, new) == 3
    marked = {(r.player, s.number) for r in new.rows for s in r.slots if s.mark}
    assert marked == {(0, 2), (0, 3), (1, 1)}  # seen by p1 now, the card moved in, the slot it left
    assert all(s.mark == CHANGED for r in new.rows for s in r.slots if s.mark)
    assert not any(s.mark for r in old.rows for s in r.slots)  # the table before is left as it was
    assert compare(layout(before), layout(copy.deepcopy(before))) == 0


def test_two_tables_side_by_side_are_both_marked_where_they_differ():
    reference, engine = state(), state()
    engine["shield"] = "active"
    engine["zones"]["1"].append({"card": "owl-4", "species": "owl"})  # a slot the reference does not have
    ours, theirs = layout(reference), layout(engine)
    assert compare(ours, theirs, DIFFERS, both=True) == 2
    assert [s.number for r in theirs.rows for s in r.slots if s.mark == DIFFERS] == [5]
    assert next(f for f in ours.facts if f.key == "shield").mark == DIFFERS
    assert next(f for f in theirs.facts if f.key == "shield").mark == DIFFERS


def test_a_players_view_draws_unseen_cards_as_backs_without_species():
    engine = ReferenceEngine()
    engine.setup(state(known={1: [(0, 1)]}), None)
    table = layout(engine.view(1))
    assert table.viewer == 1 and "viewer" in table.rows[1].tags
    assert slot_text(table, 0) == ["OWL5", "??", "..", "??"]  # what p1 saw, backs, the hole
    assert slot_text(table, 1) == ["??", "??", "??", "??"]
    assert all(c.face is None for r in table.rows for s in r.slots if s.card and s.number != 1 for c in [s.card])
    html = picture.Painter().table(table)
    assert html.count('class="c bk"') == 6 and "Golden" not in html  # no species of an unseen card
    heaps = {h.key: h for h in table.heaps}
    assert heaps["deck"].count == 58 and heaps["under"].count == 0


def test_between_rounds_the_table_as_the_round_ended_is_shown_face_up():
    s = state()
    s["round_zones"] = s["zones"]
    s["zones"] = {"0": [], "1": []}
    s["round_scores"] = {"0": 15, "1": 24}
    table = layout(s)
    assert table.revealed and all(s.card.up for r in table.rows for s in r.slots if s.card)
    assert table.rows[1].score == "0 (round 24)" and "shown" in table.rows[0].tags


HOSTILE = st.text(alphabet=st.sampled_from("ab<>&\"'-/= 0"), max_size=12)
JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 70) | HOSTILE,
                    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(HOSTILE, inner, max_size=6),
                    max_leaves=30)
KEYS = ["zones", "players", "seen", "deck", "discard", "under", "drawn", "pending", "scores", "round_scores",
        "round_zones", "bao", "last_turns", "owed_powers", "pluck", "drawing", "moved", "deck_count", "active"]
OUR_TAGS = {"figure", "figcaption", "p", "div", "span", "b", "i", "em", "small", "dl", "dt", "dd"}


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.sampled_from(KEYS), JSON, max_size=10), st.booleans(), HOSTILE)
def test_any_document_an_engine_sends_is_drawn_or_refused_in_words(doc, real, species):
    """An engine's state is whatever it answered: every field of the wrong type is drawn as unknown, never
    raised, and every text in it reaches the HTML escaped (only the picture's own tags are tags)."""
    if real:  # a real state with some fields replaced and a card of a species of markup
        base = state()
        base["zones"]["0"][0] = {"card": species + "-1", "species": "<script>" + species}
        doc = {**base, **doc}
    table = layout(doc)
    html = picture.Painter().table(table, caption=species, name=species)
    assert {t.lower() for t in re.findall(r"<(?:/)?([a-z]+)", html, re.I)} <= OUR_TAGS, html
    assert "<script" not in html
    lines = text.render(table, 60)
    assert all(isinstance(line, str) for line in lines)


def test_a_document_that_is_no_state_says_so():
    assert layout([1, 2]).problem.startswith("not a state")
    assert "not a state" in text.render(layout("x"))[0]
