"""Where random play starts: new games, every scenario's setup, and positions reached by seeded play.

A start that is not a new game is always a DSL ``setup`` block compiled by the scenario compiler, so
the position an engine is fuzzed from is exactly the one a reproducer scenario will set up.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from baobei_conform.dsl.compile import compile_script
from baobei_conform.dsl.errors import ScenarioError
from baobei_conform.dsl.parse import parse_script
from baobei_conform.fuzz.choices import Seeded
from baobei_conform.fuzz.dsl_text import representable, setup_text
from baobei_conform.fuzz.policy import choose
from baobei_conform.suite.cache import compiled_cache
from baobei_ref import Game


@dataclass(frozen=True)
class Start:
    """A new game of ``players`` (``setup`` empty) or a setup block with its compiled step."""

    players: int
    setup: str = ""
    step: dict | None = None

    def script(self) -> str:
        return self.setup if self.setup else f"new game {self.players} players"


def compiled(setup: str) -> Start:
    """The start a setup block gives, compiled once (cache.py: every fuzzing run starts from every scenario's)."""
    step = compiled_cache().compiled("fuzz start", setup.encode("utf-8", "surrogateescape"), lambda: _step(setup),
                                     lambda step: {"step": step}, lambda entry: dict(entry["step"]))
    return Start(len(step["state"]["zones"]), setup, step)


def _step(setup: str) -> dict:
    (step,) = compile_script(parse_script(setup))
    return step


def played_position(seed: int, actions: int, players: int, threshold: int | None, bao_percent: int) -> Start:
    """The first representable position after ``actions`` actions of seeded play from a new game."""
    choices = Seeded(seed)
    g = Game(players=players)
    done = 0
    while g.pending.kind != "game_over":
        if done >= actions and g.pending.kind == "turn" and representable(state := g.to_json()):
            if threshold is not None:  # a game still going has every score below its threshold (5.3.2, line 198)
                threshold = max(threshold, max(state["scores"].values()) + 1)
            return compiled(setup_text(state, threshold))
        g.apply(choose(g, choices, bao_percent))
        done += 1
    return Start(players)


@lru_cache(maxsize=1)
def load_corpus(paths: tuple[str, ...]) -> tuple[tuple[Start, ...], tuple[ScenarioError, ...]]:
    """The setup position of every scenario under ``paths`` that starts from one (rewritten canonically), and the
    errors of the files that do not load: read as a run and ``lint`` read them (harness.load_suite)."""
    from baobei_conform.harness.run import Selection, load_suite

    scenarios, broken = load_suite(list(paths), Selection())
    starts = []
    for scenario in scenarios:
        step = scenario.steps[0]
        if step["op"] == "setup" and representable(step["state"]):
            threshold = (step.get("params") or {}).get("threshold", {})
            starts.append(compiled(setup_text(step["state"], next(iter(threshold.values()), None))))
    return tuple(starts), tuple(broken)


def corpus(paths: tuple[str, ...]) -> tuple[Start, ...]:
    """The starts of ``load_corpus``."""
    return load_corpus(paths)[0]
