"""Errors a person can fix: file, line, column, the offending text with a caret, what was expected."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def nearest(value: str, known: Iterable[str]) -> str:
    """``; nearest: a, b`` with the closest known names, or nothing when none is close."""
    close = difflib.get_close_matches(value, list(known), n=3, cutoff=0.5)
    return f"; nearest: {', '.join(close)}" if close else ""


class ScenarioError(Exception):
    """A malformed scenario. ``str()`` gives ``file:line:col: message`` and the line with a caret.

    ``more`` holds further errors found in the same pass (every misspelt name, not only the first).
    """

    def __init__(self, message: str, file: str = "<script>", line: int = 0, column: int = 0, text: str = "",
                 more: tuple[ScenarioError, ...] = ()):
        self.message, self.file, self.line, self.column, self.text = message, file, line, column, text
        self.more = tuple(more)
        super().__init__(self.render())

    def render(self) -> str:
        where = f"{self.file}:{self.line}:{self.column}" if self.line else self.file
        out = f"{where}: {self.message}"
        if self.text:
            out += f"\n    {self.text}\n    {' ' * max(self.column - 1, 0)}^"
        return "\n".join([out, *(m.render() for m in self.more)])

    def located(self, file: str, line_offset: int, column_offset: int, lines: list[str]) -> ScenarioError:
        """The same error placed in the file that holds the script."""
        line = self.line + line_offset
        text = lines[line - 1] if 0 < line <= len(lines) else self.text
        more = tuple(m.located(file, line_offset, column_offset, lines) for m in self.more)
        return ScenarioError(self.message, file, line, self.column + column_offset if self.line else 0, text, more)
