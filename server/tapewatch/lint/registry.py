"""The rules the engine runs, and the isolation between them.

A rule is a module with ``CODE`` and ``check(ctx)``.  One rule's bug must
not cost the user the other rules' findings (or crash the language server),
so each runs behind its own exception guard.
"""

from __future__ import annotations

import logging
from typing import List, Optional

from tapewatch.model import Finding

from .context import FileContext
from .memo import FunctionMemo
from .rules import (
    adjoint_assign,
    atomic_results,
    backward_disabled,
    dynamic_loops,
    inplace_mul_div,
    tape_overwrites,
    vector_reassign,
    where_operands,
)

RULES = (inplace_mul_div, vector_reassign, dynamic_loops, where_operands, backward_disabled, tape_overwrites,
         adjoint_assign, atomic_results)

_log = logging.getLogger(__name__)


def run_rules(ctx: FileContext, rules=None, memo: Optional[FunctionMemo] = None) -> List[Finding]:
    """Every rule's findings.  A rule with ``check_function`` runs function by function (on the
    functions its ``FUNCTIONS`` names), through ``memo`` when the caller keeps one."""
    rules = RULES if rules is None else rules
    out: List[Finding] = []
    for rule in rules:
        if not hasattr(rule, "check_function"):
            out.extend(_guarded(rule, ctx, lambda rule=rule: rule.check(ctx)))
    per_function = [rule for rule in rules if hasattr(rule, "check_function")]
    if not per_function:
        return out
    differentiated = {id(fn) for fn in ctx.differentiated_functions()}
    facts = ctx.facts() if memo is not None else None
    for fn in ctx.functions:
        wanted = tuple(rule for rule in per_function
                       if getattr(rule, "FUNCTIONS", "differentiated") == "all" or id(fn) in differentiated)
        if not wanted:
            continue

        def check(fn=fn, wanted=wanted) -> List[Finding]:
            found: List[Finding] = []
            for rule in wanted:
                found.extend(_guarded(rule, ctx, lambda rule=rule: rule.check_function(ctx, fn)))
            return found

        if memo is None:
            out.extend(check())
        else:
            out.extend(memo.findings(fn.node, (fn.kind, tuple(r.CODE for r in wanted), facts), check))
    return out


def _guarded(rule, ctx: FileContext, run) -> List[Finding]:
    try:
        return list(run())
    except Exception:  # noqa: BLE001 - a broken rule is logged and skipped, never fatal
        _log.exception("lint rule %s failed on %s", rule.CODE, ctx.path)
        return []


def codes() -> List[str]:
    return [rule.CODE for rule in RULES]
