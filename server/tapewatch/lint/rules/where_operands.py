"""TW304: ``wp.where`` / ``wp.select`` with an operand that overflows or is undefined where it is rejected.

``wp.where(cond, a, b)`` is a function call: Warp evaluates *both* operands
in the forward pass and runs *both* adjoints in the backward pass, giving
the rejected one a zero adjoint.  If the rejected operand is inf or NaN
there, its adjoint computes ``0 * inf = NaN`` and the gradient is NaN even
though the forward value is fine.

Operations reported, and why:

- overflow for large finite inputs: ``exp``, ``sinh``, ``cosh``, ``tan``
  (near its poles), ``pow``/``**`` with a non-constant or fractional exponent;
- value or derivative infinite/undefined at a boundary the guard usually
  excludes: ``log``/``log2``/``log10``, ``sqrt``, ``cbrt`` (at or below 0),
  ``acos``/``asin`` (at +-1), ``atan2`` (at the origin), ``length`` and
  ``normalize`` (zero vector), ``inverse`` (singular matrix), ``erfinv``/
  ``erfcinv``, and division (``/``, ``wp.div``, ``wp.cw_div``) by a
  non-constant.

An operation whose argument is already clamped (``wp.sqrt(wp.max(x, eps))``,
``x / wp.max(d, eps)``, ``d + 1e-6`` as a divisor) is the documented fix
and stays silent.  A local assigned from such an expression and then used as
an operand (``e = wp.exp(x)``; ``wp.where(c, e, 0.0)``) is reported at the
operand.  Python's conditional expression ``a if c else b`` compiles to a
branch in Warp, not to ``wp.where``, and is not reported.
"""

from __future__ import annotations

import ast
from typing import Iterator, List, Optional, Set, Tuple

from tapewatch.model import Finding
from tapewatch.warpsrc.vocabulary import ANY, DIVISIONS, HAZARDS, HIGH, LOW

from .. import findings
from ..context import FileContext
from ..exprs import pos, walk
from ..kernels import WarpFunction
from ..names import unparse

CODE = "TW304"

# Which guards neutralise a hazard (vocabulary.HAZARDS gives each operation's side).
_GUARDS = {LOW: ("max", "clamp", "where", "select"), HIGH: ("min", "clamp", "where", "select"),
           ANY: ("max", "min", "clamp", "where", "select")}
_OPERAND_KEYWORDS = ("value_if_true", "value_if_false")


FUNCTIONS = "differentiated"  # check_function runs on each function Warp differentiates


def check_function(ctx: FileContext, fn: WarpFunction) -> Iterator[Finding]:
    reported: Set[int] = set()
    for call in fn.index.calls:
        q = ctx.names.qualname(call.func)
        if q not in ("warp.where", "warp.select"):
            continue
        func = q[5:]
        operands = list(call.args[1:3]) + [k.value for k in call.keywords if k.arg in _OPERAND_KEYWORDS]
        for operand in operands:
            yield from _operand(ctx, fn, call, func, operand, reported)


def _operand(ctx: FileContext, fn: WarpFunction, where: ast.Call, func: str, operand: ast.expr,
             reported: Set[int]) -> Iterator[Finding]:
    for node, hazard in _hazards(ctx, operand):
        if id(node) in reported:
            continue
        reported.add(id(node))
        subject = "`%s` is evaluated in an operand of `wp.%s`" % (unparse(node), func)
        yield _finding(ctx, fn, where, func, node, subject, hazard)
    if isinstance(operand, ast.Name) and id(operand) not in reported:
        # One step back: a local computed from a hazardous expression.
        value = _binding_before(fn, operand)
        hazards = _hazards(ctx, value) if value is not None else []
        if hazards:
            reported.add(id(operand))
            node, hazard = hazards[0]
            subject = "`%s` (computed with `%s` at line %d) is an operand of `wp.%s`" % (
                operand.id, unparse(node), node.lineno, func)
            yield _finding(ctx, fn, where, func, operand, subject, hazard,
                           [findings.related(ctx.src, node, "`%s` is computed here" % operand.id, "definition")])


def _finding(ctx, fn, where, func, node, subject, hazard, related=()) -> Finding:
    operation, label = hazard
    return findings.make(
        ctx.src, CODE,
        "%s: Warp evaluates and differentiates both operands, so where the condition rejects this one, "
        "an inf/NaN from %s still makes the gradient NaN (0 * inf)" % (subject, label),
        node,
        related=list(related) + [findings.related(ctx.src, where, "the `wp.%s` call" % func, "where")],
        data={"kernel": fn.name, "function": func, "operation": operation},
    )


def _hazards(ctx: FileContext, expr: ast.expr) -> List[Tuple[ast.AST, Tuple[str, str]]]:
    out = []
    for node in walk(expr):
        hazard = _hazard(ctx, node)
        if hazard:
            out.append((node, hazard))
    out.sort(key=lambda h: pos(h[0]))
    return out


def _hazard(ctx: FileContext, node: ast.AST) -> Optional[Tuple[str, str]]:
    """(operation, how to say it) if evaluating ``node`` can produce inf/NaN or an infinite derivative."""
    if isinstance(node, ast.BinOp):
        if isinstance(node.op, ast.Div) and not _safe_divisor(ctx, node.right):
            return "division", "division by `%s`" % unparse(node.right)
        if isinstance(node.op, ast.Pow) and not _safe_exponent(ctx, node.right) and not _guarded(ctx, node.left, LOW):
            return "pow", "`**`"
        return None
    if not isinstance(node, ast.Call):
        return None
    q = ctx.names.qualname(node.func)
    if not q or not q.startswith("warp.") or q.count(".") != 1:
        return None
    name = q[5:]
    if name in DIVISIONS and len(node.args) >= 2 and not _safe_divisor(ctx, node.args[1]):
        return "division", "division by `%s`" % unparse(node.args[1])
    guard = HAZARDS.get(name)
    if guard is None or not node.args:
        return None
    if name == "pow" and len(node.args) >= 2 and _safe_exponent(ctx, node.args[1]):
        return None
    if _guarded(ctx, node.args[0], guard):
        return None
    return name, "`wp.%s`" % name


def _guarded(ctx: FileContext, arg: ast.expr, kind: str) -> bool:
    if isinstance(arg, ast.Call) and ctx.names.is_warp(arg.func, *_GUARDS[kind]):
        return True
    # ``x + 1e-6``: the usual epsilon keeping a non-negative quantity off zero.
    if kind == LOW and isinstance(arg, ast.BinOp) and isinstance(arg.op, ast.Add):
        for side in (arg.left, arg.right):
            value = ctx.numeric(side)
            if value is not None and value > 0:
                return True
    return False


def _safe_divisor(ctx: FileContext, divisor: ast.expr) -> bool:
    value = ctx.numeric(divisor)
    if value is not None:
        return value != 0
    return _guarded(ctx, divisor, LOW)


def _safe_exponent(ctx: FileContext, exponent: ast.expr) -> bool:
    """Integer powers >= 1 are polynomials: finite, with finite derivatives."""
    value = ctx.numeric(exponent)
    return value is not None and value >= 1 and float(value).is_integer()


def _binding_before(fn: WarpFunction, name: ast.Name) -> Optional[ast.expr]:
    here = pos(name)
    value = None
    for at, v in fn.index.bindings.get(name.id, ()):
        if at < here:
            value = v
    return value
