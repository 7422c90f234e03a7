"""Turn AST nodes into ``Finding``s with editor-ready ranges, and honour ``# noqa``.

Python's AST gives 0-based *UTF-8 byte* columns; ``Location`` wants 1-based
*character* columns (the language server converts to UTF-16 at its edge).
``end_column`` is exclusive (one past the last character), so an LSP client
gets the exact expression after subtracting one from both ends.
"""

from __future__ import annotations

import ast
import re
from typing import Any, Dict, Iterable, List, Optional, Sequence

from tapewatch import codes
from tapewatch.model import Finding, Location, Related

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
# ``# noqa`` silences every code on the line, ``# noqa: TW301, TW305`` only those.
_NOQA = re.compile(r"#\s*noqa(?::\s*(?P<codes>[A-Z]+[0-9]+(?:\s*,\s*[A-Z]+[0-9]+)*))?", re.IGNORECASE)


class Source:
    """The text being linted, with line access for column conversion and noqa."""

    def __init__(self, text: str, path: str) -> None:
        self.text = text
        self.path = path
        self._ascii = text.isascii()
        self._lines: Optional[List[str]] = None

    def line(self, lineno: int) -> str:
        if self._lines is None:
            # Split exactly where the tokenizer does (not str.splitlines, which
            # also breaks on form feeds and U+2028 and would shift line numbers).
            self._lines = _LINE_BREAK.split(self.text)
        if 1 <= lineno <= len(self._lines):
            return self._lines[lineno - 1]
        return ""

    def column(self, lineno: int, byte_offset: int) -> int:
        """1-based character column for a 0-based UTF-8 byte offset."""
        if self._ascii:
            return byte_offset + 1
        raw = self.line(lineno).encode("utf-8")
        return len(raw[:byte_offset].decode("utf-8", errors="replace")) + 1

    def location(self, start: ast.AST, end: Optional[ast.AST] = None) -> Location:
        """The range from ``start``'s first character to ``end``'s (default ``start``) last."""
        end = end if end is not None else start
        line = getattr(start, "lineno", 1) or 1
        end_line = getattr(end, "end_lineno", None) or line
        end_col = getattr(end, "end_col_offset", None)
        return Location(
            path=self.path,
            line=line,
            column=self.column(line, getattr(start, "col_offset", 0) or 0),
            end_line=end_line,
            end_column=self.column(end_line, end_col) if end_col is not None else None,
        )

    def suppressed(self, finding: Finding) -> bool:
        if finding.location is None or "noqa" not in self.text:
            return False
        match = _NOQA.search(self.line(finding.location.line))
        if match is None:
            return False
        listed = match.group("codes")
        if not listed:
            return True
        return finding.code in {c.strip().upper() for c in listed.split(",")}


def make(
    src: Source,
    code: str,
    message: str,
    node: ast.AST,
    *,
    end: Optional[ast.AST] = None,
    related: Sequence[Related] = (),
    data: Optional[Dict[str, Any]] = None,
) -> Finding:
    """One lint finding at ``node`` (through ``end`` when given)."""
    out = dict(data or {})
    out.setdefault("source", "lint")
    return Finding(
        code=code,
        message=message,
        location=src.location(node, end),
        severity=codes.severity(code),
        related=list(related),
        data=out,
    )


def related(src: Source, node: ast.AST, message: str, role: str, end: Optional[ast.AST] = None) -> Related:
    return Related(src.location(node, end), message, role)


def finalize(src: Source, findings: Iterable[Finding]) -> List[Finding]:
    """Drop suppressed and duplicate findings, order them as an editor lists them."""
    seen = set()
    out = []
    for f in findings:
        loc = f.location
        key = (f.code, loc.line, loc.column, loc.end_line, loc.end_column) if loc else (f.code, f.message)
        if key in seen or src.suppressed(f):
            continue
        seen.add(key)
        out.append(f)
    out.sort(key=lambda f: (f.location.line, f.location.column, f.code) if f.location else (0, 0, f.code))
    return out
