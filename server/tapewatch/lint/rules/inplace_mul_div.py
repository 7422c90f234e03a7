"""TW301: ``a[i] *= x`` / ``a[i] /= x`` on an array parameter inside a kernel or ``@wp.func``.

Warp accumulates adjoints for ``+=`` / ``-=`` on array elements, but an
in-place multiply or divide overwrites the element without keeping the old
value, so the backward pass gets a wrong gradient ("In-Place Math
Operations" in Warp's Differentiability guide; Warp only says so with
``LOG_DEBUG``).  Local scalars (``s *= 2.0``) are SSA values Warp handles,
so only array elements are reported, and not by a factor no returned
gradient flows into (a literal, a module constant, a kernel's value
parameter: no adjoint anyone reads needs the old element then).
"""

from __future__ import annotations

import ast
from typing import Iterator, Optional

from tapewatch.model import Finding

from .. import findings
from ..context import FileContext
from ..kernels import WarpFunction
from ..names import unparse

CODE = "TW301"

_OPS = {ast.Mult: "*=", ast.Div: "/=", ast.Pow: "**=", ast.MatMult: "@="}


FUNCTIONS = "differentiated"  # check_function runs on each function Warp differentiates


def check_function(ctx: FileContext, fn: WarpFunction) -> Iterator[Finding]:
    for aug in fn.index.augassigns:
        op = _OPS.get(type(aug.op))
        if op is None:
            continue
        array = _array_element_of(aug.target, fn, ctx)
        if array is None or _no_gradient(aug.value, ctx, fn):
            # ``a[i] *= 0.01``, ``a[i] *= damping`` (a kernel's float argument): only the factor's adjoint
            # needs the old element, and this factor's is never handed back.
            continue
        kind = "kernel" if fn.kind == "kernel" else "function"
        yield findings.make(
            ctx.src, CODE,
            "In-place `%s` on an element of array `%s` in %s `%s` is not differentiable: "
            "the backward pass needs the value it overwrites (only `+=`/`-=` accumulate adjoints)"
            % (op, array, kind, fn.name),
            aug,
            data={"kernel": fn.name, "array": array, "operator": op, "target": unparse(aug.target)},
        )


def _no_gradient(node: ast.expr, ctx: FileContext, fn: WarpFunction) -> bool:
    """A factor no returned gradient flows into: literals, module constants and a kernel's value
    parameters, combined (``-2.0 * SCALE``, ``dt * damping``)."""
    if isinstance(node, ast.BinOp):
        return _no_gradient(node.left, ctx, fn) and _no_gradient(node.right, ctx, fn)
    if isinstance(node, ast.UnaryOp):
        return _no_gradient(node.operand, ctx, fn)
    return ctx.is_invariant(node, fn)


def _array_element_of(target: ast.expr, fn: WarpFunction, ctx: FileContext) -> Optional[str]:
    """The array an augmented-assignment target indexes (``a`` for ``a[i]``, ``a[i].x``, ``s.a[i]``)."""
    chain = []
    node = target
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        chain.append(node)
        node = node.value
    if not isinstance(node, ast.Name) or not chain:
        return None
    innermost = chain[-1]  # the access applied directly to the parameter
    if node.id in fn.array_params:
        return node.id if isinstance(innermost, ast.Subscript) else None
    struct = fn.struct_params.get(node.id)
    if struct and isinstance(innermost, ast.Attribute) and len(chain) >= 2 and isinstance(chain[-2], ast.Subscript):
        if innermost.attr in ctx.struct_arrays(struct):
            return "%s.%s" % (node.id, innermost.attr)
    return None
