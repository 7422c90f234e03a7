"""Turn AST nodes into ``Finding``s with editor-ready ranges, and honour ``# noqa``.

Columns follow the convention the language server's converter reads
(``tapewatch.lsp.convert``): 1-based *UTF-8 byte* columns, which is Python's
AST ``col_offset + 1``; the server turns them into the client's units (UTF-16
by default) at its edge.  ``end_column`` is exclusive (one past the last
byte), so subtracting one from both ends gives the exact expression.
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
    """The text being linted, with line access for ``# noqa``."""

    def __init__(self, text: str, path: str) -> None:
        self.text = text
        self.path = path
        self._lines: Optional[List[str]] = None
        self._has_noqa = "noqa" in text  # scanned once, not once per finding

    def line(self, lineno: int) -> str:
        if self._lines is None:
            # Split exactly where the tokenizer does (not str.splitlines, which
            # also breaks on form feeds and U+2028 and would shift line numbers).
            self._lines = _LINE_BREAK.split(self.text)
        if 1 <= lineno <= len(self._lines):
            return self._lines[lineno - 1]
        return ""

    def location(self, start: ast.AST, end: Optional[ast.AST] = None) -> Location:
        """The range from ``start``'s first byte to ``end``'s (default ``start``) last."""
        end = end if end is not None else start
        line = getattr(start, "lineno", 1) or 1
        end_line = getattr(end, "end_lineno", None) or line
        end_col = getattr(end, "end_col_offset", None)
        return Location(
            path=self.path,
            line=line,
            column=(getattr(start, "col_offset", 0) or 0) + 1,
            end_line=end_line,
            end_column=end_col + 1 if end_col is not None else None,
        )

    def suppressed(self, finding: Finding) -> bool:
        if finding.location is None or not self._has_noqa:
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
