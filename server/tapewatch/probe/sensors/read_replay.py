"""Whether an overwrite really changes a gradient, measured by replaying the reader's adjoint.

An overwrite corrupts a gradient only through values the reader's adjoint
uses.  The static test (``kernel_access.adjoint_uses``) can only say that a
reader *may* use them: a clamp, a ReLU or a min/max uses no more than which
side of a bound each value lies on, and whether the new values change that
is a fact of the run.  So it is measured:

- just before a write lands on an array that an earlier taped launch read
  (the launch and copy hooks run before Warp does the work), the values
  that launch read are copied, once per (read, array);
- at the tape's ``backward()``, before it runs, the reader's adjoint is run
  twice on private copies of its arguments, under the same seeded random
  cotangents: once with the values it read, once with the values its
  adjoint is about to see.

Identical gradients for every overwritten read of a finding turn it into
information ("measured"); different ones keep it a warning and say by how
much.  A read that could not be measured (budget, arguments that cannot be
copied) leaves the finding as the static analysis judged it.  Budgets are
counted in elements and replays, so two runs say the same thing.
"""

from __future__ import annotations

import copy
from typing import Any, Dict, List, Optional, Tuple

from ..core import warp_seams
from .overwrites import harmless_reason
from ..core.sensor import PerTape
from ..backward.finite_diff import Unsupported, _Gradients, private_copies

MAX_SNAPSHOT_ELEMENTS = 1 << 24  # values kept per tape (64 MiB of float32)
MAX_READS_PER_FINDING = 256  # overwritten reads measured for one finding per tape
MAX_REPLAYS = 256  # pairs of adjoint replays per run (each copies the launch's arrays)
MAX_REPLAY_ELEMENTS = 1 << 28  # array elements copied for replays per run
SEED = 20261201
RTOL = 1e-6  # gradients closer than this (relative to their size) are the same

SAME, DIFFERS, UNMEASURED = "same", "differs", "unmeasured"


def _reader_key(entry) -> Tuple[int, int]:
    return entry.record.index, id(entry.array)


def _statically_harmless(entry) -> bool:
    """The kernel's source already shows the reader's adjoint never uses the values (overwrites)."""
    try:
        return harmless_reason(entry) is not None
    except Exception:
        return False  # cannot tell: measure it


class _Kept:
    """What one tape's readers read, copied before a write overwrote it, and the findings waiting on it."""

    __slots__ = ("values", "elements", "copies", "replays")

    def __init__(self) -> None:
        self.values: Dict[Any, Any] = {}  # reader key -> its device snapshot (None: not measured)
        self.elements = 0  # elements copied so far (bounded by MAX_SNAPSHOT_ELEMENTS)
        self.copies = 0
        self.replays: Dict[Any, Dict[int, Any]] = {}  # finding key -> {id(reader): reader} to replay


class ReadReplay:
    def __init__(self, tracker):
        self.tracker = tracker
        self._kept: PerTape[_Kept] = PerTape(_Kept)
        self.replays = 0
        self.replayed_elements = 0
        # per finding key, over the whole run: the verdicts so far and the finding as first judged
        self._verdicts: Dict[Any, set] = {}
        self._static: Dict[Any, Any] = {}

    # -- before a write: keep what the readers read ---------------------------------
    def before_write(self, state, arr) -> None:
        """``arr`` is about to be overwritten: copy what each reader on ``state`` read, once."""
        if not state.reads or self.replays >= MAX_REPLAYS:
            return  # nothing read yet, or nothing more will be replayed this run
        kept_here = self._kept.of(state)
        values = kept_here.values
        for entry, _alias in self.tracker.readers_of(state, arr):
            key = _reader_key(entry)
            if key in values or _statically_harmless(entry):
                continue
            if any(a.write and a.array is entry.array for a in entry.record.accesses):
                values[key] = None  # the reader wrote it too: what it read is gone already
                continue
            size = int(getattr(entry.array, "size", 0) or 0)
            if kept_here.elements + size > MAX_SNAPSHOT_ELEMENTS or self.replays + kept_here.copies >= MAX_REPLAYS:
                # Over budget (elements, or more reads than the run may still replay, each replay
                # measuring one of them): this read stays unmeasured.  (Inside a graph capture the
                # copy below raises CaptureInProgress: counted as not measured.)
                values[key] = None
                continue
            values[key] = warp_seams.device_snapshot(self.tracker.wp, entry.array)
            kept_here.elements += size
            kept_here.copies += 1

    # -- a finding that may be harmless --------------------------------------------
    def register(self, state, key, readers) -> None:
        """The finding ``key`` overwrote what ``readers`` (``[(entry, alias)]``) read on ``state``."""
        if state is None:
            return
        kept_here = self._kept.of(state)
        pending = kept_here.replays.setdefault(key, {})
        values = kept_here.values
        for entry, _alias in readers:
            if id(entry) in pending:
                continue
            # Not copied by before_write: harmless (nothing to measure), or never seen (unmeasured).
            if _reader_key(entry) in values or not _statically_harmless(entry):
                pending[id(entry)] = entry

    # -- at backward(): measure ----------------------------------------------------
    def check(self, tape, state, checks) -> None:
        kept_here = self._kept.take(state)
        if kept_here is None or not kept_here.replays:
            return
        pending, values = kept_here.replays, kept_here.values
        registry = self.tracker.registry
        launches = {item.index: item.launch for item in warp_seams.tape_launches(tape)}
        for key, registered in pending.items():
            entries = list(registered.values())
            finding = registry.get(key)
            if finding is None or not entries:
                continue
            verdict, largest, reader = SAME, 0.0, None
            for n, entry in enumerate(entries):
                if n >= MAX_READS_PER_FINDING:
                    verdict = UNMEASURED if verdict == SAME else verdict
                    break
                read = values.get(_reader_key(entry))
                launch = launches.get(entry.record.tape_index)
                if read is None or launch is None or launch.kernel is not entry.record.kernel \
                        or self.replays >= MAX_REPLAYS or self.replayed_elements >= MAX_REPLAY_ELEMENTS:
                    verdict = UNMEASURED if verdict == SAME else verdict
                    continue
                self.replays += 1
                self.replayed_elements += sum(int(getattr(a, "size", 0) or 0) for a in launch.args)
                try:
                    diff = self._difference(checks, launch, entry, read)
                except Exception:  # a launch that cannot be replayed here: the static verdict stands
                    diff = None
                varied = (entry.record.kernel, entry.record.site.key(), entry.access.pos,
                          entry.access.field) in state.varied_repeats
                if diff is None or (diff == 0.0 and varied):
                    # (the same gradients for the last repeat of a loop that reads other elements at each
                    # step say nothing of the other steps)
                    verdict = UNMEASURED if verdict == SAME else verdict
                elif diff > 0.0:
                    verdict = DIFFERS
                    if diff >= largest:
                        largest, reader = diff, entry
            self._apply(key, finding, verdict, largest, reader or entries[0])

    def _apply(self, key, finding, verdict: str, largest: float, entry) -> None:
        registry = self.tracker.registry
        seen = self._verdicts.setdefault(key, set())
        seen.add(verdict)
        data = finding.data or {}
        name = entry.record.kernel_name
        if seen == {SAME}:
            if finding.severity == "information" or data.get("gradient_versions_mix"):
                return  # (values replay the same; the gradients of the array's versions still mix)
            self._static[key] = finding
            reason = ("replaying `%s`'s adjoint with the values it read and with the overwritten ones gives the "
                      "same gradients (measured before backward())" % name)
            revised = copy.copy(finding)
            revised.severity = "information"
            revised.message = finding.message + " Harmless here: %s." % reason
            revised.data = dict(data, harmless=reason, harmless_measured=True)
            registry.revise(key, revised)
        elif verdict == DIFFERS:
            base = self._static.pop(key, None) or finding
            if data.get("measured_difference") is not None and finding.severity != "information":
                return
            revised = copy.copy(base)
            revised.severity = base.severity if base.severity != "information" else "warning"
            revised.message = base.message + (
                " Measured before backward(): with the values it read, `%s`'s adjoint gives gradients that "
                "differ by up to %.3g (relative)." % (name, largest))
            revised.data = dict(base.data or {}, measured_difference=largest)
            revised.data.pop("harmless", None)
            revised.data.pop("harmless_measured", None)
            registry.revise(key, revised)

    def _difference(self, checks, launch, entry, read) -> Optional[float]:
        """Largest relative difference between the reader's gradients with the values it read and now."""
        import numpy as np  # noqa: PLC0415

        wp = self.tracker.wp
        try:
            cargs, slots, copies = private_copies(wp, launch.args)
        except Unsupported:
            return None
        target = copies.get(id(entry.array))
        if target is None:
            return None
        writes = [slots[(a.pos, a.field)] for a in entry.record.accesses
                  if a.write and (a.pos, a.field) in slots and slots[(a.pos, a.field)].requires_grad]
        if not writes:
            return None
        now = {id(c): warp_seams.host_values(c).copy() for c in copies.values()}
        if tuple(read.shape) != tuple(target.shape) or read.dtype != target.dtype:
            return None
        n_in = len(launch.inputs)
        holder = _Gradients(wp)
        block_dim = warp_seams.resolved_block_dim(wp, launch.block_dim)

        def gradients(replaced) -> List[Any]:
            for c in copies.values():
                c.assign(now[id(c)])
                if c.grad is not None:
                    c.grad.zero_()
            if replaced is not None:
                target.assign(replaced)
            rng = np.random.default_rng(SEED)
            for c in writes:
                c.grad.assign(rng.standard_normal(now[id(c)].shape).astype(now[id(c)].dtype))
            with checks.quiet():
                checks.real_launch(
                    launch.kernel, dim=launch.dim, inputs=cargs[:n_in], outputs=cargs[n_in:],
                    adj_inputs=[warp_seams.get_adjoint(wp, holder, c) for c in cargs[:n_in]],
                    adj_outputs=[warp_seams.get_adjoint(wp, holder, c) for c in cargs[n_in:]],
                    device=launch.device, adjoint=True, record_tape=False, max_blocks=launch.max_blocks,
                    block_dim=block_dim)
            return [warp_seams.host_values(c.grad).astype(np.float64).copy() for c in copies.values() if c.grad is not None]

        current = gradients(None)
        before = gradients(read)
        for c in copies.values():  # leave the copies as they were (they are dropped anyway)
            c.assign(now[id(c)])
        worst = 0.0
        with np.errstate(all="ignore"):
            for a, b in zip(current, before):
                if np.array_equal(a, b, equal_nan=True):
                    continue
                finite = np.isfinite(a)
                if not np.array_equal(finite, np.isfinite(b)):
                    return float("inf")  # NaN/Inf in one replay only
                a, b = a[finite], b[finite]
                scale = max(float(np.max(np.abs(a), initial=0.0)), float(np.max(np.abs(b), initial=0.0)), 1e-30)
                rel = float(np.max(np.abs(a - b), initial=0.0)) / scale
                if rel > RTOL:
                    worst = max(worst, rel)
        return worst
