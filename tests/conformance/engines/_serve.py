"""Shared by the engine test doubles: answer the protocol like ``baobei-ref serve``, with a hook to misbehave.

``run(tamper)`` reads requests line by line; ``tamper(request, reply)`` returns the line to write
(a string), or None to write the reference's honest reply.
"""

from __future__ import annotations

import json
import sys

from baobei_conform.engines.reference import ReferenceEngine
from baobei_conform.protocol.server import Log, handle


def honest(engine, request: dict, log: Log | None = None) -> dict:
    """The reference's reply; ``log`` carries the game from request to request (a fresh one knows no game)."""
    reply = handle(engine, request, log)
    reply["seq"] = request.get("seq")
    return reply


def write(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def run(tamper=None) -> None:
    engine, log = ReferenceEngine(), Log()
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        reply = honest(engine, request, log)
        shown = tamper(request, reply) if tamper else None
        write(json.dumps(reply) if shown is None else shown)
        if request.get("cmd") == "stop":
            return
