"""Findings → diagnostic entries → LSP ``Diagnostic`` (the model ↔ LSP edge).

Model positions are compiler style: lines 1-based, columns 1-based counted
in UTF-8 bytes as Python's ``ast`` reports them (``col_offset + 1``).  LSP
positions are 0-based, columns in the client's encoding (UTF-16 unless
negotiated otherwise).  Converting a column needs the text of its line,
which a ``LineSource`` provides (editor buffer or file on disk).

Entries (not LSP objects) are what the diagnostics feature stores: they
carry file paths, so they can move with edits and be published under the
client's spelling of each URI.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from lsprotocol import types

from .. import codes
from ..model import Finding, Location
from .positions import LineEdit, split_lines

SOURCE = "tapewatch"
MAX_FILE_BYTES = 8 * 1024 * 1024

SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "information": types.DiagnosticSeverity.Information,
    "hint": types.DiagnosticSeverity.Hint,
}


@dataclass(frozen=True)
class Span:
    """A range in one file, 0-based lines, columns in client units."""

    path: str
    start_line: int
    start_char: int
    end_line: int
    end_char: int

    def moved(self, edit: LineEdit) -> Optional["Span"]:
        lines = edit.map_span(self.start_line, self.end_line)
        if lines is None:
            return None
        if lines == (self.start_line, self.end_line):
            return self
        return replace(self, start_line=lines[0], end_line=lines[1])

    def to_range(self) -> types.Range:
        return types.Range(start=types.Position(line=self.start_line, character=self.start_char),
                           end=types.Position(line=self.end_line, character=self.end_char))


@dataclass(frozen=True)
class RelatedEntry:
    span: Span
    message: str


@dataclass(frozen=True)
class Entry:
    """One diagnostic as stored: where, what, and the data code actions need."""

    span: Span
    severity: str
    code: str
    message: str
    related: Sequence[RelatedEntry] = ()
    data: Dict[str, Any] = field(default_factory=dict)
    kind: str = "run"  # "run" (verification) or "lint"


class LineSource:
    """The text of a file's lines: an editor buffer if given, else the disk."""

    def __init__(self, buffers: Optional[Callable[[str], Optional[str]]] = None,
                 units: Callable[[str], int] = len):
        self._buffers = buffers
        self._cache: Dict[str, Optional[List[str]]] = {}
        self.units = units

    def lines(self, path: str) -> Optional[List[str]]:
        if path in self._cache:
            return self._cache[path]
        text = self._buffers(path) if self._buffers else None
        if text is None:
            text = read_text(path)
        lines = split_lines(text) if text is not None else None
        self._cache[path] = lines
        return lines

    def line(self, path: str, line0: int) -> Optional[str]:
        lines = self.lines(path)
        if lines is None or not 0 <= line0 < len(lines):
            return None
        return lines[line0]

    def column(self, path: str, line0: int, col1: Optional[int]) -> int:
        """Client units before the 1-based UTF-8 byte column ``col1``."""
        col = max((col1 or 1) - 1, 0)
        text = self.line(path, line0)
        if text is None:
            return col
        if text.isascii():
            return min(col, len(text))
        prefix = text.encode("utf-8")[:col].decode("utf-8", "ignore")
        return self.units(prefix)

    def line_end(self, path: str, line0: int) -> Optional[int]:
        text = self.line(path, line0)
        return None if text is None else self.units(text.rstrip())


def read_text(path: str) -> Optional[str]:
    try:
        if os.path.getsize(path) > MAX_FILE_BYTES:
            return None
        with open(path, "rb") as f:
            return f.read().decode("utf-8", "replace")
    except (OSError, ValueError):
        return None


def is_file(path: Optional[str]) -> bool:
    return bool(path) and os.path.isabs(path) and os.path.isfile(path)  # type: ignore[arg-type]


def span_of(loc: Location, src: LineSource) -> Span:
    """The span of a location, clamped to the document (a forged or stale line never breaks publishing)."""
    lines = src.lines(loc.path)
    last = max(len(lines) - 1, 0) if lines is not None else None

    def clamp(line0: int) -> int:
        line0 = max(line0, 0)
        return min(line0, last) if last is not None else line0

    line0 = clamp(loc.line - 1)
    start = src.column(loc.path, line0, max(loc.column, 1))
    if loc.end_line is not None and loc.end_column is not None and loc.end_line >= loc.line:
        end_line0 = clamp(loc.end_line - 1)
        end = src.column(loc.path, end_line0, loc.end_column)
        if (end_line0, end) < (line0, start):
            end_line0, end = line0, start
    else:
        end_line0 = line0
        line_end = src.line_end(loc.path, line0)
        end = max(start, line_end) if line_end is not None else start
    return Span(loc.path, line0, start, end_line0, end)


def top_of(script: str, src: LineSource) -> Span:
    """Line 0 of the script: where findings without a usable location go."""
    end = src.line_end(script, 0) or 0
    return Span(script, 0, 0, 0, end)


def json_safe(value: Any) -> Any:
    """``value`` as plain JSON data (``Diagnostic.data`` goes to the client as is)."""
    if isinstance(value, dict) and _plain(value):
        return dict(value)  # already plain, as almost every finding's data is: no round trip
    try:
        return json.loads(json.dumps(value, default=str))
    except (TypeError, ValueError):
        return {}


_SCALARS = (str, int, float, bool, type(None))


def _plain(value: Any, depth: int = 0) -> bool:
    if isinstance(value, _SCALARS):
        return True
    if depth > 8:
        return False
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain(v, depth + 1) for k, v in value.items())
    if isinstance(value, list):
        return all(_plain(v, depth + 1) for v in value)
    return False


def entry_of(finding: Finding, script: str, script_uri: str, src: LineSource, kind: str = "run",
             cwd: Optional[str] = None, exists: Callable[[str], bool] = is_file) -> Entry:
    """The entry for one finding; ``script`` is the run's script (a path).

    A finding without a location, or located in something that is not a
    file (``<string>``, a deleted file), goes on line 0 of the script.
    """
    message = finding.message
    loc = _absolute(finding.location, cwd)
    if loc is not None and exists(loc.path):
        span = span_of(loc, src)
    else:
        if loc is not None:
            message += " (at %s:%d)" % (loc.path, loc.line)
        span = top_of(script, src)
    if finding.count > 1:
        message += " (×%d: the same finding %d times, once per launch or step)" % (finding.count, finding.count)
    related = []
    for r in finding.related:
        rloc = _absolute(r.location, cwd)
        if rloc is not None and exists(rloc.path):
            related.append(RelatedEntry(span_of(rloc, src), r.message or r.role))
    data = {
        "finding_id": finding.id,
        "code": finding.code,
        "script_uri": script_uri,
        "kind": kind,
        "data": json_safe(finding.data),
    }
    return Entry(span=span, severity=finding.severity, code=finding.code, message=message,
                 related=tuple(related), data=data, kind=kind)


def _absolute(loc: Optional[Location], cwd: Optional[str]) -> Optional[Location]:
    if loc is None or not loc.path or loc.line is None or loc.line < 1:
        return None
    if not os.path.isabs(loc.path) and cwd and not loc.path.startswith("<"):
        return replace(loc, path=os.path.normpath(os.path.join(cwd, loc.path)))
    return loc


def moved(entry: Entry, path_key: str, edit: LineEdit, key: Callable[[str], str]) -> Optional[Entry]:
    """``entry`` after an edit of the file ``path_key``; None if its line was touched.

    Related locations in that file move too; one whose line was touched is
    left out (the diagnostic itself stays if its own line is intact).
    """
    span = entry.span
    if key(span.path) == path_key:
        span = span.moved(edit)  # type: ignore[assignment]
        if span is None:
            return None
    related = []
    changed = span is not entry.span
    for r in entry.related:
        rspan = r.span.moved(edit) if key(r.span.path) == path_key else r.span
        if rspan is r.span:
            related.append(r)
            continue
        changed = True
        if rspan is not None:
            related.append(RelatedEntry(rspan, r.message))
    if not changed:
        return entry
    return replace(entry, span=span, related=tuple(related))


def moved_through(entry: Entry, edits: Dict[str, List[LineEdit]], key: Callable[[str], str]) -> Optional[Entry]:
    """``entry`` after the edits of each file (file key -> its edits, in order); None if its line was touched.

    What ``moved`` gives edit after edit, with one new entry at the end instead of one per edit.
    """
    span = entry.span
    own = edits.get(key(span.path))
    lines: Optional[Tuple[int, int]] = (span.start_line, span.end_line)
    for edit in own or ():
        lines = edit.map_span(*lines)  # type: ignore[misc]
        if lines is None:
            return None
    changed = lines != (span.start_line, span.end_line)
    related = []
    for r in entry.related:
        theirs = edits.get(key(r.span.path))
        if not theirs:
            related.append(r)
            continue
        rlines: Optional[Tuple[int, int]] = (r.span.start_line, r.span.end_line)
        for edit in theirs:
            rlines = edit.map_span(*rlines)  # type: ignore[misc]
            if rlines is None:
                break
        if rlines == (r.span.start_line, r.span.end_line):
            related.append(r)
            continue
        changed = True
        if rlines is not None:
            related.append(RelatedEntry(replace(r.span, start_line=rlines[0], end_line=rlines[1]), r.message))
    if not changed:
        return entry
    if lines != (span.start_line, span.end_line):
        span = replace(span, start_line=lines[0], end_line=lines[1])  # type: ignore[index]
    return replace(entry, span=span, related=tuple(related))


_DOC_URIS: Dict[str, Optional[str]] = {}


def doc_href(code: str) -> Optional[str]:
    if code not in _DOC_URIS:
        try:
            _DOC_URIS[code] = codes.doc_uri(code)
        except Exception:  # noqa: BLE001 (documentation links are optional)
            _DOC_URIS[code] = None
    return _DOC_URIS[code]


def diagnostic_json(entry: Entry, uri_of: Callable[[str], str]) -> Dict[str, Any]:
    """The LSP ``Diagnostic`` of an entry, as the JSON the client receives.

    Built directly, not through lsprotocol objects and their converter: a
    publish carries every diagnostic of the file (hundreds in a file of many
    kernels) and is redone after each pause in typing.  Fields left unset are
    absent, as lsprotocol's converter leaves them.
    """
    out: Dict[str, Any] = {"range": _range_json(entry.span)}
    message = entry.message
    remedy = codes.fix(entry.code) if entry.severity in ("error", "warning") else None
    if remedy and "Fix:" not in message:
        message += "\nFix: " + remedy  # the hover says what to do, not only what is wrong
    out["message"] = message
    out["severity"] = int(SEVERITY.get(entry.severity, types.DiagnosticSeverity.Warning))
    out["code"] = entry.code
    href = doc_href(entry.code)
    if href:
        out["codeDescription"] = {"href": href}
    out["source"] = SOURCE
    if entry.related:
        out["relatedInformation"] = [
            {"location": {"uri": uri_of(r.span.path), "range": _range_json(r.span)}, "message": r.message or entry.code}
            for r in entry.related]
    out["data"] = entry.data
    return out


def _range_json(span: Span) -> Dict[str, Any]:
    return {"start": {"line": span.start_line, "character": span.start_char},
            "end": {"line": span.end_line, "character": span.end_char}}


_CONVERTER = None


def structure(data: Any, kind: type) -> Any:
    """Wire JSON as an lsprotocol object, with pygls's converter."""
    global _CONVERTER
    if _CONVERTER is None:
        from pygls.protocol import default_converter  # noqa: PLC0415

        _CONVERTER = default_converter()
    return _CONVERTER.structure(data, kind)


def to_diagnostic(entry: Entry, uri_of: Callable[[str], str]) -> types.Diagnostic:
    """``diagnostic_json`` as an lsprotocol object (what a typed caller or test reads)."""
    return structure(diagnostic_json(entry, uri_of), types.Diagnostic)
