"""Rule variants are composed per game: a wrong-engine misreading, a ruling's switch and the reference
run side by side in one process, interleaved action by action, each by its own rules."""

from __future__ import annotations

import importlib.util
from dataclasses import replace
from pathlib import Path

import pytest

from baobei_ref import Game
from baobei_ref.actions import ChooseFirstPlayer, Pluck, Shuffle
from baobei_ref.game import default_catalog, default_params
from baobei_ref.rules import reading
from baobei_ref.setup import position

ENGINE = Path(__file__).resolve().parents[2] / "examples" / "wrong_engine" / "engine.py"


def _bugs() -> dict:
    spec = importlib.util.spec_from_file_location("wrong_engine_for_variants", ENGINE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return {name: variant for name, (variant, _) in module.BUGS.items()}


BUGS = _bugs()
TABLE = {"zones": {0: ["heron"], 1: ["brown_pelican", "eagle"]}, "drawn": "white_pelican"}


@pytest.mark.clause("3.1.7", "3.4.5")
def test_wrong_engine_games_and_a_reference_game_interleaved_each_follow_their_own_rules():
    """The same own-draw pluck of a Brown Pelican with a White Pelican (3.1.7: they match) in three games
    played in turn: the reference removes it and gives a card back (3.4.5); ``no_gift`` removes it and gives
    nothing; ``pelicans_dont_match`` fails the pluck and puts the card back."""
    ref = position(**TABLE)
    no_gift = position(**TABLE, variants=[BUGS["no_gift"]])
    no_match = position(**TABLE, variants=[BUGS["pelicans_dont_match"]])
    events = {}
    for name, g in (("no_gift", no_gift), ("ref", ref), ("no_match", no_match)):  # one action each, in turn
        events[name] = [e.kind for e in g.apply(Pluck(0, ((1, 1),)))]
    assert "gift" in events["ref"] and ref.state.card_at((1, 1)) == "heron-1"
    assert "gift" not in events["no_gift"] and no_gift.state.card_at((1, 1)) is None
    assert no_gift.state.card_at((0, 1)) == "heron-1"
    assert no_match.state.card_at((1, 1)) == "brown_pelican-1"
    assert [e for e in events["no_match"] if e in ("removed", "penalty")] == ["penalty"]
    # a game started afterwards, without variants, follows the reference
    again = position(**TABLE)
    again.apply(Pluck(0, ((1, 1),)))
    assert again.state.card_at((1, 1)) == "heron-1"


@pytest.mark.clause("2.1.2", "R-15")
def test_a_rulings_switch_and_a_misreading_are_the_same_mechanism_side_by_side():
    """R-15 A (a switch, rule parameter ``rulings``) deals each player's cards in one block; the adopted
    reading deals one at a time. Both deals, interleaved, and a game with the switch and a misreading
    composed (``no_gift``) deals like the switch."""
    blocks = replace(default_params(), rulings={"R-15": "A"})
    games = {"adopted": Game(2), "A": Game(2, params=blocks), "A+no_gift": Game(2, params=blocks,
                                                                              variants=[BUGS["no_gift"]])}
    order = tuple(default_catalog().cards)  # top first
    for action in (ChooseFirstPlayer(0), Shuffle(order)):
        for g in games.values():
            g.apply(action)
    n = default_params().hand_size[2]
    assert games["adopted"].state.zones[0] == list(order[0:2 * n:2])
    assert games["A"].state.zones[0] == list(order[:n])
    assert games["A+no_gift"].state.zones == games["A"].state.zones


def test_a_reading_names_only_rules_that_exist():
    with pytest.raises(ValueError, match="no named rule"):
        reading("R-15", "Z", deal_ordr=lambda g, n: [])
