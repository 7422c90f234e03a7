"""Is a loop in a kernel *dynamic* (a real loop at run time) or unrolled by Warp?

Warp unrolls ``for i in range(a, b, c)`` when every argument is an integer it
knows at code generation (a literal, or a module-level constant) and the trip
count is at most ``max_unroll`` (16 by default, settable per module or in
``wp.config``), unless the body ``break``s; loops over ``wp.static(...)``
expressions are always unrolled.  Everything else, and every ``while``, is a
dynamic loop: Warp's backward pass does not replay it per iteration (see
"Dynamic Loops" in Warp's Differentiability guide).
"""

from __future__ import annotations

import ast
from typing import Optional

from .context import FileContext
from .exprs import walk
from .kernels import WarpFunction
from .names import unparse


def dynamic_reason(loop: ast.stmt, fn: WarpFunction, ctx: FileContext) -> Optional[str]:
    """Why the loop is dynamic ("`range(n)`: n is not a compile-time constant"), or None if unrolled.

    A bound we cannot see (a name imported from elsewhere) counts as unrolled:
    the rule built on this would rather miss a finding than invent one.
    """
    if isinstance(loop, ast.While):
        return "`while` loops are always dynamic"
    if not isinstance(loop, ast.For):
        return None
    it = _iterated(loop)
    if isinstance(it, ast.Call) and ctx.names.is_warp(it.func, "static"):
        return None
    if not (isinstance(it, ast.Call) and _is_range(it.func, ctx)):
        # Query iterators (wp.hash_grid_query, wp.mesh_query_aabb, ...) run dynamically.
        return "`%s` is iterated at run time" % unparse(it)
    if not it.args or len(it.args) > 3 or it.keywords:
        return None
    values = []
    for arg in it.args:
        if isinstance(arg, ast.Call) and ctx.names.is_warp(arg.func, "static"):
            return None  # wp.static forces unrolling
        value = ctx.numeric(arg)
        if value is None:
            if isinstance(arg, ast.Name) and arg.id not in fn.params and arg.id not in fn.index.stores:
                return None  # a global we cannot evaluate: Warp may know it; stay silent
            return "`%s`: `%s` is not a compile-time constant" % (unparse(it), unparse(arg))
        if not isinstance(value, int):
            return None  # Warp rejects a float range; not our finding
        values.append(value)
    if _contains_static(loop, ctx):
        return None
    try:
        trips = len(range(*values))
    except (ValueError, OverflowError):
        return None
    limit = ctx.max_unroll(fn)
    if trips > limit:
        return "`%s` runs %d iterations, more than max_unroll=%d" % (unparse(it), trips, limit)
    if _breaks(loop.body):
        return "`%s` contains `break`" % unparse(it)
    return None


def unrollable(loop: ast.stmt, ctx: FileContext) -> bool:
    """A ``for`` over ``range(...)`` (or ``reversed(range(...))``): Warp unrolls it once its trip count is a
    compile-time constant within ``max_unroll`` and it has no ``break`` (a query loop or ``while`` never)."""
    if not isinstance(loop, ast.For):
        return False
    it = _iterated(loop)
    return isinstance(it, ast.Call) and _is_range(it.func, ctx)


def _iterated(loop: ast.For) -> ast.expr:
    """What the loop iterates, ``range(n)`` of ``reversed(range(n))`` too (Warp unrolls both alike)."""
    it = loop.iter
    if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "reversed" and it.args:
        return it.args[0]
    return it


def _is_range(func: ast.expr, ctx: FileContext) -> bool:
    return (isinstance(func, ast.Name) and func.id == "range") or ctx.names.is_warp(func, "range")


def _contains_static(loop: ast.For, ctx: FileContext) -> bool:
    for node in walk(loop):
        if isinstance(node, ast.Call) and ctx.names.is_warp(node.func, "static"):
            return True
    return False


def _breaks(stmts) -> bool:
    """A ``break`` that leaves this loop (not one inside a nested loop)."""
    for s in stmts:
        if isinstance(s, ast.Break):
            return True
        if isinstance(s, ast.If) and (_breaks(s.body) or _breaks(s.orelse)):
            return True
        if isinstance(s, (ast.With, ast.Try)) and _breaks(s.body):
            return True
    return False
