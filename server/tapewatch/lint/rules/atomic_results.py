"""TW308: an atomic's return value used inside a differentiated kernel or function.

``slot = wp.atomic_add(counter, 0, 1)`` claims a slot in the forward pass;
the backward pass replays the body but not its atomics, so there ``slot``
is not the slot the forward pass claimed and adjoints indexed by it go to
the wrong elements (measured on Warp 1.14 and 1.19).  A run confirms it
(TW206) when such a kernel is launched on a differentiated tape.
"""

from __future__ import annotations

from typing import Iterator

from tapewatch.model import Finding

from .. import findings
from ..context import FileContext

CODE = "TW308"

_ATOMICS = frozenset(
    "atomic_add atomic_sub atomic_min atomic_max atomic_cas atomic_exch atomic_and atomic_or atomic_xor".split()
)


def check(ctx: FileContext) -> Iterator[Finding]:
    for fn in ctx.differentiated_functions():
        discarded = fn.index.statement_calls
        for node in fn.index.calls:
            if id(node) in discarded:
                continue
            q = ctx.names.qualname(node.func) or ""
            op = q.rsplit(".", 1)[-1]
            if not q.startswith("warp.") or op not in _ATOMICS:
                continue
            yield findings.make(
                ctx.src, CODE,
                "`%s` uses the return value of `wp.%s`: the backward pass does not replay atomics, so there the "
                "value differs from the forward pass and adjoints indexed by it land on the wrong elements"
                % (fn.name, op),
                node,
                data={"function": fn.name, "operation": op},
            )
