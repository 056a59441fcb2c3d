"""What a request must be before ``baobei-ref serve`` hands it to the engine (docs/protocol.md, sections 2 and 3).

A request names a command of ``commands.py`` and carries exactly its fields, each of its type; the rule
parameters of ``hello`` are complete and those a ``setup`` overrides are known ones. Anything else is answered
with a protocol error naming the command and the field (``unsupported`` for an unknown command, ``engine_error``
for a malformed request), never with the text of whatever exception it would have caused further in.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from baobei_conform.engines.commands import COMMANDS
from baobei_spec import default_spec
from baobei_spec.model import OVERRIDABLE

HANDSHAKE = ("catalog", "players", "hand_size", "decisive_hand_size", "initial_peek", "threshold",
             "bao_failure_minimum", "bao_failure_factor", "final_phase_recycle")  # docs/protocol.md 3.1
BY_COUNT = ("hand_size", "decisive_hand_size", "threshold")  # player count (a string) -> number
CATALOG_ENTRY = ("species", "family", "value", "power", "count")
BIG = 10 ** 9


class BadRequest(Exception):
    """A request the server refuses before the engine sees it: the reply's ``code`` and ``message``."""

    def __init__(self, code: str, message: str) -> None:
        self.code, self.message = code, message
        super().__init__(message)


def _need(ok: bool, message: str) -> None:
    if not ok:
        raise BadRequest("engine_error", message)


def _integer(value: Any, where: str, low: int = -BIG, high: int = BIG) -> None:
    _need(type(value) is int and low <= value <= high, f"{where} must be an integer from {low} to {high}")


def _object(value: Any, where: str) -> dict[str, Any]:
    _need(isinstance(value, dict), f"{where} must be a JSON object")
    return dict(value)


def _an_object(value: Any, where: str) -> None:
    _object(value, where)


def _any(value: Any, where: str) -> None:
    """An action of any shape: the engine refuses one that is no action with ``malformed_action`` (contract)."""


def _object_or_null(value: Any, where: str) -> None:
    if value is not None:
        _object(value, where)


def _string(value: Any, where: str) -> None:
    _need(isinstance(value, str), f"{where} must be a string like \"2.0\"")


def _player(value: Any, where: str) -> None:
    _integer(value, where, 0)


FIELDS: dict[str, Callable[[Any, str], None]] = {  # a request field -> its type check
    "protocol": _string, "state": _an_object, "action": _any, "player": _player, "players": _player,
}
PARAMS: dict[str, Callable[[Any, str], None]] = {"hello": _an_object, "setup": _object_or_null}


def check_request(request: dict[str, Any]) -> str:
    """The request's command once its fields are those of ``commands.py``, of their types (BadRequest otherwise).
    ``seq`` is the line's business (server.py)."""
    cmd = request.get("cmd")
    if not isinstance(cmd, str) or cmd not in COMMANDS:
        raise BadRequest("unsupported", f"unknown command {cmd!r}; the commands are {', '.join(COMMANDS)}")
    fields = COMMANDS[cmd].fields
    missing = [name for name in fields if name not in request]
    _need(not missing, f"{cmd}: missing field {', '.join(missing)} (a {cmd!r} request has "
          f"{', '.join(fields) or 'no fields but cmd and seq'})")
    extra = sorted(set(request) - {"cmd", "seq", *fields})
    _need(not extra, f"{cmd}: unknown field {', '.join(extra)} (a {cmd!r} request has "
          f"{', '.join(fields) or 'no fields but cmd and seq'})")
    for name in fields:
        check = PARAMS[cmd] if name == "params" else FIELDS[name]
        check(request[name], f"{cmd}: {name}")
    return cmd


def _by_count(value: Any, where: str) -> None:
    for key, number in _object(value, where).items():
        _need(key.isdigit(), f"{where}: {key!r} is no player count")
        _integer(number, f"{where}.{key}", 0)


def _catalog(value: Any, where: str) -> None:
    _need(isinstance(value, list) and bool(value), f"{where} must be a list of species")
    powers = {s.power for s in default_spec().species_list}
    for i, entry in enumerate(value):
        at = f"{where}[{i}]"
        entry = _object(entry, at)
        _need(set(entry) == set(CATALOG_ENTRY), f"{at} must be {{{', '.join(CATALOG_ENTRY)}}}")
        _need(isinstance(entry["species"], str) and bool(entry["species"]), f"{at}.species must be a species id")
        _need(isinstance(entry["family"], str), f"{at}.family must be a string")
        _integer(entry["value"], f"{at}.value")
        _need(entry["power"] in powers, f"{at}.power must be null or one of "
              f"{', '.join(sorted(p for p in powers if p))}")
        _integer(entry["count"], f"{at}.count", 1, 1000)
    species = [entry["species"] for entry in value]
    _need(len(set(species)) == len(species), f"{where} names a species twice")


def _check(name: str, value: Any, where: str) -> None:
    if name == "catalog":
        _catalog(value, where)
    elif name == "players":
        players = _object(value, where)
        _need(set(players) == {"min", "max"}, f"{where} must be {{min, max}}")
        _integer(players["min"], f"{where}.min", 2, 100)
        _integer(players["max"], f"{where}.max", players["min"], 100)
    elif name in BY_COUNT:
        _by_count(value, where)
    else:
        _integer(value, where, 0)


def check_handshake(params: dict[str, Any]) -> None:
    """``hello``'s rule parameters: every one of docs/protocol.md 3.1, of its type."""
    missing = [name for name in HANDSHAKE if name not in params]
    _need(not missing, f"hello: params lacks {', '.join(missing)}")
    extra = sorted(set(params) - set(HANDSHAKE))
    _need(not extra, f"hello: params has unknown key {', '.join(extra)}; known: {', '.join(HANDSHAKE)}")
    for name in HANDSHAKE:
        _check(name, params[name], f"hello: params.{name}")
    players = params["players"]
    for name in BY_COUNT:
        counts = {int(k) for k in params[name]}
        _need(counts >= set(range(players["min"], players["max"] + 1)), f"hello: params.{name} needs every player "
              f"count from {players['min']} to {players['max']}")


def check_overrides(params: dict[str, Any], handshake: dict[str, Any]) -> None:
    """A ``setup``'s overrides: known rule parameters (docs/protocol.md 3.2); a catalog differs from the
    handshake's in card values only, so card ids and powers stay."""
    known = (*OVERRIDABLE, "catalog")
    extra = sorted(set(params) - set(known))
    _need(not extra, f"setup: params has unknown key {', '.join(extra)}; known: {', '.join(known)}")
    for name, value in params.items():
        _check(name, value, f"setup: params.{name}")
    if "catalog" in params:
        def fixed(entries: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
            return [(e["species"], e["family"], e["power"], e["count"]) for e in entries]
        _need(fixed(params["catalog"]) == fixed(handshake["catalog"]), "setup: params.catalog must list the "
              "handshake's species, families, powers and counts in its order (only card values may differ)")
