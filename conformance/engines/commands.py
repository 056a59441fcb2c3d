"""The engine protocol's commands, in one place (docs/protocol.md, section 3).

The stdio client builds its requests and reads its replies from this table, the validator picks each
reply's schema from it, and tests hold the rest against it: the server answers every command, the
schema (``spec/schemas/protocol.schema.json``) defines each request and reply, the docs' table lists
them, and the engine interface (engines/api.py) has a method for every command a scenario's run calls.
Adding a command starts here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from baobei_conform.engines.api import Call
from baobei_spec.conditions import Json

Hello = tuple[Literal["hello"], str, Json]  # the handshake's request: the protocol version, the rule parameters


@dataclass(frozen=True)
class Command:
    name: str
    fields: tuple[str, ...]  # request fields besides cmd and seq, in the order of the runner's call arguments
    reply: tuple[str, ...]  # fields of an ``ok: true`` reply besides ok and seq
    result: str | None  # the reply field the harness reads (None: the reply says only ok)
    capability: str | None  # sent only to engines that announce it in hello
    called: bool  # part of a scenario's run (an engine interface method), not of the process's life
    schema: str  # the $defs entry of protocol.schema.json for the ``ok: true`` reply


COMMANDS: dict[str, Command] = {c.name: c for c in (
    Command("hello", ("protocol", "params"), ("engine", "capabilities"), None, None, False, "reply_hello"),
    Command("setup", ("state", "params"), (), None, None, True, "reply_ok"),
    Command("apply", ("action",), ("events",), "events", None, True, "reply_apply"),
    Command("state", (), ("state",), "state", None, True, "reply_state"),
    Command("view", ("player",), ("view",), "view", "views", True, "reply_view"),
    Command("legal_actions", (), ("actions",), "actions", "legal_actions", True, "reply_legal_actions"),
    Command("new_game", ("players",), (), None, None, True, "reply_ok"),
    Command("stop", (), (), None, None, False, "reply_ok"),
)}
# What an engine may announce in hello: the commands' capabilities, and the events of apply replies.
CAPABILITIES = ("events", *sorted({c.capability for c in COMMANDS.values() if c.capability}))
CALLS = tuple(name for name, c in COMMANDS.items() if c.called)


def request(call: Call | Hello) -> Json:
    """The request for a runner call such as ``("apply", action)`` (without seq)."""
    name, *args = call
    return {"cmd": name, **dict(zip(COMMANDS[name].fields, args, strict=True))}
