"""Every private Warp attribute Tapewatch touches, named once.

Warp's public API has no hooks for what the probe needs (the launches a
tape recorded, the read/write marks codegen sets, the tape that records
now), so the probe reads a few private attributes.  They live here and
nowhere else: a Warp upgrade that moves one touches this file only.
Capabilities are detected (``hasattr``, ``inspect.signature``), never read
from version strings; the differences between Warp 1.14 and the newest
are handled here.

Stdlib and Warp only.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import sys
from typing import Any, Iterator, List, NamedTuple, Optional


class LaunchEntry(NamedTuple):
    """One kernel launch recorded on a tape (``tape.launches[i]`` is a list in this order)."""

    kernel: Any
    dim: Any
    max_blocks: Any
    inputs: list
    outputs: list
    device: Any
    block_dim: Any
    metadata: dict

    @property
    def args(self) -> list:
        """Forward arguments in the kernel's parameter order."""
        return list(self.inputs) + list(self.outputs)

    @property
    def caller(self) -> Optional[dict]:
        """Warp's own record of the launching frame (``file``, ``lineno``), if any."""
        meta = self.metadata if isinstance(self.metadata, dict) else {}
        caller = meta.get("caller")
        return caller if isinstance(caller, dict) else None


class TapeItem(NamedTuple):
    """A position on a tape: a launch or a ``record_func`` callable."""

    index: int  # type: ignore[assignment]  # shadows tuple.index: a tape position reads best as .index
    launch: Optional[LaunchEntry]
    func: Any  # the callable for a record_func entry, else None


def tape_items(tape) -> List[TapeItem]:
    """Every entry of a tape in recording order."""
    out = []
    for i, entry in enumerate(getattr(tape, "launches", ()) or ()):
        if callable(entry):
            out.append(TapeItem(i, None, entry))
        elif isinstance(entry, (list, tuple)) and len(entry) >= 6:
            padded = list(entry[:8]) + [None] * (8 - min(len(entry), 8))
            if not isinstance(padded[7], dict):
                padded[7] = {}
            out.append(TapeItem(i, LaunchEntry(*padded), None))
    return out


def warps_own_module(name: str) -> bool:
    """A module of Warp's implementation; Warp's own tests and examples are programs like any other."""
    return name.startswith("warp.") and not name.startswith(("warp.tests", "warp.examples"))


def warps_own_function(func) -> bool:
    """A ``record_func`` backward Warp recorded itself (``wp.copy``'s adjoint copy), not the program's
    hand-written one."""
    return warps_own_module(getattr(func, "__module__", None) or "")


def tape_entries(tape) -> list:
    """A tape's raw records, by identity (to tell whether a tape still holds an earlier recording)."""
    return list(getattr(tape, "launches", ()) or ())


class TapeLaunch(NamedTuple):
    """A kernel launch's position on a tape."""

    index: int  # type: ignore[assignment]  # as TapeItem.index
    launch: LaunchEntry


def tape_launches(tape) -> Iterator[TapeLaunch]:
    """Only the kernel launches of a tape (``record_func`` entries skipped)."""
    return (TapeLaunch(item.index, item.launch) for item in tape_items(tape) if item.launch is not None)


def tape_gradients(tape) -> list:
    """The gradient arrays a tape knows (``tape.gradients`` values)."""
    grads = getattr(tape, "gradients", None) or {}
    return list(grads.values())


def replace_tape_func(tape, index: int, func) -> None:
    tape.launches[index] = func


def runtime(wp):
    return wp._src.context.runtime


def recording_tape(wp):
    """The tape that records launches now, or None (also before Warp's runtime exists: arrays
    made while a module is imported, before ``wp.init()``)."""
    return getattr(runtime(wp), "tape", None)


@contextlib.contextmanager
def suspended_tape(wp):
    """Nothing launched inside is recorded on the user's tape; restored even on error."""
    rt = runtime(wp)
    saved, rt.tape = rt.tape, None
    try:
        yield saved
    finally:
        rt.tape = saved


_originals: dict = {}


def remember_original(name: str, func) -> None:
    """Keep Warp's own function before the probe wraps it."""
    _originals.setdefault(name, func)


def real_launch(wp):
    """Warp's own ``launch`` (before any wrapper the probe installs)."""
    return _originals.get("launch") or wp._src.context.launch


def view_parent(arr) -> Any:
    """The array a view was taken from (``_ref``), or None."""
    return getattr(arr, "_ref", None)


def warp_read_flag(arr) -> bool:
    """Warp's tracker flag: the array was read by a taped launch and not cleared since."""
    return bool(arr.__dict__.get("_is_read", False))


def kernel_params(kernel) -> list:
    """Warp's argument descriptors of a kernel (``label``, ``is_read``, ``is_write``, ``type``).

    Warp's own list, not a copy (asked several times per launch): read it, never change it."""
    adj = getattr(kernel, "adj", None)
    return getattr(adj, "args", None) or []


def utils_module(wp):
    """``warp.utils``, where the array reductions live (the module users call them through)."""
    import importlib  # noqa: PLC0415

    return importlib.import_module(wp.__name__ + ".utils")


def kernel_name(kernel) -> str:
    """The name the user wrote (``key`` is mangled for kernels defined in functions)."""
    adj = getattr(kernel, "adj", None)
    return getattr(adj, "fun_name", None) or getattr(kernel, "key", None) or str(kernel)


def kernel_source(kernel) -> Optional[str]:
    return getattr(getattr(kernel, "adj", None), "source", None)


def kernel_file(kernel) -> Optional[str]:
    return getattr(getattr(kernel, "adj", None), "filename", None)


def backward_enabled(wp, kernel):
    """(enabled, where it is decided): ``kernel``, ``module`` or ``config`` option."""
    options = getattr(kernel, "options", None) or {}
    value = options.get("enable_backward")
    source = "kernel"
    if value is None:
        module = getattr(kernel, "module", None)
        value = (getattr(module, "options", None) or {}).get("enable_backward", True)
        source = "module"
        if value is False and getattr(wp.config, "enable_backward", True) is False:
            source = "config"
    return value is not False, source


def function_class(wp):
    return getattr(wp._src.context, "Function", None)


def custom_grad(func_obj) -> Any:
    """The ``@wp.func_grad`` of a ``@wp.func``, or None."""
    return getattr(func_obj, "custom_grad_func", None)


def custom_replay(func_obj) -> Any:
    return getattr(func_obj, "custom_replay_func", None)


def is_struct_instance(wp, value) -> bool:
    return bool(wp._src.types.is_struct(value))


def is_struct_type(wp, dtype) -> bool:
    """A ``@wp.struct`` type (as a function parameter's annotation)."""
    return isinstance(dtype, getattr(wp._src.codegen, "Struct", ()))


def is_array_like(wp, value) -> bool:
    return bool(wp._src.types.is_array(value))


def struct_arrays(wp, value, prefix: str, depth: int = 0) -> list:
    """``[(path, array)]`` for the arrays inside a ``@wp.struct`` value, nested structs included."""
    if depth > 8:
        return []
    out = []
    cls = getattr(value, "_cls", None)
    fields = getattr(cls, "vars", None) if cls is not None else None
    names = list(fields) if isinstance(fields, dict) else list(getattr(value, "__annotations__", {}) or {})
    if not names:
        names = [n for n in vars(value) if not n.startswith("_")] if hasattr(value, "__dict__") else []
    for name in names:
        try:
            item = getattr(value, name)
        except Exception:
            continue
        path = "%s.%s" % (prefix, name)
        if isinstance(item, wp.array):
            out.append((path, item))
        elif item is not None and is_struct_instance(wp, item):
            out.extend(struct_arrays(wp, item, path, depth + 1))
    return out


def resolved_block_dim(wp, block_dim):
    """What ``Tape.backward`` passes as the adjoint's block_dim (a marker type from 1.17 on)."""
    ctx = wp._src.context
    if hasattr(ctx, "_ResolvedBlockDim") and block_dim is not None:
        return ctx._ResolvedBlockDim(block_dim)
    return block_dim


def get_adjoint(wp, holder, value):
    """``Tape.get_adjoint`` on any object with a ``gradients`` dict (no tape needed)."""
    return wp.Tape.get_adjoint(holder, value)


class CaptureInProgress(Exception):
    """The probe was about to touch the device while a graph capture records it.

    Inside a capture (``wp.ScopedCapture``, ``wp.capture_begin``) launches are recorded, not run: a
    host copy or a synchronisation there breaks the capture (CUDA error 901 later), and a launch of
    the probe's own would join the user's graph.  Whatever needed values is not measured, and said
    so (``FindingRegistry.not_measured``), never an internal error."""


def array_capturing(arr) -> bool:
    """A graph capture is in progress on the device of an array (or of a launch): its values cannot be
    read back now.  (A CPU capture records through APIC; before Warp 1.19 the CPU device does not say
    ``is_capturing`` while it does.)"""
    device = getattr(arr, "device", None)
    try:
        if getattr(device, "is_capturing", False):
            return True
        warp = sys.modules.get("warp")
        recording = getattr(runtime(warp), "_apic_capture", None) if warp is not None else None
        return recording is not None and getattr(recording, "device", None) == device
    except Exception:
        return False


def capture_active(wp) -> bool:
    """Any graph capture in progress in this process (Warp's, on any device, or one started on the
    current device's stream by other code)."""
    rt = runtime(wp)
    if rt is None:
        return False
    if getattr(rt, "_apic_capture", None) is not None or getattr(rt, "captures", None):
        return True
    try:
        return bool(wp.get_device().is_capturing)
    except Exception:
        return False


def host_values(arr):
    """``arr``'s values on the host, as NumPy (a view on the CPU: copy it before changing it).

    Every value the probe reads goes through here: inside a graph capture it raises
    ``CaptureInProgress`` instead of copying, and on a CUDA device it first waits for the
    stream the program launches on (``.numpy()`` copies on the default stream, which a
    non-blocking stream does not wait for)."""
    device = getattr(arr, "device", None)
    if array_capturing(arr):
        raise CaptureInProgress("a value read back inside a graph capture")
    if device is not None and getattr(device, "is_cuda", False):
        stream = getattr(device, "stream", None)
        if stream is not None and not getattr(stream, "is_blocking", True):
            stream.synchronize()
    return arr.numpy()


def device_snapshot(wp, arr):
    """A private copy of ``arr`` on its own device, enqueued where the program launches (no host copy and
    no synchronisation: on a GPU it costs what a device-to-device copy costs); never on a recording tape,
    never inside a graph capture (``CaptureInProgress``)."""
    if array_capturing(arr):
        raise CaptureInProgress("a copy enqueued inside a graph capture")
    with suspended_tape(wp):
        return wp.clone(arr, requires_grad=False)


def readable_values(arr):
    """``host_values``, or None for an array NumPy cannot read (a struct dtype, a freed buffer); inside a
    graph capture it still raises ``CaptureInProgress`` (not measured is said, never silent)."""
    try:
        return host_values(arr)
    except CaptureInProgress:
        raise
    except Exception:
        return None


def backward_log_globals(orig_backward) -> Optional[dict]:
    """The namespace ``Tape.backward`` looks ``log_warning`` up in (to mute replayed warnings)."""
    env = getattr(orig_backward, "__globals__", None)
    return env if env is not None and "log_warning" in env else None


@contextlib.contextmanager
def muted_backward_warnings(orig_backward):
    env = backward_log_globals(orig_backward)
    if env is None:
        yield
        return
    had = env["log_warning"]
    env["log_warning"] = lambda *a, **k: None
    try:
        yield
    finally:
        env["log_warning"] = had


def function_signature(fn):
    """(``[(parameter, type)]``, return type or None) of a built ``@wp.func``."""
    inputs = list((getattr(fn, "input_types", None) or {}).items())
    ret = getattr(getattr(fn, "adj", None), "return_var", None)
    return inputs, (ret[0].type if ret and len(ret) == 1 else None)


def type_shape(dtype) -> tuple:
    """``(3,)`` for a vec3, ``(3, 3)`` for a mat33, ``()`` for a scalar."""
    return tuple(int(n) for n in (getattr(dtype, "_shape_", ()) or ()))


def scalar_type_name(dtype) -> str:
    """``float32`` for ``float32``, ``vec3f``, ``mat33f``..."""
    if dtype is float:
        return "float32"
    scalar = getattr(dtype, "_wp_scalar_type_", dtype)
    return getattr(scalar, "__name__", "")


_TYPE_SIZES: dict = {}  # dtype -> bytes (asked for every array of every taped launch)


def type_size(wp, dtype) -> int:
    try:
        return _TYPE_SIZES[dtype]
    except (KeyError, TypeError):
        size = int(wp._src.types.type_size_in_bytes(dtype))
        try:
            _TYPE_SIZES[dtype] = size
        except TypeError:
            pass  # not hashable: asked again next time
        return size


def type_repr(wp, dtype) -> str:
    try:
        return wp._src.types.type_repr(dtype)
    except Exception:
        return getattr(dtype, "__name__", str(dtype))


def tape_length(tape) -> int:
    return len(getattr(tape, "launches", ()) or ())


def last_launch_threads(tape) -> Optional[int]:
    """The thread count of the tape's newest launch when it is 1-D (``dim=n`` or ``dim=(n,)``), else None."""
    launches = getattr(tape, "launches", None)
    entry = launches[-1] if launches else None
    if not isinstance(entry, (list, tuple)) or len(entry) < 2:
        return None
    dim = entry[1]
    if isinstance(dim, (tuple, list)):
        dim = dim[0] if len(dim) == 1 else None
    return dim if isinstance(dim, int) and not isinstance(dim, bool) and dim > 0 else None


def codegen_module(wp):
    return wp._src.codegen


def context_module(wp):
    return wp._src.context


def codegen_statement():
    """(function name, file, line, is a ``@wp.func``) of the statement Warp's code generation is
    translating, from the nearest frame holding its ``Adjoint`` (``adj``), or None outside code generation.

    Warp's intra-kernel warning for an atomic after a read (``atomic_op_dispatch_func``'s
    ``mark_write()``) names only the array; this is where it was.
    """
    frame = sys._getframe(1)
    while frame is not None:
        adj = frame.f_locals.get("adj")
        if adj is not None and all(hasattr(adj, a) for a in ("fun_name", "filename", "lineno", "fun_lineno")):
            return (adj.fun_name, adj.filename, int(adj.lineno) + int(adj.fun_lineno),
                    bool(getattr(adj, "is_user_function", False)))
        frame = frame.f_back
    return None


# -- capabilities -------------------------------------------------------------
def autograd_module():
    try:
        return importlib.import_module("warp.autograd")  # not imported by ``import warp``
    except ImportError:
        return None


def gradcheck_restores_inputs() -> bool:
    """``warp.autograd.gradcheck(restore_inputs=...)`` exists (Warp >= 1.17)."""
    autograd = autograd_module()
    try:
        return "restore_inputs" in inspect.signature(autograd.gradcheck).parameters
    except (AttributeError, TypeError, ValueError):
        return False


def features(wp) -> dict:
    """What this Warp can do, detected rather than read from its version.

    Kept per installation (``fact_cache``): finding out imports ``warp.autograd``.
    """
    from . import fact_cache  # noqa: PLC0415

    digest = fact_cache.key("features", 1, fact_cache.installation(wp))
    known = fact_cache.load("features", digest)
    if isinstance(known, dict) and all(isinstance(v, bool) for v in known.values()):
        return known
    found = _features(wp)
    fact_cache.store("features", digest, found)
    return found


def _features(wp) -> dict:
    ctx = wp._src.context
    autograd = autograd_module()
    backward = getattr(getattr(wp.Tape, "backward", None), "__code__", None)
    return {
        # ``Tape.backward`` calls ``self._reset_array_read_flags()`` (Warp >= 1.17)
        "backward_clears_reads": hasattr(wp.Tape, "_reset_array_read_flags") and backward is not None
        and "_reset_array_read_flags" in backward.co_names,
        "copy_warning_location": hasattr(ctx, "_copy_caller_location"),
        "logger": hasattr(wp, "set_logger"),
        "gradcheck_restore_inputs": gradcheck_restores_inputs(),
        "gradcheck_tape": hasattr(autograd, "gradcheck_tape"),
    }
