"""TW208 (hint): a taped iteration stopped while its iterates were still moving.

A solver run for a fixed number of iterations on the tape (Jacobi,
Gauss-Seidel, a relaxation) differentiates the *truncated* map x_n(θ), not
the equilibrium x*(θ) the model means.  For a contraction with rate r the
two gradients differ by about r^n, and the change of the last iterate
relative to the first is about r^n too: that ratio is measured here.
Finite differences of the program agree with its tape (both see the
truncated map), so an FD check can never reveal this; only the iterates can.

Seen at run time as a chain: the same kernel launched again and again on
one tape, each launch reading the array the previous one wrote (fresh
arrays or a ping-pong pair), or the same short cycle of kernels (a Jacobi
sweep as a gather then an update, each reading what the one before wrote),
with the change between consecutive outputs
shrinking (a contraction: a simulation's steps do not shrink steadily, and a
kernel that takes or uses a time step, ``dt``, or is named for one,
``step``/``integrate``/``advect``..., is taken for a simulation, not a
solver).  Reported when the chain ran at least ``MIN_STEPS``
times, contracted, and the last change is still more than ``STILL_MOVING``
of the first.  The values are read on the host (free on the CPU, a copy on
a GPU), only for arrays up to ``MAX_ELEMENTS``, and only at some steps: every
one of the first ``DENSE`` and then at powers of two, plus the last before
``backward()`` (a pressure solve of 50 Jacobi sweeps per frame is measured
about 10 times, not 50: each measurement is two host copies).
"""

from __future__ import annotations

import re
from typing import Dict, List, Optional, Tuple

from ... import codes
from ...model import Finding, Related
from ..core import source_patterns, warp_seams
from ..core.records import differentiable
from ..core.sensor import PerTape, Sensor

MIN_STEPS = 5  # launches in the chain
STILL_MOVING = 1e-2  # last change / first change above which the gradient error is > ~1%
CONTRACTING = 0.5  # the last change must be below this fraction of the first ...
STEADY = 0.8  # ... and this share of the successive changes must shrink
NOISE = 1e-6  # changes below this fraction of the iterate's size are rounding, not movement
MAX_ELEMENTS = 1 << 20
DENSE = 4  # steps measured one by one before the measurements thin out to powers of two
MAX_CYCLE = 3  # other kernels an iteration may launch between two launches of the chain's own kernel
# A stationary iteration (warm-started at its fixed point) is replayed from a perturbed start, on copies:
MAX_REPLAYS = 8  # per run
MAX_REPLAY_STEPS = 4096  # applications of its kernel per replay
PERTURBATION = 1e-3  # of the iterate's size
SEED = 20261205


def _sampled(step: int) -> bool:
    """Is the change made by the ``step``-th launch of a chain (1-based) measured as the chain goes?"""
    return step <= DENSE or step & (step - 1) == 0


class Chain:
    __slots__ = ("kernel", "record", "count", "prev", "last", "deltas", "steps", "scale", "broken", "tips",
                 "cycle", "named_step", "slots", "perturbed")

    def __init__(self, kernel, record, out):
        self.kernel = kernel  # the chain's own kernel: each of its launches makes an iterate
        self.record = record  # the first launch: where the loop's launch line is
        self.count = 1
        self.prev = None  # the output before the last one
        self.last = out
        self.deltas: List[float] = []
        self.steps: List[int] = []  # which change each delta measured (1: the second launch's)
        self.scale = 0.0
        self.broken = False  # something else wrote ``prev``: its values are not an iterate any more
        # What the iteration's next launch may read: the last iterate, and what other kernels made from it
        # since, each with the kernels that led there (a sweep's ``gather`` output: ``(gather,)``).
        self.tips: Dict[int, Tuple[object, tuple]] = {id(out): (out, ())}
        self.cycle: Optional[tuple] = None  # the other kernels of one iteration, once one was seen
        self.named_step = False  # the kernel's name says it steps, and no time step says it simulates
        self.slots: Optional[tuple] = None  # (position read, position written) of the iterate in its launch
        self.perturbed: Optional[tuple] = None  # (first change, last change) of a perturbed replay

    def follows(self, kernel, path: tuple, other_ok) -> bool:
        """Does a launch of ``kernel`` that read a tip reached through ``path`` continue the iteration?"""
        if kernel is self.kernel:
            return path == self.cycle if self.cycle is not None else True
        longer = path + (kernel,)
        if self.cycle is not None:
            return self.cycle[:len(longer)] == longer
        return len(longer) <= MAX_CYCLE and other_ok(kernel)


class _Chains:
    """A tape's chains, indexed by their tips and previous iterate (by identity)."""

    def __init__(self) -> None:
        self.all: List[Chain] = []
        self.by_tip: Dict[int, Chain] = {}
        self.by_prev: Dict[int, Chain] = {}

    def start(self, chain: Chain) -> None:
        self.all.append(chain)
        self.by_tip[id(chain.last)] = chain

    def advance(self, chain: Chain, out, path: tuple) -> None:
        """The chain's own kernel made a new iterate from a tip reached through ``path``."""
        for key in chain.tips:
            if self.by_tip.get(key) is chain:
                del self.by_tip[key]
        if chain.prev is not None and self.by_prev.get(id(chain.prev)) is chain:
            del self.by_prev[id(chain.prev)]
        if chain.cycle is None:
            chain.cycle = path
        chain.prev, chain.last, chain.count, chain.broken = chain.last, out, chain.count + 1, False
        chain.tips = {id(out): (out, ())}
        self.by_prev[id(chain.prev)] = chain
        self.by_tip[id(out)] = chain

    def extend(self, chain: Chain, out, path: tuple) -> None:
        """Another kernel of the iteration made ``out`` from a tip: ``out`` is a tip too."""
        chain.tips[id(out)] = (out, path)
        self.by_tip[id(out)] = chain


class FixedPoint(Sensor):
    CODES = ("TW208",)

    def __init__(self, tracker):
        self.tracker = tracker
        self._chains: PerTape[_Chains] = PerTape(_Chains)
        self._steppers: Dict[int, tuple] = {}  # id(kernel) -> (kernel, ``_stepper``), asked once
        self._replays = 0  # perturbed replays of stationary iterations, this run

    def _stepper(self, kernel) -> Optional[str]:
        known = self._steppers.get(id(kernel))
        if known is None or known[0] is not kernel:
            known = self._steppers[id(kernel)] = (kernel, _stepper(kernel))
        return known[1]

    def _solver_step(self, kernel) -> bool:
        """Neither takes a time step nor is named for one (``_stepper``), decided once per kernel."""
        return self._stepper(kernel) is None

    def on_launch(self, state, record) -> None:
        chains = self._chains.of(state)
        reads = [a for a in record.accesses if a.read and differentiable(a.array)]
        writes = [a for a in record.accesses if a.write and differentiable(a.array)]
        # Looked up by the arrays a launch touches, not by scanning every chain: a script with
        # thousands of unrelated same-shape launches must not pay for each one at every launch.
        continued: Optional[Chain] = None
        path: tuple = ()
        tip = None
        for a in reads:
            chain = chains.by_tip.get(id(a.array))
            held = chain.tips.get(id(a.array)) if chain is not None else None
            if chain is not None and held is not None and held[0] is a.array and \
                    chain.follows(record.kernel, held[1], self._solver_step) and \
                    (continued is None or len(held[1]) > len(path)):
                continued, path, tip = chain, held[1], a.array
        for a in writes:
            chain = chains.by_prev.get(id(a.array))
            if chain is not None and chain is not continued:
                chain.broken = True  # another launch overwrote the previous iterate
        if continued is not None:
            chain = continued
            own = record.kernel is chain.kernel
            base = chain.last if own else tip
            out = next((a.array for a in writes if _alike(a.array, base) and a.array is not base
                        and id(a.array) not in chain.tips), None)
            if out is None:
                return
            if not own:
                chains.extend(chain, out, path + (record.kernel,))
                return
            if chain.prev is not None and not chain.broken and _sampled(chain.count - 1):
                self._measure(chain)
            chains.advance(chain, out, path)
            return
        stepper = self._stepper(record.kernel)
        if stepper == "dt":
            return  # a simulation's steps settle too; they are not a truncated solve
        for w in writes:
            if any(_alike(r.array, w.array) and r.array is not w.array for r in reads):
                chain = Chain(record.kernel, record, w.array)
                read = next(r for r in reads if _alike(r.array, w.array) and r.array is not w.array)
                chain.slots = (read.pos, w.pos) if not read.field and not w.field else None
                # ``mix_step``: a solver's step only if its loop's count is named for one (``N_ITER``)
                chain.named_step = stepper == "name"
                chains.start(chain)
                return

    def before_backward(self, tape, state, site=None, args=(), kwargs=None) -> None:
        chains = self._chains.take(state)
        for chain in chains.all if chains is not None else ():
            # The last change (measured at no launch: none came after it) is always measured.
            if chain.prev is not None and not chain.broken:
                self._measure(chain)
            if chain.count < MIN_STEPS:
                continue
            if _still_moving(chain):
                self._report(chain)
            elif _stationary(chain) and not self.tracker.capturing and self._replays < MAX_REPLAYS:
                # Started at its own fixed point (a warm start from a solution computed elsewhere): the values
                # never move, but the derivative of the iterates still converges at the iteration's rate.
                self._replays += 1
                chain.perturbed = self.tracker.registry.attempt(
                    "replaying an iteration from a perturbed start", lambda: _perturbed_replay(self.tracker.wp, tape,
                                                                                              chain))
                if chain.perturbed is not None and _perturbation_remains(chain.perturbed):
                    self._report(chain)

    def _measure(self, chain: Chain) -> None:
        delta = self.tracker.registry.attempt("measuring an iteration's change",
                                              lambda: _max_change(chain.last, chain.prev))
        if delta is not None:
            chain.deltas.append(delta[0])
            chain.steps.append(chain.count - 1)
            chain.scale = delta[1]

    def _report(self, chain: Chain) -> None:
        registry = self.tracker.registry
        record = chain.record
        key = ("TW208", record.site.key(), record.kernel_name)
        if registry.bump(key):
            return
        if chain.named_step and registry.attempt(
                "finding where the iteration count is set",
                lambda: source_patterns.iteration_count(record.site, chain.count, _COUNT.search)) is None:
            return  # named for a step, and its loop's count for none of a solver's: a simulation settling
        if chain.perturbed is not None:
            first, last = chain.perturbed
            rate = (last / first) ** (1.0 / max(chain.count - 1, 1))
        else:
            first, last = chain.deltas[0], chain.deltas[-1]
            rate = (last / first) ** (1.0 / max(chain.steps[-1] - chain.steps[0], 1))

        others = [warp_seams.kernel_name(k) for k in chain.cycle or ()]
        what = "`%s`" % record.kernel_name + (" (with %s)" % ", ".join("`%s`" % n for n in others) if others else "")
        each = "each launch reading the previous one's output" if not others else \
            "each iteration reading the previous one's output"

        def build() -> Finding:
            if chain.perturbed is not None:
                message = (
                    "%s was applied %d times in a row on this tape, %s, starting at its own fixed point (a warm "
                    "start: the iterates never moved). Their derivative still converges only at the iteration's "
                    "rate: replayed from a slightly perturbed start, the last step still changed the iterates by "
                    "%.3g, %.2g%% of the first step's %.3g (each step shrinks the change by about %.2f×). The "
                    "gradient is that of the %d-step truncated iteration, short of the converged solution's by "
                    "about that share; finite differences of this program agree with its tape, so an FD check "
                    "cannot reveal it. Iterate until a perturbation dies out (about log(tolerance) / log(%.2f) "
                    "steps), or differentiate the fixed point implicitly."
                    % (what, chain.count, each, last, 100.0 * last / first, first, rate, chain.count, rate))
            else:
                message = (
                    "%s was applied %d times in a row on this tape, %s, and its iterates were still moving at "
                    "the last one: the last step changed them by "
                    "%.3g, %.2g%% of the first measured step's %.3g (each step shrinks the change by about "
                    "%.2f×). If this is an iterative solve, the gradient is that of the %d-step truncated "
                    "iteration, not of the converged solution, and the slower the convergence the larger the "
                    "gap; finite differences of this program agree with its tape, so an FD check cannot reveal "
                    "it. Iterate until the change is negligible (and compare the gradient), or differentiate the "
                    "fixed point implicitly."
                    % (what, chain.count, each, last, 100.0 * last / first, first, rate, chain.count))
            launch = record.location()
            # The loop that repeats the step is where the iteration count is decided: the line to change,
            # or the statement that sets its count (``N_SWEEP = 15`` for ``range(N_SWEEP)``).
            loop = registry.attempt("finding the loop that repeats a step", lambda: source_patterns.enclosing_loop(record.site))
            count = registry.attempt("finding where the iteration count is set",
                                     lambda: source_patterns.iteration_count(record.site, chain.count,
                                                                             _COUNT.search)) \
                if loop is not None else None
            related = []
            if count is not None:
                related.append(Related(loop, "the loop that runs `%s` iterations" % count[1], "loop"))
            if launch is not None and loop is not None:
                related.append(Related(launch, "`%s` launched here, once per iteration" % record.kernel_name,
                                       "launch"))
            return Finding(code="TW208", message=message, location=count[0] if count else loop or launch,
                           related=related,
                           severity=codes.severity("TW208"),
                           data={"kernel": record.kernel_name, "steps": chain.count, "first_change": first,
                                 "last_change": last, "ratio": last / first, "launch": record.index,
                                 "warm_start": chain.perturbed is not None})

        registry.report(key, build, launches=[record.index])


_TIME_STEP = re.compile(r"\b(dt|d_t|delta_t|time_?step|sim_dt|frame_dt|substep_dt|step_size)\b", re.I)
_SIMULATION = re.compile(r"step|integrat|simulat|advance|advect|euler|verlet|rollout|dynamics|physics", re.I)
# A step of a solver, by name (``power_step``, ``jacobi_step``, ``relax_sweep``): a step, but not of time.
_SOLVER = re.compile(r"power|jacobi|gauss|seidel|sweep|relax|iterat|solve|fixed|newton|picard|pagerank|contract",
                     re.I)


# A solver's iteration count, by name (``N_SWEEP``, ``n_iters``, ``JACOBI_SWEEPS``), not a trajectory's length
# (``STEPS``, ``DAYS``): changing the first converges the solve, changing the second changes the model.
_COUNT = re.compile(r"sweep|iter|jacobi|gauss|seidel|relax|solve|newton|picard|fixed", re.I)


def _stepper(kernel) -> Optional[str]:
    """Whether a kernel integrates a simulation (its steps settle too, and that is not a truncated solve):
    ``"dt"`` when it takes or uses a time step (``dt``, ``DT``...), ``"name"`` when only its name says it
    steps (``mix_step`` may be a solver's step as well as a time step), None for neither."""
    try:
        if any(_TIME_STEP.fullmatch(p.label) for p in warp_seams.kernel_params(kernel)) or \
                _TIME_STEP.search(warp_seams.kernel_source(kernel) or ""):
            return "dt"
        name = kernel.key or ""
        return "name" if _SIMULATION.search(name) and not _SOLVER.search(name) else None
    except Exception:
        return None


def _alike(a, b) -> bool:
    return a.shape == b.shape and a.dtype == b.dtype and a.device == b.device


def _still_moving(chain: Chain) -> bool:
    deltas = chain.deltas
    if len(deltas) < MIN_STEPS - 2 or deltas[0] <= 0.0:
        return False
    first, last = deltas[0], deltas[-1]
    shrinking = sum(1 for a, b in zip(deltas, deltas[1:]) if b <= a) / (len(deltas) - 1)
    return (last <= CONTRACTING * first and shrinking >= STEADY and last > STILL_MOVING * first
            and last > NOISE * max(chain.scale, 1e-30))


def _stationary(chain: Chain) -> bool:
    """The iterates did not move at all (every measured change is rounding of their size)."""
    return bool(chain.deltas) and chain.scale > 0.0 and chain.slots is not None and not chain.cycle and \
        max(chain.deltas) <= NOISE * chain.scale


def _perturbation_remains(perturbed: tuple) -> bool:
    first, last = perturbed
    return first > 0.0 and last > STILL_MOVING * first and last <= CONTRACTING * first


def _perturbed_replay(wp, tape, chain: Chain) -> Optional[tuple]:
    """(first change, last change) of the chain's kernel applied ``chain.count`` times, on private copies, from
    its starting iterate plus a small random perturbation: each application's change from the fixed point is
    the perturbation carried forward, which shrinks by the iteration's rate per step."""
    import numpy as np  # noqa: PLC0415

    from ..backward.finite_diff import Unsupported, private_copies  # noqa: PLC0415

    entry = next((item.launch for item in warp_seams.tape_launches(tape)
                  if item.index == chain.record.tape_index), None)
    if entry is None or entry.kernel is not chain.kernel or chain.count > MAX_REPLAY_STEPS or chain.slots is None:
        return None
    read_pos, write_pos = chain.slots
    try:
        cargs, slots, _ = private_copies(wp, entry.args)
    except Unsupported:
        return None
    x_in, x_out = slots.get((read_pos, "")), slots.get((write_pos, ""))
    if x_in is None or x_out is None or x_in is x_out or x_in.size > MAX_ELEMENTS:
        return None
    fixed = warp_seams.host_values(x_in).astype(np.float64)
    scale = max(float(np.max(np.abs(fixed))), 1e-30)
    rng = np.random.default_rng(SEED)
    x_in.assign((fixed + PERTURBATION * scale * rng.standard_normal(fixed.shape)).astype(x_in.numpy().dtype))
    n_in = len(entry.inputs)
    launch = warp_seams.real_launch(wp)
    changes = []
    for _ in range(chain.count):
        launch(entry.kernel, dim=entry.dim, inputs=cargs[:n_in], outputs=cargs[n_in:], device=entry.device,
               record_tape=False, max_blocks=entry.max_blocks,
               block_dim=warp_seams.resolved_block_dim(wp, entry.block_dim))
        out = warp_seams.host_values(x_out).astype(np.float64)
        changes.append(float(np.max(np.abs(out - warp_seams.host_values(x_in).astype(np.float64)))))
        x_in.assign(x_out)
    if not all(np.isfinite(changes)):
        return None
    return changes[0], changes[-1]


def _max_change(new, old) -> Optional[tuple]:
    """(max |new - old|, max |new|) on the host; None for arrays too large to read."""
    import numpy as np  # noqa: PLC0415

    if new.size > MAX_ELEMENTS or not new.is_contiguous or not old.is_contiguous:
        return None
    a = warp_seams.host_values(new)
    b = warp_seams.host_values(old)
    with np.errstate(all="ignore"):
        # In the arrays' own precision (two passes, no float64 copies); a NaN or Inf anywhere shows in a max.
        change, size = float(np.max(np.abs(a - b))), float(np.max(np.abs(a)))
    if not (np.isfinite(change) and np.isfinite(size)):
        return None
    return change, size
