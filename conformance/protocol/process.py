"""An engine's operating-system process: its own session, pipes that never block the harness, reaped.

The engine runs in a new session (so a new process group): a wrapper (``sh -c``, ``npm start``,
``cargo run``) or a helper it forked is killed with it. So a terminal's Ctrl-C never reaches it: every
group alive is kept in ``GROUPS`` and killed at once at SIGINT or SIGTERM (signals.py), and one started
after the signal is killed as it starts. Its stdin and stdout are non-blocking and
driven by ``pump`` with a deadline, so an engine that stops reading cannot hang a write; its
stderr is drained in bulk by a thread keeping the last bytes.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import IO

from baobei_conform import signals

STDERR_KEEP = 64 * 1024  # bytes of the stderr tail kept
STDERR_LINES = 40  # lines of it shown with an error
READ_CHUNK = 1 << 16
SETTLE = 0.5  # seconds spent at most reading a flooded stderr pipe when an error quotes the tail


def stdio_env() -> dict[str, str]:
    """The environment engines run in (unbuffered Python output, so replies are never held back)."""
    return {**os.environ, "PYTHONUNBUFFERED": "1"}


class Groups:
    """The engine processes alive in this process, so a signal kills them all from the main thread, whatever
    thread (a run's worker) or call (a reply awaited for its timeout) holds them."""

    def __init__(self) -> None:
        self.live: set[EngineProcess] = set()
        self.lock = threading.RLock()  # re-entered by a signal's hook landing while the main thread holds it

    def add(self, process: EngineProcess) -> None:
        with self.lock:
            self.live.add(process)
        if signals.received() is not None:  # started after the signal's kill (checked after adding: none is missed)
            process.kill_group()

    def discard(self, process: EngineProcess) -> None:
        with self.lock:
            self.live.discard(process)

    def kill_all(self) -> None:
        with self.lock:
            live = list(self.live)
        for process in live:
            process.kill_group()


GROUPS = Groups()
signals.always(GROUPS.kill_all)


def _piped(popen: subprocess.Popen[bytes]) -> tuple[IO[bytes], IO[bytes], IO[bytes]]:
    """Its stdin, stdout and stderr: opened as ``subprocess.PIPE``, so never None (typeshed types them optional)."""
    if popen.stdin is None or popen.stdout is None or popen.stderr is None:
        raise OSError("the engine's pipes are not open")
    return popen.stdin, popen.stdout, popen.stderr


class EngineProcess:
    """One started engine process; ``OSError`` when it cannot be started."""

    def __init__(self, command: list[str], cwd: str | Path | None = None):
        with signals.deferred():  # a signal while it starts is raised once the group is known: it is killed then
            self.popen = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          stderr=subprocess.PIPE, bufsize=0, cwd=cwd, env=stdio_env(),
                                          start_new_session=True)
            self.pgid = self.popen.pid  # the leader of its own session and group
            GROUPS.add(self)
        self.pipes = _piped(self.popen)
        self.stdin, self.stdout = self.pipes[0].fileno(), self.pipes[1].fileno()
        os.set_blocking(self.stdin, False)
        os.set_blocking(self.stdout, False)
        try:  # readable when the engine exits: an exit is seen at once even if a forked child holds stdout open
            self.exit_fd: int | None = os.pidfd_open(self.popen.pid)
        except (AttributeError, OSError):
            self.exit_fd = None
        self.unwritten = bytearray()
        self.input_closed = False
        self._tail = bytearray()
        self._tail_lock = threading.Lock()
        self._stderr_ended = False
        os.set_blocking(self.pipes[2].fileno(), False)
        self._drainer = threading.Thread(target=self._drain, name=f"stderr-{self.pgid}", daemon=True)
        self._drainer.start()

    def _drain(self) -> None:
        """Keep reading stderr as it comes, so an engine that logs a lot never blocks on a full pipe."""
        fd = self.pipes[2].fileno()
        while not self._stderr_ended:
            try:
                select.select([fd], [], [])
            except (OSError, ValueError):  # closed by ``kill``
                return
            with self._tail_lock:
                self._read_stderr(time.monotonic())  # one chunk per turn: an error's tail never waits long

    def _read_stderr(self, deadline: float) -> None:
        """Move what waits in the stderr pipe into the tail, until it is empty, ended or ``deadline`` passed.

        Called under ``_tail_lock`` only: a chunk is read and kept in one step, so the pipe never looks
        empty while bytes the engine wrote are on their way into the tail."""
        fd = self.pipes[2].fileno()
        while not self._stderr_ended:
            try:
                chunk = os.read(fd, READ_CHUNK)
            except BlockingIOError:
                return
            except OSError:
                chunk = b""
            if not chunk:
                self._stderr_ended = True
                return
            self._tail += chunk
            if len(self._tail) > 2 * STDERR_KEEP:
                del self._tail[:-STDERR_KEEP]
            if time.monotonic() >= deadline:
                return

    def stderr_tail(self) -> str:
        """The last lines of stderr, as text: all the engine wrote before it answered included (what waits
        in the pipe is read first, for up to ``SETTLE`` seconds if the engine floods it)."""
        with self._tail_lock:
            self._read_stderr(time.monotonic() + SETTLE)
            tail = bytes(self._tail[-STDERR_KEEP:])
        return "\n".join(tail.decode("utf-8", "replace").rstrip("\n").split("\n")[-STDERR_LINES:]) if tail else ""

    @property
    def returncode(self) -> int | None:
        return self.popen.returncode

    def exited(self) -> bool:
        return self.popen.poll() is not None

    def write(self, data: bytes) -> None:
        """Queue bytes for the engine's stdin and write what the pipe takes now, without blocking."""
        self.unwritten += data
        self._flush()

    def _flush(self) -> None:
        while self.unwritten and not self.input_closed:
            try:
                written = os.write(self.stdin, self.unwritten)
            except BlockingIOError:
                return
            except OSError:  # the engine closed its input; its replies or its exit say what went wrong
                self.input_closed = True
                self.unwritten.clear()
                return
            del self.unwritten[:written]

    def pump(self, deadline: float) -> bytes | None:
        """Write what is queued and read what the engine wrote, until output arrives or ``deadline``.

        Returns the bytes read, ``b""`` at the deadline, None when the output ended or the engine exited.
        """
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return b""
            readers = [self.stdout] + ([self.exit_fd] if self.exit_fd is not None else [])
            writers = [self.stdin] if self.unwritten and not self.input_closed else []
            ready, writable, _ = select.select(readers, writers, [], min(left, 0.5 if self.exit_fd is None else left))
            if writable:
                self._flush()
            if self.stdout in ready:
                try:
                    chunk = os.read(self.stdout, READ_CHUNK)
                except BlockingIOError:
                    continue
                return chunk or None
            if (self.exit_fd is not None and self.exit_fd in ready) or (self.exit_fd is None and self.exited()):
                return None

    def wait_exit(self, seconds: float) -> bool:
        """Write what is queued and wait up to ``seconds`` for the engine to exit by itself."""
        deadline = time.monotonic() + seconds
        while not self.exited() and time.monotonic() < deadline:
            if self.pump(min(deadline, time.monotonic() + 0.05)) is None:
                break
        try:
            self.popen.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            return False
        return True

    def exit_code(self, seconds: float = 2.0) -> int | None:
        """The engine's exit code once its output ended (None if it is still running), its stderr read to the end."""
        try:
            code = self.popen.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            return None
        self._drainer.join(timeout=0.5)
        return code

    def kill_group(self) -> None:
        """SIGKILL to every process of the engine's group: also what it forked (a wrapper's child, a helper)."""
        try:
            os.killpg(self.pgid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    def kill(self) -> int | None:
        """Kill the whole process group, reap the engine, close the pipes; returns its exit code."""
        self.kill_group()
        code = self.popen.wait()
        GROUPS.discard(self)
        self._drainer.join(timeout=2)
        for stream in self.pipes:
            try:
                stream.close()
            except OSError:
                pass
        if self.exit_fd is not None:
            os.close(self.exit_fd)
            self.exit_fd = None
        return code
