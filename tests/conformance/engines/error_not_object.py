"""Refuses every action with an error that is a string, not an object: a protocol error, scenario by scenario."""

import json

from _serve import run


def tamper(request: dict, reply: dict):
    if request.get("cmd") == "apply":
        return json.dumps({"seq": request["seq"], "ok": False, "error": "boom"})
    return None


run(tamper)
