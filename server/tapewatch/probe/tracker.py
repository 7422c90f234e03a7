"""Write-after-read tracking on each tape, installed as hooks on Warp.

Warp's own tracker (``verify_autograd_array_access``) stays on, and its
read/write flags are consulted to say whether Warp itself would have
reported a finding.  The findings come from this module's own bookkeeping,
which keeps the tracker's semantics but fixes what Warp gets wrong or never
sees:

- reads are remembered *per tape* and forgotten when that tape's
  ``backward()`` or ``reset()`` runs, on every Warp version (before 1.17
  Warp's flags were sticky and produced cross-iteration false positives);
- read/write sets of a kernel are the union of Warp's marks and our own AST
  analysis (Warp misses ``x`` in ``y[i] = x[i] + 1.0``);
- ``zero_()``/``fill_()`` and copies whose arrays have no gradient are
  checked too;
- Warp's warning text embeds ``str(array)`` (a host copy per warning), so
  its report is replaced by a flag and a deduplicated finding with a count.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, Callable, Dict, List, Optional, Tuple

from .. import codes
from ..model import Finding, Location, Related
from . import frames
from .kernel_access import kernel_access
from .sites import Site, def_location

_LAUNCH_CALLS = ("launch", "launch_tiled")
MAX_PENDING_TAPES = 16


class LaunchRecord:
    """One taped launch as the probe saw it (shared by every array it read)."""

    __slots__ = ("index", "kernel", "site", "args", "reads", "writes", "tape_index")

    def __init__(self, index, kernel, site, args, reads, writes, tape_index):
        self.index = index
        self.kernel = kernel
        self.site = site
        self.args = args  # the packed forward arguments, in the kernel's order
        self.reads = reads  # argument positions read
        self.writes = writes  # argument positions written
        self.tape_index = tape_index  # position in tape.launches (for the graph)

    @property
    def kernel_name(self) -> str:
        # The name the user wrote (``key`` is mangled for kernels defined in functions).
        adj = getattr(self.kernel, "adj", None)
        return getattr(adj, "fun_name", None) or getattr(self.kernel, "key", str(self.kernel))

    def arg_label(self, i: int) -> str:
        return self.kernel.adj.args[i].label

    def location(self) -> Optional[Location]:
        return self.site.location(_LAUNCH_CALLS)

    def arg_name(self, i: int) -> Optional[str]:
        """The expression the user wrote for argument ``i`` (``state.q``)."""
        snap = self.site.primary
        if snap is None:
            return None
        call = frames.call_at(snap, _LAUNCH_CALLS)
        if call is None:
            return None
        exprs = frames.launch_arg_exprs(call)
        expr = exprs[i] if i < len(exprs) else None
        return frames.user_expression(expr, self.site.snaps)


class TapeState:
    """What the probe knows about one ``wp.Tape``: its reads and launches."""

    __slots__ = ("reads", "launches", "site", "number", "captured", "no_grad")

    def __init__(self, number: int, site: Site):
        self.reads: Dict[int, Tuple[Any, LaunchRecord, int]] = {}  # id(array) -> (array, reader, arg)
        # Float arrays without requires_grad that a launch computed from arrays with it:
        # id(array) -> (array, writer, written arg, the differentiable args it read)
        self.no_grad: Dict[int, Tuple[Any, LaunchRecord, int, List[int]]] = {}
        self.launches: List[LaunchRecord] = []
        self.site = site
        self.number = number
        self.captured = False


class Tracker:
    def __init__(self, wp, emit: Callable[..., None]):
        self.wp = wp
        self.emit = emit
        self.findings: Dict[tuple, Finding] = {}
        # Tapes not yet differentiated, for the graph at exit.  Bounded: a loop
        # that makes a tape per iteration must not keep them all (and the
        # arrays their launches hold) alive to the end.
        self._pending: "OrderedDict[int, Any]" = OrderedDict()
        self._warp_flagged: set = set()
        # Warp's intra-kernel warnings at codegen: (kernel name, file) -> [(argument, line)]
        self._warp_intra: Dict[tuple, List[tuple]] = {}
        self._tape_counter = 0
        self._launch_counter = 0

    # ------------------------------------------------------------------ tapes
    def tape_state(self, tape) -> TapeState:
        state = tape.__dict__.get("_tw_state")
        if state is None:
            self._tape_counter += 1
            state = TapeState(self._tape_counter, Site([]))
            tape.__dict__["_tw_state"] = state
            self._pending[id(tape)] = tape
            while len(self._pending) > MAX_PENDING_TAPES:
                self._pending.popitem(last=False)
        return state

    def pending_tapes(self) -> list:
        """Tapes never differentiated (the most recent ones)."""
        return list(self._pending.values())

    def differentiated(self, tape) -> None:
        self._pending.pop(id(tape), None)

    def on_tape_created(self, tape) -> None:
        state = self.tape_state(tape)
        state.site = Site.here()

    def forget_reads(self, tape) -> None:
        state = tape.__dict__.get("_tw_state")
        if state is not None:
            state.reads.clear()

    def forget_launches(self, tape) -> None:
        state = tape.__dict__.get("_tw_state")
        if state is not None:
            state.launches = []

    def recording_tape(self):
        return self.wp._src.context.runtime.tape

    # --------------------------------------------------------------- launches
    def on_launch(self, tape, kernel, args, original: Callable[[], None]) -> None:
        """Called for each taped launch instead of Warp's access check."""
        state = self.tape_state(tape)
        adj = kernel.adj
        access = kernel_access(kernel)
        reads, writes = [], []
        for i, arg in enumerate(args):
            if not isinstance(arg, self.wp.array) or i >= len(adj.args):
                continue
            warp_arg = adj.args[i]
            label = warp_arg.label
            if warp_arg.is_write or label in access.writes:
                writes.append(i)
            if warp_arg.is_read or label in access.reads:
                reads.append(i)
        self._launch_counter += 1
        record = LaunchRecord(
            self._launch_counter, kernel, Site.here(), args, reads, writes, len(tape.launches) - 1
        )
        state.launches.append(record)

        self._warp_flagged.clear()
        original()  # Warp's own check: sets its flags, reports through our mark_write

        if access.intra or (record.kernel_name, kernel.adj.filename) in self._warp_intra:
            self._report_intra_kernel(record, access.intra)
        self._report_aliasing(record)
        self._check_grad_chain(state, record)
        # Writes are checked before reads are recorded: write-then-read inside
        # one kernel is fine (Warp's rule).
        for i in writes:
            arr = args[i]
            hit = state.reads.get(id(arr))
            if hit is not None and hit[1] is not record:
                self._report_overwrite(
                    "TW101", arr, hit, site=record.site, names=_LAUNCH_CALLS,
                    what=record.arg_name(i), arg=record.arg_label(i), kernel=record.kernel,
                    op=record.kernel_name, warp_reported=id(arr) in self._warp_flagged, launch=record.index,
                )
        for i in reads:
            self._remember_read(state, args[i], record, i)

    def _check_grad_chain(self, state: TapeState, record: LaunchRecord) -> None:
        """TW201: a differentiable value passes through an array without ``requires_grad``.

        Launch A reads arrays with gradients and writes a float array X
        without one; launch B reads X and writes an array with gradients.
        The backward pass of B has nowhere to put X's adjoint, so nothing
        upstream of X gets a gradient through it: silently zero.
        """
        args = record.args
        if any(self._differentiable(args[j]) for j in record.writes):
            for i in record.reads:
                hit = state.no_grad.get(id(args[i]))
                if hit is not None and hit[1] is not record:
                    self._report_chain_break(hit, record, i)
        upstream = [i for i in record.reads if self._differentiable(args[i])]
        if upstream:
            for j in record.writes:
                arr = args[j]
                if self._float(arr) and not getattr(arr, "requires_grad", False):
                    state.no_grad[id(arr)] = (arr, record, j, upstream)

    def _float(self, arr) -> bool:
        wp = self.wp
        dtype = getattr(arr, "dtype", None)
        scalar = getattr(dtype, "_wp_scalar_type_", dtype)
        return scalar in (wp.float16, wp.float32, wp.float64)

    def _differentiable(self, arr) -> bool:
        return bool(getattr(arr, "requires_grad", False)) and self._float(arr)

    def _report_chain_break(self, hit, reader: LaunchRecord, read_arg: int) -> None:
        arr, writer, written_arg, upstream_args = hit
        what = writer.arg_name(written_arg) or reader.arg_name(read_arg) or writer.arg_label(written_arg)
        upstream = "`, `".join(writer.arg_name(i) or writer.arg_label(i) for i in upstream_args)
        site = alloc_site(arr)
        writer_loc, reader_loc = writer.location(), reader.location()
        primary = site.location() if site is not None else writer_loc
        key = ("TW201", site.key() if site is not None else writer.site.key(), reader.site.key())
        if key in self.findings:
            self.findings[key].count += 1
            return
        message = (
            "`%s` is allocated without requires_grad=True, but `%s` computes it from `%s` (with gradients) "
            "and `%s` uses it for an array with one: the backward pass stops at `%s`, so `%s` get%s no gradient "
            "through it."
            % (what, writer.kernel_name, upstream, reader.kernel_name, what, upstream,
               "" if len(upstream_args) > 1 else "s")
        )
        related: List[Related] = []
        if writer_loc is not None:
            related.append(Related(writer_loc, "`%s` writes `%s` from `%s` here" % (writer.kernel_name, what, upstream),
                                   "writer"))
        if reader_loc is not None:
            related.append(Related(reader_loc, "`%s` reads `%s` here (argument `%s`)"
                                   % (reader.kernel_name, what, reader.arg_label(read_arg)), "reader"))
        # The allocation is the primary location; its callers are related.
        related.extend(allocation_related(arr, what)[1:])
        self._add(key, Finding(
            code="TW201", message=message, location=primary, severity=codes.severity("TW201"), related=related,
            data={"array": what, "upstream": upstream, "writer_kernel": writer.kernel_name,
                  "reader_kernel": reader.kernel_name, "launch": reader.index},
        ), arr=arr)

    def _remember_read(self, state: TapeState, arr, record: LaunchRecord, i: int) -> None:
        # Like Warp, a read through a view marks its parents as read too.
        while arr is not None:
            state.reads[id(arr)] = (arr, record, i)
            arr = getattr(arr, "_ref", None)

    # ------------------------------------------------- writes Warp tracks less
    def on_copy(self, dest, src) -> None:
        tape = self.recording_tape()
        if tape is None:
            return
        state = self.tape_state(tape)
        hit = state.reads.get(id(dest))
        if hit is not None:
            site = Site.here()
            op = frames.api_called() or "copy"
            names = {"copy": ("copy",), "clone": ("clone",), "assign": ("assign",)}.get(op, (op,))
            self._report_overwrite(
                "TW102", dest, hit, site=site, names=names, what=self._copy_dest_name(site, op, names),
                arg=None, kernel=None, op=_op_label(op),
                # Warp checks a copy only when both arrays carry gradients.
                warp_reported=bool(dest.__dict__.get("_is_read") and getattr(dest, "grad", None) is not None
                                   and getattr(src, "grad", None) is not None),
            )

    def on_zero_or_fill(self, arr, method: str) -> None:
        tape = self.recording_tape()
        if tape is None:
            return
        state = self.tape_state(tape)
        hit = state.reads.get(id(arr))
        if hit is None:
            return
        site = Site.here()
        what = None
        snap = site.primary
        if snap is not None:
            call = frames.call_at(snap, (method,))
            func = getattr(call, "func", None)
            if func is not None and hasattr(func, "value"):
                what = frames.user_expression(func.value, site.snaps)
        self._report_overwrite(
            "TW103", arr, hit, site=site, names=(method,), what=what, arg=None, kernel=None,
            op="%s()" % method, warp_reported=False,
        )

    def _copy_dest_name(self, site: Site, op: str, names) -> Optional[str]:
        snap = site.primary
        if snap is None:
            return None
        call = frames.call_at(snap, names)
        if call is None:
            return None
        if op == "assign" and hasattr(call.func, "value"):
            expr = call.func.value
        else:
            expr = frames.positional_arg(call, 0, "dest")
        return frames.user_expression(expr, site.snaps)

    # ---------------------------------------------------------- Warp's voice
    def on_warp_mark_write(self, arr) -> None:
        """Replaces Warp's warning (which formats the array's contents)."""
        self._warp_flagged.add(id(arr))

    # ---------------------------------------------------------------- reports
    def _report_overwrite(self, code, arr, hit, *, site, names, what, arg, kernel, op, warp_reported, launch=None):
        reader_arr, reader, reader_arg = hit
        reader_loc = reader.location()
        primary = site.location(names)
        # Identity needs the live frame (snapshots keep no locals); we are inside its call.
        what = what or frames.name_by_identity(arr, frames.innermost_user_frame()) or reader.arg_name(reader_arg) or "array"
        key = (code, what, arg, op, site.key())
        finding = self.findings.get(key)
        if finding is not None:
            finding.count += 1
            return
        where = _short_where(reader_loc, primary, reader.site, site)
        reader_label = reader.arg_label(reader_arg)
        reader_what = reader.arg_name(reader_arg) or what
        if code == "TW101":
            head = "`%s` (argument `%s` of `%s`) is overwritten by this launch" % (what, arg, op)
        elif code == "TW102":
            head = "`%s` overwrites `%s`" % (op, what)
        else:
            head = "`%s.%s` overwrites `%s`" % (what, op, what) if what else "`%s` overwrites an array" % op
        message = (
            "%s, but `%s` launched %s read it (argument `%s`) earlier on the same tape: "
            "its adjoint will replay with the overwritten values."
        ) % (head, reader.kernel_name, where, reader_label)
        if code == "TW101" and not warp_reported:
            message += " Warp's tracker did not report this."
        elif code == "TW103":
            message += " Warp's tracker does not track zero_()/fill_()."
        related: List[Related] = []
        if reader_loc is not None:
            related.append(Related(reader_loc, "`%s` read `%s` here (argument `%s`)" % (reader.kernel_name, reader_what, reader_label), "reader"))
            for outer, inner in zip(reader.site.snaps[1:], reader.site.snaps):
                related.append(Related(outer.location((inner.f_code.co_name,)),
                                       "`%s()` called from here for that read" % inner.f_code.co_name, "reader-caller"))
        reader_def = def_location(getattr(reader.kernel, "func", None))
        if kernel is not None:
            kdef = def_location(getattr(kernel, "func", None))
            if kdef is not None:
                related.append(Related(kdef, "kernel `%s` that writes `%s`" % (op, arg), "kernel"))
        if reader_def is not None and getattr(reader.kernel, "func", None) is not getattr(kernel, "func", None):
            related.append(Related(reader_def, "kernel `%s` that read it" % reader.kernel_name, "reader-kernel"))
        related.extend(allocation_related(arr, what))
        related.extend(_caller_chain(site))
        self._add(key, Finding(
            code=code, message=message, location=primary, severity=codes.severity(code), related=related,
            data={"array": what, "argument": arg, "operation": op, "reader_kernel": reader.kernel_name,
                  "reader_argument": reader_label, "warp_reported": warp_reported,
                  "launch": launch, "reader_launch": reader.index},
        ), arr=arr)

    def _report_intra_kernel(self, record: LaunchRecord, intra) -> None:
        """TW104 from our analysis and from Warp's codegen warnings (each sees cases the other misses)."""
        kernel = record.kernel
        path = kernel.adj.filename
        warp_hits = self._warp_intra.get((record.kernel_name, path), [])
        ours = {(hit.param, hit.line): hit for hit in intra}
        for param, line in warp_hits:
            ours.setdefault((param, line), None)
        for (param, line), hit in ours.items():
            key = ("TW104", record.kernel_name, path, param, line)
            if key in self.findings:
                continue  # once per kernel and statement (codegen runs once)
            warp_reported = (param, line) in warp_hits
            related = []
            if hit is not None:
                related.append(Related(Location(path, hit.read_line, 1), "`%s` read here first" % param, "read"))
            launch_loc = record.location()
            if launch_loc is not None:
                related.append(Related(launch_loc, "launch of `%s` on the tape" % record.kernel_name, "compiled-by"))
            related.extend(_caller_chain(record.site))
            if hit is not None:
                message = ("kernel `%s` writes `%s` after reading it (line %d): the adjoint reads the overwritten value."
                           % (record.kernel_name, param, hit.read_line))
            else:
                message = ("kernel `%s` writes `%s` after reading it (Warp's codegen found the read, e.g. through a "
                           "@wp.func or a local alias): the adjoint reads the overwritten value."
                           % (record.kernel_name, param))
            if not warp_reported:
                message += " Warp's tracker did not report this."
            self._add(key, Finding(
                code="TW104", message=message, location=Location(path, line, hit.column if hit else 1),
                severity=codes.severity("TW104"), related=related,
                data={"kernel": record.kernel_name, "argument": param, "warp_reported": warp_reported},
            ))

    def on_warp_codegen_warning(self, message: str) -> None:
        """Warp's intra-kernel warning at codegen; reported with the first taped launch of that kernel."""
        import re

        m = re.search(r"argument (\S+) in kernel (\S+) at (.+):(\d+) is being written to after", message)
        if m:
            self._warp_intra.setdefault((m.group(2), m.group(3)), []).append((m.group(1), int(m.group(4))))

    def _report_aliasing(self, record: LaunchRecord) -> None:
        written = {id(record.args[i]): i for i in record.writes}
        for i in record.reads:
            j = written.get(id(record.args[i]))
            if j is None or j == i:
                continue
            arr = record.args[i]
            what = record.arg_name(i) or record.arg_name(j) or "array"
            key = ("TW105", record.kernel_name, i, j, record.site.key())
            if key in self.findings:
                self.findings[key].count += 1
                continue
            related = []
            kdef = def_location(getattr(record.kernel, "func", None))
            if kdef is not None:
                related.append(Related(kdef, "kernel `%s`" % record.kernel_name, "kernel"))
            related.extend(allocation_related(arr, what))
            related.extend(_caller_chain(record.site))
            message = (
                "`%s` is passed to `%s` as `%s`, which it reads, and as `%s`, which it writes: "
                "the adjoint will read values the forward pass overwrote."
                % (what, record.kernel_name, record.arg_label(i), record.arg_label(j))
            )
            self._add(key, Finding(
                code="TW105", message=message, location=record.location(), severity=codes.severity("TW105"),
                related=related, data={"array": what, "kernel": record.kernel_name,
                                       "read_argument": record.arg_label(i), "written_argument": record.arg_label(j),
                                       "launch": record.index},
            ), arr=arr)

    def _add(self, key, finding: Finding, arr=None) -> None:
        finding.id = "f%d" % (len(self.findings) + 1)
        if arr is not None:
            finding.data["array_id"] = id(arr)
        self.findings[key] = finding
        self.emit("finding", finding=finding.to_json())

    def counts(self) -> Dict[str, int]:
        return {f.id: f.count for f in self.findings.values()}


def _op_label(op: str) -> str:
    return {"copy": "wp.copy", "clone": "wp.clone", "assign": "array.assign"}.get(op, op)


def _short_where(loc: Optional[Location], here: Optional[Location], reader_site: Site, site: Site) -> str:
    """``at line 41``; with the caller's line when both launches share a helper."""
    if loc is None:
        return "earlier"
    text = _line_ref(loc, here)
    if here is not None and (loc.path, loc.line) == (here.path, here.line):
        for r_snap, w_snap in zip(reader_site.snaps[1:], site.snaps[1:]):
            if (r_snap.f_code.co_filename, r_snap.f_lineno) != (w_snap.f_code.co_filename, w_snap.f_lineno):
                return "%s (called from %s)" % (text, _line_ref(r_snap.location(), here)[3:])
    return text


def _line_ref(loc: Location, here: Optional[Location]) -> str:
    if here is not None and here.path == loc.path:
        return "at line %d" % loc.line
    import os

    return "at %s:%d" % (os.path.basename(loc.path), loc.line)


def alloc_site(arr) -> Optional[Site]:
    """Where an array (or the array it is a view of) was allocated."""
    seen = 0
    while arr is not None and seen < 8:
        site = arr.__dict__.get("_tw_alloc_site")
        if site is not None:
            return site
        arr = getattr(arr, "_ref", None)
        seen += 1
    return None


def allocation_related(arr, what: str) -> List[Related]:
    site = alloc_site(arr)
    if site is None:
        return []
    out = [Related(site.location(), "`%s` allocated here" % what, "allocation")]
    for outer, inner in zip(site.snaps[1:], site.snaps):
        out.append(Related(outer.location((inner.f_code.co_name,)),
                           "`%s()` called from here for that allocation" % _called_name(outer, inner),
                           "allocation-caller"))
    return out


def _called_name(outer, inner) -> str:
    """What the caller wrote: ``State`` for a constructor, not ``__init__``."""
    call = frames.call_at(outer, (inner.f_code.co_name,))
    name = frames.callee_name(call) if call is not None else ""
    return name or inner.f_code.co_name


def _caller_chain(site: Site) -> List[Related]:
    out = []
    for outer, inner in zip(site.snaps[1:], site.snaps):
        loc = outer.location((inner.f_code.co_name,))
        out.append(Related(loc, "`%s()` called from here" % inner.f_code.co_name, "caller"))
    return out
