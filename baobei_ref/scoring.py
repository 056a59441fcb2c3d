"""Part 5: round totals, the BAO caller's score, cumulative scores, game end and decisive rounds."""

from __future__ import annotations

from typing import TYPE_CHECKING

from baobei_ref.agenda import RoundStart
from baobei_ref.rules import Answer, AnswerKey, Legal, Step

if TYPE_CHECKING:
    from baobei_ref.game import Game


def round_total(g: Game, player: int) -> int:
    """5.1.1: the sum of the values left in the zone; the Golden Toucan counts -5; no cards is 0 (B.1)."""
    return sum(g.catalog.value(c) for c in g.state.zones[player] if c is not None)


def bao_score(g: Game, total: int, rival_totals: list[int]) -> tuple[int, str]:
    """5.2.2 - 5.2.4: success needs strictly less than every rival; failure scores max(2 x total, 5)."""
    if all(total < t for t in rival_totals):
        return (0, "5.2.2") if total >= 0 else (total, "5.2.3")
    return max(g.params.bao_failure_factor * total, g.params.bao_failure_minimum), "5.2.4"


def step_score_round(g: Game) -> None:
    """5.2.1: everyone scores their real total, except a BAO caller outside the final phase."""
    s = g.state
    totals = {p: round_total(g, p) for p in s.players}
    scores = dict(totals)
    if s.bao is not None and not s.final_phase:
        rivals = [totals[p] for p in s.players if p != s.bao]
        scores[s.bao], clause = g.rules.bao_score(g, totals[s.bao], rivals)
        g.emit("bao_scored", clause, also=("5.2.1", "4.1.7"), player=s.bao, total=totals[s.bao], score=scores[s.bao])
    elif s.bao is not None:  # ruling R-05: the final phase scores everyone's ordinary total
        g.emit("bao_void", "7.2.6", ruling="R-05", player=s.bao)
    s.round_scores = scores
    s.round_zones = {p: list(s.zones[p]) for p in s.players}  # the table as the round ended, before a deal clears it
    for card in (c for zone in s.round_zones.values() for c in zone if c is not None):
        s.show_all(card)  # 5.1.1: everyone shows the cards they have left
    g.emit("round_scored", "5.1.1", also=("5.2.1", "5.3.1") + (("B.1",) if 0 in map(s.count, s.players) else ()),
           totals=_keyed(totals), scores=_keyed(scores))
    if s.decisive:
        _after_decisive_round(g, scores)
        return
    for p, score in scores.items():
        s.scores[p] += score  # 5.3.1
    threshold = g.params.threshold[s.seats]
    if max(s.scores.values()) >= threshold:  # 5.3.2
        _game_end(g, {p: s.scores[p] for p in s.players}, "5.3.3")
    else:
        g.rules.next_round(g, scores)


def _keyed(d: dict[int, int]) -> dict[str, int]:
    return {str(k): v for k, v in d.items()}


def _lowest(scores: dict[int, int]) -> list[int]:
    low = min(scores.values())
    return [p for p, v in scores.items() if v == low]


def _game_end(g: Game, scores: dict[int, int], clause: str) -> None:
    """5.3.3: the lowest total wins; 5.4.1: a tie sends only the tied players to a decisive round."""
    best = _lowest(scores)
    if len(best) == 1:
        g.state.winner = best[0]
        g.emit("game_over", clause, also=("5.3.2",), winner=best[0])
        g.ask("game_over", None, winner=best[0])
        return
    s = g.state
    g.emit("decisive_round", "5.4.1", ruling="R-07", players=best)
    s.players, s.decisive, s.first = sorted(best), True, None
    s.round += 1
    g.then(RoundStart())


def _after_decisive_round(g: Game, scores: dict[int, int]) -> None:
    """5.4.1 (ruling R-07): only the decisive round's scores count; a new tie repeats it."""
    _game_end(g, scores, "5.4.1")


def next_round(g: Game, scores: dict[int, int]) -> None:
    """2.4.1: the highest round score starts; a tie goes to the earlier player of the last turn order."""
    s = g.state
    if s.first is None:
        raise RuntimeError("a scored round has a first player")
    order = [s.first] + s.rivals(s.first)
    high = max(scores.values())
    s.first = next(p for p in order if scores[p] == high)
    s.round += 1
    g.emit("next_round", "2.4.1", also=("5.3.2",), first=s.first)
    g.then(RoundStart())


STEPS: dict[str, Step] = {"score_round": step_score_round}
ANSWERS: dict[AnswerKey, Answer] = {}
LEGAL: dict[str, Legal] = {"game_over": lambda g: []}
