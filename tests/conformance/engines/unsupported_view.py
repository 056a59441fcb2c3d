"""Declares views but answers every ``view`` with ``unsupported`` and a reason of its own."""

import json

from _serve import run


def tamper(request: dict, reply: dict):
    if request.get("cmd") == "view":
        return json.dumps({"seq": request["seq"], "ok": False,
                           "error": {"code": "unsupported", "message": "views come in version 2"}})
    return None


run(tamper)
