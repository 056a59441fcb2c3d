"""One game of differential (or invariant-only) play on an engine, driven by Hypothesis draws.

``Trial.play(data)`` sets the engine up at a start position, then, action after action, plays the
policy's choice on the reference and on the engine together and checks everything the engine must
get right (``compare``). The first problem raises ``Found``, which Hypothesis shrinks; ``Trial.replay``
plays a given action list the same way (to tighten a found failure to a short scenario).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from baobei_conform.engines.api import Call, EngineProblem, ProtocolError, as_engine
from baobei_conform.engines.commands import COMMANDS
from baobei_conform.engines.reference import params_with
from baobei_conform.fuzz import compare
from baobei_conform.fuzz.choices import Choices
from baobei_conform.fuzz.dsl_text import action_text
from baobei_conform.fuzz.policy import BAO_EAGERNESS, choose, near_miss
from baobei_conform.fuzz.positions import Start, played_position
from baobei_conform.runner import agreement
from baobei_conform.runner.diff import first_difference
from baobei_conform.runner.driver import Run, checked, drive_all
from baobei_conform.runner.run import StepFailed, resolve_shuffle
from baobei_ref import Game, RuleError, action_from_json, default_catalog
from baobei_ref.actions import Action, ChooseFirstPlayer, Shuffle
from baobei_spec.contract import action_key

if TYPE_CHECKING:  # imported when first needed (it reads the protocol's schemas)
    from baobei_conform.protocol.validate import MessageValidator

MAX_ACTIONS = 5000  # per example, a safety net: games run to their end
MAX_ALONE = 400  # per example without the reference: the engine lists every legal action at every step
WARM_UP = 2000  # at most this many actions of seeded play before a start position
THRESHOLDS = (None, 15, 30)  # the game-end threshold of a start position: the rulebook's, or low to end games


class Found(Exception):
    """A problem, with everything needed to replay it: the start, the actions, the near miss if any."""

    def __init__(self, problem: compare.Problem, start: Start, actions: list[Action], clauses: list[str],
                 probe: Action | None = None, code: str | None = None):
        super().__init__(problem.message)
        self.problem, self.start, self.actions, self.clauses = problem, start, actions, clauses
        self.probe, self.code = probe, code


@dataclass
class Coverage:
    """What the search exercised: the clauses the reference cited, the actions played, the examples, and how often
    each action type was tried at each decision (played or probed) and each refusal code answered a probe."""

    clauses: set[str] = field(default_factory=set)
    actions: int = 0
    examples: int = 0
    failed_at: float | None = None  # seconds into the search when a game first failed (shrinking comes after)
    tried: Counter[tuple[str, str]] = field(default_factory=Counter)  # (decision kind, action type) -> times
    refusals: Counter[str] = field(default_factory=Counter)  # code -> probes refused with it (the reference's)

    def add(self, decision: str, action: dict, code: str | None = None) -> None:
        """One action tried at a ``decision`` of that kind; ``code``: the refusal it got, if any."""
        self.tried[(decision, str(action.get("type")))] += 1
        if code is not None:
            self.refusals[code] += 1

    def merge(self, other: Coverage) -> None:
        """Add ``other``'s (another job's) to this one."""
        self.clauses |= other.clauses
        self.actions += other.actions
        self.examples += other.examples
        self.tried.update(other.tried)
        self.refusals.update(other.refusals)
        if other.failed_at is not None and (self.failed_at is None or other.failed_at < self.failed_at):
            self.failed_at = other.failed_at


def _value(result):
    if isinstance(result, Exception):
        raise result
    return result


def chance(pending: dict, choices) -> Action:
    """A chance outcome for an engine's pending chance decision, read from its canonical state."""
    if pending["kind"] == "first_player":
        return ChooseFirstPlayer(choices.pick(pending["players"]))
    order = list(pending["data"]["cards"])
    random.Random(choices.below(1 << 16)).shuffle(order)
    return Shuffle(tuple(order))


WEIGHTS = {"draw": 6, "keep": 4, "discard": 3, "close_window": 8, "end_turn": 100}


def by_type(legal: list[dict], bao_percent: int, state: dict) -> list[tuple[int, list[dict]]]:
    """An engine's legal actions grouped by type and weighted like the policy (BAO by eagerness); plucks on a card
    of the reference's species (read from the engine's own state) apart, as they succeed."""
    reference = state.get("drawn") if state["pending"]["kind"] == "drawn" else state.get("top")
    bird = reference.rsplit("-", 1)[0] if isinstance(reference, str) else None
    species = {(int(p), i): c["species"] for p, zone in state["zones"].items() for i, c in enumerate(zone, 1) if c}
    groups: dict[str, list[dict]] = {}
    for action in legal:
        kind = str(action.get("type"))
        if kind == "pluck" and all(species.get(tuple(t)) == bird for t in action.get("targets") or [()]):
            kind = "matching pluck"
        groups.setdefault(kind, []).append(action)
    weight = {**WEIGHTS, "call_bao": bao_percent, "matching pluck": 4, "pluck": 1}
    ordered = sorted(groups.items(), key=lambda kv: -weight.get(kv[0], 2))  # the plainest group shrinks first
    return [(weight.get(kind, 2), group) for kind, group in ordered]


NOT_AN_ACTION = (RuleError, KeyError, TypeError, ValueError)  # what action_from_json raises for what is no action


def malformed(legal) -> str | None:
    """What is wrong with an engine's ``legal_actions`` answer, when it is not a list of actions of the protocol
    (the search plays from it: such an answer is the engine's problem, not the harness's crash)."""
    if not isinstance(legal, list):
        return f"legal_actions answers a {type(legal).__name__}, not a list of actions"
    for action in legal:
        try:
            action_from_json(action)
        except NOT_AN_ACTION as exc:
            return f"legal_actions lists {repr(action)[:200]}, which is not an action: {exc}"
    return None


def names_empty_slot(action: dict, state: dict) -> bool:
    """Whether a listed action (JSON) names a slot that is empty in the engine's own state: its player's ``slot``
    or a target. Such actions are tried first in play without the reference: an engine that lists them and
    refuses them (or accepts what it should not) misreads what an empty position allows (2.5.2, 2.8.1)."""
    zones = state.get("zones")
    if not isinstance(action, dict) or not isinstance(zones, dict):  # the engine's own list and state: anything
        return False
    named: list[Any] = [(action.get("player"), action["slot"])] if isinstance(action.get("slot"), int) else []
    named += [action[k] for k in ("target", "first", "second") if isinstance(action.get(k), list)]
    named += [t for t in action.get("targets") or () if isinstance(t, list)]
    for owner, slot in (t for t in named if len(t) == 2):
        zone = zones.get(str(owner))
        if isinstance(zone, list) and isinstance(slot, int) and (not 1 <= slot <= len(zone) or zone[slot - 1] is None):
            return True
    return False


def shaped(events: list) -> bool:
    """Events as the protocol's schema has them: objects with a string ``kind`` and, if given, a string ``clause``."""
    return all(isinstance(e, dict) and isinstance(e.get("kind"), str) and isinstance(e.get("clause", ""), str)
               for e in events)


def _text(action: Action | dict) -> str:
    return action_text(action, lambda card: card.rsplit("-", 1)[0])


def _texts(actions: list) -> list[str]:
    """DSL statements for the actions (JSON); one no statement writes (an engine may list malformed ones) is raw."""
    return [_text(action) for action in actions]


def _type(action) -> str:
    """An action's type, for grouping problems (whatever an engine listed)."""
    kind = action.get("type") if isinstance(action, dict) else None
    return kind if isinstance(kind, str) else "not an action"


def species_order(action: Shuffle) -> list[str]:
    return [card.rsplit("-", 1)[0] for card in action.order]


class Trial:
    """Plays examples on one engine; ``differential`` compares with the reference after every action."""

    def __init__(self, engine, starts: tuple[Start, ...] = (), players=(2, 3, 4, 5, 6), differential: bool = True,
                 coverage: Coverage | None = None):
        engine = as_engine(engine)
        self.engine, self.starts, self.players, self.differential = engine, starts, players, differential
        self.ending = tuple(s for s in starts if s.step and s.step["state"]["final_phase"]
                            and s.step["state"]["last_turns"] is not None)  # a round's last turns (7.2)
        caps = set(getattr(engine, "capabilities", ()))
        self.views, self.events, self.legal = "views" in caps, "events" in caps, "legal_actions" in caps
        self.catalog_cards = list(default_catalog().cards)
        self.coverage = coverage or Coverage()
        self.start: Start | None = None
        self.played: list[Action] = []
        self.final: dict = {}
        self.now: dict | None = None  # the reference's canonical state after the last action played, if computed
        self.answered: tuple[list[Call], list[Any]] = ([], [])  # the calls and results of the answers being read now
        self._validator: MessageValidator | None = None

    # --- the start ---
    def draw_start(self, choices: Choices) -> Start:
        """A position reached by seeded play (shrinks to the first turn), a scenario's setup, or a new game."""
        kind = choices.below(3)
        players = choices.pick(self.players)
        if kind == 0 or (kind == 1 and not self.starts):
            threshold = choices.pick(THRESHOLDS)
            actions = choices.below(WARM_UP)
            return played_position(choices.below(1 << 16), actions, players, threshold, choices.pick(BAO_EAGERNESS))
        if kind == 1:  # half the time a round's last turns: rounds end there, and games, ties and decisive rounds
            pool = self.ending if self.ending and choices.below(2) else self.starts
            return pool[choices.below(len(pool))]
        return Start(players)

    def _begun(self) -> Start:
        """The start being played (``begin`` sets it before anything is played or found)."""
        if self.start is None:
            raise RuntimeError("the trial has not begun")
        return self.start

    def begin(self, start: Start) -> Game:
        """Set the engine up at ``start``; the reference's game there."""
        self.start, self.played, self.now = start, [], None
        if start.step is None:
            _value(self.engine.batch([("new_game", start.players)])[0])
            return Game(players=start.players)
        step = start.step
        _value(self.engine.batch([("setup", step["state"], step.get("params"))])[0])
        return Game.from_json(step["state"], params=params_with(step.get("params")))

    # --- playing ---
    def play(self, data) -> None:
        """One Hypothesis example: a start, then the policy's choices to the end of the game."""
        choices = Choices(data)
        self.coverage.examples += 1
        self._guarded(lambda: self._play(choices))

    def replay(self, start: Start, actions: list[Action], probe: Action | None = None) -> None:
        """Play ``actions`` from ``start`` with every check; raises Found."""
        def run():
            ref = self.begin(start)

            def checks():
                for action in actions:
                    yield self._step(ref, action)
                if probe is not None and (refusal := self._refusal(ref, probe)) is not None:
                    yield self._probe(probe, *refusal, ref.to_json())
            drive_all(checks(), self.engine)
            self._replay_whole()  # determinism too: a problem of it is tightened like any other
        self._guarded(run)

    def _guarded(self, run) -> None:
        try:
            try:
                run()
            except (TypeError, KeyError, AttributeError, IndexError, ValueError):  # reading the engine's answers
                unshaped = self._unshaped()
                if unshaped is None:  # they keep the protocol: the harness's own error
                    raise
                raise unshaped from None
        except EngineProblem as exc:  # a crash, a timeout, garbage: a problem like any other
            raise Found(compare.Problem("error", f"the engine failed: {exc.message}"), self._begun(),
                        list(self.played), []) from None

    def _unshaped(self) -> ProtocolError | None:
        """The first answer being read that breaks the protocol's schema (a state that is no canonical state, a view
        or an event that is no object...), as the validator words it; None when they all keep it. Checked only once
        reading them failed: validating every answer would cost more than the rest of a step."""
        if self._validator is None:
            from baobei_conform.protocol.validate import MessageValidator

            self._validator = MessageValidator()
        for (cmd, *_), result in zip(*self.answered, strict=True):
            field = COMMANDS[cmd].result
            if isinstance(result, Exception) or field is None:
                continue
            if cmd == "apply":
                result = result[0]  # the events (a refusal carries none)
            try:
                self._validator.check_reply(cmd, {"ok": True, field: result, "seq": 1}, "")
            except ProtocolError as exc:
                return exc
        return None

    def _play(self, choices: Choices) -> None:
        ref = self.begin(self.draw_start(choices))
        bao = choices.pick(BAO_EAGERNESS)
        if not self.differential:
            return self._play_alone(choices, bao)

        def checks():  # played on the reference as the driver asks for more: ahead of the engine's answers
            for _ in range(MAX_ACTIONS):
                if ref.pending.kind == "game_over":
                    break
                action = choose(ref, choices, bao)
                if ref.pending.kind not in compare.CHANCE and choices.below(10) == 9:
                    now = self.now or ref.to_json()  # the policy only reads the game: the last state still holds
                    wrong = near_miss(action, random.Random(choices.below(1 << 16)), now)
                    if (refusal := self._refusal(ref, wrong, now)) is not None:
                        yield self._probe(wrong, *refusal, now)
                yield self._step(ref, action)
        drive_all(checks(), self.engine)
        self._replay_whole()

    def _play_alone(self, choices: Choices, bao: int) -> None:
        """Without the reference: the engine's own legal actions drive the game; its invariants are checked."""
        state = _value(self.engine.batch([("state",)])[0])
        for _ in range(MAX_ALONE):
            self.answered = ([("state",)], [state])  # whichever answer it came from (a step, an accepted near miss)
            pending = state["pending"]
            if pending["kind"] == "game_over":
                break
            legal = None
            if pending["kind"] in compare.CHANCE:
                action = chance(pending, choices)
            else:
                legal = _value(self.engine.batch([("legal_actions",)])[0])
                self.answered = ([("state",), ("legal_actions",)], [state, legal])
                if not legal:
                    self._found(compare.Problem("legal_actions", f"legal_actions lists nothing for the pending "
                                                                 f"{pending['kind']!r} decision"))
                if (wrong_list := malformed(legal)) is not None:
                    self._found(compare.Problem("legal_actions", wrong_list))
                action = action_from_json(choices.weighted(by_type(legal, bao, state)))
                # Another listed action must be accepted too (then the state is set back); those naming an empty slot
                # first, where a list and apply part ways.
                suspects = [a for a in legal if names_empty_slot(a, state)]
                if suspects and choices.below(2) == 1 or choices.below(5) == 4:
                    self._try_listed(action_from_json(choices.pick(suspects or legal)), state)
                if choices.below(10) == 9:
                    wrong = near_miss(action, random.Random(choices.below(1 << 16)), state)
                    if (moved := self._probe_alone(wrong, legal, state)) is not None:
                        state = moved
                        continue
            state = self._step_alone(action, legal, pending["kind"])
        self._replay_whole()

    @staticmethod
    def _resolve(species: list[str], ref: Game) -> list[str]:
        try:
            return resolve_shuffle(species, ref.to_json())
        except StepFailed as exc:
            raise AssertionError(f"cannot replay a shuffle: {exc.message}") from None

    @staticmethod
    def _refusal(ref: Game, action: Action, now: dict | None = None) -> tuple[str, str | None] | None:
        """(code, clause) when the reference refuses ``action`` (it never changes the state then); ``now``: the
        reference's canonical state, if at hand."""
        try:
            Game.from_json(now or ref.to_json(), ref.params, ref.catalog).apply(action)
        except RuleError as exc:
            return exc.code, exc.clause
        return None

    def _found(self, problem: compare.Problem, clauses=(), probe: Action | None = None, code: str | None = None,
               upto: int | None = None):
        played = self.played if upto is None else self.played[:upto]
        raise Found(problem, self._begun(), list(played), list(clauses), probe, code)

    def _probe(self, wrong: Action, code: str, clause: str | None, now: dict | None = None) -> Run[None]:
        """A near miss the reference refuses must be refused with the same code, the state unchanged. (The clause of
        the refusal counts as exercised, as it does for the suite: the report's coverage.) ``now``: the
        reference's canonical state, the engine's before and after."""
        upto, clauses = len(self.played), [clause] if clause else []
        self.coverage.clauses.update(clauses)
        if now is not None:
            self.coverage.add(now["pending"]["kind"], wrong.to_json(), code)

        def check(results: list) -> None:
            before, applied, after = (_value(r) for r in results)
            if applied[1] != code:
                answer = "accepted it" if applied[1] is None else f"answered {applied[1]!r}"
                self._found(compare.Problem("probe", f"{wrong.to_json()} must be refused with {code!r}; the engine "
                                                     f"{answer}", where=f"{_type(wrong.to_json())} {code}"),
                            clauses, wrong, code, upto)
            if after != before:
                self._found(compare.Problem("probe", f"the refused {wrong.to_json()} changed the engine's state: "
                                            + first_difference(before, after),
                                            where=f"{_type(wrong.to_json())} changes the state"),
                            clauses, wrong, code, upto)
        return checked([("state",), ("apply", wrong.to_json()), ("state",)], check)

    def _probe_alone(self, wrong: Action, legal: list[dict], before: dict) -> dict | None:
        """A near miss the engine accepts must be one it lists (the new state is returned: the game goes on from
        there); one it refuses must leave its state unchanged."""
        applied, after = (_value(r) for r in self.engine.batch([("apply", wrong.to_json()), ("state",)]))
        self.coverage.add(before["pending"]["kind"], wrong.to_json(), applied[1])
        if applied[1] is None and wrong.to_json() not in legal:
            self._found(compare.Problem("legal_actions", f"apply accepts {wrong.to_json()}, which legal_actions "
                                                         "does not list", [f"expect legal {_text(wrong)}"],
                                        f"missing {_type(wrong.to_json())}"))
        if applied[1] is None:
            self.played.append(wrong)
            self.final = after
            return after
        if after != before:
            self._found(compare.Problem("probe", f"the refused {wrong.to_json()} changed the engine's state: "
                                        + first_difference(before, after),
                                        where=f"{_type(wrong.to_json())} changes the state"),
                        probe=wrong, code=applied[1])
        return None

    def _try_listed(self, action: Action, state: dict) -> None:
        """A listed action must be accepted; the engine is then set back to ``state`` (its own canonical state)."""
        applied, _, back = self.engine.batch([("apply", action.to_json()), ("setup", state, self._params()),
                                                 ("state",)])
        if _value(applied)[1] is not None:
            message = f"legal_actions lists {action.to_json()}, but apply refuses it with {applied[1]!r}"
            self._found(compare.Problem("legal_actions", message, [f"expect not legal {_text(action)}"],
                                        f"extra {_type(action.to_json())}"))
        self._set_up_again(state, _value(back))

    def _params(self) -> dict | None:
        return (self.start.step or {}).get("params") if self.start else None

    def _step_alone(self, action: Action, legal: list[dict] | None, decision: str) -> dict:
        self.coverage.add(decision, action.to_json())
        results = self.engine.batch([("apply", action.to_json()), ("state",)])
        applied, state = _value(results[0]), _value(results[1])
        # A refusal first: it carries no events (None), so there is no shape to check.
        if applied[1] is not None and legal is None:
            self._found(compare.Problem("refused", f"the engine refused the chance outcome {action.to_json()}",
                                        where=_type(action.to_json())))
        if applied[1] is not None:  # the reproducer states the rules' answer: it passes on the reference
            message = f"legal_actions lists {action.to_json()}, but apply refuses it with {applied[1]!r}"
            self._found(compare.Problem("legal_actions", message, [f"expect not legal {_text(action)}"],
                                        f"extra {_type(action.to_json())}"))
        if self.events and not shaped(applied[0]):  # nothing to compare them with: their shape is checked
            self.answered = ([("apply", action.to_json())], [applied])
            if (unshaped := self._unshaped()) is None:
                raise AssertionError(f"events judged unshaped keep the schema: {applied[0]!r}")
            self._found(compare.Problem("events", unshaped.message))
        self.played.append(action)
        self.coverage.actions += 1
        players = state["players"] if self.views else []
        views = [_value(v) for v in self.engine.batch([("view", p) for p in players])]
        self.answered = ([("state",), *(("view", p) for p in players)], [state, *views])
        problems = compare.conservation(state, self.catalog_cards)
        for player, view in zip(players, views, strict=True):
            problems += compare.view_secrecy(state, player, view)
        if problems:
            self._found(problems[0])
        self.final = state
        return state

    def _step(self, ref: Game, action: Action) -> Run[None]:
        """Play ``action`` on the reference now; the run that plays it on the engine and checks the engine's answers
        against the reference's as they arrive."""
        if isinstance(action, Shuffle):  # cards of a species in the order a scenario's shuffle names them
            action = Shuffle(tuple(self._resolve(species_order(action), ref)))
        self.coverage.add(ref.pending.kind, action.to_json())
        events = [e.to_json() for e in ref.apply(action)]
        self.played.append(action)
        upto = len(self.played)
        clauses = [c for e in events for c in (e["clause"], *e.get("also", ()))]
        self.coverage.clauses.update(clauses)
        self.coverage.actions += 1
        players = ref.state.players if self.views else []
        expected = self.now = ref.to_json()
        views = [ref.view(p) for p in players]
        listed = agreement.listed(ref) if self.legal else None
        calls: list[Call] = [("apply", action.to_json()), ("state",), *(("view", p) for p in players)]
        if listed is not None:
            calls.append(("legal_actions",))

        def check(results: list) -> None:
            applied = _value(results[0])
            self.answered = (calls, results)  # read below; made sense of only if reading them fails (_unshaped)
            if applied[1] is not None:
                self._found(compare.Problem("refused", f"the engine refused {action.to_json()} with {applied[1]!r}; "
                                                       "the reference accepts it", where=_type(action.to_json())),
                            clauses, upto=upto)
            state = self.final = _value(results[1])
            problems = self._differences(events, applied[0] or [], expected, state, players, views,
                                         [_value(v) for v in results[2:2 + len(players)]])
            if listed is not None:
                problems += self.legal_problems({action_key(a): a for a in listed}, _value(results[-1]))
            if problems:
                self._found(problems[0], clauses, upto=upto)
        return checked(calls, check)

    def _differences(self, events, engine_events, expected, state, players, views, engine_views) -> list:
        """What the engine's answers to one action get wrong, the reference's being right (what must agree:
        runner/agreement.py)."""
        problems = []
        parted = compare.events_problem(events, engine_events) if self.events and engine_events != events \
            else None  # events equal as JSON agree on every compared field
        if parted is not None:
            problems.append(parted)
        if agreement.state(expected, state) is not None:
            problems.append(compare.state_problem(expected, state))
        for player, want, view in zip(players, views, engine_views, strict=True):
            if agreement.view(player, want, view) is not None:
                problems.append(compare.view_problem(player, want, view))
        return problems

    @staticmethod
    def legal_problems(want: dict[bytes, dict], listed) -> list[compare.Problem]:
        """The engine's legal actions against the reference's as sets (``want``: ``action_key`` -> action)."""
        if agreement.legal_actions(list(want.values()), listed) is None:
            return []
        got = {action_key(a): a for a in listed} if isinstance(listed, list) else {}
        extra = [got[k] for k in sorted(got.keys() - want.keys())]
        missing = [want[k] for k in sorted(want.keys() - got.keys())]
        lines = [f"expect not legal {line}" for line in _texts(extra)] + [f"expect legal {line}"
                                                                          for line in _texts(missing)]
        message = (f"legal_actions lists {extra[:3]}, which the rules refuse" if extra else
                   f"legal_actions omits {missing[:3]}")
        where = f"extra {_type(extra[0])}" if extra else f"missing {_type(missing[0])}" if missing else "not a list"
        return [compare.Problem("legal_actions", message, lines[:4], where)]

    def _replay_whole(self) -> None:
        """Determinism and the setup round trip: the same actions from the same start give the same state,
        and setting up the engine's own final state gives it back."""
        start, played = self._begun(), list(self.played)
        if not played:
            return
        self.begin(start)
        self.played = played
        results = self.engine.batch([("apply", a.to_json()) for a in played] + [("state",)])
        refused = [i for i, r in enumerate(results[:-1]) if isinstance(r, Exception) or r[1] is not None]
        if refused or _value(results[-1]) != self.final:
            where = f"action {refused[0] + 1} was refused" if refused else first_difference(
                self.final, _value(results[-1]))
            self._found(compare.Problem("determinism", "replaying the same actions from the same start gave "
                                                       f"another game: {where}", ["replay"]))
        back = self.engine.batch([("setup", self.final, (start.step or {}).get("params")), ("state",)])
        self._set_up_again(self.final, _value(back[1]))

    def _set_up_again(self, state: dict, back) -> None:
        """``back``, the engine's state once set up at its own ``state``, must be ``state``. The problem starts from
        that state set up raw (``setup raw JSON``), so its reproducer states it whatever the position."""
        if back == state:
            return
        start = Start(len(state.get("zones") or {}), "setup raw " + json.dumps(state, ensure_ascii=False),
                      {"op": "setup", "state": state, "params": self._params()})
        raise Found(compare.setup_problem(state, back), start, [], [])
