"""TW307: ``wp.adjoint[x] = ...`` in a custom adjoint, where it must accumulate.

A ``@wp.func_grad`` receives the adjoints of its inputs as they stand when
it runs, and adds its contribution: ``wp.adjoint[x] += adj_ret * dfdx``.
Assigning replaces whatever other uses of ``x`` already contributed (in a
loop, in a second call, or through another term of the kernel), so the
gradient silently loses those parts.
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
    for node in ast.walk(fn.node):
        if not isinstance(node, ast.Assign):
            continue
        for target in node.targets:
            if _is_adjoint_slot(target):
                name = unparse(target.slice)
                yield findings.make(
                    ctx.src, CODE,
                    "The custom adjoint `%s` assigns `wp.adjoint[%s]` instead of adding to it: contributions "
                    "to the gradient of `%s` from elsewhere are overwritten; write `wp.adjoint[%s] += ...`"
                    % (fn.name, name, name, name),
                    node,
                    data={"function": fn.name, "input": name},
                )


def _is_adjoint_slot(target: ast.expr) -> bool:
    if not isinstance(target, ast.Subscript):
        return False
    value = target.value
    if isinstance(value, ast.Attribute):
        return value.attr == "adjoint"
    return isinstance(value, ast.Name) and value.id == "adjoint"
