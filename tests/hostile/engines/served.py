"""The reference behind the protocol, with a twist: ``served.py MODE PIDFILE [MARK]``.

Appends "pid pgid" to PIDFILE like hostile.py (the test checks no process of the group is left), then answers
as ``baobei-ref serve`` does, except in MODE:

plain            touches MARK at its 20th request (a run or a search is under way), then takes 50 ms a reply (so
                 it still is when a signal comes)
hang             touches MARK at its 20th request and never answers it (an engine that stops mid-game)
refuses_listed   refuses every draw, which its legal_actions list
bug:NAME         plays with the wrong engine's misreading NAME (examples/wrong_engine) and touches MARK at its
                 first answer that differs from the reference's: the fuzzer has a problem then, shrinking follows
"""

import json
import os
import sys
import time
from pathlib import Path

MODE, PIDFILE = sys.argv[1], sys.argv[2]
MARK = Path(sys.argv[3]) if len(sys.argv) > 3 else None
AT = 20  # the request that touches MARK (plain, hang)
with open(PIDFILE, "a") as fh:
    fh.write(f"{os.getpid()} {os.getpgrp()}\n")

from baobei_conform.engines.reference import ReferenceEngine  # noqa: E402
from baobei_conform.engines.wire import encode  # noqa: E402
from baobei_conform.protocol.server import Log, handle  # noqa: E402 - the pid first: the test waits for it

ROOT = Path(__file__).resolve().parents[3]


class RefusesListed(ReferenceEngine):
    def apply(self, action: dict):
        if action.get("type") == "draw":
            return None, "not_your_turn"
        return super().apply(action)


def wrong(name: str) -> ReferenceEngine:
    sys.path.insert(0, str(ROOT / "examples" / "wrong_engine"))
    from engine import BUGS

    return ReferenceEngine(variants=[BUGS[name][0]])


def mark() -> None:
    if MARK is not None and not MARK.exists():
        MARK.touch()


def main() -> None:
    engine = RefusesListed() if MODE == "refuses_listed" else wrong(MODE[4:]) if MODE.startswith("bug:") else \
        ReferenceEngine()
    shadow = ReferenceEngine() if MODE.startswith("bug:") else None
    log, shadow_log = Log(), Log()
    for count, line in enumerate(sys.stdin.buffer, 1):
        request = json.loads(line)
        if count == AT and MODE in ("plain", "hang"):
            mark()
            if MODE == "hang":
                time.sleep(3600)
        if count >= AT and MODE == "plain":
            time.sleep(0.05)
        try:
            reply = handle(engine, request, log)
        except Exception as exc:  # noqa: BLE001 - answered, as baobei-ref serve does
            reply = {"ok": False, "error": {"code": "engine_error", "message": repr(exc)}}
        if shadow is not None and request.get("cmd") != "hello":
            try:
                right = handle(shadow, request, shadow_log)
            except Exception as exc:  # noqa: BLE001
                right = {"ok": False, "error": {"code": "engine_error", "message": repr(exc)}}
            if right != reply:
                mark()
        reply["seq"] = request.get("seq")
        sys.stdout.buffer.write(encode(reply))
        sys.stdout.buffer.flush()
        if request.get("cmd") == "stop":
            return


main()
