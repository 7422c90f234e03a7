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

    The change replaced the text between (start, start_char) and (end,
    end_char) of the old document; or, with ``table`` (a whole-document
    replacement), lines before ``start`` are unchanged, lines from ``end``
    on (exclusive here) moved by ``delta``, and ``table`` maps the old lines
    between that a diff found unchanged to their new lines.
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
            new_first = self._table_line(first)
            if new_first is None:
                return None
            for i in range(first + 1, last + 1):
                if self._table_line(i) != new_first + (i - first):
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

    def _table_line(self, line: int) -> Optional[int]:
        if line < self.start:
            return line
        if line >= self.end:
            return line + self.delta
        return self.table.get(line) if self.table is not None else None

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


# A diff of the changed middle is quadratic at worst: past this many line pairs, its lines are dropped.
MAX_DIFF = 4_000_000


def from_texts(old: str, new: str) -> LineEdit:
    """A whole-document replacement: unchanged lines are found by a diff."""
    return from_lines(split_lines(old), split_lines(new))


def from_lines(old: Sequence[str], new: Sequence[str]) -> LineEdit:
    """A whole-document replacement, as lines (with or without their line ends).

    The lines both texts begin and end with are matched first, in one pass;
    only the middle between (one line while typing) is diffed.  A client
    that sends the whole text on every keystroke costs a comparison of the
    lines per change, not a diff of the file.
    """
    n_old, n_new = len(old), len(new)
    head = 0
    limit = min(n_old, n_new)
    while head < limit and _same(old[head], new[head]):
        head += 1
    tail = 0
    limit -= head
    while tail < limit and _same(old[n_old - 1 - tail], new[n_new - 1 - tail]):
        tail += 1
    mid_old, mid_new = old[head:n_old - tail], new[head:n_new - tail]
    table: Dict[int, int] = {}
    if mid_old and mid_new and len(mid_old) * len(mid_new) <= MAX_DIFF:
        matcher = difflib.SequenceMatcher(None, [strip_eol(x) for x in mid_old], [strip_eol(x) for x in mid_new],
                                          autojunk=False)
        for block in matcher.get_matching_blocks():
            for k in range(block.size):
                table[head + block.a + k] = head + block.b + k
    return LineEdit(start=head, end=n_old - tail, delta=n_new - n_old, table=table)


def _same(a: str, b: str) -> bool:
    return a == b or strip_eol(a) == strip_eol(b)
