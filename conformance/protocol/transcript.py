"""``--trace-protocol FILE``: every request and reply of a run, one NDJSON line each, as they travel.

Like Bowtie's transcripts: the first line says what ran (``{"transcript": "baobei-protocol/1", "started": ...}``),
then each engine process started (``{"t": 0.012, "engine": 1, "start": [argv]}``), each request as sent
(``{"t", "engine", "request": {...}}``) and each reply line as read (``{"t", "engine", "reply": {...}}``, or
``"reply_raw"`` when it is no JSON). ``t`` is seconds since the run started; ``engine`` numbers the processes (a
restart after an error, ``-j N`` workers). The client (protocol/client.py) writes every line through one object;
lines from several workers never interleave. The file is streamed: a run that dies leaves what it had sent and read.
"""

from __future__ import annotations

import json
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

from baobei_conform.engines.sanitize import clean
from baobei_conform.protocol import PROTOCOL_VERSION

SCHEMA = "baobei-protocol/1"


class Transcript:
    """An open transcript file; ``close`` when the run ends."""

    def __init__(self, path: str | Path, argv: list[str] | None = None):
        Path(path).parent.mkdir(parents=True, exist_ok=True)  # a missing folder is made, as for every output
        self.file: IO[str] = Path(path).open("w", encoding="utf-8", newline="\n")
        self.lock = threading.Lock()
        self.started = time.monotonic()
        self.engines = 0
        self._write({"transcript": SCHEMA, "started": datetime.now(UTC).isoformat(timespec="milliseconds"),
                     "protocol": PROTOCOL_VERSION, "argv": list(argv or [])})

    def _write(self, record: dict[str, object]) -> None:
        with self.lock:
            if not self.file.closed:
                self.file.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
                self.file.flush()

    def _now(self) -> float:
        return round(time.monotonic() - self.started, 6)

    def start(self, command: list[str]) -> int:
        """A new engine process; its number for the lines that follow."""
        with self.lock:
            self.engines += 1
            number = self.engines
        self._write({"t": self._now(), "engine": number, "start": list(command)})
        return number

    def request(self, engine: int, line: bytes) -> None:
        self._message(engine, "request", line)

    def reply(self, engine: int, line: bytes) -> None:
        self._message(engine, "reply", line)

    def _message(self, engine: int, direction: str, line: bytes) -> None:
        try:
            record = {"t": self._now(), "engine": engine, direction: json.loads(line)}
        except ValueError:  # the engine's own line, not JSON: kept as text, made safe
            record = {"t": self._now(), "engine": engine, f"{direction}_raw": clean(line.decode("utf-8", "replace"))}
        self._write(record)

    def close(self) -> None:
        with self.lock:
            self.file.close()
