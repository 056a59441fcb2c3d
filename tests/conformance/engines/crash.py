"""Answers hello, then dies during setup with a message on stderr."""

import json
import sys

from _serve import honest, write

from baobei_conform.engines.reference import ReferenceEngine

write(json.dumps(honest(ReferenceEngine(), json.loads(sys.stdin.readline()))))
for line in sys.stdin:
    if json.loads(line).get("cmd") == "setup":
        print("crash.py: Traceback: boom while setting up the table", file=sys.stderr, flush=True)
        sys.exit(3)
    write(json.dumps({"seq": json.loads(line).get("seq"), "ok": True}))
