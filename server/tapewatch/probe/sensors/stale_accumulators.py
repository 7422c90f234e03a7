"""TW209: a taped launch accumulates into an array that still holds its previous iteration's sum.

A kernel that only accumulates into an output (``wp.atomic_add(grid, ...)``,
``grid[i] += v``) needs that output zeroed before each iteration.  When it
is not, each taped iteration adds to what the last one left: the forward
values are wrong (a density splatted twice, a loss summed over iterations),
and so is any gradient whose adjoint uses them.

Seen at run time as: the same launch line accumulates into an array on a
new tape (or a reused tape after its ``backward()``), and nothing rewrote
that array since its previous accumulation (no ``zero_()``, ``fill_()``,
``assign``, copy or launch that stores into it).  Reported at that launch,
at the tape's ``backward()``: a warning when a launch on the tape reads the
array in a way its adjoint depends on (the gradient is wrong), else
information (the value is stale, the gradient is not).
"""

from __future__ import annotations

import ast

from typing import List, NamedTuple, Optional, Tuple

from ... import codes
from ...model import Finding, Related
from ..core import facts, related as rel, source_patterns
from ..core.kernel_access import kernel_access
from ..core.sites import Site
from ..core.sensor import PerTape, Sensor

CODE = "TW209"


class Accumulated(NamedTuple):
    tape: int  # the tape state's number
    generation: int  # bumped at its backward()/reset(): a reused tape's next iteration differs
    site_key: tuple  # the launch line that accumulated


def _accumulated_paths(record) -> set:
    """Paths this launch's kernel writes only by accumulation (never a plain store, never read)."""
    access = kernel_access(record.kernel)
    return {p for p in access.writes if p not in access.stores and p not in access.reads}


class StaleAccumulators(Sensor):
    CODES = ("TW209",)

    def __init__(self, tracker):
        self.tracker = tracker
        # per tape: (record, access, cleared, twice, sibling) of accumulators found stale, reported at backward
        self._stale: PerTape[list] = PerTape(list)

    # -- writes that restart an accumulator ----------------------------------
    def on_seed_write(self, arr) -> None:
        """``zero_()``, ``fill_()``, ``assign``, a copy into it: new values."""
        facts.array(arr).accumulated = None
        if facts.peek(arr).accumulator:
            # An accumulator cleared twice from two lines before its next accumulation: a copy-pasted
            # line that meant another accumulator of the same launch (``grid_m.zero_()`` twice, ``grid_mv``
            # never) is the line to change when that other one turns out stale.
            site = Site.here()
            previous = facts.peek(arr).zeroed_at
            if previous is not None and previous.key() != site.key():
                facts.array(arr).zeroed_again = site
            facts.array(arr).zeroed_at = site
        if facts.filled(arr) is not None:
            # A gradient cleared by the script's own ``x.grad.zero_()`` (not by ``tape.zero()``/``reset()``
            # inside Warp): if it is an accumulator's, that line may have meant the accumulator itself.
            site = Site.here()
            if self.tracker.registry.attempt("reading a gradient's clearing", lambda: _grad_clear(site)) is not None:
                facts.array(arr).cleared_at = site

    def on_untaped_kernel_accesses(self, kernel, accesses) -> None:
        for a in accesses:
            if a.write:
                facts.array(a.array).accumulated = None

    # -- taped launches -------------------------------------------------------
    def on_launch(self, state, record) -> None:
        paths = _accumulated_paths(record)
        key = record.site.key()
        accumulated = [a for a in record.accesses if a.write and record.access_label(a) in paths]
        # A sibling accumulator of this launch cleared twice since its last accumulation (see on_seed_write).
        again = next((facts.peek(a.array).zeroed_again for a in accumulated
                      if facts.peek(a.array).zeroed_again is not None), None)
        # A sibling accumulator of this launch zeroed since its last accumulation: the clearing that left
        # this one out (``for a in (self.grid_m, self.grid_v): a.zero_()``, ``grid_mv`` never).
        sibling = next((facts.peek(a.array).zeroed_at for a in accumulated
                        if facts.peek(a.array).zeroed_at is not None), None)
        for access in record.accesses:
            if not access.write:
                continue
            arr = access.array
            if record.access_label(access) not in paths:
                facts.array(arr).accumulated = None  # a store: fresh values
                continue
            before = facts.peek(arr).accumulated
            grad = getattr(arr, "grad", None)
            cleared = _take_cleared(grad)
            if before is not None and before.site_key == key and \
                    (before.tape, before.generation) != (state.number, state.generation):
                never = facts.peek(arr).zeroed_at is None
                twice = again if again is not None and never else None
                self._stale.of(state).append(
                    (record, access, cleared, twice, sibling if never else None))
            facts.array(arr).accumulated = Accumulated(state.number, state.generation, key)
        for access in accumulated:
            record_of = facts.array(access.array)
            record_of.accumulator = True
            record_of.zeroed_at = record_of.zeroed_again = None

    def before_backward(self, tape, state, site: Site, args=(), kwargs=None) -> None:
        for record, access, cleared, twice, sibling in self._stale.take(state) or ():
            self._report(state, record, access, site, cleared, twice, sibling)

    def _report(self, state, record, access, backward_site: Site, cleared: Optional[Site] = None,
                twice: Optional[Site] = None, sibling: Optional[Site] = None) -> None:
        from .overwrites import harmless_reason  # noqa: PLC0415

        registry = self.tracker.registry
        arr = access.array
        what = registry.attempt("naming an array", lambda: record.access_name(access)) or \
            record.access_label(access)
        readers = [e for e in state.reads.get(id(arr), ()) if e.record.index > record.index]
        users = [e for e in readers
                 if registry.attempt("deciding whether the reader's adjoint uses the values",
                                     lambda e=e: harmless_reason(e)) is None]
        key = (CODE, record.site.key(), record.access_label(access))
        if registry.bump(key):
            return
        message = ("`%s` accumulates into `%s`, which still holds what this launch accumulated in the previous "
                   "iteration: nothing zeroed it in between, so the sum runs over every iteration so far. Zero it "
                   "before the launch (`%s.zero_()`) in each iteration."
                   % (record.kernel_name, what, what))
        related: List[Related] = []
        if users:
            reader = users[0].record
            message += (" `%s` reads it on this tape and its adjoint uses the values, so the gradient is wrong too."
                        % reader.kernel_name)
            loc = registry.attempt("locating the reading launch", reader.location)
            if loc is not None:
                related.append(Related(loc, "`%s` reads the accumulated `%s` here" % (reader.kernel_name, what),
                                       "reader"))
            severity = codes.severity(CODE)
        else:
            message += " No launch on this tape uses its values in an adjoint: the value is stale, the gradient is not."
            severity = "information"
        related.extend(rel.kernel_def(record.kernel, "kernel `%s` that accumulates" % record.kernel_name))
        related.extend(registry.attempt("finding the allocation", lambda: rel.allocation(arr, what), []))
        back = registry.attempt("locating a backward() call",
                                lambda: backward_site.location((".backward", "backward")))
        if back is not None:
            related.append(Related(back, "the backward() of this iteration", "backward"))
        loc = record.location()
        grad_zero = registry.attempt("locating where its gradient was cleared",
                                     lambda: _grad_clear(cleared)) if cleared is not None else None
        if grad_zero is not None:
            # Between the two iterations the script cleared this accumulator's gradient, not the
            # accumulator: that line most likely meant the array itself.
            message += (" Between the iterations the script clears `%s`, the gradient of `%s`, not `%s` itself: "
                        "that line most likely meant `%s`." % (grad_zero[1], what, what, what))
            if loc is not None:
                related.insert(0, Related(loc, "`%s` accumulates into `%s` here" % (record.kernel_name, what),
                                          "launch"))
            loc = grad_zero[0]
        elif twice is not None:
            again = registry.attempt("locating a repeated clear", lambda: twice.location(("zero_", "fill_")))
            if again is not None:
                message += (" Between the iterations the script clears another array `%s` accumulates into a "
                            "second time, here, and never `%s`: that line most likely meant `%s`."
                            % (record.kernel_name, what, what))
                if loc is not None:
                    related.insert(0, Related(loc, "`%s` accumulates into `%s` here" % (record.kernel_name, what),
                                              "launch"))
                loc = again
        elif sibling is not None:
            zeroed = registry.attempt("locating a clear", lambda: sibling.location(("zero_", "fill_")))
            part = registry.attempt("finding a loop over part of the accumulators", lambda: source_patterns.loop_over_part(
                zeroed, sibling.primary.f_globals if sibling.primary is not None else None)) if zeroed else None
            if part is not None:
                # ``for a in (self.grid_m, self.grid_v): a.zero_()``: the list leaves this accumulator out.
                message += (" Between the iterations this loop clears `%s` (arrays `%s` accumulates into) but not "
                            "`%s`: add it to the loop." % (part[1], record.kernel_name, what))
                related.insert(0, Related(zeroed, "clears the listed arrays", "zero"))
                if loc is not None:
                    related.insert(0, Related(loc, "`%s` accumulates into `%s` here" % (record.kernel_name, what),
                                              "launch"))
                loc = part[0]
        registry.report(key, Finding(
            code=CODE, message=message, location=loc, severity=severity, related=related,
            data={"array": what, "kernel": record.kernel_name, "gradient_affected": bool(users)}),
            arrays=[arr], launches=[record.index])


def _grad_clear(site: Site) -> Optional[Tuple[object, str]]:
    """``(location, text)`` of the script's ``x.grad.zero_()`` / ``fill_()`` at ``site``; None when the
    line is not such a call (``tape.zero()`` clears gradients from inside Warp)."""
    from ..core import call_expressions  # noqa: PLC0415

    snap = site.primary
    if snap is None:
        return None
    call = call_expressions.call_at(snap, ("zero_", "fill_"))
    func = getattr(call, "func", None)
    if not isinstance(func, ast.Attribute) or func.attr not in ("zero_", "fill_") or \
            not isinstance(func.value, ast.Attribute) or func.value.attr != "grad":
        return None
    return site.location(("zero_", "fill_")), ast.unparse(func.value)


def _take_cleared(grad):
    """Where the script cleared gradient ``grad`` by hand (``cleared_at``), forgotten once asked."""
    record = facts.known(grad)
    if record is None:
        return None
    cleared, record.cleared_at = record.cleared_at, None
    return cleared
