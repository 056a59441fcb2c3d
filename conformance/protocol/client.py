"""Drive an engine process over the protocol; never hang, never trust it.

Every request carries a ``seq`` the reply must echo. A reply that is not JSON, echoes the wrong
seq, lacks a field or (in validation mode) breaks its schema is a ProtocolError carrying the raw
line; no reply within the timeout is an EngineTimeout; a dead process is an EngineCrashed with the
tail of its stderr.
"""

from __future__ import annotations

import json
import os
import queue
import select
import subprocess
import threading
import time
from collections import deque

from baobei_conform.protocol import PROTOCOL_VERSION

ENCODE = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode  # compact, one line
PIPE_SAFE = 32 * 1024  # bytes a batch may write without a thread: well under a Linux pipe's 64 KiB


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
        self.buffer = b""  # a partial line
        self.lines: deque[bytes] = deque()  # complete lines not read yet
        self.outstanding = 0  # sends not yet collected
        self.to_write: queue.SimpleQueue = queue.SimpleQueue()  # batches for the writer thread, in order
        threading.Thread(target=self._writer, args=(self.process, self.to_write), daemon=True).start()
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

    def _read_line(self, deadline: float) -> bytes | None:
        """The engine's next output line (None at end of output); read in this thread, so no hand-off."""
        fd = self.process.stdout.fileno()
        while not self.lines:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise TimeoutError
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return None
            *complete, self.buffer = (self.buffer + chunk).split(b"\n")
            self.lines.extend(complete)
        return self.lines.popleft()

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
        if self.process.poll() is None:  # behind any batch still queued, so nothing interleaves
            self.to_write.put((json.dumps({"seq": self.seq + 1, "cmd": "stop"}) + "\n").encode())
        self.to_write.put(None)  # the writer thread ends
        try:
            self.process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None

    # --- requests ---
    def _prepare(self, message: dict) -> tuple[dict, bytes]:
        self.seq += 1
        message = {"seq": self.seq, **message}
        if self.validator:
            self.validator.check_request(message)
        return message, (ENCODE(message) + "\n").encode()

    def _send(self, data: bytes) -> None:
        try:
            self.process.stdin.write(data)
        except (OSError, ValueError):
            code = self._reap()
            raise EngineCrashed(f"the engine closed its input (exit code {code})", self.stderr()) from None

    def _receive(self, message: dict) -> dict:
        """The reply to ``message``: checked for JSON, the echoed seq, ``ok`` and (validating) the schema."""
        try:
            line = self._read_line(time.monotonic() + self.timeout)
        except TimeoutError:
            raise EngineTimeout(f"no answer to {message['cmd']!r} within {self.timeout:g} s", self.stderr()) from None
        if line is None:
            code = self._reap()
            raise EngineCrashed(f"the engine exited (code {code}) during {message['cmd']!r}", self.stderr())
        try:
            reply = json.loads(line)  # bytes: decoded as UTF-8 by json itself
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise ProtocolError("the engine wrote a line that is not JSON", self.stderr(), _text(line)) from None
        if not isinstance(reply, dict) or reply.get("seq") != message["seq"]:
            raise ProtocolError(f"the reply does not echo seq {message['seq']}", self.stderr(), _text(line))
        if not isinstance(reply.get("ok"), bool):
            raise ProtocolError("the reply lacks a boolean 'ok'", self.stderr(), _text(line))
        if self.validator:
            self.validator.check_reply(message["cmd"], reply, _text(line))
        if not reply["ok"] and (reply.get("error") or {}).get("code") == "unsupported":
            raise Unsupported(f"the engine does not support {message['cmd']!r}")
        return reply

    def request(self, message: dict) -> dict:
        """Send one request and wait for its reply."""
        if self.process is None:
            self.start()
        message, data = self._prepare(message)
        self._send(data)
        return self._receive(message)

    def _result(self, message: dict, reply: dict):
        """What the runner gets from a reply: events or an error code for apply, the state, the view."""
        cmd = message["cmd"]
        if cmd == "apply":
            if not reply["ok"]:
                code = (reply.get("error") or {}).get("code")
                if not isinstance(code, str):
                    raise ProtocolError("a refused action needs error.code", self.stderr(), json.dumps(reply))
                return None, code
            return (reply.get("events") or [] if "events" in self.capabilities else []), None
        if not reply["ok"]:
            error = reply.get("error") or {}
            raise ProtocolError(f"{cmd!r} failed: {error.get('code')}: {error.get('message', '')}",
                                self.stderr(), json.dumps(reply))
        field = {"state": "state", "view": "view", "legal_actions": "actions"}.get(cmd)
        if field is None:
            return None
        if field not in reply:
            raise ProtocolError(f"the {cmd!r} reply lacks {field!r}", self.stderr(), json.dumps(reply))
        return reply[field]

    def batch(self, calls: list[tuple]) -> list:
        """Run calls like ("apply", action) pipelined: all requests go out at once, replies are read in order.

        Returns one result per call; a call that failed holds its exception, and after an engine
        problem every later call holds the same one (the engine is no longer trustworthy).
        """
        return self.collect(self.send(calls))

    def send(self, calls: list[tuple]) -> list:
        """Send the calls' requests without waiting; ``collect`` reads the replies. Several sends may be
        outstanding (collected in order), so the engine always has work while the harness judges."""
        if self.process is None:
            self.start()
        messages, chunks = [], []
        for call in calls:
            if call[0] == "view" and "views" not in self.capabilities:
                messages.append(Unsupported("the engine does not offer views"))
                continue
            message, data = self._prepare(_message(call))
            messages.append(message)
            chunks.append(data)
        data = b"".join(chunks)
        if len(data) <= PIPE_SAFE and not self.outstanding:  # fits in an empty pipe: the write cannot block
            self._send(data)
        else:  # the writer thread, so a long or second batch cannot deadlock on full pipes
            self.to_write.put(data)
        self.outstanding += 1
        return messages

    def collect(self, messages: list) -> list:
        """The results of a ``send``, in order (see ``batch``)."""
        self.outstanding -= 1
        results: list = []
        for message in messages:
            if isinstance(message, Exception):
                results.append(message)
                continue
            try:
                results.append(self._result(message, self._receive(message)))
            except Unsupported as exc:
                results.append(exc)
            except EngineProblem as exc:
                results += [exc] * (len(messages) - len(results))
                break
        return results

    @staticmethod
    def _writer(process: subprocess.Popen, batches: queue.SimpleQueue) -> None:
        """Write queued batches one after the other until stopped; requests never interleave."""
        while (data := batches.get()) is not None:
            try:
                process.stdin.write(data)
            except (OSError, ValueError):
                pass  # the reader reports the dead engine with its exit code and stderr

    def _one(self, call: tuple):
        (result,) = self.batch([call])
        if isinstance(result, Exception):
            raise result
        return result

    # --- the runner's engine interface ---
    def setup(self, state: dict, params: dict | None) -> None:
        self._one(("setup", state, params))

    def new_game(self, players: int) -> None:
        self._one(("new_game", players))

    def apply(self, action: dict) -> tuple[list[dict] | None, str | None]:
        return self._one(("apply", action))

    def state(self) -> dict:
        return self._one(("state",))

    def view(self, player: int) -> dict:
        return self._one(("view", player))

    def legal_actions(self) -> list[dict]:
        return self._one(("legal_actions",))


def _text(line: bytes) -> str:
    """A raw output line as text, for error reports."""
    return line.decode("utf-8", "replace")


def _message(call: tuple) -> dict:
    """The request for a runner call."""
    kind, *args = call
    if kind == "setup":
        return {"cmd": "setup", "state": args[0], "params": args[1]}
    if kind == "new_game":
        return {"cmd": "new_game", "players": args[0]}
    if kind == "apply":
        return {"cmd": "apply", "action": args[0]}
    if kind == "view":
        return {"cmd": "view", "player": args[0]}
    return {"cmd": kind}

def stdio_env() -> dict:
    """The environment engines run in (unbuffered Python output, so replies are never held back)."""
    return {**os.environ, "PYTHONUNBUFFERED": "1"}
