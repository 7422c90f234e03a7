"""Everything the probe checks around ``tape.backward()``.

Before the user's backward runs: kernels without adjoint on the tape
(TW405), writes made after recording (TW106), gradients summed across
optimizer steps (TW202), and with ``--check-launches`` each launch's
adjoint against finite differences (TW404).  After it: non-finite
gradients, told apart into a diverged forward (TW407) and a backward that
produced them (TW403).

Nothing here may change what the program computes.  While a check works,
the probe's other hooks stand aside (``busy``), the recording tape is
suspended and Warp's replayed warnings are muted.  Budgets are counted in
elements and launches, never in seconds, so two runs of one script say the
same thing.
"""

from __future__ import annotations

import contextlib
from typing import Callable, Optional

from ..core import facts, warp_seams
from .adjoint_disabled import DisabledAdjoint, launch_key
from .captured import CapturedChecks
from ..sensors.gradients_not_zeroed import StepsWithoutZero
from ..core.sensor import Sensor
from .launch_check import LaunchCheck
from .nonfinite import NonfiniteCheck, grad_arrays, grads_arg, loss_arg, reseedable
from ..core.sites import Site

# The finite check after each backward reads every gradient array once.  While
# the elements read stay under this budget every backward is checked; past it,
# only the 2^k-th backward of each call site (deterministic sampling).
FINITE_BUDGET_ELEMENTS = 1 << 28


class BackwardChecks:
    # TW202 gradients summed across steps, TW403/TW407 non-finite gradients, TW404 launch adjoints, TW405
    # launches without adjoint (what the sensors report is in their own ``CODES``)
    CODES = ("TW202", "TW403", "TW404", "TW405", "TW407")

    def __init__(self, wp, tracker, emit: Callable[..., None], check_launches: bool = False):
        self.wp = wp
        self.tracker = tracker
        self.emit = emit
        self.check_launches = check_launches
        self.busy = False  # our own replay/check runs: the other hooks stand aside
        self.real_launch = warp_seams.real_launch(wp)  # captured before any wrapper
        self.disabled = DisabledAdjoint(wp, tracker)
        self.launches = LaunchCheck(wp, tracker, self)
        self.nonfinite = NonfiniteCheck(wp, tracker, self)
        self.steps_without_zero = StepsWithoutZero(wp, tracker)  # TW202's first trigger
        self.replays = CapturedChecks(wp, tracker, self)
        self._elements_read = 0
        self._sampled_out = 0
        self._calls: dict = {}

    # ------------------------------------------------------------- entry points
    def before_backward(self, tape, args, kwargs) -> dict:
        registry = self.tracker.registry
        site = Site.here()
        pending: dict = {"site": site}
        state = facts.tape_state(tape)
        capturing = bool(registry.attempt("checking for a graph capture", lambda: self.tracker.capturing, False))
        if state is not None:
            state.backward_site = site
            # Sensors first: a NumPy-view write is explained by a Warp write still pending here.
            # During a graph capture no value may be read back (it would break the capture): a sensor
            # that measures values is counted as not measured (``warp_seams.host_values``).
            for hook in self.tracker.bus.listeners(Sensor.before_backward):
                registry.attempt("checking before backward() (%s)" % _named(hook.__self__),
                                 lambda: hook(tape, state, site, args, kwargs))
        if state is not None and state.pending_writes:
            # Heard after every before_backward: a NumPy-view write is explained by a write still pending.
            self.tracker.bus.tell(Sensor.on_pending_writes, "reporting writes made before backward()", state, site,
                                  state.pending_writes)
            state.pending_writes = []
        records = self.records(tape)
        registry.attempt("checking kernels without adjoint",
                         lambda: self.disabled.check(tape, records, _seeds(args, kwargs)))
        if capturing:
            # Values exist only once the graph runs: the value checks wait for its first replay.
            pending["capturing"] = True
            return pending
        if state is not None:
            registry.attempt("measuring whether overwrites change the gradient",
                             lambda: self.tracker.read_replay.check(tape, state, self))
        pending["leaves"] = registry.attempt("checking gradient accumulation",
                                             lambda: self.steps_without_zero.before(tape), None)
        if self.check_launches:
            registry.attempt("checking launch adjoints", lambda: self.launches.check_tape(tape, self.signature(tape)))
        pending["finite"] = self._sample(tape, site)
        if pending["finite"] and not reseedable(args, kwargs):
            # Seeded outside backward(): the replay needs the seed back (None: too large to copy).
            pending["snapshot"] = registry.attempt("copying the backward seed",
                                                   lambda: self.nonfinite.seed_snapshot(tape, args, kwargs))
        return pending

    def after_backward(self, tape, args, kwargs, orig_backward, pending: dict) -> None:
        registry = self.tracker.registry
        if pending.get("capturing"):
            registry.attempt("keeping the checks for the graph's first replay", lambda: self.replays.defer(
                tape, args, kwargs, orig_backward, pending["site"], self.signature(tape)))
            return
        registry.attempt("checking gradient accumulation",
                         lambda: self.steps_without_zero.after(tape, pending.get("leaves") or []))
        state = facts.tape_state(tape)
        if state is not None:
            self.tracker.bus.tell(Sensor.after_backward, "checking after backward()", tape, state)
        if not pending.get("finite"):
            return
        registry.attempt("checking gradients for NaN/Inf", lambda: self.nonfinite.after_backward(
            tape, args, kwargs, orig_backward, pending, self.signature(tape)))

    def on_adjoint_launch(self, kernel, args, kwargs) -> None:
        """The program launched a kernel's adjoint itself (``wp.launch(..., adjoint=True)``, no tape): the
        kernel's adjoint is checked as a taped launch's is, at the forward arguments the call passes."""
        if self.check_launches:
            self.launches.check_adjoint_launch(kernel, args, kwargs)

    def at_exit(self) -> None:
        self.replays.at_exit()
        if self.check_launches:
            self.emit("launch_checks", **self.launches.summary())
        if self._sampled_out:
            self.emit("finite_check_budget", backward_calls_not_checked=self._sampled_out)

    # ------------------------------------------------------------- plumbing
    @contextlib.contextmanager
    def quiet(self, orig_backward=None):
        """Our own work: other hooks stand aside, nothing is recorded, Warp's replayed warnings are muted."""
        if self.tracker.capturing:
            # Anything the checks launch, copy or read would join the user's graph or break it.
            raise warp_seams.CaptureInProgress("the probe's own check inside a graph capture")
        was_busy, self.busy = self.busy, True
        try:
            with warp_seams.suspended_tape(self.wp), warp_seams.muted_backward_warnings(orig_backward):
                yield
        finally:
            self.busy = was_busy

    def _sample(self, tape, site: Site) -> bool:
        """Deterministic: every backward while under budget, then the 2^k-th of each call site."""
        size = sum(g.size for g in grad_arrays(self.wp, tape))
        key = site.key()
        n = self._calls[key] = self._calls.get(key, 0) + 1
        if self._elements_read + size <= FINITE_BUDGET_ELEMENTS or (n & (n - 1)) == 0:
            self._elements_read += size
            return True
        self._sampled_out += 1
        return False

    def records(self, tape) -> dict:
        state = facts.tape_state(tape)
        if state is None:
            return {}
        return {r.tape_index: r for r in state.launches}

    def signature(self, tape) -> tuple:
        records = self.records(tape)
        out = []
        for item in warp_seams.tape_items(tape):
            if item.launch is None:
                out.append(("func", getattr(item.func, "__qualname__", "")))
            else:
                out.append((item.launch.kernel.key, launch_key(item.launch, records.get(item.index))))
        return tuple(out)


def _seeds(args, kwargs) -> Optional[list]:
    """The arrays backward() is seeded with: ``loss``, or the keys of ``grads``; None when it is seeded
    another way (gradients set by hand before a bare ``backward()``)."""
    grads = grads_arg(args, kwargs)
    if grads:
        return list(grads)
    loss = loss_arg(args, kwargs)
    return [loss] if loss is not None else None


def _named(sensor) -> str:
    """What a sensor checks, for "not measured" and TW910 messages: its codes, else its class."""
    found = getattr(sensor, "CODES", None)
    return "/".join(found) if found else type(sensor).__name__
