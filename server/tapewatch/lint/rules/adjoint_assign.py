"""TW307: ``wp.adjoint[x] = ...`` in a custom adjoint, where it must accumulate.

A ``@wp.func_grad`` receives the adjoints of its inputs as they stand when
it runs, and adds its contribution: ``wp.adjoint[x] += adj_ret * dfdx``.
Assigning replaces whatever other uses of ``x`` already contributed (in a
loop, in a second call, or through another term of the kernel), so the
gradient silently loses those parts.

When every call of the function in the file passes that input a
temporary (``safe_length(x[s + 1] - x[s])``: an expression, or a variable
the caller uses nowhere else), nothing else contributes to its adjoint and
the assignment is harmless: not reported.  A function with no call in the
file is reported (its callers cannot be seen).
"""

from __future__ import annotations

import ast
from typing import Iterator

from tapewatch.model import Finding

from .. import findings
from ..context import FileContext
from ..kernels import FUNC_GRAD, WarpFunction
from ..names import unparse

CODE = "TW307"


FUNCTIONS = "all"  # check_function runs on every Warp function (custom adjoints among them)


def check_function(ctx: FileContext, fn: WarpFunction) -> Iterator[Finding]:
    if fn.kind != FUNC_GRAD:
        return
    calls = _calls(ctx, fn)
    for node in ast.walk(fn.node):
        if not isinstance(node, ast.Assign):
            continue
        for target in node.targets:
            if _is_adjoint_slot(target):
                name = unparse(target.slice)
                if calls and name in fn.params and all(_temporary(call, caller, list(fn.params).index(name))
                                                       for call, caller in calls):
                    continue
                yield findings.make(
                    ctx.src, CODE,
                    "The custom adjoint `%s` assigns `wp.adjoint[%s]` instead of adding to it: contributions "
                    "to the gradient of `%s` from elsewhere are overwritten; write `wp.adjoint[%s] += ...`"
                    % (fn.name, name, name, name),
                    node,
                    data={"function": fn.name, "input": name},
                )


def _calls(ctx: FileContext, fn: WarpFunction) -> list:
    """``(call, caller)`` for each call in the file's Warp functions of the function ``fn`` differentiates."""
    primal = fn.decorator.args[0] if isinstance(fn.decorator, ast.Call) and fn.decorator.args else None
    if not isinstance(primal, ast.Name):
        return []
    out = []
    for caller in ctx.functions:
        for node in ast.walk(caller.node):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == primal.id:
                out.append((node, caller))
    return out


def _temporary(call: ast.Call, caller: WarpFunction, position: int) -> bool:
    """The call passes argument ``position`` a value nothing else in the caller uses."""
    if position >= len(call.args):
        return False  # a keyword or default: cannot tell
    arg = call.args[position]
    if isinstance(arg, ast.Name):
        if arg.id in caller.params:
            return False  # the caller's own input: its adjoint may collect elsewhere too
        uses = sum(1 for n in ast.walk(caller.node) if isinstance(n, ast.Name) and n.id == arg.id
                   and isinstance(n.ctx, ast.Load))
        return uses == 1 and not _in_loop(call, caller)
    return True  # any other expression: Warp evaluates it into a fresh variable for this call alone


def _in_loop(node: ast.AST, caller: WarpFunction) -> bool:
    for loop in ast.walk(caller.node):
        if isinstance(loop, (ast.For, ast.While)) and any(n is node for n in ast.walk(loop)):
            return True
    return False


def _is_adjoint_slot(target: ast.expr) -> bool:
    if not isinstance(target, ast.Subscript):
        return False
    value = target.value
    if isinstance(value, ast.Attribute):
        return value.attr == "adjoint"
    return isinstance(value, ast.Name) and value.id == "adjoint"
