"""Answers like baobei-ref serve until it is sent a shuffle: then it exits (code 3)."""

import os
import sys

from baobei_conform.engines.reference import ReferenceEngine
from baobei_conform.protocol.server import Log, _answer

engine, log = ReferenceEngine(), Log()
for line in sys.stdin.buffer:
    if b'"apply"' in line and b'"shuffle"' in line:
        sys.stderr.write("crashing on a shuffle\n")
        sys.stderr.flush()
        os._exit(3)
    reply, stop = _answer(engine, line, log)
    sys.stdout.buffer.write(reply)
    sys.stdout.buffer.flush()
    if stop:
        break
