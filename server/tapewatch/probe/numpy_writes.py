"""TW106 through NumPy: a CPU array the tape read, written through its ``.numpy()`` view.

On the CPU ``array.numpy()`` returns a view of Warp's own memory, so
``x.numpy()[:] = 0`` rewrites the array without Warp (or any hook) seeing
it.  When the script takes the NumPy view of an array a live tape read,
the contents are fingerprinted (CRC-32, bounded size); at that tape's
``backward()`` a changed fingerprint that no Warp write explains is a write
through NumPy, reported at the ``.numpy()`` call that handed out the view.
"""

from __future__ import annotations

import zlib
from typing import Any, NamedTuple, Optional

from ..model import Related
from .sites import Site

MAX_BYTES = 64 << 20  # per array: larger views are not fingerprinted


class NumpyView(NamedTuple):
    array: Any
    crc: int
    site: Site


def fingerprint(arr) -> Optional[int]:
    try:
        if str(arr.device) != "cpu" or arr.capacity > MAX_BYTES:
            return None
        view = arr.numpy()
        return zlib.crc32(view.view("uint8").reshape(-1) if view.flags["C_CONTIGUOUS"] else view.tobytes())
    except Exception:
        return None


class NumpyViews:
    def __init__(self, tracker):
        self.tracker = tracker

    def on_numpy(self, arr) -> None:
        for _, state in self.tracker.tapes_reading(arr):
            if id(arr) in state.numpy_views:
                continue
            crc = fingerprint(arr)
            if crc is not None:
                state.numpy_views[id(arr)] = NumpyView(arr, crc, Site.here())

    def before_backward(self, tape, state, backward_site: Site, args=(), kwargs=None) -> None:
        from . import overwrites  # noqa: PLC0415

        views, state.numpy_views = state.numpy_views, {}
        explained = {id(p.array) for p in state.pending_writes}
        for view in views.values():
            if id(view.array) in explained or fingerprint(view.array) == view.crc:
                continue
            readers = self.tracker.readers_of(state, view.array)
            if not readers:
                continue
            entry, alias = overwrites.pick_reader(readers)
            registry = self.tracker.registry
            back = registry.attempt("locating a backward() call",
                                    lambda: backward_site.location((".backward", "backward")))
            extra = [Related(back, "the backward() that replays the read", "backward")] if back else []
            what = registry.attempt("naming an array", lambda: overwrites.method_object_name(view.site, "numpy"))
            what = what or registry.attempt("naming the reading launch's array",
                                            lambda: entry.record.access_name(entry.access)) or "array"
            head = ("`%s` is written through this NumPy view (on the CPU it shares the array's memory) after the "
                    "tape recorded it and before its backward(), without any Warp call" % what)
            overwrites.overwrite(self.tracker, "TW106", view.array, entry, alias, site=view.site, names=("numpy",),
                                 what=what, arg=None, kernel=None, op="numpy", warp_reported=False, head=head,
                                 key_extra=(backward_site.key(),), extra_related=extra)
