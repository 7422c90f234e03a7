"""TW205: a gradient read before its own backward(), or after tape.zero() cleared it.

Between the start of a tape's recording and that tape's ``backward()``, the
``.grad`` of an array the tape reads still holds the previous iteration's
gradient (or zeros after ``tape.zero()``).  Reading it there — an optimizer
step, ``.numpy()``, a copy — uses a stale gradient: the classic misordered
loop (step, then backward).  Reads are remembered on the tape and reported
only if that tape's ``backward()`` really runs, at the line that read.

The mirror image: a gradient that a backward filled, cleared by
``tape.zero()``, then read before any backward fills it again (cloned to
seed another tape's backward, copied, ``.numpy()``): the read gets zeros.
Reported at once, at the read, when the cleared gradient was not all zeros.
"""

from __future__ import annotations

import ast
import os
import weakref
from typing import Any, List, NamedTuple

from ... import codes
from ...model import Finding, Related
from ..core import facts, related as rel
from .numpy_writes import grad_reference_before, view_read_after
from ..core.sites import Site, ordering_snap
from ...warpsrc.source import callee, file_tree
from ..core.sensor import Sensor


MAX_ZEROED_ELEMENTS = 1 << 24  # gradients larger than this are not inspected at tape.zero()


class GradRead(NamedTuple):
    grad: Any
    array: Any
    how: str  # ".numpy()", "a launch of `sgd_step`", "wp.copy"
    site: Site


class GradReads(Sensor):
    CODES = ("TW205",)

    def __init__(self, tracker):
        self.tracker = tracker
        self._held_at: dict = {}  # a read's key -> the key of the reference binding it was reported at

    # -- the reads -----------------------------------------------------------
    def on_read(self, grad, how: str) -> None:
        owners = self.tracker.gradient_owners(grad)
        if not owners:
            return
        site = Site.here()
        filled_at = facts.peek(grad).filled_at
        for state, arr in owners:
            first = state.launches[0].index if state.launches else None
            if filled_at is not None and first is not None and filled_at >= first:
                # Another tape's backward() filled it after this tape began recording (two objectives
                # differentiated one after the other): the read is of that fresh gradient.
                continue
            if not any(r.grad is grad and r.site.key() == site.key() for r in state.grad_reads):
                state.grad_reads.append(GradRead(grad, arr, how, site))

    def on_numpy(self, arr) -> None:
        self.on_read(arr, "`.numpy()`")

    # -- reads after tape.zero() ---------------------------------------------
    def on_grad_view(self, grad, view) -> None:
        """``g = x.grad.numpy()`` on the CPU: ``g`` shares the gradient's memory, so a later zero()
        clears what ``g`` shows.  Kept weakly: a view the script did not keep cannot be read later."""
        if str(getattr(grad, "device", "")) != "cpu":
            return
        try:
            ref = weakref.ref(view)
        except TypeError:
            return
        record = facts.array(grad)
        views = record.grad_views = record.grad_views or []
        views[:] = [v for v in views if v[0]() is not None][-7:] + [(ref, Site.here())]

    def on_tape_zero(self, tape) -> None:
        import numpy as np  # noqa: PLC0415

        from ..core import warp_seams  # noqa: PLC0415

        site = None
        grads = list(warp_seams.tape_gradients(tape))
        # No gradient the last backward filled was read before this zero(): the zero() sits between the
        # backward() and every use, and it is the line to move.
        unread = not any(f is not None and f.read_after is not None and f.read_after == f.filled_by
                         for f in map(facts.known, grads))
        for grad in grads:
            record = facts.known(grad)
            if record is None or record.filled_by is None or getattr(grad, "size", 0) > MAX_ZEROED_ELEMENTS:
                continue
            if np.any(warp_seams.host_values(grad) != 0):  # what the zero() is about to discard
                site = site or Site.here()
                record.zeroed = site
                record.zeroed_unread = unread
                views, record.grad_views = record.grad_views or [], None
                for ref, view_site in views:
                    if ref() is not None:
                        self._report_held_view(view_site, site)

    def _report_held_view(self, view_site: Site, zero_site: Site) -> None:
        """A NumPy view of the gradient, still held, that the source reads after this zero()."""
        registry = self.tracker.registry
        key = ("TW205", "view", view_site.key())
        if key in registry:
            registry.bump(key)
            return
        found = registry.attempt("finding reads of a gradient's view after zero()",
                                 lambda: view_read_after(view_site, zero_site.primary), None)
        if found is None:
            return
        name, read = found
        zero_loc = registry.attempt("locating a tape's zero()", lambda: zero_site.location(("zero",)))
        message = ("`%s` is a NumPy view of the gradient (on the CPU it shares its memory), and the tape's zero()%s "
                   "clears that memory before `%s` is used: the use sees zeros, not the gradient. Copy it "
                   "(`.numpy().copy()`), or zero after its last use."
                   % (name, " (line %d)" % zero_loc.line if zero_loc is not None else "", name))
        related: List[Related] = []
        if zero_loc is not None:
            related.append(Related(zero_loc, "the zero() that clears the view", "zero"))
        related.append(Related(read, "`%s` used here, after the zero()" % name, "read"))
        loc = registry.attempt("locating a .numpy() call", lambda: view_site.location(("numpy",)))
        registry.report(key, Finding(code="TW205", message=message, location=loc, severity=codes.severity("TW205"),
                                     related=related, data={"how": "`.numpy()` view", "zeroed": True,
                                                            "variable": name}))

    def on_zeroed_grad_read(self, grad, how: str) -> None:
        registry = self.tracker.registry
        zeroed = facts.peek(grad).zeroed
        site = Site.here()
        key = ("TW205", "zeroed", site.key())
        if zeroed is None or registry.bump(key) or registry.bump(self._held_at.get(key)):
            return
        if registry.attempt("reading the statement that reads a zeroed gradient",
                            lambda: checks_for_zeros(site), False):
            return  # ``assert_array_equal(x.grad.numpy(), 0.0)``: the program checks the zero() worked
        zero_loc = registry.attempt("locating a tape's zero()", lambda: zeroed.location(("zero",)))
        message = ("This reads a gradient (%s) after the tape's zero()%s cleared it (reset() zeroes too): it holds "
                   "zeros, not the gradient the last backward() computed. Read or copy the gradient before zero(), "
                   "or zero after its last use."
                   % (how, " (line %d)" % zero_loc.line if zero_loc is not None else ""))
        related: List[Related] = []
        if zero_loc is not None:
            related.append(Related(zero_loc, "the zero() that cleared it", "zero"))
        related.extend(registry.attempt("listing the callers", lambda: rel.caller_chain(site), []))
        loc = registry.attempt("locating a read", lambda: site.location(("clone", "copy", "numpy")))
        same_function = zeroed.primary is not None and site.primary is not None and \
            zeroed.primary.f_code is site.primary.f_code
        held = registry.attempt("finding a reference to the gradient", lambda: grad_reference_before(
            site, zeroed.primary.f_lineno)) if same_function else None
        if held is None and zero_loc is not None and facts.peek(grad).zeroed_unread:
            # zero() right after backward(), before any gradient was read: every read after it gets zeros,
            # and the zero() is the line to move.
            message = ("This zero() (or reset()) clears the gradients that the preceding backward() computed, "
                       "before anything has read them: the read at line %d (%s) gets zeros, not the gradient. Zero "
                       "after the gradients are used (after the optimizer step), or at the start of the next "
                       "iteration."
                       % (loc.line if loc is not None else site.primary.f_lineno if site.primary else 0, how))
            related = ([Related(loc, "the gradient read here gets zeros", "read")] if loc is not None else []) + \
                [r for r in related if r.role != "zero"]
            loc = zero_loc
            key = self._held_at[key] = ("TW205", "zeroed-unread", (zero_loc.path, zero_loc.line))
            if registry.bump(key):
                return
        if held is not None:
            # ``grad = kappa.grad`` before the zero(): the name holds the gradient itself, and the zero()
            # clears what it shows; the binding is the line to change (``wp.clone(kappa.grad)``).
            name, bound = held
            message = ("`%s` is the gradient array itself, not a copy: the tape's zero() or reset()%s "
                       "clears it before `%s` is read (%s), so the read gets zeros, not the gradient the last "
                       "backward() computed. Copy it here (`wp.clone(...)`, `.numpy().copy()`)."
                       % (name, " (line %d)" % zero_loc.line if zero_loc is not None else "", name, how))
            if loc is not None:
                related.insert(0, Related(loc, "`%s` read here, after the zero()" % name, "read"))
            loc = bound
            # One finding for the binding, however many reads of the name follow the zero().
            key = self._held_at[key] = ("TW205", "zeroed", (bound.path, bound.line))
            if registry.bump(key):
                return
        registry.report(key, Finding(code="TW205", message=message, location=loc, severity=codes.severity("TW205"),
                                     related=related, data={"how": how, "zeroed": True}))

    def on_untaped_launch(self, kernel, accesses) -> None:
        from ..core import warp_seams  # noqa: PLC0415

        for access in accesses:
            if access.read:
                self.on_read(access.array, "a launch of `%s`" % warp_seams.kernel_name(kernel))

    def on_launch(self, state, record) -> None:
        """A taped launch reading a gradient of this same tape's reads (a taped optimizer step)."""
        for access in record.accesses:
            if access.read and id(access.array) in state.grad_of:
                grad, arr = state.grad_of[id(access.array)]
                if grad is access.array:
                    state.grad_reads.append(GradRead(grad, arr, "a launch of `%s`" % record.kernel_name,
                                                     record.site))

    # -- at backward() ---------------------------------------------------------
    def before_backward(self, tape, state, backward_site: Site, args=(), kwargs=None) -> None:
        # This backward fills the tape's gradients again: reads from now on are not of zeroed ones
        # (a record_func callback reads them while the backward runs).
        for grad in state.gradients():
            facts.array(grad).zeroed = None
        registry = self.tracker.registry
        reads, state.grad_reads = state.grad_reads, []
        for read in reads:
            key = ("TW205", read.site.key(), read.how)
            if registry.bump(key):
                continue
            registry.report(key, lambda read=read: self._finding(state, read, backward_site), arrays=[read.array])

    def _finding(self, state, read: GradRead, backward_site: Site) -> Finding:
        registry = self.tracker.registry
        entries = state.reads.get(id(read.array))
        entry = entries[-1] if entries else None
        what = None
        if entry is not None:
            what = registry.attempt("naming an array", lambda: entry.record.access_name(entry.access))
        what = what or "the parameter"
        back = registry.attempt("locating a backward() call",
                                lambda: backward_site.location((".backward", "backward")))
        message = ("`%s.grad` is read here (%s) after the tape started recording and before its backward()%s: "
                   "it still holds the previous iteration's gradient (or zeros after tape.zero()), not this "
                   "iteration's. Move this read after `tape.backward()`."
                   % (what, read.how, " (line %d)" % back.line if back is not None else ""))
        related: List[Related] = []
        if back is not None:
            related.append(Related(back, "the backward() that computes `%s.grad`" % what, "backward"))
        if entry is not None:
            loc = registry.attempt("locating a launch", entry.record.location)
            if loc is not None:
                related.append(Related(loc, "`%s` reads `%s` on the tape" % (entry.record.kernel_name, what),
                                       "reader"))
        related.extend(registry.attempt("listing the callers", lambda: rel.caller_chain(read.site), []))
        loc = registry.attempt("locating a read", lambda: read.site.location(())) or back
        # A read inside a helper (``opt.step()``) is fixed by moving the helper's call after backward().
        ordered = registry.attempt("finding where a read is ordered against backward()", lambda: ordering_snap(
            read.site, backward_site, [r.site for r in state.launches]))
        if ordered is not None and loc is not None:
            related = [r for r in related if r.role != "caller"]
            related.insert(0, Related(loc, "the read of `%s.grad` inside the call" % what, "read"))
            message = message.replace("is read here (%s)" % read.how, "is read in this call (%s at %s:%d)" % (
                read.how, os.path.basename(loc.path), loc.line)).replace("Move this read after", "Move this call after")
            loc = ordered.location(())
        return Finding(code="TW205", message=message, location=loc, severity=codes.severity("TW205"),
                       related=related, data={"array": what, "how": read.how})


_ZERO_CALLS = ("zeros", "zeros_like")
_CHECK_WORDS = ("assert", "allclose", "equal", "isclose")


def checks_for_zeros(site: Site) -> bool:
    """The statement that read the gradient compares it with zeros (``assert x.grad.numpy().sum() == 0.0``,
    ``np.testing.assert_array_equal(g.numpy(), 0.0)``, ``assert_np_equal(g.numpy(), np.zeros(3))``): it wants
    the zeros, to check that ``zero()`` cleared the gradient."""
    snap = site.primary
    if snap is None:
        return False
    statement = statement_at(snap.f_code.co_filename, snap.f_lineno, snap.f_globals)
    if statement is None:
        return False
    for node in ast.walk(statement):
        if isinstance(node, ast.Compare) and any(_is_zero(e) for e in [node.left, *node.comparators]):
            return True
        if isinstance(node, ast.Call):
            name = callee(node.func) or ""
            if any(word in name.lower() for word in _CHECK_WORDS) and any(
                    _is_zero(a) or (isinstance(a, ast.Call) and callee(a.func) in _ZERO_CALLS) for a in node.args):
                return True
    return False


def _is_zero(node: ast.expr) -> bool:
    """``0``, ``0.0``, ``[0.0, 0.0]``, ``np.array([0.0])``."""
    if isinstance(node, ast.Constant):
        return not isinstance(node.value, bool) and node.value == 0
    if isinstance(node, (ast.List, ast.Tuple)):
        return bool(node.elts) and all(_is_zero(e) for e in node.elts)
    if isinstance(node, ast.Call) and callee(node.func) in ("array", "asarray") and len(node.args) == 1:
        return _is_zero(node.args[0])
    return False


_STATEMENTS: dict = {}  # file -> its statements as (first line, last line, node), for the reads of a run


def statement_at(path: str, line: int, module_globals=None):
    """The innermost statement of ``path`` that spans ``line`` (None when the file cannot be parsed)."""
    known = _STATEMENTS.get(path)
    if known is None:
        tree = file_tree(path, module_globals)
        known = _STATEMENTS[path] = [(n.lineno, n.end_lineno or n.lineno, n) for n in ast.walk(tree)
                                     if isinstance(n, ast.stmt)] if tree is not None else []
    spanning = [(last - first, node) for first, last, node in known if first <= line <= last]
    return min(spanning, key=lambda item: item[0])[1] if spanning else None
