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
import linecache
import zlib
from typing import Any, Dict, List, NamedTuple, Optional, Tuple

from ..model import Location, Related
from .sites import Site

MAX_BYTES = 64 << 20  # per array: larger views are not fingerprinted


class NumpyView(NamedTuple):
    array: Any
    crc: int
    site: Site


def fingerprint(arr) -> Optional[int]:
    try:
        if str(arr.device) != "cpu" or arr.capacity > MAX_BYTES:
            return None
        view = arr.numpy()
        return zlib.crc32(view.view("uint8").reshape(-1) if view.flags["C_CONTIGUOUS"] else view.tobytes())
    except Exception:
        return None


class NumpyViews:
    def __init__(self, tracker):
        self.tracker = tracker

    def on_numpy(self, arr) -> None:
        for _, state in self.tracker.tapes_reading(arr):
            if id(arr) in state.numpy_views:
                continue
            crc = fingerprint(arr)
            if crc is not None:
                state.numpy_views[id(arr)] = NumpyView(arr, crc, Site.here())

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
            what = registry.attempt("naming an array", lambda: overwrites.method_object_name(view.site, "numpy"))
            what = what or registry.attempt("naming the reading launch's array",
                                            lambda: entry.record.access_name(entry.access)) or "array"
            found = registry.attempt("finding the writes through a NumPy view", lambda: view_writes(view.site),
                                     (None, []))
            variable, writes = found
            primary = None
            if writes:
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
            overwrites.overwrite(self.tracker, "TW106", view.array, entry, alias, site=view.site, names=("numpy",),
                                 what=what, arg=None, kernel=None, op="numpy", warp_reported=False, head=head,
                                 key_extra=(backward_site.key(),), extra_related=extra, primary=primary)


# -- where the view is written, from the source ---------------------------------
_IN_PLACE_METHODS = frozenset({"fill", "sort", "put", "itemset", "partition", "byteswap"})
_IN_PLACE_FUNCTIONS = frozenset({"copyto", "put", "place", "putmask", "put_along_axis", "fill_diagonal"})
_trees: Dict[str, Optional[ast.Module]] = {}


def view_writes(site: Site) -> Tuple[Optional[str], List[Location]]:
    """``(variable, statements)``: the name a ``.numpy()`` view was bound to at ``site`` and the statements
    after it, in the same function, that write through that name (up to its next rebinding)."""
    snap = site.primary
    if snap is None:
        return None, []
    filename, line = snap.f_code.co_filename, snap.f_lineno
    tree = _trees.get(filename)
    if filename not in _trees:
        try:
            tree = ast.parse("".join(linecache.getlines(filename, snap.f_globals)), filename)
        except (SyntaxError, ValueError, RecursionError):
            tree = None
        _trees[filename] = tree
    if tree is None:
        return None, []
    scope: ast.AST = tree
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.lineno <= line <= node.end_lineno \
                and node.lineno >= getattr(scope, "lineno", 0):
            scope = node
    statements = sorted((n for n in ast.walk(scope) if isinstance(n, ast.stmt) and n is not scope),
                        key=lambda n: (n.lineno, n.col_offset))
    binding = next((n for n in statements if isinstance(n, (ast.Assign, ast.AnnAssign))
                    and n.lineno <= line <= n.end_lineno and _numpy_call(n.value)), None)
    targets = ([] if binding is None else binding.targets if isinstance(binding, ast.Assign) else [binding.target])
    if len(targets) != 1 or not isinstance(targets[0], ast.Name):
        return None, []
    name = targets[0].id
    writes: List[Location] = []
    for stmt in statements:
        if stmt.lineno <= binding.end_lineno:
            continue
        if _rebinds(stmt, name):
            break
        if _writes_through(stmt, name):
            writes.append(Location(filename, stmt.lineno, stmt.col_offset + 1, stmt.end_lineno,
                                   (stmt.end_col_offset or 0) + 1))
    return name, writes


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
