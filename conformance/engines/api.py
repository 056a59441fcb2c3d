"""The one engine interface the harness drives, whether the engine runs in process or over the protocol.

Both sides answer *calls* like ``("apply", action)`` in batches: ``send`` hands a batch over without
waiting, ``collect`` returns its results in order (an exception object where a call failed, and after
an engine problem the same problem for every later call). A scenario run yields its calls, the one
driver (runner/driver.py) keeps several runs in flight; neither needs to know what runs the engine.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Literal

from baobei_spec.conditions import Json

# A call of a scenario's run: a command of commands.CALLS and its request fields, in order (tests/conformance/
# test_commands.py holds the two together).
Call = (tuple[Literal["setup"], Json, Json | None] | tuple[Literal["new_game"], int] | tuple[Literal["apply"], Json]
        | tuple[Literal["state"]] | tuple[Literal["view"], int] | tuple[Literal["legal_actions"]])
Results = list[Any]  # one per call, in order: its result (the method's return value), or the exception it raised


class EngineProblem(Exception):
    """The engine misbehaved; the scenario is an ``error``, the engine gets restarted."""

    def __init__(self, message: str, stderr: str = "", raw: str = ""):
        self.message, self.stderr, self.raw = message, stderr, raw
        super().__init__(message)


class EngineTimeout(EngineProblem):
    """No answer in time: counts towards the circuit breaker."""


class EngineCrashed(EngineProblem):
    """The engine died or could not start: counts towards the circuit breaker."""


class EngineUnstartable(EngineCrashed):
    """The engine's command cannot be executed at all (no such file, not executable): an input error."""


class ProtocolError(EngineProblem):
    """The engine answered, but not by the protocol."""


class Unsupported(Exception):
    """The engine answered ``unsupported``: scenarios that need it are skipped, with this reason."""


class Engine(ABC):
    """What the runner and the harness drive. ``apply`` returns (events, None) or (None, error code)."""

    name: str = "engine"
    capabilities: frozenset[str] | set[str] = frozenset()
    info: Json = {}
    # Whether ``send`` returns before the engine has worked on the calls (another process). Only then do
    # several scenarios' calls go out together: in process, a hang in one would hold back the others' results.
    works_apart: bool = False

    @abstractmethod
    def send(self, calls: list[Call]) -> Any:
        """Hand the calls over without waiting for their results; returns a ticket for ``collect``."""

    @abstractmethod
    def collect(self, ticket: Any) -> Results:
        """The results of one ``send``, in order; sends are collected in the order they were made."""

    def batch(self, calls: list[Call]) -> Results:
        return self.collect(self.send(calls))

    def stop(self) -> None:
        """Release the engine (a process is stopped and reaped); the default has nothing to release."""
        return None

    def abort(self) -> None:
        """Kill the engine now, from another thread (Ctrl-C); the worker using it still calls ``stop``."""
        return None

    def _one(self, call: Call) -> Any:
        (result,) = self.batch([call])
        if isinstance(result, Exception):
            raise result
        return result

    def setup(self, state: Json, params: Json | None) -> None:
        self._one(("setup", state, params))

    def new_game(self, players: int) -> str | None:
        """None, or the error code of a refused player count."""
        return self._one(("new_game", players))

    def apply(self, action: Json) -> tuple[list[Json] | None, str | None]:
        return self._one(("apply", action))

    def state(self) -> Json:
        return self._one(("state",))

    def view(self, player: int) -> Json:
        return self._one(("view", player))

    def legal_actions(self) -> list[Json]:
        return self._one(("legal_actions",))


def run_calls(rules: Any, calls: list[Call]) -> Results:
    """Results of calls made on an object with the engine's methods, in process (see ``Engine``)."""
    results: Results = []
    for kind, *args in calls:
        try:
            results.append(getattr(rules, kind)(*args))
        except Unsupported as exc:
            results.append(exc)
        except Exception as exc:  # noqa: BLE001 - an engine that raises is an error for its scenario, not a dead run
            problem = exc if isinstance(exc, EngineProblem) else EngineProblem(
                f"the engine raised {type(exc).__name__}: {exc}")
            return results + [problem] * (len(calls) - len(results))
    return results


class InProcess(Engine):
    """Any Python object with ``setup``, ``new_game``, ``apply``, ``state`` and ``view`` (a ``python:`` factory's)."""

    def __init__(self, rules: Any):
        self.rules = rules
        self.name = getattr(rules, "name", type(rules).__name__)
        self.capabilities = frozenset(getattr(rules, "capabilities", ()))
        self.info = dict(getattr(rules, "info", None) or {"name": self.name})

    def send(self, calls: list[Call]) -> Results:
        return run_calls(self.rules, calls)

    def collect(self, ticket: Results) -> Results:
        return ticket

    def stop(self) -> None:
        stop = getattr(self.rules, "stop", None)  # optional for python: engines (docs/protocol.md, section 10)
        if callable(stop):
            stop()


def as_engine(obj: Any) -> Engine:
    """The engine interface of what a factory returned."""
    return obj if isinstance(obj, Engine) else InProcess(obj)
