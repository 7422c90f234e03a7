"""How an edit moves lines: the rule that keeps diagnostics on the right line.

Pure functions, no server.  A diagnostic follows its line while the line's
own text is untouched (lines inserted or deleted above it shift it) and is
dropped as soon as its line is edited, joined with another or deleted: it
must never point at a line it does not describe.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Callable, Dict, Optional, Sequence, Tuple

NEWLINE = re.compile(r"\r\n|\r|\n")

Span = Tuple[int, int]  # first and last line, 0-based, inclusive


def newline_count(text: str) -> int:
    return len(NEWLINE.findall(text))


def strip_eol(line: str) -> str:
    return line.rstrip("\r\n")


def split_lines(text: str) -> list:
    """Lines as LSP counts them (only CR LF, CR and LF end a line; not FF or U+2028)."""
    return NEWLINE.split(text)


@dataclass(frozen=True)
class LineEdit:
    """One content change, as a map from old lines to new lines.

    ``table`` (whole-document replacement) maps old line → new line for the
    lines a diff found unchanged; otherwise the change replaced the text
    between (start, start_char) and (end, end_char) of the old document.
    """

    start: int = 0
    end: int = 0
    delta: int = 0
    # The change begins after the content of line ``start`` and the inserted
    # text begins with a line break: line ``start`` itself is untouched.
    after_ok: bool = False
    # The change ends at column 0 of line ``end`` and leaves that line's text
    # on a line of its own: line ``end`` is untouched, only moved.
    before_ok: bool = False
    table: Optional[Dict[int, int]] = None

    def map_span(self, first: int, last: int) -> Optional[Span]:
        """Where lines ``first..last`` are after the change, or None if touched."""
        if self.table is not None:
            new_first = self.table.get(first)
            if new_first is None:
                return None
            for i in range(first + 1, last + 1):
                if self.table.get(i) != new_first + (i - first):
                    return None
            return new_first, new_first + (last - first)
        if last < self.start:
            return first, last
        if first > self.end:
            return first + self.delta, last + self.delta
        if last == self.start and self.after_ok:
            return first, last
        if first == self.end and self.before_ok:
            return first + self.delta, last + self.delta
        return None

    def map_line(self, line: int) -> Optional[int]:
        span = self.map_span(line, line)
        return None if span is None else span[0]


def from_range(start: Tuple[int, int], end: Tuple[int, int], text: str,
               old_lines: Sequence[str], units: Callable[[str], int] = len) -> LineEdit:
    """The edit replacing ``start``..``end`` (line, character; client units) by ``text``.

    ``old_lines`` is the document before the change (with or without line
    ends); ``units`` measures a string in the client's position encoding.
    """
    (sl, sc), (el, ec) = start, end
    if (el, ec) < (sl, sc):
        (sl, sc), (el, ec) = (el, ec), (sl, sc)
    delta = newline_count(text) - (el - sl)
    line_len = units(strip_eol(old_lines[sl])) if 0 <= sl < len(old_lines) else 0
    starts_nl = text[:1] in ("\n", "\r")
    ends_nl = text[-1:] in ("\n", "\r")
    no_op = text == "" and (sl, sc) == (el, ec)
    after_ok = sc >= line_len and (starts_nl or no_op)
    before_ok = ec == 0 and (ends_nl or (text == "" and sc == 0))
    return LineEdit(start=sl, end=el, delta=delta, after_ok=after_ok, before_ok=before_ok)


def from_texts(old: str, new: str) -> LineEdit:
    """A whole-document replacement: unchanged lines are found by a diff."""
    old_lines = split_lines(old)
    new_lines = split_lines(new)
    table: Dict[int, int] = {}
    matcher = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    for block in matcher.get_matching_blocks():
        for k in range(block.size):
            table[block.a + k] = block.b + k
    return LineEdit(table=table)
