"""Hostile engine doubles: ``hostile.py MODE PIDFILE``. Standard library only, so they start fast.

Each appends "pid pgid" to PIDFILE (the test checks that no process of the group is left alive),
answers ``hello``, then misbehaves in MODE at the first ``setup``:

never_reads   stops reading its stdin for good, logs to stderr now and then
deep          a reply nested 1,100 levels deep (about 2 KB)
bigint        a reply holding an integer of 5,000 digits
huge_line     a 200 MB line without a line end, written in 1 MB pieces, then waits
fork_exit     forks a helper that keeps stdout open and sleeps, then exits
hang          sleeps (run behind ``sh -c`` for the wrapper case)
bad_hello     a first process that crashes in setup; every later one answers hello with capabilities: 5
ansi          refuses the setup with ANSI, NUL and bidi controls in its message and its stderr
nan           answers the setup with NaN in the reply
"""

import json
import os
import sys
import time

MODE, PIDFILE = sys.argv[1], sys.argv[2]
with open(PIDFILE, "a") as fh:
    fh.write(f"{os.getpid()} {os.getpgrp()}\n")
with open(PIDFILE) as fh:
    STARTS = len(fh.read().split("\n")) - 1
HELLO = {"ok": True, "engine": {"name": "hostile", "version": "1", "language": "python"}, "capabilities": ["events"]}
EVIL = "\x1b[31mred\x1b[0m nul\x00 bidi\u202eevil\u202c bell\x07"


def out(data: bytes) -> None:
    sys.stdout.buffer.write(data + b"\n")
    sys.stdout.buffer.flush()


def reply(seq, **fields) -> None:
    out(json.dumps({"seq": seq, **fields}).encode())


def read() -> dict:
    line = sys.stdin.buffer.readline()
    if not line:
        sys.exit(0)
    return json.loads(line)


def misbehave(seq: int) -> None:
    if MODE == "never_reads":
        while True:
            sys.stderr.write("still here\n")
            sys.stderr.flush()
            time.sleep(0.2)
    if MODE == "deep":
        out(b'{"seq":%d,"ok":true,"x":' % seq + b"[" * 1100 + b"]" * 1100 + b"}")
    if MODE == "bigint":
        out(b'{"seq":%d,"ok":true,"x":' % seq + b"9" * 5000 + b"}")
    if MODE == "huge_line":
        piece = b"x" * (1 << 20)
        for _ in range(200):
            sys.stdout.buffer.write(piece)
        sys.stdout.buffer.flush()
    if MODE == "fork_exit":
        if os.fork() == 0:
            time.sleep(60)
            os._exit(0)
        os._exit(4)
    if MODE == "ansi":
        sys.stderr.write(EVIL * 3 + "\n")
        sys.stderr.flush()
        reply(seq, ok=False, error={"code": "engine_error", "message": EVIL})
        return
    if MODE == "nan":
        out(b'{"seq":%d,"ok":true,"x":NaN}' % seq)
        return
    if MODE == "bad_hello":
        sys.exit(3)
    time.sleep(3600)  # hang, and the rest: wait to be killed


hello = read()
if MODE == "bad_hello" and STARTS > 1:
    reply(hello["seq"], **{**HELLO, "capabilities": 5})
else:
    reply(hello["seq"], **HELLO)
while True:
    request = read()
    if request["cmd"] == "stop":
        reply(request["seq"], ok=True)
        sys.exit(0)
    if request["cmd"] == "setup":
        misbehave(request["seq"])
    else:
        reply(request["seq"], ok=True)
