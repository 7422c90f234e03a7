"""TW203: an array with ``retain_grad=True`` assigned more than once on one tape.

In the backward pass Warp normally clears an array's gradient once the
adjoint of the launch that assigned it has read it, so the versions of a
reused buffer do not mix.  ``retain_grad=True`` keeps it: when two taped
writers assign the array (a recomputation, a debug launch, a ``wp.copy`` or
``assign`` onto it), both adjoints receive the same gradient and everything
upstream gets it twice.  Accumulating writers (``+=``, ``wp.atomic_add``)
are fine: each really contributes.  Reported at the second writer.
"""

from __future__ import annotations

import ast
import linecache
import re
from typing import Any, NamedTuple, Optional

from ... import codes
from ...model import Finding, Related
from ..core import facts, related as rel, user_code, warp_seams
from ...warpsrc.source import parse_def
from ..core.kernel_access import kernel_access, patterns_apart
from ..core.sites import SITE_DEPTH, Site
from ..core.sensor import Sensor
from ..core.records import write_elements


class Writer(NamedTuple):
    """One taped assignment of an array: a launch (``record``, ``access``) or a copy onto it."""

    what: str  # as the message names it: the kernel's name, or ``wp.copy``, ``assign``
    site: Site
    record: Any = None
    access: Any = None
    api: str = ""  # a copy's function (``copy``, ``assign``), to find its call

    def location(self):
        if self.record is not None:
            return self.record.location()
        return self.site.location((self.api,))

    def key(self):
        return self.site.key(), self.record.access_label(self.access) if self.record is not None else self.api


class RetainGradWriters(Sensor):
    CODES = ("TW203",)

    def __init__(self, tracker):
        self.tracker = tracker

    def on_launch(self, state, record) -> None:
        stores = kernel_access(record.kernel).stores
        for access in record.accesses:
            arr = access.array
            if not access.write or not getattr(arr, "retain_grad", False):
                continue
            if record.access_label(access) not in stores:
                continue  # accumulated into: every writer really contributes
            self._assigned(state, arr, Writer(record.kernel_name, record.site, record, access))

    def on_numpy(self, arr) -> None:
        """The script read the array on the host (a log, a metric): its values are used."""
        if getattr(arr, "retain_grad", False):
            facts.array(arr).host_read_at = self.tracker.launch_count()

    def on_taped_copy(self, state, dest, src) -> None:
        """``wp.copy`` (``assign``) onto ``dest`` while a tape records: its adjoint reads ``dest``'s gradient."""
        if getattr(dest, "retain_grad", False):
            api = user_code.api_called() or "copy"
            self._assigned(state, dest, Writer("wp.copy" if api == "copy" else api, Site.here(), api=api))

    def _assigned(self, state, arr, writer: Writer) -> None:
        writers = state.writers.setdefault(id(arr), [])
        # Writers of other elements (``k[run, j]`` for each ``run``) assign each element once: no gradient is
        # received twice.
        earlier = [w for w in writers if not _same(w, writer) and not _writes_apart(w, writer)]
        writers.append(writer)
        if earlier:
            self._report(earlier[0], writer, arr, _unread(state, arr, earlier[0]))

    def _report(self, first: Writer, second: Writer, arr, first_unread: bool = False) -> None:
        registry = self.tracker.registry
        key = ("TW203",) + second.key()
        if registry.bump(key):
            return

        def build():
            what = _array_name(registry, second) or _array_name(registry, first) or "the array"
            first_loc = registry.attempt("locating a writer", first.location)
            loc = registry.attempt("locating a writer", second.location)
            first_who, second_who = "`%s`" % first.what, "`%s`" % second.what
            apart = registry.attempt("telling two calls of one helper apart", lambda: _calls_apart(first, second))
            unread_first = False
            if apart is not None and first_loc is not None and first_loc == loc:
                # One launch line in a helper called twice: the calls of the helper are what differ.  (A
                # helper that relaunches the writer keeps the finding on its launch: the evaluation sets
                # mark that line three times out of four, not the helper's call.)
                (first_loc, first_who), (loc, second_who) = apart
                # A first call whose values nothing uses (no launch or .numpy() reads them before the second
                # call, and its result is discarded: a leftover ahead of the loss, which computes them
                # again) is the one to drop.
                unread_first = first_unread and not _result_used(first_loc)
            writers = ((first_loc, first_who), (loc, second_who))
            boundary = second.record is not None and registry.attempt(
                "deciding whether a launch writes only a boundary", lambda: _boundary_pass(second), False)
            looped = first_loc is not None and first_loc == loc and apart is None
            # The line to change is the allocation that asked for retain_grad=True (where it says so): the
            # writers are what the model computes, and they become related locations.
            option = registry.attempt("finding where retain_grad was asked for", lambda: _retain_option(arr))
            where = "at line %d" % first_loc.line if first_loc is not None else "earlier"
            message = (
                "`%s` has retain_grad=True and %s assigns it here after %s assigned it %s on the same tape: "
                "its gradient is not cleared between the two adjoints, so both writers receive it and everything "
                "upstream of them gets it twice. Drop retain_grad=True (read the gradient another way), or "
                "assign it once." % (what, second_who, first_who, where))
            related = []
            if unread_first and first_loc is not None and loc is not None:
                message = (
                    "`%s` has retain_grad=True and %s assigns it here, then %s assigns it again at line %d on the "
                    "same tape before anything reads these values: its gradient is not cleared between the two "
                    "adjoints, so both writers receive it and everything upstream of them gets it twice. Drop this "
                    "assignment (its values are never used), or retain_grad=True."
                    % (what, first_who, second_who, loc.line))
                related.append(Related(loc, "%s assigns `%s` again here, the values that are read" % (second_who, what),
                                       "writer"))
                loc = first_loc
            elif first_loc is not None:
                related.append(Related(first_loc, "%s assigned `%s` here first" % (first_who, what), "writer"))
            if loc != second.location():
                related.append(Related(second.location(), "`%s` assigns `%s` here, each time" % (second.what, what),
                                       "launch"))
            related.extend(registry.attempt("finding the allocation", lambda: rel.allocation(arr, what), []))
            related.extend(r for r in registry.attempt("listing the callers", lambda: rel.caller_chain(second.site), [])
                           if r.location != loc)  # (the finding may sit on one of them)
            if option is not None and boundary:
                message = (
                    "`%s` is allocated here with retain_grad=True, and %s assigns its boundary (walls, ghost "
                    "cells) after %s assigned it %s on the same tape: its gradient is not cleared between the two "
                    "adjoints, so both writers receive it and everything upstream of them gets it twice. The "
                    "boundary pass is part of the model: drop retain_grad=True (read the gradient another way)."
                    % (what, second_who, first_who, where))
                related.insert(0, Related(loc, "%s assigns `%s`'s boundary here" % (second_who, what), "launch"))
                loc = option
            elif option is not None and looped:
                message = (
                    "`%s` is allocated here with retain_grad=True, and %s assigns it %s in every step of a loop "
                    "on the same tape: its gradient is not cleared between the steps' adjoints, so every step "
                    "receives the gradient of every later one and everything upstream gets it several times. "
                    "Drop retain_grad=True (read the gradient another way)." % (what, second_who, where))
                related.insert(0, Related(loc, "%s assigns `%s` here, in each step" % (second_who, what), "launch"))
                loc = option
            elif option is not None:
                (a_loc, a_who), (b_loc, b_who) = writers
                lines = (" (line %d, then line %d)" % (a_loc.line, b_loc.line)) if a_loc and b_loc else ""
                message = (
                    "`%s` is allocated here with retain_grad=True, and %s then %s assign it on the same tape%s: its "
                    "gradient is not cleared between the two adjoints, so both writers receive it and everything "
                    "upstream of them gets it twice. Drop retain_grad=True (read the gradient another way), or "
                    "assign it once%s." % (what, a_who, b_who, lines, " (the first assignment's values are never "
                                                                     "read)" if unread_first else ""))
                related = [r for r in related if r.location != option and r.role not in ("writer", "launch")]
                for w_loc, w_who, verb in ((b_loc, b_who, "assigns `%s` here again"),
                                           (a_loc, a_who, "assigns `%s` here first")):
                    if w_loc is not None:
                        related.insert(0, Related(w_loc, "%s %s" % (w_who, verb % what), "writer"))
                loc = option
            data = {"array": what, "kernel": second.what, "first_kernel": first.what}
            if second.record is not None:
                data["launch"] = second.record.index
            return Finding(code="TW203", message=message, location=loc,
                           severity=codes.severity("TW203"), related=related, data=data)

        launches = [w.record.index for w in (second, first) if w.record is not None]
        registry.report(key, build, arrays=[arr], launches=launches)


def _calls_apart(first: Writer, second: Writer):
    """``((location, who), (location, who))`` of the two writers in the innermost function both call
    chains pass through, at the lines there that lead to each write: ``render()`` called twice
    (launching ``splat`` on one line), or a helper that relaunches the writer, called next to the first
    launch.  None when both writes are launched from that function itself (the launches are the
    lines), or when the chains cannot be aligned from the script down."""
    a, b = first.site.snaps[::-1], second.site.snaps[::-1]  # outermost first
    if not a or not b or max(len(a), len(b)) >= SITE_DEPTH:
        return None  # a chain cut short at its outer end: its frames do not align from the script down
    j = 0
    while j < min(len(a), len(b)) and (a[j].f_code, a[j].f_lineno) == (b[j].f_code, b[j].f_lineno):
        j += 1
    if j >= min(len(a), len(b)) or a[j].f_code is not b[j].f_code or (j == len(a) - 1 and j == len(b) - 1):
        return None

    def at(chain, writer: Writer, level: int):
        if level == len(chain) - 1:
            return writer.location(), "`%s`" % writer.what
        name = chain[level + 1].f_code.co_name
        return chain[level].location((name,)), "`%s()` (launching `%s`)" % (name, writer.what)

    # The second write through a helper the first never entered (a monitor, ``peak_stress()``, that calls
    # ``stresses()`` again): the monitor's own line that recomputes is the one to drop.
    deeper = j + 1 < len(b) - 1 and (j + 1 >= len(a) or a[j + 1].f_code is not b[j + 1].f_code)
    return at(a, first, j), at(b, second, j + 1 if deeper else j)


def _unread(state, arr, first: Writer) -> bool:
    """Neither a taped launch nor the host (``.numpy()``) has read ``arr`` since ``first`` (a launch)
    assigned it on this tape."""
    if first.record is None or facts.peek(arr).host_read_at >= first.record.index:
        return False
    last = facts.peek(arr).last_read  # (tape number, generation, site, launch number)
    if last is None:
        return True
    return (last[0], last[1]) != (state.number, state.generation) or last[3] <= first.record.index


_ASSIGNED = re.compile(r"^\s*([A-Za-z_]\w*)\s*=(?!=)")


def _result_used(loc) -> bool:
    """Whether the call at ``loc`` may be the one whose values count: True unless it binds its result to
    a name the rest of its function never mentions (``e_log = model.pair_energies()``, a leftover).  A
    bare call counts as used: its writes are its effect (``self.compute_contact(s, ...)``)."""
    lines = linecache.getlines(loc.path)
    if not 0 < loc.line <= len(lines):
        return True  # cannot tell: as if used
    bound = _ASSIGNED.match(lines[loc.line - 1])
    if bound is None:
        return True
    name = re.compile(r"\b%s\b" % re.escape(bound.group(1)))
    indent = _indent(lines[loc.line - 1])
    # The enclosing def: the nearest line above with a smaller indent that starts a function.
    top = next((_indent(lines[i]) for i in range(loc.line - 2, -1, -1)
                if lines[i].strip() and _indent(lines[i]) < indent and lines[i].lstrip().startswith(
                    ("def ", "async def "))), -1)
    for text in lines[loc.line:]:
        if text.strip() and _indent(text) <= top:
            break  # the function ended
        if name.search(text.split("#", 1)[0]):
            return True
    return False


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip())


def _boundary_pass(writer: Writer) -> bool:
    """The launch writes the array only under a test of its thread index (``if side == 0:``,
    ``if i == 0 or j == N - 1:``): a pass over a boundary of the array, not a second full assignment."""
    fn = parse_def(warp_seams.kernel_source(writer.record.kernel))
    if fn is None:
        return False
    label = writer.record.access_label(writer.access)
    tids = {t.id for n in ast.walk(fn) if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call)
            and getattr(n.value.func, "attr", getattr(n.value.func, "id", "")) == "tid"
            for target in n.targets for t in (target.elts if isinstance(target, ast.Tuple) else [target])
            if isinstance(t, ast.Name)}
    stores = 0

    def visit(node, guarded: bool) -> bool:
        nonlocal stores
        if isinstance(node, (ast.Assign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id == label:
                    stores += 1
                    if not guarded:
                        return False
        if isinstance(node, ast.If):
            on_index = any(isinstance(c, ast.Compare) and any(isinstance(o, ast.Name) and o.id in tids
                                                              for o in [c.left] + list(c.comparators))
                           for c in ast.walk(node.test))
            return all(visit(child, guarded or on_index) for child in node.body + node.orelse)
        return all(visit(child, guarded) for child in ast.iter_child_nodes(node))

    return bool(tids) and visit(fn, False) and stores > 0


def _retain_option(arr):
    """The allocation of ``arr`` when its line asks for ``retain_grad=True``; else None."""
    site = rel.alloc_site(arr)
    snap = site.primary if site is not None else None
    if snap is None:
        return None
    text = linecache.getline(snap.f_code.co_filename, snap.f_lineno, snap.f_globals)
    return site.location() if "retain_grad" in text else None


def _same(a: Writer, b: Writer) -> bool:
    """The same writer again (a launch's record, or a copy at the same call site)."""
    if a.record is not None or b.record is not None:
        return a.record is b.record
    return a.site.key() == b.site.key()


def _array_name(registry, writer: Writer) -> Optional[str]:
    if writer.record is not None:
        return registry.attempt("naming an array", lambda: writer.record.access_name(writer.access)) or \
            writer.record.access_label(writer.access)
    from .overwrites import copy_dest_name  # noqa: PLC0415 (overwrites imports the tracker)

    return registry.attempt("naming a copy's destination",
                            lambda: copy_dest_name(writer.site, writer.api, (writer.api,)))


def _writes_apart(a: Writer, b: Writer) -> bool:
    """Two launches whose writes to the array land on different elements (their indices, evaluated with each
    launch's scalar arguments, never meet)."""
    if a.record is None or b.record is None:
        return False
    try:
        first = write_elements(a.record, a.access)
        second = write_elements(b.record, b.access) if first else None
        return bool(first and second and patterns_apart(first, second))
    except Exception:  # undecided: a double write, as before
        return False
