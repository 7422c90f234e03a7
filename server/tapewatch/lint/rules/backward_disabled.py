"""TW305: ``enable_backward=False`` in a file that differentiates something.

With backward code generation disabled Warp builds no adjoint, so a taped
launch of such a kernel contributes no gradient (``gradcheck_tape`` even
skips it silently).  Warp has four spellings, all reported:

- ``@wp.kernel(enable_backward=False)`` (one kernel);
- ``@wp.kernel(module="unique", module_options={"enable_backward": False})``
  (Warp >= 1.15; the kernel's own module);
- ``wp.set_module_options({"enable_backward": False})`` (every kernel in the module);
- ``wp.config.enable_backward = False`` (every module compiled afterwards).

Forward-only code is legitimate, so the rule speaks only when the same file
records a ``wp.Tape()``, calls ``.backward(...)`` or uses ``wp.autograd``,
and not for a kernel whose every launch in the file is ``record_tape=False``.
"""

from __future__ import annotations

import ast
from typing import Iterator

from tapewatch.model import Finding

from .. import findings
from ..context import FileContext, OptionSite

CODE = "TW305"

_SCOPE_TEXT = {
    "kernel": "kernel `%s`",
    "kernel-module": "the module of kernel `%s`",
    "module": "every kernel in this module",
    "global": "every module Warp compiles after this line",
}


def check(ctx: FileContext) -> Iterator[Finding]:
    sites = [s for s in ctx.options if s.key == "enable_backward" and _is_false(s.value)]
    if not sites or not ctx.diff_sites:  # diff_sites walks the host code: ask only when needed
        return
    for site in sites:
        if site.kernel and _only_untaped_launches(ctx, site.kernel):
            continue
        yield _finding(ctx, site, ctx.diff_sites[0])


def _only_untaped_launches(ctx: FileContext, kernel: str) -> bool:
    """Every launch of ``kernel`` in the file says ``record_tape=False``: forward-only on purpose.

    (Warp's own custom-backward examples launch their solver kernels this way
    and register the adjoint with ``tape.record_func``.)
    """
    launches = 0
    for call in ctx.stmt_calls:  # launches are statements; one inside an expression is missed
        if not isinstance(call.func, ast.Attribute) and not isinstance(call.func, ast.Name):
            continue
        if not ctx.names.is_warp(call.func, "launch", "launch_tiled"):
            continue
        kw = {k.arg: k.value for k in call.keywords if k.arg}
        target = kw.get("kernel", call.args[0] if call.args else None)
        if not (isinstance(target, ast.Name) and target.id == kernel):
            continue
        record = kw.get("record_tape")
        if not (isinstance(record, ast.Constant) and record.value is False):
            return False
        launches += 1
    return launches > 0


def _is_false(value: ast.expr) -> bool:
    return isinstance(value, ast.Constant) and value.value is not None and value.value in (False, 0)


def _finding(ctx: FileContext, site: OptionSite, diff_site: ast.AST) -> Finding:
    scope = _SCOPE_TEXT[site.scope]
    if "%s" in scope:
        scope = scope % site.kernel
    data = {"scope": site.scope}
    if site.kernel:
        data["kernel"] = site.kernel
    return findings.make(
        ctx.src, CODE,
        "Backward code generation is disabled for %s, but this file differentiates (line %d): "
        "Warp generates no adjoint here, so a taped launch contributes no gradient"
        % (scope, diff_site.lineno),
        site.start,
        end=site.end,
        related=[findings.related(ctx.src, diff_site, "differentiated here", "tape")],
        data=data,
    )
