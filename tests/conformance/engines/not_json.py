"""Answers hello honestly, then writes a line that is not JSON."""

from _serve import run


def tamper(request, reply):
    if request.get("cmd") in ("hello", "stop"):
        return None
    return f"GARBAGE <<not json>> {request['seq']}"


run(tamper)
