"""The counts and flags of a position against the moment of the round it is at (the pending decision).

A round starts with every card in the box (``first_player``, ``deal``), then the initial peeks (turn 0,
no discard yet), then the turns (2.3.1: the first discard is turned up before the first). BAO arms the
caller's shield and owes each rival a last turn (4.1.2 - 4.2.1); the recycle ``final_phase_recycle`` starts
the final phase (7.2.2), which lifts the shield and owes the others a last turn. Every reading of a ruling the
reference implements keeps these; ``docs/protocol.md`` (3.2) lists them.
"""

from __future__ import annotations

from baobei_spec.position.errors import need
from baobei_spec.position.table import Table

ROUND_START = ("first_player", "deal")  # every card in the box, the zones without slots
BEFORE_TURNS = (*ROUND_START, "initial_peek")  # turn 0: no active player, no discard pile yet


def check_phase(t: Table) -> None:
    """Round, turn, active and first player, box, discard pile, drawn card and winner against the moment."""
    s, kind = t.state, t.kind
    before = kind in BEFORE_TURNS
    need((s["turn"] == 0) == before, "turn", "is 0 exactly before the round's first turn (first_player, deal, "
         f"initial_peek), not at a {kind!r} decision (2.3.1)")
    need((s["active"] is None) == before, "active", "names the player whose turn it is, from the first turn on "
         f"(null before it), not at a {kind!r} decision")
    need((s["first"] is None) == (kind == "first_player"), "first", "names the round's first player once it is "
         "drawn (2.4.1): null exactly at the 'first_player' decision")
    if s["decisive"]:
        need(s["round"] >= 2, "decisive", "a decisive round follows a scored round (5.4.1): round 2 or later")
    else:
        need(t.players == list(range(s["seats"])), "players", "every seat plays, except in a decisive round (5.4.1)")
    need(bool(s["box"]) == (kind in ROUND_START), "box", "holds every card exactly while the round is dealt "
         "(first_player, deal: 2.1.1) and nothing afterwards")
    if kind in ROUND_START:
        need(all(not z for z in t.zones.values()), "zones", "are empty until the deal (2.1.2)")
        need(s["box"] == list(t.rules.cards), "box", "holds every card in catalog order until the deal shuffles "
             "them (2.1.1)")
    need(bool(s["discard"]) != before, "discard", "is empty until the first discard is turned up (2.3.1), then "
         "never: the top card stays (7.1.2)")
    need((s["drawn"] is not None) == (kind == "drawn"), "drawn", "is the card the active player holds, set exactly "
         f"at a 'drawn' decision (2.7.1): the pending decision is {kind!r}")
    need((s["winner"] is not None) == (kind == "game_over"), "winner", "is set exactly when the game is over "
         f"(5.3.3): the pending decision is {kind!r}")
    if before:
        for name, fresh in (("bao", None), ("shield", "none"), ("recycles", 0), ("final_phase", False),
                            ("last_turns", None), ("moved", [])):
            need(s[name] == fresh, name, f"is {fresh!r} until the round's first turn (a new round starts afresh, "
                 "2.1.1)")
    _bao_and_final_phase(t)


def _bao_and_final_phase(t: Table) -> None:
    s = t.state
    bao, shield, final, last = s["bao"], s["shield"], s["final_phase"], s["last_turns"]
    recycles, threshold = s["recycles"], t.rules.final_phase_recycle
    need(bao is not None or shield == "none", "shield", f"is {shield!r} without a BAO caller: the shield is the "
         "caller's (4.2.1)")
    need(bao is None or shield != "none" or final, "shield", "is 'none' after a BAO call: it is armed (4.2.1) "
         "until the final phase lifts it (7.2.5, ruling R-05)")
    need(not final or recycles >= threshold, "final_phase", f"starts at recycle {threshold} of the round (7.2.2); "
         f"recycles is {recycles}")
    need(recycles < threshold or final or bao is not None, "recycles", f"{recycles} recycles start the final "
         f"phase (recycle {threshold}, 7.2.2), but final_phase is false")
    need((last is not None) == (bao is not None or final), "last_turns", "lists the players still owed a last "
         "turn exactly after a BAO call (4.1.4) or in the final phase (7.2.4); null otherwise")
    if last is not None and s["active"] is not None:
        order = t.rivals(s["active"])
        need(all(p in order for p in last) and last == [p for p in order if p in last], "last_turns",
             f"are played clockwise after the active player {s['active']}: {last} is no such order (4.1.4, 7.2.4)")
    if t.kind == "game_over":
        need(last == [], "last_turns", "the round ended after the last of the last turns (4.1.7, 7.2.6): must be []")


def check_scores(t: Table) -> None:
    """Scores per seat (5.3.1); the last round's scores and table; the winner, the lowest total (5.3.3)."""
    s, kind = t.state, t.kind
    seats = {str(seat) for seat in range(s["seats"])}
    scores, round_scores = s["scores"], s["round_scores"]
    need(set(scores) == seats, "scores", f"must hold one cumulative score per seat: {_keys(seats, scores)}")
    if round_scores is None:
        need(kind != "game_over", "round_scores", "are the scores of the round that ended the game (5.3.2)")
    else:
        need(s["round"] > 1 or kind == "game_over", "round_scores", "are the scores of the last scored round: "
             "null in round 1 until the game ends")
        players = {str(p) for p in t.players}
        scored = players if kind == "game_over" else seats if not s["decisive"] else set(round_scores) | players
        need(set(round_scores) == scored, "round_scores", f"are the last scored round's, one per player of that "
             f"round: {_keys(scored, round_scores)}")
    if "round_zones" in s:
        _round_zones(t)
    if kind == "game_over":
        totals = round_scores if s["decisive"] else scores  # 5.4.1: only the decisive round's scores count
        low = min(totals[str(p)] for p in t.players)
        lowest = [p for p in t.players if totals[str(p)] == low]
        need(lowest == [s["winner"]], "winner", f"is the one player with the lowest total (5.3.3, 5.4.1): "
             f"{lowest} have {low}")


def _round_zones(t: Table) -> None:
    s = t.state
    round_zones, round_scores = s["round_zones"], s["round_scores"]
    if round_zones is None:
        need(round_scores is None, "round_zones", "are the table of the last scored round, null only before one")
        return
    need(round_scores is not None and set(round_zones) == set(round_scores), "round_zones",
         "hold the zones of the players the last round scored (the keys of round_scores)")
    cards = [c["card"] for z in round_zones.values() for c in z if c is not None]
    need(len(set(cards)) == len(cards), "round_zones", "name a card twice")
    if t.kind == "game_over":
        need(round_zones == s["zones"], "round_zones", "are the zones as the round ended: at game over, the zones")


def _keys(wanted: set[str], given: dict[str, object]) -> str:
    missing, extra = sorted(wanted - set(given)), sorted(set(given) - wanted)
    return "; ".join(part for part in (f"lacks {', '.join(missing)}" if missing else "",
                                       f"has {', '.join(extra)} too" if extra else "") if part) or "ok"
