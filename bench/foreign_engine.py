"""``baobei-ref serve`` as a third-party engine would answer: every reply equal as JSON, never as bytes.

No other engine serializes exactly as the reference does (orjson, compact, its key order), so none gets the
harness's shortcut for a reply byte-identical to the reference's own (protocol/client.py): this one neither.
Each reply line is read back and written again with every object's keys in reverse order and spaces after ``,``
and ``:`` (as Python's ``json.dumps`` writes by default). The re-encoding runs in this engine's process, so the
harness's CPU (bench/run.py: ``harness_us_per_action``) is measured apart from it.

    python bench/foreign_engine.py serve [baobei-ref serve options]
"""

from __future__ import annotations

import json
import sys

from baobei_conform.protocol.server import main


def reordered(value):
    """The value with every object's keys in reverse order (the same JSON value)."""
    if isinstance(value, dict):
        return {key: reordered(value[key]) for key in reversed(list(value))}
    if isinstance(value, list):
        return [reordered(item) for item in value]
    return value


class Reencoding:
    """A binary stdout that writes each complete line it is given as the same JSON in other bytes."""

    def __init__(self, raw):
        self.raw = raw

    def write(self, data: bytes) -> int:
        lines = data.split(b"\n")
        assert lines[-1] == b"", "the server writes whole lines"
        self.raw.write(b"".join(json.dumps(reordered(json.loads(line)), ensure_ascii=False).encode() + b"\n"
                                for line in lines[:-1]))
        return len(data)

    def flush(self) -> None:
        self.raw.flush()


class Stdout:
    """What the server writes to: its ``buffer`` re-encodes."""

    def __init__(self):
        self.buffer = Reencoding(sys.stdout.buffer)

    def write(self, text: str) -> int:
        return self.buffer.write(text.encode())

    def flush(self) -> None:
        self.buffer.flush()


if __name__ == "__main__":
    sys.stdout = Stdout()  # serve() writes to sys.stdout's buffer
    sys.exit(main())  # the process's command: its arguments are baobei-ref's
