"""Installs the tracker's hooks into Warp.

Only seams that exist unchanged in every supported Warp (1.14 to the
newest) are wrapped; nothing depends on a version string:

- ``Tape._check_kernel_array_access`` (every taped launch, tracker on),
- ``Tape.__init__`` / ``backward`` / ``reset`` (per-tape read lifetime;
  around ``backward`` also the localizer, ``localize.py``),
- ``array.mark_write`` (Warp's report, replaced by a flag: no host copy),
- ``array.__init__`` (allocation sites), ``zero_`` / ``fill_``,
- ``wp.copy`` (also reached by ``wp.clone`` and ``array.assign``),
- ``codegen.log_warning`` (Warp's intra-kernel warnings at codegen).

A hook that fails reports a probe error and falls back to Warp's own
behaviour, so a bug here never breaks the user's program.
"""

from __future__ import annotations

import functools
import sys
import threading
import traceback
from typing import Callable

from .sites import FrameSnap, Site
from . import frames


def install(wp, tracker, emit: Callable[..., None], on_backward: Callable = None, localizer=None,
            accumulation=None) -> None:
    ctx = wp._src.context
    tape_cls = wp.Tape
    array_cls = wp.array
    local = threading.local()

    def guarded(hook):
        """Run a hook; a bug in it becomes an event, never the user's problem."""
        try:
            hook()
        except Exception:  # pragma: no cover - defensive
            emit("probe_error", message=traceback.format_exc(limit=8))

    # -- taped launches --------------------------------------------------
    orig_check = tape_cls._check_kernel_array_access

    @functools.wraps(orig_check)
    def check_kernel_array_access(self, kernel, args):
        done = []

        def original():
            done.append(True)
            orig_check(self, kernel, args)

        guarded(lambda: tracker.on_launch(self, kernel, args, original))
        if not done:
            orig_check(self, kernel, args)

    tape_cls._check_kernel_array_access = check_kernel_array_access

    # -- tape lifetime ---------------------------------------------------
    orig_init = tape_cls.__init__

    @functools.wraps(orig_init)
    def tape_init(self, *args, **kwargs):
        orig_init(self, *args, **kwargs)
        guarded(lambda: tracker.on_tape_created(self))

    tape_cls.__init__ = tape_init

    orig_backward = tape_cls.backward

    @functools.wraps(orig_backward)
    def backward(self, *args, **kwargs):
        if localizer is not None and localizer.busy:
            return orig_backward(self, *args, **kwargs)  # the localizer's own replay
        pending = {}
        leaves = []
        if accumulation is not None:
            guarded(lambda: leaves.extend(accumulation.before(self)))
        if localizer is not None:
            guarded(lambda: pending.update(localizer.before_backward(self, args, kwargs)))
        finished = False
        try:
            result = orig_backward(self, *args, **kwargs)
            finished = True
            return result
        finally:
            if finished and localizer is not None:
                guarded(lambda: localizer.after_backward(self, args, kwargs, orig_backward, pending))
            if finished and accumulation is not None:
                guarded(lambda: accumulation.after(leaves))
            # The graph after the localizer, so that its nodes carry this backward's findings.
            if on_backward is not None:
                guarded(lambda: on_backward(self))
            guarded(lambda: tracker.forget_reads(self))

    tape_cls.backward = backward

    orig_reset = tape_cls.reset

    @functools.wraps(orig_reset)
    def reset(self, *args, **kwargs):
        try:
            return orig_reset(self, *args, **kwargs)
        finally:
            guarded(lambda: (tracker.forget_reads(self), tracker.forget_launches(self)))

    tape_cls.reset = reset

    # -- Warp's report: a flag instead of a formatted warning -------------
    def mark_write(self, **kwargs):
        if self._is_read:
            tracker.on_warp_mark_write(self)

    array_cls.mark_write = mark_write

    codegen = wp._src.codegen
    orig_codegen_warning = getattr(codegen, "log_warning", None)
    if orig_codegen_warning is not None:

        @functools.wraps(orig_codegen_warning)
        def codegen_warning(message, *args, **kwargs):
            if "within the same kernel" in str(message):
                guarded(lambda: tracker.on_warp_codegen_warning(str(message)))
                return
            return orig_codegen_warning(message, *args, **kwargs)

        codegen.log_warning = codegen_warning

    # -- allocation sites ------------------------------------------------
    orig_array_init = array_cls.__init__

    @functools.wraps(orig_array_init)
    def array_init(self, *args, **kwargs):
        orig_array_init(self, *args, **kwargs)
        # Two frames: the allocation and, for a factory or a State class,
        # the line that called it.
        chain = frames.user_frames(sys._getframe(1), limit=2)
        if chain:
            self.__dict__["_tw_alloc_site"] = Site([FrameSnap(f) for f in chain])

    array_cls.__init__ = array_init

    # -- zero_ / fill_ (Warp never tracks them) ---------------------------
    def wrap_inplace(name):
        orig = getattr(array_cls, name)

        @functools.wraps(orig)
        def method(self, *args, **kwargs):
            if not getattr(local, "inplace", False):
                guarded(lambda: tracker.on_zero_or_fill(self, name))
            local.inplace = True
            try:
                return orig(self, *args, **kwargs)
            finally:
                local.inplace = False

        setattr(array_cls, name, method)

    wrap_inplace("zero_")
    wrap_inplace("fill_")

    # -- copies (wp.clone and array.assign call wp.copy) -------------------
    orig_copy = ctx.copy

    @functools.wraps(orig_copy)
    def copy(dest, src, *args, **kwargs):
        outer = not getattr(local, "copying", False)
        if outer:
            guarded(lambda: tracker.on_copy(dest, src))
        local.copying = True
        try:
            return orig_copy(dest, src, *args, **kwargs)
        finally:
            if outer:
                local.copying = False

    ctx.copy = copy
    if getattr(wp, "copy", None) is orig_copy:
        wp.copy = copy
