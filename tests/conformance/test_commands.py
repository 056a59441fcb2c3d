"""The protocol's commands are one table (conformance/engines/commands.py): the schema, the docs, the client, the
server and the engine interface are each held to it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import get_args

import pytest

from baobei_conform.cli.smoke import DRAW, TABLE
from baobei_conform.dsl.compile import compile_script
from baobei_conform.dsl.parse import parse_script
from baobei_conform.engines.api import Call, Engine
from baobei_conform.engines.commands import CALLS, CAPABILITIES, COMMANDS, request
from baobei_conform.engines.reference import ReferenceEngine, params_to_json
from baobei_conform.protocol import PROTOCOL_VERSION, requests
from baobei_conform.protocol.server import HANDLERS, SPECIAL, Log, handle
from baobei_conform.protocol.validate import MessageValidator
from baobei_spec import SPEC_ROOT

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((SPEC_ROOT / "schemas" / "protocol.schema.json").read_text(encoding="utf-8"))["$defs"]
ENVELOPE = {"seq", "cmd", "ok"}


def _calls() -> dict[str, tuple]:
    """One runner call of every command, with arguments the reference accepts."""
    state = compile_script(parse_script(TABLE))[0]["state"]
    return {"hello": ("hello", PROTOCOL_VERSION, params_to_json()), "setup": ("setup", state, None),
            "apply": ("apply", DRAW), "state": ("state",), "view": ("view", 0), "legal_actions": ("legal_actions",),
            "new_game": ("new_game", 3), "stop": ("stop",)}


def test_the_schema_defines_each_command_and_its_reply():
    assert {ref["$ref"].rsplit("/", 1)[1] for ref in SCHEMA["request"]["oneOf"]} == set(COMMANDS)
    for name, command in COMMANDS.items():
        fields = set(SCHEMA[name]["properties"]) - ENVELOPE
        assert fields == set(command.fields), name
        reply = SCHEMA[command.schema]
        assert set(command.reply) <= set(reply["properties"]) - ENVELOPE, name
        assert set(reply.get("required", ())) - ENVELOPE <= set(command.reply), name


def test_the_docs_table_lists_each_command_with_its_fields():
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    table = text.split("## 3. Commands")[1].split("### 3.1")[0]
    rows = re.findall(r"^\| `(\w+)` \| ([^|]*) \| ([^|]*) \| [^|]* \|$", table, re.M)[1:]  # after the header

    def names(cell: str) -> list[str]:  # the backticked names outside parentheses (those are remarks)
        return re.findall(r"`(\w+)`", re.sub(r"\([^)]*\)", "", cell))

    assert [name for name, _, _ in rows] == list(COMMANDS)
    for name, fields, reply in rows:
        assert (names(fields), names(reply)) == (list(COMMANDS[name].fields), list(COMMANDS[name].reply)), name


def test_every_request_the_client_builds_is_valid():
    validator = MessageValidator()
    for name, call in _calls().items():
        validator.check_request({"seq": 1, **request(call)})
        assert request(call)["cmd"] == name


def test_the_server_has_one_handler_per_command_and_checks_every_field():
    assert list(HANDLERS) == list(COMMANDS)
    assert set(SPECIAL) < set(COMMANDS)  # no handler of a command the table lacks
    assert set(requests.FIELDS) | {"params"} == {f for c in COMMANDS.values() for f in c.fields}
    assert set(requests.PARAMS) == {name for name, c in COMMANDS.items() if "params" in c.fields}


def test_the_server_answers_every_command_as_its_schema_says():
    engine, log, validator = ReferenceEngine(), Log(), MessageValidator()
    for name, call in _calls().items():
        reply = handle(engine, request(call), log)
        assert reply["ok"], (name, reply)
        validator.check_reply(name, {"seq": 1, **reply}, json.dumps(reply))
    unknown = handle(engine, {"cmd": "teleport"}, log)
    assert unknown["error"]["code"] == "unsupported"


def test_hello_announces_what_the_served_engine_offers():
    class Plain(ReferenceEngine):
        capabilities = frozenset({"events"})
        info = {"name": "plain", "version": "9"}

    reply = handle(Plain(), request(_calls()["hello"]))
    assert (reply["engine"], reply["capabilities"]) == ({"name": "plain", "version": "9"}, ["events"])
    assert set(CAPABILITIES) == {"events", "views", "legal_actions"}


@pytest.mark.parametrize("name", CALLS)
def test_the_engine_interface_has_a_method_for_every_call(name):
    assert callable(getattr(Engine, name)) and callable(getattr(ReferenceEngine, name))


def test_the_call_type_is_the_commands_table():
    """``engine_api.Call`` (what mypy holds every call to) names each command a run calls, with its request
    fields: a command added to the table, or a field, fails here until the type says it too."""
    typed = {get_args(get_args(option)[0])[0]: len(get_args(option)) - 1 for option in get_args(Call)}
    assert typed == {name: len(COMMANDS[name].fields) for name in CALLS}
