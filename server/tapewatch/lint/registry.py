"""The rules the engine runs, and the isolation between them.

A rule is a module with ``CODE`` and ``check(ctx)``.  One rule's bug must
not cost the user the other rules' findings (or crash the language server),
so each runs behind its own exception guard.
"""

from __future__ import annotations

import logging
from typing import List

from tapewatch.model import Finding

from .context import FileContext
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


def run_rules(ctx: FileContext, rules=None) -> List[Finding]:
    out: List[Finding] = []
    for rule in RULES if rules is None else rules:
        try:
            out.extend(rule.check(ctx))
        except Exception:  # noqa: BLE001 - a broken rule is logged and skipped, never fatal
            _log.exception("lint rule %s failed on %s", rule.CODE, ctx.path)
    return out


def codes() -> List[str]:
    return [rule.CODE for rule in RULES]
