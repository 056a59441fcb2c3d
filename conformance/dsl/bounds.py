"""Every number a script may write, bounded by the rules and the catalog before anything uses it.

A number is a cost as much as a value: ``new game 100000000 players`` would seat a hundred million players
before the first check, and ``int()`` of a number of thousands of digits is quadratic. So every number the
grammar accepts (``grammar.lark``: ``INT``, ``SIGNED_INT`` and the digits of ``pN`` and ``pN.M``) is checked
here, right after parsing and before the names (names.py) or the table (position.py):

- width: at most ``MAX_DIGITS`` digits, anywhere;
- player counts (``new game N players``): ``min - 1`` to ``max + 1`` as syntax (so a count the rules refuse can
  still be written in ``reject CODE: new game N players``), ``min`` to ``max`` by the rules (2.1.1);
- seats and slots (``pN``, ``pN.M``, ``into N``, ``gives N``, ``slots N M``) and counts (``has N cards``,
  ``recycles N``): at most the catalog's number of cards, since no table, zone or pile holds more;
- a Shoebill's ``drawn N``: 1 or 2 (it draws two cards, 6.9.2), any in a ``reject``;
- ``round`` and ``threshold``: from 1; ``rule hand_size N`` (and ``decisive_hand_size``): from 1, a deal the
  catalog can make for the setup's players and a discard pile's first card; ``rule initial_peek N`` from 0 and
  ``rule final_phase_recycle N`` from 1, at most the catalog's number of cards.

Scores, card values and the BAO failure's minimum and factor are sums or factors with a sign: only their width
is bounded.
"""

from __future__ import annotations

from lark import Token, Tree

from baobei_spec import Spec

MAX_DIGITS = 9  # digits of any number of a script
SHOEBILL_DRAWS = 2  # 6.9.2: the Shoebill draws the top two cards
SLOT_RULES = frozenset({"take", "keep", "gift", "place", "initial_peek"})  # their INT is a slot
COUNT_RULES = frozenset({"field_count", "recycles"})
FROM_ONE = frozenset({"round", "threshold"})
HAND_RULES = ("hand_size", "decisive_hand_size")
COUNT_PARAMS = {"initial_peek": 0, "final_phase_recycle": 1}  # rule parameters that count cards or recycles: lowest


def _digits(token: Token) -> list[str]:
    """The runs of digits of a number, a seat or a slot token."""
    text = str(token)
    if token.type in ("PLAYER", "TARGET"):
        return text[1:].split(".")
    return [text.lstrip("-")]


class _Bounds:
    def __init__(self, spec: Spec):
        self.cards = spec.total_cards
        self.fewest, self.most = spec.params.min_players, spec.params.max_players
        self.out: list[tuple[str, Token]] = []

    def fail(self, message: str, token: Token) -> None:
        self.out.append((message, token))

    def within(self, token: Token, value: int, low: int, high: int | None, what: str) -> None:
        if value < low or (high is not None and value > high):
            self.fail(what, token)

    def walk(self, node: Tree[Token], deliberate: bool = False, seats: int = 0) -> None:
        """``deliberate``: inside a statement whose point may be what cannot exist (a ``reject``, ``not legal``);
        ``seats``: the zones of the setup block being walked."""
        if node.data == "setup":
            seats = sum(isinstance(c, Tree) and c.data == "zone" for c in node.children)
        deliberate = deliberate or node.data in ("reject", "reject_new_game", "not_legal")
        for child in node.children:
            if isinstance(child, Tree):
                self.walk(child, deliberate, seats)
            elif child.type in ("INT", "SIGNED_INT", "PLAYER", "TARGET"):
                self.token(node, child, deliberate, seats)

    def token(self, node: Tree[Token], token: Token, deliberate: bool, seats: int) -> None:
        wide = max(_digits(token), key=len)
        if len(wide) > MAX_DIGITS:
            return self.fail(f"a number of {len(wide)} digits (at most {MAX_DIGITS})", token)
        cards = self.cards
        if token.type in ("PLAYER", "TARGET"):
            seat, *slot = (int(n) for n in _digits(token))
            self.within(token, seat, 0, cards, f"p{seat} cannot exist: no table seats more than {cards} players")
            if slot:
                self.within(token, slot[0], 0, cards, f"slot {slot[0]} cannot exist: no zone has more than {cards} "
                                                      f"slots (the catalog's {cards} cards)")
            return None
        value, rule = int(token), node.data
        if rule in ("new_game", "reject_new_game"):
            self.players(token, value, rule == "reject_new_game")
        elif rule in SLOT_RULES:
            self.within(token, value, 0, cards, f"slot {value} cannot exist: no zone has more than {cards} slots "
                                                f"(the catalog's {cards} cards)")
        elif rule in COUNT_RULES:
            self.within(token, value, 0, cards, f"a count of {value}: nothing holds more than the catalog's "
                                                f"{cards} cards")
        elif rule == "replacement" and not deliberate:
            self.within(token, value, 1, SHOEBILL_DRAWS, f"drawn {value}: the Shoebill draws {SHOEBILL_DRAWS} cards "
                                                         "(6.9.2), 'drawn 1' or 'drawn 2'")
        elif rule in FROM_ONE:
            self.within(token, value, 1, None, f"{rule} {value}: it counts from 1")
        elif rule == "rule":
            self.rule(token, str(node.children[0]), value, seats)
        return None

    def rule(self, token: Token, name: str, value: int, seats: int) -> None:
        cards = self.cards
        if name in HAND_RULES and seats:
            most = (cards - 1) // seats
            self.within(token, value, 1, most, f"{name} {value}: the catalog's {cards} cards deal {seats} players "
                                               f"at most {most} each, with a card for the discard")
        elif name in COUNT_PARAMS:
            low = COUNT_PARAMS[name]
            self.within(token, value, low, cards, f"{name} {value}: from {low} to the catalog's {cards} cards")

    def players(self, token: Token, value: int, refused: bool) -> None:
        fewest, most = self.fewest, self.most
        if not fewest - 1 <= value <= most + 1:
            self.fail(f"a game of {value} players: a script writes {fewest - 1} to {most + 1} ({fewest} to {most} "
                      f"by the rules, 2.1.1; {fewest - 1} and {most + 1} only as counts refused)", token)
        elif not refused and not fewest <= value <= most:
            self.fail(f"BAO BEI is played by {fewest} to {most} players (2.1.1): a game of {value} can only be "
                      f"refused ('reject malformed_action: new game {value} players')", token)


def number_problems(tree: Tree[Token], spec: Spec) -> list[tuple[str, Token]]:
    """(message, token) for every number of a parse tree out of its bounds."""
    bounds = _Bounds(spec)
    bounds.walk(tree)
    return bounds.out
