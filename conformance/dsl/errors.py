"""Errors a person can fix: file, line, column, the offending text with a caret, what was expected."""

from __future__ import annotations


class ScenarioError(Exception):
    """A malformed scenario. ``str()`` gives ``file:line:col: message`` and the line with a caret."""

    def __init__(self, message: str, file: str = "<script>", line: int = 0, column: int = 0, text: str = ""):
        self.message, self.file, self.line, self.column, self.text = message, file, line, column, text
        super().__init__(self.render())

    def render(self) -> str:
        where = f"{self.file}:{self.line}:{self.column}" if self.line else self.file
        out = f"{where}: {self.message}"
        if self.text:
            out += f"\n    {self.text}\n    {' ' * max(self.column - 1, 0)}^"
        return out

    def located(self, file: str, line_offset: int, column_offset: int, lines: list[str]) -> ScenarioError:
        """The same error placed in the file that holds the script."""
        line = self.line + line_offset
        text = lines[line - 1] if 0 < line <= len(lines) else self.text
        return ScenarioError(self.message, file, line, self.column + column_offset if self.line else 0, text)
