"""Localization in a verification run: which launch makes a gradient go wrong.

Hooked around ``Tape.backward`` (see ``hooks.py``); every finding is placed
at the *forward* ``wp.launch`` line of the guilty launch, where the user
reads and edits the code (like PyTorch's anomaly mode):

- TW405 launch-without-adjoint: a taped launch of a kernel built with
  ``enable_backward=False`` (kernel option, module option or
  ``wp.config.enable_backward``) on a tape that is differentiated.
- TW403 nonfinite-gradient-origin: after ``tape.backward()``, a cheap check
  of the tape's gradient arrays (one host read per array, bounded); on
  NaN/Inf the backward pass is replayed once with every adjoint launch
  checked, and the first launch (in backward order) whose adjoint turned a
  finite gradient non-finite is the origin.
- TW404 launch-adjoint-mismatch (``--check-launches`` only): each recorded
  launch's adjoint against central finite differences of the same launch,
  on private copies of its arguments, before ``tape.backward()`` runs.

Nothing here may change what the user's program computes: the replay starts
from the gradients the backward pass started from and, when it is done, puts
back bit for bit the gradients the user's own backward pass left; the
launch check never touches the user's arrays.  While this module works, the
probe's other hooks stand aside (``busy``), the recording tape is
suspended, and Warp's own warnings of the replay are silenced (they were
already printed once by the real backward pass).

Stdlib, Warp and NumPy only; NumPy is imported when first needed.
"""

from __future__ import annotations

import contextlib
import linecache
import time
from typing import Any, Callable, Dict, List, Optional, Tuple

from .. import codes
from ..model import Finding, Location, Related
from .sites import Site, def_location
from .tracker import _caller_chain, allocation_related

# -- cost bounds ------------------------------------------------------------
# The finite check after each backward reads every gradient array once.  A
# backward pass is skipped while the checks have cost more than this base
# plus this fraction of the run's wall time so far: a long training loop is
# sampled rather than checked every iteration.
FINITE_BUDGET_S = 0.5
FINITE_BUDGET_FRACTION = 0.02
MAX_CHECK_ELEMENTS = 1 << 26  # per backward; arrays past it are not checked
MAX_SNAPSHOT_ELEMENTS = 1 << 26  # seed snapshot of an argument-less backward()
MAX_HUNTS = 8  # replays per run (each tape structure is replayed once)
# The launch check (--check-launches).
CHECK_BUDGET_S = 120.0
INSTANCES_PER_SITE = 2  # first and last launch of one call site on a tape
SAMPLES_PER_INPUT = 4  # input elements perturbed per differentiable argument
ATOL, RTOL = 1e-3, 1e-2  # Warp's gradcheck defaults
EPS = {4: 1e-3, 8: 1e-6}  # relative step by float size (float16 is not checked)

_np = None


def _numpy():
    global _np
    if _np is None:
        import numpy  # noqa: PLC0415 (lazy: most runs never need it)

        _np = numpy
    return _np


class _Origin:
    """Where the replay first saw a gradient turn non-finite."""

    __slots__ = ("kind", "index", "kernel", "positions", "kinds", "func")

    def __init__(self, kind, arrays, index=None, kernel=None, positions=(), func=None):
        self.kind = kind  # "launch", "func" (record_func), "seed"
        self.index = index  # position in tape.launches
        self.kernel = kernel
        self.positions = list(positions)  # kernel argument positions whose adjoint went non-finite
        self.kinds = _kinds(arrays)  # "NaN", "Inf" or "NaN and Inf", as they were when seen
        self.func = func


class Localizer:
    def __init__(self, wp, tracker, emit: Callable[..., None], check_launches: bool = False):
        self.wp = wp
        self.tracker = tracker
        self.emit = emit
        self.check_launches = check_launches
        self.busy = False  # our own replay/check runs: the other hooks stand aside
        self._started = time.perf_counter()
        self._finite_spent = 0.0
        self._budget_reported = False
        self._enabled: Dict[int, Tuple[Any, bool, str]] = {}  # id(kernel) -> (kernel, enabled, source)
        self._hunted: Dict[tuple, Optional[tuple]] = {}  # tape signature -> finding key
        self._hunts = 0
        self._checked: set = set()  # tape signatures whose launches were checked
        self._check_spent = 0.0
        self._check_off = False
        self._real_launch = wp._src.context.launch

    # ------------------------------------------------------------- entry points
    def before_backward(self, tape, args, kwargs) -> dict:
        """TW405 and TW404 (before the user's backward runs); seed snapshot if needed."""
        pending: dict = {"site": Site.here()}
        if self._capturing(tape):
            pending["capturing"] = True
            return pending
        disabled = self._disabled_launches(tape)
        if disabled:
            self._report_disabled(tape, disabled)
        if self.check_launches and not self._check_off:
            self._check_tape(tape)
        pending["finite"] = self._within_budget()
        if pending["finite"] and not _reseedable(args, kwargs):
            pending["snapshot"] = self._seed_snapshot(tape, args, kwargs)
        return pending

    def after_backward(self, tape, args, kwargs, orig_backward, pending: dict) -> None:
        """The finite check; on NaN/Inf, the replay that finds the origin."""
        if pending.get("capturing") or not pending.get("finite"):
            return
        started = time.perf_counter()
        try:
            grads = _grad_arrays(self.wp, tape)
            bad = _first_nonfinite(grads)
        finally:
            self._spend(time.perf_counter() - started)
        if bad is None:
            return
        signature = self._signature(tape)
        if signature in self._hunted:
            key = self._hunted[signature]
            if key is not None and key in self.tracker.findings:
                self.tracker.findings[key].count += 1
            return
        if self._hunts >= MAX_HUNTS:
            return
        self._hunts += 1
        origin, why = self._hunt(tape, args, kwargs, orig_backward, grads, pending)
        site = pending.get("site") or Site.here()
        self._hunted[signature] = self._report_nonfinite(tape, origin, why, bad, site)

    # --------------------------------------------------------------- TW405
    def backward_enabled(self, kernel) -> Tuple[bool, str]:
        """(enabled, where it is decided): "kernel", "module" or "config"."""
        hit = self._enabled.get(id(kernel))
        if hit is not None and hit[0] is kernel:
            return hit[1], hit[2]
        options = getattr(kernel, "options", None) or {}
        value = options.get("enable_backward")
        source = "kernel"
        if value is None:
            module = getattr(kernel, "module", None)
            value = (getattr(module, "options", None) or {}).get("enable_backward", True)
            source = "module"
            if value is False and getattr(self.wp.config, "enable_backward", True) is False:
                source = "config"
        enabled = value is not False
        self._enabled[id(kernel)] = (kernel, enabled, source)
        return enabled, source

    def _disabled_launches(self, tape) -> List[int]:
        out = []
        for i, entry in enumerate(tape.launches):
            if callable(entry) or not isinstance(entry, (list, tuple)):
                continue
            if not self.backward_enabled(entry[0])[0]:
                out.append(i)
        return out

    def _report_disabled(self, tape, indices: List[int]) -> None:
        records = self._records(tape)
        for i in indices:
            entry = tape.launches[i]
            kernel = entry[0]
            record = records.get(i)
            key = ("TW405", _entry_key(entry, record), kernel.key)
            finding = self.tracker.findings.get(key)
            if finding is not None:
                finding.count += 1
                continue
            loc = _entry_location(entry, record)
            _, source = self.backward_enabled(kernel)
            upstream = _upstream_names(self.wp, entry, record)
            where = {"kernel": "kernel option", "module": "module option", "config": "wp.config.enable_backward"}[source]
            message = (
                "`%s` is compiled with enable_backward=False (%s), but this launch is on a tape that is "
                "differentiated: tape.backward() silently skips it, so everything upstream of it%s gets no "
                "gradient through it." % (kernel.key, where, " (%s)" % ", ".join("`%s`" % n for n in upstream) if upstream else "")
            )
            related: List[Related] = []
            kdef = def_location(getattr(kernel, "func", None))
            if kdef is not None:
                related.append(Related(kdef, "kernel `%s`" % kernel.key, "kernel"))
            option = _option_location(kernel, source)
            if option is not None:
                related.append(Related(option, "enable_backward=False set here", "option"))
            if record is not None:
                related.extend(_caller_chain(record.site))
            self.tracker._add(key, Finding(
                code="TW405", message=message, location=loc, severity=codes.severity("TW405"), related=related,
                data={"kernel": kernel.key, "option": source, "upstream": upstream,
                      "launch": record.index if record is not None else None},
            ))

    # --------------------------------------------------------------- TW403
    def _seed_snapshot(self, tape, args, kwargs) -> Optional[dict]:
        """Copies of the gradients an argument-less backward() starts from.

        ``tape.backward()`` without ``loss``/``grads`` (or with ``grads`` that
        are the arrays' own ``.grad``) is seeded by the user beforehand; the
        replay needs that seed back.  Device copies, bounded in size.
        """
        started = time.perf_counter()
        try:
            wp = self.wp
            arrays: Dict[int, Any] = {}
            for entry in tape.launches:
                if callable(entry) or not isinstance(entry, (list, tuple)):
                    continue
                for a in list(entry[3]) + list(entry[4]):
                    g = getattr(a, "grad", None) if isinstance(a, wp.array) else None
                    if isinstance(g, wp.array):
                        arrays[id(g)] = g
            for g in _grad_arrays(wp, tape):
                arrays[id(g)] = g
            grads = _grads_arg(args, kwargs) or {}
            for g in grads.values():
                if isinstance(g, wp.array):
                    arrays[id(g)] = g
            if sum(g.size for g in arrays.values()) > MAX_SNAPSHOT_ELEMENTS:
                return None
            with self._quiet():
                return {key: (g, wp.clone(g)) for key, g in arrays.items()}
        finally:
            self._spend(time.perf_counter() - started)

    def _hunt(self, tape, args, kwargs, orig_backward, grads, pending) -> Tuple[Optional[_Origin], str]:
        """Replay the backward pass with every adjoint launch checked; restore the gradients."""
        wp = self.wp
        snapshot = pending.get("snapshot")
        if "snapshot" in pending and snapshot is None:
            return None, "too-large"  # seeded outside backward() and too large to copy
        with self._quiet(orig_backward):
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

    def _replay(self, tape, args, kwargs, orig_backward) -> Optional[_Origin]:
        wp = self.wp
        entries = tape.launches
        pending = [i for i in range(len(entries) - 1, -1, -1) if not callable(entries[i])]
        cursor = [0]
        finite: Dict[int, bool] = {}  # id(grad) -> finite when last seen
        found: List[_Origin] = []
        real_launch = self._real_launch

        def seen(arrays) -> Optional[Any]:
            """Record the state of arrays not seen yet; the first already non-finite one."""
            first = None
            for a in arrays:
                if id(a) not in finite:
                    ok = _nonfinite(a) is None
                    finite[id(a)] = ok
                    if not ok and first is None:
                        first = a
            return first

        def turned(arrays) -> List[int]:
            out = []
            for pos, a in enumerate(arrays):
                if a is not None and finite.get(id(a)) and _nonfinite(a) is not None:
                    finite[id(a)] = False
                    out.append(pos)
            return out

        def match(kernel, inputs) -> Optional[int]:
            for k in range(cursor[0], len(pending)):
                i = pending[k]
                if entries[i][0] is kernel and entries[i][3] is inputs:
                    cursor[0] = k + 1
                    return i
            return None

        def launch(*a, **kw):
            if found or not kw.get("adjoint", False):
                return real_launch(*a, **kw)
            kernel = kw.get("kernel", a[0] if a else None)
            index = match(kernel, kw.get("inputs"))
            adj = [g if isinstance(g, wp.array) else None
                   for g in list(kw.get("adj_inputs") or []) + list(kw.get("adj_outputs") or [])]
            seed = seen([g for g in adj if g is not None])
            if seed is not None:
                found.append(_Origin("seed", [seed]))
                return real_launch(*a, **kw)
            result = real_launch(*a, **kw)
            positions = turned(adj)
            if positions:
                found.append(_Origin("launch", [adj[p] for p in positions], index, kernel, positions))
            return result

        def wrap_func(func, index):
            def run():
                if found:
                    return func()
                every = _grad_arrays(wp, tape)
                seed = seen(every)
                if seed is not None:
                    found.append(_Origin("seed", [seed]))
                    return func()
                result = func()
                every = _grad_arrays(wp, tape)
                went = turned(every)
                if went:
                    found.append(_Origin("func", [every[p] for p in went], index, func=func))
                return result
            return run

        originals = list(entries)
        for i, entry in enumerate(originals):
            if callable(entry):
                entries[i] = wrap_func(entry, i)
        had_launch = wp.launch
        wp.launch = launch
        try:
            orig_backward(tape, *args, **kwargs)
        finally:
            wp.launch = had_launch
            for i, entry in enumerate(originals):
                if callable(entry) and i < len(entries):
                    entries[i] = entry
        return found[0] if found else None

    def _report_nonfinite(self, tape, origin: Optional[_Origin], why: str, bad, backward_site: Site):
        wp = self.wp
        records = self._records(tape)
        backward_loc = backward_site.location(("backward",))
        kinds = _kinds([bad]) if origin is None else origin.kinds
        related: List[Related] = []
        data: Dict[str, Any] = {"origin": origin.kind if origin is not None else "unlocalized", "nonfinite": kinds}
        if origin is not None and origin.kind == "launch":
            entry = tape.launches[origin.index] if origin.index is not None else None
            record = records.get(origin.index) if origin.index is not None else None
            kernel = origin.kernel
            loc = _entry_location(entry, record) if entry is not None else def_location(getattr(kernel, "func", None))
            fwd = (list(entry[3]) + list(entry[4])) if entry is not None else []
            names, labels, fwd_arrays = [], [], []
            for pos in origin.positions:
                label = kernel.adj.args[pos].label if pos < len(kernel.adj.args) else "arg%d" % pos
                name = (record.arg_name(pos) if record is not None else None) or label
                names.append(name)
                labels.append(label)
                fwd_arrays.append(fwd[pos] if pos < len(fwd) else None)
            grads_text = ", ".join("`%s.grad` (argument `%s`)" % (n, l) if n != l else "`%s.grad`" % n
                                   for n, l in zip(names, labels))
            upstream = _nonfinite_forward(wp, entry, record) if entry is not None else []
            if upstream:
                cause = ("The forward values it reads are already non-finite (%s): the problem starts in the "
                         "forward pass, upstream of this launch."
                         % ", ".join("`%s`" % n for n in upstream))
            else:
                cause = ("The forward values it reads are finite, so its adjoint itself overflows or divides by "
                         "zero: `wp.where`/`wp.select` differentiate both operands (a guarded `exp` still gives "
                         "inf * 0 = NaN), and `sqrt`, `length`, `normalize` or a division have infinite "
                         "derivatives at zero.")
            message = (
                "The backward pass of `%s` (launched here) is the first to produce %s gradients: %s became "
                "non-finite. %s Every gradient upstream of this launch inherits the %s."
                % (kernel.key, kinds, grads_text, cause, kinds)
            )
            kdef = def_location(getattr(kernel, "func", None))
            if kdef is not None:
                related.append(Related(kdef, "kernel `%s` whose adjoint produced %s" % (kernel.key, kinds), "kernel"))
            for name, arr in zip(names, fwd_arrays):
                if arr is not None:
                    related.extend(allocation_related(arr, name))
            if record is not None:
                related.extend(_caller_chain(record.site))
            data.update({"kernel": kernel.key, "arrays": names, "arguments": labels, "forward_nonfinite": upstream,
                         "launch": record.index if record is not None else None})
            key = ("TW403", "launch", _loc_key(loc), kernel.key)
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
            related.extend(_caller_chain(backward_site))
        existing = self.tracker.findings.get(key)
        if existing is not None:
            existing.count += 1
            return key
        self.tracker._add(key, Finding(code="TW403", message=message, location=loc,
                                       severity=codes.severity("TW403"), related=related, data=data))
        return key

    # --------------------------------------------------------------- TW404
    def _check_tape(self, tape) -> None:
        signature = self._signature(tape)
        if signature in self._checked:
            return
        self._checked.add(signature)
        records = self._records(tape)
        by_site: Dict[tuple, List[int]] = {}
        for i, entry in enumerate(tape.launches):
            if callable(entry) or not isinstance(entry, (list, tuple)):
                continue
            if not self.backward_enabled(entry[0])[0]:
                continue  # TW405, never "passed"
            by_site.setdefault((_entry_key(entry, records.get(i)), entry[0].key), []).append(i)
        chosen = []
        for indices in by_site.values():
            picks = [indices[0]] if INSTANCES_PER_SITE == 1 or len(indices) == 1 else [indices[0], indices[-1]]
            chosen.extend(picks)
        for i in sorted(chosen):
            if self._check_off:
                return
            started = time.perf_counter()
            entry = tape.launches[i]
            record = records.get(i)
            try:
                with self._quiet():
                    result = _check_launch(self.wp, self._real_launch, entry, record)
            except Exception as exc:  # a kernel we cannot relaunch: say so, never fail the run
                result = {"status": "skipped", "reason": "%s: %s" % (type(exc).__name__, exc)}
            self._check_spent += time.perf_counter() - started
            loc = _entry_location(entry, record)
            event = dict(result, kernel=entry[0].key, path=loc.path if loc else None, line=loc.line if loc else None)
            event.pop("worst", None)
            self.emit("launch_check", **event)
            if result["status"] == "fail":
                self._report_mismatch(entry, record, loc, result)
            if self._check_spent > CHECK_BUDGET_S:
                self._check_off = True
                self.emit("launch_check_budget", seconds=self._check_spent)

    def _report_mismatch(self, entry, record, loc, result) -> None:
        kernel = entry[0]
        key = ("TW404", _loc_key(loc), kernel.key)
        finding = self.tracker.findings.get(key)
        if finding is not None:
            finding.count += 1
            return
        w = result["worst"]
        message = (
            "The adjoint of `%s` disagrees with finite differences at this launch: max abs error %.3g, max rel "
            "error %.3g (worst: d`%s`/d`%s`[%d], adjoint %.6g vs finite difference %.6g; tolerance "
            "atol=%g, rtol=%g; %d of %d sampled derivatives fail). Check the kernel's math, or the custom "
            "adjoints (@wp.func_grad) it calls."
            % (kernel.key, result["max_abs"], result["max_rel"], w["output"], w["input"], w["element"],
               w["ad"], w["fd"], ATOL, RTOL, result["failed"], result["checked"])
        )
        related: List[Related] = []
        kdef = def_location(getattr(kernel, "func", None))
        if kdef is not None:
            related.append(Related(kdef, "kernel `%s`" % kernel.key, "kernel"))
        for name, grad_loc in _custom_adjoints(self.wp, kernel):
            related.append(Related(grad_loc, "custom adjoint of `%s` called by `%s`" % (name, kernel.key),
                                   "custom-adjoint"))
        if record is not None:
            related.extend(_caller_chain(record.site))
        self.tracker._add(key, Finding(
            code="TW404", message=message, location=loc, severity=codes.severity("TW404"), related=related,
            data={"kernel": kernel.key, "max_abs_error": result["max_abs"], "max_rel_error": result["max_rel"],
                  "input": w["input"], "output": w["output"], "element": w["element"], "ad": w["ad"],
                  "fd": w["fd"], "checked": result["checked"], "failed": result["failed"],
                  "launch": record.index if record is not None else None},
        ))

    # ------------------------------------------------------------- plumbing
    @contextlib.contextmanager
    def _quiet(self, orig_backward=None):
        """Our own work: other hooks stand aside, nothing is recorded, Warp's replayed warnings are muted."""
        runtime = self.wp._src.context.runtime
        tape, runtime.tape = runtime.tape, None
        was_busy, self.busy = self.busy, True
        env = getattr(orig_backward, "__globals__", None)
        muted = env is not None and "log_warning" in env
        if muted:
            had_warning = env["log_warning"]
            env["log_warning"] = lambda *a, **k: None
        try:
            yield
        finally:
            if muted:
                env["log_warning"] = had_warning
            self.busy = was_busy
            runtime.tape = tape

    def _spend(self, seconds: float) -> None:
        self._finite_spent += seconds

    def _within_budget(self) -> bool:
        budget = FINITE_BUDGET_S + FINITE_BUDGET_FRACTION * (time.perf_counter() - self._started)
        if self._finite_spent <= budget:
            return True
        if not self._budget_reported:
            self._budget_reported = True
            self.emit("finite_check_budget", seconds=self._finite_spent)
        return False

    def _capturing(self, tape) -> bool:
        """A CUDA graph capture cannot be read from: the checks stand aside."""
        for entry in tape.launches:
            if not callable(entry) and isinstance(entry, (list, tuple)):
                try:
                    return bool(getattr(entry[5], "is_capturing", False))
                except Exception:
                    return False
        return False

    def _records(self, tape) -> dict:
        state = tape.__dict__.get("_tw_state")
        if state is None:
            return {}
        return {r.tape_index: r for r in state.launches}

    def _signature(self, tape) -> tuple:
        records = self._records(tape)
        out = []
        for i, entry in enumerate(tape.launches):
            if callable(entry) or not isinstance(entry, (list, tuple)):
                out.append(("func", getattr(entry, "__qualname__", "")))
                continue
            out.append((entry[0].key, _entry_key(entry, records.get(i))))
        return tuple(out)


# ----------------------------------------------------------------- helpers
def _loss_arg(args, kwargs):
    return args[0] if args else kwargs.get("loss")


def _grads_arg(args, kwargs):
    return args[1] if len(args) > 1 else kwargs.get("grads")


def _reseedable(args, kwargs) -> bool:
    """Whether calling backward() again with the same arguments seeds it the same way."""
    grads = _grads_arg(args, kwargs)
    if grads:
        for a, g in grads.items():
            if getattr(a, "grad", None) is None or a.grad is g:
                return False  # backward() adopts g as the gradient: zeroing would erase the seed
        return True
    return _loss_arg(args, kwargs) is not None


def _grad_arrays(wp, tape) -> list:
    """The distinct gradient arrays of a tape (struct members are not checked)."""
    seen, out = set(), []
    for g in list(tape.gradients.values()):
        if isinstance(g, wp.array) and id(g) not in seen:
            seen.add(id(g))
            out.append(g)
    return out


def _nonfinite(a) -> Optional[Tuple[int, int]]:
    """(NaN count, Inf count) when ``a`` holds non-finite values, else None."""
    np = _numpy()
    try:
        x = a.numpy()
    except Exception:
        return None
    if x.dtype.kind not in "fc" or x.size == 0:
        return None
    with np.errstate(all="ignore"):
        if np.isfinite(x.sum()):  # NaN and Inf always survive a sum; overflow is rechecked below
            return None
        finite = np.isfinite(x)
        if finite.all():
            return None
        nan = int(np.isnan(x).sum())
        return nan, int(x.size - int(finite.sum()) - nan)


def _first_nonfinite(grads) -> Optional[Any]:
    budget = MAX_CHECK_ELEMENTS
    for g in grads:
        budget -= g.size
        if budget < 0:
            return None
        if _nonfinite(g) is not None:
            return g
    return None


def _kinds(arrays) -> str:
    nan = inf = 0
    for a in arrays:
        hit = _nonfinite(a)
        if hit is not None:
            nan += hit[0]
            inf += hit[1]
    if nan and inf:
        return "NaN and Inf"
    return "Inf" if inf and not nan else "NaN"


def _entry_location(entry, record) -> Optional[Location]:
    """The forward call site of a tape entry: the tracker's record, else Warp's own metadata."""
    if record is not None:
        loc = record.location()
        if loc is not None:
            return loc
    if entry is None or len(entry) < 8 or not isinstance(entry[7], dict):
        return None
    caller = entry[7].get("caller") or {}
    if caller.get("file") and caller.get("lineno"):
        return Location(str(caller["file"]), int(caller["lineno"]), 1)
    return None


def _entry_key(entry, record):
    """A cheap key for a launch's call site (file and line of the innermost user frame)."""
    if record is not None and record.site.snaps:
        return record.site.key()
    caller = entry[7].get("caller") if len(entry) > 7 and isinstance(entry[7], dict) else None
    return (caller.get("file"), caller.get("lineno")) if caller else None


def _loc_key(loc: Optional[Location]):
    return (loc.path, loc.line) if loc is not None else None


def _arg_name(entry, record, pos: int) -> str:
    kernel = entry[0]
    label = kernel.adj.args[pos].label if pos < len(kernel.adj.args) else "arg%d" % pos
    return (record.arg_name(pos) if record is not None else None) or label


def _read_positions(entry, record) -> List[int]:
    if record is not None:
        return list(record.reads)
    return list(range(len(entry[3])))


def _upstream_names(wp, entry, record) -> List[str]:
    """Names of the arrays a skipped launch reads that want a gradient."""
    fwd = list(entry[3]) + list(entry[4])
    out = []
    for pos in _read_positions(entry, record):
        a = fwd[pos] if pos < len(fwd) else None
        if isinstance(a, wp.array) and a.requires_grad:
            name = _arg_name(entry, record, pos)
            if name not in out:
                out.append(name)
    return out


def _nonfinite_forward(wp, entry, record) -> List[str]:
    """Names of the arrays a launch reads that hold NaN/Inf now."""
    fwd = list(entry[3]) + list(entry[4])
    out = []
    for pos in _read_positions(entry, record):
        a = fwd[pos] if pos < len(fwd) else None
        if isinstance(a, wp.array) and _nonfinite(a) is not None:
            name = _arg_name(entry, record, pos)
            if name not in out:
                out.append(name)
    return out


def _option_location(kernel, source: str) -> Optional[Location]:
    """Where enable_backward=False is written, found cheaply in the kernel's file."""
    func = getattr(kernel, "func", None)
    code = getattr(func, "__code__", None)
    if code is None:
        return None
    lines = linecache.getlines(code.co_filename, getattr(func, "__globals__", None))
    if source == "kernel":
        kdef = def_location(func)
        last = kdef.line if kdef is not None else code.co_firstlineno
        candidates = range(code.co_firstlineno - 1, min(last, len(lines)))
    else:
        candidates = range(len(lines))
    for i in candidates:
        text = lines[i]
        if "enable_backward" in text and "False" in text:
            if source == "kernel" or "set_module_options" in text or "config" in text or "module_options" in text:
                return Location(code.co_filename, i + 1, text.index("enable_backward") + 1)
    return None


def _custom_adjoints(wp, kernel) -> List[Tuple[str, Location]]:
    """``@wp.func_grad`` definitions of functions the kernel calls by name (direct calls only)."""
    func = getattr(kernel, "func", None)
    env = getattr(func, "__globals__", None) or {}
    source = getattr(kernel.adj, "source", "") or ""
    function_cls = getattr(wp._src.context, "Function", None)
    out = []
    for name, obj in list(env.items()):
        if function_cls is None or not isinstance(obj, function_cls):
            continue
        grad = getattr(obj, "custom_grad_func", None)
        if grad is None or (name + "(") not in source:
            continue
        loc = def_location(getattr(grad, "func", None))
        if loc is not None:
            out.append((name, loc))
    return out


# ------------------------------------------------------- the launch check
def _check_launch(wp, real_launch, entry, record) -> dict:
    """One launch's adjoint against central differences, on copies of its arguments.

    For each differentiable output ``q`` a random cotangent ``w_q`` is pushed
    through one adjoint launch, giving ``w_q · dq/dx`` for every element of
    every differentiable input at once; a few input elements (the largest
    adjoints and random ones) are perturbed by ``±eps·max(1, |x|)`` and the
    forward relaunched from the saved arguments, giving the same numbers by
    finite differences.  A sample fails when ``|AD - FD| > atol + rtol·|FD|``
    and a second difference with a quarter of the step agrees with the first
    (otherwise the point is not smooth enough to judge: a kink, a branch,
    rounding noise, and the sample is dropped).
    """
    np = _numpy()
    types = wp._src.types
    kernel, dim, max_blocks, inputs, outputs, device, block_dim = entry[:7]
    inputs, outputs = list(inputs), list(outputs)
    args = inputs + outputs
    for a in args:
        if types.is_struct(a):
            return {"status": "skipped", "reason": "struct argument"}
        if types.is_array(a) and not isinstance(a, wp.array):
            return {"status": "skipped", "reason": "indexed or fabric array argument"}
    reads = set(record.reads) if record is not None else set(range(len(inputs)))
    writes = set(record.writes) if record is not None else set(range(len(inputs), len(args)))

    copies: Dict[int, Any] = {}
    cargs = []
    for a in args:
        if isinstance(a, wp.array):
            c = copies.get(id(a))
            if c is None:
                c = copies[id(a)] = wp.clone(a, requires_grad=bool(a.requires_grad))
            cargs.append(c)
        else:
            cargs.append(a)
    saved = {id(c): c.numpy().copy() for c in copies.values()}

    def differentiable(pos):
        a = args[pos]
        if not isinstance(a, wp.array) or not a.requires_grad:
            return False
        dt = saved[id(cargs[pos])].dtype
        return dt.kind == "f" and dt.itemsize in EPS

    def distinct(positions):
        out, seen = [], set()
        for p in positions:
            if id(args[p]) not in seen:
                seen.add(id(args[p]))
                out.append(p)
        return out

    ins = distinct([p for p in sorted(reads) if p not in writes and differentiable(p)])
    outs = distinct([q for q in sorted(writes) if differentiable(q)])
    if not ins or not outs:
        return {"status": "skipped", "reason": "no differentiable input/output pair"}

    n_in = len(inputs)
    cin, cout = cargs[:n_in], cargs[n_in:]
    tape_like = _Gradients()
    context = wp._src.context
    adjoint_block_dim = block_dim
    if hasattr(context, "_ResolvedBlockDim") and block_dim is not None:
        adjoint_block_dim = context._ResolvedBlockDim(block_dim)

    def restore():
        for c in copies.values():
            c.assign(saved[id(c)])

    def label(pos):
        return _arg_name(entry, record, pos)

    rng = np.random.default_rng(20240611)
    ad: Dict[int, Dict[int, Any]] = {}
    weights: Dict[int, Any] = {}
    for q in outs:
        restore()
        for c in copies.values():
            if c.grad is not None:
                c.grad.zero_()
        shape = saved[id(cargs[q])].shape
        w = rng.standard_normal(shape).astype(saved[id(cargs[q])].dtype)
        weights[q] = w.reshape(-1).astype(np.float64)
        cargs[q].grad.assign(w)
        real_launch(
            kernel, dim=dim, inputs=cin, outputs=cout,
            adj_inputs=[wp.Tape.get_adjoint(tape_like, c) for c in cin],
            adj_outputs=[wp.Tape.get_adjoint(tape_like, c) for c in cout],
            device=device, adjoint=True, record_tape=False, max_blocks=max_blocks, block_dim=adjoint_block_dim,
        )
        ad[q] = {p: cargs[p].grad.numpy().astype(np.float64).reshape(-1).copy() for p in ins}

    def forward(p, j, step) -> Tuple[Dict[int, Any], float]:
        restore()
        host = saved[id(cargs[p])].copy()
        flat = host.reshape(-1)
        before = float(flat[j])
        flat[j] = flat.dtype.type(before + step)
        cargs[p].assign(host)
        real_launch(kernel, dim=dim, inputs=cin, outputs=cout, device=device, record_tape=False,
                    max_blocks=max_blocks, block_dim=block_dim)
        return {q: cargs[q].numpy().astype(np.float64).reshape(-1) for q in outs}, float(flat[j]) - before

    def central(p, j, step) -> Dict[int, float]:
        plus, dp = forward(p, j, step)
        minus, dm = forward(p, j, -step)
        width = dp - dm
        with np.errstate(all="ignore"):
            return {q: float(np.dot(weights[q], plus[q] - minus[q]) / width) if width else float("nan")
                    for q in outs}

    checked = failed = 0
    max_abs = max_rel = worst_err = 0.0
    worst = None
    for p in ins:
        flat_x = saved[id(cargs[p])].reshape(-1).astype(np.float64)
        total = sum(np.abs(ad[q][p]) for q in outs)
        order = [int(j) for j in np.argsort(-total, kind="stable")[:2]]
        rest = [j for j in range(flat_x.size) if j not in order]
        if rest:
            order += [int(j) for j in rng.choice(rest, size=min(SAMPLES_PER_INPUT - len(order), len(rest)),
                                                 replace=False)]
        eps = EPS[saved[id(cargs[p])].dtype.itemsize]
        for j in order:
            step = eps * max(1.0, abs(flat_x[j]))
            fd = central(p, j, step)
            for q in outs:
                a, f = float(ad[q][p][j]), fd[q]
                if not (np.isfinite(a) and np.isfinite(f)):
                    continue  # NaN/Inf adjoints are TW403's
                err = abs(a - f)
                if err > ATOL + RTOL * abs(f):
                    f2 = central(p, j, step / 4.0)[q]
                    if not np.isfinite(f2) or abs(f - f2) > ATOL + RTOL * abs(f2):
                        continue  # not smooth enough here to judge
                    f, err = f2, abs(a - f2)
                checked += 1
                if err > ATOL:  # a relative error of rounding noise around zero means nothing
                    max_rel = max(max_rel, err / (abs(f) + 1e-8))
                if err <= ATOL + RTOL * abs(f):
                    max_abs = max(max_abs, err)
                    continue
                failed += 1
                if worst is None or err > worst_err:
                    worst_err = err
                    worst = {"input": label(p), "output": label(q), "element": j, "ad": a, "fd": f}
                max_abs = max(max_abs, err)
    restore()
    status = "fail" if failed else ("pass" if checked else "skipped")
    out = {"status": status, "checked": checked, "failed": failed, "max_abs": max_abs, "max_rel": max_rel,
           "worst": worst}
    if status == "skipped":
        out["reason"] = "no derivative could be compared"
    return out


class _Gradients:
    """Stands in for a tape in ``Tape.get_adjoint`` (which only records into ``gradients``)."""

    def __init__(self):
        self.gradients: dict = {}
