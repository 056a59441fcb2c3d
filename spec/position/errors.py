"""The one error of a position that cannot exist: the field's path and why, as ``malformed_state`` reports it."""

from __future__ import annotations


class MalformedState(ValueError):
    """A canonical state (or a setup block) that is no position of the game. ``path`` names the field
    (``owed_powers[0].card``, ``zones.1[3]``), ``why`` what is wrong with it."""

    def __init__(self, path: str, why: str) -> None:
        self.path, self.why = path, why
        super().__init__(f"{path}: {why}" if path else why)


def need(ok: bool, path: str, why: str) -> None:
    """Raise MalformedState(path, why) unless ``ok``."""
    if not ok:
        raise MalformedState(path, why)
