"""``baobei-ref serve``: the reference interpreter as a protocol engine on stdin/stdout.

Any engine can be wrapped the same way: ``serve(engine_factory)`` answers every command of the
protocol (engines/commands.py: ``HANDLERS`` is derived from its table) with an object that has the runner's
engine methods; its ``info`` and ``capabilities`` are what hello announces. A request is checked before the
engine sees it (requests.py): a malformed one is answered with a protocol error naming the command and the
field. A ``setup`` whose state is no position of the game is ``malformed_state`` from the reference's one
validator (``Game.from_json``, ``baobei_spec.position``). Request lines are read in linear time and at most
``max_line`` bytes long.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Callable, Collection, Iterator
from typing import IO, Any, Protocol

from baobei_conform import signals
from baobei_conform.engines.commands import COMMANDS, Command
from baobei_conform.engines.reference import ReferenceEngine, params_to_json
from baobei_conform.engines.wire import Unbounded, decode, encode
from baobei_conform.protocol import PROTOCOL_VERSION
from baobei_conform.protocol.client import MAX_LINE
from baobei_conform.protocol.requests import BadRequest, check_handshake, check_overrides, check_request
from baobei_ref import RuleError
from baobei_spec.conditions import Json

NEEDS_GAME = ("apply", "state", "view", "legal_actions")  # answered only once setup or new_game started a game


class Served(Protocol):
    """What ``serve`` answers with: the engine methods (``engine_api.Engine``'s), what hello announces, and
    ``configure`` to adopt the handshake's rule parameters."""

    @property
    def info(self) -> Json: ...

    @property
    def capabilities(self) -> Collection[str]: ...

    def configure(self, params: Json | None) -> None: ...

    def setup(self, state: Json, params: Json | None) -> None: ...

    def new_game(self, players: int) -> str | None: ...

    def apply(self, action: Json) -> tuple[list[Json] | None, str | None]: ...

    def state(self) -> Json: ...

    def view(self, player: int) -> Json: ...

    def legal_actions(self) -> list[Json]: ...


class Log:
    """How the served game came to be (its setup or new game, the actions accepted since), to rebuild it
    when a request fails half-way: a request that is not accepted never changes the state. Also the
    handshake's parameters (a setup's catalog is checked against them) and the seats of the game."""

    def __init__(self) -> None:
        self.origin: tuple[Any, ...] | None = None  # (the command, its arguments): setup or new_game
        self.accepted: list[Json] = []
        self.seats: int | None = None  # of the game (None: no game yet, or a setup that did not say)
        self.handshake: dict[str, Any] = params_to_json()  # until hello says otherwise

    def start(self, seats: object, *origin: Any) -> None:
        self.origin, self.accepted = origin, []
        self.seats = seats if type(seats) is int else None

    def rebuild(self, engine: Served) -> None:
        if self.origin is None:
            return
        kind, *args = self.origin
        getattr(engine, kind)(*args)
        for action in self.accepted:
            engine.apply(action)


def _error(code: str, message: str | None = None) -> Json:
    return {"ok": False, "error": {"code": code} if message is None else {"code": code, "message": message}}


def _hello(engine: Served, request: Json, log: Log) -> Json:
    if request["protocol"].split(".")[0] != PROTOCOL_VERSION.split(".")[0]:
        return _error("protocol_version", f"speaks {PROTOCOL_VERSION}")
    check_handshake(request["params"])
    engine.configure(request["params"])
    log.handshake = request["params"]
    reply = {"ok": True, "engine": dict(engine.info), "capabilities": sorted(engine.capabilities)}
    readings = getattr(engine, "readings", None)
    if readings:
        reply["readings"] = readings  # rulings read otherwise than adopted (docs/protocol.md 3.1)
    return reply


def _setup(engine: Served, request: Json, log: Log) -> Json:
    """Adopt a position; the reference refuses one that is no position of the game (keeping the game it had)."""
    state, params = request["state"], request["params"]
    if params is not None:
        check_overrides(params, log.handshake)
    try:
        engine.setup(state, params)
    except RuleError as exc:  # checked before anything changed: the engine keeps the game it had
        return _error("malformed_state", exc.message)
    log.start(state.get("seats"), "setup", state, params)
    return {"ok": True}


def _new_game(engine: Served, request: Json, log: Log) -> Json:
    players = request["players"]
    code = engine.new_game(players)
    if code is not None:
        return _error(code, f"no game for {players} players")
    log.start(players, "new_game", players)
    return {"ok": True}


def _apply(engine: Served, request: Json, log: Log) -> Json:
    try:
        events, code = engine.apply(request["action"])
    except Exception:
        log.rebuild(engine)  # the reference failed half-way (a position it cannot play on): undo
        raise
    if code is not None:
        return _error(code)
    log.accepted.append(request["action"])
    return {"ok": True, "events": events}


def _view(engine: Served, request: Json, log: Log) -> Json:
    player, seats = request["player"], log.seats
    if seats is not None and not 0 <= player < seats:
        raise BadRequest("engine_error", f"view: player {player} is not at the table (seats 0 to {seats - 1})")
    return {"ok": True, "view": engine.view(player)}


Handler = Callable[[Served, Json, Log], Json]
# The commands the server does more for than call the engine: the handshake, a game's start (logged to rebuild it),
# an action (undone when the reference fails half-way), a view (of a seat at the table), the end.
SPECIAL: dict[str, Handler] = {
    "hello": _hello,
    "setup": _setup,
    "apply": _apply,
    "view": _view,
    "new_game": _new_game,
    "stop": lambda engine, request, log: {"ok": True},
}


def _answered(command: Command) -> Handler:
    """A command the engine answers alone: its method of the command's name, the request's fields its arguments,
    what it returns the reply's result field."""
    def answer(engine: Served, request: Json, log: Log) -> Json:
        result = getattr(engine, command.name)(*(request[f] for f in command.fields))
        return {"ok": True, command.result: result} if command.result else {"ok": True}
    return answer


# One handler per command of the table (engines/commands.py), in its order: a new command the engine answers alone
# needs nothing here.
HANDLERS: dict[str, Handler] = {name: SPECIAL.get(name) or _answered(c) for name, c in COMMANDS.items()}


def handle(engine: Served, request: Json, log: Log | None = None) -> Json:
    """One request -> one reply (without seq); a malformed request gets a protocol error, the engine untouched."""
    log = log or Log()
    try:
        cmd = check_request(request)
        if cmd in NEEDS_GAME and log.origin is None and getattr(engine, "game", None) is None:
            raise BadRequest("engine_error", f"{cmd}: no game yet: start one with setup or new_game")
        return HANDLERS[cmd](engine, request, log)
    except BadRequest as exc:
        return _error(exc.code, exc.message)


def _request(line: bytes | str) -> Json:
    """The request object of a line (BadRequest when it is none, or its seq is no integer from 1)."""
    try:
        parsed = decode(line if isinstance(line, bytes) else line.encode("utf-8", "surrogatepass"))
    except Unbounded as exc:
        raise BadRequest("engine_error", f"the request is out of bounds: {exc}") from None
    except ValueError:
        raise BadRequest("engine_error", "a request is one line of JSON (docs/protocol.md 2)") from None
    if not isinstance(parsed, dict):
        raise BadRequest("engine_error", "a request is a JSON object (docs/protocol.md 2)")
    return parsed


def _answer(engine: Served, line: bytes | str | None, log: Log | None = None,
            limit: int = MAX_LINE) -> tuple[bytes, bool]:
    """The reply line to one request line (None: a line longer than ``limit``), and whether it was ``stop``."""
    request: Json = {}
    try:
        if line is None:
            raise BadRequest("engine_error", f"a request line is at most {limit} bytes (docs/protocol.md 1)")
        request = _request(line)
        seq = request.get("seq")
        if type(seq) is not int or seq < 1:
            raise BadRequest("engine_error", f"seq must be an integer from 1, not {seq!r} (docs/protocol.md 2)")
        reply = handle(engine, request, log)
    except BadRequest as exc:
        reply = _error(exc.code, exc.message)
    except Exception as exc:  # a bug of the engine: answered, never the end of the process
        reply = _error("engine_error", f"the engine failed on this {request.get('cmd')!r} request "
                                       f"({type(exc).__name__}); the game is as it was before it")
    reply["seq"] = request.get("seq")
    return encode(reply), request.get("cmd") == "stop" and reply["ok"] is True


class Lines:
    """Request lines as they arrive, every complete line of a read together; linear in what is read (a line
    builds up in one buffer, scanned once). A line longer than ``limit`` bytes is dropped as it comes and
    stands as None, so it is answered without being held."""

    def __init__(self, limit: int = MAX_LINE) -> None:
        self.limit = limit
        self.buffer = bytearray()
        self.dropping = False  # inside a line already too long

    def feed(self, chunk: bytes) -> list[bytes | None]:
        lines: list[bytes | None] = []
        start = 0
        while (newline := chunk.find(b"\n", start)) >= 0:
            lines.append(self._end(chunk[start:newline]))
            start = newline + 1
        self._add(chunk[start:])
        return lines

    def close(self) -> list[bytes | None]:
        """What is left at the end of input: a last line without its newline."""
        left = None if self.dropping else bytes(self.buffer)
        return [left] if left is None or left.strip() else []

    def _add(self, piece: bytes) -> None:
        if not self.dropping and len(self.buffer) + len(piece) > self.limit:
            self.dropping = True
            self.buffer.clear()
        if not self.dropping:
            self.buffer += piece

    def _end(self, piece: bytes) -> bytes | None:
        if self.buffer or self.dropping:  # the line began in an earlier read
            self._add(piece)
            line = None if self.dropping else bytes(self.buffer)
        else:
            line = piece if len(piece) <= self.limit else None
        self.buffer.clear()
        self.dropping = False
        return line


def _batches(stdin: IO[Any], limit: int = MAX_LINE) -> Iterator[list[bytes | str | None]]:
    """Lists of request lines as they arrive: every complete line already sent is answered together."""
    try:
        fd = stdin.fileno()
    except (AttributeError, OSError, io.UnsupportedOperation):
        for line in stdin:
            yield [line if len(line) <= limit else None]
        return
    lines = Lines(limit)
    while chunk := os.read(fd, 1 << 16):
        batch = lines.feed(chunk)
        if batch:
            yield list(batch)  # bytes: json reads UTF-8 itself
    last = lines.close()
    if last:
        yield list(last)


def _blank(line: bytes | str | None) -> bool:
    return line is not None and not line.strip()


def serve(factory: Callable[[], Served] = ReferenceEngine, stdin: IO[Any] | None = None,
          stdout: IO[Any] | None = None, max_line: int = MAX_LINE) -> int:
    """Answer requests until ``stop`` or end of input; replies to pipelined requests go out in one write."""
    stdin, stdout = stdin or sys.stdin, stdout or sys.stdout
    out = getattr(stdout, "buffer", None)  # write bytes straight to a real stdout
    engine, log = factory(), Log()
    for lines in _batches(stdin, max_line):
        replies, stop = [], False
        for line in lines:
            if not _blank(line):
                reply, stop = _answer(engine, line, log, max_line)
                replies.append(reply)
                if stop:
                    break
        data = b"".join(replies)
        if out is not None:
            out.write(data)
            out.flush()
        else:
            stdout.write(data.decode())
            stdout.flush()
        if stop:
            break
    return 0


def main(argv: list[str] | None = None) -> int:
    """``baobei-ref serve``; SIGINT and SIGTERM end it quietly (exit 130, 143: signals.py), as the end of input does."""
    import argparse

    parser = argparse.ArgumentParser(prog="baobei-ref", description="The BAO BEI reference interpreter")
    sub = parser.add_subparsers(dest="command", required=True)
    serve_parser = sub.add_parser("serve", help="answer the engine protocol on stdin/stdout")
    serve_parser.add_argument("--reading", action="append", default=[], metavar="R-05=A",
                              help="follow this reading of a ruling instead of the adopted one (declared in hello)")
    serve_parser.add_argument("--max-line", type=int, default=MAX_LINE, metavar="BYTES",
                              help=f"longest request line accepted (default {MAX_LINE}, 16 MiB); a longer one is "
                                   "answered with engine_error")
    args = parser.parse_args(argv)
    readings = dict(r.split("=", 1) for r in args.reading if "=" in r)
    if len(readings) != len(args.reading):
        parser.error("--reading takes RULING=READING, e.g. R-05=A")
    if args.max_line < 1:
        parser.error("--max-line must be at least 1")
    with signals.handled(process=argv is None):  # the process's command: a later signal never kills it
        try:
            return serve(lambda: ReferenceEngine(readings), max_line=args.max_line)
        except KeyboardInterrupt:
            return signals.exit_code()


if __name__ == "__main__":
    sys.exit(main())
