"""Refuses every discard with its own message (and says so on stderr): the failure must show both."""

import json
import sys
import time

from _serve import run


def tamper(request: dict, reply: dict):
    if request.get("cmd") == "apply" and request["action"].get("type") == "discard":
        print("refusing a discard", file=sys.stderr, flush=True)
        time.sleep(0.3)  # the harness reads stderr on a thread of its own: let it see the line first
        return json.dumps({"seq": request["seq"], "ok": False,
                           "error": {"code": "illegal_action", "message": "no discards today"}})
    return None


run(tamper)
