"""TW207: gradient truncation across tapes (a tape per window, state carried outside).

A long rollout split into windows, each with its own tape and its own
``backward()``, the state carried to the next window outside any tape
(``wp.copy``, ``wp.clone``, or simply reading the previous window's output):
each window's gradient is right on its own, but the gradient of a later
window stops where its state came in, so their sum is the gradient of a
different objective.  Seen at run time as: a taped launch reads values a
*previous* tape produced (directly or through untaped copies) after that
tape's ``backward()`` already ran, and both tapes read the same parameter
with ``requires_grad``.  Truncated backpropagation is sometimes meant; the
message says how to tell.

The same cut happens before a tape: steps launched outside any tape from a
parameter (a warm-up, a settling phase) whose result the tape then reads.
The gradient with respect to that parameter misses every such step; it is
reported on the untaped launch when the tape differentiates the parameter
from a loss (a backward seeded by hand chains adjoints itself, as
checkpointing does).
"""

from __future__ import annotations

import weakref
from typing import Any, Dict, List, NamedTuple, Optional

from ... import codes
from ...model import Finding, Location, Related
from ..core import facts, naming, related as rel, warp_seams
from ..core.sites import Site, ordering_snap
from ..core.kernel_access import kernel_access
from ..core.records import differentiable, is_float
from ..core.sensor import PerTape, Sensor


class TapeMark:
    """What a carried value remembers of the tape that computed it (no arrays: nothing kept alive)."""

    __slots__ = ("number", "differentiated", "backward_site", "parameters", "created", "untaped", "off_tape",
                 "values", "op", "refs", "read")

    def __init__(self, number: int, created: Optional[Site] = None, untaped: bool = False):
        self.untaped = untaped  # values computed by launches no tape recorded (a warm-up before the tape)
        self.off_tape = False  # untaped: launched with record_tape=False while a tape was recording
        self.op: Optional[str] = None  # untaped: a library operation no tape records (``wp.utils.array_sum``)
        self.number = number
        self.created = created  # where the tape object was made (a tape per window: in the loop)
        self.differentiated = False
        self.backward_site: Optional[Site] = None
        self.parameters: Dict[int, str] = {}  # id(parameter) -> its name, filled at backward()
        self.values: Dict[int, Optional[int]] = {}  # id(parameter) -> a checksum of its values at backward()
        # id(parameter) -> a weak reference to it: an id outlives its array, and a later array given the
        # same id is not the same parameter (a target rendered once, untaped, from arrays long freed).
        self.refs: Dict[int, Any] = {}
        # id(array) -> a weak reference to each array with a gradient this tape's launches read: the
        # parameters a later tape may share with a tape that is never differentiated
        self.read: Dict[int, Any] = {}

    def remember(self, arrays) -> None:
        for arr in arrays:
            try:
                self.refs[id(arr)] = weakref.ref(arr)
            except TypeError:
                pass

    def shares(self, other: "TapeMark") -> List[int]:
        """Keys of the parameters both marks hold that are still one and the same array."""
        out = []
        for key in self.parameters:
            if key not in other.parameters:
                continue
            mine, theirs = self.refs.get(key), other.refs.get(key)
            if mine is not None and theirs is not None and (mine() is None or mine() is not theirs()):
                continue
            out.append(key)
        return out


class Origin(NamedTuple):
    mark: TapeMark  # the tape that computed the values
    site: Site  # the launch that wrote them
    kernel: str
    carried: Optional[Site]  # the untaped copy that carried them, if any


class HostCopy(NamedTuple):
    """An array made from ``x.numpy()`` of what a recording tape computed (the values left Warp)."""

    mark: TapeMark  # the tape that computed ``x``
    source: str  # how the script named ``x``
    site: Site  # where the new array was made
    source_ref: Any = None  # weakref of ``x``


class Truncation(Sensor):
    CODES = ("TW207",)

    def __init__(self, tracker):
        self.tracker = tracker
        self._host_read: Optional[tuple] = None  # (line key, mark, array) of the last .numpy() while recording
        # The values of the last few such reads, for an array made from them on a later line
        # (``snaps.append(c.numpy().copy())`` … ``c = wp.array(snaps[-1])``): (checksum, shape, mark, array ref).
        self._host_values: List[tuple] = []
        self._deferred: List[tuple] = []  # (checksum of the leaf a tape started from, its report) to confirm
        # (the earlier tape's mark, (key, finding)): a gradient stopped at what a tape not yet differentiated
        # computed; reported at exit if that tape never is
        self._undifferentiated: List[tuple] = []
        self._windows: PerTape[_Window] = PerTape(_Window)
        # (copy, record, access, backward site, array ref): host copies read by a tape seeded by hand
        self._host_copies_seeded: List[tuple] = []
        # (copy, record, access): host copies of what another tape computed, read by a taped launch
        self._cross_copies: List[tuple] = []

    def on_numpy(self, arr) -> None:
        """``x.numpy()`` of a value the recording tape computed: an array made from it on this line
        carries the values, not their gradient."""
        tape = self.tracker.recording_tape()
        origin = facts.peek(arr).origin
        if tape is None or origin is None or origin.mark.untaped or not differentiable(arr):
            return
        state = facts.tape_state(tape)
        if state is None:
            return
        here = Site.here()
        self._host_read = (here.key(), origin.mark, arr)
        checksum = _checksum(arr, varied=True)
        if checksum is not None:
            if len(self._host_values) >= MAX_HOST_VALUES:
                del self._host_values[0]
            self._host_values.append((checksum, tuple(arr.shape), origin.mark, weakref.ref(arr)))

    def on_array_created(self, arr) -> None:
        read = self._host_read  # not consumed: Warp may build inner arrays first, on the same line
        site = facts.peek(arr).alloc_site
        if site is None:
            return
        if read is not None and site.key() == read[0]:
            facts.array(arr).host_copy = HostCopy(read[1], self._name(read[2]), site, weakref.ref(read[2]))
            return
        # Made on another line: the same values, varied enough not to be a coincidence (a constant
        # fill matches any constant array), come from a host copy the script kept.
        shape = tuple(getattr(arr, "shape", ()))
        candidates = [h for h in self._host_values if h[1] == shape]
        if not candidates:
            return
        checksum = _checksum(arr, varied=True)
        for value, _, mark, ref in reversed(candidates):
            if checksum is not None and value == checksum:
                source = ref()
                name = self._name(source) if source is not None else "a value this tape computed"
                facts.array(arr).host_copy = HostCopy(mark, name, site, ref)
                return

    def _mark(self, state) -> TapeMark:
        """The mark of the tape's current window of recording (made at its first use)."""
        window = self._windows.of(state)
        if window.mark is None:
            created = state.site if state.site is not None and state.site.snaps else None
            window.mark = TapeMark(state.number, created)
        return window.mark

    def _name(self, arr) -> str:
        return self.tracker.registry.attempt("naming an array", lambda: naming.name_by_identity(arr)) or \
            "a parameter"

    def on_taped_copy(self, state, dest, src) -> None:
        """``wp.clone(x, requires_grad=False)`` / ``wp.copy(plain, x)`` while the tape records: the copy
        holds differentiable values but no gradient (judged when a taped launch uses it for a gradient)."""
        if differentiable(src) and is_float(dest) and not getattr(dest, "requires_grad", False):
            self._windows.of(state).detached[id(dest)] = (weakref.ref(dest), self._name(src), Site.here())
        copied = facts.peek(src).host_copy
        if copied is not None and hasattr(dest, "__dict__"):
            # ``y.assign(f(x.numpy()))``: Warp copies through an array made from the host values; the
            # destination holds them now.
            facts.array(dest).host_copy = copied

    def _detached_reads(self, state, record) -> None:
        window = self._windows.get(state)
        if window is None or not window.detached or \
                not any(a.write and differentiable(a.array) for a in record.accesses):
            return
        for access in record.accesses:
            held = window.detached.get(id(access.array)) if access.read else None
            if held is None or held[0]() is not access.array or \
                    not kernel_access(record.kernel).gradient_reaches(record.access_label(access)):
                continue
            self._report_detached(record, access, held[1], held[2])

    def _report_detached(self, record, access, source: str, site: Site) -> None:
        registry = self.tracker.registry
        key = ("TW207", "detached", site.key())
        if registry.bump(key):
            return
        what = registry.attempt("naming an array", lambda: record.access_name(access)) or \
            record.access_label(access)
        message = ("`%s` is a copy of `%s` made without requires_grad while the tape records: the copy has no "
                   "gradient, so `%s`'s adjoint stops at `%s` and never reaches `%s` or what it depends on "
                   "(truncation). Copy with requires_grad=True (`wp.clone(%s)`), or let `%s` read `%s` itself."
                   % (what, source, record.kernel_name, what, source, source, record.kernel_name, source))
        related: List[Related] = []
        read_loc = registry.attempt("locating a launch", record.location)
        if read_loc is not None:
            related.append(Related(read_loc, "`%s` uses `%s` for a value with a gradient here"
                                   % (record.kernel_name, what), "reader"))
        loc = registry.attempt("locating a copy", lambda: site.location(("clone", "copy"))) or read_loc
        registry.report(key, Finding(code="TW207", message=message, location=loc, severity=codes.severity("TW207"),
                                     related=related, data={"array": what, "source": source, "detached": True}))

    def on_launch(self, state, record) -> None:
        self._detached_reads(state, record)
        mark = self._mark(state)
        try:
            fresh = kernel_access(record.kernel).rewritten_first
        except Exception:  # no analysis: assume every read continues
            fresh = frozenset()
        for access in record.accesses:
            arr = access.array
            copy = facts.peek(arr).host_copy if access.read else None
            if copy is not None and copy.mark is mark and facts.peek(arr).origin is None:
                pending = self._windows.of(state).host_copies
                if not any(p[0] is copy for p in pending):
                    pending.append((copy, record, access))
            elif copy is not None and copy.mark is not mark and not any(c[0] is copy for c in self._cross_copies) \
                    and len(self._cross_copies) < MAX_DEFERRED:
                self._cross_copies.append((copy, record, access))
            if access.read and differentiable(arr) and record.access_label(access) not in fresh:
                origin = facts.peek(arr).origin
                if origin is not None and origin.mark is not mark and (origin.mark.differentiated or
                                                                       origin.mark.untaped):
                    pending = self._windows.of(state).truncations
                    if not any(p[0].mark is origin.mark for p in pending):
                        pending.append((origin, record, access))
                elif origin is not None and origin.mark is not mark and origin.carried is None:
                    # Computed on another tape that has not been differentiated (yet): judged at the end.
                    pending = self._windows.of(state).undifferentiated
                    if not any(p[0].mark is origin.mark for p in pending):
                        pending.append((origin, record, access))
                elif origin is not None and origin.mark is mark and origin.carried is not None:
                    # Carried outside the recording between two stretches of this same tape.
                    carries = self._windows.of(state).carries
                    if not any(p[0].carried.key() == origin.carried.key() for p in carries):
                        carries.append((origin, record, access))
            if access.read and id(arr) not in mark.read and differentiable(arr) and \
                    getattr(facts.peek(arr).origin, "mark", None) is not mark:  # not computed here
                try:
                    mark.read[id(arr)] = weakref.ref(arr)
                except TypeError:
                    pass
            if access.write:
                facts.array(arr).origin = Origin(mark, record.site, record.kernel_name, None)

    def on_copy_carry(self, dest, src) -> None:
        """An untaped copy carries the values (and where they came from) to ``dest``."""
        origin = facts.peek(src).origin
        if origin is not None:
            facts.array(dest).origin = origin._replace(carried=origin.carried or Site.here())
        else:
            facts.array(dest).origin = None  # new values from outside any tape (a reset)

    def on_untaped_write(self, arr, op: str) -> None:
        if op in ("zero_", "fill_"):
            facts.array(arr).origin = None

    def on_refill(self, state, arr, method: str) -> None:
        """A zero_()/fill_() while a tape records: constants, carried from no earlier tape."""
        facts.array(arr).origin = None

    def on_untaped_kernel_accesses(self, kernel, accesses) -> None:
        """An untaped launch carries the origin of what it reads to what it writes."""
        self._carry(warp_seams.kernel_name(kernel), accesses)

    def on_untaped_op_accesses(self, name: str, accesses) -> None:
        """``wp.utils.array_sum`` and its kin while a tape records: Warp gives them no adjoint, so the
        gradient stops at their output whatever computed their input."""
        reads = {id(a.array): self._name(a.array) for a in accesses if a.read and differentiable(a.array)}
        written = [a.array for a in accesses if a.write and differentiable(a.array)]
        if not reads or not written:
            return
        mark = TapeMark(-1, untaped=True)
        mark.parameters, mark.off_tape, mark.op = reads, True, name
        mark.remember(a.array for a in accesses if a.read and differentiable(a.array))
        for arr in written:
            facts.array(arr).origin = Origin(mark, Site.here(), name, None)

    def _carry(self, name: str, accesses) -> None:
        origin = next((facts.peek(a.array).origin for a in accesses
                       if a.read and facts.peek(a.array).origin is not None), None)
        if origin is None:
            # Computed here from a parameter, outside any tape: a tape that reads the result and
            # differentiates that parameter misses this step.
            params = {id(a.array): "" for a in accesses if a.read and not a.write and differentiable(a.array)}
            if params and any(a.write and differentiable(a.array) for a in accesses):
                mark = TapeMark(-1, untaped=True)
                mark.parameters = params
                mark.remember(a.array for a in accesses if a.read and not a.write and differentiable(a.array))
                if self.tracker.recording_tape() is not None:
                    # Kept off a tape that is recording (record_tape=False) from an array that
                    # asks for its gradient: that gradient is wanted, whether or not the tape reads it.
                    mark.parameters = {id(a.array): self._name(a.array) for a in accesses
                                       if a.read and not a.write and differentiable(a.array)}
                    mark.off_tape = True
                origin = Origin(mark, Site.here(), name, None)
                for a in accesses:
                    if a.write:
                        facts.array(a.array).origin = origin
                return
        for a in accesses:
            if a.write:
                if origin is not None:
                    facts.array(a.array).origin = origin._replace(carried=origin.carried or Site.here())
                else:
                    facts.array(a.array).origin = None

    def before_backward(self, tape, state, site, args=(), kwargs=None) -> None:
        self._seeds_across_host_copy(args, kwargs, site)
        mark = self._mark(state)
        mark.differentiated = True
        mark.backward_site = site
        accesses = _parameter_accesses(state)
        mark.parameters = _parameters(state, accesses)
        mark.remember(arr for arr, _, _ in accesses.values())
        mark.values = {key: _checksum(arr) for key, (arr, _, _) in accesses.items()}
        # A backward seeded by hand (no loss) chains adjoints itself, as checkpointing does
        # (the forward run untaped, each segment re-recorded and seeded from the next).
        seeded_by_hand = (args[0] if args else (kwargs or {}).get("loss")) is None
        if seeded_by_hand and self._deferred:
            self._drop_recomputed(state)
        window = self._windows.of(state)
        truncations, host_copies, undifferentiated, carries = \
            window.truncations, window.host_copies, window.undifferentiated, window.carries
        window.truncations, window.host_copies, window.undifferentiated, window.carries = [], [], [], []
        window.detached = {}
        for origin, record, access in truncations:
            common = set(mark.shares(origin.mark))
            shared = sorted(name for key, name in mark.parameters.items() if key in common)
            if not shared and origin.mark.untaped and origin.mark.off_tape and not _records_functions(tape):
                shared = sorted(name for name in origin.mark.parameters.values() if name)
            if shared and origin.mark.untaped:
                if not seeded_by_hand:
                    self._report_or_defer(origin, record, access, shared, site, state)
            elif shared:
                self._report(origin, record, access, shared, mark, _stepped(origin.mark, mark))
        for copy, record, access in host_copies:
            # A tape that records functions may give such a step its adjoint itself (record_func).
            if not mark.parameters or _records_functions(tape):
                continue
            if seeded_by_hand and len(self._host_copies_seeded) < MAX_DEFERRED:
                # Seeded by hand, the program may carry the copy's gradient across the host step itself
                # (reading ``copy.grad`` to seed what it was copied from): judged at exit.
                self._host_copies_seeded.append((copy, record, access, site, weakref.ref(access.array)))
            elif not seeded_by_hand:
                self._report_host_copy(copy, record, access, site)
        waiting = []
        for origin, record, access in undifferentiated:
            shared = sorted(name for key, name in mark.parameters.items()
                            if _same(origin.mark.read.get(key), mark.refs.get(key)))
            if shared:
                waiting.append((origin, record, access, shared, site, mark.created))
        if waiting:
            window.waiting = waiting
        covered = getattr(facts.known_tape(tape), "func_arrays", None) or ()
        for origin, record, access in carries:
            if id(access.array) in covered:
                continue  # carried by a step whose adjoint the script recorded itself (tape.record_func)
            shared = [] if seeded_by_hand else _parameters_upstream(state, origin)
            if shared:
                self._report_carry(origin, record, access, shared, site, state)
        # What this tape records from now on (reused after a reset) is the next window.
        window.mark = TapeMark(state.number, mark.created)

    # -- checkpointing: untaped steps recomputed on a later tape ---------------------
    def _report_or_defer(self, origin, record, access, shared: List, site: Site, state) -> None:
        """Untaped steps before a tape are checkpointing when a later tape recomputes them and is
        seeded with the adjoint of where this tape started (``x_cp = wp.clone(x_ck)``, differentiated
        first; then the first segment re-recorded and seeded from ``x_cp.grad``).  So when this tape
        starts from a leaf that gets a gradient, the finding waits: a later backward seeded by hand
        whose tape computes the same values drops it; the end of the run reports it."""
        arr = access.array
        checksum = _checksum(arr) if getattr(arr, "requires_grad", False) and \
            not any(a.write and a.array is arr for r in state.launches for a in r.accesses) else None
        if checksum is None or len(self._deferred) >= MAX_DEFERRED:
            self._report_untaped(origin, record, access, shared, site, state)
            return
        self._deferred.append((checksum, lambda: self._report_untaped(origin, record, access, shared, site, state)))

    def _drop_recomputed(self, state) -> None:
        written = {id(a.array): a.array for r in state.launches for a in r.accesses if a.write}
        values = {_checksum(arr) for arr in written.values() if differentiable(arr)}
        self._deferred = [(checksum, report) for checksum, report in self._deferred if checksum not in values]

    def after_backward(self, tape, state) -> None:
        """A gradient reached an array another tape computed: unless that tape is differentiated before
        the run ends, the gradient stops there (``at_exit``)."""
        window = self._windows.get(state)
        waiting = window.waiting if window is not None else []
        if window is not None:
            window.waiting = []
        for origin, record, access, shared, site, created in waiting:
            grad = getattr(access.array, "grad", None)
            if grad is None or len(self._undifferentiated) >= MAX_DEFERRED:
                continue
            values = warp_seams.host_values(grad)
            if not values.any():
                continue  # nothing arrived at the hand-over: nothing is lost
            found = self._undifferentiated_finding(origin, record, access, shared, site, created)
            if found is not None:
                self._undifferentiated.append((origin.mark, found))

    def at_exit(self) -> None:
        seeded, self._host_copies_seeded = self._host_copies_seeded, []
        for copy, record, access, site, ref in seeded:
            if not _gradient_read(ref()):
                self._report_host_copy(copy, record, access, site)
        deferred, self._deferred = self._deferred, []
        for _, report in deferred:
            self.tracker.registry.attempt("reporting untaped steps before a tape", report)
        waiting, self._undifferentiated = self._undifferentiated, []
        for earlier, (key, finding) in waiting:
            if not earlier.differentiated:
                self.tracker.registry.report(key, finding)

    def _undifferentiated_finding(self, origin, record, access, shared: List, backward_site: Site,
                                  created: Optional[Site]) -> Optional[tuple]:
        """``(key, Finding)``: this tape continues from what an earlier tape computed, and that tape is
        never differentiated.  Built now (names and places), reported at exit; no arrays kept."""
        registry = self.tracker.registry
        what = registry.attempt("naming an array", lambda: record.access_name(access)) or \
            record.access_label(access)
        made = origin.mark.created
        made_loc = registry.attempt("locating a tape", lambda: made.location(("Tape",))) if made else None
        here_loc = registry.attempt("locating a tape", lambda: created.location(("Tape",))) if created else None
        back_loc = registry.attempt("locating a backward() call",
                                    lambda: backward_site.location((".backward", "backward")))
        read_loc = registry.attempt("locating a launch", record.location)
        wrote = registry.attempt("locating a launch", lambda: origin.site.location(("launch", "launch_tiled")))
        params = ", ".join("`%s`" % n for n in shared[:3])
        earlier = "the tape made %s" % rel.line_ref(made_loc, here_loc or back_loc) if made_loc else "an earlier tape"
        message = (
            "This tape continues from `%s`, which %s computed (`%s`), but that tape is never differentiated: "
            "the gradient of this backward() arrives at `%s` and stops there, so the gradient with respect to %s "
            "misses every launch recorded on the earlier tape (truncation). Record both on one tape, or carry "
            "the adjoint on: call the earlier tape's backward(grads={%s: %s.grad}) after this one."
            % (what, earlier, origin.kernel, what, params, what, what))
        related: List[Related] = []
        if made_loc is not None:
            related.append(Related(made_loc, "the earlier tape, never differentiated", "earlier-tape"))
        if wrote is not None:
            related.append(Related(wrote, "`%s` computed `%s` on it" % (origin.kernel, what), "writer"))
        if read_loc is not None:
            related.append(Related(read_loc, "`%s` reads it here, on this tape" % record.kernel_name, "reader"))
        if back_loc is not None:
            related.append(Related(back_loc, "the backward() whose gradient stops at `%s`" % what, "backward"))
        loc = _window(here_loc, back_loc) if here_loc is not None else back_loc or read_loc
        if loc is None:
            return None
        key = ("TW207", "undifferentiated", origin.mark.number, record.site.key())
        return key, Finding(code="TW207", message=message, location=loc, severity=codes.severity("TW207"),
                            related=related, data={"array": what, "parameters": shared[:3],
                                                   "earlier_tape": origin.mark.number, "never_differentiated": True})

    def _report(self, origin, record, access, shared: List, mark: TapeMark, stepped: bool = False) -> None:
        registry = self.tracker.registry
        back = origin.mark.backward_site
        key = ("TW207", back.key() if back is not None else origin.mark.number, record.site.key())
        if registry.bump(key):
            return
        what = registry.attempt("naming an array", lambda: record.access_name(access)) or \
            record.access_label(access)
        params = ", ".join("`%s`" % n for n in shared[:3])
        message = (
            "This tape continues from `%s`, which %s computed (`%s`) and whose backward() already ran: the "
            "gradient of this tape's loss stops at `%s` and never reaches the earlier tape, although %s shape%s "
            "both. Summed over the tapes, the gradient is that of a different objective (truncation). Record the "
            "whole horizon on one tape, or carry the adjoint of the state back from tape to tape (checkpointing). "
            "If truncated backpropagation is meant, ignore this."
            % (what, "its previous recording" if origin.mark.number == mark.number else "tape %d" % origin.mark.number,
               origin.kernel, what, params, "s" if len(shared) == 1 else ""))
        related: List[Related] = []
        read_loc = registry.attempt("locating a launch", record.location)
        if read_loc is not None:
            related.append(Related(read_loc, "`%s` reads the carried `%s` here, on the next tape"
                                   % (record.kernel_name, what), "reader"))
        wrote = registry.attempt("locating a launch", lambda: origin.site.location(("launch", "launch_tiled")))
        if wrote is not None:
            related.append(Related(wrote, "`%s` computed it on the earlier tape" % origin.kernel, "writer"))
        if origin.carried is not None:
            carried = registry.attempt("locating a copy", lambda: origin.carried.location(("copy", "clone",
                                                                                            "assign")))
            if carried is not None:
                related.append(Related(carried, "carried outside any tape here", "carry"))
        back_loc = registry.attempt("locating a backward() call",
                                    lambda: back.location((".backward", "backward"))) if back is not None else None
        loc = back_loc or read_loc
        made = origin.mark.created
        if made is not None and mark.created is not None and mark.number != origin.mark.number \
                and made.key() is not None and made.key() == mark.created.key():
            # A new tape object per window, made on one line: that line is the one to change.
            created = registry.attempt("locating a tape", lambda: made.location(("Tape",)))
            if created is not None:
                loc = _window(created, back_loc)
                message = "A new tape is made here for each window. " + message
                if back_loc is not None:
                    related.insert(0, Related(back_loc, "the earlier window's backward() runs here", "backward"))
        data = {"array": what, "parameters": shared[:3], "earlier_tape": origin.mark.number}
        severity = codes.severity("TW207")
        if stepped:
            # Every shared parameter changed between the windows: each window's gradient is used for its
            # own step (online learning, receding-horizon control), not summed into one.
            severity = "information"
            message += (" Here %s changed between the two backward() calls, so each window's gradient drives "
                        "its own update (online or receding-horizon optimisation), where truncation is usually "
                        "meant." % params)
            data["stepped_between_windows"] = True
        registry.report(key, Finding(code="TW207", message=message, location=loc, severity=severity,
                                     related=related, data=data))


    def _report_carry(self, origin, record, access, shared: List, backward_site: Site, state=None) -> None:
        registry = self.tracker.registry
        # A carry inside a helper (``state = clone_state(states[-1])``) is changed at the helper's call.
        ordered = registry.attempt("finding where a carry is ordered against the tape", lambda: ordering_snap(
            origin.carried, backward_site, [r.site for r in state.launches] if state is not None else []))
        where = ordered.location(()) if ordered is not None else None
        key = ("TW207", "carry", (where.path, where.line) if where else origin.carried.key(), record.site.key())
        if registry.bump(key):
            return
        from .overwrites import copy_dest_name  # noqa: PLC0415 (overwrites imports the tracker)

        what = registry.attempt("naming a copy's destination", lambda: copy_dest_name(
            origin.carried, "assign", ("assign",)) or copy_dest_name(origin.carried, "copy", ("copy", "clone"))) \
            or registry.attempt(
            "naming an array", lambda: record.access_name(access)) or record.access_label(access)
        params = ", ".join("`%s`" % n for n in shared[:3])
        message = (
            "This carries what `%s` computed into `%s` while the tape is not recording, between two stretches "
            "recorded on the same tape: backward() stops at `%s` (nothing on the tape wrote it), so the gradient "
            "with respect to %s misses every step before this carry (truncation). Do the carry inside `with "
            "tape:` (a taped copy has an adjoint), or pass the array itself to the next step."
            % (origin.kernel, what, what, params))
        related: List[Related] = []
        wrote = registry.attempt("locating a launch", lambda: origin.site.location(("launch", "launch_tiled")))
        if wrote is not None:
            related.append(Related(wrote, "`%s` computed it on the tape" % origin.kernel, "writer"))
        read_loc = registry.attempt("locating a launch", record.location)
        if read_loc is not None:
            related.append(Related(read_loc, "`%s` reads the carried `%s` here, on the same tape"
                                   % (record.kernel_name, what), "reader"))
        back_loc = registry.attempt("locating a backward() call",
                                    lambda: backward_site.location((".backward", "backward")))
        if back_loc is not None:
            related.append(Related(back_loc, "the backward() whose gradient stops at the carry", "backward"))
        loc = registry.attempt("locating a copy", lambda: origin.carried.location(
            ("copy", "clone", "assign", "launch", "launch_tiled"))) or read_loc
        if where is not None and loc is not None:
            related.insert(0, Related(loc, "the copy inside the call", "carry"))
            loc = where
        registry.report(key, Finding(code="TW207", message=message, location=loc, severity=codes.severity("TW207"),
                                     related=related, data={"array": what, "parameters": shared[:3],
                                                            "earlier_tape": None, "carried": True}))

    def _seeds_across_host_copy(self, args, kwargs, site: Site) -> None:
        """``tape_a.backward(grads={x: x.grad})`` chaining two tapes, where the second tape read ``x``
        through ``x.numpy()``: the gradient it gave the copy never reached ``x``, so this seed is empty."""
        grads = (kwargs or {}).get("grads", args[1] if len(args) > 1 else None)
        if not isinstance(grads, dict) or not self._cross_copies:
            return
        seeded = {id(a) for a in grads}
        for copy, record, access in self._cross_copies:
            source = copy.source_ref() if copy.source_ref is not None else None
            if source is not None and id(source) in seeded:
                self._report_host_copy(copy, record, access, site, chained=True)

    def _report_host_copy(self, copy: HostCopy, record, access, backward_site: Site, chained: bool = False) -> None:
        registry = self.tracker.registry
        key = ("TW207", "host", copy.site.key())
        if registry.bump(key):
            return
        what = registry.attempt("naming an array", lambda: record.access_name(access)) or \
            record.access_label(access)
        if chained:
            message = ("`%s` is made from `%s.numpy()`, a host copy of what another tape computed, and that tape's "
                       "backward() is then seeded with `%s`'s gradient: the gradient the later tape gave `%s` "
                       "never reaches `%s` through NumPy, so the seed is empty and what `%s` depends on gets no "
                       "gradient through this step (truncation). Keep the step in Warp (a kernel, `wp.copy`, or "
                       "the array itself)." % (what, copy.source, copy.source, what, copy.source, copy.source))
        else:
            message = ("`%s` is made from `%s.numpy()`, a host copy of what this tape computed: the values leave "
                       "Warp, so the gradient stops at `%s` and never reaches what `%s` depends on (truncation). "
                       "Keep the step in Warp (a kernel, `wp.copy`, or the array itself) while the tape records."
                       % (what, copy.source, what, copy.source))
        related: List[Related] = []
        read_loc = registry.attempt("locating a launch", record.location)
        if read_loc is not None:
            related.append(Related(read_loc, "`%s` reads `%s` here, on the tape" % (record.kernel_name, what), "reader"))
        back_loc = registry.attempt("locating a backward() call",
                                    lambda: backward_site.location((".backward", "backward")))
        if back_loc is not None:
            related.append(Related(back_loc, "the backward() whose gradient stops there", "backward"))
        loc = registry.attempt("locating an allocation", lambda: copy.site.location()) or read_loc
        registry.report(key, Finding(code="TW207", message=message, location=loc, severity=codes.severity("TW207"),
                                     related=related, data={"array": what, "source": copy.source,
                                                            "host_copy": True}))

    def _report_untaped(self, origin, record, access, shared: List, backward_site: Site, state) -> None:
        registry = self.tracker.registry
        # Steps launched inside a helper (``rope.advance(wind, t)``) move where the helper is called.
        ordered = registry.attempt("finding where untaped steps are ordered against the tape", lambda: ordering_snap(
            origin.site, backward_site, [r.site for r in state.launches]))
        where = ordered.location(()) if ordered is not None else None
        key = ("TW207", "untaped", (where.path, where.line) if where else origin.site.key(), record.site.key())
        if registry.bump(key):
            return
        what = registry.attempt("naming an array", lambda: record.access_name(access)) or \
            record.access_label(access)
        params = ", ".join("`%s`" % n for n in shared[:3])
        if origin.mark.op and origin.mark.op.endswith("(`cmd.launch()`)"):
            message = (
                "%s computes `%s` from %s while the tape records, but a launch command is never recorded on a "
                "tape (Warp records `wp.launch` calls only, NVIDIA/warp#522), and the tape then continues from "
                "`%s`: the gradient with respect to %s is silently zero through this step. Launch it with "
                "`wp.launch(...)` inside the tape." % (origin.mark.op, what, params, what, params))
        elif origin.mark.op:
            message = (
                "`%s` computes `%s` from %s while the tape records, but no tape records it (Warp gives it no "
                "adjoint), and the tape then continues from `%s`: the gradient with respect to %s stops there "
                "(truncation). Compute the reduction in a kernel of your own inside the tape (`wp.atomic_add` "
                "into the output)." % (origin.mark.op, what, params, what, params))
        elif origin.mark.off_tape:
            message = (
                "`%s` computes `%s` from %s with record_tape=False, so the recording tape never sees this step, and "
                "the tape then continues from `%s`: the gradient with respect to %s misses it (truncation). Drop "
                "record_tape=False." % (origin.kernel, what, params, what, params))
        else:
            message = (
                "`%s` computes `%s` from %s outside any tape, and the tape then continues from it: the gradient "
                "with respect to %s misses every step launched here (truncation). Launch these steps inside the "
                "tape (`with tape:`). If the result is meant as a fixed starting point, ignore this."
                % (origin.kernel, what, params, params))
        related: List[Related] = []
        read_loc = registry.attempt("locating a launch", record.location)
        if read_loc is not None:
            related.append(Related(read_loc, "`%s` reads `%s` here, on the tape" % (record.kernel_name, what),
                                   "reader"))
        back_loc = registry.attempt("locating a backward() call",
                                    lambda: backward_site.location((".backward", "backward")))
        if back_loc is not None:
            related.append(Related(back_loc, "the backward() whose gradient misses those steps", "backward"))
        callee = (origin.mark.op.rsplit(".", 1)[-1],) if origin.mark.op else ("launch", "launch_tiled")
        launched = registry.attempt("locating a launch", lambda: origin.site.location(callee))
        loc = where or launched or read_loc
        if origin.mark.op and launched is not None:
            # The operation itself is what to replace, wherever it is called from.
            loc = launched
            if where is not None and (where.path, where.line) != (launched.path, launched.line):
                related.insert(0, Related(where, "called from here, while the tape records", "call"))
        elif where is not None and launched is not None:
            related.insert(0, Related(launched, "`%s` launched here, inside the call" % origin.kernel, "writer"))
        registry.report(key, Finding(code="TW207", message=message, location=loc, severity=codes.severity("TW207"),
                                     related=related, data={"array": what, "parameters": shared[:3],
                                                            "earlier_tape": None}))


def _parameters_upstream(state, origin: Origin) -> List[str]:
    """The tape's parameters that the launch which wrote a carried value depends on (through the tape)."""
    carried = set()
    for r in state.launches:
        for x in r.accesses:
            o = facts.peek(x.array).origin
            if x.read and o is not None and o.carried is not None and o.mark.number == state.number:
                carried.add(id(x.array))  # a carried array is no parameter: it is the cut itself
    params = {k: v for k, v in _parameters(state).items() if k not in carried}
    upstream: Dict[int, set] = {k: {k} for k in params}  # id(array) -> the parameters it depends on
    names: set = set()
    key = origin.site.key()
    for r in state.launches:
        reads = set()
        for x in r.accesses:
            if x.read:
                reads |= upstream.get(id(x.array), set())
        if not reads:
            continue
        for x in r.accesses:
            if x.write:
                upstream[id(x.array)] = upstream.get(id(x.array), set()) | reads
        if r.site.key() == key and r.kernel_name == origin.kernel:
            names |= {params[k] for k in reads}
    return sorted(names)


def _same(ref, other) -> bool:
    """Two weak references to one live array."""
    target = ref() if ref is not None else None
    return target is not None and other is not None and other() is target


def _window(created: Location, back: Optional[Location]) -> Location:
    """From the tape's creation to its backward() when they are close in one file: the window to restructure."""
    if back is not None and back.path == created.path and 0 <= back.line - created.line <= 30:
        return Location(created.path, created.line, created.column, back.end_line or back.line,
                        back.end_column or back.column)
    return created


class _Window:
    """The Truncation sensor's record of one tape: what its current window of recording is, and the reads
    waiting to be judged at its backward()."""

    __slots__ = ("mark", "truncations", "host_copies", "undifferentiated", "waiting", "carries", "detached")

    def __init__(self) -> None:
        self.mark: Optional[TapeMark] = None
        self.truncations: List[tuple] = []  # (origin, record, access): read what a differentiated tape computed
        self.host_copies: List[tuple] = []  # (copy, record, access): read an array made from taped values
        self.undifferentiated: List[tuple] = []  # read what another tape, not yet differentiated, computed
        self.waiting: List[tuple] = []  # those, after this tape's backward: judged when it ran
        self.carries: List[tuple] = []  # read what this tape computed, carried outside its recording
        # id(copy) -> (copy ref, source name, Site): copies of differentiable values made without a gradient
        self.detached: Dict[int, tuple] = {}


def _parameters(state, accesses: Optional[Dict[int, tuple]] = None) -> Dict[int, str]:
    """The arrays with gradients a tape reads and never writes (its parameters), by identity: their names."""
    out: Dict[int, str] = {}
    for key, (_, r, x) in (accesses if accesses is not None else _parameter_accesses(state)).items():
        try:
            out[key] = r.access_name(x) or r.access_label(x)
        except Exception:
            out[key] = r.access_label(x)
    return out


def _parameter_accesses(state) -> Dict[int, tuple]:
    """id(parameter) -> (the array, the first launch record that read it, that access)."""
    return {id(arr): (arr, record, access) for arr, record, access in state.parameters()}


MAX_CHECKSUM_ELEMENTS = 1 << 20


MAX_HOST_VALUES = 8  # recent .numpy() reads of taped values kept (as checksums) for a later wp.array()
MAX_DEFERRED = 64  # untaped-steps findings waiting for a recomputing tape; more are reported at once


def _checksum(arr, varied: bool = False) -> Optional[int]:
    """A CRC of an array's values (None when too large to read back or unreadable; with ``varied``,
    also None for fewer than two distinct values: a constant matches any constant array)."""
    import zlib  # noqa: PLC0415

    try:
        size = int(getattr(arr, "size", 0) or 0)
        if size > MAX_CHECKSUM_ELEMENTS:
            return None
        values = warp_seams.host_values(arr)
        flat = values.reshape(-1)  # (the components of a vector dtype count: one spatial_vector is six values)
        if varied and (flat.size < 2 or (flat == flat[0]).all()):
            return None
        return zlib.crc32(values.tobytes())
    except warp_seams.CaptureInProgress:
        raise  # counted as not measured by the hook that asked
    except Exception:
        return None


def _stepped(earlier: TapeMark, later: TapeMark) -> bool:
    """Every parameter both tapes read changed its values between their backward() calls (each
    mark's checksums were taken at its own backward())."""
    shared = later.shares(earlier)
    if not shared:
        return False
    for key in shared:
        before, now = earlier.values.get(key), later.values.get(key)
        if before is None or now is None or now == before:
            return False
    return True


def _gradient_read(arr) -> bool:
    """The program read ``arr``'s gradient after a backward filled it (an array gone: unknown, so read)."""
    if arr is None:
        return True
    record = facts.known(getattr(arr, "grad", None))
    return record is not None and record.read_after is not None


def _records_functions(tape) -> bool:
    """The tape holds the program's own ``record_func`` entries: forward steps kept off it may have their
    adjoint there (Warp's custom-backward pattern), so an untaped step is not a truncation by itself.
    (Warp records ``wp.copy``'s adjoint that way too: that one gives no host step an adjoint.)"""
    return any(item.func is not None and not warp_seams.warps_own_function(item.func)
               for item in warp_seams.tape_items(tape))
