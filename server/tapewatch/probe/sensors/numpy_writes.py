"""TW106 through NumPy: a CPU array the tape read, written through its ``.numpy()`` view.

On the CPU ``array.numpy()`` returns a view of Warp's own memory, so
``x.numpy()[:] = 0`` rewrites the array without Warp (or any hook) seeing
it.  When the script takes the NumPy view of an array a live tape read,
the contents are fingerprinted (CRC-32, bounded size); at that tape's
``backward()`` a changed fingerprint that no Warp write explains is a write
through NumPy.  It is reported on the statement that wrote through the view
when the source shows one (``frame = x.numpy()`` then ``frame[:, 1] = ...``
in the same function), with the ``.numpy()`` call related; else at the
``.numpy()`` call that handed out the view.
"""

from __future__ import annotations

import ast
import zlib
from typing import Any, List, NamedTuple, Optional, Tuple

from ...model import Location, Related
from ...warpsrc.source import file_tree
from ..core.related import alloc_site
from ..core.sites import Site
from ..core.syntax import innermost_function
from ..core import warp_seams
from ..core.warp_seams import view_parent
from ..core.sensor import Sensor

MAX_BYTES = 64 << 20  # per array: larger views are not fingerprinted


class NumpyView(NamedTuple):
    array: Any
    crc: int
    site: Site  # the .numpy() call, or where a wrapped buffer's Warp array was made
    buffer: bool = False  # ``wp.array(buffer, copy=False)``: the script holds the NumPy array itself


def fingerprint(arr) -> Optional[int]:
    try:
        if str(arr.device) != "cpu" or arr.capacity > MAX_BYTES:
            return None
        view = warp_seams.host_values(arr)
        return zlib.crc32(view.view("uint8").reshape(-1) if view.flags["C_CONTIGUOUS"] else view.tobytes())
    except warp_seams.CaptureInProgress:
        raise
    except Exception:
        return None


class NumpyViews(Sensor):
    CODES = ("TW106",)

    def __init__(self, tracker):
        self.tracker = tracker

    def on_numpy(self, arr) -> None:
        for _, state in self.tracker.tapes_reading(arr):
            if id(arr) in state.numpy_views:
                continue
            crc = fingerprint(arr)
            if crc is not None:
                state.numpy_views[id(arr)] = NumpyView(arr, crc, Site.here())

    def on_launch(self, state, record) -> None:
        """A taped read of an array made over a NumPy buffer without a copy: the script keeps the buffer
        and can write it with NumPy at any time, as it can through a ``.numpy()`` view."""
        for acc in record.accesses:
            if acc.read and id(acc.array) not in state.numpy_views and _wraps_numpy_buffer(acc.array):
                crc = fingerprint(acc.array)
                if crc is not None:
                    site = alloc_site(acc.array) or record.site
                    state.numpy_views[id(acc.array)] = NumpyView(acc.array, crc, site, buffer=True)

    def before_backward(self, tape, state, backward_site: Site, args=(), kwargs=None) -> None:
        from . import overwrites  # noqa: PLC0415

        views, state.numpy_views = state.numpy_views, {}
        explained = {id(p.array) for p in state.pending_writes}
        for view in views.values():
            if id(view.array) in explained or fingerprint(view.array) == view.crc:
                continue
            readers = self.tracker.readers_of(state, view.array)
            if not readers:
                continue
            entry, alias = overwrites.pick_reader(readers)
            registry = self.tracker.registry
            back = registry.attempt("locating a backward() call",
                                    lambda: backward_site.location((".backward", "backward")))
            extra = [Related(back, "the backward() that replays the read", "backward")] if back else []
            what = None if view.buffer else registry.attempt(
                "naming an array", lambda: overwrites.method_object_name(view.site, "numpy"))
            what = what or registry.attempt("naming the reading launch's array",
                                            lambda: entry.record.access_name(entry.access)) or "array"
            found = registry.attempt("finding the writes through a NumPy view",
                                     lambda: (buffer_writes if view.buffer else view_writes)(view.site), (None, []))
            variable, writes = found
            primary = None
            if view.buffer:
                made = registry.attempt("locating an allocation", lambda: view.site.location())
                extra = ([Related(made, "`%s` made here over `%s` without a copy" % (what, variable or "a NumPy "
                                                                                     "array"), "allocation")]
                         if made else []) + [Related(w, "also writes `%s`" % variable, "write")
                                             for w in writes[1:]] + extra
                primary = writes[0] if writes else made
                if writes:
                    head = ("`%s` is written in place here after the tape recorded `%s`, which was made over its "
                            "memory without a copy (copy=False)" % (variable, what))
                else:  # written elsewhere (another method, a library): the copy=False is what to change
                    head = ("`%s` is made here over a NumPy array's memory without a copy (copy=False), and that "
                            "memory changed after the tape recorded `%s` and before its backward()" % (what, what))
            elif writes:
                taken = registry.attempt("locating a .numpy() call", lambda: view.site.location(("numpy",)))
                primary = writes[0]
                extra = ([Related(taken, "`%s` took the NumPy view of `%s` here" % (variable, what), "view")]
                         if taken else []) + [Related(w, "also writes through `%s`" % variable, "write")
                                              for w in writes[1:]] + extra
                head = ("`%s` is written through its NumPy view `%s` (on the CPU it shares the array's memory) "
                        "after the tape recorded it and before its backward(), without any Warp call"
                        % (what, variable))
            else:
                head = ("`%s` is written through this NumPy view (on the CPU it shares the array's memory) after "
                        "the tape recorded it and before its backward(), without any Warp call" % what)
            overwrites.overwrite(self.tracker, "TW106", view.array, entry, alias, site=view.site,
                                 names=("array",) if view.buffer else ("numpy",),
                                 what=what, arg=None, kernel=None, op="numpy", warp_reported=False, head=head,
                                 key_extra=(backward_site.key(),), extra_related=extra, primary=primary)


def _wraps_numpy_buffer(arr) -> bool:
    parent = view_parent(arr)
    return parent is not None and type(parent).__name__ == "ndarray" and type(parent).__module__ == "numpy"


# -- where the view is written, from the source ---------------------------------
_IN_PLACE_METHODS = frozenset({"fill", "sort", "put", "itemset", "partition", "byteswap"})
_IN_PLACE_FUNCTIONS = frozenset({"copyto", "put", "place", "putmask", "put_along_axis", "fill_diagonal"})


def view_writes(site: Site) -> Tuple[Optional[str], List[Location]]:
    """``(variable, statements)``: the name a ``.numpy()`` view was bound to at ``site`` and the statements
    after it, in the same function, that write through that name (up to its next rebinding)."""
    found = _binding_at(site, _numpy_call)
    if found is None:
        return None, []
    statements, binding, filename = found
    targets = binding.targets if isinstance(binding, ast.Assign) else [binding.target]
    if len(targets) != 1 or not isinstance(targets[0], ast.Name):
        return None, []
    return targets[0].id, _writes_after(statements, binding, targets[0].id, filename)


def buffer_writes(site: Site) -> Tuple[Optional[str], List[Location]]:
    """``(buffer, statements)`` for ``x = wp.array(buffer, copy=False)`` at ``site``: the NumPy buffer's
    name and the statements after it, in the same function, that write its elements."""
    found = _binding_at(site, lambda value: _wrapped_buffer(value) is not None)
    if found is None:
        return None, []
    statements, binding, filename = found
    name = _wrapped_buffer(binding.value)
    return name, _writes_after(statements, binding, name, filename) if name is not None else []


def view_read_after(site: Site, after) -> Optional[Tuple[str, Location]]:
    """``(name, statement)`` when the ``.numpy()`` at ``site`` is bound to a name as is (a view, not a
    copy) and a statement after the frame snapshot ``after`` (a ``zero()``), in the same function,
    reads that name before it is bound again; else None."""
    found = _binding_at(site, _plain_numpy_call)
    if found is None or after is None or site.primary is None or after.f_code is not site.primary.f_code:
        return None
    statements, binding, filename = found
    if not isinstance(binding, ast.Assign) or len(binding.targets) != 1 or not isinstance(binding.targets[0], ast.Name):
        return None
    name = binding.targets[0].id
    for stmt in statements:
        if stmt.lineno <= after.f_lineno or stmt.lineno <= binding.end_lineno:
            continue
        if _reads(stmt, name):
            return name, Location(filename, stmt.lineno, stmt.col_offset + 1, stmt.end_lineno,
                                  (stmt.end_col_offset or 0) + 1)
        if _rebinds(stmt, name):
            return None
    return None


def grad_reference_before(site: Site, before: int) -> Optional[Tuple[str, Location]]:
    """``(name, binding)`` when the call at ``site`` reads a name (``grad.numpy()``, ``wp.clone(grad)``)
    that the same function bound to a gradient itself (``grad = kappa.grad``: a reference, not a copy)
    on a line before ``before`` and did not bind again up to the read; else None."""
    from ..core import call_expressions  # noqa: PLC0415

    snap = site.primary
    call = call_expressions.call_at(snap, ("numpy", "clone", "copy")) if snap is not None else None
    if call is None:
        return None
    func = call.func
    receiver = func.value if isinstance(func, ast.Attribute) and func.attr == "numpy" else \
        (call.args[0] if call.args else None)
    if not isinstance(receiver, ast.Name):
        return None
    found = _scope_statements(site)
    if found is None:
        return None
    statements, filename, line = found
    binding = None
    for stmt in statements:
        if stmt.lineno >= line:
            break
        if _rebinds(stmt, receiver.id):
            value = stmt.value if isinstance(stmt, (ast.Assign, ast.AnnAssign)) else None
            binding = stmt if isinstance(value, ast.Attribute) and value.attr == "grad" else None
    if binding is None or binding.lineno >= before:
        return None
    return receiver.id, Location(filename, binding.lineno, binding.col_offset + 1, binding.end_lineno,
                                 (binding.end_col_offset or 0) + 1)


def _plain_numpy_call(value) -> bool:
    """``x.numpy()`` itself: ``.numpy().copy()`` or ``np.array(x.numpy())`` is not a view."""
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "numpy"


def _reads(stmt, name: str) -> bool:
    """A simple statement that loads ``name`` (its right-hand side for an assignment)."""
    if not isinstance(stmt, (ast.Assign, ast.Expr, ast.AugAssign, ast.Return)):
        return False
    root = stmt.value if isinstance(stmt, ast.Assign) else stmt
    return any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load) for n in ast.walk(root))


def _wrapped_buffer(value) -> Optional[str]:
    """``buffer`` in ``wp.array(buffer, ..., copy=False)``."""
    for node in ast.walk(value) if value is not None else ():
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Name) and any(
                kw.arg == "copy" and isinstance(kw.value, ast.Constant) and kw.value.value is False
                for kw in node.keywords):
            return node.args[0].id
    return None


def _scope_statements(site: Site):
    """``(statements of the function enclosing site, in source order, file, line)``, or None."""
    snap = site.primary
    if snap is None:
        return None
    filename, line = snap.f_code.co_filename, snap.f_lineno
    tree = file_tree(filename, snap.f_globals)
    if tree is None:
        return None
    scope = innermost_function(tree, line)
    statements = sorted((n for n in ast.walk(scope) if isinstance(n, ast.stmt) and n is not scope),
                        key=lambda n: (n.lineno, n.col_offset))
    return statements, filename, line


def _binding_at(site: Site, wanted):
    """``(statements of the enclosing function, the assignment at site whose value is wanted, file)``."""
    found = _scope_statements(site)
    if found is None:
        return None
    statements, filename, line = found
    binding = next((n for n in statements if isinstance(n, (ast.Assign, ast.AnnAssign))
                    and n.lineno <= line <= n.end_lineno and wanted(n.value)), None)
    return (statements, binding, filename) if binding is not None else None


def _writes_after(statements, binding, name: str, filename: str) -> List[Location]:
    writes: List[Location] = []
    for stmt in statements:
        if stmt.lineno <= binding.end_lineno:
            continue
        if _rebinds(stmt, name):
            break
        if _writes_through(stmt, name):
            writes.append(Location(filename, stmt.lineno, stmt.col_offset + 1, stmt.end_lineno,
                                   (stmt.end_col_offset or 0) + 1))
    return writes


def _numpy_call(value) -> bool:
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "numpy"
               for n in ast.walk(value)) if value is not None else False


def _root_is(expr, name: str) -> bool:
    while isinstance(expr, (ast.Subscript, ast.Attribute)):
        if isinstance(expr, ast.Attribute):
            return False  # frame.T[...] and the like: not followed
        expr = expr.value
    return isinstance(expr, ast.Name) and expr.id == name


def _rebinds(stmt, name: str) -> bool:
    targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target] if isinstance(
        stmt, (ast.AnnAssign, ast.For)) else []
    return any(isinstance(t, ast.Name) and t.id == name for t in targets)


def _writes_through(stmt, name: str) -> bool:
    """A simple statement that writes the elements of ``name``: item assignment, an augmented
    assignment (in place for an ndarray), ``out=name``, ``name.fill(...)``, ``np.copyto(name, ...)``."""
    if isinstance(stmt, ast.Assign):
        if any(isinstance(t, ast.Subscript) and _root_is(t, name) for t in stmt.targets):
            return True
    elif isinstance(stmt, ast.AugAssign):
        if (isinstance(stmt.target, ast.Name) and stmt.target.id == name) or \
                (isinstance(stmt.target, ast.Subscript) and _root_is(stmt.target, name)):
            return True
    if not isinstance(stmt, (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign)):
        return False  # compound statements: their own simple statements are visited
    for node in ast.walk(stmt):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in _IN_PLACE_METHODS and _root_is(func.value, name):
            return True
        if isinstance(func, ast.Attribute) and func.attr in _IN_PLACE_FUNCTIONS and node.args \
                and _root_is(node.args[0], name):
            return True
        for kw in node.keywords:
            if kw.arg == "out":
                outs = kw.value.elts if isinstance(kw.value, ast.Tuple) else [kw.value]
                if any(_root_is(o, name) for o in outs):
                    return True
    return False
