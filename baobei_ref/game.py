"""``Game``: one BAO BEI game driven one action at a time.

The game always waits for exactly one thing (``pending``): a player's decision, a chance outcome,
or nothing. ``apply`` validates an action completely before it changes anything, so an illegal
action raises :class:`RuleError` and leaves the state exactly as it was.

    >>> import random
    >>> from baobei_ref import Game
    >>> g = Game(players=3)
    >>> g.pending.kind                      # round one: the first player is drawn at random
    'first_player'
    >>> rng = random.Random(7)
    >>> while g.pending.kind not in ("turn", "game_over"):
    ...     _ = g.apply(g.sample_chance(rng) if g.pending.player is None else g.legal_actions()[0])
    >>> g.pending.kind, g.pending.player == g.state.active
    ('turn', True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache, partial
from typing import Any, Unpack

from baobei_ref import agenda, bao, canonical, deck, pluck, powers, scoring, turn
from baobei_ref.actions import Action, CallBao, ChooseFirstPlayer, Shuffle, Target
from baobei_ref.agenda import RoundStart
from baobei_ref.cards import Catalog
from baobei_ref.errors import RuleError
from baobei_ref.powers import double_replace, targets
from baobei_ref.readings import reading_variants, unknown_readings
from baobei_ref.rules import Answer, AnswerKey, Legal, Rules, Step, Variant
from baobei_ref.state import Decision, Event, State
from baobei_spec import Params, default_spec
from baobei_spec.position import MalformedState
from baobei_spec.position.decision import DecisionData

# Steps of the agenda and answers to decisions, gathered from the part modules (one rule, one place).
STEPS: dict[str, Step] = {}  # by the agenda step's name (baobei_ref.agenda), so a variant can replace one
ANSWERS: dict[AnswerKey, Answer] = {}
LEGAL: dict[str, Legal] = {}
for _module in (turn, pluck, bao, scoring, powers, deck):
    STEPS.update(_module.STEPS)
    ANSWERS.update(_module.ANSWERS)
    LEGAL.update(_module.LEGAL)


def reference_rules() -> Rules:
    """The reference's rules: the tables above and the adopted reading of every named rule.

    Read when each game starts, so a mutant patching a part module's function is followed."""
    return Rules(
        steps=STEPS, answers=ANSWERS, legal=LEGAL, matches=pluck.matches, check_claim=pluck.check_claim,
        resolve=pluck.resolve, bao_score=scoring.bao_score,
        next_round=scoring.next_round, start_final_phase=deck.start_final_phase, view=canonical.view,
        movable=targets.movable, check_movable=targets.check_movable, discard_power_order=pluck.discard_power_after,
        final_phase_after_bao=deck.bao_turns_stand, last_turns=deck.all_but_active,
        bao_in_decisive_round=bao.bao_in_any_round, skip_turn_without_draw=turn.take_without_draw,
        deal_order=turn.deal_one_at_a_time, bao_moment=bao.normal_turn_end,
        first_card_own=double_replace.user_assigns, single_card=double_replace.single_card_chosen,
        placed_by_power=targets.counts_as_moved, shoebill_draws=double_replace.draws_always,
    )


_CHECKED_EVENTS: set[tuple[str, ...]] = set()  # (kind, *fields) already found in the vocabulary


def default_params() -> Params:
    """The spec's rule parameters."""
    return default_spec().params


@cache
def default_catalog() -> Catalog:
    """The spec's card catalog."""
    return Catalog.from_spec(default_spec())


class Game:
    """A game of BAO BEI for ``players`` seats (2..6), under the spec's rule parameters unless overridden.

    Its :class:`Rules` are the reference's, changed by the readings ``params.rulings`` chooses and then by
    ``variants`` (e.g. a misreading of ``examples/wrong_engine``); other games are not affected.
    """

    def __init__(self, players: int = 2, params: Params | None = None, catalog: Catalog | None = None,
                 variants: Sequence[Variant] = ()) -> None:
        self.params = params or default_params()
        self.catalog = catalog or default_catalog()
        self.variants = tuple(variants)
        if not self.params.min_players <= players <= self.params.max_players:
            raise RuleError(
                "malformed_action",
                f"BAO BEI is played by {self.params.min_players} to {self.params.max_players} players, not {players}",
                "2.1.1",
            )
        bad = unknown_readings(self.params.rulings)
        if bad:
            raise RuleError("malformed_action", f"readings the reference does not implement: {', '.join(bad)}")
        self.rules = reference_rules().with_variants((*reading_variants(self.params.rulings), *self.variants))
        self.state = State(seats=players, players=list(range(players)), scores=dict.fromkeys(range(players), 0))
        self.events: list[Event] = []
        self.state.agenda.append(RoundStart())
        self.state.pending = None
        self.run()

    # --- what the game waits for -------------------------------------------------------------
    @property
    def pending(self) -> Decision:
        """The decision the game waits for (between actions there always is one)."""
        return self.decision

    @property
    def decision(self) -> Decision:
        """The pending decision, for the rules answering it (only steps run while there is none)."""
        pending = self.state.pending
        if pending is None:
            raise RuntimeError("no decision is pending while the agenda runs")
        return pending

    def legal_actions(self) -> Sequence[Action]:
        """Every legal action for the pending decision (chance outcomes excepted for shuffles:
        any permutation of ``pending.data['cards']`` is legal, see :meth:`sample_chance`)."""
        return self.rules.legal[self.decision.kind](self)

    def sample_chance(self, rng: random.Random) -> Action:
        """A chance outcome for the pending chance decision, drawn from ``rng``."""
        p = self.decision
        if p.kind == "first_player":
            return ChooseFirstPlayer(rng.choice(p.players))
        if p.kind in ("deal", "recycle"):
            order = list(p.data["cards"])
            rng.shuffle(order)
            return Shuffle(tuple(order))
        raise RuleError("wrong_decision", f"the pending decision {p.kind!r} is not a chance outcome")

    # --- acting ---------------------------------------------------------------------------------
    def apply(self, action: Action) -> list[Event]:
        """Perform ``action``; return the events it caused. Raises RuleError, changing nothing."""
        pending = self.decision
        answer = self.rules.answers.get((pending.kind, type(action)))
        if answer is None:
            if pending.kind == "game_over":
                raise RuleError("nothing_pending", "the game is over")
            if isinstance(action, CallBao):
                raise RuleError("bao_not_allowed", "BAO is called only at the end of one's own turn", "4.1.2")
            raise RuleError("wrong_decision", f"{type(action).__name__} does not answer a {pending.kind!r} decision")
        validate, perform = answer
        validate(self, action)
        self.events = []
        perform(self, action)
        if self.state.pending is pending:  # answered without asking a new decision: carry on
            self.state.pending = None
        self.run()
        return self.events

    # --- used by the rule modules ---------------------------------------------------------------
    def emit(self, kind: str, clause: str, ruling: str | None = None, also: tuple[str, ...] = (), **data: Any) -> None:
        """Record an event governed by ``clause`` (and the clauses in ``also``, and ``ruling``).

        Its kind and fields must be in the spec's vocabulary (what engines and scenarios are told exists).
        """
        shape = (kind, *data)
        if shape not in _CHECKED_EVENTS:
            default_spec().vocabulary.check_event(kind, data)
            _CHECKED_EVENTS.add(shape)
        self.events.append(Event(kind, clause, data, ruling, tuple(also)))

    def ask(self, kind: str, player: int | None = None, players: tuple[int, ...] = (),
            **data: Unpack[DecisionData]) -> None:
        """Stop the agenda: the game now waits for this decision."""
        self.state.pending = Decision(kind, player, players, data)

    def then(self, *steps: agenda.Step) -> None:
        """Run ``steps`` next, in the given order, before anything already on the agenda."""
        self.state.agenda.extend(reversed(steps))

    def run(self) -> None:
        """Run agenda steps until one asks for a decision."""
        s, steps = self.state, self.rules.steps
        while s.pending is None:
            step = s.agenda.pop()
            steps[step.name](self, *step.args())

    def require(self, ok: bool, code: str, message: str, clause: str | None = None) -> None:
        if not ok:
            raise RuleError(code, message, clause)

    def require_player(self, action: Action) -> None:
        """The action's player must be the one the pending decision waits for."""
        p, player = self.decision, getattr(action, "player", None)
        if player != p.player:
            raise RuleError("not_your_decision",
                            f"the game waits for player {p.player}'s {p.kind!r} decision, not player {player}'s")

    def check_target(self, target: Target, clause: str) -> str:
        """A target must name a card in a slot: ``(owner, slot)`` of a player of this round."""
        if not (isinstance(target, tuple) and len(target) == 2 and isinstance(target[0], int)
                and isinstance(target[1], int)):
            raise RuleError("malformed_action", f"a target is (player, slot), not {target!r}")
        card = self.state.card_at(target) if target[0] in self.state.zones else None
        if card is None:
            raise RuleError("illegal_target", f"player {target[0]} has no card in slot {target[1]}", clause)
        return card

    # --- reading ------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The canonical state (see spec/schemas/state.schema.json)."""
        return canonical.state_to_json(self)

    @classmethod
    def from_json(cls, data: dict[str, Any], params: Params | None = None, catalog: Catalog | None = None,
                  variants: Sequence[Variant] = ()) -> Game:
        """Set up the exact position a canonical state describes, under the rules ``variants`` change.

        A state that is no position of the game (``baobei_spec.position.check_position``: the one validator) is a
        RuleError ``malformed_state`` naming the field and why; ``to_json()`` gives an accepted state back."""
        params, catalog = params or default_params(), catalog or default_catalog()
        try:
            canonical.check_once(data, canonical.position_rules(params, catalog))
        except MalformedState as exc:
            raise RuleError("malformed_state", str(exc)) from None
        return canonical.state_from_json(partial(cls, variants=variants), data, params, catalog)

    def view(self, player: int) -> dict[str, Any]:
        """The state as ``player`` may know it: unseen hidden cards are anonymous."""
        return self.rules.view(self, player)
