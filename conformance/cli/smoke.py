"""``baobei-conform smoke ENGINE``: in about a second, is the engine wired up at all? The handshake, a
setup/state round trip, a legal action, and an illegal one refused with the right code and no change."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from baobei_conform.dsl.compile import compile_script
from baobei_conform.dsl.parse import parse_script
from baobei_conform.engines.api import Engine
from baobei_conform.engines.reference import ReferenceEngine
from baobei_conform.runner.diff import first_difference

TABLE = """\
setup
  zone p0: owl heron sparrow eagle _
  zone p1: sparrow swallow kingfisher hummingbird _
  deck: swallow
  discard: eagle
  active p0
end
"""
DRAW = {"type": "draw", "player": 0}
OUT_OF_TURN = {"type": "draw", "player": 1}


@dataclass
class Check:
    name: str
    ok: bool
    detail: str
    seconds: float


def _table() -> dict:
    return compile_script(parse_script(TABLE))[0]["state"]


def _round_trip(engine: Engine, reference: ReferenceEngine) -> str:
    state = _table()
    engine.setup(state, None)
    reference.setup(state, None)
    mine, theirs = engine.state(), reference.state()
    return "" if mine == theirs else f"the state after setup differs: {first_difference(theirs, mine)}"


def _legal(engine: Engine, reference: ReferenceEngine) -> str:
    _, code = engine.apply(DRAW)
    reference.apply(DRAW)
    if code is not None:
        return f"p0 drawing on their turn was refused with {code!r}" + _said(code)
    mine, theirs = engine.state(), reference.state()
    return "" if mine == theirs else f"after p0 draws: {first_difference(theirs, mine)}"


def _illegal(engine: Engine, reference: ReferenceEngine) -> str:
    before = engine.state()
    _, code = engine.apply(OUT_OF_TURN)
    _, wanted = reference.apply(OUT_OF_TURN)
    if code is None:
        return f"p1 drawing on p0's turn was accepted; it must be refused with {wanted!r}"
    if code != wanted:
        return f"p1 drawing on p0's turn was refused with {str(code)!r}, not {wanted!r}" + _said(code)
    return "" if engine.state() == before else "the refused action changed the state"


def _said(code) -> str:
    return f" (the engine said: {code.message})" if getattr(code, "message", "") else ""


def smoke(factory: Callable[[], Engine]) -> list[Check]:
    """The checks in order; the first that fails ends the list (later ones would only repeat it)."""
    checks: list[Check] = []
    clock = time.perf_counter()
    try:
        engine = factory()
    except Exception as exc:  # noqa: BLE001 - an engine that does not start is the finding
        return [Check("handshake", False, f"the engine does not start: {getattr(exc, 'message', exc)}",
                      time.perf_counter() - clock)]
    info = getattr(engine, "info", None) or {"name": engine.name}
    checks.append(Check("handshake", True, " ".join(str(v) for v in info.values()) + "; capabilities: "
                        + (", ".join(sorted(engine.capabilities)) or "none"), time.perf_counter() - clock))
    reference = ReferenceEngine()
    try:
        for name, step in (("setup/state round trip", _round_trip), ("a legal action", _legal),
                           ("an illegal action refused", _illegal)):
            clock = time.perf_counter()
            try:
                problem = step(engine, reference)
            except Exception as exc:  # noqa: BLE001 - a crash, hang or protocol error is this check's failure
                problem = f"{type(exc).__name__}: {getattr(exc, 'message', exc)}"
            checks.append(Check(name, not problem, problem or "ok", time.perf_counter() - clock))
            if problem:
                break
    finally:
        if hasattr(engine, "stop"):
            engine.stop()
    return checks
