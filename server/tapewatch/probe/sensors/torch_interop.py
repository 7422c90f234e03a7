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

Both are reported at the ``wp.from_torch`` call, the line that shares the
memory.  Stdlib only; PyTorch is reached through the tensors the program
made (``_tensor``, kept by ``wp.from_torch`` on the array it returns).
"""

from __future__ import annotations

import ast
import weakref
from typing import Any, Dict, List, NamedTuple, Optional

from ... import codes
from ...model import Finding, Related
from ..core import call_expressions, facts, related as rel, warp_seams
from ..core.sites import Site
from ..core.sensor import PerTape, Sensor


class Cleared(NamedTuple):
    tensor: Any  # a weak reference to the PyTorch tensor whose memory Warp cleared
    by: Site  # the backward() or tape.zero() that cleared it
    how: str  # "backward" or "zero"


MAX_KEPT = 256  # cleared seeds and wrapped leaves remembered at once (a loop may make fresh ones each step)


class Leaf(NamedTuple):
    """A PyTorch leaf whose ``.grad`` a Warp array wraps (TW211), until PyTorch next accumulates into it."""

    tensor: Any  # a weak reference to it
    start: Any  # a copy of its ``.grad`` when ``from_torch`` wrapped it (a tensor on its device), until then
    array: Any  # the Warp array over it (its allocation is the ``from_torch`` call)
    pending: Optional[tuple]  # (start, written in place, incoming): taken as PyTorch is about to accumulate


class TorchInterop(Sensor):
    CODES = ("TW210", "TW211")

    def __init__(self, tracker):
        self.tracker = tracker
        self._cleared: Dict[tuple, Cleared] = {}  # (device, address) of a seed's memory -> who cleared it
        self._armed: List[tuple] = []  # (seed array, its memory's key) of the running backward, held a seed
        self._kept = PerTape(list)  # per tape: the seeds its last backward left holding values (zero() clears)
        # By id, each with a weak reference to its tensor (a tensor's ``==`` is elementwise: no dict key).
        self._leaves_seen: Dict[int, Leaf] = {}
        self._hooked: Dict[int, Any] = {}  # id(tensor) -> a weak reference to it, while its hook is registered
        self._site: Optional[Site] = None

    # -- TW210: seeds --------------------------------------------------------------------------------------
    def before_backward(self, tape, state, site: Site, args=(), kwargs=None) -> None:
        self._armed, self._site = [], site
        if self.tracker.capturing:
            return
        kwargs = kwargs or {}
        grads = args[1] if len(args) > 1 else kwargs.get("grads")
        for seed in _seeds(state, grads):
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
                self._report_cleared(seed, cleared, site)

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

    def on_tape_zero(self, tape) -> None:
        state = facts.tape_state(tape)
        kept = self._kept.take(state) if state is not None else None
        if not kept:
            return
        by = Site.here()
        zeroed = {id(g) for g in warp_seams.tape_gradients(tape)}
        for seed, key in kept:
            t = _tensor(seed)
            if t is not None and id(seed) in zeroed:
                self._remember(key, Cleared(weakref.ref(t), by, "zero"))

    def _remember(self, key, cleared: Cleared) -> None:
        self._cleared.pop(key, None)
        self._cleared[key] = cleared
        while len(self._cleared) > MAX_KEPT:
            self._cleared.pop(next(iter(self._cleared)))

    def _report_cleared(self, seed, cleared: Cleared, site: Site) -> None:
        registry = self.tracker.registry
        here = rel.alloc_site(seed)
        if here is None:
            return
        key = ("TW210", here.key())
        if registry.bump(key):
            return

        def build():
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

    # -- TW211: a leaf's gradient ------------------------------------------------------------------------
    def on_from_torch(self, arr, t) -> None:
        if not _wraps_leaf_grad(arr, t):
            return
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
    """The torch-backed gradient arrays a backward of this tape starts from: its outputs' ``.grad``, and a
    ``grads={out: g}`` entry Warp takes as ``out.grad`` itself (``out`` has none; one it has is copied into)."""
    seen, out = set(), []
    written = [a.array for r in state.launches for a in r.accesses if a.write]
    candidates = [getattr(a, "grad", None) for a in written]
    for a, g in (grads or {}).items():
        candidates.append(g if getattr(a, "grad", None) is None else a.grad)
    for g in candidates:
        if g is not None and id(g) not in seen and _tensor(g) is not None:
            seen.add(id(g))
            out.append(g)
    return out


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
