"""Open documents as lists of lines: an edit costs what it touches, not the file's size.

pygls' ``TextDocument`` keeps one string and, for every incremental change,
splits the whole text into lines and writes it out again; during a burst of
typing on a 5,000-line file that was most of the server's time.  A
:class:`Document` keeps the lines (each with its line end, as LSP counts
them: only CR LF, CR and LF end a line) and splices a change into the lines
its range covers; ``source`` joins them once per version, when asked.

:meth:`Document.apply` also returns the change as a :class:`~.positions.LineEdit`,
computed from the same reading of the range as the text it writes: the
buffer and the diagnostics moved with it cannot disagree.  A range whose end
comes before its start is read with the two swapped (as
vscode-languageserver-textdocument does); positions past a line's end or the
document's end are clamped to them (LSP).
"""

from __future__ import annotations

import dataclasses
import re
from typing import Callable, List, Optional, Tuple

from lsprotocol import types
from pygls.workspace import TextDocument

from . import positions
from .positions import LineEdit

# Line ends other than CR LF, CR and LF that ``str.splitlines`` splits at: only then the slow path.
_OTHER_BREAKS = re.compile("[\v\f\x1c\x1d\x1e\x85\u2028\u2029]")
_LSP_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)")


def split_keepends(text: str) -> List[str]:
    """LSP's lines of ``text``, each with its line end; the last one has none (and may be empty)."""
    if _OTHER_BREAKS.search(text) is None:
        lines = text.splitlines(True)
    else:
        lines = _LSP_LINE.findall(text)
        rest = text[sum(map(len, lines)):]
        if rest:
            lines.append(rest)
    if not lines or lines[-1].endswith(("\n", "\r")):
        lines.append("")
    return lines


def content(line: str) -> str:
    return line.rstrip("\r\n")


def index_of(text: str, units: int, count: Callable[[str], int]) -> int:
    """Code points of ``text`` before ``units`` client units, clamped to ``text``."""
    if units <= 0:
        return 0
    if text.isascii():
        return min(units, len(text))
    used = 0
    for i, ch in enumerate(text):
        if used >= units:
            return i
        used += count(ch)
    return len(text)


class Document(TextDocument):
    """A ``TextDocument`` whose text is a list of lines; see the module doc."""

    def __init__(self, uri: str, source: str, version: Optional[int], language_id: Optional[str],
                 units: Callable[[str], int], **kwargs):
        super().__init__(uri, source=None, version=version, language_id=language_id, **kwargs)
        self._lines = split_keepends(source)
        self._text: Optional[str] = source
        self._units = units  # length of a string in the client's position encoding

    @property
    def source(self) -> str:
        if self._text is None:
            self._text = "".join(self._lines)
        return self._text

    @property
    def lines(self) -> List[str]:  # type: ignore[override]
        return self._lines

    def size(self) -> int:
        """Characters in the document."""
        return len(self._text) if self._text is not None else sum(map(len, self._lines))

    def apply(self, change: types.TextDocumentContentChangeEvent) -> LineEdit:
        """Apply one content change; what it did to the lines."""
        if not isinstance(change, types.TextDocumentContentChangePartial):
            new = split_keepends(change.text)
            edit = positions.from_lines(self._lines, new)
            self._lines, self._text = new, change.text
            return edit
        (sl, sc), (el, ec) = self._clamp(change.range.start), self._clamp(change.range.end)
        if (el, ec) < (sl, sc):
            (sl, sc), (el, ec) = (el, ec), (sl, sc)
        lines = self._lines
        edit = positions.from_range((sl, sc), (el, ec), change.text, lines, self._units)
        first, last = lines[sl], lines[el]
        start = sl
        text = first[:index_of(content(first), sc, self._units)] + change.text + last[index_of(content(last), ec, self._units):]
        if text[:1] == "\n" and start > 0 and lines[start - 1].endswith("\r"):
            start, text = start - 1, lines[start - 1] + text  # a lone CR before and an LF after: one line end
        segment = split_keepends(text)
        if el + 1 < len(lines):
            segment.pop()  # the empty line split_keepends adds after the last line end: line el + 1 follows
        if start < sl:  # the merged line end: that line is touched, and one line less follows
            edit = dataclasses.replace(edit, start=start, after_ok=False, delta=len(segment) - (el + 1 - start))
        lines[start:el + 1] = segment
        self._text = None
        return edit

    def apply_change(self, change: types.TextDocumentContentChangeEvent) -> None:
        """pygls' entry point (a notebook's cells are updated through it): the same as ``apply``."""
        self.apply(change)

    def _clamp(self, position: types.Position) -> Tuple[int, int]:
        """(line, character) inside the document: past its end is its end, past a line's end that end."""
        last = len(self._lines) - 1
        line = max(position.line, 0)
        if line > last:
            return last, self._units(content(self._lines[last]))
        return line, max(position.character, 0)


LARGE = 1024 * 1024  # characters: closing a document this large gives its memory back at once


def release_memory() -> None:
    """Collect, then hand free heap pages back to the system (glibc keeps them otherwise).

    Called after a large document closed: its lines, diagnostics and the
    messages that carried it were freed, but without this the server's
    resident size stays where the file took it.
    """
    import gc  # noqa: PLC0415

    gc.collect()
    try:
        import ctypes  # noqa: PLC0415

        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError, TypeError):  # not glibc
        pass
