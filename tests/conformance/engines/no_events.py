"""The reference, but its hello does not offer the 'events' capability."""

import json

from _serve import run


def tamper(request, reply):
    if request.get("cmd") == "hello":
        return json.dumps({**reply, "capabilities": [c for c in reply["capabilities"] if c != "events"]})
    return None


run(tamper)
