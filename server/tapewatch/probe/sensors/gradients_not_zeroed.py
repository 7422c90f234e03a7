"""TW202: gradients not zeroed between steps: one code, three triggers, this one module.

Warp adds into ``.grad``.  A gradient that still holds an earlier backward's
values when the next backward runs is summed into, and the program reads a
sum where it meant one gradient.  Three ways a program gets there:

1. **Steps without zeroing** (``StepsWithoutZero``).  A training loop must
   zero the gradients between optimizer steps (``tape.zero()`` or
   ``tape.reset()``).  The signature, seen at a ``backward()``: a
   parameter's gradient is exactly what the previous backward left (nobody
   zeroed it) while the parameter itself has changed since (an optimizer
   step).  Intentional accumulation, several backward passes before one
   step (mini-batches, a tape per window), leaves the parameter unchanged
   and is not reported.  When the program did zero a gradient after the
   previous backward, only not this one (``loss.grad.zero_()`` where
   ``tape.zero()`` was meant), the finding sits on that call.  Parameters
   are the tape's leaves: float arrays with ``requires_grad`` that its
   launches read and never write; each check is two float64 sums per leaf,
   leaves larger than ``MAX_ELEMENTS`` are skipped.  This trigger runs with
   the backward checks (``backward_checks``), also on a captured graph's
   replays (``captured``).  Inside PyTorch's backward of a
   ``torch.autograd.Function`` (run again through a retained graph:
   ``gradcheck``'s reentrancy check), an *unchanged* parameter whose gradient
   is exactly what the previous call left is reported too: the Function
   returns the sum of both calls (NVIDIA/warp#1732).
2. **A tape recorded into again without ``reset()``** (``_Rerecorded``).
   ``tape.zero()`` clears the gradients but keeps the recorded launches, so
   a tape re-entered with ``with tape:`` each iteration grows, and each
   ``backward()`` runs the adjoints of every iteration so far: harmless
   (information) when the earlier launches wrote arrays this recording never
   touches, wrong when they share arrays with it (the gradient becomes a sum
   over iterations).  Reported once per tape at the ``tape.zero()`` that
   should have been ``tape.reset()`` (else at the ``backward()``).
3. **Two objectives summed** (``_Summed``).  Two objectives differentiated
   one after the other need the gradients zeroed in between.  Seen on the
   values: a backward fills a parameter's gradient and the program copies it
   out (``g1 = q.grad.numpy().copy()``: it keeps it as a result); another
   backward runs while that gradient is still there, unchanged, and the
   parameter unchanged too (else it is trigger 1); the program reads the
   gradient again and gets the sum.  Reported at the second backward() once
   that read happens; gradients summed on purpose (micro-batches) are read
   once, after the last backward, or only logged in between.

``GradientsNotZeroed`` is the sensor: triggers 2 and 3 listen to the
tracker's events through it.
"""

from __future__ import annotations

import ast
import linecache
import re
import sys
import types
import weakref
from typing import List, Optional, Tuple

from ... import codes
from ...model import Finding, Location, Related
from ..core import facts, naming, related as rel, source_patterns, torch_seams, warp_seams
from .overwrites import method_object_name
from ..core.sensor import Sensor
from ..core.sites import Site

MAX_ELEMENTS = 1 << 22
_KEPT = re.compile(r"\.copy\(|np\.(?:array|copy)\(|numpy\.(?:array|copy)\(|\.clone\(|list\(|\.tolist\(")


class GradientsNotZeroed(Sensor):
    """The sensor of triggers 2 and 3 (trigger 1 runs with the backward checks)."""

    CODES = ("TW202",)

    def __init__(self, tracker):
        self.tracker = tracker
        self.rerecorded = _Rerecorded(tracker)
        self.summed = _Summed(tracker)

    def on_tape_zero(self, tape) -> None:
        facts.tape(tape).zero_site = Site.here()

    def before_backward(self, tape, state, site: Site, args=(), kwargs=None) -> None:
        # Each trigger on its own: one that fails costs a TW910, not the other.
        attempt = self.tracker.registry.attempt
        attempt("checking a tape recorded into again", lambda: self.rerecorded.before_backward(tape, site))
        attempt("checking gradients summed by two backward passes", lambda: self.summed.before_backward(state, site))

    def after_backward(self, tape, state) -> None:
        self.summed.after_backward(state)

    def on_seed_write(self, arr) -> None:
        self.summed.on_seed_write(arr)

    def on_gradient_numpy(self, arr) -> None:
        self.summed.on_gradient_numpy(arr)


# -- 1. steps without zeroing --------------------------------------------------------------------------
class StepsWithoutZero:
    """Trigger 1, run by the backward checks (``backward_checks``): before and after the program's
    backward(), and on each replay of a captured graph (``captured``)."""

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
            if g != 0.0 and g == grad_sum and not replayed and _sum(arr) == value_sum and id(arr) not in updated:
                node = torch_seams.current_node()
                if node is not None:
                    # PyTorch runs the Function's backward again (retain_graph, gradcheck's reentrancy check):
                    # nothing changed, yet the gradient it returns is the sum of both calls.  From another call of
                    # the Function (another node), the tape is shared state the calls overwrite.
                    known = facts.known_tape(tape)
                    last = known.torch_node if known is not None else None
                    self._report_reentrant(arr, record, access, site or Site.here(), previous,
                                           torch_seams.node_name(node), shared=last is not None and last != id(node),
                                           tape=tape)
                continue
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
        node = torch_seams.current_node()
        facts.tape(tape).torch_node = id(node) if node is not None else None
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

    def _report_reentrant(self, arr, record, access, site: Site, previous, node: str, shared: bool = False,
                          tape=None) -> None:
        registry = self.tracker.registry
        what = registry.attempt("naming a parameter", lambda: record.access_name(access)) or \
            record.access_label(access)
        key = ("TW202", what, site.key())
        if registry.bump(key):
            return
        backward = site.location((".backward", "backward"))
        holder = registry.attempt("finding the shared object the Function keeps", lambda: _shared_holder(tape)) \
            if shared else None
        if holder is not None:
            loc, attr, fn_name = holder
            message = (
                "`ctx.%s` is the same object in every call of `%s`, and its tape is the one the latest forward "
                "recorded: this backward, of an earlier call, replays the latest call's launches and arrays, so it "
                "differentiates the other call's inputs and adds to the gradient that call left in `%s.grad` "
                "(measured: the tape was differentiated in another call of the Function, `%s` and its gradient "
                "unchanged since). Keep each call's own state in ctx: a copy of the object, or the tape and arrays "
                "themselves." % (attr, fn_name, what, what))
            related = _backward_related(backward) if backward is not None else []
            registry.report(key, Finding(code="TW202", message=message, location=loc,
                                         severity=codes.severity("TW202"), related=related,
                                         data={"array": what, "reentrant": True, "shared": attr}), arrays=[arr])
            return
        # tape.zero() goes at the top of the Function's backward: after the seed is written it would clear it.
        location = registry.attempt("finding the Function's backward", lambda: _first_statement(site)) or backward
        related = _backward_related(backward) if backward is not None and backward != location else []
        if previous is not None and previous not in (location, backward):
            related.extend(_backward_related(previous))
        message = ("PyTorch runs this backward (`%s`, a torch.autograd.Function's) again, and `%s.grad` still holds "
                   "the gradient the previous call left (measured: unchanged since, and `%s` too): this backward "
                   "adds to it, so the Function returns the sum of both calls (twice the gradient for the same "
                   "seed), and a tensor the first call returned through `wp.to_torch` without `.clone()` changes "
                   "with it. Zero the tape's gradients at the start of the Function's backward, before its seed is "
                   "written (`tape.zero()`), and return clones (NVIDIA/warp#1732)." % (node, what, what))
        registry.report(key, Finding(code="TW202", message=message, location=location,
                                     severity=codes.severity("TW202"), related=related,
                                     data={"array": what, "reentrant": True}), arrays=[arr])

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
                                        lambda: source_patterns.loop_over_part(zeroed_at, other_zero.primary.f_globals
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


def _shared_holder(tape) -> Optional[Tuple[Location, str, str]]:
    """``(location, attribute, Function)`` of ``ctx.<attribute> = ...`` in a torch.autograd.Function's forward,
    when that attribute (of the ``ctx`` of the backward running now) holds ``tape`` or an object whose attribute
    is ``tape`` (a simulator that records its own tape)."""
    frame: Optional[types.FrameType] = sys._getframe(1)
    while frame is not None and not (frame.f_code.co_name == "backward" and frame.f_code.co_argcount >= 1 and
                                     "ctx" in frame.f_code.co_varnames[:1]):
        frame = frame.f_back
    ctx = frame.f_locals.get("ctx") if frame is not None else None
    attrs = getattr(ctx, "__dict__", None) or {}
    attr = next((name for name, value in attrs.items()
                 if value is tape or any(v is tape for v in list(getattr(value, "__dict__", {}).values()))), None)
    if attr is None or frame is None:
        return None
    found = source_patterns.function_def(frame)
    if found is None:
        return None
    tree, backward = found
    cls = next((n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and backward in n.body), None)
    forward = next((b for b in cls.body if isinstance(b, ast.FunctionDef) and b.name == "forward"), None) \
        if cls is not None else None
    if cls is None or forward is None:
        return None
    for node in ast.walk(forward):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Attribute) and t.attr == attr and
                                                isinstance(t.value, ast.Name) and t.value.id == "ctx"
                                                for t in node.targets):
            return Location(frame.f_code.co_filename, node.lineno, node.col_offset + 1), attr, cls.name
    return None


def _first_statement(site: Site) -> Optional[Location]:
    """The first statement of the user function that called ``tape.backward()``, when it is a method named
    ``backward`` (a torch.autograd.Function's); None otherwise."""
    snap = site.primary
    if snap is None or snap.f_code.co_name != "backward":
        return None
    found = source_patterns.function_def(snap)
    if found is None or not found[1].body:
        return None
    fn = found[1]
    first = fn.body[0]
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and len(fn.body) > 1:
        first = fn.body[1]  # (past a docstring)
    return Location(snap.f_code.co_filename, first.lineno, first.col_offset + 1)




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
    if local is not None and source_patterns.enclosing_loop(Site([snap])) is not None:
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


# -- 2. a tape recorded into again ---------------------------------------------------------------------
class _Rerecorded:
    """Trigger 2: a tape recorded into again without ``reset()``."""

    def __init__(self, tracker):
        self.tracker = tracker

    def before_backward(self, tape, site: Site) -> None:
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
            names = [registry.attempt("naming an array", lambda a=a: naming.name_by_identity(a)) or "an array"
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


# -- 3. two objectives summed -------------------------------------------------------------------------
class _Summed:
    """Trigger 3: a second backward() adds to a gradient the program already took as a result."""

    # Values are only fingerprinted when the program copies a gradient out (and again at the next
    # backward for those): a training loop that never does pays one dict entry per parameter.

    def __init__(self, tracker):
        self.tracker = tracker
        self.serial = 0  # backward() calls seen

    def before_backward(self, state, site: Site) -> None:
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
                continue  # zeroed or changed since, or the parameter stepped (trigger 1)
            facts.array(grad).summed = (serial, arr, filled[2], read_site, site)

    def after_backward(self, state) -> None:
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
        name = registry.attempt("naming a parameter", lambda: naming.name_by_identity(arr)) or "the parameter"
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
