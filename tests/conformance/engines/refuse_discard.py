"""Refuses every discard with its own message (and says so on stderr): the failure must show both."""

import json
import sys

from _serve import run


def tamper(request: dict, reply: dict):
    if request.get("cmd") == "apply" and request["action"].get("type") == "discard":
        print("refusing a discard", file=sys.stderr, flush=True)
        return json.dumps({"seq": request["seq"], "ok": False,
                           "error": {"code": "illegal_action", "message": "no discards today"}})
    return None


run(tamper)
