"""Drive an engine process over the protocol; never hang, never trust it.

Every request carries a ``seq`` the reply must echo. A reply that is not bounded JSON (wire.py),
echoes the wrong seq, lacks a field, is longer than ``max_line`` bytes or (in validation mode) breaks
its schema is a ProtocolError carrying the raw line; no reply within the timeout is an EngineTimeout;
a dead process is an EngineCrashed with the tail of its stderr. After any of them the engine is
distrusted: ``stop`` kills its process group at once.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from baobei_conform.engines.api import (  # noqa: F401 - re-exported: engines and docs import them from here
    Call,
    Engine,
    EngineCrashed,
    EngineProblem,
    EngineTimeout,
    EngineUnstartable,
    ProtocolError,
    Results,
    Unsupported,
)
from baobei_conform.engines.commands import COMMANDS, request
from baobei_conform.engines.sanitize import MAX_TEXT, clean, clean_tail, clean_value
from baobei_conform.engines.wire import Unbounded, decode, encode, plain
from baobei_conform.protocol import PROTOCOL_VERSION
from baobei_conform.protocol.process import EngineProcess, stdio_env  # noqa: F401 - stdio_env: public
from baobei_conform.suite.variants import reading_problems
from baobei_spec.conditions import Json

if TYPE_CHECKING:  # both import this module
    from baobei_conform.protocol.transcript import Transcript
    from baobei_conform.protocol.validate import MessageValidator

MAX_LINE = 16 * 1024 * 1024  # bytes of one reply line; beyond, the reply is a protocol error
COMPACT_AT = 1 << 20  # bytes already consumed at the front of the read buffer before it is compacted


class Refusal(str):
    """The error code of a refused action (compares as the code), carrying the engine's own message and
    stderr tail so a wrong refusal is shown with the engine's explanation."""

    message: str = ""
    stderr: str = ""

    def __new__(cls, code: str, message: str = "", stderr: str = "") -> Refusal:
        self = super().__new__(cls, code)
        self.message, self.stderr = message, stderr
        return self


class StdioEngine(Engine):
    """One long-lived engine process; ``command`` is an argv list."""

    works_apart = True

    def __init__(self, command: list[str], params: Json, timeout: float = 10.0,
                 validator: MessageValidator | None = None, cwd: str | Path | None = None, max_line: int = MAX_LINE,
                 transcript: Transcript | None = None):
        self.command, self.params, self.timeout, self.validator, self.cwd = command, params, timeout, validator, cwd
        self.max_line = max_line
        self.transcript = transcript  # a protocol/transcript.py Transcript: every line sent and read, or None
        self.tag = 0  # this process's number in the transcript
        self.process: EngineProcess | None = None
        self.seq = 0
        self.info: Json = {}
        self.capabilities: set[str] = set()
        self.readings: dict[str, str] = {}
        self.name = command[0]
        self.broken = False  # after a problem: stopped without ceremony

    # --- process life ---
    def start(self) -> None:
        try:
            self.process = EngineProcess(self.command, self.cwd)
        except OSError as exc:
            raise EngineUnstartable(f"cannot start {' '.join(self.command)}: {exc}") from None
        if self.transcript is not None:
            self.tag = self.transcript.start(self.command)
        self.buffer = bytearray()  # output read, not yet consumed from ``self.at`` on
        self.at = 0  # where the next line starts in the buffer
        self.scanned = 0  # how far the buffer is known to hold no newline
        try:
            reply = self.request(request(("hello", PROTOCOL_VERSION, self.params)))
            self.info, self.capabilities = _hello(reply)
            self.readings = reply.get("readings") or {}  # rulings read otherwise (conformance/suite/variants.py)
            bad = reading_problems(self.readings)
            if bad:
                raise ProtocolError(clean(f"the hello reply declares bad readings: {'; '.join(bad)}"), raw=_dump(reply))
        except BaseException:
            self.broken = True
            self.stop()  # an engine that fails its handshake is nobody's to stop later: never leave it running
            raise
        self.name = self.info.get("name", self.name)

    def stderr(self) -> str:
        return clean_tail(self.process.stderr_tail()) if self.process else ""

    def stop(self) -> None:
        """Ask politely (unless it misbehaved), then kill the process group and reap: nothing lingers."""
        process, self.process = self.process, None
        if process is None:
            return
        if not self.broken and not process.exited():
            line = encode({"seq": self.seq + 1, "cmd": "stop"})
            if self.transcript is not None:
                self.transcript.request(self.tag, line)
            process.write(line)
            process.wait_exit(1.0)
        process.kill()

    def abort(self) -> None:
        process = self.process
        if process is not None:
            process.kill_group()

    # --- reading ---
    def _read_line(self, deadline: float) -> bytes | None:
        """The engine's next output line (None at end of output); linear in its length, at most ``max_line``."""
        while True:
            newline = self.buffer.find(b"\n", self.scanned)
            if newline >= 0:
                line = bytes(self.buffer[self.at:newline])
                self.at = self.scanned = newline + 1
                if self.at >= COMPACT_AT or self.at == len(self.buffer):
                    del self.buffer[:self.at]
                    self.at = self.scanned = 0
                return line
            self.scanned = len(self.buffer)
            if len(self.buffer) - self.at > self.max_line:
                size = len(self.buffer) - self.at
                del self.buffer[:]
                raise ProtocolError(f"the engine wrote a line longer than {self.max_line} bytes "
                                    f"(read {size} bytes without a line end)", self.stderr())
            chunk = self._running().pump(deadline)
            if chunk is None:
                return None
            if not chunk:
                raise TimeoutError
            self.buffer += chunk

    def _problem(self, problem: EngineProblem) -> EngineProblem:
        self.broken = True
        return problem

    def _running(self) -> EngineProcess:
        """The process to talk to; once stopped, every call on it is the engine's problem (it is gone)."""
        if self.process is None:
            raise self._problem(EngineCrashed("the engine was stopped", self.stderr()))
        return self.process

    def _line(self, message: Json) -> bytes:
        """The engine's reply line to ``message`` (read within the timeout)."""
        try:
            line = self._read_line(time.monotonic() + self.timeout)
        except TimeoutError:
            raise self._problem(EngineTimeout(f"no answer to {message['cmd']!r} within {self.timeout:g} s",
                                              self.stderr())) from None
        except ProtocolError as exc:
            raise self._problem(exc) from None
        if line is None:
            code = self._running().exit_code()
            raise self._problem(EngineCrashed(f"the engine exited (code {code}) during {message['cmd']!r}",
                                              self.stderr()))
        if self.transcript is not None:
            self.transcript.reply(self.tag, line)
        return line

    def _receive(self, message: Json) -> tuple[Json, bytes]:
        """The reply to ``message``, read now: checked for JSON, the echoed seq, ``ok``
        and (validating) the schema; and its line."""
        line = self._line(message)
        try:
            reply = decode(line)
        except Unbounded as exc:
            raise self._problem(ProtocolError(f"the engine wrote a reply beyond the protocol's bounds: {exc}",
                                              self.stderr(), _text(line))) from None
        except ValueError:
            raise self._problem(ProtocolError("the engine wrote a line that is not JSON", self.stderr(),
                                              _text(line))) from None
        if not isinstance(reply, dict) or reply.get("seq") != message["seq"]:
            raise self._problem(ProtocolError(f"the reply does not echo seq {message['seq']}", self.stderr(),
                                              _text(line)))
        if not isinstance(reply.get("ok"), bool):
            raise self._problem(ProtocolError("the reply lacks a boolean 'ok'", self.stderr(), _text(line)))
        if self.validator:
            try:
                self.validator.check_reply(message["cmd"], reply, _text(line))
            except ProtocolError as exc:
                raise self._problem(exc) from None
        if not reply["ok"] and _error(reply).get("code") == "unsupported":
            said = reply["error"].get("message")  # the engine's own reason is kept for the skip report
            raise Unsupported(f"the engine does not support {message['cmd']!r}"
                              + (f": {clean(said, 500)}" if isinstance(said, str) and said else ""))
        return reply, line

    # --- requests ---
    def _prepare(self, message: Json) -> tuple[Json, bytes]:
        """Every request goes out through here (numbered, validated, and written to the transcript if any)."""
        self.seq += 1
        message = {"seq": self.seq, **message}
        if self.validator:
            self.validator.check_request(message)
        data = encode(message)
        if self.transcript is not None:
            self.transcript.request(self.tag, data)
        return message, data

    def request(self, message: Json) -> Json:
        """Send one request and wait for its reply."""
        if self.process is None:
            self.start()
        message, data = self._prepare(message)
        self._running().write(data)
        return self._receive(message)[0]

    def _result(self, message: Json, reply: Json, line: bytes) -> Any:
        """What the runner gets from a reply: events or an error code for apply, the state, the view. ``line``: the
        reply's own, whose events need no cleaning when it is plain (only an apply reply's line is scanned for it)."""
        cmd = message["cmd"]
        if cmd == "new_game" and not reply["ok"] and isinstance(_error(reply).get("code"), str):
            return clean(reply["error"]["code"], 200)  # a refused player count: the runner judges the code
        if cmd == "apply":
            if not reply["ok"]:
                code = _error(reply).get("code")
                if not isinstance(code, str):
                    raise self._problem(ProtocolError("a refused action needs error.code", self.stderr(),
                                                      _dump(reply)))
                said = _error(reply).get("message")
                return None, Refusal(clean(code, 200), clean(said, 2000) if isinstance(said, str) else "",
                                     self.stderr())
            events = reply.get("events") or [] if "events" in self.capabilities else []
            if not isinstance(events, list):
                raise self._problem(ProtocolError("the 'apply' reply's events are not a list", self.stderr(),
                                                  _dump(reply)))
            return (events if plain(line, MAX_TEXT) else clean_value(events)), None
        if not reply["ok"]:
            error = _error(reply)
            raise self._problem(ProtocolError(
                clean(f"{cmd!r} failed: {error.get('code')}: {error.get('message', '')}"), self.stderr(),
                _dump(reply)))
        field = COMMANDS[cmd].result
        if field is None:
            return None
        if field not in reply:
            raise self._problem(ProtocolError(f"the {cmd!r} reply lacks {field!r}", self.stderr(), _dump(reply)))
        return reply[field]

    def send(self, calls: list[Call]) -> list[Json | Unsupported]:
        """Send the calls' requests in one write, without waiting; ``collect`` reads the replies. Several sends may
        be outstanding (collected in order), so the engine always has work while the harness judges; what the
        pipe does not take now is written while replies are read."""
        if self.process is None:
            self.start()
        messages: list[Json | Unsupported] = []
        chunks: list[bytes] = []
        for call in calls:
            needed = COMMANDS[call[0]].capability
            if needed and needed not in self.capabilities:
                messages.append(Unsupported(f"the engine does not offer {needed}"))
                continue
            message, data = self._prepare(request(call))
            messages.append(message)
            chunks.append(data)
        self._running().write(b"".join(chunks))
        return messages

    def collect(self, messages: list[Json | Unsupported]) -> Results:
        """The results of a ``send``, in order; after an engine problem every later call holds the same one."""
        results: Results = []
        for message in messages:
            if isinstance(message, Exception):
                results.append(message)
                continue
            try:
                results.append(self._result(message, *self._receive(message)))
            except Unsupported as exc:
                results.append(exc)
            except EngineProblem as exc:
                results += [exc] * (len(messages) - len(results))
                break
        return results


def _hello(reply: Json) -> tuple[Json, set[str]]:
    """The engine's description and capabilities from its ``hello`` reply, checked and made safe."""
    if not reply.get("ok"):
        error = _error(reply)
        raise ProtocolError(clean(f"the engine refused hello: {error.get('code')}: {error.get('message', '')}"),
                            raw=_dump(reply))
    for field in ("engine", "capabilities"):
        if field not in reply:
            raise ProtocolError(f"the hello reply lacks {field!r}", raw=_dump(reply))
    engine, capabilities = reply["engine"], reply["capabilities"]
    if not isinstance(engine, dict) or not all(isinstance(v, str) for v in engine.values()):
        raise ProtocolError("the hello reply's 'engine' must be an object of strings", raw=_dump(reply))
    if not isinstance(capabilities, list) or not all(isinstance(c, str) for c in capabilities):
        raise ProtocolError("the hello reply's 'capabilities' must be a list of strings", raw=_dump(reply))
    return {clean(k, 100): clean(v, 200) for k, v in engine.items()}, {clean(c, 100) for c in capabilities}


def _error(reply: Json) -> Json:
    """The reply's error object; {} when there is none or it is not an object (then no code is found in it)."""
    error = reply.get("error")
    return error if isinstance(error, dict) else {}


def _text(line: bytes) -> str:
    """A raw output line as text, for error reports (cut and made safe: it goes into every output)."""
    return clean(line[:8192].decode("utf-8", "replace")) + (f"... [{len(line)} bytes]" if len(line) > 8192 else "")


def _dump(reply: Json) -> str:
    return clean(json.dumps(clean_value(reply), ensure_ascii=False))
