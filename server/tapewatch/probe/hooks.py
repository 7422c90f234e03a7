"""Installs the probe's wrappers on Warp.

Only seams that exist unchanged in every supported Warp (1.14 to the
newest) are wrapped; nothing depends on a version string:

- ``Tape._check_kernel_array_access`` (every taped launch, tracker on),
- ``context.launch`` / ``wp.launch`` (launches no tape records),
- ``Tape.__init__`` / ``backward`` / ``reset`` (per-tape read lifetime;
  around ``backward`` also the backward-time checks),
- ``array.mark_write`` (Warp's report, replaced by a flag: no host copy),
- ``array.__init__`` (allocation sites), ``zero_`` / ``fill_``,
- ``Kernel.__init__`` (where a user function made a kernel: a factory's call),
- ``wp.copy`` (also reached by ``wp.clone`` and ``array.assign``),
- ``warp.utils.array_sum`` / ``array_inner`` / ``array_scan`` (native
  reductions no tape records),
- ``codegen.log_warning`` (Warp's intra-kernel warnings at codegen).

A hook that fails becomes a visible internal-error finding (TW910) and
falls back to Warp's own behaviour, so a bug here never breaks the user's
program and never silently drops what Warp itself would have reported.
"""

from __future__ import annotations

import functools
import sys
import threading
from typing import Callable, Optional

from . import frames, warp_seams
from .registry import FindingRegistry
from .sites import FrameSnap, Site


def install(wp, tracker, registry: FindingRegistry, on_backward: Optional[Callable] = None, checks=None) -> None:
    ctx = warp_seams.context_module(wp)
    tape_cls = wp.Tape
    array_cls = wp.array
    local = threading.local()

    def guarded(what: str, hook: Callable[[], None]) -> None:
        """Run a hook; a bug in it becomes a TW910 finding, never the user's problem."""
        try:
            hook()
        except Exception as exc:
            registry.internal_error(what, exc)

    def standing_aside() -> bool:
        return checks is not None and checks.busy

    # -- taped launches --------------------------------------------------
    orig_check = tape_cls._check_kernel_array_access

    @functools.wraps(orig_check)
    def check_kernel_array_access(self, kernel, args):
        if standing_aside():
            return orig_check(self, kernel, args)
        done = []

        def original():
            done.append(True)
            orig_check(self, kernel, args)

        guarded("tracking a taped launch", tracker.begin_launch)
        guarded("tracking a taped launch", lambda: tracker.on_launch(self, kernel, args, original))
        if not done:
            orig_check(self, kernel, args)
        guarded("reporting what Warp's tracker flagged", lambda: tracker.end_launch(self, kernel, args))

    tape_cls._check_kernel_array_access = check_kernel_array_access

    # -- launches no tape records ----------------------------------------
    orig_launch = ctx.launch
    warp_seams.remember_original("launch", orig_launch)

    @functools.wraps(orig_launch)
    def launch(kernel, *args, **kwargs):
        if not kwargs.get("adjoint", False) and not standing_aside():
            if warp_seams.recording_tape(wp) is None or kwargs.get("record_tape", True) is False:
                guarded("tracking an untaped launch", lambda: tracker.on_untaped_launch(kernel, _args(args, kwargs)))
            else:
                guarded("keeping what a taped launch overwrites",
                        lambda: tracker.before_taped_launch(kernel, _args(args, kwargs)))
        return orig_launch(kernel, *args, **kwargs)

    def _args(args, kwargs) -> list:
        inputs = kwargs.get("inputs", args[1] if len(args) > 1 else None) or []
        outputs = kwargs.get("outputs", args[2] if len(args) > 2 else None) or []
        return list(inputs) + list(outputs)

    ctx.launch = launch
    if getattr(wp, "launch", None) is orig_launch:
        wp.launch = launch

    # -- tape lifetime ---------------------------------------------------
    orig_init = tape_cls.__init__

    @functools.wraps(orig_init)
    def tape_init(self, *args, **kwargs):
        orig_init(self, *args, **kwargs)
        guarded("recording where a tape was created", lambda: tracker.on_tape_created(self))

    tape_cls.__init__ = tape_init

    orig_record_func = getattr(tape_cls, "record_func", None)
    if orig_record_func is not None:

        @functools.wraps(orig_record_func)
        def record_func(self, backward, arrays, *args, **kwargs):
            result = orig_record_func(self, backward, arrays, *args, **kwargs)
            # The arrays a hand-written adjoint covers: a step kept off the tape that writes them has one.
            guarded("remembering a recorded function's arrays", lambda: self.__dict__.setdefault(
                "_tw_func_arrays", set()).update(id(a) for a in arrays or ()))
            return result

        tape_cls.record_func = record_func

    orig_backward = tape_cls.backward

    @functools.wraps(orig_backward)
    def backward(self, *args, **kwargs):
        if standing_aside():
            return orig_backward(self, *args, **kwargs)  # the checks' own replay
        pending = {}
        if checks is not None:
            guarded("checking before backward()", lambda: pending.update(checks.before_backward(self, args, kwargs)))
        finished = False
        restore: list = []
        guarded("following record_func callbacks", lambda: restore.extend(_trace_callbacks(self)))
        try:
            result = orig_backward(self, *args, **kwargs)
            finished = True
            return result
        finally:
            guarded("restoring record_func callbacks", lambda: _untrace_callbacks(self, restore))
            if finished and checks is not None:
                guarded("checking after backward()",
                        lambda: checks.after_backward(self, args, kwargs, orig_backward, pending))
            # The graph after the checks, so that its nodes carry this backward's findings.
            if on_backward is not None:
                guarded("capturing the tape graph", lambda: on_backward(self))
            guarded("forgetting a tape's reads", lambda: tracker.forget_reads(self))

    tape_cls.backward = backward

    def _trace_callbacks(tape) -> list:
        """Wrap each ``record_func`` callback so a write it makes knows where the replay is."""
        state = tape.__dict__.get("_tw_state")
        items = [it for it in warp_seams.tape_items(tape) if it.func is not None] if state is not None else []
        for it in items:
            warp_seams.replace_tape_func(tape, it.index, _traced(it.func, state, it.index))
        return items

    def _untrace_callbacks(tape, items) -> None:
        for it in items:
            warp_seams.replace_tape_func(tape, it.index, it.func)

    def _traced(func, state, index):
        name = getattr(func, "__qualname__", getattr(func, "__name__", "callback"))

        @functools.wraps(func)
        def replaying(*a, **k):
            outer, tracker.replaying = tracker.replaying, (state, index, name)
            try:
                return func(*a, **k)
            finally:
                tracker.replaying = outer

        return replaying

    orig_reset = tape_cls.reset

    @functools.wraps(orig_reset)
    def reset(self, *args, **kwargs):
        try:
            return orig_reset(self, *args, **kwargs)
        finally:
            guarded("forgetting a tape's reads", lambda: (tracker.forget_reads(self), tracker.forget_launches(self)))

    tape_cls.reset = reset

    orig_zero = tape_cls.zero

    @functools.wraps(orig_zero)
    def zero(self, *args, **kwargs):
        # A zero() before the tape recorded anything zeroes nothing: if gradients then pile up
        # (TW202), that call is the line to change.
        guarded("noting a tape's zero()", lambda: self.__dict__.__setitem__(
            "_tw_empty_zero", Site.here() if warp_seams.tape_length(self) == 0 and not self.gradients else None))
        if not standing_aside():
            guarded("noting a tape's zero()", lambda: tracker.on_tape_zero(self))
        return orig_zero(self, *args, **kwargs)

    tape_cls.zero = zero

    # -- Warp's report: a flag instead of a formatted warning -------------
    warp_seams.tolerate_foreign_view_parents(wp)

    def mark_write(self, **kwargs):
        if warp_seams.warp_read_flag(self):
            tracker.on_warp_mark_write(self)

    array_cls.mark_write = mark_write

    codegen = warp_seams.codegen_module(wp)
    orig_codegen_warning = getattr(codegen, "log_warning", None)
    if orig_codegen_warning is not None:

        @functools.wraps(orig_codegen_warning)
        def codegen_warning(message, *args, **kwargs):
            if "within the same kernel" in str(message):
                guarded("reading Warp's codegen warning",
                        lambda: tracker.on_warp_codegen_warning(str(message), warp_seams.codegen_statement))
                return None
            return orig_codegen_warning(message, *args, **kwargs)

        codegen.log_warning = codegen_warning

    # -- allocation sites ------------------------------------------------
    orig_array_init = array_cls.__init__

    @functools.wraps(orig_array_init)
    def array_init(self, *args, **kwargs):
        orig_array_init(self, *args, **kwargs)
        # Two frames: the allocation and, for a factory or a State class,
        # the line that called it.
        try:
            chain = frames.user_frames(sys._getframe(1), limit=2)
            if chain:
                self.__dict__["_tw_alloc_site"] = Site([FrameSnap(f) for f in chain])
        except Exception as exc:
            registry.internal_error("recording where an array was allocated", exc)
        guarded("noting an array made while a tape records", lambda: tracker.on_array_created(self))

    array_cls.__init__ = array_init

    # -- where a kernel factory made a kernel (TW405: the factory call that turned its backward off) --
    kernel_cls = getattr(ctx, "Kernel", None)
    orig_kernel_init = getattr(kernel_cls, "__init__", None)
    if orig_kernel_init is not None:

        @functools.wraps(orig_kernel_init)
        def kernel_init(self, *args, **kwargs):
            orig_kernel_init(self, *args, **kwargs)
            try:
                chain = frames.user_frames(sys._getframe(1), limit=2)
                if len(chain) == 2 and chain[0].f_code.co_name != "<module>":
                    self.__dict__["_tw_made_at"] = Site([FrameSnap(f) for f in chain])
            except Exception as exc:
                registry.internal_error("recording where a kernel was made", exc)

        kernel_cls.__init__ = kernel_init

    # -- zero_ / fill_ (Warp never tracks them) ---------------------------
    def wrap_inplace(name):
        orig = getattr(array_cls, name)

        @functools.wraps(orig)
        def method(self, *args, **kwargs):
            if not getattr(local, "inplace", False) and not standing_aside():
                guarded("checking %s()" % name, lambda: tracker.on_zero_or_fill(self, name))
            local.inplace = True
            try:
                return orig(self, *args, **kwargs)
            finally:
                local.inplace = False

        setattr(array_cls, name, method)

    wrap_inplace("zero_")
    wrap_inplace("fill_")

    # -- .numpy(): a read of the values, and on the CPU a writable view -------
    orig_numpy = array_cls.numpy

    @functools.wraps(orig_numpy)
    def numpy(self, *args, **kwargs):
        # Only the script's own calls (Warp and Tapewatch call numpy() too).
        user = not standing_aside() and frames.is_user_file(sys._getframe(1).f_code.co_filename)
        if user:
            guarded("checking a .numpy() call", lambda: tracker.on_numpy(self))
        view = orig_numpy(self, *args, **kwargs)
        if user and "_tw_grad_of_backward" in self.__dict__:
            guarded("remembering a gradient's NumPy view", lambda: tracker.on_grad_view(self, view))
        return view

    array_cls.numpy = numpy

    # -- copies (wp.clone and array.assign call wp.copy) -------------------
    orig_copy = ctx.copy

    @functools.wraps(orig_copy)
    def copy(dest, src, *args, **kwargs):
        outer = not getattr(local, "copying", False)
        if outer and not standing_aside():
            guarded("checking a copy", lambda: tracker.on_copy(dest, src))
            guarded("checking a copy's source", lambda: tracker.on_copy_source(src))
        local.copying = True
        try:
            return orig_copy(dest, src, *args, **kwargs)
        finally:
            if outer:
                local.copying = False

    ctx.copy = copy
    if getattr(wp, "copy", None) is orig_copy:
        wp.copy = copy

    # -- reductions no tape records (warp.utils: native code, no adjoint) --
    utils = warp_seams.utils_module(wp)

    def wrap_untaped_op(name: str, inputs: Callable, output: Callable) -> None:
        orig = getattr(utils, name, None)
        if orig is None:
            return

        @functools.wraps(orig)
        def op(*args, **kwargs):
            result = orig(*args, **kwargs)
            if not standing_aside() and tracker.recording_tape() is not None:
                guarded("following %s" % name, lambda: tracker.on_untaped_op(
                    "wp.utils.%s" % name, inputs(args, kwargs), output(args, kwargs, result)))
            return result

        setattr(utils, name, op)

    def arg(position: int, keyword: str):
        return lambda args, kwargs: args[position] if len(args) > position else kwargs.get(keyword)

    def returned(position: int, keyword: str):
        given = arg(position, keyword)
        return lambda args, kwargs, result: given(args, kwargs) if given(args, kwargs) is not None else (
            result if isinstance(result, array_cls) else None)

    wrap_untaped_op("array_sum", lambda a, k: [arg(0, "values")(a, k)], returned(1, "out"))
    wrap_untaped_op("array_inner", lambda a, k: [arg(0, "a")(a, k), arg(1, "b")(a, k)], returned(2, "out"))
    wrap_untaped_op("array_scan", lambda a, k: [arg(0, "in_array")(a, k)], returned(1, "out_array"))
