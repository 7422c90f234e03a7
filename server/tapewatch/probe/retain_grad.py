"""TW203: an array with ``retain_grad=True`` assigned by more than one taped launch.

In the backward pass Warp normally clears an array's gradient once the
adjoint of the launch that assigned it has read it, so the versions of a
reused buffer do not mix.  ``retain_grad=True`` keeps it: when two taped
launches assign the array (a recomputation, a debug launch), both adjoints
receive the same gradient and everything upstream gets it twice.
Accumulating writers (``+=``, ``wp.atomic_add``) are fine: each really
contributes.  Reported at the second writer.
"""

from __future__ import annotations

from .. import codes
from ..model import Finding, Related
from . import related as rel
from .kernel_access import kernel_access


class RetainGradWriters:
    def __init__(self, tracker):
        self.tracker = tracker

    def on_launch(self, state, record) -> None:
        stores = kernel_access(record.kernel).stores
        for access in record.accesses:
            arr = access.array
            if not access.write or not getattr(arr, "retain_grad", False):
                continue
            if record.access_label(access) not in stores:
                continue  # accumulated into: every writer really contributes
            writers = state.writers.setdefault(id(arr), [])
            earlier = [w for w in writers if w[0] is not record]
            writers.append((record, access))
            if earlier:
                self._report(earlier[0], record, access)

    def _report(self, first, record, access) -> None:
        registry = self.tracker.registry
        first_record, first_access = first
        key = ("TW203", record.site.key(), record.access_label(access))
        if registry.bump(key):
            return
        arr = access.array

        def build():
            what = registry.attempt("naming an array", lambda: record.access_name(access)) or \
                record.access_label(access)
            first_loc = registry.attempt("locating a launch", first_record.location)
            where = "at line %d" % first_loc.line if first_loc is not None else "earlier"
            message = (
                "`%s` has retain_grad=True and `%s` assigns it here after `%s` assigned it %s on the same tape: "
                "its gradient is not cleared between the two adjoints, so both writers receive it and everything "
                "upstream of them gets it twice. Drop retain_grad=True (read the gradient another way), or "
                "launch the writer once." % (what, record.kernel_name, first_record.kernel_name, where))
            related = []
            if first_loc is not None:
                related.append(Related(first_loc, "`%s` assigned `%s` here first" % (first_record.kernel_name, what),
                                       "writer"))
            related.extend(registry.attempt("finding the allocation", lambda: rel.allocation(arr, what), []))
            related.extend(registry.attempt("listing the callers", lambda: rel.caller_chain(record.site), []))
            return Finding(code="TW203", message=message, location=record.location(),
                           severity=codes.severity("TW203"), related=related,
                           data={"array": what, "kernel": record.kernel_name, "first_kernel": first_record.kernel_name,
                                 "launch": record.index})

        registry.report(key, build, arrays=[arr], launches=[record.index, first_record.index])
