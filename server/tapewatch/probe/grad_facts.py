"""The gradient lifecycle, one typed record per gradient array: which backward filled it, after which
backward the program read it, which backward's gradient a copy holds.

Several sensors ask these (TW202 which zero() clears a filled gradient, TW205 a read after ``tape.zero()``,
TW209 an accumulator's gradient cleared by hand, the tracker's NumPy views of a gradient); one record with
declared fields replaces the loose ``_tw_grad_of_backward`` / ``_tw_read_serial`` / ``_tw_grad_copy_of``
keys that were a contract between modules no import showed.  A leaf module: imports nothing of the probe.
"""

from __future__ import annotations

from typing import Optional

_KEY = "_tw_grad_facts"  # the one key the record lives under, on the array's own __dict__


class GradFacts:
    __slots__ = ("filled_by", "read_after", "copy_of")

    def __init__(self) -> None:
        self.filled_by: Optional[int] = None  # serial of the backward() that last filled this gradient
        self.read_after: Optional[int] = None  # that serial, once the program read the values it filled
        self.copy_of: Optional[int] = None  # a copy (``wp.clone(p.grad)``) of the gradient that backward filled

    @property
    def serial(self) -> Optional[int]:
        """The backward whose gradient this array holds, itself or as a copy."""
        return self.filled_by if self.filled_by is not None else self.copy_of


def of(arr) -> GradFacts:
    """``arr``'s record, made on first use."""
    d = arr.__dict__
    facts = d.get(_KEY)
    if facts is None:
        facts = d[_KEY] = GradFacts()
    return facts


def known(arr) -> Optional[GradFacts]:
    """``arr``'s record if it has one (never makes one: asked of every array a program reads)."""
    d = getattr(arr, "__dict__", None)
    return d.get(_KEY) if d is not None else None


def filled(arr) -> Optional[int]:
    """The serial of the backward that filled gradient ``arr``, or None (not a filled gradient)."""
    facts = known(arr)
    return facts.filled_by if facts is not None else None
