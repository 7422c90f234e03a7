"""Snapshots of user frames, cheap to take and resolved only when needed.

A taped launch records where it happened; most launches never become part
of a finding, so the snapshot keeps just the code object, instruction and
line (no locals are kept alive) and names are resolved on demand.
"""

from __future__ import annotations

import linecache
import sys
from typing import List, Optional, Sequence

from ...model import Location
from . import call_expressions, user_code


SITE_DEPTH = 12  # user frames kept per site, innermost first


class FrameSnap:
    # The first location asked for is kept in two slots, any other in a dict: a frame is nearly
    # always located for one callee, and a run keeps a snapshot per taped launch (a dict each
    # was one more object for every collection of the collector to walk).
    __slots__ = ("f_code", "f_lasti", "f_lineno", "f_globals", "_loc_names", "_loc", "_more_locs")

    def __init__(self, frame):
        self.f_code = frame.f_code
        self.f_lasti = frame.f_lasti
        self.f_lineno = call_expressions.line_of(frame)
        self.f_globals = frame.f_globals
        self._loc_names: Optional[tuple] = None
        self._loc: Optional[Location] = None
        self._more_locs: Optional[dict] = None

    def location(self, names: Sequence[str] = ()) -> Location:
        """Where this frame's call is; one ``Location`` per callee names, shared by every finding that
        names the place (an array's allocation, a reader that several writes overwrite).  Nothing
        edits a ``Location`` in place."""
        key = tuple(names)
        if self._loc is not None and self._loc_names == key:
            return self._loc
        if self._more_locs is not None and key in self._more_locs:
            return self._more_locs[key]
        line, col, end_line, end_col = call_expressions.call_span(self, names)
        loc = Location(self.f_code.co_filename, line, col, end_line, end_col)
        if self._loc is None:
            self._loc_names, self._loc = key, loc
        else:
            if self._more_locs is None:
                self._more_locs = {}
            self._more_locs[key] = loc
        return loc


class Site:
    """The chain of user frames (innermost first) of one event."""

    __slots__ = ("snaps", "library")

    def __init__(self, snaps: List[FrameSnap], library: Optional[FrameSnap] = None):
        self.snaps = snaps
        # The installed-package frame the innermost user call led into ("just my code": the
        # finding sits on the user's call, the library line is a related location).
        self.library = library

    @classmethod
    def here(cls, start=None, limit: int = SITE_DEPTH) -> "Site":
        frame = start if start is not None else sys._getframe(1)
        snaps: List[FrameSnap] = []
        library = None
        while frame is not None and len(snaps) < limit:
            name = frame.f_code.co_filename
            if user_code.is_user_file(name):
                snaps.append(FrameSnap(frame))
            elif not snaps and library is None and user_code.is_library_file(name):
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


# id(code object) -> (the code object, kept so that its id is not reused; its def line's Location):
# asked again for every finding on a kernel.  By id: equal code objects of two files compare equal.
_DEF_LOCATIONS: dict = {}
MAX_DEF_LOCATIONS = 1 << 12


def def_location(func) -> Optional[Location]:
    """The ``def`` line of a Python function (past its decorators)."""
    code = getattr(func, "__code__", None)
    if code is None:
        return None
    known = _DEF_LOCATIONS.get(id(code))
    if known is not None and known[0] is code:
        return known[1]
    loc = _find_def(func, code)
    if len(_DEF_LOCATIONS) < MAX_DEF_LOCATIONS:
        _DEF_LOCATIONS[id(code)] = (code, loc)
    return loc


def _find_def(func, code) -> Location:
    line = code.co_firstlineno
    lines = linecache.getlines(code.co_filename, getattr(func, "__globals__", None))
    for i in range(line - 1, min(len(lines), line + 20)):
        stripped = lines[i].lstrip()
        if stripped.startswith("def ") or stripped.startswith("async def "):
            return Location(code.co_filename, i + 1, len(lines[i]) - len(stripped) + 1)
    return Location(code.co_filename, line, 1)


def ordering_snap(write: Site, anchor: Site, recorded: Sequence[Site]) -> Optional[FrameSnap]:
    """Where a write is *ordered* against a tape, when that is not the write itself.

    A write made between recording and ``backward()`` (or untaped steps run
    before the tape) is fixed by moving it, and it moves where the user
    orders it against ``anchor`` (the ``backward()``, the tape): in the
    innermost function both pass through, the statement that leads to the
    write (``bank.reset()``, ``rope.advance(wind, t)``), unless that
    statement also records on the tape (then the same question one call
    deeper).  None when the write itself is that statement, or when the two
    share no frame.
    """
    w, a = list(reversed(write.snaps)), list(reversed(anchor.snaps))  # outermost first
    level = None
    for i in range(min(len(w), len(a))):
        if w[i].f_code is not a[i].f_code:
            return None  # no common function left (another thread, or the stacks were cut)
        if w[i].f_lasti != a[i].f_lasti:
            level = i
            break
    if level is None or level == len(w) - 1:
        return None
    taped = [list(reversed(s.snaps)) for s in recorded]
    for j in range(level, len(w) - 1):
        path = [(s.f_code, s.f_lasti) for s in w[:j + 1]]
        if not any(len(r) > j and [(s.f_code, s.f_lasti) for s in r[:j + 1]] == path for r in taped):
            return w[j]
    return None
