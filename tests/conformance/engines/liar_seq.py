"""Answers hello honestly, then echoes the wrong seq on every reply."""

import json

from _serve import run


def tamper(request, reply):
    if request.get("cmd") in ("hello", "stop"):
        return None
    return json.dumps({**reply, "seq": request["seq"] + 100})


run(tamper)
