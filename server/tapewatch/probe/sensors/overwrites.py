"""Overwrite findings (TW101–TW107): messages, related locations, severity.

Every finding is placed on the call the user must change (the launch, the
copy, the ``zero_()``), names arrays as the user wrote them, and says
whether the gradient is really affected: an overwrite only corrupts the
gradient through values the reader's adjoint uses, so a reader that is
linear in the overwritten array (or that produces nothing with a gradient)
makes the finding information, with the reason.

Naming and related locations degrade: a step that fails is recorded as an
internal error and the finding goes out with the kernel's own labels.
"""

from __future__ import annotations

import os
from typing import Any, Dict, List, Optional, Tuple

from ... import codes
from ...model import Finding, Location, Related
from ..core import call_expressions, facts, naming, related as rel, source_patterns, user_code, warp_seams
from ..core.kernel_access import IntraKernelWrite, kernel_access
from ..core.sensor import Sensor
from ..core.records import access_intra, elements_apart
from ..core.sites import Site, ordering_snap

COPY_OPS = {"copy": "wp.copy", "clone": "wp.clone", "assign": "array.assign"}


def harmless_reason(entry) -> Optional[str]:
    """Why an overwrite of what ``entry`` read cannot change the gradient, or None (decided once
    per read: the launch's arrays and kernel do not change)."""
    record, access = entry.record, entry.access
    label = record.access_label(access)
    known = record.harmless
    if known is None:
        known = record.harmless = {}
    reason = known.get(label)
    if reason is None:
        reason = known[label] = _harmless_reason(record, label) or ""
    return reason or None


# (kernel, label, differentiable labels, any differentiable write) -> reason or "": the verdict
# depends on nothing else, and a launch in a loop asks it again for every new launch record
_HARMLESS: Dict[tuple, str] = {}


def _harmless_reason(record, label: str) -> Optional[str]:
    from ..core.records import differentiable  # noqa: PLC0415

    writes_gradient = any(differentiable(a.array) for a in record.accesses if a.write)
    paths = record.differentiable_paths()
    key = (record.kernel, label, tuple(paths), writes_gradient)
    reason = _HARMLESS.get(key)
    if reason is None:
        reason = ""
        if not writes_gradient:
            reason = ("`%s` writes no array with requires_grad, so no gradient flows back through its adjoint"
                      % record.kernel_name)
        elif not kernel_access(record.kernel).adjoint_uses(label, paths):
            reason = ("`%s` is linear in `%s`: its adjoint does not use the overwritten values, so the gradient "
                      "is unaffected" % (record.kernel_name, label))
        if len(_HARMLESS) < 1 << 16:
            _HARMLESS[key] = reason
    return reason or None


def pick_reader(readers) -> Tuple[Any, bool]:
    """The reader whose adjoint the overwrite corrupts: the most recent one that uses the values,
    else the most recent one (``readers`` is most recent first)."""
    for entry, alias in readers:
        try:
            if harmless_reason(entry) is None:
                return entry, alias
        except Exception:
            return entry, alias
    return readers[0]


def overwrite(tracker, code, arr, entry, alias, *, site: Site, names, what, arg, kernel, op, warp_reported,
               launch=None, head=None, key_extra=(), extra_related=(), primary=None, state=None, readers=None,
               key=None, accumulates=False, accumulator: Optional[str] = None):
    """Report (or count again) one overwrite; ``state``/``readers``: the tape and every reader of the
    array on it, whose adjoints ``read_replay`` replays at backward() to measure the harm."""
    registry = tracker.registry
    reader = entry.record
    writer_loc = None
    if not what:
        what = registry.attempt("naming an overwritten array",
                                lambda: naming.name_by_identity(arr))
    reader_what = registry.attempt("naming the reading launch's array", lambda: reader.access_name(entry.access))
    what = what or reader_what or "array"
    rebound = None if alias else _rebound(registry, what, reader_what, site, reader, names)
    if primary is None:
        primary = registry.attempt("locating an overwrite", lambda: site.location(names)) or _raw_location(site)
        if rebound is not None:
            # The statement that made two entries one array is the line to change; the launch is right
            # for two arrays.
            writer_loc, primary = primary, rebound[1]
    key = key or (code, what, arg, op, site.key()) + tuple(key_extra)
    registry.attempt("keeping the overwritten reads for replay",
                     lambda: tracker.read_replay.register(state, key, readers or [(entry, alias)]))
    existing = registry.get(key)
    if existing is not None:
        # A measured verdict stands until the next measurement (at backward()), not a static one.
        upgrade = existing.severity == "information" and not existing.data.get("harmless_measured") and \
            (accumulates or registry.attempt("deciding whether the reader's adjoint uses the values",
                                             lambda: harmless_reason(entry)) is None)
        if not upgrade:
            registry.bump(key)
            return

    def build():
        reader_label = reader.access_label(entry.access)
        reader_loc = registry.attempt("locating the reading launch", reader.location)
        where = registry.attempt("describing the reading launch",
                                 lambda: rel.short_where(reader_loc, primary, reader.site, site), "earlier")
        shared = ""
        if alias:
            shared = " (`%s` shares memory with `%s`, which the reader was given)" % (what, reader_what or "it")
        if rebound is not None:
            shared = _REBOUND_PHRASES[rebound[0]].format(what=what, reader_what=reader_what, text=rebound[2])
        lead = head or _head(code, what, arg, op)
        # A ring of too few buffers (``self.n_buf = 2``, states picked with ``% n``): its length is the line
        # to change, the pick and the launch come with it.
        ring = registry.attempt("finding where a ring's length is set", lambda: source_patterns.ring_size(site)) \
            if code == "TW101" and getattr(reader.kernel, "func", None) is getattr(kernel, "func", None) else None
        location = ring[0] if ring is not None else primary
        launch_loc = writer_loc or primary
        if launch_loc is not location:  # the finding sits on the statement that made the alias, or the ring
            lead = lead.replace("by this launch", "by the launch %s" % rel.line_ref(launch_loc, location))
        message = "%s%s, but `%s` launched %s read it (argument `%s`) earlier on the same tape: " \
                  "its adjoint will replay with the overwritten values." % (
                      lead, shared, reader.kernel_name, where, reader_label)
        harmless = None if accumulates else registry.attempt("deciding whether the reader's adjoint uses the values",
                                                             lambda: harmless_reason(entry))
        if accumulates:
            # Warp clears an array's gradient between its versions only where a launch assigns it.
            message += (" The array was emptied with zero_()/fill_() and `%s` accumulates into it (`+=` / "
                        "`wp.atomic_*`) instead of assigning it: Warp clears an array's gradient between its "
                        "versions only when a launch assigns it, so in backward() `%s`'s adjoint also receives the "
                        "gradient meant for the earlier version (measured: twice the gradient for two versions), "
                        "however linear `%s` is. Accumulate into a fresh array (e.g. `wp.zeros_like`) instead of "
                        "emptying this one." % ((accumulator or op,) * 2 + (reader.kernel_name,)))
        if code in ("TW101", "TW102") and not warp_reported and not alias:
            message += " Warp's tracker did not report this."
        elif code == "TW103":
            message += " Warp's tracker does not track zero_()/fill_()."
        if harmless:
            message += " Harmless here: %s." % harmless
        related: List[Related] = []
        if reader_loc is not None:
            related.append(Related(reader_loc, "`%s` read `%s` here (argument `%s`)"
                                   % (reader.kernel_name, reader_what or what, reader_label), "reader"))
            related.extend(registry.attempt("listing the reader's callers", lambda: [
                Related(outer.location((inner.f_code.co_name,)),
                        "`%s()` called from here for that read" % inner.f_code.co_name, "reader-caller")
                for outer, inner in zip(reader.site.snaps[1:], reader.site.snaps)], []))
        if ring is not None:
            message += (" The ring has fewer buffers (`%s = %d`) than the steps on this tape, so a step writes a "
                        "buffer an earlier step read: make the ring as long as the steps on the tape (one buffer "
                        "per step, plus the initial state)." % ring[1:])
            if rebound is not None:
                related.append(Related(primary, "`%s` picks a buffer the ring reuses" % rebound[2], "pick"))
        if writer_loc is not None or ring is not None:
            related.append(Related(launch_loc, "`%s` overwrites `%s` here" % (op, what), "writer"))
        elif rebound is not None:
            related.append(Related(rebound[1], "`%s` makes two entries one array" % rebound[2], "rebinding"))
        if kernel is not None:
            related.extend(rel.kernel_def(kernel, "kernel `%s` that writes `%s`" % (op, arg)))
        if getattr(reader.kernel, "func", None) is not getattr(kernel, "func", None):
            related.extend(rel.kernel_def(reader.kernel, "kernel `%s` that read it" % reader.kernel_name,
                                          "reader-kernel"))
        related.extend(registry.attempt("finding the allocation", lambda: rel.allocation(arr, what), []))
        related.extend(registry.attempt("listing the callers", lambda: rel.caller_chain(site), []))
        related.extend(rel.library_frame(site))
        related.extend(extra_related)
        data = {"array": what, "argument": arg, "operation": op, "reader_kernel": reader.kernel_name,
                "reader_argument": reader_label, "warp_reported": warp_reported,
                "launch": launch, "reader_launch": reader.index}
        if alias:
            data["alias_of"] = reader_what
        if accumulates:
            data["gradient_versions_mix"] = True
        if harmless:
            data["harmless"] = harmless
        return Finding(code=code, message=message, location=location,
                       severity="information" if harmless else codes.severity(code), related=related, data=data)

    if existing is not None:
        registry.replace(key, build())
        return
    registry.report(key, build, arrays=[arr], launches=[launch, reader.index])


# What each kind of statement that made the overwritten array the reader's says in the message.
_REBOUND_PHRASES = {
    "rebinding": " (`{what}` is the array the reader was given as `{reader_what}`: `{text}` made two entries "
                 "one array)",
    "pool": " (`{text}` picks a buffer of a ring that an earlier step of this tape used)",
    "swap": " (`{text}` hands each step the buffer the step before read: swapping two buffers reuses them; give "
            "each step a fresh output, e.g. `wp.empty_like`)",
    "reuse": " (`{text}` hands every step of the loop the one buffer, which an earlier step of this tape read: "
             "give each step its own, e.g. `wp.empty_like`)",
    "slot": " (`{text}` picks the slot this launch writes, one an earlier step of this tape read: a few slots "
            "reused in turn; give each step its own)",
}


def _rebound(registry, what, reader_what, site, reader, names) -> Optional[Tuple[str, Location, str]]:
    """The statement that made the written array the one the reader was given, the line to change:
    ``(kind, Location, statement text)`` (kinds of ``_REBOUND_PHRASES``), or None for two arrays."""
    finders = (
        ("rebinding", "finding where two entries were made one array",
         lambda: source_patterns.rebinding(what, reader_what, (site, reader.site))),
        ("pool", "finding where a buffer was picked from a ring", lambda: source_patterns.pool_pick(what, site)),
        ("reuse", "finding where a step was handed a shared buffer", lambda: source_patterns.reuse_pick(what, site)),
        ("swap", "finding where ping-pong buffers were swapped", lambda: source_patterns.swap(what, site)),
        ("slot", "finding where a slot index was picked", lambda: source_patterns.slot_pick(site, names) if names else None),
    )
    for kind, doing, find in finders:
        found = registry.attempt(doing, find)
        if found is not None:
            return (kind,) + tuple(found)
    return None


def _head(code, what, arg, op) -> str:
    if code == "TW101":
        return "`%s` (argument `%s` of `%s`) is overwritten by this launch" % (what, arg, op)
    if code == "TW102":
        return "`%s` overwrites `%s`" % (op, what)
    return "`%s.%s` overwrites `%s`" % (what, op, what) if what else "`%s` overwrites an array" % op


def _raw_location(site: Site) -> Optional[Location]:
    snap = site.primary
    if snap is None:
        return None
    return Location(snap.f_code.co_filename, snap.f_lineno, 1)


# -- the writes ---------------------------------------------------------------
def report_launch_overwrite(tracker, record, access, entry, alias: bool, warp_reported: bool, state=None,
                            readers=None) -> None:
    registry = tracker.registry
    what = registry.attempt("naming a launch argument", lambda: record.access_name(access))
    # Accumulating into what a zero_()/fill_() on this tape discarded after the reads (a reused buffer):
    # unlike an accumulator that continues from its old value, the new version does not depend on the
    # old one, but Warp's backward adds their gradients together.
    reset = facts.peek(access.array).reset_on
    accumulates = state is not None and reset is not None and reset[:2] == (
        state.number, state.generation) and registry.attempt(
        "deciding whether the launch assigns or accumulates", lambda: _accumulates(record, access), False)
    if accumulates and registry.attempt("reporting a reused buffer at its zero_()", lambda: _report_reused_buffer(
            tracker, record, access, entry, alias, reset, state, readers), False):
        return
    overwrite(tracker, "TW101", access.array, entry, alias, site=record.site, names=("launch", "launch_tiled"),
               what=what, arg=record.access_label(access), kernel=record.kernel, op=record.kernel_name,
               warp_reported=warp_reported, launch=record.index, state=state, readers=readers,
               accumulates=accumulates)


def _report_reused_buffer(tracker, record, access, entry, alias: bool, reset, state, readers) -> bool:
    """The zero_()/fill_() that emptied a buffer the launch now accumulates into is the line to change
    (a fresh array there separates the versions): the overwrite is reported there, the launch related."""
    site, method = reset[2], reset[3]
    what = tracker.registry.attempt("naming a zeroed array", lambda: method_object_name(site, method))
    launch_loc = tracker.registry.attempt("locating a launch", record.location)
    related = [Related(launch_loc, "`%s` accumulates into the emptied `%s` here" % (
        record.kernel_name, what or record.access_label(access)), "writer")] if launch_loc is not None else []
    overwrite(tracker, "TW103", access.array, entry, alias, site=site, names=(method,), what=what, arg=None,
              kernel=None, op="%s()" % method, warp_reported=False, state=state, readers=readers,
              accumulates=True, accumulator=record.kernel_name, extra_related=related)
    return True


def _accumulates(record, access) -> bool:
    """The launch writes this argument by accumulating (``+=``, atomics), never by assigning it."""
    facts, label = kernel_access(record.kernel), record.access_label(access)
    return label in facts.writes and label not in facts.stores


def report_elements_apart(tracker, record, access, entry) -> None:
    """Warp's tracker flags a write to an array a taped launch read, but the indices show the write
    lands on other elements (a trajectory array: step ``t`` reads ``x[t]``, writes ``x[t + 1]``)."""
    registry = tracker.registry
    label = record.access_label(access)
    key = ("TW101", "apart", record.kernel_name, label, record.site.key())
    if registry.bump(key):
        return

    def build():
        what = registry.attempt("naming a launch argument", lambda: record.access_name(access)) or label
        reader = entry.record
        loc = registry.attempt("locating a launch", record.location) or _raw_location(record.site)
        reader_loc = registry.attempt("locating the reading launch", reader.location)
        related = [Related(reader_loc, "`%s` read `%s` here" % (reader.kernel_name, what), "reader")] \
            if reader_loc is not None else []
        related.extend(rel.kernel_def(record.kernel, "kernel `%s` that writes `%s`" % (record.kernel_name, label)))
        message = ("Warp's tracker warns that `%s` (argument `%s` of `%s`) is written after `%s` read it on this tape, "
                   "but the indices show different elements: this launch writes elements that launch did not read "
                   "(each step indexes the array by its own scalar argument). Harmless here: no read value is "
                   "overwritten, so the gradient is unaffected." % (what, label, record.kernel_name,
                                                                    reader.kernel_name))
        return Finding(code="TW101", message=message, location=loc, severity="information", related=related,
                       data={"array": what, "argument": label, "operation": record.kernel_name,
                             "reader_kernel": reader.kernel_name, "warp_reported": True,
                             "harmless": "the write and the earlier reads index different elements"})

    registry.report(key, build, arrays=[access.array], launches=[record.index])


def report_copy_overwrite(tracker, dest, src, entry, alias: bool, state=None, readers=None) -> None:
    registry = tracker.registry
    site = Site.here()
    op = user_code.api_called() or "copy"
    names = (op,)
    what = registry.attempt("naming a copy's destination", lambda: copy_dest_name(site, op, names))
    warp_reported = bool(warp_seams.warp_read_flag(dest) and getattr(dest, "grad", None) is not None
                         and getattr(src, "grad", None) is not None)
    overwrite(tracker, "TW102", dest, entry, alias, site=site, names=names, what=what, arg=None, kernel=None,
               op=COPY_OPS.get(op, op), warp_reported=warp_reported, state=state, readers=readers)


def report_zero_fill_overwrite(tracker, arr, method: str, entry, alias: bool, state=None, readers=None) -> None:
    site = Site.here()
    what = tracker.registry.attempt("naming a zeroed array", lambda: method_object_name(site, method))
    overwrite(tracker, "TW103", arr, entry, alias, site=site, names=(method,), what=what, arg=None, kernel=None,
               op="%s()" % method, warp_reported=False, state=state, readers=readers)


def report_pending_writes(tracker, state, backward_site: Site, pending_writes, during: str = "") -> None:
    """TW106 at each write made between recording and this tape's backward().

    ``during``: the name of a ``record_func`` callback that made the writes while backward()
    replayed the tape, before the reading launch's adjoint ran.
    """
    registry = tracker.registry
    backward_loc = registry.attempt("locating a backward() call",
                                    lambda: backward_site.location((".backward", "backward")))
    extra = [Related(backward_loc, "the backward() that replays the read", "backward")] if backward_loc else []
    for pending in pending_writes:
        op, site = pending.op, pending.site
        arg = None
        if op == "launch":
            label = "`%s`, launched outside the tape," % _kernel_name(pending.kernel)
            names: Tuple[str, ...] = ("launch", "launch_tiled")
            what = registry.attempt("naming a launch argument", lambda: _untaped_launch_name(tracker, pending))
            arg = _untaped_launch_label(tracker, pending)
        elif op in ("zero_", "fill_"):
            label, names = "`%s()`" % op, (op,)
            what = registry.attempt("naming an array", lambda: method_object_name(site, op))
        else:
            api = frames_op(op)
            label, names = "`%s`" % COPY_OPS.get(api, api), (api,)
            what = registry.attempt("naming a copy's destination", lambda: copy_dest_name(site, api, names))
        entry, alias = pick_reader(pending.readers)
        what = what or registry.attempt("naming the reading launch's array",
                                        lambda: entry.record.access_name(entry.access)) or "array"
        # A write inside a helper (``env.reset()``) is moved where it is called, next to backward().
        ordered = registry.attempt("finding where a write is ordered against backward()", lambda: ordering_snap(
            site, backward_site, [r.site for r in state.launches])) if not during else None
        primary, key, related = None, None, list(extra)
        if ordered is not None:
            primary = ordered.location(())
            key = ("TW106", "ordered", (primary.path, primary.line), backward_site.key())
            inner = registry.attempt("locating a write", lambda: site.location(names))
            if inner is not None:
                related.insert(0, Related(inner, "the write to `%s` inside the call" % what, "write"))
            callee = site.snaps[site.snaps.index(ordered) - 1].f_code.co_name
            through = label.replace(", launched outside the tape,", " launched outside the tape").rstrip(",")
            label = "`%s()` (through %s%s)" % (callee, through, " at %s:%d" % (
                os.path.basename(inner.path), inner.line) if inner else "")
        if during:
            head = ("%s writes `%s` during backward(), in `%s` (recorded with tape.record_func), before the "
                    "adjoint of the launch that read it has replayed" % (label, what, during))
        else:
            head = "%s writes `%s` after the tape recorded it and before its backward()" % (label, what)
        overwrite(tracker, "TW106", pending.array, entry, alias, site=site, names=names, what=what,
                  arg=arg, kernel=pending.kernel, op=_kernel_name(pending.kernel) if op == "launch" else op,
                  warp_reported=False, head=head,
                  key_extra=(backward_site.key(),), extra_related=related, state=state,
                  readers=pending.readers or None, primary=primary, key=key)


def frames_op(op: str) -> str:
    return op if op in COPY_OPS else "copy"


def _kernel_name(kernel) -> str:
    return warp_seams.kernel_name(kernel) if kernel is not None else "a kernel"


def _untaped_launch_name(tracker, pending) -> Optional[str]:
    from ..core.records import LaunchRecord  # noqa: PLC0415

    if not pending.args:
        return None
    record = LaunchRecord(0, pending.kernel, pending.site, pending.args, [], -1)
    return record.arg_name(_written_position(tracker, pending))


def _untaped_launch_label(tracker, pending) -> Optional[str]:
    from ..core.records import LaunchRecord  # noqa: PLC0415

    position = _written_position(tracker, pending)
    if position >= len(pending.args):
        return None
    return LaunchRecord(0, pending.kernel, pending.site, pending.args, [], -1).arg_label(position)


def _written_position(tracker, pending) -> int:
    """The argument through which an untaped launch wrote the array: the written one where the array is
    passed twice (``inputs=[x], outputs=[frame]`` after ``frame = x``), else its first."""
    positions = [i for i, a in enumerate(pending.args) if a is pending.array]
    if len(positions) > 1:
        written = tracker.registry.attempt("finding the argument an untaped launch wrote", lambda: {
            a.pos for a in tracker.accesses(pending.kernel, pending.args) if a.write and not a.field}, set())
        positions = [i for i in positions if i in written] or positions
    return positions[0] if positions else len(pending.args)


def copy_dest_name(site: Site, op: str, names) -> Optional[str]:
    snap = site.primary
    if snap is None:
        return None
    call = call_expressions.call_at(snap, names)
    if call is None:
        return None
    callee = call_expressions.callee_name(call)
    if op == "assign":
        if callee != "assign" or not hasattr(call.func, "value"):
            return None  # another call on that span (``wp.clone(x)``): not ``dest.assign(...)``
        expr = call.func.value
    elif callee == "clone":
        return None  # ``wp.clone`` makes its destination: it has no argument for it
    else:
        expr = call_expressions.positional_arg(call, 0, "dest")
    return naming.user_expression(expr, site.snaps)


def method_object_name(site: Site, method: str) -> Optional[str]:
    """``forces`` in ``forces.zero_()``."""
    snap = site.primary
    if snap is None:
        return None
    call = call_expressions.call_at(snap, (method,))
    func = getattr(call, "func", None)
    if func is not None and hasattr(func, "value"):
        return naming.user_expression(func.value, site.snaps)
    return None


# -- inside one launch -------------------------------------------------------
def report_intra_kernel(tracker, record) -> None:
    """TW104 from the AST analysis and from Warp's codegen warnings (each sees cases the other misses)."""
    registry = tracker.registry
    kernel = record.kernel
    path = warp_seams.kernel_file(kernel)
    warp_hits = tracker.warp_intra.get((record.kernel_name, path), [])
    facts = kernel_access(kernel)
    ours: Dict[tuple, Optional[IntraKernelWrite]] = {(hit.param, hit.line): hit for hit in facts.intra}
    differentiable = None
    accumulated = set(facts.accumulated_after_read)
    for hit in accumulated:
        # Accumulating needs no old value; the earlier read does when the adjoint uses what it read.
        if differentiable is None:
            differentiable = record.differentiable_paths()
        if (hit.param, hit.line) in warp_hits or facts.adjoint_uses(hit.param, differentiable):
            ours.setdefault((hit.param, hit.line), hit)
    for param, line in warp_hits:
        ours.setdefault((param, line), None)
    for (param, line), found in ours.items():
        key = ("TW104", record.kernel_name, path, param, line)
        existing = registry.get(key)
        if existing is not None and not (existing.data.get("apart_by_arguments") and
                                         not _rows_apart(registry, record, param)) and \
                not _gradient_now_flows(existing, facts, record, param):
            continue  # once per kernel and statement (codegen runs once), unless a launch overlaps after all
        warp_reported = (param, line) in warp_hits
        apart = facts.reads_apart_from_writes(param, line)
        # ``U[src, i]`` read, ``U[dst, i]`` written: apart when this launch's ``src`` and ``dst`` differ.
        by_arguments = not apart and existing is None and _rows_apart(registry, record, param)
        apart = apart or by_arguments
        if apart and not warp_reported:
            continue  # reads x[t], writes x[t + 1]: no element is read, then overwritten

        def build(param=param, line=line, hit=found, warp_reported=warp_reported, apart=apart,
                  by_arguments=by_arguments):
            related = []
            if hit is not None and hit.read_line != line:
                related.append(Related(Location(path, hit.read_line, 1), "`%s` read here first" % param, "read"))
            launch_loc = registry.attempt("locating a launch", record.location)
            if launch_loc is not None:
                related.append(Related(launch_loc, "launch of `%s` on the tape" % record.kernel_name, "compiled-by"))
            related.extend(registry.attempt("listing the callers", lambda: rel.caller_chain(record.site), []))
            paths = record.differentiable_paths()
            # No array of this launch carries a gradient (a clamp of raw data in place): its adjoint
            # computes nothing that reaches a .grad.
            inert = not paths
            # ``x[i] *= 0.01`` with no earlier read: only a factor's adjoint needs the old value, and a
            # number fixed at compile time has none.
            fixed_factor = hit is not None and hit.constant_factor and hit.read_line == hit.line
            harmless = apart or inert or fixed_factor or not facts.adjoint_uses(param, paths)
            accumulates = hit is not None and hit in accumulated
            if by_arguments:
                message = ("Warp's tracker warns that kernel `%s` writes `%s` after reading it, but it reads and "
                           "writes `%s` at indices given by scalar arguments that differ in every launch so far "
                           "(e.g. reads row `src`, writes row `dst`): no thread overwrites an element that was read."
                           % (record.kernel_name, param, param))
            elif apart:
                message = ("Warp's tracker warns that kernel `%s` writes `%s` after reading it, but its indices "
                           "never meet: they differ by a fixed offset over a scalar argument (e.g. reads `%s[t]`, or a window "
                           "`%s[t - 1 - s]` for `s` in a fixed range, and writes `%s[t + 1]`), or each thread stores "
                           "an element before the loop iteration that reads it (`%s[i, s + 1]`, `%s[i, 2 * s + 2]`): "
                           "no thread overwrites an element that was read."
                           % (record.kernel_name, param, param, param, param, param, param))
            elif accumulates:
                message = _accumulation_message(record.kernel_name, param, hit, harmless)
            elif hit is not None and hit.op != "=" and harmless:
                message = ("kernel `%s` updates `%s` in place with `%s`, by a factor that carries no gradient: "
                           "harmless here, the adjoint needs no old value of `%s`."
                           % (record.kernel_name, param, hit.op, param))
            elif hit is not None and hit.op != "=":
                message = ("kernel `%s` updates `%s` in place with `%s`: the old value is overwritten, so the adjoint "
                           "of the factor reads the new one. The gradient with respect to `%s` survives; the "
                           "gradient with respect to the factor is wrong. Write the product to another array."
                           % (record.kernel_name, param, hit.op, param))
            elif hit is not None:
                message = ("kernel `%s` writes `%s` after reading it (line %d): the adjoint reads the overwritten "
                           "value." % (record.kernel_name, param, hit.read_line))
            else:
                message = ("kernel `%s` writes `%s` after reading it (Warp's code generation saw the read, e.g. "
                           "through a @wp.func, or a `wp.atomic_*` write after it): the adjoint reads the "
                           "overwritten value." % (record.kernel_name, param))
            if not warp_reported:
                message += " Warp's tracker did not report this."
            data = {"kernel": record.kernel_name, "argument": param, "warp_reported": warp_reported}
            if hit is not None and hit.op != "=":
                data["operation"] = hit.op
            if accumulates:
                data["accumulates"] = True
            if apart:
                data["harmless"] = "reads and writes of `%s` index different elements" % param
                message += " Harmless here: the gradient is unaffected."
                if by_arguments:
                    data["apart_by_arguments"] = True
            elif inert:
                data["harmless"] = "no array `%s` reads carries a gradient" % record.kernel_name
                message += (" Harmless here: no array this launch reads carries a gradient, so its adjoint "
                            "computes nothing that reaches a `.grad`.")
            elif harmless:
                data["harmless"] = "`%s` enters the kernel only linearly" % param
                if hit is None or hit.op == "=" or accumulates:
                    message += (" Harmless here: `%s` enters the kernel only linearly, so its adjoint never reads "
                                "the overwritten value: the gradient is unaffected." % param)
            return Finding(code="TW104", message=message, location=Location(path, line, hit.column if hit else 1),
                           severity="information" if harmless else codes.severity("TW104"), related=related,
                           data=data)

        if existing is not None:
            registry.replace(key, build())  # reported as apart by an earlier launch's arguments; not this one
        else:
            registry.report(key, build, launches=[record.index])


def _gradient_now_flows(existing, facts, record, param: str) -> bool:
    """A statement judged harmless because no gradient reached it (a reference run with constant
    parameters) that this launch, with arrays that want gradients, makes harmful."""
    data = existing.data or {}
    if existing.severity != "information" or data.get("apart_by_arguments") or \
            str(data.get("harmless", "")).startswith("reads and writes"):
        return False
    paths = record.differentiable_paths()
    return bool(paths) and facts.adjoint_uses(param, paths)


def _rows_apart(registry, record, param: str) -> bool:
    """This launch reads and writes ``param`` at elements its scalar arguments keep apart."""
    access = next((a for a in record.accesses if record.access_label(a) == param and a.read and a.write), None)
    if access is None:
        return False
    return bool(registry.attempt("comparing a launch's read and written elements",
                                 lambda: elements_apart(record, access, record, access), False))


def _function_intra(registry, name: str, path: str, param: str, line: int) -> Finding:
    """Warp's warning for a ``@wp.func`` (it says "kernel"): a warning where a kernel launched on a tape
    passes it an array the kernel's TW104 reports through "a call of" it, else information."""
    callers = [f for f in registry.findings() if f.code == "TW104" and f.severity != "information"
               and (f.data or {}).get("operation") == "a call of `%s`" % name]
    message = ("Warp's tracker warns that the @wp.func `%s` writes its argument `%s` after reading it: where a "
               "kernel passes it an array, the kernel's adjoint replays the function against the overwritten "
               "values." % (name, param))
    related = []
    if callers:
        message += " Kernel `%s`, launched on a tape, does so: write the result to another array." % (
            callers[0].data.get("kernel"))
        related = [Related(c.location, "kernel `%s` calls it here, on a tape" % c.data.get("kernel"), "caller")
                   for c in callers[:4] if c.location is not None]
    else:
        message += " No kernel launched on a tape in this run passed it one it had read."
    return Finding(code="TW104", message=message, location=Location(path, line, 1),
                   severity="warning" if callers else "information", related=related,
                   data={"kernel": name, "function": True, "argument": param, "warp_reported": True})


def _accumulation_message(kernel: str, param: str, hit, harmless: bool) -> str:
    if hit.op.startswith("a call of"):  # a @wp.func that writes the array
        did = "then writes it through %s, and" % hit.op
    else:
        how = "`wp.%s`" % hit.op if hit.op.startswith("atomic") else "`%s`" % hit.op
        did = "then accumulates into it with %s. Accumulating needs no old value, but" % how
    message = ("kernel `%s` reads `%s` (line %d), %s the backward pass replays the kernel's forward code against "
               "the updated `%s`" % (kernel, param, hit.read_line, did, param))
    if harmless:
        return message + "."  # the reason it is harmless follows
    return message + (", so the adjoint of what the read fed sees the new values. Write the result to another "
                      "array (and combine the two after), or read from a copy.")


def report_intra_off_tape(tracker) -> None:
    """TW104 (information) at exit for each codegen warning of Warp's that no taped launch reported.

    Warp warns when it compiles a module, for every kernel in it, taped or not.  Every warning it
    prints must be among the findings; a kernel no tape records (an optimizer's step, a kernel only
    compiled with its module) has no adjoint replayed, so the overwrite cannot touch a gradient.
    The finding sits on the user's launch of the kernel when there is one (a library kernel moves
    there, ``registry._just_my_code``), else on the statement.
    """
    registry = tracker.registry
    sites: dict = {}
    for kernel, site in list(tracker.untaped_kernels.values()):
        sites.setdefault((warp_seams.kernel_name(kernel), warp_seams.kernel_file(kernel)), site)
    for (name, path), hits in list(tracker.warp_intra.items()):
        site = sites.get((name, path))
        if site is None and path and not user_code.is_user_file(path):
            continue  # an installed package's kernel the program never launched (compiled with its module): not its code
        function = (name, path) in tracker.warp_intra_functions
        for param, line in dict.fromkeys(hits):
            key = ("TW104", name, path, param, line)
            if key in registry:
                continue
            if function:
                registry.report(key, lambda name=name, path=path, param=param, line=line:
                                _function_intra(registry, name, path, param, line))
                continue

            def build(name=name, path=path, param=param, line=line, site=site):
                related = []
                if site is not None:
                    launch = registry.attempt("locating a launch outside a tape", site.location)
                    if launch is not None:
                        related.append(Related(launch, "launch of `%s` outside any tape" % name, "compiled-by"))
                    related.extend(registry.attempt("listing the callers", lambda: rel.caller_chain(site), []))
                ran = ("runs only outside a tape" if site is not None else
                       "was compiled with its module but never launched on a tape")
                message = ("Warp's tracker warns that kernel `%s` writes `%s` after reading it. The kernel %s, so "
                           "no backward pass replays its adjoint: harmless here, the gradient is unaffected. "
                           "Launched on a tape, its adjoint would read the overwritten value."
                           % (name, param, ran))
                data = {"kernel": name, "argument": param, "warp_reported": True,
                        "harmless": "`%s` is never launched on a tape" % name}
                return Finding(code="TW104", message=message, location=Location(path, line, 1),
                               severity="information", related=related, data=data)

            registry.report(key, build)


def report_same_launch_alias(tracker, record) -> None:
    """TW105: one launch reads and writes the same memory through two arguments."""
    from ..core.memory import overlaps, span  # noqa: PLC0415

    writes = [a for a in record.accesses if a.write]
    for r in record.accesses:
        if not r.read:
            continue
        for w in writes:
            if (w.pos, w.field) == (r.pos, r.field):
                continue
            same = w.array is r.array
            if not same:
                sr, sw = span(r.array), span(w.array)
                if sr is None or sw is None or not overlaps(r.array, sr, w.array, sw):
                    continue
            _report_alias(tracker, record, r, w)
            tracker.cover(w.array)  # Warp flags this write too (it marks the read first)
            break


def _report_alias(tracker, record, r, w) -> None:
    registry = tracker.registry
    what = registry.attempt("naming a launch argument", lambda: record.access_name(r) or record.access_name(w)) \
        or "array"
    key = ("TW105", record.kernel_name, r.pos, r.field, w.pos, w.field, record.site.key())
    if registry.bump(key):
        return

    def build():
        related = rel.kernel_def(record.kernel, "kernel `%s`" % record.kernel_name)
        related.extend(registry.attempt("finding the allocation", lambda: rel.allocation(r.array, what), []))
        related.extend(registry.attempt("listing the callers", lambda: rel.caller_chain(record.site), []))
        same = "is passed" if r.array is w.array else "shares memory between two arguments"
        message = (
            "`%s` %s to `%s` as `%s`, which it reads, and as `%s`, which it writes: "
            "the adjoint will read values the forward pass overwrote."
            % (what, same if r.array is w.array else same + " of", record.kernel_name,
               record.access_label(r), record.access_label(w))
        )
        loc = registry.attempt("locating a launch", record.location) or _raw_location(record.site)
        # ``h_norm = h`` before ``launch(..., inputs=[h], outputs=[h_norm])``: the alias is the line to change.
        written = registry.attempt("naming a launch argument", lambda: record.access_name(w))
        rebound = registry.attempt("finding where two names were made one array",
                                   lambda: source_patterns.rebinding(written, what, (record.site,))) if r.array is w.array else None
        if rebound is not None:
            message += " `%s` made `%s` and `%s` one array: give `%s` its own (e.g. `wp.empty_like(%s)`)." % (
                rebound[1], written, what, written, what)
            if loc is not None:
                related.insert(0, Related(loc, "`%s` reads and writes it here" % record.kernel_name, "launch"))
            loc = rebound[0]
        return Finding(code="TW105", message=message, location=loc, severity=codes.severity("TW105"),
                       related=related, data={"array": what, "kernel": record.kernel_name,
                                              "read_argument": record.access_label(r),
                                              "written_argument": record.access_label(w), "launch": record.index})

    registry.report(key, build, arrays=[r.array], launches=[record.index])


# -- Tapewatch ⊇ Warp --------------------------------------------------------
def report_warp_flag(tracker, state, record, arr) -> None:
    """Warp flagged ``arr`` as written after a read and the bookkeeping has no such read on this tape."""
    registry = tracker.registry
    label = "array"
    for a in record.accesses:
        if a.array is arr:
            label = record.access_label(a)
            break
    else:
        for i, arg in enumerate(record.args):
            if arg is arr:
                label = record.arg_label(i)
                break
    # (tape number, generation, launch site) of its last taped read: from another tape, or
    # from this tape before a backward()/reset() forgot it.
    last = facts.peek(arr).last_read
    if last is not None and last[3] == record.index:  # this launch's own read, recorded already
        last = facts.peek(arr).prev_read
    stale = last if last is not None and last[:2] != (state.number, state.generation) else None
    copied = facts.peek(arr).copy_read
    copied = copied if copied is not None and copied[:2] == (state.number, state.generation) else None
    key = ("TW107" if stale else "TW101", record.kernel_name, label, record.site.key())
    if registry.bump(key):
        return

    def build():
        loc = registry.attempt("locating a launch", record.location) or _raw_location(record.site)
        what = registry.attempt("naming a launch argument",
                                lambda: next((record.access_name(a) for a in record.accesses if a.array is arr),
                                             None)) or label
        related = rel.kernel_def(record.kernel, "kernel `%s` that writes `%s`" % (record.kernel_name, label))
        if stale:
            number, _, read_site, _ = stale
            where = registry.attempt("locating a launch", lambda: read_site.location(("launch", "launch_tiled")))
            if where is not None:
                related.append(Related(where, "the read Warp remembers", "reader"))
            when = "on another tape" if number != state.number else "on this tape before its backward() or reset()"
            message = ("Warp's tracker warns that `%s` (argument `%s` of `%s`) is written after a read, but that read "
                       "was %s: it is not replayed against the new values. Warp's read flags are global and, before "
                       "Warp 1.17, kept until tape.reset(). No gradient is affected."
                       % (what, label, record.kernel_name, when))
            return Finding(code="TW107", message=message, location=loc, severity=codes.severity("TW107"),
                           related=related, data={"array": what, "argument": label, "kernel": record.kernel_name,
                                                  "warp_reported": True, "launch": record.index})
        if copied is not None and not stale:
            # The only read on this tape was a wp.copy from it: linear, its adjoint needs no values.
            where = registry.attempt("locating a copy", lambda: copied[2].location(("copy", "clone", "assign")))
            if where is not None:
                related.append(Related(where, "copied from here", "reader"))
            message = ("Warp's tracker warns that `%s` (argument `%s` of `%s`) is overwritten after a read on this "
                       "tape, but the read was a copy from it (`wp.copy`, `assign`, `clone`), whose adjoint only "
                       "passes the gradient on and never uses the values: the gradient is unaffected."
                       % (what, label, record.kernel_name))
            return Finding(code="TW101", message=message, location=loc, severity="information", related=related,
                           data={"array": what, "argument": label, "operation": record.kernel_name,
                                 "warp_reported": True, "harmless": "copy", "launch": record.index})
        message = ("`%s` (argument `%s` of `%s`) is overwritten by this launch after an earlier launch on the tape "
                   "read it, as Warp's tracker reports; Tapewatch could not identify the reading launch."
                   % (what, label, record.kernel_name))
        return Finding(code="TW101", message=message, location=loc, severity=codes.severity("TW101"),
                       related=related, data={"array": what, "argument": label, "operation": record.kernel_name,
                                              "warp_reported": True, "launch": record.index})

    registry.report(key, build, arrays=[arr], launches=[record.index])


class Overwrites(Sensor):
    """Every write to what a tape read: TW101, TW104, TW105 at each taped launch (what it overwrites that
    the tape read earlier, within the kernel, and through aliased arguments; Warp's flags a finding
    explains are marked covered), TW102/TW103 at taped copies and ``zero_``/``fill_``, TW106 for writes
    made outside the tape before its backward, and whatever Warp flagged that no finding explains.

    Heard first: a launch's writes are judged before its reads are recorded."""

    CODES = ("TW101", "TW102", "TW103", "TW104", "TW105", "TW106", "TW107")
    HEARS_FIRST = 2

    def on_taped_copy(self, state, dest, src) -> None:
        readers = self.tracker.readers_of(state, dest)
        if readers:
            self.tracker.read_replay.before_write(state, dest)
            report_copy_overwrite(self.tracker, dest, src, *pick_reader(readers), state=state, readers=readers)

    def on_refill(self, state, arr, method: str) -> None:
        readers = self.tracker.readers_of(state, arr)
        if readers:
            # Its old contents are discarded outside the tape: a launch that then accumulates into it starts
            # a new version Warp's backward does not separate from the old one (TW101).
            facts.array(arr).reset_on = (state.number, state.generation, Site.here(), method)
            self.tracker.read_replay.before_write(state, arr)
            report_zero_fill_overwrite(self.tracker, arr, method, *pick_reader(readers), state=state,
                                       readers=readers)

    def on_pending_writes(self, state, backward_site, writes, during: str = "") -> None:
        report_pending_writes(self.tracker, state, backward_site, writes, during=during)

    def on_warp_flag(self, state, record, arr) -> None:
        report_warp_flag(self.tracker, state, record, arr)

    def on_launch(self, state, record) -> None:
        tracker = self.tracker
        kernel = record.kernel
        if access_intra(kernel) or (record.kernel_name, warp_seams.kernel_file(kernel)) in tracker.warp_intra:
            report_intra_kernel(tracker, record)
        report_same_launch_alias(tracker, record)
        for acc in record.accesses:
            if acc.write:
                self._write(state, record, acc)

    def _write(self, state, record, acc) -> None:
        tracker = self.tracker
        flagged = tracker.warp_flagged
        readers: list = []
        apart: list = []
        for e, alias in tracker.readers_of(state, acc.array):
            if e.record is not record:
                (apart if not alias and elements_apart(e.record, e.access, record, acc) else readers).append(
                    (e, alias))
        if apart and not readers and any(a is acc.array for a in flagged):
            # Warp flags the array; its elements say the write misses every read: said, as information.
            report_elements_apart(tracker, record, acc, apart[0][0])
            tracker.cover(acc.array)
        if readers:
            entry, alias = pick_reader(readers)
            report_launch_overwrite(tracker, record, acc, entry, alias,
                                    warp_reported=any(a is acc.array for a in flagged), state=state, readers=readers)
            tracker.cover(acc.array)
