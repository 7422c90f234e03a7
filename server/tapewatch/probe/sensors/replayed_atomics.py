"""TW206: an atomic's return value used in a kernel that is differentiated.

``slot = wp.atomic_add(counter, 0, 1)`` claims a slot in the forward pass.
The backward pass replays the kernel's forward code to rebuild its
intermediates, but Warp does not replay atomics (they would change the
counter again), so in the backward pass ``slot`` does not hold the slot the
forward pass claimed: the adjoints of everything indexed by it land on the
wrong elements.  Measured on Warp 1.14 and 1.19: a compaction kernel
``out[slot] = x[i] * x[i]`` gives ``x.grad`` = [2, 0, 0, 0, 0, 0] where
[2, 0, 4, 6, 0, 8] is right.

Reported at the atomic, when a launch of the kernel that writes an array
with gradients is on a tape whose ``backward()`` runs.
"""

from __future__ import annotations

from ... import codes
from ...model import Finding, Location, Related
from ..core import related as rel, warp_seams
from ..core.kernel_access import kernel_access
from ..core.records import differentiable
from ..core.sensor import Sensor


class ReplayedAtomics(Sensor):
    CODES = ("TW206",)

    def __init__(self, tracker):
        self.tracker = tracker

    def before_backward(self, tape, state, site, args=(), kwargs=None) -> None:
        registry = self.tracker.registry
        for record in state.launches:
            uses = kernel_access(record.kernel).atomic_results
            if not uses or not any(a.write and differentiable(a.array) for a in record.accesses):
                continue
            path = warp_seams.kernel_file(record.kernel)
            for use in uses:
                key = ("TW206", path, use.line)
                if registry.bump(key):
                    continue
                registry.report(key, lambda use=use, record=record: self._finding(record, path, use),
                                launches=[record.index])

    def _finding(self, record, path, use) -> Finding:
        registry = self.tracker.registry
        target = "`%s`" % use.target if use.target else "an array"
        message = ("The return value of `wp.%s` on %s is used in `%s`, which is launched on a tape that is "
                   "differentiated: the backward pass replays the kernel's code but not its atomics, so there the "
                   "value is not what the forward pass got, and adjoints indexed by it land on the wrong elements. "
                   "Claim the slots in a launch outside the differentiated path and pass them in, or move the code "
                   "into a @wp.func with a @wp.func_replay that reproduces the slots."
                   % (use.op, target, record.kernel_name))
        related = []
        loc = registry.attempt("locating a launch", record.location)
        if loc is not None:
            related.append(Related(loc, "launch of `%s` on the differentiated tape" % record.kernel_name, "launch"))
        related.extend(rel.kernel_def(record.kernel, "kernel `%s`" % record.kernel_name))
        return Finding(code="TW206", message=message, location=Location(path, use.line, use.column),
                       severity=codes.severity("TW206"), related=related,
                       data={"kernel": record.kernel_name, "operation": use.op, "array": use.target,
                             "launch": record.index})
