"""The records the probe keeps of a program's tapes: what a launch touched (``Access``, ``LaunchRecord``),
who read an array (``ReadEntry``), a write waiting for its tape's backward (``PendingWrite``) and one
tape's state (``TapeState``), with the questions every sensor asks of them (``differentiable``,
``is_float``, which elements a launch reads or writes).  Data and pure functions: the tracker fills
them, the sensors read them; nothing here imports the tracker or a sensor.
"""

from __future__ import annotations

from typing import Any, Dict, List, NamedTuple, Optional, Tuple

from ...model import Location
from . import call_expressions, naming, warp_seams
from .kernel_access import kernel_access, launch_elements, patterns_apart
from .memory import SpanIndex
from .sites import Site

LAUNCH_CALLS = ("launch", "launch_tiled")

class Access(NamedTuple):
    """One array a launch touched: a kernel argument, or an array field of a struct argument."""

    pos: int  # kernel argument position
    field: str  # "" for the argument itself, ".q" / ".inner.v" inside a struct
    array: Any
    read: bool
    write: bool


class LaunchRecord:
    """One taped launch as the probe saw it (shared by every array it read)."""

    __slots__ = ("index", "kernel", "site", "args", "accesses", "tape_index", "_names", "harmless", "elements",
                 "threads")

    def __init__(self, index, kernel, site, args, accesses, tape_index, threads: Optional[int] = None):
        self.index = index
        self.kernel = kernel
        self.site = site
        self.args = args  # the packed forward arguments, in the kernel's order
        self.accesses: List[Access] = accesses
        self.tape_index = tape_index  # position in tape.launches (for the graph)
        self._names: Optional[tuple] = None
        # access label -> why overwriting what it read cannot change the gradient ("" when it can):
        # asked before every write that lands on the read, decided once (overwrites.harmless_reason).
        # Made when first asked: a run keeps every taped launch's record, and each empty dict is one
        # more object for every collection of the collector to walk.
        self.harmless: Optional[Dict[str, str]] = None
        # (argument position, field, is a write) -> the elements it touches (``_elements``): a read is compared
        # with every later write to its array, so it is evaluated once.  Made when first asked too.
        self.elements: Optional[Dict[tuple, Optional[list]]] = None
        self.threads = threads  # a 1-D launch's thread count (None for more dimensions, or unknown)

    @property
    def reads(self) -> List[int]:
        """Argument positions read directly (struct fields excluded)."""
        return [a.pos for a in self.accesses if a.read and not a.field]

    @property
    def writes(self) -> List[int]:
        return [a.pos for a in self.accesses if a.write and not a.field]

    @property
    def kernel_name(self) -> str:
        return warp_seams.kernel_name(self.kernel)

    def arg_label(self, i: int) -> str:
        params = warp_seams.kernel_params(self.kernel)
        return params[i].label if i < len(params) else "arg%d" % i

    def access_label(self, access: Access) -> str:
        """The kernel's name for an access: ``x``, ``state.q``."""
        return self.arg_label(access.pos) + access.field

    def location(self) -> Optional[Location]:
        return self.site.location(LAUNCH_CALLS)

    def arg_name(self, i: int) -> Optional[str]:
        """The expression the user wrote for argument ``i`` (``state.q``)."""
        if self._names is None:
            self._names = self._launch_names()
        return self._names[i] if i < len(self._names) else None

    def access_name(self, access: Access) -> Optional[str]:
        base = self.arg_name(access.pos)
        return base + access.field if base else None

    def _launch_names(self) -> tuple:
        snap = self.site.primary
        if snap is None:
            return ()
        # The names depend only on the instructions of the call chain: a launch in a loop names once.
        key = (tuple((s.f_code, s.f_lasti) for s in self.site.snaps), len(self.args))
        names = _NAMES_BY_CHAIN.get(key)
        if names is None:
            call = call_expressions.call_at(snap, LAUNCH_CALLS)
            exprs = call_expressions.launch_arg_exprs(call, len(self.args)) if call is not None else []
            # A tuple of strings: the collector stops tracking it (a list it would walk every time).
            names = tuple(naming.user_expression(e, self.site.snaps) for e in exprs[: len(self.args)])
            if len(_NAMES_BY_CHAIN) < MAX_NAMED_CHAINS:
                _NAMES_BY_CHAIN[key] = names
        return names

    def differentiable_paths(self) -> List[str]:
        return [self.access_label(a) for a in self.accesses if differentiable(a.array)]


def elements_apart(reader: "LaunchRecord", read: Access, writer: "LaunchRecord", write: Access) -> bool:
    """The elements ``writer`` writes are none of those ``reader`` read (``temp[t + 1]`` written,
    ``temp[t]`` read at an earlier ``t``): known when both index the array by scalar arguments."""
    try:
        read_elements = _elements(reader, read, False)
        written = _elements(writer, write, True) if read_elements else None
        return bool(read_elements and written and patterns_apart(read_elements, written))
    except Exception:  # undecided: the overwrite is reported as before
        return False


def write_elements(record: "LaunchRecord", access: Access) -> Optional[list]:
    """The elements a launch writes through ``access`` (index patterns), or None when unknown."""
    return _elements(record, access, True)


def _elements(record: "LaunchRecord", access: Access, is_write: bool) -> Optional[list]:
    key = (access.pos, access.field, is_write)
    known = record.elements
    if known is None:
        known = record.elements = {}
    if key not in known:
        values = {p.label: arg for p, arg in zip(warp_seams.kernel_params(record.kernel), record.args)}
        known[key] = launch_elements(kernel_access(record.kernel), record.access_label(access), is_write, values,
                                     record.threads)
    return known[key]


# (instructions of a launch's call chain, argument count) -> the user's expression per argument
_NAMES_BY_CHAIN: Dict[tuple, tuple] = {}
MAX_NAMED_CHAINS = 1 << 16


class ReadEntry(NamedTuple):
    array: Any
    record: LaunchRecord
    access: Access


class PendingWrite(NamedTuple):
    """A write made while the tape was not recording, reported at its backward()."""

    array: Any
    op: str  # "launch", "copy", "assign", "clone", "zero_", "fill_"
    site: Site
    kernel: Any  # for a launch
    args: list  # for a launch: its arguments (to name the array)
    readers: tuple  # every (reader, through an alias) of the array on the tape, most recent first


class TapeState:
    """What the probe knows about one ``wp.Tape``: its reads and launches."""

    def __init__(self, number: int, site: Site):
        self.reads: Dict[int, List[ReadEntry]] = {}  # id(array) -> its taped readers, oldest first
        self.spans = SpanIndex()  # the same reads, by memory
        # Float arrays without requires_grad that a launch computed from arrays with it:
        # id(array) -> (array, writer, written access, the differentiable accesses it read)
        self.no_grad: Dict[int, tuple] = {}
        self.writers: Dict[int, list] = {}  # id(array) -> retain_grad.Writer of each taped assignment
        self.launches: List[LaunchRecord] = []
        self.pending_writes: List[PendingWrite] = []
        # id(grad array) -> (grad, the array whose gradient it is), for arrays this tape read
        self.grad_of: Dict[int, Tuple[Any, Any]] = {}
        self.grad_reads: List[Any] = []  # reads of those gradients before backward() (TW205)
        self.numpy_views: Dict[int, Any] = {}  # CPU arrays read here whose NumPy view the script took
        # (kernel, site, position, field) of reads whose loop repeats differ in scalar arguments
        self.varied_repeats: set = set()
        self.site = site
        self.number = number
        self.generation = 0  # bumped each time the reads are forgotten (backward, reset)
        self.version = 0  # bumped at every change of ``reads`` (what ``Tracker.readers_of`` remembers)
        self.captured = False
        self.differentiated = False  # its backward() has been called
        self.backward_site: Optional[Site] = None

    def gradients(self):
        """The ``.grad`` of every array this tape's launches accessed (repeats included)."""
        for record in self.launches:
            for access in record.accesses:
                grad = getattr(access.array, "grad", None)
                if grad is not None:
                    yield grad

    def parameters(self) -> list:
        """``(array, record, access)`` for each float array with ``requires_grad`` the tape's launches read
        and never write (its leaves: the parameters it differentiates), at its first read, in that order."""
        written = {id(a.array) for r in self.launches for a in r.accesses if a.write}
        seen: set = set()
        out = []
        for record in self.launches:
            for access in record.accesses:
                arr = access.array
                if access.read and id(arr) not in written and id(arr) not in seen and differentiable(arr):
                    seen.add(id(arr))
                    out.append((arr, record, access))
        return out

    def clear_reads(self) -> None:
        self.generation += 1
        self.version += 1
        self.reads.clear()
        self.spans.clear()
        self.pending_writes = []
        self.writers.clear()
        self.grad_of.clear()
        self.grad_reads = []
        self.numpy_views.clear()
        self.varied_repeats.clear()


def differentiable(arr) -> bool:
    return bool(getattr(arr, "requires_grad", False)) and is_float(arr)


def is_float(arr) -> bool:
    dtype = getattr(arr, "dtype", None)
    try:
        return _FLOAT_DTYPES[dtype]
    except (KeyError, TypeError):
        known = warp_seams.scalar_type_name(dtype) in ("float16", "float32", "float64")
        try:
            _FLOAT_DTYPES[dtype] = known
        except TypeError:
            pass
        return known


_FLOAT_DTYPES: Dict[Any, bool] = {}  # dtype -> is it floating point (asked by every sensor of every launch)


def access_intra(kernel):
    """What a kernel writes after reading it, by its source (``kernel_access``)."""
    found = kernel_access(kernel)
    return found.intra or found.accumulated_after_read
