"""The FD check a generated harness runs (inside the user's interpreter).

The reference is the user's full objective: every evaluation replays the
whole script (``replay``), sums the loss of every ``backward`` call up to
the point where the program consumes a parameter's gradient, and central
differences of that sum are compared with the gradient the program consumed.
Results are printed as a table and, when a channel is given, reported as
TW4xx findings on the parameter's allocation line and on the backward line.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import List, Optional, Sequence

from ... import codes
from ...model import Finding, Location, Related
from ..core import warp_seams
from ..core.channel import EventChannel
from . import judge
from .replay import ParamSite, ReplayError, Replayer

SECOND_POINT_SAMPLES = 8  # elements compared at the second, perturbed point


class Parameter(ParamSite):
    """A parameter the optimizer updates: its name and allocation line in the script."""


class Loss:
    def __init__(self, name: Optional[str], backward_lines: Sequence[int] = ()):
        self.name = name
        self.backward_lines = list(backward_lines)


class Settings:
    def __init__(self, eps: float = judge.STEP, atol: float = judge.ATOL, rtol: float = judge.RTOL,
                 max_inputs_per_var: int = 16,
                 seed: int = 0, form: str = "auto"):
        self.eps, self.atol, self.rtol = eps, atol, rtol
        self.max_inputs_per_var, self.seed, self.form = max_inputs_per_var, seed, form


class ParamResult:
    def __init__(self, param: Parameter):
        self.param = param
        self.sampled = 0
        self.size = 0
        self.max_abs = 0.0
        self.max_rel = 0.0
        self.ratio: Optional[float] = None
        self.nan = 0
        self.passed = False
        self.integer_ratio: Optional[float] = None
        self.rounding_noise = 0.0
        self.worst: Optional[tuple] = None  # (flat index, AD, FD) of the largest |AD - FD|
        # (flat index, AD, FD, |AD - FD| / tolerance) of the element furthest beyond the tolerance the verdict
        # uses (atol + rtol * |FD|): the element a FAIL names, by the same measure as its count.
        self.worst_excess: Optional[tuple] = None
        self.beyond = 0  # sampled elements with |AD - FD| over that tolerance
        self.rel_where_measurable = 0.0  # the largest relative error where |FD| > atol
        self.first_nan: Optional[tuple] = None  # (flat index, AD, FD) of the first non-finite pair
        self.noise = 0.0  # how far the ±h evaluations' midpoint strays from the reference, per unit h
        self.nonsmooth = 0  # sampled elements whose one-sided differences disagree (a kink, a jump)
        self.noisy = 0  # sampled elements whose FD signal is within the noise floor
        self.measured_fail = 0  # elements that disagree where FD can measure
        self.verdict = "pass"  # "pass", "fail", "inconclusive"
        self.reason = ""  # for inconclusive: why FD could not measure
        self.stochastic = False  # two runs at the same point disagreed
        self.samples: List[dict] = []  # {"element", "ad", "fd", "ok"} per sampled element
        self.point = "the program's own values"


def main(harness_file: str, script: str, parameters: Sequence[Parameter], loss: Loss, settings: Settings,
         argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog=os.path.basename(harness_file))
    parser.add_argument("--events", default=os.environ.get("TAPEWATCH_EVENTS"))
    parser.add_argument("--device", default=None)
    ns, script_args = parser.parse_known_args(sys.argv[1:] if argv is None else argv)
    channel = EventChannel(ns.events)
    script = os.path.join(os.path.dirname(os.path.abspath(harness_file)), script)
    started = time.perf_counter()
    # No "end" event when the harness itself breaks: the runner then reports
    # the crash with the traceback instead of an empty, clean-looking result.
    status = _check(channel, harness_file, script, list(parameters), loss, settings, script_args, ns.device)
    channel.emit("end", status=status, outcome="harness", seconds=time.perf_counter() - started)
    channel.close()
    return status


def _check(channel, harness_file, script, parameters, loss, settings, script_args, device) -> int:
    import numpy as np  # noqa: PLC0415
    import warp as wp  # noqa: PLC0415

    if device:
        wp.set_device(device)
    form = resolve_form(settings.form)
    channel.emit("start", warp_version=wp.config.version, device=str(wp.get_device()), python=sys.executable,
                 script=script, features={"harness_form": form})
    todo = _missing(parameters, loss)
    if todo:
        return _fail(channel, harness_file, todo)

    replayer = Replayer(script, parameters, script_args, seed=settings.seed)
    try:
        reference = replayer.run("reference")
    except ReplayError as exc:
        return _fail(channel, harness_file, "the script could not be replayed: %s" % exc)
    except Exception as exc:  # the user's exception
        return _fail(channel, harness_file, "the script raised %s: %s during the reference run"
                     % (type(exc).__name__, exc))
    if reference.backward_calls == 0:
        return _fail(channel, harness_file, "the script never called `tape.backward(...)`: set LOSS to the "
                     "array it differentiates and make sure the script reaches its backward call")
    problems = []
    for i, p in enumerate(parameters):
        if p.stale or reference.allocations.get(i, 0) == 0:
            problems.append("PARAMETERS[%d] (`%s`): no array was allocated at line %d of %s, and no statement "
                            "there assigns `%s` any more: the harness is stale. Regenerate it (`tapewatch harness "
                            "%s`, or the editor's \"Generate FD harness\" quick fix), or set `line=` to the line that "
                            "allocates `%s`" % (i, p.name, p.line, os.path.basename(p.path or script), p.name,
                                                os.path.basename(script), p.name))
        elif p.occurrence is None:
            p.occurrence = 0  # every allocation there got a zero gradient: check the first one
            reference = replayer.run("reference")
    for i, p in enumerate(parameters):
        if not problems and reference.values.get(i) is None:
            problems.append("PARAMETERS[%d] (`%s`): the script never reads its gradient, so there is nothing to "
                            "compare; regenerate the harness (`tapewatch harness %s`) or pick another parameter"
                            % (i, p.name, os.path.basename(script)))
    if problems:
        return _fail(channel, harness_file, "; ".join(problems))

    drift = _reproducibility(replayer, reference)
    results = []
    for i, p in enumerate(parameters):
        results.append(_check_parameter(replayer, reference, i, p, settings, form, np))
    if drift is not None:
        for r in results:
            if r.nan == 0:
                r.verdict, r.passed = "inconclusive", False
                r.reason = ("the forward pass is not reproducible: two runs at the same point gave objectives "
                            "%.9g and %.9g although `random` and `numpy.random` are seeded (a generator seeded from "
                            "the clock or the OS, wp.rand with a changing seed, or state kept outside the script)"
                            % (reference.objective, drift))
                r.stochastic = True
    # A second, seeded point: a bug that vanishes at the program's own values (zeros, a symmetric
    # start) still shows there.
    for i, p in enumerate(parameters):
        if results[i].verdict != "pass":
            continue
        second = _second_point(replayer, i, p, reference, settings, form, np)
        if second is not None and second.verdict == "fail":
            results[i] = second
    _print_table(script, reference, results, form)
    for r in results:
        for finding in result_findings(r, script, loss, reference, settings):
            channel.emit("finding", finding=finding.to_json())
    return 0 if all(r.passed or (r.verdict == "inconclusive" and r.nan == 0) for r in results) else 1


def resolve_form(form: str) -> str:
    """``gradcheck`` when this Warp restores inputs between evaluations (1.17+), else ``central``.

    A harness written for a newer Warp still runs on an older one: it falls
    back to central differences and says so.
    """
    import inspect  # noqa: PLC0415

    try:
        import warp.autograd as autograd  # noqa: PLC0415

        available = "restore_inputs" in inspect.signature(autograd.gradcheck).parameters
    except Exception:
        available = False
    if form == "central" or not available:
        if form == "gradcheck":
            sys.stderr.write("tapewatch harness: this Warp's gradcheck has no restore_inputs; "
                             "using central differences that replay the script\n")
        return "central"
    return "gradcheck"


def _check_parameter(replayer, reference, index, param, settings, form, np, limit=None) -> ParamResult:
    result = ParamResult(param)
    values = reference.values[index]
    ad = reference.grads.get(index)
    if ad is None:
        ad = np.zeros_like(values)
    result.size = values.size
    picks = sample_indices(values.size, limit or settings.max_inputs_per_var, settings.seed)
    if form == "gradcheck":
        fd, pairs = _fd_with_warp(replayer, index, values, picks, settings, np, reference.objective)
    else:
        fd, pairs = _fd_central(replayer, index, values, picks, settings, np)
    result.noise = _noise(reference.objective, pairs)
    ad_s = ad[picks]
    result.sampled = len(picks)
    result.nan = int(np.count_nonzero(~np.isfinite(ad_s)) + np.count_nonzero(~np.isfinite(fd)))
    err = np.abs(ad_s - fd)
    finite = np.isfinite(err)
    if not finite.all():
        k = int(np.argmin(finite))
        result.first_nan = (int(picks[k]), float(ad_s[k]), float(fd[k]))
    if finite.any():
        k = int(np.argmax(np.where(finite, err, -1.0)))
        result.max_abs = float(err[k])
        result.worst = (int(picks[k]), float(ad_s[k]), float(fd[k]))
        rel = err / np.maximum(np.abs(fd), 1e-8)
        result.max_rel = float(np.max(rel[finite]))
    significant = finite & (np.abs(fd) > max(settings.atol, 1e-6))
    if significant.any():
        result.ratio = float(np.median(ad_s[significant] / fd[significant]))
        nearest = round(result.ratio)
        if nearest >= 2 and abs(result.ratio - nearest) < 0.05 * nearest:
            result.integer_ratio = float(nearest)
        elif result.ratio > 0 and round(1 / result.ratio) >= 2 and abs(1 / result.ratio - round(1 / result.ratio)) < 0.05 * round(1 / result.ratio):
            result.integer_ratio = 1.0 / round(1 / result.ratio)
    tolerance = settings.atol + settings.rtol * np.abs(fd)
    ok = (err <= tolerance) & finite
    if finite.any():
        excess = np.where(finite, err / tolerance, -1.0)
        k = int(np.argmax(excess))
        result.worst_excess = (int(picks[k]), float(ad_s[k]), float(fd[k]), float(excess[k]))
        result.beyond = int(np.count_nonzero(~ok))
        measurable = finite & (np.abs(fd) > settings.atol)
        if measurable.any():
            result.rel_where_measurable = float(np.max(err[measurable] / np.abs(fd[measurable])))
    # Every sampled element with its numbers (null where not finite), for a picture of the errors.
    result.samples = [{"element": int(picks[n]), "ad": _finite_or_none(ad_s[n]), "fd": _finite_or_none(fd[n]),
                       "ok": bool(ok[n])} for n in range(len(picks))]
    step = settings.eps * max(1.0, float(np.median(np.abs(values))) if values.size else 1.0)
    result.rounding_noise = reference.loss_scale * judge.FLOAT32_ROUNDING / step
    _judge(result, ok, ad_s, fd, pairs, reference.objective, settings, np)
    return result


def _judge(result, ok, ad_s, fd, pairs, f0, settings, np) -> None:
    """PASS and FAIL only where FD can measure; INCONCLUSIVE, with the reason, where it cannot.

    An element that disagrees is *measured* only if its one-sided differences
    agree with each other (no kink or jump between x-h and x+h) and the FD
    signal stands above the noise floor (float32 rounding of the loss, or
    evaluations that do not reproduce).
    """
    floor = result.rounding_noise
    for n, good in enumerate(ok):
        signal = max(abs(ad_s[n]), abs(fd[n])) if np.isfinite(ad_s[n]) and np.isfinite(fd[n]) else float("inf")
        if good:
            if floor > settings.atol and signal < 2.0 * floor:
                result.noisy += 1  # agreement inside the noise: not a measurement either
            continue
        if not (np.isfinite(ad_s[n]) and np.isfinite(fd[n])):
            result.measured_fail += 1  # NaN/Inf: a real failure (TW403 says where)
            continue
        if n < len(pairs):
            fp, fm, h = pairs[n]
            fwd, bwd = (fp - f0) / h, (f0 - fm) / h
            if not judge.smooth(fwd, bwd, settings.atol):
                if not judge.within_noise(fwd - bwd, floor) or floor <= settings.atol:
                    result.nonsmooth += 1
                else:
                    result.noisy += 1
                continue
        if abs(fd[n]) < 2.0 * floor and abs(ad_s[n] - fd[n]) < judge.NOISE_FACTOR * floor + settings.atol:
            result.noisy += 1
            continue
        result.measured_fail += 1
    if result.measured_fail:
        result.verdict = "fail"
    elif result.nonsmooth or result.noisy >= max(1, result.sampled // 2):
        result.verdict = "inconclusive"
        reasons = []
        if result.nonsmooth:
            reasons.append("at %d of %d sampled elements the objective has a kink or a jump between x-eps and "
                           "x+eps (the one-sided differences disagree): a piecewise-constant or clamped operation, "
                           "where a zero or one-sided gradient is correct and FD measures a secant"
                           % (result.nonsmooth, result.sampled))
        if result.noisy:
            reasons.append("at %d of %d sampled elements the change the perturbation makes is within the noise "
                           "floor (~%.3g per unit eps: float32 rounding of the loss%s)"
                           % (result.noisy, result.sampled, floor, ""))
        result.reason = "; ".join(reasons)
    else:
        result.verdict = "pass"
    result.passed = result.verdict == "pass" and result.nan == 0


def _second_point(replayer, index, param, reference, settings, form, np) -> Optional[ParamResult]:
    values = reference.values.get(index)
    if values is None or not values.size:
        return None
    rng = np.random.default_rng(settings.seed + 1)
    # ±50% of each value (signs kept), at least ±10% of the largest; an all-zero start moves by ±0.5.
    largest = float(np.max(np.abs(values)))
    floor = 0.1 * largest if largest > 0 else 1.0
    offsets = 0.5 * rng.uniform(-1.0, 1.0, size=values.size) * np.maximum(np.abs(values), floor)
    scale = float(np.max(np.abs(offsets)))
    replayer.base = {index: [(int(k), float(d)) for k, d in enumerate(offsets)]}
    try:
        moved = replayer.run("reference")
        if moved.grads.get(index) is None or not np.all(np.isfinite(moved.values.get(index, values))):
            return None
        result = _check_parameter(replayer, moved, index, param, settings, form, np, limit=SECOND_POINT_SAMPLES)
        result.point = "a second point (the program's values moved by up to ±%.3g, seed %d)" % (scale,
                                                                                              settings.seed + 1)
        return result
    except Exception:
        return None  # the program does not run there: the first point stands
    finally:
        replayer.base = {}
        replayer.run("reference")  # back to the program's own point for the next parameter


def sample_indices(size: int, limit: int, seed: int):
    import numpy as np  # noqa: PLC0415

    if limit <= 0 or size <= limit:
        return np.arange(size)
    return np.sort(np.random.default_rng(seed).choice(size, limit, replace=False))


def _step(settings, value: float) -> float:
    return judge.step(settings.eps, value)


def _fd_central(replayer, index, values, picks, settings, np):
    """Central differences, every evaluation rebuilding all state by replaying the script."""
    fd = np.empty(len(picks))
    pairs = []
    for n, flat in enumerate(picks):
        h = _step(settings, values[flat])
        plus = replayer.run("fd", {index: (int(flat), h)})
        minus = replayer.run("fd", {index: (int(flat), -h)})
        span = plus.applied.get((index, int(flat)), h) - minus.applied.get((index, int(flat)), -h)
        fd[n] = (plus.objective - minus.objective) / span if span else float("nan")
        pairs.append((plus.objective, minus.objective, span / 2.0))
    return fd, pairs


def _finite_or_none(x) -> Optional[float]:
    x = float(x)
    return x if x == x and x not in (float("inf"), float("-inf")) else None


def _reproducibility(replayer, reference) -> Optional[float]:
    """The objective of a second unperturbed run when it differs from the reference beyond rounding."""
    try:
        again = replayer.run("fd")
    except Exception:
        return float("nan")
    f0, f1 = reference.objective, again.objective
    if f0 is None or f1 is None:
        return None
    if f0 == f1 or abs(f1 - f0) <= 8.0 * max(reference.loss_scale, abs(f0)) * judge.FLOAT32_ROUNDING:
        return None
    return f1


def _noise(reference: float, pairs) -> float:
    """Determinism, without an extra evaluation: the midpoint of f(x+h) and f(x-h)
    equals f(x) up to h²·f''/2.  A larger gap, divided by h, is what noise (an
    unpinned random draw, state outside the script) would add to the FD estimate."""
    gaps = [abs((fp + fm) / 2.0 - reference) / abs(h) for fp, fm, h in pairs if h]
    finite = [g for g in gaps if g == g and g != float("inf")]
    return max(finite) if finite else 0.0


def _fd_with_warp(replayer, index, values, picks, settings, np, reference_objective):
    """Warp's own central differences (``jacobian_fd`` with ``restore_inputs``) around a replay callable.

    The callable takes the parameter as a Warp array (float64 copy of its
    values), replays the script with those values injected, and returns the
    objective as a one-element float64 array.
    """
    import warp as wp  # noqa: PLC0415
    import warp.autograd as autograd  # noqa: PLC0415

    sub = values[picks].astype(np.float64)
    h = float(np.median([_step(settings, v) for v in sub])) if len(sub) else settings.eps
    x = wp.array(sub, dtype=wp.float64, requires_grad=True, device="cpu")

    totals = []

    def objective(arr):
        current = arr.numpy()
        if np.array_equal(current, sub):
            # jacobian_fd's first call is at the unperturbed point: that is the
            # reference run's objective, no replay needed.
            total = reference_objective
        else:
            total = replayer.run_values("fd", index, picks, current).objective
            totals.append(total)
        return wp.array([total], dtype=wp.float64, requires_grad=True, device="cpu")

    with warp_seams.suspended_tape(wp):
        jac = _jacobian_fd_outside_tape(autograd, objective, x, h)
    # jacobian_fd evaluates +h then -h for each element, in order.
    pairs = [(totals[2 * n], totals[2 * n + 1], h) for n in range(len(totals) // 2)]
    return np.asarray(jac, dtype=np.float64).reshape(-1), pairs


def _jacobian_fd_outside_tape(autograd, objective, x, h):
    """``jacobian_fd`` records the callable under a tape; the replayed script opens its own tapes,
    so the evaluation runs with Warp's tape slot cleared while it executes."""
    import warp as wp  # noqa: PLC0415

    def untaped(arr):
        with warp_seams.suspended_tape(wp):
            return objective(arr)

    jacobians = autograd.jacobian_fd(untaped, inputs=[x], eps=h, restore_inputs=True)
    return list(jacobians.values())[0].numpy()


def _missing(parameters, loss) -> str:
    todo = []
    if not parameters:
        todo.append("fill in PARAMETERS: the arrays the optimizer updates (name and allocation line); "
                    "none was found (an array allocated with requires_grad=True whose .grad the script reads)")
    for i, p in enumerate(parameters):
        if not p.line:
            todo.append("fill in the allocation line of PARAMETERS[%d] (`%s`)" % (i, p.name))
    if loss is None or not loss.backward_lines:
        todo.append("no `tape.backward(...)` call was found: fill in LOSS with the array the script differentiates")
    return "; ".join(todo)


def _fail(channel, harness_file, message: str) -> int:
    finding = codes.tool_finding("TW406", "The FD harness cannot run: " + message,
                                 Location(os.path.abspath(harness_file), 1, 1))
    channel.emit("finding", finding=finding.to_json())
    sys.stderr.write("tapewatch harness: %s\n" % finding.message)
    return 2


def result_findings(r: ParamResult, script: str, loss: Loss, reference, settings) -> List[Finding]:
    """One finding per parameter.  The message says the verdict in words first, then the numbers; a FAIL
    names the element furthest beyond the tolerance (the measure its count uses), a PASS beside a large
    relative error says why it still passes, and every failure ends with what to change."""
    p = r.param
    fix = ""
    tolerance_text = "|AD − FD| ≤ %.3g + %.3g·|FD|" % (settings.atol, settings.rtol)
    numbers = "max abs err %.3g, max rel err %.3g, median AD/FD %s, NaN %d, %d of %d elements" % (
        r.max_abs, r.max_rel, "%.3g" % r.ratio if r.ratio is not None else "n/a", r.nan, r.sampled, r.size)
    objective = "sum of %d backward loss%s" % (reference.backward_calls, "es" if reference.backward_calls != 1 else "")
    floor = r.rounding_noise
    numbers += ", noise floor ~%.2g" % floor
    if r.point != "the program's own values":
        numbers += ", at %s" % r.point
    sampled = "%d sampled element%s" % (r.sampled, "" if r.sampled == 1 else "s")
    if r.passed:
        code = "TW400"
        message = "FD check of `%s` PASS: autodiff agrees with finite differences at all %s (%s)" % (
            p.name, sampled, tolerance_text)
        if r.max_rel > 10 * settings.rtol:
            # A large relative figure beside a PASS: say why it passes.
            small = [abs(x["fd"]) for x in r.samples if x["ad"] is not None and x["fd"] is not None
                     and abs(x["ad"] - x["fd"]) > 10 * settings.rtol * abs(x["fd"])]
            message += ("; the max rel err %.3g is at elements whose FD is near zero (|FD| ≤ %.3g), where "
                        "the absolute tolerance %.3g decides and |AD − FD| ≤ %.3g is within it (max rel err where "
                        "|FD| > %.3g: %.3g)" % (r.max_rel, max(small) if small else settings.atol, settings.atol,
                                                r.max_abs, settings.atol, r.rel_where_measurable))
        message += " (%s; objective: %s)." % (numbers, objective)
    elif r.verdict == "inconclusive" and r.nan == 0:
        code = "TW409"
        remedy = []
        if r.nonsmooth:
            remedy.append("if the operation is piecewise constant on purpose, a zero gradient is right: give it a "
                          "surrogate gradient (a straight-through estimator) if the optimizer needs one")
        if r.noisy:
            remedy.append("accumulate the loss in float64, subtract its constant part, or raise eps "
                          "(Settings(eps=...))")
        if r.stochastic:
            remedy.append("seed every random source the forward pass uses with a fixed value, then rerun")
        message = ("FD check of `%s` INCONCLUSIVE: finite differences cannot measure this gradient here: %s "
                   "(%s; objective: %s). Remedy: %s."
                   % (p.name, r.reason, numbers, objective, "; ".join(remedy)))
    elif r.integer_ratio is not None:
        code = "TW402"
        message = ("FD check of `%s` FAIL: autodiff is %s× finite differences at %d of %s (%s)."
                   % (p.name, ("%g" % r.integer_ratio), r.beyond, sampled, numbers))
        fix = ("remove the double counting: a launch recorded twice on the tape, retain_grad on a duplicated "
               "array, backward() run twice without tape.zero(), or a loss seeded with a sum where the script "
               "means a mean")
    else:
        code = "TW401"
        if r.first_nan is not None:
            head = "the gradient is not finite"
            worst = " Element %d: AD %.4g vs FD %.4g (not finite: see TW403 for the launch that produced it)." % r.first_nan
        else:
            head = "%d of %s %s beyond the tolerance (%s)" % (r.beyond, sampled,
                                                             "disagrees" if r.beyond == 1 else "disagree", tolerance_text)
            worst = ""
            if r.worst_excess is not None:
                index, ad, fd, excess = r.worst_excess
                worst = (" Worst element %d: AD %.4g vs FD %.4g, %.3g× the tolerance (|AD − FD| %.3g, "
                         "%.0f%% of |FD|)." % (index, ad, fd, excess, abs(ad - fd), 100 * abs(ad - fd) / max(abs(fd), 1e-30)))
        message = "FD check of `%s` FAIL: %s (%s; objective: %s).%s" % (p.name, head, numbers, objective, worst)
        if reference.backward_calls > 1:
            message += (" The program calls backward %d times before using the gradient: if state is carried between "
                        "tapes, each window's gradient ignores the others (truncation)." % reference.backward_calls)
            fix = ("record the whole horizon on one tape (or carry the adjoint of the state from one window's "
                   "tape into the previous one's backward)")
        elif r.first_nan is not None:
            fix = "remove the singular operation TW403 names (guard the division, the sqrt or the log near zero)"
        else:
            fix = ("change the launch whose adjoint is wrong: the script's own findings name it (an overwritten "
                   "array TW1xx, a cut requires_grad chain TW201, a launch check TW404 on a custom adjoint); "
                   "with none, check what the script does to `%s` outside the tape (NumPy copies, .numpy() edits)"
                   % p.name)
    tolerance = settings.atol + settings.rtol * abs(r.worst[2] if r.worst else 0.0)
    if r.noise > 0.25 * tolerance:
        message += (" Warning: evaluations are not reproducible or the objective is not smooth here (the ±eps "
                    "evaluations stray by %.3g per unit eps from the unperturbed one): random draws the harness "
                    "cannot pin, or state kept outside the script, make FD unreliable." % r.noise)
    if r.rounding_noise > 0.25 * tolerance:
        message += (" Warning: float32 rounding of the loss (|loss| ~ %.3g) may shift FD by up to %.3g; accumulate the "
                    "loss in float64 or subtract its constant part." % (reference.loss_scale, r.rounding_noise))
    if fix:
        message += " Fix: %s." % fix
    data = {"parameter": p.name, "max_abs_error": r.max_abs, "max_rel_error": r.max_rel, "ratio": r.ratio,
            "nan": r.nan, "passed": r.passed, "sampled": r.sampled, "size": r.size,
            "backward_calls": reference.backward_calls, "noise": r.noise, "noise_floor": floor,
            "verdict": r.verdict if r.nan == 0 else "fail", "nonsmooth": r.nonsmooth, "noisy": r.noisy,
            "point": r.point, "samples": r.samples}
    alloc = Location(p.path or script, p.line, 1)
    backward_lines = reference.backward_lines or loss.backward_lines  # as the script is now, edits included
    related = [Related(Location(script, line, 1), "the loss is differentiated here", "backward")
               for line in backward_lines]
    # One verdict, one finding: on the parameter, the backward calls as related locations.
    return [Finding(code=code, message=message, location=alloc, severity=codes.severity(code), related=related,
                    id="%s-%s" % (code.lower(), p.name), data=data)]


def _print_table(script, reference, results, form) -> None:
    print("Tapewatch FD check of %s (%s differences; objective: sum of %d backward loss(es), gradient as %s)"
          % (os.path.basename(script), form, reference.backward_calls,
             "consumed by the program" if reference.stopped_by == "consumption" else "left at exit"))
    header = "%-20s %10s %12s %12s %12s %5s  %s" % ("parameter", "elements", "max abs err", "max rel err",
                                                    "median AD/FD", "NaN", "result")
    print(header)
    for r in results:
        print("%-20s %10s %12.3e %12.3e %12s %5d  %s" % (
            r.param.name, "%d/%d" % (r.sampled, r.size), r.max_abs, r.max_rel,
            "%.4g" % r.ratio if r.ratio is not None else "n/a", r.nan,
            "PASS" if r.passed else "INCONCLUSIVE" if r.verdict == "inconclusive" and r.nan == 0 else "FAIL"))
    sys.stdout.flush()
