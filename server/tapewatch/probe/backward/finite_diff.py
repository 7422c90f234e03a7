"""One launch's adjoint against finite differences, on private copies.

For each differentiable output ``q`` a seeded random cotangent ``w_q`` is
pushed through one adjoint launch, giving ``w_q · dq/dx`` for every element
of every differentiable input at once; a few input elements (the largest
adjoints and seeded random ones) are perturbed by ``±eps·max(1, |x|)`` and
the forward relaunched from the saved arguments, giving the same numbers by
finite differences.

Only what was measured is said.  Before an element counts as a failure,
the forward and backward one-sided differences must agree with each other
(otherwise the element sits on a kink: a clamp, min/max, abs, a bilinear
interpolation crossing a cell), the disagreement must exceed their spread
(a sum over many clamps, a Monte Carlo payoff, crosses kinks at any step),
and a second difference with a quarter of the step must agree with the
first (otherwise rounding noise or a branch);
such elements are counted as *non-smooth* and another element is tried.
So is a disagreement within a few times the rounding noise of the
difference (the outputs' float spacing over the step).  Outputs the launch
never reads start from zero in the copies, so a large accumulated value
does not drown the differences.
A launch where every sample was non-smooth is *inconclusive*, not failed.

Arrays inside ``@wp.struct`` arguments are copied and perturbed too.  The
user's arrays are never touched.  Stdlib, Warp and NumPy.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from ..core import warp_seams
from ..fd.judge import ATOL, FLOAT32_EPS, RESOLUTION_STEPS, STEPS, close, smooth, within_noise
from ..fd.judge import step as judge_step

SAMPLES_PER_INPUT = 4  # input elements compared per differentiable input
MAX_TRIES_PER_INPUT = 12  # elements tried per input, non-smooth ones replaced
MAX_SAMPLES = 64  # compared derivatives kept for the picture
SEED = 20240611


@dataclass
class LaunchCheck:
    """What ``check_launch`` measured of one launch's adjoint."""

    status: str  # "pass", "fail", "inconclusive" or "skipped"
    reason: Optional[str] = None  # why it was skipped or inconclusive
    checked: int = 0  # derivatives compared
    failed: int = 0
    nonsmooth: int = 0  # elements on a kink or in rounding noise (not judged)
    max_abs: float = 0.0
    max_rel: float = 0.0
    # the worst failing derivative: input, output, element, ad, fd, fd_forward, fd_backward, atol, projected_over
    worst: Optional[Dict[str, Any]] = None
    samples: List[Any] = field(default_factory=list)  # compared derivatives kept for the picture
    cotangent: Optional[str] = None  # "ones" (the derivatives themselves) or "random" (projections)
    below_resolution: int = 0  # elements whose change float32 could not show at the default step
    measured: bool = True  # False: skipped before anything was compared (only status and reason say anything)

    def event_fields(self) -> Dict[str, Any]:
        """The ``launch_check`` event's fields (the worst element and the samples go in the finding)."""
        if not self.measured:
            return {"status": self.status, "reason": self.reason}
        out: Dict[str, Any] = {"status": self.status, "checked": self.checked, "failed": self.failed,
                               "nonsmooth": self.nonsmooth, "max_abs": self.max_abs, "max_rel": self.max_rel,
                               "cotangent": self.cotangent}
        if self.below_resolution:
            out["below_resolution"] = self.below_resolution
        if self.reason is not None:
            out["reason"] = self.reason
        return out


def skipped(reason: str) -> LaunchCheck:
    return LaunchCheck("skipped", reason, measured=False)


class _Gradients:
    """Stands in for a tape in ``Tape.get_adjoint`` (which records into ``gradients`` and recurses
    through struct fields with ``self.get_adjoint``)."""

    def __init__(self, wp):
        self.gradients: dict = {}
        self._wp = wp

    def get_adjoint(self, a):
        return warp_seams.get_adjoint(self._wp, self, a)


def check_launch(wp, real_launch, entry: warp_seams.LaunchEntry, reads, writes, label, cotangent="auto",
                 samples_per_input: int = SAMPLES_PER_INPUT) -> LaunchCheck:
    """Compare one launch's adjoint with central differences.

    ``reads``/``writes``: sets of (position, field) the launch reads and
    writes; ``label(pos, field)`` names an array for the report.  With
    ``cotangent="ones"`` (independent per-thread outputs) the numbers are
    the derivatives themselves rather than projections on a random vector;
    ``"auto"`` is ones for a one-element output and random otherwise,
    ``"random"`` random always.
    Returns what it measured (``LaunchCheck``).
    """
    import numpy as np  # noqa: PLC0415

    args = entry.args
    n_in = len(entry.inputs)
    try:
        cargs, slots, copies = private_copies(wp, args)
    except Unsupported as exc:
        return skipped(str(exc))
    # An output the launch only writes or accumulates into (never reads) starts from zero in the
    # copies: its old contents cannot change the derivatives, and a large accumulated value (a loss
    # summed over earlier steps) would drown the finite differences in float rounding.
    read_copies = {id(slots[k]) for k in reads if k in slots}
    for key in writes:
        c = slots.get(key)
        if c is not None and id(c) not in read_copies:
            c.zero_()
    saved = {id(c): warp_seams.host_values(c).copy() for c in copies.values()}

    def usable(key) -> bool:
        c = slots.get(key)
        if c is None or not c.requires_grad:
            return False
        dt = saved[id(c)].dtype
        return dt.kind == "f" and dt.itemsize in STEPS

    def distinct(keys):
        out, seen = [], set()
        for k in keys:
            c = slots[k]
            if id(c) not in seen:
                seen.add(id(c))
                out.append(k)
        return out

    ins = distinct([k for k in sorted(reads) if k not in writes and usable(k)])
    outs = distinct([k for k in sorted(writes) if usable(k)])
    if not ins or not outs:
        return skipped("no differentiable input/output pair")

    cin, cout = cargs[:n_in], cargs[n_in:]
    holder = _Gradients(wp)
    adjoint_block_dim = warp_seams.resolved_block_dim(wp, entry.block_dim)

    def restore():
        for c in copies.values():
            c.assign(saved[id(c)])

    # An array the launch reads and writes (``mv[i] += dt * m[i] * g; v[i] = mv[i] / m[i]``) holds, in
    # backward(), what the launch left in it, and Warp's adjoint replays the forward on those values.
    # The differences relaunch from the copies' values, so the adjoint must see that launch's result:
    # the forward runs once on the copies before each adjoint (else the two are taken at two points).
    in_place = any(k in writes for k in reads if k in slots)
    rng = np.random.default_rng(SEED)
    ad: Dict[tuple, Dict[tuple, Any]] = {}
    weights: Dict[tuple, Any] = {}
    projected: Dict[tuple, int] = {}  # output -> its element count, where the numbers are projections
    base_cache: Dict[str, Any] = {}

    def base() -> Dict[tuple, Any]:
        if "v" not in base_cache:
            restore()
            real_launch(entry.kernel, dim=entry.dim, inputs=cin, outputs=cout, device=entry.device,
                        record_tape=False, max_blocks=entry.max_blocks, block_dim=entry.block_dim)
            base_cache["v"] = {q: warp_seams.host_values(slots[q]).astype(np.float64).reshape(-1) for q in outs}
        return base_cache["v"]

    # Output elements already non-finite at the launch's own values say nothing of any derivative (a NaN
    # is TW403's): they get no cotangent and stay out of the differences, so one NaN output does not
    # blind the projection to the others.
    finite_outputs = {q: np.isfinite(v) for q, v in base().items()}
    for q in outs:
        restore()
        if in_place:
            real_launch(entry.kernel, dim=entry.dim, inputs=cin, outputs=cout, device=entry.device,
                        record_tape=False, max_blocks=entry.max_blocks, block_dim=entry.block_dim)
        for c in copies.values():
            if c.grad is not None:
                c.grad.zero_()
        out_copy = slots[q]
        shape = saved[id(out_copy)].shape
        drawn = rng.standard_normal(shape)  # drawn even when unused: the samples after it stay the same
        # A one-element output (a loss) gets weight 1: the numbers are then its plain derivatives, with
        # their signs, as the user computes them; a larger one is projected on a fixed random direction.
        plain = cotangent == "ones" or (cotangent == "auto" and drawn.size == 1)
        w = np.ones(shape) if plain else drawn
        if not plain:
            projected[q] = drawn.size
        w = np.where(finite_outputs[q].reshape(shape), w, 0.0).astype(saved[id(out_copy)].dtype)
        weights[q] = w.reshape(-1).astype(np.float64)
        out_copy.grad.assign(w)
        real_launch(
            entry.kernel, dim=entry.dim, inputs=cin, outputs=cout,
            adj_inputs=[warp_seams.get_adjoint(wp, holder, c) for c in cin],
            adj_outputs=[warp_seams.get_adjoint(wp, holder, c) for c in cout],
            device=entry.device, adjoint=True, record_tape=False, max_blocks=entry.max_blocks,
            block_dim=adjoint_block_dim,
        )
        ad[q] = {p: warp_seams.host_values(slots[p].grad).astype(np.float64).reshape(-1).copy() for p in ins}

    def forward(p, j, step) -> Tuple[Dict[tuple, Any], float]:
        restore()
        c = slots[p]
        host = saved[id(c)].copy()
        flat = host.reshape(-1)
        before = float(flat[j])
        flat[j] = flat.dtype.type(before + step)
        c.assign(host)
        real_launch(entry.kernel, dim=entry.dim, inputs=cin, outputs=cout, device=entry.device, record_tape=False,
                    max_blocks=entry.max_blocks, block_dim=entry.block_dim)
        return {q: warp_seams.host_values(slots[q]).astype(np.float64).reshape(-1) for q in outs}, float(flat[j]) - before

    noise: Dict[tuple, float] = {}  # rounding noise of the central difference, per output
    scale: Dict[tuple, float] = {}  # the largest magnitude each output held around the step

    def differences(p, j, step) -> Tuple[Dict[tuple, float], Dict[tuple, float], Dict[tuple, float]]:
        """(central, forward one-sided, backward one-sided) projected on the cotangents."""
        plus, dp = forward(p, j, step)
        minus, dm = forward(p, j, -step)
        mid = base()
        out_c, out_f, out_b = {}, {}, {}
        with np.errstate(all="ignore"):
            for q in outs:
                # (outputs non-finite at the launch's own values have no weight: see ``finite_outputs``)
                w, finite = weights[q], finite_outputs[q]
                plus_q, minus_q, mid_q = (np.where(finite, v[q], 0.0) for v in (plus, minus, mid))
                # The largest of the three values each output held: a difference smaller than its
                # spacing is rounded away whichever side of the step it sits on.
                held = np.maximum(np.abs(mid_q), np.maximum(np.abs(plus_q), np.abs(minus_q)))
                out_c[q] = float(np.dot(w, plus_q - minus_q) / (dp - dm)) if dp - dm else float("nan")
                out_f[q] = float(np.dot(w, plus_q - mid_q) / dp) if dp else float("nan")
                out_b[q] = float(np.dot(w, mid_q - minus_q) / -dm) if dm else float("nan")
                # Each output is stored in its own precision: a difference below its spacing is lost.
                ulp = np.spacing(held.astype(saved[id(slots[q])].dtype)).astype(np.float64)
                scale[q] = float(held.max()) if held.size else 0.0
                noise[q] = float(2.0 * np.dot(np.abs(w), ulp) / abs(dp - dm)) if dp - dm else float("inf")
        return out_c, out_f, out_b

    # The absolute tolerance shrinks with the derivatives' own scale (the largest adjoint of the input for
    # the output): derivatives of 1e-5 all sit within Warp's atol of 1e-3, so a doubled one would "agree".
    atols: Dict[tuple, float] = {}
    for q in outs:
        for p in ins:
            finite = np.abs(ad[q][p][np.isfinite(ad[q][p])])
            atols[(q, p)] = ATOL * min(1.0, float(finite.max()) if finite.size else 1.0)

    def unsettled(x, y, gap) -> bool:
        # Two estimates of one slope (forward and backward, or two steps) that differ by more than half their
        # size, by an amount that matters next to the disagreement: the function is not linear over the step
        # (a kink, a steep nonlinearity of differences far finer than the step), even where both estimates
        # sit below the absolute tolerance that ``smooth``/``close`` allow.  Nothing is judged there.
        spread = abs(x - y)
        return spread > 0.5 * max(abs(x), abs(y)) and spread > 0.05 * abs(gap)

    checked = failed = nonsmooth = unresolved = 0
    max_abs = max_rel = worst_err = 0.0
    worst = None
    # Every compared derivative, for the picture (AD, FD and their difference per element).
    samples: List[dict] = []

    def sample(p, q, j, a, f, ok) -> None:
        if len(samples) < MAX_SAMPLES:
            samples.append({"input": label(*p), "output": label(*q), "element": int(j), "ad": float(a),
                            "fd": float(f), "ok": bool(ok)})
    for p in ins:
        c = slots[p]
        flat_x = saved[id(c)].reshape(-1).astype(np.float64)
        total = sum(np.abs(ad[q][p]) for q in outs)
        order = [int(j) for j in np.argsort(-total, kind="stable")[:2]]
        rest = [j for j in range(flat_x.size) if j not in order]
        if rest:
            tries = max(MAX_TRIES_PER_INPUT, 2 * samples_per_input)
            order += [int(j) for j in rng.choice(rest, size=min(tries - len(order), len(rest)), replace=False)]
        eps = STEPS[saved[id(c)].dtype.itemsize]
        compared = 0
        for j in order:
            if compared >= samples_per_input:
                break
            step = judge_step(eps, flat_x[j])
            fd, fwd, bwd = differences(p, j, step)
            counted = False
            for q in outs:
                a, f, atol = float(ad[q][p][j]), fd[q], atols[(q, p)]
                if not (np.isfinite(a) and np.isfinite(f)):
                    continue  # NaN/Inf adjoints are TW403's
                if close(a, f, atol):
                    checked += 1
                    counted = True
                    max_abs = max(max_abs, abs(a - f))
                    sample(p, q, j, a, f, True)
                    continue
                # Disagreement: is it larger than what rounding alone can do to the difference?
                if within_noise(a - f, noise.get(q, 0.0)):
                    nonsmooth += 1
                    continue
                # Is the point smooth enough to judge?  The one-sided slopes differ by the curvature (or the
                # kinks: a Monte Carlo sum of clamped payoffs) the step spans; a disagreement within that
                # spread is not resolved by this step (on a smooth function the spread is ~step * f'').
                if not (np.isfinite(fwd[q]) and np.isfinite(bwd[q]) and smooth(fwd[q], bwd[q], atol)) or \
                        abs(a - f) <= abs(fwd[q] - bwd[q]) or unsettled(fwd[q], bwd[q], a - f):
                    nonsmooth += 1
                    continue
                f2 = differences(p, j, step / 4.0)[0][q]
                if not np.isfinite(f2) or not close(f, f2, atol) or unsettled(f, f2, a - f2):
                    nonsmooth += 1
                    continue
                f = f2
                if f == 0.0 and saved[id(c)].dtype.itemsize < 8:
                    # No change at either step while the adjoint has one: the change may be below what float32
                    # resolves inside the kernel (a small derivative of a large intermediate).  A larger step,
                    # smooth at its own scale, must see it.
                    wide_c, wide_f, wide_b = differences(p, j, min(step * RESOLUTION_STEPS,
                                                                   0.1 * max(1.0, abs(flat_x[j]))))
                    wide, wide_step = wide_c[q], min(step * RESOLUTION_STEPS, 0.1 * max(1.0, abs(flat_x[j])))
                    if np.isfinite(wide) and close(a, wide, atol) and smooth(wide_f[q], wide_b[q], atol):
                        unresolved += 1  # the default step was below float32 resolution; the wide one agrees
                        checked += 1
                        counted = True
                        sample(p, q, j, a, wide, True)
                        continue
                    # The output would move by less than float32 resolves even at the wide step (the kernel's
                    # intermediates are at least of order one): nothing is measured.  A resolvable change that
                    # never came means the adjoint is wrong, and that stays a failure.
                    below = abs(a) * wide_step < FLOAT32_EPS * max(1.0, scale.get(q, 0.0))
                    if not np.isfinite(wide) or (wide == 0.0 and below) or (wide != 0.0 and not close(f, wide, atol)):
                        unresolved += 1
                        nonsmooth += 1
                        continue
                err = abs(a - f)
                checked += 1
                counted = True
                if err > atol:  # a relative error of rounding noise around zero means nothing
                    max_rel = max(max_rel, err / (abs(f) + 1e-8))
                if close(a, f, atol):
                    max_abs = max(max_abs, err)
                    sample(p, q, j, a, f, True)
                    continue
                failed += 1
                sample(p, q, j, a, f, False)
                if worst is None or err > worst_err:
                    worst_err = err
                    worst = {"input": label(*p), "output": label(*q), "element": j, "ad": a, "fd": f,
                             "fd_forward": fwd[q], "fd_backward": bwd[q], "atol": atol,
                             "projected_over": projected.get(q)}
                max_abs = max(max_abs, err)
            if counted:
                compared += 1
    restore()
    if failed:
        status = "fail"
    elif checked:
        status = "pass"
    elif nonsmooth:
        status = "inconclusive"
    else:
        status = "skipped"
    out = LaunchCheck(status, None, checked, failed, nonsmooth, max_abs, max_rel, worst, samples,
                      "random" if projected else "ones", unresolved)
    if status == "inconclusive" and unresolved == nonsmooth:
        out.reason = ("below float32 resolution: the derivatives are too small for the outputs' float32 values "
                      "to show at any step tried, so finite differences cannot judge this launch")
    elif status == "inconclusive":
        out.reason = ("every sampled element sits on a kink or in rounding noise (one-sided differences "
                      "disagree, or the difference is below the outputs' float resolution): finite "
                      "differences cannot judge this launch here")
    elif status == "skipped":
        out.reason = "no derivative could be compared"
    return out


class Unsupported(Exception):
    """A launch whose arguments cannot be copied (the message says why)."""


def private_copies(wp, args) -> Tuple[list, Dict[Tuple[int, str], Any], Dict[int, Any]]:
    """Private copies of every array a launch can see, structs rebuilt around their copies.

    Returns ``(args, slots, copies)``: the launch's arguments with copies in
    place of arrays; ``(position, field) -> copy``; ``id(original) -> copy``
    (one copy per array, however often it is passed).
    """
    for a in args:
        if warp_seams.is_array_like(wp, a) and not isinstance(a, wp.array):
            raise Unsupported("indexed or fabric array argument")
    copies: Dict[int, Any] = {}

    def copy_of(a):
        c = copies.get(id(a))
        if c is None:
            c = copies[id(a)] = wp.clone(a, requires_grad=bool(a.requires_grad))
        return c

    slots: Dict[Tuple[int, str], Any] = {}
    cargs = []
    for pos, a in enumerate(args):
        if isinstance(a, wp.array):
            c = copy_of(a)
            slots[(pos, "")] = c
            cargs.append(c)
        elif a is not None and warp_seams.is_struct_instance(wp, a):
            clone = copy_struct(wp, a, copy_of, slots, pos, "")
            if clone is None:
                raise Unsupported("struct argument that cannot be copied")
            cargs.append(clone)
        else:
            cargs.append(a)
    return cargs, slots, copies


def copy_struct(wp, value, copy_of, slots, pos, prefix, depth=0):
    """A new struct instance whose arrays are private copies (nested structs too)."""
    if depth > 8:
        return None
    try:
        clone = type(value)()
    except Exception:
        return None
    cls = getattr(value, "_cls", None)
    names = list(getattr(cls, "vars", {}) or {})
    for name in names:
        item = getattr(value, name, None)
        field = "%s.%s" % (prefix, name)
        if isinstance(item, wp.array):
            c = copy_of(item)
            slots[(pos, field)] = c
            setattr(clone, name, c)
        elif item is not None and warp_seams.is_struct_instance(wp, item):
            inner = copy_struct(wp, item, copy_of, slots, pos, field, depth + 1)
            if inner is None:
                return None
            setattr(clone, name, inner)
        else:
            try:
                setattr(clone, name, item)
            except Exception:
                return None
    return clone


def samples_summary(result: LaunchCheck) -> str:
    return "%d compared, %d failed, %d non-smooth" % (result.checked, result.failed, result.nonsmooth)

