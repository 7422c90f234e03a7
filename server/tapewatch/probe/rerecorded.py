"""TW202: a tape recorded into again without ``reset()``: its backward() replays every earlier recording.

``tape.zero()`` clears the gradients but keeps the recorded launches, so a
tape re-entered with ``with tape:`` each iteration grows, and each
``backward()`` runs the adjoints of every iteration so far.  That is harmless
when the earlier launches wrote arrays this recording never touches (their
outputs' adjoints are zero after ``zero()``; only time is spent), and wrong
when they share arrays with it (buffers kept across iterations: the seed
and the adjoints flow into the earlier iterations' launches too, and the
gradient becomes a sum over iterations).  Reported once per tape at the
``tape.zero()`` that should have been ``tape.reset()`` (else at the
``backward()``).
"""

from __future__ import annotations

from typing import List, Optional

from ..model import Finding, Related
from . import facts, frames, warp_seams
from .sites import Site
from .sensor import Sensor


class RerecordedTape(Sensor):
    CODES = ("TW202",)

    def __init__(self, tracker):
        self.tracker = tracker

    def on_tape_zero(self, tape) -> None:
        facts.tape(tape).zero_site = Site.here()

    def before_backward(self, tape, state, site, args=(), kwargs=None) -> None:
        entries = warp_seams.tape_entries(tape)
        record = facts.tape(tape)
        previous = record.recorded
        zero_site, record.zero_site = record.zero_site, None
        record.recorded = (len(entries), entries[0]) if entries else None
        if previous is None or len(entries) <= previous[0] or entries[0] is not previous[1]:
            return  # a fresh or reset tape, or nothing recorded since the last backward()
        items = warp_seams.tape_items(tape)
        old, new = items[:previous[0]], items[previous[0]:]
        written = {id(a): a for item in old if item.launch is not None
                   for a in item.launch.outputs if warp_seams.is_array_like(self.tracker.wp, a)}
        touched = {id(a) for item in new if item.launch is not None for a in item.launch.args}
        shared = [written[k] for k in written if k in touched]
        self._report(tape, site, zero_site, len(old), shared)

    def _report(self, tape, backward_site: Site, zero_site: Optional[Site], replayed: int, shared: List) -> None:
        registry = self.tracker.registry
        anchor = zero_site or backward_site
        key = ("TW202", "rerecorded", anchor.key())
        if registry.bump(key):
            return

        def build() -> Finding:
            names = [registry.attempt("naming an array", lambda a=a: frames.name_by_identity(a)) or "an array"
                     for a in shared[:3]]
            if zero_site is not None:
                head = ("`tape.zero()` clears the gradients but keeps the launches this tape recorded, and the tape "
                        "is recorded into again (`with tape:`) without `tape.reset()`: its next backward() replays "
                        "the %d earlier launches too" % replayed)
            else:
                head = ("This tape is recorded into again (`with tape:`) without `tape.reset()`: this backward() "
                        "replays the %d launches of the earlier recordings too" % replayed)
            if shared:
                message = head + (", and they wrote %s, which this recording uses: the seed and the adjoints flow "
                                  "into the earlier iterations as well, so the gradient sums over every iteration "
                                  "so far. Call tape.reset() between iterations." % ", ".join("`%s`" % n for n in names))
                severity = "warning"
            else:
                message = head + (". Harmless here: they wrote arrays this recording does not use, so their "
                                  "adjoints add nothing (only time). Call tape.reset() to drop them.")
                severity = "information"
            loc = registry.attempt("locating a tape's zero()", lambda: anchor.location(("zero",) if zero_site else
                                                                                        (".backward", "backward")))
            related = []
            if zero_site is not None:
                back = registry.attempt("locating a backward() call",
                                        lambda: backward_site.location((".backward", "backward")))
                if back is not None:
                    related.append(Related(back, "the backward() that replays the earlier launches", "backward"))
            return Finding(code="TW202", message=message, location=loc, severity=severity, related=related,
                           data={"replayed_launches": replayed, "shared": names, "rerecorded": True})

        registry.report(key, build, arrays=shared)
