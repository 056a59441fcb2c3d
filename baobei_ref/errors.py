"""The error an illegal action raises; its code is one of spec/errors.yaml."""

from __future__ import annotations


class RuleError(Exception):
    """An action the rules do not allow. The game state is left exactly as it was."""

    def __init__(self, code: str, message: str, clause: str | None = None):
        self.code = code
        self.message = message
        self.clause = clause
        super().__init__(f"{code}: {message}" + (f" ({clause})" if clause else ""))
