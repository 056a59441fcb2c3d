"""Whether a game could reach a position: what a valid state (check.py) may still get wrong about its history.

``check_position`` holds a state to what the rules allow at one moment; a scenario's ``setup`` must also be a
moment some game gets to, or an engine that keeps, say, the dealt row of slots fails it for a reason no rule
gives. The scenario compiler calls :func:`check_reachable` on every setup that does not say ``unreachable:``
(``docs/scenarios.md``); the reference and ``baobei-ref serve`` do not (a test may set up any valid state).
It checks the slots the deal gives, the scores of the rounds already scored, the turn against the first player
and the table, the initial peek at the first turn and the BAO caller's turns. Each refusal names the field and
the rulebook lines (Spanish numbering) of the rule it breaks.
"""

from __future__ import annotations

from typing import Any

from baobei_spec.position.errors import MalformedState
from baobei_spec.position.rules import PositionRules
from baobei_spec.position.table import Table


class Unreachable(MalformedState):
    """A valid state no game reaches: ``lines`` are the rulebook lines of the rule its history would break."""

    def __init__(self, path: str, why: str, lines: tuple[int, ...]) -> None:
        self.lines = lines
        cited = f"line {lines[0]}" if len(lines) == 1 else f"lines {', '.join(map(str, lines))}"
        super().__init__(path, f"{why} (rulebook {cited})")


def _need(ok: bool, path: str, why: str, *lines: int) -> None:
    if not ok:
        raise Unreachable(path, why, lines)


def check_reachable(state: dict[str, Any], rules: PositionRules) -> None:
    """Raise Unreachable unless some game reaches ``state``, a state ``check_position`` accepts."""
    t = Table(state, rules)
    _slots(t)
    _scores(t)
    _turn(t)
    _peeks(t)
    _caller(t)


def dealt(state: dict[str, Any], rules: PositionRules) -> int:
    """The cards each player of the round was dealt (2.1.2, 2.1.3; a decisive round's deal, 5.4.1)."""
    sizes = rules.decisive_hand_size if state["decisive"] else rules.hand_size
    return sizes[len(state["players"])]


def _slots(t: Table) -> None:
    """Every slot of the deal stays, empty or not (2.5.2, REM-1): a zone has at least the dealt slots."""
    s = t.state
    if not any(t.zones.values()):  # before the deal (first_player, deal): no slots yet
        return
    hand = dealt(s, t.rules)
    for player, zone in sorted(t.zones.items()):
        _need(len(zone) >= hand, f"zones.{player}", f"player {player} has {len(zone)} slot(s), but a round of "
              f"{len(t.players)} players deals {hand} cards each and a slot never disappears within the round: "
              "write a removed card as an empty slot '_'", 13, 14, 24, 356)


def _scores(t: Table) -> None:
    """Cumulative scores are the sums of the rounds scored so far (5.3.1): none in round one; below the threshold
    while the game goes on (5.3.2); and no lower than the deck's negative cards allow, one zone's per round
    (5.2.11)."""
    s = t.state
    if s["decisive"] or t.kind == "game_over":  # a decisive round has no threshold (5.4.1); the end is scored
        return
    scores = {int(p): v for p, v in s["scores"].items()}
    played = s["round"] - 1
    if played == 0:
        nonzero = sorted(p for p, v in scores.items() if v)
        _need(not nonzero, f"scores.{nonzero[0]}" if nonzero else "scores", "round 1 starts every cumulative score "
              "at 0: no round has been scored yet (write 'round N' for a later round)", 9, 196)
        return
    threshold = t.rules.threshold[s["seats"]]
    for p, v in sorted(scores.items()):
        _need(v < threshold, f"scores.{p}", f"player {p} has {v}, at or over the threshold {threshold} for "
              f"{s['seats']} players: the game would have ended with the round that brought it there", 198)
    lowest = t.rules.lowest_round_score() * played
    for p, v in sorted(scores.items()):
        _need(v >= lowest, f"scores.{p}", f"player {p} has {v}, but {played} scored round(s) give at least "
              f"{lowest}: only the deck's negative cards score below 0, one zone's per round", 194, 196)
    _need(sum(scores.values()) >= lowest, "scores", f"the scores add up to {sum(scores.values())}, but {played} "
          f"scored round(s) take at most {-lowest} from all players together: the deck's negative cards, one zone's "
          "per round", 194, 196)


def fresh(state: dict[str, Any], rules: PositionRules) -> bool:
    """The table as the deal leaves it (2.1, 2.3.1): full zones of the dealt slots, the first card turned up as
    the only discard, nothing under it, the rest in the deck (less the card the active player holds)."""
    hand = dealt(state, rules)
    zones = state["zones"].values()
    deck = len(rules.cards) - hand * len(zones) - 1 - (state["drawn"] is not None)
    return (all(len(z) == hand and None not in z for z in zones) and len(state["discard"]) == 1
            and not state["under"] and len(state["deck"]) == deck and state["recycles"] == 0
            and state["bao"] is None)


def setup_turn(state: dict[str, Any], rules: PositionRules) -> int:
    """The turn a setup is at when it names none (its ``first`` player is the active one): 1 at the table the
    deal leaves (unless a player knows a rival's card), else the active player's first turn late enough for one
    draw a turn to have used the cards drawn so far (a turn taking the discard draws none, so a later turn is
    reachable too)."""
    if fresh(state, rules) and not _rival_known(state):
        return 1  # a table that only takes of the discard changed also looks dealt, but then all know a card
    players = len(state["players"])
    deck = len(rules.cards) - dealt(state, rules) * players - 1
    drawn = deck + state["recycles"] - 1 if state["recycles"] else deck - len(state["deck"])
    return 1 + players * max(1, -(-drawn // players))


def _rival_known(state: dict[str, Any]) -> bool:
    """Some player knows a card of another's zone (never so at the first turn, 2.2.1)."""
    seen = state["seen"]
    return any(viewer != int(owner) for owner, zone in state["zones"].items() for slot in zone if slot is not None
               for viewer in seen.get(slot["card"], ()))


def _turn(t: Table) -> None:
    """Turns go clockwise from the round's first player, every player's in turn (2.4.1; with zero cards too,
    B.1), so the turn number fixes whose it is; turn 1 is the first, at the table the deal leaves."""
    s = t.state
    if s["turn"] == 0 or s["active"] is None:
        return
    players, first = t.players, s["first"]
    due = players[(players.index(first) + s["turn"] - 1) % len(players)]
    _need(s["active"] == due, "active", f"turn {s['turn']} of a round that player {first} started is player "
          f"{due}'s: turns go clockwise, every player's in turn", 20, 293)
    _need(s["turn"] > 1 or fresh(s, t.rules), "turn", "is the round's first, but the table is not the one the deal "
          "leaves (every dealt slot full, the first card turned up alone on the discard pile, no recycle, no BAO)",
          13, 14, 18)


def _peeks(t: Table) -> None:
    """At the round's first turn each player has looked at exactly the initial peek's own cards and at no other
    card of a zone (2.2.1); the face-up discard and the card just drawn are the only others known."""
    s = t.state
    if s["turn"] != 1:
        return
    seen = s["seen"]
    for player, zone in sorted(t.zones.items()):
        cards = [c for c in zone if c is not None]
        peeked = sum(player in seen.get(c, ()) for c in cards)
        peek = min(t.rules.initial_peek, len(cards))
        _need(peeked == peek, f"p{player} knows", f"player {player} knows {peeked} of their own cards at the round's "
              f"first turn: the initial peek looks at exactly {peek} (write 'p{player} knows p{player}.1 "
              f"p{player}.2')", 16)
        for other in (p for p in t.players if p != player):
            _need(not any(other in seen.get(c, ()) for c in cards), f"p{other} knows", f"player {other} knows a "
                  f"card of player {player} at the round's first turn: the initial peek looks at one's own cards "
                  "only", 16)


def _caller(t: Table) -> None:
    """The BAO caller plays no other normal turn (4.1.5); only the final phase may give them one (ruling R-05)."""
    s = t.state
    if t.kind in ("turn", "drawn", "end_turn") and not s["final_phase"]:
        _need(s["active"] != s["bao"], "bao", f"player {s['bao']} called BAO and plays no other normal turn in the "
              "round", 152, 156)
