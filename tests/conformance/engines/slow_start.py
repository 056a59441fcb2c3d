"""Writes its pid to the file named by argv[1], waits argv[2] seconds, then serves the reference."""

import os
import sys
import time

from _serve import run

with open(sys.argv[1], "w") as fh:
    fh.write(str(os.getpid()))
time.sleep(float(sys.argv[2]))
run()
