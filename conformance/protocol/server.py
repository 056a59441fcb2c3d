"""``baobei-ref serve``: the reference interpreter as a protocol engine on stdin/stdout.

Any engine can be wrapped the same way: ``serve(engine_factory)`` answers every command of the
protocol with an object that has the runner's engine methods.
"""

from __future__ import annotations

import io
import json
import os
import sys
from collections.abc import Callable

from baobei_conform.protocol import PROTOCOL_VERSION
from baobei_conform.runner.engine import ReferenceEngine

CAPABILITIES = ["views", "legal_actions", "events"]
ENCODE = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode  # compact, one line


def handle(engine, request: dict) -> dict:
    """One request -> one reply (without seq)."""
    cmd = request.get("cmd")
    if cmd == "hello":
        if str(request.get("protocol", "")).split(".")[0] != PROTOCOL_VERSION.split(".")[0]:
            return {"ok": False, "error": {"code": "protocol_version", "message": f"speaks {PROTOCOL_VERSION}"}}
        engine.configure(request.get("params"))
        return {"ok": True, "engine": {"name": engine.name, "version": "0.1.0", "language": "python"},
                "capabilities": CAPABILITIES}
    if cmd == "setup":
        engine.setup(request["state"], request.get("params"))
        return {"ok": True}
    if cmd == "new_game":
        engine.new_game(request["players"])
        return {"ok": True}
    if cmd == "apply":
        events, code = engine.apply(request["action"])
        if code is not None:
            return {"ok": False, "error": {"code": code}}
        return {"ok": True, "events": events}
    if cmd == "state":
        return {"ok": True, "state": engine.state()}
    if cmd == "view":
        return {"ok": True, "view": engine.view(request["player"])}
    if cmd == "legal_actions":
        return {"ok": True, "actions": engine.legal_actions()}
    if cmd == "stop":
        return {"ok": True}
    return {"ok": False, "error": {"code": "unsupported", "message": f"unknown command {cmd!r}"}}


def _answer(engine, line: str | bytes) -> tuple[str, bool]:
    """The reply line to one request line, and whether it was ``stop``."""
    request: dict = {}
    try:
        parsed = json.loads(line)
        if not isinstance(parsed, dict):
            raise ValueError("a request is a JSON object")
        request = parsed
        reply = handle(engine, request)
    except Exception as exc:  # a bad request must be answered, not crash the engine
        reply = {"ok": False, "error": {"code": "engine_error", "message": f"{type(exc).__name__}: {exc}"}}
    reply["seq"] = request.get("seq")
    return ENCODE(reply) + "\n", request.get("cmd") == "stop"


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
    engine = factory()
    for lines in _batches(stdin):
        replies, stop = [], False
        for line in lines:
            if line.strip():
                reply, stop = _answer(engine, line)
                replies.append(reply)
                if stop:
                    break
        text = "".join(replies)
        if out is not None:
            out.write(text.encode())
            out.flush()
        else:
            stdout.write(text)
            stdout.flush()
        if stop:
            break
    return 0


def main(argv: list[str] | None = None) -> int:
    """``baobei-ref serve``."""
    import argparse

    parser = argparse.ArgumentParser(prog="baobei-ref", description="The BAO BEI reference interpreter")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("serve", help="answer the engine protocol on stdin/stdout")
    parser.parse_args(argv)
    return serve()


if __name__ == "__main__":
    sys.exit(main())
