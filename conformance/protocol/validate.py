"""Validation mode: every request and reply is checked against spec/schemas/protocol.schema.json."""

from __future__ import annotations

import json

import jsonschema
from referencing import Registry, Resource

from baobei_conform.engines.api import ProtocolError
from baobei_conform.engines.commands import COMMANDS
from baobei_spec import SPEC_ROOT
from baobei_spec.conditions import Json

BASE = "https://baobei.invalid/schemas/"


class MessageValidator:
    """Checks messages; the first bad one raises ProtocolError naming what is wrong and the raw line."""

    def __init__(self) -> None:
        schemas = {n: json.loads((SPEC_ROOT / "schemas" / n).read_text(encoding="utf-8"))
                   for n in ("protocol.schema.json", "state.schema.json")}
        self.registry = Registry().with_resources((BASE + n, Resource.from_contents(s)) for n, s in schemas.items())
        self.root = schemas["protocol.schema.json"]

    def _validator(self, name: str) -> jsonschema.Draft202012Validator:
        schema = {"$ref": f"{BASE}protocol.schema.json#/$defs/{name}"}
        return jsonschema.Draft202012Validator(schema, registry=self.registry)

    def check_request(self, message: Json) -> None:
        self._check("request", message, json.dumps(message), "the harness sent")

    def check_reply(self, cmd: str, reply: Json, raw: str) -> None:
        name = (COMMANDS[cmd].schema if cmd in COMMANDS else "reply_ok") if reply.get("ok") else "error_reply"
        self._check(name, reply, raw, f"the {cmd!r} reply")

    def _check(self, name: str, message: Json, raw: str, who: str) -> None:
        error = jsonschema.exceptions.best_match(self._validator(name).iter_errors(message))
        if error is not None:
            where = "/".join(str(p) for p in error.absolute_path) or "(root)"
            raise ProtocolError(f"{who} breaks the protocol schema at {where}: {error.message}", raw=raw)
