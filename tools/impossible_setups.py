"""561 setups that cannot exist, sent to an engine's ``setup``: how many does it accept?

    python tools/impossible_setups.py                 # baobei-ref serve of this checkout
    python tools/impossible_setups.py -- ./my_engine  # any engine speaking the protocol
    python tools/impossible_setups.py --json

Each setup is a position reached by seeded play (the fuzzer's policy, so plucks, gifts and powers happen)
changed in one way that no play can produce, in eleven kinds of 51 (issue 24, point 5): a power owed for a
card nobody discarded, a power owed for a plain bird or twice, Macaw targets that are no cards, a seat without
a score, a winner while play goes on, a card held at a 'turn' decision, a window whose reference is in the deck,
round or turn 0, a shield without BAO, a player named twice among a card's viewers, a moved card named twice.
An engine that checks positions refuses all of them with ``malformed_state`` (docs/protocol.md 3.2). The
generator reads only the reference's public API and the fuzzer's play policy, so it measures any version of
``baobei-ref serve`` (exit 1 when one is accepted).
"""

from __future__ import annotations

import argparse
import copy
import json
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterator

from baobei_conform.fuzz.choices import Seeded
from baobei_conform.fuzz.policy import choose
from baobei_ref import Game

EACH = 51  # setups of each kind
SERVE = [sys.executable, "-m", "baobei_conform.protocol.server", "serve"]
Mutation = Callable[[dict, int], dict | None]  # a reached state, a counter -> an impossible one (None: not here)


def reached(games: int = 160) -> Iterator[dict]:
    """Every state of ``games`` seeded games played by the fuzzer's policy (BAO eagerness varies by seed)."""
    for seed in range(games):
        g, choices = Game(players=2 + seed % 5), Seeded(seed)
        while g.pending.kind != "game_over":
            yield g.to_json()
            g.apply(choose(g, choices, (0, 1, 4, 20)[seed % 4]))
        yield g.to_json()


def _powered(state: dict, area: str) -> list[str]:
    return [c for c in state[area] if c.rsplit("-", 1)[0] in POWERED]


POWERED = ("white_pelican", "brown_pelican", "cuckoo", "macaw", "toco_toucan", "shoebill")
PLAIN = ("hummingbird", "sparrow", "swallow", "kingfisher", "owl", "heron", "flamingo", "eagle", "golden_toucan")
KINDS_IN_PLAY = ("turn", "drawn", "window", "gift", "place", "end_turn", "white_pelican", "brown_pelican",
                 "blind_swap", "macaw", "macaw_swap", "toco_toucan", "shoebill", "recycle")


def owed_for_a_card_nobody_discarded(s: dict, n: int) -> dict | None:
    """A power owed for a card still in the deck: at the start of a turn, or during a window or a gift."""
    deck = _powered(s, "deck")
    if s["pending"]["kind"] not in ("turn", "drawn", "end_turn", "window", "gift") or not deck:
        return None
    clause = ("6.10.5", "6.1.2", "6.10.4")[n % 3]
    return {**s, "owed_powers": s["owed_powers"] + [{"player": s["active"], "card": deck[n % len(deck)],
                                                     "clause": clause}]}


def owed_for_a_plain_bird_or_twice(s: dict, n: int) -> dict | None:
    """A window's owed power for a plain bird on the pile, or the owed power repeated."""
    if s["pending"]["kind"] not in ("window", "gift"):
        return None
    if s["owed_powers"] and n % 2:
        return {**s, "owed_powers": s["owed_powers"] + s["owed_powers"][:1]}
    plain = [c for c in s["discard"] if c.rsplit("-", 1)[0] in PLAIN]
    if not plain:
        return None
    return {**s, "owed_powers": [{"player": s["active"], "card": plain[-1], "clause": "6.1.2"}]}


def macaw_targets_that_are_no_cards(s: dict, n: int) -> dict | None:
    """The Macaw's two cards replaced by [99, 99], a slot past the zone, an empty slot or one player's two cards."""
    if s["pending"]["kind"] != "macaw_swap":
        return None
    data = s["pending"]["data"]
    owner = data["first"][0]
    zone = s["zones"][str(owner)]
    empty = [i for i, c in enumerate(zone, 1) if c is None]
    name, other = ("first", "second") if (n // 5) % 2 else ("second", "first")
    choices = [[99, 99], [owner, len(zone) + 1 + n % 3], [owner, 0]]
    choices += [[owner, empty[0]]] if empty else []
    choices += [list(data[other])]  # the same card twice
    return {**s, "pending": {**s["pending"], "data": {**data, name: choices[n % len(choices)]}}}


def a_seat_without_a_score(s: dict, n: int) -> dict | None:
    seats = sorted(s["scores"])
    gone = seats[n % len(seats)]
    return {**s, "scores": {k: v for k, v in s["scores"].items() if k != gone}}


def a_winner_while_play_goes_on(s: dict, n: int) -> dict | None:
    if s["pending"]["kind"] not in KINDS_IN_PLAY:
        return None
    return {**s, "winner": s["players"][n % len(s["players"])]}


def a_card_held_at_a_turn_decision(s: dict, n: int) -> dict | None:
    if s["pending"]["kind"] != "turn" or not s["deck"]:
        return None
    card = s["deck"][0]
    return {**s, "deck": s["deck"][1:], "drawn": card, "seen": {**s["seen"], card: [s["active"]]}}


def a_window_on_a_deck_card(s: dict, n: int) -> dict | None:
    if s["pending"]["kind"] != "window" or not s["deck"]:
        return None
    card = s["deck"][n % len(s["deck"])]
    return {**s, "pending": {**s["pending"], "data": {"reference": card}}}


def round_or_turn_zero(s: dict, n: int) -> dict | None:
    if s["pending"]["kind"] not in KINDS_IN_PLAY:
        return None
    return {**s, "round": 0} if n % 2 else {**s, "turn": 0}


def a_shield_without_bao(s: dict, n: int) -> dict | None:
    if s["bao"] is not None or s["pending"]["kind"] not in KINDS_IN_PLAY:
        return None
    return {**s, "shield": ("armed", "active")[n % 2]}


def a_viewer_named_twice(s: dict, n: int) -> dict | None:
    if not s["seen"]:
        return None
    cards = sorted(s["seen"])
    card = cards[n % len(cards)]
    viewers = s["seen"][card]
    return {**s, "seen": {**s["seen"], card: sorted(viewers + viewers[:1])}}


def a_moved_card_named_twice(s: dict, n: int) -> dict | None:
    if not s["moved"]:
        return None
    moved = s["moved"]
    return {**s, "moved": sorted(moved + [moved[n % len(moved)]])}


MUTATIONS: dict[str, Mutation] = {fn.__name__: fn for fn in (
    owed_for_a_card_nobody_discarded, owed_for_a_plain_bird_or_twice, macaw_targets_that_are_no_cards,
    a_seat_without_a_score, a_winner_while_play_goes_on, a_card_held_at_a_turn_decision, a_window_on_a_deck_card,
    round_or_turn_zero, a_shield_without_bao, a_viewer_named_twice, a_moved_card_named_twice)}


def impossible_setups() -> list[tuple[str, dict]]:
    """(kind, state): EACH setups of every kind, each from a different reached position where one applies."""
    found: dict[str, list[dict]] = {name: [] for name in MUTATIONS}
    for i, state in enumerate(reached()):
        for name, mutate in MUTATIONS.items():
            if len(found[name]) < EACH and (i + len(found[name])) % 3 == 0:
                changed = mutate(state, len(found[name]))
                if changed is not None:
                    found[name].append(copy.deepcopy(changed))
        if all(len(states) == EACH for states in found.values()):
            break
    short = [name for name, states in found.items() if len(states) < EACH]
    if short:
        raise RuntimeError(f"the seeded games reach too few positions for {', '.join(short)}")
    return [(name, state) for name, states in found.items() for state in states]


def replies(command: list[str], setups: list[tuple[str, dict]]) -> list[dict]:
    """The engine's reply to each setup, in order (after a hello with the spec's parameters)."""
    lines = [json.dumps({"seq": 1, "cmd": "hello", "protocol": "2.0", "params": _params()})]
    lines += [json.dumps({"seq": i, "cmd": "setup", "state": state, "params": None})
              for i, (_, state) in enumerate(setups, 2)]
    lines.append(json.dumps({"seq": len(setups) + 2, "cmd": "stop"}))
    done = subprocess.run(command, input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=600,
                          check=False)
    by_seq = {r.get("seq"): r for r in map(json.loads, done.stdout.splitlines())}
    return [by_seq.get(i, {"ok": None}) for i in range(2, len(setups) + 2)]


def accepted(command: list[str], setups: list[tuple[str, dict]]) -> Counter[str]:
    """How many setups of each kind the engine answers with ``ok: true``."""
    return Counter(kind for (kind, _), reply in zip(setups, replies(command, setups), strict=True)
                   if reply.get("ok") is True)


def _params() -> dict:
    from baobei_conform.engines.reference import params_to_json

    return params_to_json()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print the counts as one JSON object")
    parser.add_argument("command", nargs="*", help="the engine's command line (default: baobei-ref serve)")
    args = parser.parse_args(argv)
    setups = impossible_setups()
    counts = accepted(args.command or SERVE, setups)
    total = sum(counts.values())
    if args.json:
        print(json.dumps({"setups": len(setups), "accepted": total, "by_kind": {k: counts[k] for k in MUTATIONS}}))
    else:
        for name in MUTATIONS:
            print(f"{counts[name]:4} of {EACH} accepted: {name.replace('_', ' ')}")
        print(f"{total} of {len(setups)} impossible setups accepted")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
