"""The reference, 50 ms slower on every reply after the handshake: each scenario's time must show it."""

import time

from _serve import run


def tamper(request: dict, reply: dict):
    if request.get("cmd") != "hello":
        time.sleep(0.05)
    return None


run(tamper)
