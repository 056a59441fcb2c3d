"""The reference, but every apply reply carries an event without its required 'kind' (a schema break).

Without --validate the harness does not notice (the scenarios that check no event pass); with
--validate the reply is an error naming the schema path events/0.
"""

import json

from _serve import run


def tamper(request, reply):
    if request.get("cmd") == "apply" and reply.get("ok"):
        return json.dumps({**reply, "events": [{"clause": "0.0"}, *reply.get("events", [])]})
    return None


run(tamper)
