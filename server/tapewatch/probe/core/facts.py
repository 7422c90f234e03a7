"""What the probe knows about the program's own objects: one typed record per array, tape and kernel.

Sensors follow a Warp array, tape or kernel across events (where it was allocated, which backward filled
a gradient, what a tape's last launch read).  Each object carries one record, under one key of its
``__dict__`` (so it lives and dies with the object, and Warp's own attributes are never touched), with
every field declared here: a field one sensor writes and another reads is a contract this file shows.
A leaf module: imports nothing of the probe.
"""

from __future__ import annotations

from typing import Any, List, Optional, Tuple

_KEY = "_tw_facts"  # the one key a record lives under, on the object's own __dict__


class ArrayFacts:
    """A Warp array (a gradient is an array too)."""

    __slots__ = (
        "alloc_site", "filled_by", "read_after", "copy_of", "last_read", "prev_read", "copy_read", "reset_on",
        "host_read_at", "origin", "host_copy", "accumulated", "accumulator", "zeroed_at", "zeroed_again",
        "cleared_at", "filled_at", "grad_views", "zeroed", "zeroed_unread", "grad_mark", "summed", "kept",
        "summed_fill",
    )

    def __init__(self) -> None:
        self.alloc_site: Any = None  # Site of the allocation (patches: array.__init__)
        # -- the gradient lifecycle (the tracker; TW202, TW205, TW209 and the NumPy views of a gradient)
        self.filled_by: Optional[int] = None  # serial of the backward() that last filled this gradient
        self.read_after: Optional[int] = None  # that serial, once the program read the values it filled
        self.copy_of: Optional[int] = None  # a copy (``wp.clone(p.grad)``) of the gradient that backward filled
        # -- reads on tapes (the tracker; overwrites TW101-TW103, retain_grad TW203)
        self.last_read: Optional[tuple] = None  # (tape number, generation, site, launch number)
        self.prev_read: Optional[tuple] = None  # the read before last_read
        self.copy_read: Optional[tuple] = None  # (tape number, generation, site): read as a taped copy's source
        self.reset_on: Optional[tuple] = None  # (tape number, generation, site, method): zero_()/fill_() on a tape
        self.host_read_at: int = -1  # launch count when the program last read it on the host (TW203)
        # -- truncation (TW207)
        self.origin: Any = None  # truncation.Origin: the taped computation its values came from
        self.host_copy: Any = None  # truncation.HostCopy: a host copy of taped values it was made from
        # -- stale accumulators (TW209)
        self.accumulated: Any = None  # stale_accumulators.Accumulated: the launch that last accumulated into it
        self.accumulator: bool = False  # some taped launch accumulates into it
        self.zeroed_at: Any = None  # Site of the script's last zero_()/fill_() of it, as an accumulator
        self.zeroed_again: Any = None  # Site of a second such clear, from another line, before it accumulated
        self.cleared_at: Any = None  # Site of the script's own ``x.grad.zero_()`` of a filled gradient
        # -- reads of gradients after tape.zero() (TW205) and gradient accumulation (TW202)
        self.filled_at: Optional[int] = None  # launch count when a backward filled this gradient
        self.grad_views: Optional[List[Tuple[Any, Any]]] = None  # [(weakref of a NumPy view, Site)] of this gradient
        self.zeroed: Any = None  # Site of the tape.zero() that discarded filled values
        self.zeroed_unread: bool = False  # ... before the program read them
        self.grad_mark: Optional[tuple] = None  # (gradient sum, value sum, where, backward serial)
        # -- gradients summed over backward() calls (TW202)
        self.summed: Optional[tuple] = None  # (serial, array, fill site, read site, site)
        self.kept: Optional[tuple] = None  # (serial, site, fingerprint, owner fingerprint): a gradient kept
        self.summed_fill: Optional[tuple] = None  # (serial, weakref of the array, site): the backward that filled it

    @property
    def serial(self) -> Optional[int]:
        """The backward whose gradient this array holds, itself or as a copy."""
        return self.filled_by if self.filled_by is not None else self.copy_of


class TapeFacts:
    """A ``wp.Tape``."""

    __slots__ = ("state", "func_arrays", "empty_zero", "zero_site", "recorded", "torch_node")

    def __init__(self) -> None:
        self.state: Any = None  # tracker.TapeState: what was recorded on it and read by its launches
        self.func_arrays: Optional[set] = None  # ids of the arrays its record_func entries were given
        self.empty_zero: Any = None  # Site of a zero() made while it had recorded nothing
        self.zero_site: Any = None  # Site of its last reset()/zero() (TW202, gradients_not_zeroed)
        self.recorded: Optional[tuple] = None  # (launch count, first entry) when it was last reset
        self.torch_node: Optional[int] = None  # id of the PyTorch node whose backward last differentiated it


class KernelFacts:
    """A Warp kernel object."""

    __slots__ = ("made_at",)

    def __init__(self) -> None:
        self.made_at: Any = None  # Site where the program made it (``wp.Kernel(...)``, a factory's call)


def _of(obj, cls):
    d = obj.__dict__
    record = d.get(_KEY)
    if record is None:
        record = d[_KEY] = cls()
    return record


def _known(obj) -> Any:
    d = getattr(obj, "__dict__", None)
    return d.get(_KEY) if d is not None else None


def array(arr) -> ArrayFacts:
    """``arr``'s record, made on first use."""
    return _of(arr, ArrayFacts)


def known(arr) -> Optional[ArrayFacts]:
    """``arr``'s record if it has one (never makes one: asked of every array a program reads; None for an
    object that is not an array)."""
    record = _known(arr)
    return record if isinstance(record, ArrayFacts) else None


def filled(arr) -> Optional[int]:
    """The serial of the backward that filled gradient ``arr``, or None (not a filled gradient)."""
    record = known(arr)
    return record.filled_by if record is not None else None


def tape(t) -> TapeFacts:
    return _of(t, TapeFacts)


def known_tape(t) -> Optional[TapeFacts]:
    record = _known(t)
    return record if isinstance(record, TapeFacts) else None


def tape_state(t) -> Any:
    """The tracker's TapeState of tape ``t``, or None before it recorded anything."""
    record = known_tape(t)
    return record.state if record is not None else None


def kernel(k) -> KernelFacts:
    return _of(k, KernelFacts)


def known_kernel(k) -> Optional[KernelFacts]:
    record = _known(k)
    return record if isinstance(record, KernelFacts) else None


_BLANK_ARRAY = ArrayFacts()


def peek(arr) -> ArrayFacts:
    """``arr``'s record for reading, a blank one when it has none (never makes one; never write to it)."""
    return known(arr) or _BLANK_ARRAY
