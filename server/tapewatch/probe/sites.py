"""Snapshots of user frames, cheap to take and resolved only when needed.

A taped launch records where it happened; most launches never become part
of a finding, so the snapshot keeps just the code object, instruction and
line (no locals are kept alive) and names are resolved on demand.
"""

from __future__ import annotations

import linecache
import sys
from typing import List, Optional, Sequence

from ..model import Location
from . import frames


class FrameSnap:
    __slots__ = ("f_code", "f_lasti", "f_lineno", "f_globals")

    def __init__(self, frame):
        self.f_code = frame.f_code
        self.f_lasti = frame.f_lasti
        self.f_lineno = frame.f_lineno
        self.f_globals = frame.f_globals

    def location(self, names: Sequence[str] = ()) -> Location:
        line, col, end_line, end_col = frames.call_span(self, names)
        return Location(self.f_code.co_filename, line, col, end_line, end_col)


class Site:
    """The chain of user frames (innermost first) of one event."""

    __slots__ = ("snaps", "library")

    def __init__(self, snaps: List[FrameSnap], library: Optional[FrameSnap] = None):
        self.snaps = snaps
        # The installed-package frame the innermost user call led into ("just my code": the
        # finding sits on the user's call, the library line is a related location).
        self.library = library

    @classmethod
    def here(cls, start=None, limit: int = 12) -> "Site":
        frame = start if start is not None else sys._getframe(1)
        snaps: List[FrameSnap] = []
        library = None
        while frame is not None and len(snaps) < limit:
            name = frame.f_code.co_filename
            if frames.is_user_file(name):
                snaps.append(FrameSnap(frame))
            elif not snaps and library is None and frames.is_library_file(name):
                library = FrameSnap(frame)
            frame = frame.f_back
        return cls(snaps, library)

    @property
    def primary(self) -> Optional[FrameSnap]:
        return self.snaps[0] if self.snaps else None

    def location(self, names: Sequence[str] = ()) -> Optional[Location]:
        return self.snaps[0].location(names) if self.snaps else None

    def key(self):
        snap = self.primary
        return (snap.f_code.co_filename, snap.f_lineno) if snap else None


def def_location(func) -> Optional[Location]:
    """The ``def`` line of a Python function (past its decorators)."""
    code = getattr(func, "__code__", None)
    if code is None:
        return None

    line = code.co_firstlineno
    lines = linecache.getlines(code.co_filename, getattr(func, "__globals__", None))
    for i in range(line - 1, min(len(lines), line + 20)):
        stripped = lines[i].lstrip()
        if stripped.startswith("def ") or stripped.startswith("async def "):
            return Location(code.co_filename, i + 1, len(lines[i]) - len(stripped) + 1)
    return Location(code.co_filename, line, 1)
