"""TW201: a differentiable value passes through an array without ``requires_grad``.

Launch A reads arrays with gradients and writes a float array X without
one; launch B reads X and writes an array with gradients.  The backward
pass of B has nowhere to put X's adjoint, so nothing upstream of X gets a
gradient through it: silently zero.  Reported at X's allocation (where
``requires_grad=True`` goes).
"""

from __future__ import annotations

from typing import List

from ... import codes
from ...model import Finding, Related
from ..core import related as rel
from ..core.kernel_access import kernel_access
from ..core.sensor import Sensor
from ..core.records import differentiable, is_float


def check(tracker, state, record) -> None:
    if any(differentiable(a.array) for a in record.accesses if a.write):
        for acc in record.accesses:
            if not acc.read:
                continue
            hit = state.no_grad.get(id(acc.array))
            if hit is not None and hit[1] is not record and \
                    kernel_access(record.kernel).gradient_reaches(record.access_label(acc)):
                # (read only in comparisons, conditions or indices, it could not carry a gradient anyway)
                _report(tracker, hit, record, acc)
    upstream = [a for a in record.accesses if a.read and differentiable(a.array)]
    if upstream:
        for acc in record.accesses:
            if acc.write and is_float(acc.array) and not getattr(acc.array, "requires_grad", False):
                state.no_grad[id(acc.array)] = (acc.array, record, acc, upstream)


def _report(tracker, hit, reader, read_access) -> None:
    registry = tracker.registry
    arr, writer, written, upstream_accesses = hit
    site = rel.alloc_site(arr)
    key = ("TW201", site.key() if site is not None else writer.site.key(), reader.site.key())
    if registry.bump(key):
        return

    def build():
        what = (registry.attempt("naming an array", lambda: writer.access_name(written) or
                                 reader.access_name(read_access)) or writer.access_label(written))
        upstream = "`, `".join(
            registry.attempt("naming an array", lambda a=a: writer.access_name(a)) or writer.access_label(a)
            for a in upstream_accesses)
        writer_loc = registry.attempt("locating a launch", writer.location)
        reader_loc = registry.attempt("locating a launch", reader.location)
        primary = site.location() if site is not None else writer_loc
        message = (
            "`%s` is allocated without requires_grad=True, but `%s` computes it from `%s` (with gradients) "
            "and `%s` uses it for an array with one: the backward pass stops at `%s`, so `%s` get%s no gradient "
            "through it."
            % (what, writer.kernel_name, upstream, reader.kernel_name, what, upstream,
               "" if len(upstream_accesses) > 1 else "s")
        )
        related: List[Related] = []
        if writer_loc is not None:
            related.append(Related(writer_loc, "`%s` writes `%s` from `%s` here" % (writer.kernel_name, what, upstream),
                                   "writer"))
        if reader_loc is not None:
            related.append(Related(reader_loc, "`%s` reads `%s` here (argument `%s`)"
                                   % (reader.kernel_name, what, reader.access_label(read_access)), "reader"))
        # The allocation is the primary location; its callers are related.
        related.extend(registry.attempt("finding the allocation", lambda: rel.allocation(arr, what), [])[1:])
        return Finding(code="TW201", message=message, location=primary, severity=codes.severity("TW201"),
                       related=related, data={"array": what, "upstream": upstream, "writer_kernel": writer.kernel_name,
                                              "reader_kernel": reader.kernel_name, "launch": reader.index})

    registry.report(key, build, arrays=[arr], launches=[reader.index])


class GradChain(Sensor):
    """TW201: a float array without ``requires_grad`` that a taped launch computed from arrays with it."""

    CODES = ("TW201",)
    HEARS_FIRST = 1  # after the overwrite engine, before the launch's reads are recorded

    def on_launch(self, state, record) -> None:
        check(self.tracker, state, record)
