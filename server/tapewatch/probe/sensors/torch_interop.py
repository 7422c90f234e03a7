"""TW210, TW211: gradients that PyTorch and Warp both own (``wp.from_torch`` shares memory, never copies).

Inside a ``torch.autograd.Function`` a Warp array made by ``wp.from_torch``
*is* the PyTorch tensor, and with ``requires_grad`` its ``.grad`` *is* the
tensor's ``.grad``.  Two ways this goes silently wrong are measured here
(NVIDIA/warp#1732, #159):

- **TW210, a seed Warp cleared.**  ``ctx.y.grad = wp.from_torch(adj_y)``
  makes PyTorch's ``grad_output`` the output's gradient array.  Warp clears
  it: a backward zeroes an output's adjoint once it has read it (1.15 and
  newer, unless ``retain_grad=True``), ``tape.zero()`` zeroes every gradient
  of the tape.  The tensor belongs to the caller: one that passes the same
  ``grad_outputs`` to ``torch.autograd.grad`` again gets zeros.  Reported
  when a backward *is* seeded with the zeros Warp left in a tensor that held
  a seed (the clearing alone changes no gradient).
- **TW211, a leaf's gradient counted twice.**  ``wp.from_torch(x,
  requires_grad=True)`` of a leaf tensor wraps ``x.grad``: Warp's adjoint (a
  tape's backward or an adjoint launch) adds dL/dx into it directly, and
  PyTorch adds the gradient the Function returns on top.  Measured with
  PyTorch's own hooks on the leaf: just before PyTorch accumulates, what the
  leaf's ``.grad`` gained since ``from_torch`` wrapped it is Warp's in-place
  write; just after, what it gained in all is that write plus the returned
  gradient.

- **TW212, elements that share memory.**  ``wp.from_torch`` of an
  ``expand()`` view (stride 0) keeps the stride: one memory cell, and one
  gradient cell, for all the expanded elements, so every thread's adjoint
  adds into it and each element's gradient reads the sum; PyTorch sums an
  expanded tensor's gradient again.  Reported when a tape differentiates
  such an array (the strides are the measurement).

All are reported at the ``wp.from_torch`` call, the line that shares the
memory.  Stdlib only; PyTorch is reached through the tensors the program
made (``_tensor``, kept by ``wp.from_torch`` on the array it returns).
"""

from __future__ import annotations

import ast
import weakref
from typing import Any, Dict, List, NamedTuple, Optional

from ... import codes
from ...model import Finding, Related
from ..core import call_expressions, facts, related as rel, source_patterns, torch_seams, warp_seams
from ..core.sites import Site
from ..core.sensor import PerTape, Sensor
from . import overwrites


class Cleared(NamedTuple):
    tensor: Any  # a weak reference to the PyTorch tensor whose memory Warp cleared
    by: Site  # the backward() or tape.zero() that cleared it
    how: str  # "backward" or "zero"


MAX_KEPT = 256  # cleared seeds and wrapped leaves remembered at once (a loop may make fresh ones each step)
MAX_READ_ELEMENTS = 1 << 20  # torch-backed arrays a tape read, kept to compare at its backward: elements each
MAX_READ_ARRAYS = 64  # ... and arrays per tape


class _Read(NamedTuple):
    record: Any
    access: Any


class Leaf(NamedTuple):
    """A PyTorch leaf whose ``.grad`` a Warp array wraps (TW211), until PyTorch next accumulates into it."""

    tensor: Any  # a weak reference to it
    start: Any  # a copy of its ``.grad`` when ``from_torch`` wrapped it (a tensor on its device), until then
    array: Any  # the Warp array over it (its allocation is the ``from_torch`` call)
    pending: Optional[tuple]  # (start, written in place, incoming): taken as PyTorch is about to accumulate


class TorchInterop(Sensor):
    CODES = ("TW106", "TW204", "TW210", "TW211", "TW212", "TW213", "TW214")

    def __init__(self, tracker):
        self.tracker = tracker
        self._cleared: Dict[tuple, Cleared] = {}  # (device, address) of a seed's memory -> who cleared it
        self._armed: List[tuple] = []  # (seed array, its memory's key) of the running backward, held a seed
        self._kept = PerTape(list)  # per tape: the seeds its last backward left holding values (zero() clears)
        self._read = PerTape(dict)  # per tape: id(array) -> (array, record, access, values read) of torch memory
        # By id, each with a weak reference to its tensor (a tensor's ``==`` is elementwise: no dict key).
        self._leaves_seen: Dict[int, Leaf] = {}
        self._hooked: Dict[int, Any] = {}  # id(tensor) -> a weak reference to it, while its hook is registered
        self._site: Optional[Site] = None
        # (device, address) -> (where, a weak reference to the tensor, the array's name): wp.to_torch views of
        # gradient arrays taken inside a Function's backward
        self._views: Dict[tuple, tuple] = {}
        self._watched_nodes: Dict[int, list] = {}  # id(node) -> [(key, where zeroed)] of this execution
        # id(leaf) -> (a weak reference to the array whose gradient was the leaf's ``.grad``, one to the leaf)
        self._wrapped: Dict[int, tuple] = {}
        self._step_hooked = False

    # -- TW210: seeds --------------------------------------------------------------------------------------
    def before_backward(self, tape, state, site: Site, args=(), kwargs=None) -> None:
        self._armed, self._site = [], site
        if self.tracker.capturing:
            return
        kwargs = kwargs or {}
        grads = args[1] if len(args) > 1 else kwargs.get("grads")
        loss = args[0] if args else kwargs.get("loss")
        if loss is not None and torch_seams.current_node() is not None:
            self.tracker.registry.attempt("comparing a loss seed with PyTorch's incoming gradient",
                                          lambda: self._check_loss_seed(site))
        self._check_aliased(state, site)
        self._check_read(state, site)
        for seed, adopter in _seeds(state, grads):
            key = _key(seed)
            if key is None:
                continue
            values = warp_seams.host_values(seed)
            if values.any():
                self._cleared.pop(key, None)  # the caller refilled it
                self._armed.append((seed, key))
                continue
            cleared = self._cleared.get(key)
            if cleared is not None and cleared.tensor() is _tensor(seed):
                self._report_cleared(seed, cleared, site, adopter)

    def after_backward(self, tape, state) -> None:
        site = self._site or Site.here()
        kept = []
        for seed, key in self._armed:
            t = _tensor(seed)
            if t is None:
                continue
            if warp_seams.host_values(seed).any():
                kept.append((seed, key))  # Warp 1.14 keeps an output's gradient: a tape.zero() may clear it
            else:
                # Read and cleared by the backward itself (an output without retain_grad, Warp 1.15 and newer).
                self._remember(key, Cleared(weakref.ref(t), site, "backward"))
        self._kept.take(state)
        if kept:
            self._kept.of(state).extend(kept)
        self._armed = []

    # -- TW106: PyTorch wrote what the tape read ---------------------------------------------------------
    def on_launch(self, state, record) -> None:
        """Keep the values a taped launch read from PyTorch's memory: PyTorch may write it before the backward
        and Warp sees no write (an array made by ``wp.from_torch`` of a staging tensor refilled each call)."""
        if self.tracker.capturing:
            return
        read = self._read.of(state)
        written = {id(a.array) for a in record.accesses if a.write}
        for access in record.accesses:
            arr = access.array
            if not access.read or id(arr) in read or id(arr) in written or _tensor(arr) is None or \
                    getattr(arr, "size", 0) > MAX_READ_ELEMENTS or len(read) >= MAX_READ_ARRAYS:
                continue
            read[id(arr)] = (arr, record, access, warp_seams.host_values(arr).copy())

    def _check_read(self, state, site: Site) -> None:
        import numpy as np  # noqa: PLC0415

        read = self._read.take(state)
        if not read:
            return
        # Warp's own writes (outside the tape, kept for its backward, or on it; by memory, for another array over
        # the same tensor): the overwrite engine's to report.
        warp_written = {_key(w.array) for w in state.pending_writes} | \
            {_key(a.array) for r in state.launches for a in r.accesses if a.write}
        for arr, record, access, values in read.values():
            if _key(arr) in warp_written:
                continue
            now = warp_seams.host_values(arr)
            if now.shape != values.shape or np.array_equal(now, values, equal_nan=True):
                continue
            if overwrites.harmless_reason(_Read(record, access)) is not None:
                continue  # the adjoint does not use the values
            changed = int(np.count_nonzero(~((now == values) | (np.isnan(now) & np.isnan(values)))))
            self._report_written(arr, record, site, changed, int(values.size))

    def _report_written(self, arr, record, site: Site, changed: int, total: int) -> None:
        registry = self.tracker.registry
        here = rel.alloc_site(arr)
        key = ("TW106", "torch", here.key() if here is not None else None, record.site.key())
        if registry.bump(key):
            return

        def build():
            tensor = (_first_argument(here) if here is not None else None) or "the tensor"
            loc = here.location(("from_torch",)) if here is not None else None
            launch = record.location()
            back = site.location((".backward", "backward"))
            message = (
                "`wp.from_torch(%s)` shares the tensor's memory with Warp (no copy), and its values changed after "
                "`%s` read them on this tape and before this backward(): something outside Warp wrote the tensor "
                "(PyTorch; Warp saw no write), so the backward replays `%s`'s adjoint with the new values "
                "(measured: %d of %d elements differ). Give the tape a copy (`wp.from_torch(%s.clone())`), or run "
                "the backward before the tensor is refilled."
                % (tensor, record.kernel_name, record.kernel_name, changed, total, tensor))
            related = []
            if launch is not None:
                related.append(Related(launch, "`%s` read the values here" % record.kernel_name, "reader"))
            if back is not None:
                related.append(Related(back, "the backward that replays with the new values", "backward"))
            return Finding(code="TW106", message=message, location=loc or launch, severity=codes.severity("TW106"),
                           related=related, data={"changed": changed, "elements": total, "writer": "torch"})

        registry.report(key, build, arrays=[arr], launches=[record.index])

    # -- TW213: a view handed back to PyTorch, then cleared ----------------------------------------------
    def on_to_torch(self, arr, t) -> None:
        key = _key(arr)
        if key is None or torch_seams.current_node() is None:
            return
        self._views[key] = (Site.here(), weakref.ref(t))
        while len(self._views) > MAX_KEPT:
            self._views.pop(next(iter(self._views)))

    def _zeroing(self, grads, where: Site) -> None:
        """Gradients Warp is about to zero: inside a Function's backward, a view of one taken there may be what
        the Function returns; PyTorch's hook after the Function ran says whether it was."""
        node = torch_seams.current_node() if self._views else None
        if node is None:
            return
        keys = [k for k in (_key(g) for g in grads) if k is not None and k in self._views]
        if not keys:
            return
        watched = self._watched_nodes.get(id(node))
        if watched is None:
            watched = self._watched_nodes[id(node)] = []
            node.register_hook(lambda inputs, outputs, n=id(node): self.tracker.registry.call(
                "comparing what a Function returned with the gradients Warp cleared", self._returned, n, inputs))
        watched.extend((k, where) for k in keys)

    def _returned(self, node_id: int, returned) -> None:
        watched = self._watched_nodes.pop(node_id, [])
        for key, zeroed_at in watched:
            view = self._views.get(key)
            if view is None:
                continue
            made_at, ref = view
            t = ref()
            if t is None or not any(r is t for r in returned if r is not None):
                continue  # not what the Function returned (a copy was)
            if bool(t.detach().abs().max() == 0):
                self._report_returned_view(made_at, zeroed_at)

    def _report_returned_view(self, made_at: Site, zeroed_at: Site) -> None:
        registry = self.tracker.registry
        key = ("TW213", made_at.key())
        if registry.bump(key):
            return

        def build():
            loc = made_at.location(("to_torch",))
            zero = zeroed_at.location(("zero", "zero_"))
            message = (
                "`wp.to_torch` makes a view of Warp's gradient array (no copy), and Warp zeroes that array before "
                "the Function returns the view: PyTorch receives zeros (measured: the tensor the Function returned "
                "is this view, all zeros after the zeroing). Return a copy (`wp.to_torch(...).clone()`), or zero "
                "the tape's gradients before its backward instead of after.")
            related = [Related(zero, "Warp zeroes the gradient here, before the Function returns", "zero")] \
                if zero is not None else []
            return Finding(code="TW213", message=message, location=loc or zero, severity=codes.severity("TW213"),
                           related=related, data={})

        registry.report(key, build)

    def on_untaped_write(self, arr, op: str) -> None:
        if self._views and op == "zero_":
            self.tracker.registry.attempt("noting gradients a Function's backward zeroes",
                                          lambda: self._zeroing([arr], Site.here()))

    def on_tape_zero(self, tape) -> None:
        grads = warp_seams.tape_gradients(tape)
        if self._views:
            self.tracker.registry.attempt("noting gradients a Function's backward zeroes",
                                          lambda: self._zeroing(grads, Site.here()))
        state = facts.tape_state(tape)
        kept = self._kept.take(state) if state is not None else None
        if not kept:
            return
        by = Site.here()
        zeroed = {id(g) for g in grads}
        for seed, key in kept:
            t = _tensor(seed)
            if t is not None and id(seed) in zeroed:
                self._remember(key, Cleared(weakref.ref(t), by, "zero"))

    def _remember(self, key, cleared: Cleared) -> None:
        self._cleared.pop(key, None)
        self._cleared[key] = cleared
        while len(self._cleared) > MAX_KEPT:
            self._cleared.pop(next(iter(self._cleared)))

    def _report_cleared(self, seed, cleared: Cleared, site: Site, adopter=None) -> None:
        registry = self.tracker.registry
        here = rel.alloc_site(seed)
        if here is None:
            return
        key = ("TW210", here.key())
        if registry.bump(key):
            return

        def build():
            finding = _adopted(registry, seed, cleared, site, adopter, here) if adopter is not None else None
            if finding is not None:
                return finding
            loc = here.location(("from_torch",))
            tensor = _first_argument(here) or "the tensor"
            by = cleared.by.location(("zero",) if cleared.how == "zero" else (".backward", "backward"))
            back = site.location((".backward", "backward"))
            how = ("`tape.zero()` zeroed it" if cleared.how == "zero" else
                   "the previous backward() cleared it after reading it (Warp clears an output's gradient once "
                   "its adjoint has read it, unless the array has retain_grad=True)")
            message = (
                "`wp.from_torch(%s)` makes the PyTorch tensor itself the gradient array of the Warp output it seeds "
                "(no copy), and %s: the tensor belongs to the caller, who passed it again, so this backward() is "
                "seeded with zeros and adds nothing to the gradients it returns (measured: the seed is all zeros; it held "
                "a seed before Warp cleared it). Give Warp a copy (`wp.from_torch(%s.clone())`), or let the output "
                "keep a gradient array of its own and copy the seed into it (`tape.backward(grads={out: "
                "wp.from_torch(%s)})` copies when `out` was allocated with requires_grad=True)."
                % (tensor, how, tensor, tensor))
            related = []
            if by is not None:
                related.append(Related(by, "Warp cleared the caller's tensor here" if cleared.how == "zero" else
                                       "this backward() cleared the caller's tensor after reading it", "cleared"))
            if back is not None:
                related.append(Related(back, "this backward() is seeded with the zeros", "backward"))
            related.extend(r for r in registry.attempt("listing the callers", lambda: rel.caller_chain(here), [])
                           if r.location != loc)
            return Finding(code="TW210", message=message, location=loc or back, severity=codes.severity("TW210"),
                           related=related, data={"cleared_by": cleared.how})

        registry.report(key, build, arrays=[seed])

    # -- TW204: a Function's backward that seeds its tape with 1 ------------------------------------------
    def _check_loss_seed(self, site: Site) -> None:
        """``tape.backward(loss=...)`` inside a Function's backward seeds the tape with 1, whatever gradient
        PyTorch passed in: measured against that gradient, read from the Function's backward frame."""
        found = torch_seams.function_backward_frame(site)
        if found is None:
            return
        name, incoming = found
        if _reads_name(site, name):
            return  # the backward uses the incoming gradient (scales what it returns by it)
        values = incoming.detach().double().cpu().reshape(-1)
        if values.numel() == 0 or bool((values == 1.0).all()):
            return
        uniform = bool((values == values[0]).all())
        c = float(values[0])
        registry = self.tracker.registry
        key = ("TW204", "torch-loss-seed", site.key())
        if registry.bump(key):
            return
        scale = ("PyTorch passes %s = %.6g, so the gradient it returns is %.4g times the one PyTorch asks for"
                 % (name, c, 1.0 / c) if uniform and c != 0.0 else
                 "PyTorch passes `%s` with values from %.6g to %.6g, so the gradient it returns is not the one PyTorch "
                 "asks for" % (name, float(values.min()), float(values.max())))
        message = (
            "Inside this torch.autograd.Function's backward, `tape.backward(loss=...)` seeds the tape with 1 and "
            "never uses the gradient PyTorch passes in: %s (measured). Seed the tape with it: write `%s` into the "
            "output's gradient (`out.grad.assign(wp.from_torch(%s.contiguous()))`, then `tape.backward()`), or "
            "pass `grads={out: wp.from_torch(%s.contiguous())}`." % (scale, name, name, name))
        loc = site.location((".backward", "backward"))
        registry.report(key, Finding(code="TW204", message=message, location=loc, severity=codes.severity("TW204"),
                                     related=[], data={"incoming": c if uniform else None, "torch": True}))

    # -- TW214: a leaf that no longer holds Warp's gradient ------------------------------------------------
    def _before_step(self, optimizer) -> None:
        """A PyTorch optimizer is about to step: a parameter whose gradient Warp writes (its ``.grad`` was
        wrapped) must still hold that memory, or the step does not see what Warp computed."""
        for group in getattr(optimizer, "param_groups", ()):
            for p in group.get("params", ()):
                known = self._wrapped.get(id(p))
                if known is None or known[1]() is not p:
                    continue
                arr = known[0]()
                grad = getattr(arr, "grad", None) if arr is not None else None
                if grad is None or not grad.ptr:
                    continue
                held = getattr(p, "grad", None)
                if held is not None and int(held.data_ptr()) == int(grad.ptr):
                    continue
                if warp_seams.host_values(grad).any():
                    self._report_orphaned(arr, held is None, Site.here())

    def _report_orphaned(self, arr, dropped: bool, step: Site) -> None:
        registry = self.tracker.registry
        here = rel.alloc_site(arr)
        key = ("TW214", here.key() if here is not None else None, step.key())
        if registry.bump(key):
            return
        tensor = (_first_argument(here) if here is not None else None) or "the tensor"
        zero_grad = registry.attempt("finding the zero_grad() call", lambda: source_patterns.call_in_loop(
            step, ("zero_grad",)))
        now = ("its `.grad` is None now (`zero_grad()` sets gradients to None unless `set_to_none=False`)"
               if dropped else "its `.grad` is another tensor now")
        message = (
            "`wp.from_torch(%s)` made Warp's gradient array the PyTorch leaf's `.grad`, but at the optimizer's "
            "step %s: Warp's backward wrote the gradient into a buffer PyTorch no longer reads, so the optimizer "
            "steps without it (measured at the step: Warp's gradient is non-zero, the leaf's `.grad` is not that "
            "memory). Keep the buffer (`optimizer.zero_grad(set_to_none=False)`), or hand PyTorch the gradient "
            "after each backward (`p.grad = wp.to_torch(arr.grad)`)." % (tensor, now))
        related = []
        from_torch_loc = here.location(("from_torch",)) if here is not None else None
        stepped = step.location(("step",))
        loc = zero_grad if zero_grad is not None and dropped else from_torch_loc or stepped
        if from_torch_loc is not None and from_torch_loc != loc:
            related.append(Related(from_torch_loc, "Warp's gradient array was the leaf's `.grad` here", "wrapped"))
        if stepped is not None:
            related.append(Related(stepped, "the optimizer steps without Warp's gradient", "step"))
        registry.report(key, Finding(code="TW214", message=message, location=loc, severity=codes.severity("TW214"),
                                     related=related, data={"dropped": dropped}), arrays=[arr])

    # -- TW212: elements that share memory ---------------------------------------------------------------
    def _check_aliased(self, state, site: Site) -> None:
        for arr, record, access in state.parameters():
            if _tensor(arr) is None or getattr(arr, "grad", None) is None:
                continue
            shared = _shared_dims(arr)
            if shared:
                self._report_aliased(arr, shared, record, access, site)

    def _report_aliased(self, arr, shared, record, access, site: Site) -> None:
        registry = self.tracker.registry
        here = rel.alloc_site(arr)
        if here is None:
            return
        key = ("TW212", here.key())
        if registry.bump(key):
            return

        def build():
            loc = here.location(("from_torch",))
            tensor = _first_argument(here) or "the tensor"
            n = 1
            for dim in shared:
                n *= int(arr.shape[dim])
            dims = ", ".join("%d" % d for d in shared)
            message = (
                "`wp.from_torch(%s, ...)` wraps a tensor whose elements share memory (stride 0 along dimension %s: "
                "an `expand()` or broadcast view), so the Warp array and its gradient hold one cell for each %d "
                "elements: every thread's adjoint adds into that one cell, and each element's gradient reads the "
                "sum over all %d. Returned to PyTorch as the expanded tensor's gradient, that sum is summed again "
                "(%d times the gradient). Pass a contiguous copy (`%s.contiguous()`), or the un-expanded tensor."
                % (tensor, dims, n, n, n, tensor))
            related = []
            launch = record.location()
            if launch is not None:
                related.append(Related(launch, "`%s` reads it here, differentiated" % record.kernel_name, "reader"))
            back = site.location((".backward", "backward"))
            if back is not None:
                related.append(Related(back, "the backward that accumulates into the shared cell", "backward"))
            return Finding(code="TW212", message=message, location=loc or launch, severity=codes.severity("TW212"),
                           related=related, data={"shared_dims": list(shared), "elements_per_cell": n})

        registry.report(key, build, arrays=[arr])

    # -- TW211: a leaf's gradient ------------------------------------------------------------------------
    def on_from_torch(self, arr, t) -> None:
        if not _wraps_leaf_grad(arr, t):
            return
        self._wrapped[id(t)] = (weakref.ref(arr), weakref.ref(t))
        if len(self._wrapped) > MAX_KEPT:
            self._wrapped = {k: v for k, v in self._wrapped.items() if v[0]() is not None}
        if not self._step_hooked:
            self._step_hooked = torch_seams.before_optimizer_steps(
                lambda optimizer: self.tracker.registry.call("checking the gradients an optimizer steps with",
                                                             self._before_step, optimizer))
        known = self._leaves_seen.get(id(t))
        if known is not None and known.tensor() is t and known.start is not None:
            start = known.start  # a second from_torch of the leaf before PyTorch accumulated: Warp's writes add up
        else:
            start = t.grad.detach().clone()  # on the tensor's device: no host copy, no synchronisation
        self._leaves_seen[id(t)] = Leaf(weakref.ref(t), start, arr, None)
        if len(self._leaves_seen) > MAX_KEPT:
            self._leaves_seen = {k: v for k, v in self._leaves_seen.items() if v.tensor() is not None}
            self._hooked = {k: v for k, v in self._hooked.items() if v() is not None}
        if self._hooked.get(id(t)) is None or self._hooked[id(t)]() is not t:
            # Before PyTorch accumulates the Function's returned gradient into the leaf, and after.
            t.register_hook(lambda incoming, ref=weakref.ref(t): self._attempt(self._incoming, ref(), incoming))
            register = getattr(t, "register_post_accumulate_grad_hook", None)  # PyTorch 2.1+
            if register is not None:
                register(lambda leaf: self._attempt(self._accumulated, leaf))
            self._hooked[id(t)] = weakref.ref(t)

    def _attempt(self, step, *args) -> None:
        # Called by PyTorch inside its backward: a failure is a TW910, never the program's error.
        self.tracker.registry.call("comparing a PyTorch leaf's gradient with Warp's write", step, *args)

    def _incoming(self, t, incoming) -> None:
        leaf = self._leaves_seen.get(id(t))
        if t is None or incoming is None or leaf is None or leaf.tensor() is not t or leaf.start is None \
                or t.grad is None:
            return
        # What the leaf's .grad gained since from_torch wrapped it (Warp's backward writing in place), and the
        # gradient PyTorch is about to add (the Function's return, summed over its uses).
        written = (t.grad.detach() - leaf.start).double()
        self._leaves_seen[id(t)] = leaf._replace(start=None, pending=(leaf.start.double(), written,
                                                                      incoming.detach().double().clone()))

    def _accumulated(self, t) -> None:
        leaf = self._leaves_seen.pop(id(t), None)
        if leaf is None or leaf.tensor() is not t or leaf.pending is None or t.grad is None:
            return
        start, written, returned = leaf.pending
        scale = float(written.abs().max())
        if scale == 0.0 or float(returned.abs().max()) <= 1e-6 * scale:
            return  # nothing written in place, or nothing returned: the leaf gets its gradient once
        gained = t.grad.detach().double() - start
        ratio = float((gained * written).sum() / (written * written).sum())
        self._report_double(leaf.array, ratio, Site.here())

    def _report_double(self, array, ratio: float, torch_site: Site) -> None:
        registry = self.tracker.registry
        here = rel.alloc_site(array)
        if here is None:
            return
        key = ("TW211", here.key())
        if registry.bump(key):
            return

        def build():
            loc = here.location(("from_torch",))
            tensor = _first_argument(here) or "the tensor"
            message = (
                "`wp.from_torch(%s, ...)` with a gradient wraps the PyTorch leaf's own `.grad`: Warp's adjoint "
                "(a tape's backward() or an adjoint launch) added dL/d%s into it in place, and PyTorch then added the gradient the autograd.Function returned "
                "on top, so the leaf receives its gradient twice (measured: its `.grad` grew by %.3g times what "
                "Warp wrote). Give Warp a gradient array of its own (`wp.from_torch(%s, grad=torch.zeros_like(%s))` "
                "or `wp.from_torch(%s.detach(), requires_grad=True)`) and return it, or return None for this input."
                % (tensor, tensor, ratio, tensor, tensor, tensor))
            related = []
            accum = torch_site.location(("backward", "grad"))
            if accum is not None:
                related.append(Related(accum, "PyTorch added the returned gradient here", "accumulated"))
            related.extend(r for r in registry.attempt("listing the callers", lambda: rel.caller_chain(here), [])
                           if r.location != loc)
            return Finding(code="TW211", message=message, location=loc or accum, severity=codes.severity("TW211"),
                           related=related, data={"ratio": ratio})

        registry.report(key, build, arrays=[array])


def _tensor(arr) -> Optional[Any]:
    """The PyTorch tensor an array made by ``wp.from_torch`` shares its memory with."""
    t = getattr(arr, "_tensor", None)
    return t if t is not None and hasattr(t, "data_ptr") else None


def _key(arr) -> Optional[tuple]:
    ptr = getattr(arr, "ptr", None)
    return (str(arr.device), int(ptr)) if ptr else None


def _seeds(state, grads) -> list:
    """``(seed, adopter)``: the torch-backed gradient arrays a backward of this tape starts from, its outputs'
    ``.grad``, and a ``grads={out: g}`` entry Warp takes as ``out.grad`` itself because ``out`` has none
    (``adopter``: that ``out``; an output with a gradient array of its own gets a copy)."""
    seen, out = set(), []
    written = [a.array for r in state.launches for a in r.accesses if a.write]
    candidates = [(getattr(a, "grad", None), None) for a in written]
    for a, g in (grads or {}).items():
        candidates.append((g, a) if getattr(a, "grad", None) is None else (a.grad, None))
    for g, adopter in candidates:
        if g is not None and id(g) not in seen and _tensor(g) is not None:
            seen.add(id(g))
            out.append((g, adopter))
    return out


def _adopted(registry, seed, cleared: Cleared, site: Site, adopter, seed_site: Site) -> Optional[Finding]:
    """TW210 on the allocation of an output made without a gradient array, whose seed ``tape.backward(grads=
    {out: wp.from_torch(...)})`` therefore adopted (Warp copies into a gradient array the output has)."""
    alloc = rel.alloc_site(adopter)
    loc = alloc.location() if alloc is not None else None
    if loc is None:
        return None
    name = registry.attempt("naming an output", lambda: _grads_key(site)) or "the output"
    back = site.location((".backward", "backward"))
    how = "`tape.zero()` zeroed it" if cleared.how == "zero" else "the previous backward() cleared it after reading it"
    message = (
        "%s is allocated here without a gradient array, so `tape.backward(grads={%s: ...})` makes the PyTorch "
        "tensor it is given that gradient array itself (no copy), and %s: the tensor belongs to the caller, who "
        "passed it again, so this backward() is seeded with zeros and adds nothing to the gradients it returns "
        "(measured: the seed is all zeros; it held a seed before Warp cleared it). Allocate it with "
        "requires_grad=True: Warp then copies the seed into a gradient array of its own."
        % ("`%s`" % name if name != "the output" else "The output", name, how))
    related = []
    if back is not None:
        related.append(Related(back, "this backward() adopts the tensor as the gradient, and is seeded with zeros",
                               "backward"))
    given = seed_site.location(("from_torch",))
    if given is not None and (back is None or given.line != back.line):
        related.append(Related(given, "the caller's tensor, handed to Warp without a copy", "seed"))
    by = cleared.by.location(("zero",) if cleared.how == "zero" else (".backward", "backward"))
    if by is not None and by != back:
        related.append(Related(by, "Warp cleared the caller's tensor here", "cleared"))
    return Finding(code="TW210", message=message, location=loc, severity=codes.severity("TW210"), related=related,
                   data={"cleared_by": cleared.how, "adopted": True})


def _grads_key(site: Site) -> Optional[str]:
    """The first key of the ``grads={...}`` dict at the backward call, as written."""
    call = call_expressions.call_at(site.primary, ("backward",))
    grads = call_expressions.positional_arg(call, 1, "grads") if call is not None else None
    if isinstance(grads, ast.Dict) and grads.keys and grads.keys[0] is not None:
        return ast.unparse(grads.keys[0])
    return None


def _reads_name(site: Site, name: str) -> bool:
    """Whether the function making the call at ``site`` reads ``name`` anywhere in its body."""
    found = source_patterns.function_def(site.primary) if site.primary is not None else None
    if found is None:
        return True  # cannot tell: assume it does
    fn = found[1]
    return any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
               for stmt in fn.body for n in ast.walk(stmt))


def _shared_dims(arr) -> list:
    """The dimensions along which the array's elements share memory (stride 0, more than one element)."""
    return [d for d, (n, stride) in enumerate(zip(arr.shape, arr.strides)) if stride == 0 and n > 1]


def _wraps_leaf_grad(arr, t) -> bool:
    """``arr``'s gradient array is the memory of the leaf tensor ``t``'s ``.grad``."""
    grad, tgrad = getattr(arr, "grad", None), getattr(t, "grad", None)
    if grad is None or tgrad is None or not getattr(t, "is_leaf", False) or not getattr(t, "requires_grad", False):
        return False
    return bool(grad.ptr) and int(tgrad.data_ptr()) == int(grad.ptr)


def _first_argument(site: Site) -> Optional[str]:
    """The first argument of the ``wp.from_torch`` call at ``site``, as written."""
    call = call_expressions.call_at(site.primary, ("from_torch",))
    if call is None or not call.args:
        return None
    return ast.unparse(call.args[0])
