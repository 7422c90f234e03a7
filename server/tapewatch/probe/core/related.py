"""Related locations every sensor attaches: allocations, call chains, kernels.

Each builder is tolerant: it returns fewer locations rather than raise, so
a finding never depends on them.
"""

from __future__ import annotations

import os
from typing import List, Optional

from ...model import Location, Related
from . import call_expressions, facts, warp_seams
from .sites import Site, def_location

MAX_VIEW_DEPTH = 8
# Related locations that many findings share (an array's allocation, a kernel's def) are made once:
# a run keeps every finding, and each Related is one more object for the collector to walk.
# Nothing edits a Related in place.  Keyed by identity, with the keyed object kept in the value.
_SHARED: dict = {}
MAX_SHARED = 1 << 12


def _shared(key, keep, make) -> list:
    known = _SHARED.get(key)
    if known is None or known[0] is not keep:
        known = (keep, make())
        if len(_SHARED) < MAX_SHARED:
            _SHARED[key] = known
    return list(known[1])


def alloc_site(arr) -> Optional[Site]:
    """Where an array (or the array it is a view of) was allocated."""
    depth = 0
    while arr is not None and depth < MAX_VIEW_DEPTH:
        site = facts.peek(arr).alloc_site
        if site is not None:
            return site
        arr = warp_seams.view_parent(arr)
        depth += 1
    return None


def allocation(arr, what: str) -> List[Related]:
    """The allocation, then the line that called the factory or ``State()`` that allocated it."""
    site = alloc_site(arr)
    if site is None or not site.snaps:
        return []

    def make():
        out = [Related(site.location(), "`%s` allocated here" % what, "allocation")]
        for outer, inner in zip(site.snaps[1:], site.snaps):
            out.append(Related(outer.location((inner.f_code.co_name,)),
                               "`%s()` called from here for that allocation" % called_name(outer, inner),
                               "allocation-caller"))
        return out

    return _shared(("allocation", id(site), what), site, make)


def called_name(outer, inner) -> str:
    """What the caller wrote: ``State`` for a constructor, not ``__init__``."""
    call = call_expressions.call_at(outer, (inner.f_code.co_name,))
    name = call_expressions.callee_name(call) if call is not None else ""
    return name or inner.f_code.co_name


def caller_chain(site: Site, role: str = "caller", suffix: str = "") -> List[Related]:
    """``helper()`` called from here, for every frame outside the innermost."""
    out = []
    for outer, inner in zip(site.snaps[1:], site.snaps):
        loc = outer.location((inner.f_code.co_name,))
        out.append(Related(loc, "`%s()` called from here%s" % (inner.f_code.co_name, suffix), role))
    return out


def kernel_def(kernel, message: str, role: str = "kernel") -> List[Related]:
    loc = def_location(getattr(kernel, "func", None))
    if loc is None:
        return []
    return _shared(("kernel", id(loc), message, role), loc, lambda: [Related(loc, message, role)])


def library_frame(site: Site) -> List[Related]:
    """The library line a user call led to (when the innermost frame was a library's)."""
    lib = getattr(site, "library", None)
    if lib is None:
        return []
    return [Related(lib.location(), "inside `%s` (library code)" % lib.f_code.co_name, "library")]


def short_where(loc: Optional[Location], here: Optional[Location], reader_site: Site, site: Site) -> str:
    """``at line 41``; with the caller's line when both launches share a helper."""
    if loc is None:
        return "earlier"
    text = line_ref(loc, here)
    if here is not None and (loc.path, loc.line) == (here.path, here.line):
        for r_snap, w_snap in zip(reader_site.snaps[1:], site.snaps[1:]):
            if (r_snap.f_code.co_filename, r_snap.f_lineno) != (w_snap.f_code.co_filename, w_snap.f_lineno):
                return "%s (called from %s)" % (text, line_ref(r_snap.location(), here)[3:])
    return text


def line_ref(loc: Location, here: Optional[Location]) -> str:
    if here is not None and here.path == loc.path:
        return "at line %d" % loc.line
    return "at %s:%d" % (os.path.basename(loc.path), loc.line)
