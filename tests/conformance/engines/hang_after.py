"""An in-process engine (``python:hang_after:engine``) that is the reference for two scenarios, then hangs in
its third setup, so only Ctrl-C ends the run. When it hangs it writes the file named by BAOBEI_HANG_MARK
(the test sends SIGINT then)."""

import os
import threading
from pathlib import Path

from baobei_conform.engines.reference import ReferenceEngine


class HangingEngine(ReferenceEngine):
    setups = 0

    def setup(self, state, params):
        HangingEngine.setups += 1
        if HangingEngine.setups > 2:
            Path(os.environ["BAOBEI_HANG_MARK"]).write_text("hung", encoding="utf-8")
            threading.Event().wait()
        super().setup(state, params)


def engine() -> HangingEngine:
    return HangingEngine()
