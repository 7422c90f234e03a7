"""Checks a graph capture could not run, run on the graph's first replay.

Inside ``wp.ScopedCapture`` (or ``capture_begin``/``capture_end``) a
``tape.backward()`` is recorded, not run: no value exists to compare, and
anything the probe copied, synchronised or launched there would break the
capture or join the user's graph.  The structural checks still run at record
time (overwrites, TW405, the graph); the value checks wait:

- each such backward is kept with the capture that recorded it
  (``defer``), and the capture's graph carries them (``on_capture_end``);
- on the graph's first ``wp.capture_launch`` the probe waits for the
  replay, then runs the per-launch adjoint checks (TW404) and the
  non-finite gradient check (TW403/TW407) on the values the replay left,
  exactly as after an uncaptured backward;
- what cannot be checked is counted, with the reason: a graph never
  launched, a tape reset or recorded again before the replay, and the
  measurements that need the values *before* the backward (what an
  overwrite replays, gradients summed across steps).
"""

from __future__ import annotations

import weakref
from typing import List, NamedTuple, Optional

from ..core import warp_seams

# Replays after the first at which gradients summed across steps (TW202) are looked for: each costs a
# synchronisation and a host copy of the tape's parameters and gradients.
ACCUMULATION_REPLAYS = 3

NEVER_LAUNCHED = "recorded inside a graph capture whose graph was never launched"
TAPE_CHANGED = "recorded inside a graph capture, and the tape was reset or recorded again before the graph ran"
# What needs the values of each launch as it ran (the replay leaves only the last): counted, never silent.
NOT_REPLAYED = ("measuring whether overwrites change the gradient",)


class Deferred(NamedTuple):
    tape: "weakref.ReferenceType"
    entries: tuple  # ids of the tape's records when its backward was captured (the tape holds them)
    args: tuple
    kwargs: dict
    orig_backward: object
    site: object
    signature: tuple
    launches: int  # taped launches the per-launch check would have looked at
    zeroed: frozenset  # ids of the gradients the graph itself zeroes before this backward
    written: frozenset = frozenset()  # ids of arrays the graph writes outside the tape (an update step)
    zero_mark: int = 0  # zero_() calls in the capture before this backward (``tracker.zero_sites_in_capture``)
    zeros_after: tuple = ()  # (id of the array, Site) of each zero_() the graph makes after this backward


class CapturedChecks:
    def __init__(self, wp, tracker, checks):
        self.wp = wp
        self.tracker = tracker
        self.checks = checks
        self._recording: List[Deferred] = []  # backwards of the capture in progress
        self._waiting = 0  # launches of deferred backwards whose graph has not run yet
        # graph -> its deferred backwards; weak: a dropped graph takes them along (counted at exit)
        self._by_graph: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
        # graph -> (its backwards, replays left to look for summed gradients, their leaves)
        self._replayed: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()

    def defer(self, tape, args, kwargs, orig_backward, site, signature: tuple) -> None:
        """A backward recorded inside a capture: keep what its checks need until the graph runs."""
        registry = self.tracker.registry
        for what in NOT_REPLAYED:
            from ..core.registry import CAPTURE_REASON  # noqa: PLC0415 (the registry imports the seams)

            registry.skip(what, CAPTURE_REASON)
        launches = sum(1 for _ in warp_seams.tape_launches(tape))
        self._recording.append(Deferred(weakref.ref(tape), _identities(tape), tuple(args),
                                        dict(kwargs), orig_backward, site, signature, launches,
                                        frozenset(self.tracker.zeroed_in_capture),
                                        zero_mark=len(self.tracker.zero_sites_in_capture)))
        self._waiting += launches

    def on_capture_end(self, graph) -> None:
        """The capture's backwards belong to its graph."""
        recorded, self._recording = self._recording, []
        if not recorded:
            return
        if graph is None:
            self._skip(recorded, NEVER_LAUNCHED)
            return
        written = frozenset(self.tracker.written_in_capture)
        zeros = tuple(self.tracker.zero_sites_in_capture)
        self._by_graph.setdefault(graph, []).extend(d._replace(written=written, zeros_after=zeros[d.zero_mark:])
                                                    for d in recorded)

    def before_replay(self, graph) -> None:
        """A later replay of a graph whose backward already ran: gradients left from the last replay
        and parameters changed since (an optimizer step) mean the graph adds to a stale gradient."""
        known = self._replayed.get(graph)
        if known is None:
            return
        items, left, _ = known
        if left <= 0:
            del self._replayed[graph]
            return
        self.wp.synchronize_device(getattr(graph, "device", None))
        registry = self.tracker.registry
        leaves = []
        for item in items:
            tape = item.tape()
            if tape is not None and _identities(tape) == item.entries:
                found = registry.attempt("checking gradient accumulation", lambda: self.checks.steps_without_zero.before(
                    tape, item.site, item.zeroed, replayed=True, updated=item.written,
                    graph_zeros=item.zeros_after), [])
                leaves.append((item, tape, found))
        self._replayed[graph] = (items, left - 1, leaves)

    def after_replay(self, graph) -> None:
        """The graph ran: on its first replay, the checks its capture could not run."""
        known = self._replayed.get(graph)
        if known is not None:
            self.wp.synchronize_device(getattr(graph, "device", None))
            for item, tape, leaves in known[2]:
                self._mark(tape, leaves, item)
            return
        deferred: Optional[list] = self._by_graph.pop(graph, None)
        if not deferred:
            return
        self._waiting -= sum(d.launches for d in deferred)
        device = getattr(graph, "device", None)
        self.wp.synchronize_device(device)  # the replay is asynchronous on a GPU
        registry = self.tracker.registry
        for item in deferred:
            tape = item.tape()
            if tape is None or _identities(tape) != item.entries:
                self._skip([item], TAPE_CHANGED)
                continue
            if self.checks.check_launches:
                registry.attempt("checking launch adjoints after a graph replay",
                                 lambda: self.checks.launches.check_tape(tape, item.signature))
            pending = {"site": item.site, "finite": True}
            registry.attempt("checking gradients for NaN/Inf after a graph replay",
                             lambda: self.checks.nonfinite.after_backward(
                                 tape, item.args, item.kwargs, item.orig_backward, pending, item.signature))
            self._mark(tape, self.checks.steps_without_zero.leaves(tape), item)
        self._replayed[graph] = (deferred, ACCUMULATION_REPLAYS, [])

    def _mark(self, tape, leaves, item: Deferred) -> None:
        """What the replay's backward left, for the next replay's look at summed gradients."""
        leaves = [leaf for leaf in leaves if id(leaf[0].grad) not in item.zeroed]
        self.tracker.registry.attempt("checking gradient accumulation",
                                      lambda: self.checks.steps_without_zero.after(tape, leaves, item.site))

    def at_exit(self) -> None:
        """Graphs captured and never launched (dropped, or still held at exit): their checks never ran."""
        if self._waiting > 0 and self.checks.check_launches:
            self.checks.launches.skipped[NEVER_LAUNCHED] += self._waiting
        self._waiting = 0

    def _skip(self, items, reason: str) -> None:
        launches = sum(d.launches for d in items)
        self._waiting -= launches if reason != TAPE_CHANGED else 0
        if self.checks.check_launches:
            self.checks.launches.skipped[reason] += launches


def _identities(tape) -> tuple:
    return tuple(id(entry) for entry in warp_seams.tape_entries(tape))
