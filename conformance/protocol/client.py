"""Drive an engine process over the protocol; never hang, never trust it.

Every request carries a ``seq`` the reply must echo. A reply that is not JSON, echoes the wrong
seq, lacks a field or (in validation mode) breaks its schema is a ProtocolError carrying the raw
line; no reply within the timeout is an EngineTimeout; a dead process is an EngineCrashed with the
tail of its stderr.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import threading
import time
from collections import deque

from baobei_conform.protocol import PROTOCOL_VERSION


class EngineProblem(Exception):
    """The engine misbehaved; the scenario is an ``error``, the engine gets restarted."""

    def __init__(self, message: str, stderr: str = "", raw: str = ""):
        self.message, self.stderr, self.raw = message, stderr, raw
        super().__init__(message)


class EngineTimeout(EngineProblem):
    pass


class EngineCrashed(EngineProblem):
    pass


class ProtocolError(EngineProblem):
    pass


class Unsupported(Exception):
    """The engine answered ``unsupported``: scenarios that need it are skipped, with this reason."""


class StdioEngine:
    """One long-lived engine process; ``command`` is an argv list."""

    def __init__(self, command: list[str], params: dict, timeout: float = 10.0, validator=None, cwd=None):
        self.command, self.params, self.timeout, self.validator, self.cwd = command, params, timeout, validator, cwd
        self.process: subprocess.Popen | None = None
        self.seq = 0
        self.info: dict = {}
        self.capabilities: set[str] = set()
        self.name = command[0]

    # --- process life ---
    def start(self) -> None:
        try:
            self.process = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                bufsize=0, cwd=self.cwd, env=stdio_env(),
            )
        except OSError as exc:
            raise EngineCrashed(f"cannot start {' '.join(self.command)}: {exc}") from None
        self.buffer = b""
        self.stderr_tail: deque[str] = deque(maxlen=40)
        self._drainer = threading.Thread(target=self._drain, args=(self.process.stderr,), daemon=True)
        self._drainer.start()
        try:
            reply = self.request({"cmd": "hello", "protocol": PROTOCOL_VERSION, "params": self.params})
            for field in ("engine", "capabilities"):
                if field not in reply:
                    raise ProtocolError(f"the hello reply lacks {field!r}", raw=json.dumps(reply))
        except Exception:
            self.stop()  # an engine that fails its handshake is nobody's to stop later: never leave it running
            raise
        self.info = reply["engine"]
        self.name = self.info.get("name", self.name)
        self.capabilities = set(reply["capabilities"])

    def _drain(self, stream) -> None:
        for line in stream:
            self.stderr_tail.append(line.decode("utf-8", "replace").rstrip("\n"))

    def _read_line(self, deadline: float) -> str | None:
        """The engine's next output line (None at end of output); read in this thread, so no hand-off."""
        fd = self.process.stdout.fileno()
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise TimeoutError
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return None
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.decode("utf-8", "replace")

    def stderr(self) -> str:
        return "\n".join(self.stderr_tail) if self.process else ""

    def _reap(self) -> int | None:
        """The exit code of an engine whose pipes closed, once it has exited and its stderr is read to the end."""
        try:
            code = self.process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            code = None
        self._drainer.join(timeout=2)
        return code

    def stop(self) -> None:
        """Ask politely, then kill: a stopped engine never lingers."""
        if not self.process:
            return
        try:
            if self.process.poll() is None:
                self.process.stdin.write((json.dumps({"seq": self.seq + 1, "cmd": "stop"}) + "\n").encode())
                self.process.wait(timeout=1)
        except (OSError, subprocess.TimeoutExpired, ValueError):
            pass
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()

    # --- requests ---
    def request(self, message: dict) -> dict:
        if self.process is None:
            self.start()
        self.seq += 1
        message = {"seq": self.seq, **message}
        if self.validator:
            self.validator.check_request(message)
        try:
            self.process.stdin.write((json.dumps(message, separators=(",", ":")) + "\n").encode())
        except (OSError, ValueError):
            code = self._reap()
            raise EngineCrashed(f"the engine closed its input (exit code {code})", self.stderr()) from None
        try:
            line = self._read_line(time.monotonic() + self.timeout)
        except TimeoutError:
            raise EngineTimeout(f"no answer to {message['cmd']!r} within {self.timeout:g} s", self.stderr()) from None
        if line is None:
            code = self._reap()
            raise EngineCrashed(f"the engine exited (code {code}) during {message['cmd']!r}", self.stderr())
        try:
            reply = json.loads(line)
        except json.JSONDecodeError:
            raise ProtocolError("the engine wrote a line that is not JSON", self.stderr(), line) from None
        if not isinstance(reply, dict) or reply.get("seq") != self.seq:
            raise ProtocolError(f"the reply does not echo seq {self.seq}", self.stderr(), line)
        if not isinstance(reply.get("ok"), bool):
            raise ProtocolError("the reply lacks a boolean 'ok'", self.stderr(), line)
        if self.validator:
            self.validator.check_reply(message["cmd"], reply, line)
        if not reply["ok"] and (reply.get("error") or {}).get("code") == "unsupported":
            raise Unsupported(f"the engine does not support {message['cmd']!r}")
        return reply

    def _ok(self, message: dict, field: str | None = None):
        reply = self.request(message)
        if not reply["ok"]:
            error = reply.get("error") or {}
            raise ProtocolError(f"{message['cmd']!r} failed: {error.get('code')}: {error.get('message', '')}",
                                self.stderr(), json.dumps(reply))
        if field is not None:
            if field not in reply:
                raise ProtocolError(f"the {message['cmd']!r} reply lacks {field!r}", self.stderr(), json.dumps(reply))
            return reply[field]
        return None

    # --- the runner's engine interface ---
    def setup(self, state: dict, params: dict | None) -> None:
        self._ok({"cmd": "setup", "state": state, "params": params})

    def new_game(self, players: int) -> None:
        self._ok({"cmd": "new_game", "players": players})

    def apply(self, action: dict) -> tuple[list[dict] | None, str | None]:
        reply = self.request({"cmd": "apply", "action": action})
        if not reply["ok"]:
            code = (reply.get("error") or {}).get("code")
            if not isinstance(code, str):
                raise ProtocolError("a refused action needs error.code", self.stderr(), json.dumps(reply))
            return None, code
        return (reply.get("events") or [] if "events" in self.capabilities else []), None

    def state(self) -> dict:
        return self._ok({"cmd": "state"}, "state")

    def view(self, player: int) -> dict:
        if "views" not in self.capabilities:
            raise Unsupported("the engine does not offer views")
        return self._ok({"cmd": "view", "player": player}, "view")


def stdio_env() -> dict:
    """The environment engines run in (unbuffered Python output, so replies are never held back)."""
    return {**os.environ, "PYTHONUNBUFFERED": "1"}
