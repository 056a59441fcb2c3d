"""Apply a small mutation to a module of the judge in process: the mutated source is compiled and its
functions' code swapped into the live functions (every reference to them sees it), then restored."""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import CodeType, FunctionType


@dataclass(frozen=True)
class Mutant:
    module: str
    old: str  # a snippet that occurs exactly once in the module's source
    new: str
    why: str  # the bug it plants, in words


def _codes(code: CodeType) -> Iterator[CodeType]:
    for const in code.co_consts:
        if isinstance(const, CodeType):
            yield const
            yield from _codes(const)


def _functions(module) -> list[FunctionType]:
    """The module's own functions and the methods of its own classes."""
    out = []
    for value in vars(module).values():
        if isinstance(value, FunctionType) and value.__module__ == module.__name__:
            out.append(value)
        elif isinstance(value, type) and value.__module__ == module.__name__:
            out += [f for f in vars(value).values() if isinstance(f, FunctionType)]
    return out


@contextmanager
def applied(mutant: Mutant) -> Iterator[None]:
    module = importlib.import_module(mutant.module)
    source = inspect.getsource(module)
    assert source.count(mutant.old) == 1, f"{mutant.module}: the snippet must occur once: {mutant.old!r}"
    mutated = {c.co_qualname: c for c in _codes(compile(source.replace(mutant.old, mutant.new), module.__file__,
                                                         "exec"))}
    swapped = [(f, f.__code__) for f in _functions(module)
               if f.__code__.co_qualname in mutated and mutated[f.__code__.co_qualname] != f.__code__]
    assert swapped, f"{mutant.why}: the mutation changes no function"
    try:
        for function, _ in swapped:
            function.__code__ = mutated[function.__code__.co_qualname]
        yield
    finally:
        for function, original in swapped:
            function.__code__ = original
