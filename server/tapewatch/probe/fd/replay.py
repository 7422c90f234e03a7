"""Re-running the user's script as a function of its parameters.

The harness never re-implements the pipeline: each evaluation runs the
user's script again, in this process (kernels stay loaded, so a replay costs
what the script's own work costs), with hooks that

- find each parameter at its allocation site (file and line, the n-th array
  allocated there) and, for a finite-difference evaluation, overwrite its
  values right after allocation;
- capture the loss at every ``tape.backward`` (the objective is the sum over
  all of them: the full horizon, not one window) and, for FD evaluations,
  skip the backward pass itself;
- stop at the moment the program *consumes* a parameter's gradient (user
  code reads ``.grad`` after a backward): that gradient is what the
  optimizer would use, and it is compared with FD;
- pin every random draw (``random``, NumPy's global state and unseeded
  ``default_rng()``), so each evaluation replays the same noise.
"""

from __future__ import annotations

import contextlib
import io
import os
import random
import runpy
import sys
import threading
from typing import Any, Dict, List, Optional, Sequence, Set

from ..core import patches, user_code


class StopReplay(BaseException):
    """Raised at the consumption point; a BaseException so ``except Exception`` in user code can't swallow it."""


class ReplayError(Exception):
    pass


class ParamSite:
    """Where a parameter is allocated: the script's line, and which allocation there."""

    def __init__(self, name: str, line: int, path: Optional[str] = None, occurrence: Optional[int] = None):
        self.name = name
        self.line = line
        self.path = path
        self.occurrence = occurrence  # None: resolved by which array's gradient is consumed
        self.stale = False  # the script no longer assigns this name anywhere

    def __repr__(self):
        return "ParamSite(%r, line=%d)" % (self.name, self.line)


def resolve_line(path: str, name: str, line: int) -> Optional[int]:
    """The allocation line of ``name`` now: the recorded line is a hint, the name is the key.

    Lines inserted above the allocation since the harness was written move it; the statement that
    assigns ``name`` (or its last attribute, ``self.stiffness`` for ``model.stiffness``) is found
    again, preferring one with ``requires_grad``.  None when the name is assigned nowhere (the
    harness then says what to regenerate).
    """
    import linecache  # noqa: PLC0415
    import re  # noqa: PLC0415

    lines = linecache.getlines(path)
    attr = name.rsplit(".", 1)[-1].split("[", 1)[0]
    # ``name = ...`` or ``obj.name = ...`` (``name: T = ...``) as a statement of its own.
    assigns = re.compile(r"^\s*(?:[\w\[\].]*\.)?%s\s*(?::[^=]*)?=(?!=)" % re.escape(attr))
    if line and 0 < line <= len(lines) and assigns.search(lines[line - 1]):
        return line
    hits = [n for n, text in enumerate(lines, start=1) if assigns.search(text.split("#", 1)[0])]
    with_grad = [n for n in hits if "requires_grad" in lines[n - 1]]
    for candidates in (with_grad, hits):
        if len(candidates) == 1:
            return candidates[0]
        if candidates and line:
            return min(candidates, key=lambda n: abs(n - line))
    return None if lines else line  # None: the name is assigned nowhere (a stale harness)


class Outcome:
    def __init__(self):
        self.objective = 0.0  # float64 sum of the losses seen at backward calls
        self.loss_scale = 0.0  # largest |loss| seen, for the rounding estimate
        self.backward_calls = 0
        self.backward_lines: List[int] = []  # where the script calls backward() (its lines as they are now)
        self.stopped_by = "end"  # "consumption" or "end"
        self.grads: Dict[int, "object"] = {}  # param index -> float64 flat gradient as consumed
        self.values: Dict[int, "object"] = {}  # param index -> float64 flat values at allocation
        self.shapes: Dict[int, tuple] = {}
        self.allocations: Dict[int, int] = {}  # param index -> arrays allocated at its site
        self.applied: Dict[tuple, float] = {}  # (param index, flat index) -> perturbation really applied
        self.output = ""


class Replayer:
    """Runs one script repeatedly; it listens to the patch table's replay wrappers (``patches.REPLAY_PATCHES``,
    installed once per process) while one of its runs is active."""

    def __init__(self, script: str, params: Sequence[ParamSite], args: Sequence[str] = (), seed: int = 0):
        import numpy as np  # noqa: PLC0415
        import warp as wp  # noqa: PLC0415

        self.np, self.wp = np, wp
        self.script = os.path.abspath(script)
        self.params = list(params)
        for p in self.params:
            # A relative path is relative to the script (as the harness writes it).
            p.path = os.path.abspath(os.path.join(os.path.dirname(self.script), p.path) if p.path else self.script)
            resolved = resolve_line(p.path, p.name, p.line)
            p.stale = resolved is None
            p.line = resolved or p.line
        self.args = list(args)
        self.seed = seed
        # A point other than the program's own: param index -> [(flat index, offset)] added to every run.
        self.base: Dict[int, list] = {}
        self.active = False  # a run is under way: the replay wrappers report to this replayer
        self._reference_values: Dict[int, Any] = {}
        self._local = threading.local()
        patches.apply_replay(wp).current = self
        user_code.skip_package(os.path.dirname(wp.__file__))

    # ------------------------------------------------ events (from patches.REPLAY_PATCHES)
    def on_alloc(self, arr, caller) -> None:
        """An array was allocated (``caller``: the frame that called ``__init__``)."""
        frame = user_code.innermost_user_frame(caller)
        if frame is None:
            return
        key = (frame.f_code.co_filename, frame.f_lineno)
        for index, param in enumerate(self.params):
            if (param.path, param.line) != key:
                continue
            k = len(self._site_arrays.setdefault(index, []))
            self._site_arrays[index].append(arr)
            self._param_ids.add(id(arr))
            self._fresh[id(arr)] = (index, k)
            self._run.allocations[index] = k + 1
            self._site_values.setdefault(index, []).append(None)
            self._set_values(arr, index, k)

    def on_factory_fill(self, arr, caller_file: str) -> None:
        """``zero_``/``fill_`` ran; when Warp's factory filled a parameter it just allocated, record and
        perturb those values instead."""
        if id(arr) not in self._fresh or user_code.is_user_file(caller_file):
            return
        index, k = self._fresh.pop(id(arr))
        self._set_values(arr, index, k)

    def on_grad_read(self, arr, caller_file: str) -> None:
        """The program read a parameter's gradient after a backward: it consumes it, the run stops here."""
        if self._run.backward_calls and not getattr(self._local, "busy", False) and \
                user_code.is_user_file(caller_file) and id(arr) in self._param_ids:
            self._consume(arr)

    def on_backward(self, tape, loss, grads, caller) -> bool:
        """The program calls ``tape.backward``: its loss joins the objective; Warp's backward runs (True)
        only for a reference run."""
        frame = user_code.innermost_user_frame(caller)
        if frame is not None and frame.f_code.co_filename == self.script and \
                frame.f_lineno not in self._run.backward_lines:
            self._run.backward_lines.append(frame.f_lineno)
        self._on_loss(loss, grads, tape)
        return self._mode != "fd"

    def rng_seed(self) -> tuple:
        """The seed an unseeded ``default_rng()`` gets: the same draws in every evaluation."""
        self._rng_calls += 1
        return (self.seed, self._rng_calls)

    def _set_values(self, arr, index: int, k: int) -> None:
        """Record the values of the k-th array of a parameter's site and, for that occurrence, perturb them."""
        param = self.params[index]
        self._local.busy = True
        try:
            host = arr.numpy()
            self._site_values[index][k] = (host.astype(self.np.float64).reshape(-1).copy(), tuple(host.shape))
            if param.occurrence == k and self._inject.get(index):
                host = host.copy()
                flat = host.reshape(-1)
                before = flat.astype(self.np.float64)
                for flat_index, step in self._inject[index]:
                    flat[flat_index] += step
                arr.assign(host)
                # The step actually taken (the base offset included), after rounding to the dtype.
                for flat_index, _ in self._inject[index]:
                    self._run.applied[(index, flat_index)] = float(flat[flat_index]) - float(before[flat_index])
        finally:
            self._local.busy = False

    def _on_loss(self, loss, grads, tape=None) -> None:
        np = self.np
        self._local.busy = True
        try:
            total, scale = 0.0, 0.0
            pairs = [(loss, None)] if loss is not None else list((grads or {}).items())
            if not pairs and tape is not None:
                # backward() seeded by hand (``y.grad.fill_(...)``): the objective is seed · output.
                pairs = self._seeded_outputs(tape)
            for arr, seed in pairs:
                values = arr.numpy().astype(np.float64)
                if seed is not None:
                    values = values * (seed.numpy().astype(np.float64) if hasattr(seed, "numpy") else np.asarray(seed))
                total += float(values.sum())
                if values.size:
                    scale = max(scale, float(np.abs(values).max()))
        finally:
            self._local.busy = False
        self._run.objective += total
        self._run.loss_scale = max(self._run.loss_scale, scale, abs(self._run.objective))
        self._run.backward_calls += 1

    def _seeded_outputs(self, tape) -> list:
        from ..core import warp_seams  # noqa: PLC0415

        out, seen = [], set()
        for item in warp_seams.tape_launches(tape):
            for arr in item.launch.outputs:
                grad = getattr(arr, "grad", None) if isinstance(arr, self.wp.array) else None
                if grad is None or id(arr) in seen:
                    continue
                seen.add(id(arr))
                if self.np.any(grad.numpy() != 0):
                    out.append((arr, grad))
        return out

    def _consume(self, arr) -> None:
        for index, arrays in self._site_arrays.items():
            for k, candidate in enumerate(arrays):
                if candidate is arr and self.params[index].occurrence is None:
                    self.params[index].occurrence = k
        self._snapshot_grads()
        self._run.stopped_by = "consumption"
        raise StopReplay()

    def _snapshot_grads(self) -> None:
        np = self.np
        self._local.busy = True
        try:
            for index, param in enumerate(self.params):
                arrays = self._site_arrays.get(index, [])
                if param.occurrence is None:
                    # The program's own gradient tells which allocation is the parameter.
                    param.occurrence = next((k for k, a in enumerate(arrays)
                                             if a.grad is not None and np.any(a.grad.numpy() != 0)), None)
                if param.occurrence is None or param.occurrence >= len(arrays):
                    continue
                arr = arrays[param.occurrence]
                self._run.values[index], self._run.shapes[index] = self._site_values[index][param.occurrence]
                if arr.grad is not None:
                    self._run.grads[index] = arr.grad.numpy().astype(np.float64).reshape(-1).copy()
        finally:
            self._local.busy = False

    # -------------------------------------------------------------- running
    def run_values(self, mode: str, index: int, picks, values) -> Outcome:
        """An evaluation with several elements of one parameter set (Warp's FD perturbs one at a time)."""
        reference = self._reference_values[index]
        deltas = [(int(flat), float(v) - float(reference[flat])) for flat, v in zip(picks, values)]
        changed = [(flat, d) for flat, d in deltas if d != 0.0]
        return self.run(mode, {index: changed})

    def run(self, mode: str = "reference", inject: Optional[Dict[int, list]] = None) -> Outcome:
        """One evaluation. ``mode`` "reference" runs backward passes, "fd" skips them."""
        self._run = Outcome()
        self._mode = mode
        self._inject = {k: list(v) for k, v in self.base.items()}
        for k, v in (inject or {}).items():
            self._inject.setdefault(k, []).extend(v if isinstance(v, list) else [v])
        self._site_arrays: Dict[int, List[Any]] = {}
        self._site_values: Dict[int, list] = {}
        self._fresh: Dict[int, tuple] = {}  # id(array) -> (param index, occurrence) until its factory fills it
        self._param_ids: Set[int] = set()
        self._rng_calls = 0
        random.seed(self.seed)
        self.np.random.seed(self.seed % (2**32))
        saved = (sys.argv[:], sys.path[:], sys.modules.get("__main__"))
        sys.argv = [self.script] + self.args
        sys.path[0:0] = [os.path.dirname(self.script)]
        buffer = io.StringIO()
        self.active = True
        try:
            with contextlib.redirect_stdout(buffer):
                try:
                    runpy.run_path(self.script, run_name="__main__")
                except StopReplay:
                    pass
                except SystemExit as exc:
                    if exc.code not in (None, 0):
                        raise ReplayError("the script exited with status %r" % (exc.code,))
            if self._run.stopped_by == "end":
                self._snapshot_grads()
            if mode == "reference":
                self._reference_values = dict(self._run.values)
        finally:
            self.active = False
            sys.argv, sys.path[:] = saved[0], saved[1]
            if saved[2] is not None:
                sys.modules["__main__"] = saved[2]
            self._run.output = buffer.getvalue()[-4000:]
        return self._run
