"""Which arrays share memory: by device and address range, not Python identity.

Two Warp arrays can sit over the same memory: a slice or view of another,
``reshape``/``flatten``/``transpose``, ``wp.array(ptr=...)``, two
``wp.from_torch`` of one tensor.  A write through one is a write to what
another was read through.  Spans are byte ranges ``[start, end)`` on one
device; strided views are refined element by element when small, so two
interleaved views (``a[::2]``, ``a[1::2]``) do not overlap.
"""

from __future__ import annotations

import bisect
import weakref
from typing import Any, Dict, Iterator, List, NamedTuple, Optional, Tuple

from . import warp_seams

EXACT_LIMIT = 1 << 16  # elements: strided overlaps above this are assumed


class Span(NamedTuple):
    device: str
    start: int
    end: int


_SPANS: Dict[int, tuple] = {}  # id(array) -> (a weak reference to it, its span): an array's memory never moves
MAX_SPANS = 1 << 14


def span(arr) -> Optional[Span]:
    """The byte range an array covers, or None (empty, or not addressable)."""
    known = _SPANS.get(id(arr))
    if known is not None and known[0]() is arr:
        return known[1]
    found = _span(arr)
    try:
        if len(_SPANS) >= MAX_SPANS:
            _SPANS.clear()
        _SPANS[id(arr)] = (weakref.ref(arr), found)
    except TypeError:
        pass  # not referenceable
    return found


def _span(arr) -> Optional[Span]:
    try:
        ptr = arr.ptr
        if not ptr or not arr.size:
            return None
        shape, strides = arr.shape, arr.strides
        item = _itemsize(arr)
        low = high = int(ptr)
        for n, s in zip(shape, strides):
            if s >= 0:
                high += (n - 1) * s
            else:
                low += (n - 1) * s
        return Span(str(arr.device), low, high + item)
    except Exception:
        return None


def _itemsize(arr) -> int:
    import warp as wp  # noqa: PLC0415 (the probe imports Warp before this module)

    return warp_seams.type_size(wp, arr.dtype)


def _contiguous(arr) -> bool:
    return bool(getattr(arr, "is_contiguous", False))


def overlaps(a, sa: Span, b, sb: Span) -> bool:
    """Whether two arrays share at least one byte."""
    if sa.device != sb.device or sa.end <= sb.start or sb.end <= sa.start:
        return False
    if _contiguous(a) and _contiguous(b):
        return True
    if a.size > EXACT_LIMIT or b.size > EXACT_LIMIT:
        return True  # too large to refine: assume they do
    ea, eb = _elements(a), _elements(b)
    if ea is None or eb is None:
        return True
    ia, ib = _itemsize(a), _itemsize(b)
    # Two element sets of byte ranges: any intersection?
    ranges = sorted([(x, x + ia, 0) for x in ea] + [(y, y + ib, 1) for y in eb])
    last_end = {0: -1, 1: -1}
    for start, end, who in ranges:
        if start < last_end[1 - who]:
            return True
        last_end[who] = max(last_end[who], end)
    return False


def _elements(arr) -> Optional[List[int]]:
    try:
        import numpy as np  # noqa: PLC0415

        offsets = np.zeros((), dtype=np.int64)
        for n, s in zip(arr.shape, arr.strides):
            offsets = np.add.outer(offsets, np.arange(n, dtype=np.int64) * s)
        return sorted(set((offsets.reshape(-1) + int(arr.ptr)).tolist()))
    except Exception:
        return None


class SpanIndex:
    """Arrays by address range, for the question "what here overlaps this array?"."""

    def __init__(self) -> None:
        self._by_device: Dict[str, List[Tuple[int, int, int]]] = {}  # sorted (start, seq, key)
        self._items: Dict[int, Tuple[Any, Span, Any]] = {}  # key -> (array, span, payload)
        self._longest: Dict[str, int] = {}
        self._seq = 0

    def add(self, key: int, arr, payload) -> None:
        s = span(arr)
        if s is None:
            return
        if key in self._items:
            self.remove(key)
        self._seq += 1
        bisect.insort(self._by_device.setdefault(s.device, []), (s.start, self._seq, key))
        self._items[key] = (arr, s, payload)
        self._longest[s.device] = max(self._longest.get(s.device, 0), s.end - s.start)

    def remove(self, key: int) -> None:
        item = self._items.pop(key, None)
        if item is None:
            return
        entries = self._by_device.get(item[1].device, [])
        for i, entry in enumerate(entries):
            if entry[2] == key:
                del entries[i]
                break

    def clear(self) -> None:
        self._by_device.clear()
        self._items.clear()
        self._longest.clear()

    def overlapping(self, arr) -> Iterator[Tuple[Any, Any]]:
        """``(array, payload)`` of every indexed array sharing memory with ``arr``."""
        s = span(arr)
        if s is None:
            return
        entries = self._by_device.get(s.device)
        if not entries:
            return
        lo = bisect.bisect_left(entries, (s.start - self._longest.get(s.device, 0), -1, -1))
        hi = bisect.bisect_left(entries, (s.end, -1, -1))
        for start, _, key in entries[lo:hi]:
            other, other_span, payload = self._items[key]
            if overlaps(arr, s, other, other_span):
                yield other, payload

    def __len__(self) -> int:
        return len(self._items)
