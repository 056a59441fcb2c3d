"""SIGINT and SIGTERM end every command the same way: the work stops at once, the engines are killed, the
outputs are written marked incomplete, and the exit code says which signal came (130, 143), with one line.

``handled()`` goes around a whole command, in the main thread. The first signal runs the hooks registered
with ``on_signal`` (the run marks itself interrupted before its engines die, protocol/process.py kills every
engine process group, so no reply is waited for) and raises ``KeyboardInterrupt`` where the main thread is:
each command's ``except KeyboardInterrupt`` keeps what it has. A later signal does nothing (an engine started
after the first is killed as it starts: process.py), and the first raises nothing while the outputs are written
(``shielded``), so they are never cut short and no traceback is printed; one while an engine process starts
(``deferred``) is raised once the process is known.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator

CODES: dict[int, int] = {signal.SIGINT: 130, signal.SIGTERM: 143}  # 128 + the signal's number, as a shell reports it
WORDS: dict[int, str] = {signal.SIGINT: "interrupted", signal.SIGTERM: "terminated"}

_received: list[int] = []  # the first signal that came while handled
_hooks: list[Callable[[], None]] = []  # run at the first signal, the latest registered first
_held: list[list[bool]] = []  # sections where the first signal raises nothing now (shielded, deferred)


def received() -> int | None:
    """The signal that came during the command, or None."""
    return _received[0] if _received else None


def exit_code() -> int:
    """The command's exit code after a signal (130 for Ctrl-C, also when KeyboardInterrupt came another way)."""
    return CODES.get(received() or signal.SIGINT, 130)


def word() -> str:
    """The one line said on stderr: ``interrupted`` or ``terminated``."""
    return WORDS.get(received() or signal.SIGINT, "interrupted")


@contextlib.contextmanager
def on_signal(hook: Callable[[], None]) -> Iterator[None]:
    """Run ``hook`` (in the main thread, before KeyboardInterrupt is raised) at a signal within."""
    _hooks.append(hook)
    try:
        yield
    finally:
        _hooks.remove(hook)


def always(hook: Callable[[], None]) -> None:
    """Run ``hook`` at the signal of every command this process runs (engine process groups: process.py)."""
    _hooks.append(hook)


@contextlib.contextmanager
def shielded() -> Iterator[None]:
    """A signal within raises nothing (it is remembered): what is being written is written whole."""
    with _holding():
        yield


@contextlib.contextmanager
def deferred() -> Iterator[None]:
    """A signal within raises its KeyboardInterrupt at the end of it: a process started within is known (and so
    killed by the hooks) before the raise can leave it behind."""
    with _holding() as held:
        yield
    if held and not _held:  # within another section, that one decides
        raise KeyboardInterrupt


@contextlib.contextmanager
def _holding() -> Iterator[list[bool]]:
    """A section of the main thread where the first signal's raise is held back; the list yielded says whether
    one was. (Elsewhere a signal is never raised: handlers run in the main thread.)"""
    held: list[bool] = []
    main = threading.current_thread() is threading.main_thread()
    if main:
        _held.append(held)
    try:
        yield held
    finally:
        if main:
            _held.remove(held)


def _handler(signum: int, frame) -> None:
    if _received:  # a later signal (even one landing in this handler): the first one's work is under way
        return
    _received.append(signum)
    for hook in reversed(list(_hooks)):
        hook()
    if _held:
        for section in _held:
            section.append(True)
    else:
        raise KeyboardInterrupt


def install() -> None:
    """Handle both signals for the rest of this process (a fuzzing job's: it ends when its work does)."""
    _received.clear()
    for number in CODES:
        signal.signal(number, _handler)


@contextlib.contextmanager
def handled(process: bool = False) -> Iterator[None]:
    """Both signals handled as above within (the previous handlers are put back after); outside the main
    thread, where no handler can be set, nothing changes. ``process``: the command is the whole process (a
    console script), so once a signal came, later ones are ignored until it exits: put back, the default
    handlers would kill it while it writes its last line or shuts down, with the signal's status instead of
    the first signal's exit code."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    saved = {number: signal.getsignal(number) for number in CODES}
    install()
    try:
        yield
    finally:
        after = signal.SIG_IGN if process and _received else None
        for number, handler in saved.items():
            signal.signal(number, after or handler)
        _received.clear()


@contextlib.contextmanager
def blocked() -> Iterator[None]:
    """Both signals held back in this thread within: a process started here starts with them blocked (the mask
    is inherited), so a signal that comes while it imports waits for its own handler (``unblock``)."""
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, set(CODES))
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def unblock() -> None:
    """Let both signals in (a process started under ``blocked``, once its handlers are set)."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, set(CODES))
