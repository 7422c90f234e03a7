"""TW202: a second backward() adds to a gradient the program already took as a result.

Two objectives differentiated one after the other (a task cost and a
clearance cost, a loss and a regulariser the program combines itself) need
the gradients zeroed in between: Warp's backward adds into ``.grad``.  The
signature, seen on the values:

1. a backward fills a parameter's gradient, and the program copies it out
   (``g1 = q.grad.numpy().copy()``: it keeps that gradient as a result);
2. another backward runs while that gradient is still there, unchanged, and
   the parameter unchanged too (no optimizer step: that is TW202's other
   form, in ``accumulation``);
3. the program reads the gradient again: it gets the sum of both.

Reported at the second backward() once step 3 happens.  Gradients summed on
purpose (micro-batches) are read once, after the last backward, or only
logged in between (no copy kept): neither is reported.
"""

from __future__ import annotations

import linecache
import re
import weakref
from typing import List, Optional

from .. import codes
from ..model import Finding, Related
from . import facts, frames, warp_seams
from .sites import Site
from .sensor import Sensor

MAX_ELEMENTS = 1 << 22
_KEPT = re.compile(r"\.copy\(|np\.(?:array|copy)\(|numpy\.(?:array|copy)\(|\.clone\(|list\(|\.tolist\(")


class SummedBackwards(Sensor):
    CODES = ("TW202",)

    # Values are only fingerprinted when the program copies a gradient out (and again at the next
    # backward for those): a training loop that never does pays one dict entry per parameter.

    def __init__(self, tracker):
        self.tracker = tracker
        self.serial = 0  # backward() calls seen

    def before_backward(self, tape, state, site: Site, args=(), kwargs=None) -> None:
        if self.tracker.capturing:
            return  # no value may be read back during a CUDA graph capture
        for arr in _leaves(state):
            grad = arr.grad
            kept = facts.peek(grad).kept
            filled = facts.peek(grad).summed_fill
            if kept is None or filled is None or kept[0] != filled[0]:
                continue  # not copied out since the backward that filled it
            serial, read_site, grad_print, value_print = kept
            if grad_print is None or _fingerprint(grad) != grad_print or _fingerprint(arr) != value_print:
                continue  # zeroed or changed since, or the parameter stepped (accumulation's case)
            facts.array(grad).summed = (serial, arr, filled[2], read_site, site)

    def after_backward(self, tape, state) -> None:
        self.serial += 1
        here = Site.here()
        for arr in _leaves(state):
            grad = arr.grad
            record = facts.array(grad)
            if record.summed is not None and record.summed[0] != self.serial - 1:
                record.summed = None
            record.summed_fill = (self.serial, weakref.ref(arr), here)

    def on_seed_write(self, arr) -> None:
        """A zero_()/fill_()/copy into a gradient: whatever it held is no longer summed into."""
        record = facts.known(arr)
        if record is not None:
            record.summed = record.kept = None

    def on_gradient_numpy(self, arr) -> None:
        filled = facts.peek(arr).summed_fill
        if filled is None:
            return
        summed, facts.array(arr).summed = facts.peek(arr).summed, None
        site = Site.here()
        if summed is not None:
            self._report(summed, site)
            return
        owner = filled[1]()
        if owner is not None and _keeps_copy(site) and owner.size <= MAX_ELEMENTS:
            facts.array(arr).kept = (filled[0], site, _fingerprint(arr, nonzero=True), _fingerprint(owner))

    def _report(self, summed, read_again: Site) -> None:
        _, arr, first_backward, first_read, second_backward = summed
        registry = self.tracker.registry
        key = ("TW202", "summed", second_backward.key())
        if registry.bump(key):
            return
        name = registry.attempt("naming a parameter", lambda: frames.name_by_identity(arr)) or "the parameter"
        location = second_backward.location((".backward", "backward"))
        first_back = first_backward.location((".backward", "backward"))
        first_at = first_read.location(("numpy",))
        again_at = read_again.location(("numpy",))
        related: List[Related] = []
        if first_back is not None:
            related.append(Related(first_back, "the previous backward, whose gradient is still in `%s.grad`" % name,
                                   "previous-backward"))
        if first_at is not None:
            related.append(Related(first_at, "the program keeps that gradient here", "read"))
        if again_at is not None:
            related.append(Related(again_at, "and reads the sum of both here", "read"))
        message = ("`%s.grad` still holds the previous backward's gradient%s, which the program copied out%s: this "
                   "backward adds to it, so what the program reads next is the sum of both gradients. Zero the "
                   "gradients between the two backward passes (the first tape's zero(), or `%s.grad.zero_()`)."
                   % (name, " (line %d)" % first_back.line if first_back else "",
                      " (line %d)" % first_at.line if first_at else "", name))
        registry.report(key, Finding(
            code="TW202", message=message, location=location, severity=codes.severity("TW202"),
            related=related, data={"array": name, "kind": "summed-objectives"}), arrays=[arr])


def _leaves(state) -> list:
    """The tape's parameters that have a gradient."""
    return [arr for arr, _, _ in state.parameters() if getattr(arr, "grad", None) is not None]


def _keeps_copy(site: Site) -> bool:
    """The statement that read the gradient keeps a copy of it (``.numpy().copy()``, ``np.array(...)``)."""
    snap = site.primary
    if snap is None:
        return False
    line = linecache.getline(snap.f_code.co_filename, snap.f_lineno, snap.f_globals)
    return bool(_KEPT.search(line))


def _fingerprint(arr, nonzero: bool = False) -> Optional[int]:
    """A CRC of the values (None when NumPy cannot view them, or all are zero and ``nonzero`` is asked)."""
    import zlib  # noqa: PLC0415

    values = warp_seams.readable_values(arr)
    if values is None:
        return None
    if nonzero and not values.any():
        return None
    return zlib.crc32(values.tobytes())
