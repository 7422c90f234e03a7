"""What each tape read, and who wrote it afterwards: the probe's bookkeeping.

Warp's own tracker (``verify_autograd_array_access``) stays on, and its
read/write marks are consulted; the findings come from this bookkeeping,
which keeps the tracker's semantics but fixes what Warp gets wrong or never
sees:

- reads are remembered *per tape* and forgotten when that tape's
  ``backward()`` or ``reset()`` runs, on every Warp version (before 1.17
  Warp's flags were sticky and produced cross-iteration false positives);
- a kernel's reads and writes are the union of Warp's marks and the AST
  analysis (``kernel_access``), including arrays inside ``@wp.struct``
  arguments, which Warp never marks;
- arrays are matched by memory (device and address range), so a write
  through a view, a reshape or a second array over the same pointer is a
  write to what the tape read;
- ``zero_()``/``fill_()``, copies without gradients, and writes made after
  recording but before ``backward()`` are checked too.

The tracker builds no finding: it publishes each event on the sensor bus
(``sensor.py``), and the sensors (the overwrite engine first) report.
"""

from __future__ import annotations

import weakref
from collections import OrderedDict
from typing import Any, Callable, Dict, List, Optional, Tuple

from . import facts, user_code, warp_seams

from .kernel_access import kernel_access
from ..sensors.read_replay import ReadReplay
from .records import Access, LaunchRecord, PendingWrite, ReadEntry, TapeState
from .registry import FindingRegistry
from .sensor import Sensor, SensorBus
from .sites import Site

COMMAND_LAUNCH = "`%s` launched by a launch command (`cmd.launch()`)"  # what TW207 names it
MAX_PENDING_TAPES = 16
MAX_READERS = 8  # distinct reading call sites remembered per array and tape
MAX_UNTAPED_KERNELS = 1 << 12  # kernels whose first launch outside a tape is remembered


class Tracker:
    def __init__(self, wp, registry: FindingRegistry):
        self.wp = wp
        self.registry = registry
        # Tapes not yet differentiated, for the graph at exit.  Bounded: a loop
        # that makes a tape per iteration must not keep them all (and the
        # arrays their launches hold) alive to the end.
        self._pending: "OrderedDict[int, Any]" = OrderedDict()
        # Tapes holding reads (recorded, not yet differentiated or reset).
        self._live: "OrderedDict[int, Any]" = OrderedDict()
        # Graph captures in progress (``capture_begin`` .. ``capture_end``): launches are recorded, not run.
        self.captures = 0
        self._capture_started: List[bool] = []  # per capture_begin not yet ended: did a capture start?
        self.zeroed_in_capture: set = set()  # ids of arrays zero_()'d (or tape.zero()'d) in the capture so far
        self.written_in_capture: set = set()  # ids of arrays an untaped launch or copy wrote in the capture so far
        # (id of the array, Site) of each zero_() in the capture so far: the graph's zeroing, for TW202
        self.zero_sites_in_capture: List[tuple] = []
        self._warp_flagged: List[Any] = []
        self._covered: set = set()
        self._current: Optional[LaunchRecord] = None
        # ``readers_of`` answers for one taped launch: asked before it runs (read_replay keeps what
        # its writes overwrite) and again as Warp records it, with no read recorded in between.
        # (state, its version) and id(array) -> (array, readers); emptied when that launch is recorded.
        self._readers_tag: Optional[tuple] = None
        # (kernel, arguments, accesses) of the taped launch about to run, from ``before_taped_launch``
        self._launch_accesses: Optional[tuple] = None
        self._readers_memo: Dict[int, tuple] = {}
        # Warp's intra-kernel warnings at codegen: (kernel name, file) -> [(argument, line)]
        self.warp_intra: Dict[tuple, List[tuple]] = {}
        self.warp_intra_functions: set = set()  # the keys of warp_intra that name a @wp.func
        # id(kernel) -> (kernel, Site of its first launch outside a tape): Warp warns at codegen for
        # every kernel of a module, and a warning no taped launch reports is shown there at exit.
        self.untaped_kernels: Dict[int, Tuple[Any, Site]] = {}
        self._tape_counter = 0
        self._launch_counter = 0
        # The sensors, and who hears which event (``sensor.py``); set by ``startup.install``.
        self.bus = SensorBus([], self.registry.call)
        # While backward() runs a ``record_func`` callback: (tape state, its index on the tape, name).
        self.replaying: Optional[Tuple[Any, int, str]] = None
        # The values overwritten reads held, replayed at backward() (is the gradient affected?).
        self.read_replay = ReadReplay(self)
        self.last_grad_zero: Optional[tuple] = None  # (backward serial, where[, "again"])
        self._zeroed_since: Tuple[int, set] = (-1, set())  # ids of gradients zeroed since that backward

    # ------------------------------------------------------------------ tapes
    def tape_state(self, tape) -> TapeState:
        state = facts.tape_state(tape)
        if state is None:
            self._tape_counter += 1
            state = TapeState(self._tape_counter, Site([]))
            facts.tape(tape).state = state
            self._pending[id(tape)] = tape
            while len(self._pending) > MAX_PENDING_TAPES:
                self._pending.popitem(last=False)
        return state

    def pending_tapes(self) -> list:
        """Tapes never differentiated (the most recent ones)."""
        return list(self._pending.values())

    def live_tapes(self) -> list:
        return list(self._live.values())

    def differentiated(self, tape) -> None:
        self._pending.pop(id(tape), None)

    def on_tape_created(self, tape) -> None:
        state = self.tape_state(tape)
        state.site = Site.here()

    def forget_reads(self, tape) -> None:
        state = facts.tape_state(tape)
        if state is not None:
            state.clear_reads()
        self._live.pop(id(tape), None)

    def forget_launches(self, tape) -> None:
        state = facts.tape_state(tape)
        if state is not None:
            state.launches = []

    def recording_tape(self):
        return warp_seams.recording_tape(self.wp)

    # ------------------------------------------------------------ graph capture
    @property
    def sensors(self) -> list:
        return self.bus.sensors

    def listen(self, sensors: list) -> None:
        """The sensors that hear this tracker's events, in the order they hear them."""
        self.bus = SensorBus(sensors, self.registry.call)

    @property
    def capturing(self) -> bool:
        """A graph capture records now (Warp's, or one other code started on this device's stream):
        nothing may be read back, synchronised or launched by the probe."""
        return self.captures > 0 or warp_seams.capture_active(self.wp)

    def on_capture_begin(self, started: bool) -> None:
        self._capture_started.append(started)
        if started:
            self.captures += 1
            self.zeroed_in_capture = set()
            self.written_in_capture = set()
            self.zero_sites_in_capture = []

    def on_capture_end(self, graph) -> None:
        if self._capture_started.pop() if self._capture_started else True:
            self.captures = max(0, self.captures - 1)

    # --------------------------------------------------------------- launches
    def accesses(self, kernel, args) -> List[Access]:
        """The arrays a launch reads and writes: Warp's marks ∪ the AST analysis."""
        wp = self.wp
        params = warp_seams.kernel_params(kernel)
        access = kernel_access(kernel)
        out: List[Access] = []
        for i, arg in enumerate(args):
            if i >= len(params):
                break
            label = params[i].label
            if isinstance(arg, wp.array):
                write = bool(getattr(params[i], "is_write", False)) or label in access.writes
                read = bool(getattr(params[i], "is_read", False)) or label in access.reads
                if read or write:
                    out.append(Access(i, "", arg, read, write))
            elif arg is not None and warp_seams.is_struct_instance(wp, arg):
                for path, arr in warp_seams.struct_arrays(wp, arg, label):
                    read = any(p in access.reads for p in _prefixes(path))
                    write = path in access.writes
                    if read or write:
                        out.append(Access(i, path[len(label):], arr, read, write))
        return out

    def before_taped_launch(self, kernel, args) -> None:
        """A taped launch is about to run: keep what its writes will overwrite (see read_replay)."""
        tape = self.recording_tape()
        state = facts.tape_state(tape) if tape is not None else None
        if state is None or not state.reads:
            return
        accesses = self.accesses(kernel, args)
        # Warp hands the same arguments to its access check a moment later (``on_launch``): kept until then.
        self._launch_accesses = (kernel, list(args), accesses)
        for acc in accesses:
            if acc.write:
                self.read_replay.before_write(state, acc.array)

    def on_launch(self, tape, kernel, args, original: Callable[[], None]) -> None:
        """Called for each taped launch instead of Warp's access check (``original`` runs it)."""
        state = self.tape_state(tape)
        kept, self._launch_accesses = self._launch_accesses, None
        if kept is not None and kept[0] is kernel and len(kept[1]) == len(args) and \
                all(a is b for a, b in zip(kept[1], args)):
            accesses = kept[2]
        else:
            accesses = self.accesses(kernel, args)
        self._launch_counter += 1
        record = LaunchRecord(self._launch_counter, kernel, Site.here(), args, accesses, warp_seams.tape_length(tape) - 1,
                              warp_seams.last_launch_threads(tape))
        state.launches.append(record)
        self._current = record
        original()  # Warp's own check: sets its flags, reports through our mark_write
        try:
            # The overwrite engine and the gradient chain hear it first (``startup.SENSORS``): writes are
            # checked before this launch's reads are recorded (write-then-read inside one kernel is fine,
            # Warp's rule).
            self.bus.tell(Sensor.on_launch, "checking the launch of `%s`" % record.kernel_name, state, record)
        finally:
            for acc in accesses:
                if acc.read:
                    self.remember_read(tape, state, acc.array, record, acc)
            self._readers_tag, self._readers_memo = None, {}  # holds no array past its launch

    def forget_launch(self) -> None:
        """A launch ended (or raised before Warp checked it): its arguments are not held any longer."""
        self._launch_accesses = None

    def begin_launch(self) -> None:
        self._warp_flagged = []
        self._covered = set()
        self._current = None

    def end_launch(self, tape, kernel, args) -> None:
        """Tapewatch ⊇ Warp: what Warp flagged and no finding explains is still reported.

        Also the fallback when ``on_launch`` failed: the finding goes out with
        the kernel's own labels at the innermost user frame.
        """
        flagged, self._warp_flagged = self._warp_flagged, []
        if not flagged:
            return
        record = self._current
        state = self.tape_state(tape)
        if record is None:  # on_launch failed before recording the launch
            self._launch_counter += 1
            record = LaunchRecord(self._launch_counter, kernel, Site.here(), args, [], warp_seams.tape_length(tape) - 1)
        for arr in flagged:
            if id(arr) not in self._covered:
                self.bus.tell(Sensor.on_warp_flag, "reporting Warp's flag on `%s`" % record.kernel_name,
                              state, record, arr)

    @property
    def warp_flagged(self) -> List[Any]:
        """The arrays Warp's tracker flagged at the launch being recorded."""
        return self._warp_flagged

    def cover(self, arr) -> None:
        """A finding of this launch explains Warp's flag on ``arr``."""
        self._covered.add(id(arr))

    def remember_read(self, tape, state: TapeState, arr, record: LaunchRecord, access: Access) -> None:
        entry = ReadEntry(arr, record, access)
        state.version += 1
        readers = state.reads.get(id(arr))
        if readers is None:
            readers = state.reads[id(arr)] = []
            state.spans.add(id(arr), arr, readers)
        # One entry per reading call site and argument (a loop's repeats replace each other).
        same = (record.kernel, record.site.key(), access.pos, access.field)
        kept = []
        for e in readers:
            if (e.record.kernel, e.record.site.key(), e.access.pos, e.access.field) != same:
                kept.append(e)
            elif same not in state.varied_repeats and _scalars(e.record.args) != _scalars(record.args):
                # A repeat with other scalar arguments (``ctrl[t]`` at each step ``t``) read other elements:
                # the last repeat, the one kept, does not speak for it in a replay.
                state.varied_repeats.add(same)
        readers[:] = kept[-(MAX_READERS - 1):]
        readers.append(entry)
        grad = getattr(arr, "grad", None) if getattr(arr, "requires_grad", False) else None
        if grad is not None:
            state.grad_of[id(grad)] = (grad, arr)
        last = facts.peek(arr).last_read
        if last is not None and last[3] != record.index:
            facts.array(arr).prev_read = last
        facts.array(arr).last_read = (state.number, state.generation, record.site, record.index)
        if id(tape) not in self._live:
            self._live[id(tape)] = tape
            while len(self._live) > MAX_PENDING_TAPES:
                self._live.popitem(last=False)

    def readers_of(self, state: TapeState, arr) -> List[Tuple[ReadEntry, bool]]:
        """``(reader, through_alias)`` for every read on this tape of ``arr``'s memory, most recent
        first (the list is shared: not to be changed)."""
        tag = self._readers_tag
        if tag is None or tag[0] is not state or tag[1] != state.version:
            self._readers_tag, self._readers_memo = (state, state.version), {}
        known = self._readers_memo.get(id(arr))
        if known is not None and known[0]() is arr:
            return known[1]
        out = self._readers_of(state, arr)
        try:
            # Weak: a write outside any launch (a copy, an untaped launch) fills the memo too, and nothing may
            # keep the program's array alive after it let go of it.
            self._readers_memo[id(arr)] = (weakref.ref(arr), out)
        except TypeError:
            pass  # not referenceable: asked again next time
        return out

    def _readers_of(self, state: TapeState, arr) -> List[Tuple[ReadEntry, bool]]:
        out = [(e, False) for e in state.reads.get(id(arr), ())]
        for other, entries in state.spans.overlapping(arr):
            if other is not arr:
                out.extend((e, True) for e in entries)
        if not out:
            # Not addressable (no pointer): views are matched through their parents.
            parent, depth = warp_seams.view_parent(arr), 0
            while parent is not None and depth < 8:
                entries = state.reads.get(id(parent))
                if entries:
                    out.extend((e, True) for e in entries)
                    break
                parent, depth = warp_seams.view_parent(parent), depth + 1
        # The most recent reader first: its adjoint runs first against the new values.
        out.sort(key=lambda item: (-item[0].record.index, item[1]))
        return _distinct_readers(out)

    # ------------------------------------------------- writes Warp tracks less
    def _seed_write(self, arr) -> None:
        self.bus.tell(Sensor.on_seed_write, "remembering a gradient seed", arr)

    def on_copy(self, dest, src) -> None:
        self._seed_write(dest)
        serial = facts.filled(src)
        if serial is not None and hasattr(dest, "__dict__"):
            # ``g = wp.clone(p.grad)`` (to clip it): a later ``g.zero_()`` zeroes the copy, not the gradient
            facts.array(dest).copy_of = serial
        tape = self.recording_tape()
        if tape is None:
            self.bus.tell(Sensor.on_copy_carry, "following a copy", dest, src)
            self.on_untaped_write(dest, "copy")
            return
        state = self.tape_state(tape)
        # Warp marks a taped copy's source as read; the copy's adjoint never uses the values,
        # so a later write to the source is harmless (see overwrites.report_warp_flag).
        facts.array(src).copy_read = (state.number, state.generation, Site.here())
        self.bus.tell(Sensor.on_taped_copy, "checking a taped copy", state, dest, src)

    def on_zero_or_fill(self, arr, method: str) -> None:
        if self.captures and method == "zero_":
            self.zeroed_in_capture.add(id(arr))  # the graph zeroes it each time it runs
            self.zero_sites_in_capture.append((id(arr), Site.here()))
        self._seed_write(arr)
        record = facts.known(arr)
        serial = record.serial if record is not None else None
        if serial is not None and method == "zero_":
            if self.last_grad_zero is None or self.last_grad_zero[0] != serial:
                # the first gradient zeroed after that backward (where a missing zero_() goes), for TW202
                self.last_grad_zero = (serial, Site.here())
                self._zeroed_since = (serial, {id(arr)})
            elif id(arr) in self._zeroed_since[1]:
                # The same gradient zeroed twice after one backward: a copy-pasted line that meant
                # another gradient is the line to change (it wins over the first zero_()).
                if len(self.last_grad_zero) == 2:
                    self.last_grad_zero = (serial, Site.here(), "again")
            else:
                self._zeroed_since[1].add(id(arr))
        tape = self.recording_tape()
        if tape is None:
            self.on_untaped_write(arr, method)
            return
        state = self.tape_state(tape)
        self.bus.tell(Sensor.on_refill, "following a zero_()/fill_()", state, arr, method)

    def on_untaped_launch(self, kernel, args) -> None:
        """A launch no tape records: its writes may clobber what a live tape read."""
        if self.captures:
            # (an optimizer step captured with the training step: the graph updates the parameters itself)
            self.written_in_capture.update(id(a.array) for a in self.accesses(kernel, args) if a.write)
        if id(kernel) not in self.untaped_kernels and len(self.untaped_kernels) < MAX_UNTAPED_KERNELS:
            self.untaped_kernels[id(kernel)] = (kernel, Site.here())
        self.bus.tell(Sensor.on_untaped_kernel, "noting an untaped launch", kernel)
        if any(getattr(facts.known(a), "zeroed", None) is not None for a in args if hasattr(a, "__dict__")):
            # An optimizer's kernel reading a gradient tape.zero() cleared after a backward filled it; a read
            # while a live tape read its array is a read before that tape's backward (TW205 says so there).
            for acc in self.accesses(kernel, args):
                if acc.read and not self.gradient_owners(acc.array):
                    self._zeroed_read(acc.array, "a launch of `%s`" % warp_seams.kernel_name(kernel))
        carriers = self.bus.listeners(Sensor.on_untaped_kernel_accesses)
        if not self._live and not carriers:
            return
        accesses = self.accesses(kernel, args)
        self.bus.tell(Sensor.on_untaped_kernel_accesses, "following an untaped launch", kernel, accesses)
        if not self._live:
            return
        for acc in accesses:
            if acc.write:
                self._note_untaped(acc.array, "launch", kernel, args)
        self.bus.tell(Sensor.on_untaped_launch, "checking an untaped launch", kernel, accesses)

    def on_command_launch(self, kernel, args) -> None:
        """``cmd.launch()`` of a recorded launch command: outside a tape an untaped launch; while a tape records,
        a step the tape never sees (Warp records only ``wp.launch``)."""
        if self.recording_tape() is None:
            self.on_untaped_launch(kernel, args)
            return
        accesses = self.accesses(kernel, args)
        self.bus.tell(Sensor.on_untaped_op_accesses, "following a launch command",
                      COMMAND_LAUNCH % warp_seams.kernel_name(kernel), accesses)

    def on_untaped_op(self, name: str, inputs: list, output) -> None:
        """A Warp library operation no tape records (``wp.utils.array_sum``) ran while a tape records."""
        arrays = [a for a in inputs if isinstance(a, self.wp.array)]
        if output is None or not isinstance(output, self.wp.array):
            return
        accesses = [Access(n, "", a, True, False) for n, a in enumerate(arrays)]
        accesses.append(Access(len(arrays), "", output, False, True))
        self.bus.tell(Sensor.on_untaped_op_accesses, "following an operation no tape records", name, accesses)

    def on_numpy(self, arr) -> None:
        """The script took ``arr.numpy()`` (a read, and on the CPU a writable view)."""
        self._zeroed_read(arr, "`.numpy()`")
        if facts.filled(arr) is not None:  # a gradient a backward filled, read after its tape is done
            self.bus.tell(Sensor.on_gradient_numpy, "checking a gradient's .numpy()", arr)
        if not self._live:
            return
        self.bus.tell(Sensor.on_numpy, "checking a .numpy() call", arr)

    def on_grad_view(self, grad, view) -> None:
        self.bus.tell(Sensor.on_grad_view, "remembering a gradient's NumPy view", grad, view)

    def on_adjoint_launch(self, kernel) -> None:
        self.bus.tell(Sensor.on_adjoint_launch, "noting an adjoint the program launched", kernel)

    def on_to_torch(self, arr, tensor) -> None:
        self.bus.tell(Sensor.on_to_torch, "noting a PyTorch tensor over a Warp array", arr, tensor)

    def on_from_torch(self, arr, tensor) -> None:
        self.bus.tell(Sensor.on_from_torch, "noting an array over a PyTorch tensor", arr, tensor)

    def on_array_created(self, arr) -> None:
        if self.recording_tape() is not None:  # only arrays made while a tape records matter to the sensors
            self.bus.tell(Sensor.on_array_created, "noting an array made while a tape records", arr)

    def on_copy_source(self, src) -> None:
        self._zeroed_read(src, "a copy")
        if not self._live:
            return
        self.bus.tell(Sensor.on_read, "checking a copy's source", src, "wp.copy")

    def _zeroed_read(self, arr, how: str) -> None:
        """A read of a gradient that tape.zero() cleared after a backward filled it (grad_reads)."""
        record = facts.known(arr)
        if record is not None and record.filled_by is not None:
            record.read_after = record.filled_by  # read after that backward filled it
        if record is not None and record.zeroed is not None:
            self.bus.tell(Sensor.on_zeroed_grad_read, "checking a read of a zeroed gradient", arr, how)

    def on_tape_zero(self, tape) -> None:
        if self.captures:
            state = facts.tape_state(tape)
            self.zeroed_in_capture.update(id(g) for g in warp_seams.tape_gradients(tape))
            self.zeroed_in_capture.update(id(g) for g in (state.gradients() if state is not None else ()))
        self.bus.tell(Sensor.on_tape_zero, "checking a tape's zero()", tape)

    def on_untaped_write(self, arr, op: str) -> None:
        if self.captures:
            self.written_in_capture.add(id(arr))
        self.bus.tell(Sensor.on_untaped_write, "following an untaped write", arr, op)
        if self._live:
            self._note_untaped(arr, op, None, [])

    def _note_untaped(self, arr, op: str, kernel, args) -> None:
        """Remember a write to what a live tape read; reported if that tape's backward() runs.

        A write made by a ``record_func`` callback while backward() replays that tape is
        reported at once when a launch recorded before the callback read it: that launch's
        adjoint is still to come and will see the new values.
        """
        site = None
        for tape in list(self._live.values()):
            state = facts.tape_state(tape)
            if state is None:
                continue
            readers = self.readers_of(state, arr)
            replaying = self.replaying if self.replaying is not None and self.replaying[0] is state else None
            if replaying is not None:
                readers = [(e, alias) for e, alias in readers if e.record.tape_index < replaying[1]]
            if not readers:
                continue
            self.read_replay.before_write(state, arr)
            site = site or Site.here()
            if op == "copy":
                op = user_code.api_called() or "copy"
            pending = PendingWrite(arr, op, site, kernel, list(args), tuple(readers))
            if replaying is not None:
                self.bus.tell(Sensor.on_pending_writes, "reporting writes made during backward()", state,
                              state.backward_site or site, [pending], replaying[2])
                continue
            same_readers = {e.record.index for e, _ in readers}
            if not any(p.site.key() == site.key() and {e.record.index for e, _ in p.readers} == same_readers
                       for p in state.pending_writes):
                state.pending_writes.append(pending)

    def tapes_reading(self, arr) -> List[Tuple[Any, TapeState]]:
        """Live tapes (recorded, not yet differentiated) that read ``arr``'s memory."""
        out = []
        for tape in list(self._live.values()):
            state = facts.tape_state(tape)
            if state is not None and self.readers_of(state, arr):
                out.append((tape, state))
        return out

    def gradient_owners(self, grad) -> List[Tuple[TapeState, Any]]:
        """``(tape state, array)`` for live tapes that read the array whose gradient ``grad`` is."""
        out = []
        for tape in list(self._live.values()):
            state = facts.tape_state(tape)
            hit = state.grad_of.get(id(grad)) if state is not None else None
            if hit is not None and hit[0] is grad:
                out.append((state, hit[1]))
        return out

    # ---------------------------------------------------------- Warp's voice
    def on_warp_mark_write(self, arr) -> None:
        """Replaces Warp's warning (which formats the array's contents)."""
        self._warp_flagged.append(arr)

    def on_warp_codegen_warning(self, message: str, statement: Callable[[], Optional[tuple]]) -> None:
        """Warp's intra-kernel warning at codegen; reported with the first taped launch of that kernel,
        else at exit (``overwrites.report_intra_off_tape``).  ``statement`` says where codegen is, for
        the warning that names only the array (an atomic after a read)."""
        import re  # noqa: PLC0415

        m = re.search(r"argument (\S+) in kernel (\S+) at (.+):(\d+) is being written to after", message)
        where = statement()
        if m is not None:
            key = (m.group(2), m.group(3))
            self.warp_intra.setdefault(key, []).append((m.group(1), int(m.group(4))))
        else:
            bare = re.match(r"\s*Array (\S+) is being written to after", message)
            if bare is None or where is None:
                # Never silence: a warning Warp printed that cannot be placed becomes a TW910 quoting it.
                raise ValueError("Warp's intra-kernel warning names no kernel: %s" % " ".join(message.split()))
            key = where[:2]
            self.warp_intra.setdefault(key, []).append((bare.group(1), where[2]))
        if where is not None and where[:2] == key and where[3]:
            self.warp_intra_functions.add(key)  # Warp says "kernel"; it is a @wp.func a kernel calls

    def launch_count(self) -> int:
        """Taped launches so far: a clock for "before or after this tape began recording"."""
        return self._launch_counter

    def counts(self) -> Dict[str, int]:
        return self.registry.counts()


def _prefixes(path: str) -> List[str]:
    parts = path.split(".")
    return [".".join(parts[: i + 1]) for i in range(len(parts))]


def _distinct_readers(items):
    seen, out = set(), []
    for entry, alias in items:
        key = (entry.record.index, entry.access.pos, entry.access.field)
        if key not in seen:
            seen.add(key)
            out.append((entry, alias))
    return out


def _scalars(args) -> tuple:
    """A launch's scalar arguments (a step index, a time): what tells two repeats of one line apart."""
    return tuple(a for a in args if isinstance(a, (int, float)))
