"""TW408: the loss grows at every optimizer iteration (a step size, an update's sign, or a gradient too large).

The scalar loss passed to each ``tape.backward(loss)`` is recorded per call
site.  When it has grown at each of the last ``STREAK`` iterations, by at
least ``FACTOR`` overall, while the tape's parameters were updated between
iterations, the step is too large (or has the wrong sign): reported as
information at the line that updates the parameters, never as a gradient
bug.  Non-finite values are TW407's.
"""

from __future__ import annotations

import math
from typing import Dict, List, Optional

from ... import codes
from ...model import Finding, Related
from ..core import warp_seams
from ..core.sites import Site
from ..core.records import differentiable
from ..core.sensor import Sensor

STREAK = 5  # consecutive increases
FACTOR = 10.0  # overall growth over the streak


class StepSize(Sensor):
    CODES = ("TW408",)

    def __init__(self, tracker):
        self.tracker = tracker
        self._losses: Dict[tuple, List[float]] = {}
        self._params: Dict[int, str] = {}  # id(parameter) -> name, of the last differentiated tape
        self._update: Optional[Site] = None  # the first write of the parameters since the last backward()
        self._updated = False
        self._reported: set = set()

    # -- parameter updates -----------------------------------------------------
    def on_untaped_kernel_accesses(self, kernel, accesses) -> None:
        for a in accesses:
            if a.write and id(a.array) in self._params:
                self._note_update()

    def on_copy_carry(self, dest, src) -> None:
        if id(dest) in self._params:
            self._note_update()

    def _note_update(self) -> None:
        if not self._updated:
            # The first write of this iteration: the update its loop repeats (not a warm-up step's, made
            # before the loop began).
            self._update = Site.here()
        self._updated = True

    # -- at backward() -----------------------------------------------------------
    def before_backward(self, tape, state, site: Site, args=(), kwargs=None) -> None:
        kwargs = kwargs or {}
        loss = args[0] if args else kwargs.get("loss")
        value = _scalar(loss)
        key = site.key()
        if value is None or key is None:
            return
        values = self._losses.setdefault(key, [])  # the current run of increases, from where it began
        if values and (not self._updated or value <= values[-1]):
            values.clear()  # no update in between (several backward calls per step), or the loss fell
        values.append(value)
        del values[1:-STREAK]  # keep where the streak began and the last values
        self._updated = False
        self._params = {id(a.array): record.access_label(a) for record in state.launches for a in record.accesses
                        if a.read and differentiable(a.array)}
        if key not in self._reported and _diverging(values):
            self._reported.add(key)
            self._report(values, site)

    def _report(self, values: List[float], site: Site) -> None:
        registry = self.tracker.registry
        back = registry.attempt("locating a backward() call", lambda: site.location((".backward", "backward")))
        update = self._update
        loc = registry.attempt("locating an update", lambda: update.location(())) if update is not None else None
        message = ("The loss passed to backward() grew at each of the last %d or more iterations, from %.4g to "
                   "%.4g, while "
                   "the parameters were updated %s: the step size or learning rate may be too large, the update may "
                   "have the wrong sign, or the gradient may be wrong (too large: a seed that does not match the "
                   "loss the program reports). The gradient itself was not checked here: compare it with finite "
                   "differences with `tapewatch harness`."
                   % (STREAK, values[0], values[-1], "here" if loc is not None else "between iterations"))
        related = [Related(back, "the backward() whose loss grows", "backward")] if back and loc else []
        registry.report(("TW408", site.key()), Finding(
            code="TW408", message=message, location=loc or back, severity=codes.severity("TW408"), related=related,
            data={"losses": values}))


def _scalar(loss) -> Optional[float]:
    try:
        if loss is None or getattr(loss, "size", 0) != 1:
            return None
        value = float(warp_seams.host_values(loss).reshape(-1)[0])
    except warp_seams.CaptureInProgress:
        raise
    except Exception:
        return None
    return value if math.isfinite(value) else None


def _diverging(values: List[float]) -> bool:
    """``values`` is an unbroken run of increases (its first value where it began)."""
    if len(values) < STREAK + 1:
        return False
    start = abs(values[0]) or 1e-30
    return abs(values[-1]) >= FACTOR * start
