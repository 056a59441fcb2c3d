"""Answers like the reference, but writes 8 MB to stderr before every reply (a chatty engine's logs)."""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "conformance", "engines"))
from _serve import honest  # noqa: E402

from baobei_conform.engines.reference import ReferenceEngine  # noqa: E402
from baobei_conform.protocol.server import Log  # noqa: E402

LOG = (b"log line " * 100 + b"\n") * (8 * 1024 * 1024 // 901)
engine, log = ReferenceEngine(), Log()
for line in sys.stdin.buffer:
    request = json.loads(line)
    os.write(2, LOG)
    sys.stdout.write(json.dumps(honest(engine, request, log)) + "\n")
    sys.stdout.flush()
    if request.get("cmd") == "stop":
        break
