"""``baobei-ref serve``: the reference interpreter as a protocol engine on stdin/stdout.

Any engine can be wrapped the same way: ``serve(engine_factory)`` answers every command of the
protocol (commands.py) with an object that has the runner's engine methods; its ``info`` and
``capabilities`` are what hello announces.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Callable

from baobei_conform import signals
from baobei_conform.protocol import PROTOCOL_VERSION
from baobei_conform.protocol.position import Malformed, check_position
from baobei_conform.runner.engine import ReferenceEngine
from baobei_conform.wire import encode, loads
from baobei_ref import RuleError


class Log:
    """How the served game came to be (its setup or new game, the actions accepted since), to rebuild it
    when a request fails half-way: a request that is not accepted never changes the state."""

    def __init__(self) -> None:
        self.origin: tuple | None = None
        self.accepted: list[dict] = []

    def start(self, *origin) -> None:
        self.origin, self.accepted = origin, []

    def rebuild(self, engine) -> None:
        if self.origin is None:
            return
        kind, *args = self.origin
        getattr(engine, kind)(*args)
        for action in self.accepted:
            engine.apply(action)


def _setup(engine, request: dict, log: Log) -> dict:
    """Adopt a position after checking it is one (position.py, then the reference's own card count)."""
    state, params = request["state"], request.get("params")
    try:
        check_position(state, engine.catalog.species_by_card, engine.params.min_players, engine.params.max_players)
        engine.setup(state, params)
    except (Malformed, RuleError) as exc:
        return {"ok": False, "error": {"code": "malformed_state", "message": str(exc)}}
    log.start("setup", state, params)
    return {"ok": True}


def _apply(engine, request: dict, log: Log) -> dict:
    try:
        events, code = engine.apply(request["action"])
    except Exception:
        log.rebuild(engine)  # the reference failed half-way (a position it cannot play on): undo
        raise
    if code is not None:
        return {"ok": False, "error": {"code": code}}
    log.accepted.append(request["action"])
    return {"ok": True, "events": events}


def handle(engine, request: dict, log: Log | None = None) -> dict:
    """One request -> one reply (without seq)."""
    log = log or Log()
    cmd = request.get("cmd")
    if cmd == "hello":
        if str(request.get("protocol", "")).split(".")[0] != PROTOCOL_VERSION.split(".")[0]:
            return {"ok": False, "error": {"code": "protocol_version", "message": f"speaks {PROTOCOL_VERSION}"}}
        engine.configure(request.get("params"))
        reply = {"ok": True, "engine": dict(engine.info), "capabilities": sorted(engine.capabilities)}
        if getattr(engine, "readings", None):
            reply["readings"] = engine.readings  # rulings read otherwise than adopted (docs/protocol.md 3.1)
        return reply
    if cmd == "setup":
        return _setup(engine, request, log)
    if cmd == "new_game":
        code = engine.new_game(request["players"])
        if code is not None:
            return {"ok": False, "error": {"code": code, "message": f"no game for {request['players']} players"}}
        log.start("new_game", request["players"])
        return {"ok": True}
    if cmd == "apply":
        return _apply(engine, request, log)
    if cmd == "state":
        return {"ok": True, "state": engine.state()}
    if cmd == "view":
        return {"ok": True, "view": engine.view(request["player"])}
    if cmd == "legal_actions":
        return {"ok": True, "actions": engine.legal_actions()}
    if cmd == "stop":
        return {"ok": True}
    return {"ok": False, "error": {"code": "unsupported", "message": f"unknown command {cmd!r}"}}


def _answer(engine, line: bytes | str, log: Log | None = None) -> tuple[bytes, bool]:
    """The reply line to one request line, and whether it was ``stop``."""
    request: dict = {}
    try:
        parsed = loads(line)
        if not isinstance(parsed, dict):
            raise ValueError("a request is a JSON object")
        request = parsed
        reply = handle(engine, request, log)
    except Exception as exc:  # a bad request must be answered, not crash the engine
        reply = {"ok": False, "error": {"code": "engine_error", "message": f"{type(exc).__name__}: {exc}"}}
    reply["seq"] = request.get("seq")
    return encode(reply), request.get("cmd") == "stop"


def _batches(stdin):
    """Lists of request lines as they arrive: every complete line already sent is answered together."""
    try:
        fd = stdin.fileno()
    except (AttributeError, OSError, io.UnsupportedOperation):
        for line in stdin:
            yield [line]
        return
    buffer = b""
    while True:
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            if buffer.strip():
                yield [buffer]
            return
        *lines, buffer = (buffer + chunk).split(b"\n")
        if lines:
            yield lines  # bytes: json.loads reads UTF-8 itself


def serve(factory: Callable = ReferenceEngine, stdin=None, stdout=None) -> int:
    """Answer requests until ``stop`` or end of input; replies to pipelined requests go out in one write."""
    stdin, stdout = stdin or sys.stdin, stdout or sys.stdout
    out = getattr(stdout, "buffer", None)  # write bytes straight to a real stdout
    engine, log = factory(), Log()
    for lines in _batches(stdin):
        replies, stop = [], False
        for line in lines:
            if line.strip():
                reply, stop = _answer(engine, line, log)
                replies.append(reply)
                if stop:
                    break
        data = b"".join(replies)
        if out is not None:
            out.write(data)
            out.flush()
        else:
            stdout.write(data.decode())
            stdout.flush()
        if stop:
            break
    return 0


def main(argv: list[str] | None = None) -> int:
    """``baobei-ref serve``; SIGINT and SIGTERM end it quietly (exit 130, 143: signals.py), as the end of input does."""
    import argparse

    parser = argparse.ArgumentParser(prog="baobei-ref", description="The BAO BEI reference interpreter")
    sub = parser.add_subparsers(dest="command", required=True)
    serve_parser = sub.add_parser("serve", help="answer the engine protocol on stdin/stdout")
    serve_parser.add_argument("--reading", action="append", default=[], metavar="R-05=A",
                              help="follow this reading of a ruling instead of the adopted one (declared in hello)")
    args = parser.parse_args(argv)
    readings = dict(r.split("=", 1) for r in args.reading if "=" in r)
    if len(readings) != len(args.reading):
        parser.error("--reading takes RULING=READING, e.g. R-05=A")
    with signals.handled():
        try:
            return serve(lambda: ReferenceEngine(readings))
        except KeyboardInterrupt:
            return signals.exit_code()


if __name__ == "__main__":
    sys.exit(main())
