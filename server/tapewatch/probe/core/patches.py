"""Every change the probe makes to Warp, in one table.

Warp's public API has no events for what the probe needs, so the probe
wraps a few of Warp's functions.  Each wrapper is named below and listed
once in ``PATCHES``; ``apply`` installs the table (once per process) with a
``Hooks`` object that the wrappers call.  Only seams that exist unchanged in
every supported Warp (1.14 to the newest) are wrapped; one that is missing
is left alone, never a failure.

Three rules hold for every wrapper:

- Warp's own behaviour runs unchanged (the original is always called, with
  the same arguments, and its result or exception is the caller's);
- a hook that fails becomes a TW910 finding (``Hooks.guarded``), never the
  program's error;
- the probe's own work is not the program's: while a hook runs, or Warp
  implements ``.numpy()`` (on a GPU a host copy: an allocation and a
  ``wp.copy``), every wrapper passes straight through (``Hooks.own``).

Graph capture lands here too: ``capture_begin``/``capture_end`` tell the
tracker what a capture recorded, and ``capture_launch`` lets the checks a
capture could not run happen on the graph's first replay.

The FD harness's replayer (``probe/fd/replay.py``) runs in a process of its
own, where the probe is not installed, and listens to a second, smaller table
(``REPLAY_PATCHES``, installed by ``apply_replay``): allocations, factory
fills, gradient reads, ``backward`` and NumPy's unseeded generators.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import os
import sys
import threading
import types
from typing import Any, Callable, NamedTuple, Optional

from . import facts, user_code, warp_seams
from .sites import FrameSnap, Site

FLAG = "verify_autograd_array_access"


class Hooks:
    """What the wrappers call: the tracker, the backward checks, and the guard around the probe's own work."""

    def __init__(self, wp, tracker, registry, checks=None, on_backward: Optional[Callable] = None):
        self.wp = wp
        self.tracker = tracker
        self.registry = registry
        self.checks = checks
        self.on_backward = on_backward
        self.local = threading.local()
        self.originals: dict = {}  # (owner, attribute) -> Warp's own, before the table replaced it
        ctx = warp_seams.context_module(wp)
        # Warp's allocating functions that fill what they allocate (their zero_()/fill_() is no one's write).
        self.allocating = frozenset(getattr(getattr(ctx, name, None), "__code__", None) for name in
                                    ("zeros", "full")) - {None}

    def guarded(self, what: str, hook: Callable[..., Any], *args) -> None:
        """Run a hook as the probe's own work; a bug in it becomes a TW910 finding, never the user's problem."""
        local = self.local  # (inline ``own()``: this runs several times per launch)
        depth = getattr(local, "own", 0)
        local.own = depth + 1
        try:
            self.registry.call(what, hook, *args)
        finally:
            local.own = depth

    @contextlib.contextmanager
    def own(self):
        """Warp calls made inside are the probe's (or Warp's own implementation), not the program's."""
        depth = getattr(self.local, "own", 0)
        self.local.own = depth + 1
        try:
            yield
        finally:
            self.local.own = depth

    def standing_aside(self) -> bool:
        return getattr(self.local, "own", 0) > 0 or (self.checks is not None and self.checks.busy)


class Patch(NamedTuple):
    owner: Callable[[Any], Any]  # wp -> the class or module that holds the attribute
    name: str
    wrap: Callable[[Any, Any], Callable]  # (Warp's original, the handler: Hooks or ReplaySlot) -> the replacement
    public: bool = False  # also re-exported as ``wp.<name>`` (replaced there when it is the same object)


def apply(wp, hooks: Hooks) -> None:
    """Install every patch of the table on ``wp``."""
    _install(wp, PATCHES, hooks, hooks.originals)
    tolerate_foreign_view_parents(wp)


def _install(wp, table, handler, originals: dict) -> None:
    for patch in table:
        owner = patch.owner(wp)
        orig = getattr(owner, patch.name, None) if owner is not None else None
        if orig is None:
            continue  # a seam this Warp lacks (record_func before 1.15, capture_* without CUDA support)
        originals[(owner, patch.name)] = orig
        if patch.wrap is launch:
            warp_seams.remember_original("launch", orig)  # Warp's own wp.launch, for the checks' relaunches
        replacement = patch.wrap(orig, handler)
        setattr(owner, patch.name, replacement)
        if patch.public and getattr(wp, patch.name, None) is orig:
            setattr(wp, patch.name, replacement)


# -- the program's view of Warp's tracker flag -----------------------------------------------------
def track(wp) -> None:
    """Warp's tracker on for Warp, while the program keeps its own setting of the flag.

    Warp reads ``wp.config.verify_autograd_array_access`` to mark reads and check launches; the probe
    needs that on from the start.  The program's own reads see what the program set (Warp's default
    until then), and where the program turns the tracker on, Warp's messages reach it as they would
    without Tapewatch (``mark_write``, ``codegen_warning``)."""
    config = wp.config
    if isinstance(config, _TrackedConfig):
        return
    program_value = bool(getattr(config, FLAG, False))
    config.__class__ = _TrackedConfig
    config.__dict__.pop(FLAG, None)
    config.__dict__["_tw_program_flag"] = program_value


class _TrackedConfig(types.ModuleType):
    @property
    def verify_autograd_array_access(self) -> bool:
        if _called_from_warp(sys._getframe(1)):
            return True
        return self.__dict__.get("_tw_program_flag", False)

    @verify_autograd_array_access.setter
    def verify_autograd_array_access(self, value) -> None:
        self.__dict__["_tw_program_flag"] = value


def program_tracks(wp) -> bool:
    """The program itself turned Warp's tracker on (so Warp's messages are part of its output)."""
    return bool(wp.config.__dict__.get("_tw_program_flag", False))


def _called_from_warp(frame) -> bool:
    return frame is not None and warp_seams.warps_own_module(frame.f_globals.get("__name__", ""))


# -- taped launches ----------------------------------------------------------------------------------
def taped_launch(orig, h: Hooks):
    """``Tape._check_kernel_array_access``: every taped launch, while Warp's tracker is on."""

    @functools.wraps(orig)
    def check_kernel_array_access(self, kernel, args):
        if h.standing_aside():
            return orig(self, kernel, args)
        done = []

        def original():
            done.append(True)
            orig(self, kernel, args)

        h.guarded("restoring the launch's caller", _restore_caller, h, self)
        h.guarded("tracking a taped launch", h.tracker.begin_launch)
        h.guarded("tracking a taped launch", h.tracker.on_launch, self, kernel, args, original)
        if not done:
            orig(self, kernel, args)
        h.guarded("reporting what Warp's tracker flagged", h.tracker.end_launch, self, kernel, args)
        return None

    return check_kernel_array_access


TAPEWATCH_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def _restore_caller(h: Hooks, tape) -> None:
    """Warp records ``wp.launch``'s calling frame on the tape (its graph, its messages): under Tapewatch that
    frame is the probe's wrapper.  The entry gets the frame Warp would have seen without Tapewatch."""
    entries = getattr(tape, "launches", None)
    entry = entries[-1] if entries else None
    meta: Optional[dict] = entry[7] if isinstance(entry, list) and len(entry) > 7 and isinstance(entry[7], dict) \
        else None
    caller = meta.get("caller") if meta is not None else None
    if not isinstance(caller, dict) or not str(caller.get("file", "")).startswith(TAPEWATCH_DIR):
        return
    launch_code = getattr(warp_seams.real_launch(h.wp), "__code__", None)
    frame: Optional[types.FrameType] = sys._getframe(1)
    while frame is not None and frame.f_code is not launch_code:
        frame = frame.f_back
    frame = frame.f_back if frame is not None else None
    while frame is not None and frame.f_code.co_filename.startswith(TAPEWATCH_DIR):
        frame = frame.f_back
    if frame is not None and meta is not None:
        meta["caller"] = {"file": frame.f_code.co_filename, "lineno": frame.f_lineno, "func": frame.f_code.co_name}


def _as_warp_sees(kwargs: dict) -> dict:
    """Warp names the first frame outside its own package as the caller of a copy; under Tapewatch that is
    the probe's wrapper.  The message names the frame Warp would have named without Tapewatch."""
    if not str(kwargs.get("filename", "")).startswith(TAPEWATCH_DIR):
        return kwargs
    frame: Optional[types.FrameType] = sys._getframe(1)
    while frame is not None and (frame.f_code.co_filename.startswith(TAPEWATCH_DIR) or
                                 frame.f_globals.get("__name__", "").startswith("warp._src")):
        frame = frame.f_back
    if frame is None:
        return kwargs
    return dict(kwargs, filename=frame.f_code.co_filename, lineno=frame.f_lineno)


def launch(orig, h: Hooks):
    """``wp.launch``: launches no tape records, and what a taped one is about to overwrite."""

    @functools.wraps(orig)
    def launch(kernel, *args, **kwargs):
        if kwargs.get("adjoint", False) and not kwargs.get("record_cmd", False) and not h.standing_aside() \
                and not warp_seams.warps_own_module(sys._getframe(1).f_globals.get("__name__", "")):
            # The program's own adjoint launch (a tape's backward launches adjoints from Warp's own code).
            h.guarded("checking an adjoint the program launched", h.tracker.on_adjoint_launch, kernel)
            if h.checks is not None:
                h.guarded("checking an adjoint the program launched", h.checks.on_adjoint_launch, kernel, args,
                          kwargs)
        # (``record_cmd=True`` only builds a launch command: nothing runs until its ``launch()``)
        if not kwargs.get("adjoint", False) and not kwargs.get("record_cmd", False) and not h.standing_aside():
            arrays = _launch_args(args, kwargs)
            if warp_seams.recording_tape(h.wp) is None or kwargs.get("record_tape", True) is False:
                h.guarded("tracking an untaped launch", h.tracker.on_untaped_launch, kernel, arrays)
            else:
                h.guarded("keeping what a taped launch overwrites", h.tracker.before_taped_launch, kernel, arrays)
                try:
                    return orig(kernel, *args, **kwargs)
                finally:
                    h.tracker.forget_launch()
        return orig(kernel, *args, **kwargs)

    return launch


def launch_command(orig, h: Hooks):
    """``cmd.launch()`` of ``cmd = wp.launch(..., record_cmd=True)``: Warp never records it on a tape."""

    @functools.wraps(orig)
    def launch(self, *args, **kwargs):
        if not h.standing_aside() and not getattr(self, "adjoint", False):
            kernel, arrays = getattr(self, "kernel", None), list(getattr(self, "fwd_args", None) or [])
            if kernel is not None:
                h.guarded("following a launch command", lambda: h.tracker.on_command_launch(kernel, arrays))
        return orig(self, *args, **kwargs)

    return launch


def _launch_args(args, kwargs) -> list:
    inputs = kwargs.get("inputs", args[1] if len(args) > 1 else None) or []
    outputs = kwargs.get("outputs", args[2] if len(args) > 2 else None) or []
    return list(inputs) + list(outputs)


# -- tape lifetime -----------------------------------------------------------------------------------
def tape_init(orig, h: Hooks):
    @functools.wraps(orig)
    def __init__(self, *args, **kwargs):
        orig(self, *args, **kwargs)
        if not h.standing_aside():
            h.guarded("recording where a tape was created", lambda: h.tracker.on_tape_created(self))

    return __init__


def _cover(tape_facts, arrays) -> None:
    tape_facts.func_arrays = (tape_facts.func_arrays or set()) | {id(a) for a in arrays or ()}


def record_func(orig, h: Hooks):
    @functools.wraps(orig)
    def record_func(self, backward, arrays, *args, **kwargs):
        result = orig(self, backward, arrays, *args, **kwargs)
        # The arrays a hand-written adjoint covers: a step kept off the tape that writes them has one.
        h.guarded("remembering a recorded function's arrays", lambda: _cover(facts.tape(self), arrays))
        return result

    return record_func


def backward(orig, h: Hooks):
    """``Tape.backward``: the checks before and after it, the graph, the end of the tape's reads."""

    @functools.wraps(orig)
    def backward(self, *args, **kwargs):
        if h.standing_aside():
            return orig(self, *args, **kwargs)  # the checks' own replay
        checks = h.checks
        pending: dict = {}
        if checks is not None:
            h.guarded("checking before backward()", lambda: pending.update(checks.before_backward(self, args, kwargs)))
        finished = False
        restore: list = []
        h.guarded("following record_func callbacks", lambda: restore.extend(_trace_callbacks(h, self)))
        try:
            result = orig(self, *args, **kwargs)
            finished = True
            return result
        finally:
            h.guarded("restoring record_func callbacks", lambda: _untrace_callbacks(self, restore))
            if finished and checks is not None:
                h.guarded("checking after backward()", lambda: checks.after_backward(self, args, kwargs, orig, pending))
            # The graph after the checks, so that its nodes carry this backward's findings.
            if h.on_backward is not None:
                h.guarded("capturing the tape graph", lambda: h.on_backward(self))
            h.guarded("forgetting a tape's reads", lambda: h.tracker.forget_reads(self))

    return backward


def _trace_callbacks(h: Hooks, tape) -> list:
    """Wrap each ``record_func`` callback so a write it makes knows where the replay is."""
    state = facts.tape_state(tape)
    items = [it for it in warp_seams.tape_items(tape) if it.func is not None] if state is not None else []
    for it in items:
        warp_seams.replace_tape_func(tape, it.index, _traced(h, it.func, state, it.index))
    return items


def _untrace_callbacks(tape, items) -> None:
    for it in items:
        warp_seams.replace_tape_func(tape, it.index, it.func)


def _traced(h: Hooks, func, state, index):
    name = getattr(func, "__qualname__", getattr(func, "__name__", "callback"))
    tracker = h.tracker

    @functools.wraps(func)
    def replaying(*a, **k):
        outer, tracker.replaying = tracker.replaying, (state, index, name)
        try:
            return func(*a, **k)
        finally:
            tracker.replaying = outer

    return replaying


def tape_reset(orig, h: Hooks):
    @functools.wraps(orig)
    def reset(self, *args, **kwargs):
        try:
            return orig(self, *args, **kwargs)
        finally:
            if not h.standing_aside():
                h.guarded("forgetting a tape's reads",
                          lambda: (h.tracker.forget_reads(self), h.tracker.forget_launches(self)))

    return reset


def tape_zero(orig, h: Hooks):
    @functools.wraps(orig)
    def zero(self, *args, **kwargs):
        if not h.standing_aside():
            # A zero() before the tape recorded anything zeroes nothing: if gradients then pile up
            # (TW202), that call is the line to change.
            h.guarded("noting a tape's zero()", lambda: setattr(
                facts.tape(self), "empty_zero",
                Site.here() if warp_seams.tape_length(self) == 0 and not self.gradients else None))
            h.guarded("noting a tape's zero()", lambda: h.tracker.on_tape_zero(self))
        return orig(self, *args, **kwargs)

    return zero


# -- Warp's report: a flag instead of a formatted warning ---------------------------------------------
def mark_write(orig, h: Hooks):
    """Warp's warning formats the array's contents (a host copy per write); the probe takes a flag.
    Where the program turned Warp's tracker on itself, Warp's own message is printed as well."""
    wp = h.wp

    def mark_write(self, **kwargs):
        if warp_seams.warp_read_flag(self):
            h.tracker.on_warp_mark_write(self)
            if program_tracks(wp):
                orig(self, **_as_warp_sees(kwargs))

    return mark_write


def codegen_warning(orig, h: Hooks):
    """Warp's intra-kernel warnings at code generation: the tracker places them on the kernel's launch."""
    wp = h.wp

    @functools.wraps(orig)
    def log_warning(message, *args, **kwargs):
        if "within the same kernel" in str(message):
            h.guarded("reading Warp's codegen warning",
                      lambda: h.tracker.on_warp_codegen_warning(str(message), warp_seams.codegen_statement))
            if not program_tracks(wp):
                return None
        return orig(message, *args, **kwargs)

    return log_warning


# -- allocations -------------------------------------------------------------------------------------
def array_init(orig, h: Hooks):
    @functools.wraps(orig)
    def __init__(self, *args, **kwargs):
        orig(self, *args, **kwargs)
        if h.standing_aside():
            return
        # Two frames: the allocation and, for a factory or a State class, the line that called it.
        chain = user_code.user_frames(sys._getframe(1), limit=2)
        if chain:
            h.guarded("recording where an array was allocated",
                      lambda: setattr(facts.array(self), "alloc_site", Site([FrameSnap(f) for f in chain])))
        h.guarded("noting an array made while a tape records", lambda: h.tracker.on_array_created(self))

    return __init__


def kernel_init(orig, h: Hooks):
    """Where a kernel factory made a kernel (TW405: the factory call that turned its backward off)."""

    @functools.wraps(orig)
    def __init__(self, *args, **kwargs):
        orig(self, *args, **kwargs)
        chain = user_code.user_frames(sys._getframe(1), limit=2)
        if len(chain) == 2 and chain[0].f_code.co_name != "<module>":
            h.guarded("recording where a kernel was made",
                      lambda: setattr(facts.kernel(self), "made_at", Site([FrameSnap(f) for f in chain])))

    return __init__


# -- zero_ / fill_ (Warp never tracks them) ----------------------------------------------------------
def inplace(orig, h: Hooks):
    name = orig.__name__

    @functools.wraps(orig)
    def method(self, *args, **kwargs):
        if h.standing_aside() or getattr(h.local, "inplace", False) or \
                sys._getframe(1).f_code in h.allocating:
            # (``wp.zeros``/``wp.full`` filling the array they just made: an allocation, not a write anyone
            # could have read before; each ``.grad`` Warp makes comes this way too)
            return orig(self, *args, **kwargs)
        h.guarded("checking %s()" % name, lambda: h.tracker.on_zero_or_fill(self, name))
        h.local.inplace = True  # zero_() of a non-contiguous array calls fill_()
        try:
            return orig(self, *args, **kwargs)
        finally:
            h.local.inplace = False

    return method


# -- .numpy(): a read of the values, and on the CPU a writable view ----------------------------------
def numpy(orig, h: Hooks):
    @functools.wraps(orig)
    def numpy(self, *args, **kwargs):
        # Only the script's own calls (Warp and Tapewatch call numpy() too).
        user = not h.standing_aside() and user_code.is_user_file(sys._getframe(1).f_code.co_filename)
        if user:
            h.guarded("checking a .numpy() call", lambda: h.tracker.on_numpy(self))
        # On a GPU, Warp implements it as an allocation and a copy: those are not the program's.
        with h.own():
            view = orig(self, *args, **kwargs)
        if user and facts.filled(self) is not None:
            h.guarded("remembering a gradient's NumPy view", lambda: h.tracker.on_grad_view(self, view))
        return view

    return numpy


def indexed_numpy(orig, h: Hooks):
    """``indexedarray.numpy()``: a read of the array it indexes, made by Warp as a gather and a copy."""

    @functools.wraps(orig)
    def numpy(self, *args, **kwargs):
        if not h.standing_aside() and user_code.is_user_file(sys._getframe(1).f_code.co_filename):
            source = getattr(self, "data", None)
            if isinstance(source, h.wp.array):
                h.guarded("checking a .numpy() call", lambda: h.tracker.on_numpy(source))
        with h.own():
            return orig(self, *args, **kwargs)

    return numpy


# -- copies (wp.clone and array.assign call wp.copy) -------------------------------------------------
def copy(orig, h: Hooks):
    @functools.wraps(orig)
    def copy(dest, src, *args, **kwargs):
        if h.standing_aside() or getattr(h.local, "copying", False):
            return orig(dest, src, *args, **kwargs)
        h.guarded("checking a copy", lambda: h.tracker.on_copy(dest, src))
        h.guarded("checking a copy's source", lambda: h.tracker.on_copy_source(src))
        h.local.copying = True
        try:
            return orig(dest, src, *args, **kwargs)
        finally:
            h.local.copying = False

    return copy


# -- reductions no tape records (warp.utils: native code, no adjoint) --------------------------------
def untaped_op(inputs: Callable, output: Callable):
    def wrap(orig, h: Hooks):
        name = orig.__name__

        @functools.wraps(orig)
        def op(*args, **kwargs):
            result = orig(*args, **kwargs)
            if not h.standing_aside() and h.tracker.recording_tape() is not None:
                h.guarded("following %s" % name, lambda: h.tracker.on_untaped_op(
                    "wp.utils.%s" % name, inputs(args, kwargs), output(args, kwargs, result)))
            return result

        return op

    return wrap


def _arg(position: int, keyword: str):
    return lambda args, kwargs: args[position] if len(args) > position else kwargs.get(keyword)


def _returned(position: int, keyword: str):
    """The output argument, else what the call returned (the tracker keeps only an array)."""
    given = _arg(position, keyword)
    return lambda args, kwargs, result: given(args, kwargs) if given(args, kwargs) is not None else result


# -- graph capture -----------------------------------------------------------------------------------
def capture_begin(orig, h: Hooks):
    @functools.wraps(orig)
    def capture_begin(*args, **kwargs):
        result = orig(*args, **kwargs)
        # (Before Warp 1.19 a capture on the CPU is a no-op: nothing records, nothing changes.)
        h.guarded("noting a graph capture", lambda: h.tracker.on_capture_begin(warp_seams.capture_active(h.wp)))
        return result

    return capture_begin


def capture_end(orig, h: Hooks):
    def ended(graph) -> None:
        h.tracker.on_capture_end(graph)
        if h.checks is not None:
            h.checks.replays.on_capture_end(graph)

    @functools.wraps(orig)
    def capture_end(*args, **kwargs):
        try:
            graph = orig(*args, **kwargs)
        except BaseException:
            h.guarded("noting a failed graph capture", lambda: ended(None))
            raise
        h.guarded("noting the end of a graph capture", lambda: ended(graph))
        return graph

    return capture_end


def capture_launch(orig, h: Hooks):
    """A replay runs what its capture recorded: the checks the capture could not run happen after the first."""

    @functools.wraps(orig)
    def capture_launch(graph, *args, **kwargs):
        if not h.standing_aside() and h.checks is not None:
            h.guarded("checking before a graph's replay", lambda: h.checks.replays.before_replay(graph))
        result = orig(graph, *args, **kwargs)
        if not h.standing_aside():
            h.guarded("checking a graph's first replay",
                      lambda: h.checks.replays.after_replay(graph) if h.checks is not None else None)
        return result

    return capture_launch


def _context(wp):
    return warp_seams.context_module(wp)


def _kernel_class(wp):
    return getattr(_context(wp), "Kernel", None)


def _torch_module(wp):
    """The module that defines ``wp.from_torch`` (``warp._src.torch``, ``warp.torch`` before 1.15): reading it
    does not import PyTorch."""
    return sys.modules.get(getattr(getattr(wp, "from_torch", None), "__module__", None) or "")


def from_torch(orig, h: Hooks):
    """``wp.from_torch``: an array over a PyTorch tensor's memory (and, with a gradient, over its ``.grad``)."""

    @functools.wraps(orig)
    def from_torch(t, *args, **kwargs):
        arr = orig(t, *args, **kwargs)
        if not h.standing_aside() and isinstance(arr, h.wp.array):
            h.guarded("noting an array over a PyTorch tensor", h.tracker.on_from_torch, arr, t)
        return arr

    return from_torch


def to_torch(orig, h: Hooks):
    """``wp.to_torch``: a PyTorch tensor over a Warp array's memory (a gradient handed back to PyTorch)."""

    @functools.wraps(orig)
    def to_torch(a, *args, **kwargs):
        t = orig(a, *args, **kwargs)
        if not h.standing_aside():
            h.guarded("noting a PyTorch tensor over a Warp array", h.tracker.on_to_torch, a, t)
        return t

    return to_torch


PATCHES = (
    Patch(lambda wp: wp.Tape, "_check_kernel_array_access", taped_launch),
    Patch(_context, "launch", launch, public=True),
    Patch(lambda wp: getattr(_context(wp), "Launch", None), "launch", launch_command),
    Patch(lambda wp: wp.Tape, "__init__", tape_init),
    Patch(lambda wp: wp.Tape, "record_func", record_func),
    Patch(lambda wp: wp.Tape, "backward", backward),
    Patch(lambda wp: wp.Tape, "reset", tape_reset),
    Patch(lambda wp: wp.Tape, "zero", tape_zero),
    Patch(lambda wp: wp.array, "mark_write", mark_write),
    Patch(warp_seams.codegen_module, "log_warning", codegen_warning),
    Patch(lambda wp: wp.array, "__init__", array_init),
    Patch(_kernel_class, "__init__", kernel_init),
    Patch(lambda wp: wp.array, "zero_", inplace),
    Patch(lambda wp: wp.array, "fill_", inplace),
    Patch(lambda wp: wp.array, "numpy", numpy),
    Patch(lambda wp: getattr(wp, "indexedarray", None), "numpy", indexed_numpy),
    Patch(_context, "copy", copy, public=True),
    Patch(warp_seams.utils_module, "array_sum", untaped_op(
        lambda a, k: [_arg(0, "values")(a, k)], _returned(1, "out"))),
    Patch(warp_seams.utils_module, "array_inner", untaped_op(
        lambda a, k: [_arg(0, "a")(a, k), _arg(1, "b")(a, k)], _returned(2, "out"))),
    Patch(warp_seams.utils_module, "array_scan", untaped_op(
        lambda a, k: [_arg(0, "in_array")(a, k)], _returned(1, "out_array"))),
    Patch(_context, "capture_begin", capture_begin, public=True),
    Patch(_context, "capture_end", capture_end, public=True),
    Patch(_context, "capture_launch", capture_launch, public=True),
    Patch(_torch_module, "from_torch", from_torch, public=True),
    Patch(_torch_module, "to_torch", to_torch, public=True),
)


# -- the FD harness's replay --------------------------------------------------------------------------
class ReplaySlot:
    """Whom the replay wrappers serve: the harness's current replayer, while one of its runs is active.

    The replayer (``probe/fd/replay.Replayer``) provides ``active``, ``on_alloc(arr, frame)``,
    ``on_factory_fill(arr, caller)``, ``on_grad_read(arr, caller)``, ``on_backward(tape, loss, grads,
    frame) -> bool`` (whether Warp's backward runs) and ``rng_seed()``."""

    def __init__(self):
        self.current: Any = None
        self.originals: dict = {}

    def serving(self):
        r = self.current
        return r if r is not None and r.active else None


_replay_slot: Optional[ReplaySlot] = None


def apply_replay(wp) -> ReplaySlot:
    """Install the replay table once per process; the slot says which replayer it serves."""
    global _replay_slot
    if _replay_slot is None:
        _replay_slot = ReplaySlot()
        _install(wp, REPLAY_PATCHES, _replay_slot, _replay_slot.originals)
    return _replay_slot


def replay_array_init(orig, slot: ReplaySlot):
    local = threading.local()  # nested allocations (a view's parent) are Warp's, not the program's

    def array_init(arr, *args, **kwargs):
        r = slot.serving()
        if r is None:
            return orig(arr, *args, **kwargs)
        depth = getattr(local, "depth", 0)
        local.depth = depth + 1
        try:
            orig(arr, *args, **kwargs)
        finally:
            local.depth = depth
        if depth == 0:
            r.on_alloc(arr, sys._getframe(1))

    return array_init


def replay_fill(orig, slot: ReplaySlot):
    # ``wp.zeros`` / ``wp.full`` / ``*_like`` allocate, then fill: a parameter allocated that way gets its
    # values (and the harness's perturbation) after the fill, not at ``__init__``.
    def filled(arr, *args, **kwargs):
        result = orig(arr, *args, **kwargs)
        r = slot.serving()
        if r is not None:
            r.on_factory_fill(arr, sys._getframe(1).f_code.co_filename)
        return result

    return filled


def replay_grad(prop, slot: ReplaySlot):
    def grad_get(arr):
        value = prop.fget(arr)
        r = slot.serving()
        if r is not None:
            r.on_grad_read(arr, sys._getframe(1).f_code.co_filename)
        return value

    return property(grad_get, prop.fset, prop.fdel, prop.__doc__)


def replay_backward(orig, slot: ReplaySlot):
    def backward(tape, loss=None, grads=None, *args, **kwargs):
        r = slot.serving()
        if r is not None and not r.on_backward(tape, loss, grads, sys._getframe(1)):
            return None  # an FD evaluation needs the objective only
        return orig(tape, loss, grads, *args, **kwargs)

    return backward


def replay_default_rng(orig, slot: ReplaySlot):
    def default_rng(seed=None, *args, **kwargs):
        r = slot.serving()
        if r is not None and seed is None:
            seed = r.rng_seed()
        return orig(seed, *args, **kwargs)

    return default_rng


REPLAY_PATCHES = (
    Patch(lambda wp: wp.array, "__init__", replay_array_init),
    Patch(lambda wp: wp.array, "zero_", replay_fill),
    Patch(lambda wp: wp.array, "fill_", replay_fill),
    Patch(lambda wp: wp.array, "grad", replay_grad),  # the class attribute is the property itself
    Patch(lambda wp: wp.Tape, "backward", replay_backward),
    Patch(lambda wp: sys.modules["numpy"].random, "default_rng", replay_default_rng),  # pin unseeded draws
)


# -- Warp's read flags on foreign view parents --------------------------------------------------------
def tolerate_foreign_view_parents(wp) -> None:
    """Warp's read flags break on arrays that wrap a NumPy buffer without a copy.

    ``wp.array(np_buffer, copy=False)`` keeps the NumPy array as its view
    parent (``_ref``), and with the tracker on, ``array.mark_read`` and
    ``Tape._reset_array_read_flags`` set ``_is_read`` on every parent: an
    AttributeError inside the user's launch and ``backward()`` that a plain
    run never sees.  Both now stop at the first parent that is not a Warp
    array (``backward()`` keeps Warp's own code and falls back only on that
    error)."""
    array_cls = wp.array

    def mark_read(self):
        self._is_read = True
        parent = getattr(self, "_ref", None)
        while isinstance(parent, array_cls):
            parent._is_read = True
            parent = getattr(parent, "_ref", None)

    if hasattr(array_cls, "mark_read"):
        array_cls.mark_read = mark_read
    orig_reset = getattr(wp.Tape, "_reset_array_read_flags", None)
    if orig_reset is None:
        return

    def clear(a) -> None:
        while isinstance(a, array_cls):
            a._is_read = False
            a = getattr(a, "_ref", None)

    @functools.wraps(orig_reset)
    def reset_array_read_flags(self):
        try:
            return orig_reset(self)
        except AttributeError:
            for item in warp_seams.tape_launches(self):
                for a in item.launch.args:
                    clear(a)
            for a in warp_seams.tape_gradients(self):
                clear(a)
            return None

    wp.Tape._reset_array_read_flags = reset_array_read_flags


# -- Warp's kernel cache under the tracker ----------------------------------------
def reuse_cached_binaries(wp) -> bool:
    """Let tracked runs load cached kernel binaries instead of rebuilding every module.

    With ``verify_autograd_array_access`` on, ``Module._compile`` skips the
    kernel cache ("forced rebuild when verifying"), because the read/write
    marks the tracker needs are set by the *Python* code generation.  The
    native code does not depend on the flag, so: compile (or find in the
    cache) with the flag off, then run the Python code generation with the
    flag on, which sets the marks and emits Warp's intra-kernel warnings
    exactly as the forced rebuild would.  Same findings, without paying the
    native compile on every run.  Returns False when this Warp has no such seam.
    """
    ctx = warp_seams.context_module(wp)
    module_cls = getattr(ctx, "Module", None)
    builder_cls = getattr(ctx, "ModuleBuilder", None)
    orig = getattr(module_cls, "_compile", None)
    if orig is None or builder_cls is None or getattr(orig, "_tapewatch", False):
        return False
    try:
        takes_target = "target" in inspect.signature(builder_cls.__init__).parameters
    except (TypeError, ValueError):
        takes_target = False
    lock = getattr(ctx, "_codegen_lock", None)

    def _compile(self, device=None, output_dir=None, output_name=None, output_arch=None, use_ptx=None,
                 options=None):
        if not options or not options.get("verify_autograd_array_access") or not wp.config.cache_kernels:
            return orig(self, device, output_dir, output_name, output_arch, use_ptx, options)
        compiled = orig(self, device, output_dir, output_name, output_arch, use_ptx,
                        dict(options, verify_autograd_array_access=False))
        try:
            _codegen_marks(self, device, output_arch, options)
        except Exception:
            # The marks could not be rebuilt the quick way: do what the tracker does (a full rebuild).
            return orig(self, device, output_dir, output_name, output_arch, use_ptx, options)
        return compiled

    def _codegen_marks(module, device, output_arch, options):
        """Warp's own Python codegen window, as ``_compile`` runs it, for its side effects only."""
        if output_arch is None:
            output_arch = module._get_compile_arch(device)
        full = dict(options, output_arch=output_arch)
        is_cpu = output_arch is None
        run_codegen = getattr(module, "_run_codegen", None)
        if run_codegen is not None:
            run_codegen(full, is_cpu)  # takes Warp's codegen lock itself
            return
        kwargs = {"hasher": module.hashers.get(full["block_dim"], None)}
        if takes_target:
            kwargs["target"] = "cpu" if is_cpu else "cuda"
        with lock if lock is not None else contextlib.nullcontext():
            builder_cls(module, full, **kwargs)  # builds every kernel: the tracker's marks

    setattr(_compile, "_tapewatch", True)  # a mark on the function: already patched
    setattr(module_cls, "_compile", _compile)
    return True
