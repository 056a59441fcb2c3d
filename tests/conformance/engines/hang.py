"""Answers hello, then never answers again (not even stop): the harness must time out and kill it.

With an argument, appends its pid to that file (so a test can check no hung engine is left running).
"""

import json
import os
import sys

from _serve import honest, write

from baobei_conform.engines.reference import ReferenceEngine

if len(sys.argv) > 1:
    with open(sys.argv[1], "a") as fh:
        fh.write(f"{os.getpid()}\n")
write(json.dumps(honest(ReferenceEngine(), json.loads(sys.stdin.readline()))))
for _ in sys.stdin:  # read and ignore everything; exit only when the harness closes our input
    pass
