"""TW202: gradients summed across optimizer steps (no ``tape.zero()``).

Warp accumulates into ``.grad``; a training loop must zero the gradients
between optimizer steps (``tape.zero()``, or ``tape.reset()``).  The
signature of the bug, seen at a ``backward()``: a parameter's gradient is
exactly what the previous backward left (nobody zeroed it) while the
parameter itself has changed since (an optimizer step).  Intentional
accumulation, several backward passes before one step (mini-batches, a tape
per window), leaves the parameter unchanged and is not reported.

When the program did zero a gradient after the previous backward, only
not this one (``loss.grad.zero_()`` where ``tape.zero()`` was meant), the
finding sits on that call: it is the line to change.

Parameters are the tape's leaves: float arrays with ``requires_grad`` that
its launches read and never write.  Each check is two float64 sums per
leaf; leaves larger than ``MAX_ELEMENTS`` are skipped to bound the cost.
"""

from __future__ import annotations

import linecache
import re
from typing import List, Optional, Tuple

from .. import codes
from ..model import Finding, Location, Related
from . import facts, related as rel, warp_seams
from .overwrites import method_object_name
from .sites import Site

MAX_ELEMENTS = 1 << 22


class AccumulationCheck:
    def __init__(self, wp, tracker):
        self.wp = wp
        self.tracker = tracker
        self.serial = 0  # backward() calls seen

    def before(self, tape, site: Optional[Site] = None, unless_zeroed: frozenset = frozenset(),
               replayed: bool = False, updated: frozenset = frozenset(), graph_zeros: tuple = ()) -> list:
        """Check the tape's parameters; returns them for ``after`` (backward adds no launch).

        ``site`` is the backward() (a graph's replay passes the one its capture recorded); gradients in
        ``unless_zeroed`` are zeroed by the replayed graph itself before its backward (``replayed``: a
        graph replay, not a backward() the program called; ``updated``: parameters the replayed graph itself
        writes after its backward, an update step captured with it, so they change at every replay;
        ``graph_zeros``: the ``(id, Site)`` of each gradient the graph zeroes after its backward)."""
        leaves = [leaf for leaf in self.leaves(tape) if id(leaf[0].grad) not in unless_zeroed]
        for arr, record, access in leaves:
            mark = facts.peek(arr).grad_mark
            if mark is None:
                continue
            grad_sum, value_sum, previous, serial = mark
            g = _sum(arr.grad)
            if g != 0.0 and g == grad_sum and (id(arr) in updated or _sum(arr) != value_sum):
                site = site or Site.here()
                zeroed = self.tracker.last_grad_zero
                matches = zeroed is not None and zeroed[0] == serial
                other = zeroed[1] if matches else None
                if replayed and other is None:
                    # The graph zeroes another gradient after its backward (``loss.grad.zero_()``): that call.
                    other = next((where for which, where in graph_zeros if which != id(arr.grad)), None)
                self._report(arr, record, access, site, previous, getattr(facts.known_tape(tape), "empty_zero", None),
                             other, matches and len(zeroed) > 2, _state_site(tape), replayed=replayed)
        return leaves

    def after(self, tape, leaves: list, site: Optional[Site] = None) -> None:
        self.serial += 1
        where = (site or Site.here()).location((".backward", "backward"))
        for arr, _, _ in leaves:
            facts.array(arr).grad_mark = (_sum(arr.grad), _sum(arr), where, self.serial)
        # Every gradient of the tape, to tell which one a later zero_() zeroed.
        state = facts.tape_state(tape)
        filled_at = self.tracker.launch_count()
        for grad in state.gradients() if state is not None else ():
            facts.array(grad).filled_by = self.serial
            facts.array(grad).filled_at = filled_at  # launches made before this backward filled it (TW205)

    def leaves(self, tape) -> list:
        state = facts.tape_state(tape)
        if state is None:
            return []
        return [(arr, record, access) for arr, record, access in state.parameters()
                if getattr(arr, "grad", None) is not None and getattr(arr, "size", 0) <= MAX_ELEMENTS]

    def _report(self, arr, record, access, site: Site, previous, empty_zero=None, other_zero=None,
                again_zero=False, created: Optional[Site] = None, replayed: bool = False) -> None:
        registry = self.tracker.registry
        what = registry.attempt("naming a parameter", lambda: record.access_name(access)) or \
            record.access_label(access)
        key = ("TW202", what, site.key())
        if registry.bump(key):
            return
        related: List[Related] = []
        if previous is not None:
            related.append(Related(previous, "the previous backward, whose gradient is still in `%s.grad`" % what,
                                   "previous-backward"))
        launch = record.location()
        if launch is not None:
            related.append(Related(launch, "`%s` reads `%s` here" % (record.kernel_name, what), "reader"))
        related.extend(registry.attempt("finding the allocation", lambda: rel.allocation(arr, what), []))
        stale = ("`%s.grad` still holds the previous backward's gradient, but `%s` changed since (an optimizer "
                 "step): this backward adds to it, so the optimizer sees the sum over iterations." % (what, what))
        message = stale + " Zero the gradients between steps (tape.zero())."
        location = site.location((".backward", "backward"))
        zero_at = registry.attempt("locating a tape's zero()", lambda: empty_zero.location(("zero",))) \
            if empty_zero is not None else None
        if zero_at is not None:
            # The user did zero, on a tape that had recorded nothing yet: that call is what to change.
            related[:0] = _backward_related(location)
            location = zero_at
            message = ("This tape.zero() runs before the tape recorded anything, so it zeroes no gradient: " +
                       stale + " Call zero() after backward() (once the optimizer used the gradients), on the tape that "
                       "recorded the step.")
        elif other_zero is not None:
            zeroed_at = registry.attempt("locating a zero_()", lambda: other_zero.location(("zero_",)))
            zeroed = registry.attempt("naming a zeroed gradient", lambda: method_object_name(other_zero, "zero_"))
            if zeroed_at is not None:
                # The user zeroed a gradient after the last step, but not this one: that call is what to change.
                related[:0] = _backward_related(location)
                location = zeroed_at
                again = " again" if again_zero else ""
                message = ("This zeroes %s%s, but not `%s.grad`: " % ("`%s`" % zeroed if zeroed else "a gradient",
                                                                     again, what)
                           + stale + " Zero the gradients of the parameters (tape.zero() zeroes every gradient the "
                           "tape recorded).")
                part = registry.attempt("finding a loop over part of the parameters",
                                        lambda: rel.loop_over_part(zeroed_at, other_zero.primary.f_globals
                                                                   if other_zero.primary is not None else None))
                if part is not None:
                    # ``for arr in params[:1]: arr.grad.zero_()``: the slice leaves `what` out.
                    related.insert(0, Related(zeroed_at, "zeroes `%s`" % (zeroed or "a gradient"), "zero"))
                    location = part[0]
                    message = ("This loop zeroes the gradients of `%s` only, not `%s.grad`: " % (part[1], what)
                               + stale + " Loop over every parameter (tape.zero() zeroes every gradient the tape "
                               "recorded).")
        elif replayed:
            # A backward recorded in a graph capture runs at every wp.capture_launch: the graph (or the
            # code between replays) must zero, and the backward in the capture is where that belongs.
            message = ("This backward() was captured in a graph that is replayed (`wp.capture_launch`), and nothing "
                       "zeroes `%s.grad` between replays: " % what + stale + " Zero the gradients in a captured "
                       "graph after the update (`tape.zero()`), or before each replay.")
        else:
            held = registry.attempt("finding where the tape was replaced", lambda: _replaced_tape(created))
            if held is not None:
                # ``self.tape = wp.Tape()`` each step: the object's tape is thrown away instead of reset.
                related[:0] = _backward_related(location)
                location = held[0]
                message = ("This replaces `%s` with a fresh tape every step, and a new tape zeroes nothing: "
                           % held[1] + stale +
                           " Create the tape once and call `%s.reset()` here (it zeroes the gradients and forgets "
                           "the launches), or call `%s.zero()` after the optimizer step." % (held[1], held[1]))
        registry.report(key, Finding(
            code="TW202", message=message, location=location,
            severity=codes.severity("TW202"), related=related, data={"array": what},
        ), arrays=[arr])


def _state_site(tape) -> Optional[Site]:
    state = facts.tape_state(tape)
    return state.site if state is not None and state.site.snaps else None


# ``self.tape = wp.Tape()``: a tape an object holds; ``tape = wp.Tape()``: a local one
_HELD_TAPE = re.compile(r"^\s*((?:self|[A-Za-z_]\w*)(?:\.\w+)+)\s*=\s*(?:\w+\.)?Tape\(")
_LOCAL_TAPE = re.compile(r"^\s*([A-Za-z_]\w*)\s*=\s*(?:\w+\.)?Tape\(")


def _replaced_tape(created: Optional[Site]) -> Optional[Tuple[Location, str]]:
    """``(location, name)`` when the tape was created by assigning an object's attribute, or a local
    inside a loop of the same function (``tape = wp.Tape()`` each iteration, as if a new tape zeroed)."""
    snap = created.snaps[0] if created is not None else None
    if snap is None:
        return None
    loc = snap.location(("Tape",))
    lines = linecache.getlines(loc.path, snap.f_globals)
    line = lines[loc.line - 1] if 0 < loc.line <= len(lines) else ""
    held = _HELD_TAPE.match(line)
    if held is not None:
        return loc, held.group(1)
    local = _LOCAL_TAPE.match(line)
    if local is not None and rel.enclosing_loop(Site([snap])) is not None:
        return loc, local.group(1)
    return None


def _sum(arr) -> float:
    import numpy as np  # noqa: PLC0415

    try:
        return float(np.sum(warp_seams.host_values(arr), dtype=np.float64))
    except warp_seams.CaptureInProgress:
        raise
    except Exception:  # an array NumPy cannot view: never a match
        return float("nan")


def _backward_related(location: Optional[Location]) -> List[Related]:
    """The backward() a finding moved away from, as its first related location (none when unknown)."""
    return [Related(location, "the backward() that adds to the stale gradient", "backward")] if location else []
