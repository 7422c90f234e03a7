"""Non-finite gradients after ``tape.backward()``: whose fault, and where.

After each backward a cheap check reads the tape's gradient arrays (one
host read each, bounded).  On NaN/Inf two very different situations are
told apart:

- **The forward pass already diverged** (TW407): a forward launch wrote
  NaN/Inf from finite inputs.  The gradient is not at fault (a step size or
  learning rate too large, an unstable parameter); reported at that launch
  as information, never as a gradient bug.
- **The backward pass produced them from finite forward values** (TW403):
  the backward pass is replayed once with every adjoint launch checked, and
  the first launch (in backward order) whose adjoint turned a finite
  gradient non-finite is the origin; ``singular_ops`` then looks inside its
  kernel for the operation whose derivative is singular at the values seen.

Nothing here may change what the program computes: the replay starts from
the gradients the backward pass started from and, when done, puts back bit
for bit the gradients the user's own backward pass left.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from ... import codes
from ...model import Finding, Related
from ..core import related as rel, warp_seams
from .adjoint_disabled import arg_name, launch_location, read_positions
from ..core.sites import Site, def_location

MAX_CHECK_ELEMENTS = 1 << 26  # per backward; arrays past it are not checked
MAX_SNAPSHOT_ELEMENTS = 1 << 26  # seed snapshot of an argument-less backward()
MAX_HUNTS = 8  # replays per run (each tape structure is replayed once)


def numpy():
    import numpy as np  # noqa: PLC0415 (most runs never need it)

    return np


class Origin:
    """Where the replay first saw a gradient turn non-finite."""

    __slots__ = ("kind", "index", "kernel", "positions", "kinds", "func", "fields")

    def __init__(self, kind, arrays, index=None, kernel=None, positions=(), func=None):
        self.kind = kind  # "launch", "func" (record_func), "seed"
        self.index = index  # position in tape.launches
        self.kernel = kernel
        self.positions = list(positions)  # kernel argument positions whose adjoint went non-finite
        self.kinds = kinds_of(arrays)  # "NaN", "Inf" or "NaN and Inf", as they were when seen
        self.func = func
        self.fields: Dict[int, List[str]] = {}  # position -> the struct fields (``.x``) whose gradient went


class NonfiniteCheck:
    def __init__(self, wp, tracker, checks):
        self.wp = wp
        self.tracker = tracker
        self.checks = checks  # the orchestrator: quiet(), budget, real launch
        self._hunted: Dict[tuple, Optional[tuple]] = {}  # tape signature -> finding key
        self._hunts = 0
        self._diverged: Dict[tuple, tuple] = {}
        self._backward_count: Dict[Any, int] = {}

    # ------------------------------------------------------------- entry
    def after_backward(self, tape, args, kwargs, orig_backward, pending: dict, signature: tuple) -> None:
        site = pending.get("site") or Site.here()
        count = self._backward_count[site.key()] = self._backward_count.get(site.key(), 0) + 1
        grads = grad_arrays(self.wp, tape)
        bad = first_nonfinite(grads)
        if bad is None:
            return
        registry = self.tracker.registry
        diverged = self._forward_origin(tape, args, kwargs)
        if diverged is not None:
            self._report_divergence(tape, diverged, site, count)
            return
        if signature in self._hunted:
            key = self._hunted[signature]
            if key is not None:
                registry.bump(key)
            return
        if self._hunts >= MAX_HUNTS:
            return
        self._hunts += 1
        origin, why = self._hunt(tape, args, kwargs, orig_backward, grads, pending)
        self._hunted[signature] = self._report(tape, origin, why, bad, site)

    # ------------------------------------------------- forward divergence
    def _forward_origin(self, tape, args, kwargs) -> Optional[tuple]:
        """(entry, record, names, index, kind) of where the forward values first went non-finite.

        ``kind`` is ``"input"`` when a launch read NaN/Inf that no launch on the
        tape wrote (data or a parameter), ``"output"`` when a launch wrote them
        from finite inputs.
        """
        wp = self.wp
        records = self.checks.records(tape)
        finite: Dict[int, bool] = {}

        def ok(a) -> bool:
            if id(a) not in finite:
                finite[id(a)] = nonfinite(a) is None
            return finite[id(a)]

        written: set = set()
        fallback = None
        for item in warp_seams.tape_launches(tape):
            entry, record = item.launch, records.get(item.index)
            fwd = entry.args
            writes = record.writes if record is not None else range(len(entry.inputs), len(fwd))
            reads = read_positions(entry, record)
            bad_out = [p for p in writes if p < len(fwd) and isinstance(fwd[p], wp.array) and not ok(fwd[p])]
            bad_in = [p for p in reads if p < len(fwd) and isinstance(fwd[p], wp.array) and p not in bad_out
                      and not ok(fwd[p])]
            # An input no launch on the tape wrote: NaN/Inf came in from outside (data, a parameter).
            leaves = [p for p in bad_in if id(fwd[p]) not in written]
            for p in writes:
                if p < len(fwd):
                    written.add(id(fwd[p]))
            if leaves:
                return entry, record, [arg_name(entry, record, p) for p in leaves], item.index, "input"
            if bad_out and not bad_in:
                return entry, record, [arg_name(entry, record, p) for p in bad_out], item.index, "output"
            if bad_out and fallback is None:
                fallback = (entry, record, [arg_name(entry, record, p) for p in bad_out], item.index, "output")
        if fallback is not None:
            return fallback
        loss = loss_arg(args, kwargs)
        if isinstance(loss, wp.array) and nonfinite(loss) is not None:
            return None, None, ["the loss"], None, "output"
        return None

    def _report_divergence(self, tape, found: tuple, backward_site: Site, iteration: int) -> None:
        entry, record, names, index, kind = found
        registry = self.tracker.registry
        loc = launch_location(entry, record) if entry is not None else backward_site.location((".backward", "backward"))
        if entry is not None and kind == "output":
            from .singular_ops import locate  # noqa: PLC0415

            # NaN/Inf born in the forward pass from finite inputs at an operation measured out of its domain
            # (sqrt or log of a negative value, pow of a negative base): that statement is the bug.
            statement = registry.attempt("finding the operation that made the forward values non-finite",
                                         lambda: locate(self.wp, entry.kernel, entry, guess=False))
            if statement is not None:
                self._report_forward_singular(entry, record, names, statement, loc, backward_site, iteration)
                return
        key = ("TW407", loc.path if loc else None, loc.line if loc else None)
        if registry.bump(key):
            return

        def build():
            launches = list(warp_seams.tape_launches(tape))
            if entry is not None and kind == "input":
                where = "%s already hold%s NaN/Inf when `%s` reads %s: the non-finite values come from outside " \
                        "the tape (the data, or a parameter an earlier update made non-finite)" % (
                            ", ".join("`%s`" % n for n in names), "s" if len(names) == 1 else "",
                            warp_seams.kernel_name(entry.kernel), "it" if len(names) == 1 else "them")
            elif entry is not None:
                kernel_name = warp_seams.kernel_name(entry.kernel)
                same_site = [it.index for it in launches
                             if it.launch.kernel is entry.kernel and
                             launch_location(it.launch, self.checks.records(tape).get(it.index)) == loc]
                step = same_site.index(index) + 1 if index in same_site else None
                where = "`%s` is the first forward launch whose output %s holds NaN/Inf" % (
                    kernel_name, ", ".join("`%s`" % n for n in names))
                if step is not None and len(same_site) > 1:
                    where += " (step %d of the %d launches from this line on the tape)" % (step, len(same_site))
            else:
                where = "The loss passed to backward() is NaN/Inf"
            message = ("The forward pass diverged before any gradient was computed: %s, in iteration %d (the %s "
                       "backward() from this line). The gradients are non-finite because the forward values are. What "
                       "drove the parameters there was not checked here: a step size, time step or learning rate too "
                       "large, a parameter out of its stable range, or a gradient too large (a seed that does not "
                       "match the loss the program reports: TW204) can each do this. Compare the gradient with finite "
                       "differences (`tapewatch harness`)." % (where, iteration, _ordinal(iteration)))
            related: List[Related] = []
            back = backward_site.location((".backward", "backward"))
            if back is not None and back != loc:
                related.append(Related(back, "tape.backward() in iteration %d" % iteration, "backward"))
            if entry is not None:
                related.extend(rel.kernel_def(entry.kernel, "kernel `%s`" % warp_seams.kernel_name(entry.kernel)))
                if record is not None:
                    related.extend(rel.caller_chain(record.site))
            return Finding(code="TW407", message=message, location=loc, severity=codes.severity("TW407"),
                           related=related, data={"iteration": iteration, "arrays": names, "kind": kind,
                                                  "kernel": warp_seams.kernel_name(entry.kernel) if entry else None,
                                                  "launch": record.index if record is not None else None})

        registry.report(key, build, launches=[record.index if record is not None else None])

    def _report_forward_singular(self, entry, record, names, statement, launch_loc, backward_site: Site,
                                 iteration: int) -> None:
        registry = self.tracker.registry
        key = ("TW403", "forward", _loc_key(statement.location))
        if registry.bump(key):
            return
        kname = warp_seams.kernel_name(entry.kernel)
        message = ("The forward pass first went non-finite in `%s`, from finite inputs: its output %s holds NaN/Inf "
                   "(iteration %d). %s. The loss may still be finite (the NaN/Inf stays in cells it does not "
                   "read yet), but every gradient through them is not. Keep the operation's argument in its "
                   "domain (e.g. `wp.max(x, eps)`); if the values left their range because the step is "
                   "unstable, reduce the step."
                   % (kname, ", ".join("`%s`" % n for n in names), iteration, statement.reason))
        related = list(statement.related)
        if launch_loc is not None:
            related.append(Related(launch_loc, "launch of `%s` whose forward output went non-finite" % kname,
                                   "launch"))
        back = backward_site.location((".backward", "backward"))
        if back is not None:
            related.append(Related(back, "tape.backward() in iteration %d" % iteration, "backward"))
        if record is not None:
            related.extend(rel.caller_chain(record.site))
        registry.report(key, Finding(
            code="TW403", message=message, location=statement.location, severity=codes.severity("TW403"),
            related=related, data={"origin": "forward", "kernel": kname, "arrays": names, "operation": statement.op,
                                   "iteration": iteration,
                                   "launch": record.index if record is not None else None}),
            launches=[record.index if record is not None else None])

    # ------------------------------------------------------------ the hunt
    def seed_snapshot(self, tape, args, kwargs) -> Optional[dict]:
        """``tape.backward()`` without ``loss``/``grads`` is seeded by the user beforehand:
        the replay needs that seed back.  Device copies, bounded in size."""
        wp = self.wp
        arrays: Dict[int, Any] = {}
        for item in warp_seams.tape_launches(tape):
            for a in item.launch.args:
                g = getattr(a, "grad", None) if isinstance(a, wp.array) else None
                if isinstance(g, wp.array):
                    arrays[id(g)] = g
        for g in grad_arrays(wp, tape):
            arrays[id(g)] = g
        grads = grads_arg(args, kwargs) or {}
        for g in grads.values():
            if isinstance(g, wp.array):
                arrays[id(g)] = g
        if sum(g.size for g in arrays.values()) > MAX_SNAPSHOT_ELEMENTS:
            return None
        with self.checks.quiet():
            return {key: (g, wp.clone(g)) for key, g in arrays.items()}

    def _hunt(self, tape, args, kwargs, orig_backward, grads, pending) -> Tuple[Optional[Origin], str]:
        """Replay the backward pass with every adjoint launch checked; restore the gradients."""
        wp = self.wp
        snapshot = pending.get("snapshot")
        if "snapshot" in pending and snapshot is None:
            return None, "too-large"  # seeded outside backward() and too large to copy
        with self.checks.quiet(orig_backward):
            saved = [(g, wp.clone(g)) for g in grads]
            try:
                for g in grads:
                    if snapshot is not None and id(g) in snapshot:
                        g.assign(snapshot[id(g)][1])
                    else:
                        g.zero_()
                origin = self._replay(tape, args, kwargs, orig_backward)
            finally:
                for g, copy in saved:
                    g.assign(copy)
        return origin, "" if origin is not None else "not-reproduced"

    def _replay(self, tape, args, kwargs, orig_backward) -> Optional[Origin]:
        wp = self.wp
        items = warp_seams.tape_items(tape)
        pending = [it for it in reversed(items) if it.launch is not None]
        cursor = [0]
        finite: Dict[int, bool] = {}  # id(grad) -> finite when last seen
        found: List[Origin] = []
        real_launch = self.checks.real_launch

        def seen(arrays) -> Optional[Any]:
            """Record the state of arrays not seen yet; the first already non-finite one."""
            first = None
            for a in arrays:
                if id(a) not in finite:
                    good = nonfinite(a) is None
                    finite[id(a)] = good
                    if not good and first is None:
                        first = a
            return first

        def turned(arrays) -> List[int]:
            out = []
            for pos, a in enumerate(arrays):
                if a is not None and finite.get(id(a)) and nonfinite(a) is not None:
                    finite[id(a)] = False
                    out.append(pos)
            return out

        def match(kernel, inputs) -> Optional[int]:
            for k in range(cursor[0], len(pending)):
                it = pending[k]
                if it.launch.kernel is kernel and it.launch.inputs is inputs:
                    cursor[0] = k + 1
                    return it.index
            return None

        def parts(g) -> list:
            """``[(field path, gradient array)]`` of one adjoint argument: itself, or a struct's arrays."""
            if isinstance(g, wp.array):
                return [("", g)]
            if g is not None and warp_seams.is_struct_instance(wp, g):
                return warp_seams.struct_arrays(wp, g, "")
            return []

        def launch(*a, **kw):
            if found or not kw.get("adjoint", False):
                return real_launch(*a, **kw)
            kernel = kw.get("kernel", a[0] if a else None)
            index = match(kernel, kw.get("inputs"))
            adj = [parts(g) for g in list(kw.get("adj_inputs") or []) + list(kw.get("adj_outputs") or [])]
            seed = seen([g for fields in adj for _, g in fields])
            if seed is not None:
                found.append(Origin("seed", [seed]))
                return real_launch(*a, **kw)
            result = real_launch(*a, **kw)
            went = [(pos, fields[k]) for pos, fields in enumerate(adj) for k in turned([g for _, g in fields])]
            if went:
                origin = Origin("launch", [g for _, (_, g) in went], index, kernel, sorted({p for p, _ in went}))
                origin.fields = {}
                for pos, (path, _) in went:
                    origin.fields.setdefault(pos, []).append(path)
                found.append(origin)
            return result

        def wrap_func(func, index):
            def run():
                if found:
                    return func()
                every = grad_arrays(wp, tape)
                seed = seen(every)
                if seed is not None:
                    found.append(Origin("seed", [seed]))
                    return func()
                result = func()
                every = grad_arrays(wp, tape)
                went = turned(every)
                if went:
                    found.append(Origin("func", [every[p] for p in went], index, func=func))
                return result
            return run

        funcs = [it for it in items if it.func is not None]
        for it in funcs:
            warp_seams.replace_tape_func(tape, it.index, wrap_func(it.func, it.index))
        had_launch = wp.launch
        wp.launch = launch
        try:
            orig_backward(tape, *args, **kwargs)
        finally:
            wp.launch = had_launch
            for it in funcs:
                warp_seams.replace_tape_func(tape, it.index, it.func)
        return found[0] if found else None

    # -------------------------------------------------------------- report
    def _report(self, tape, origin: Optional[Origin], why: str, bad, backward_site: Site):
        from .singular_ops import locate  # noqa: PLC0415

        wp = self.wp
        registry = self.tracker.registry
        records = self.checks.records(tape)
        backward_loc = backward_site.location(("backward",))
        kinds = kinds_of([bad]) if origin is None else origin.kinds
        related: List[Related] = []
        data: Dict[str, Any] = {"origin": origin.kind if origin is not None else "unlocalized", "nonfinite": kinds}
        if origin is not None and origin.kind == "launch":
            items = {it.index: it.launch for it in warp_seams.tape_launches(tape)}
            entry = items.get(origin.index) if origin.index is not None else None
            record = records.get(origin.index) if origin.index is not None else None
            kernel = origin.kernel
            launch_loc = launch_location(entry, record) if entry is not None else None
            fwd = entry.args if entry is not None else []
            params = warp_seams.kernel_params(kernel)
            names, labels, fwd_arrays = [], [], []
            for pos in origin.positions:
                label = params[pos].label if pos < len(params) else "arg%d" % pos
                name = arg_name(entry, record, pos) if entry is not None else label
                for path in origin.fields.get(pos) or [""]:  # a struct: each field whose gradient went
                    names.append(name + path)
                    labels.append(label + path)
                    fwd_arrays.append(fwd[pos] if pos < len(fwd) and not path else None)
            grads_text = ", ".join("`%s.grad` (argument `%s`)" % (n, lb) if n != lb else "`%s.grad`" % n
                                   for n, lb in zip(names, labels))
            statement = registry.attempt("finding the singular operation",
                                         lambda: locate(wp, kernel, entry)) if entry is not None else None
            kname = warp_seams.kernel_name(kernel)
            if statement is not None:
                loc = statement.location
                cause = "%s." % statement.reason
            else:
                loc = launch_loc or def_location(getattr(kernel, "func", None))
                cause = ("The forward values it reads are finite, so its adjoint itself overflows or divides by "
                         "zero: `wp.where`/`wp.select` differentiate both operands (a guarded `exp` still gives "
                         "inf * 0 = NaN), and `sqrt`, `length`, `normalize` or a division have infinite "
                         "derivatives at zero.")
            message = (
                "The backward pass of `%s` is the first to produce %s gradients: %s became non-finite. %s Every "
                "gradient upstream of this launch inherits the %s."
                % (kname, kinds, grads_text, cause, kinds)
            )
            if statement is not None:
                related.extend(statement.related)
            if launch_loc is not None and launch_loc != loc:
                related.append(Related(launch_loc, "launch of `%s` whose adjoint produced %s" % (kname, kinds),
                                       "launch"))
            related.extend(rel.kernel_def(kernel, "kernel `%s` whose adjoint produced %s" % (kname, kinds)))
            for name, arr in zip(names, fwd_arrays):
                if arr is not None:
                    related.extend(registry.attempt("finding the allocation", lambda: rel.allocation(arr, name), []))
            if record is not None:
                related.extend(rel.caller_chain(record.site))
            data.update({"kernel": kname, "arrays": names, "arguments": labels,
                         "launch": record.index if record is not None else None})
            if statement is not None:
                data["operation"] = statement.op
            key: tuple = ("TW403", "launch", _loc_key(loc), kname)
        elif origin is not None and origin.kind == "func":
            loc = def_location(origin.func) or backward_loc
            name = getattr(origin.func, "__qualname__", getattr(origin.func, "__name__", "function"))
            message = ("The function `%s` recorded with tape.record_func() is the first step of the backward pass "
                       "to produce %s gradients." % (name, kinds))
            key = ("TW403", "func", _loc_key(loc), name)
            data["function"] = name
        elif origin is not None:  # seed
            loc = backward_loc
            message = ("A gradient is already %s when tape.backward() starts: the incoming gradient passed to "
                       "backward(), or gradients left by an earlier backward() that were never zeroed "
                       "(tape.zero())." % kinds)
            key = ("TW403", "seed", _loc_key(loc))
        else:
            loc = backward_loc
            why = ("the backward pass was seeded outside backward() with more data than the probe copies"
                   if why == "too-large" else "replaying the backward pass did not reproduce them")
            message = ("tape.backward() left %s values in a gradient, but the launch that produced them was not "
                       "found: %s." % (kinds, why))
            key = ("TW403", "unlocalized", _loc_key(loc))
        if backward_loc is not None and loc != backward_loc:
            related.append(Related(backward_loc, "tape.backward() that produced the %s" % kinds, "backward"))
        if loc == backward_loc:
            related.extend(rel.caller_chain(backward_site))
        if registry.bump(key):
            return key
        registry.report(key, Finding(code="TW403", message=message, location=loc, severity=codes.severity("TW403"),
                                     related=related, data=data), launches=[data.get("launch")])
        return key


# -- helpers --------------------------------------------------------------
def loss_arg(args, kwargs):
    return args[0] if args else kwargs.get("loss")


def grads_arg(args, kwargs):
    return args[1] if len(args) > 1 else kwargs.get("grads")


def reseedable(args, kwargs) -> bool:
    """Whether calling backward() again with the same arguments seeds it the same way."""
    grads = grads_arg(args, kwargs)
    if grads:
        for a, g in grads.items():
            if getattr(a, "grad", None) is None or a.grad is g:
                return False  # backward() adopts g as the gradient: zeroing would erase the seed
        return True
    return loss_arg(args, kwargs) is not None


def grad_arrays(wp, tape) -> list:
    """The distinct gradient arrays of a tape (struct members are not checked)."""
    seen, out = set(), []
    for g in warp_seams.tape_gradients(tape):
        if isinstance(g, wp.array) and id(g) not in seen:
            seen.add(id(g))
            out.append(g)
    return out


def nonfinite(a) -> Optional[Tuple[int, int]]:
    """(NaN count, Inf count) when ``a`` holds non-finite values, else None."""
    np = numpy()
    x = warp_seams.readable_values(a)
    if x is None or x.dtype.kind not in "fc" or x.size == 0:
        return None
    with np.errstate(all="ignore"):
        if np.isfinite(x.sum()):  # NaN and Inf always survive a sum; overflow is rechecked below
            return None
        finite = np.isfinite(x)
        if finite.all():
            return None
        nan = int(np.isnan(x).sum())
        return nan, int(x.size - int(finite.sum()) - nan)


def first_nonfinite(grads) -> Optional[Any]:
    budget = MAX_CHECK_ELEMENTS
    for g in grads:
        budget -= g.size
        if budget < 0:
            return None
        if nonfinite(g) is not None:
            return g
    return None


def kinds_of(arrays) -> str:
    nan = inf = 0
    for a in arrays:
        hit = nonfinite(a)
        if hit is not None:
            nan += hit[0]
            inf += hit[1]
    if nan and inf:
        return "NaN and Inf"
    return "Inf" if inf and not nan else "NaN"


def _loc_key(loc):
    return (loc.path, loc.line) if loc is not None else None


def _ordinal(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return "%dth" % n
    return "%d%s" % (n, {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th"))
