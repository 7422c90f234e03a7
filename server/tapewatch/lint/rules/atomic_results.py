"""TW308: an atomic's return value used inside a differentiated kernel or function.

``slot = wp.atomic_add(counter, 0, 1)`` claims a slot in the forward pass;
the backward pass replays the body but not its atomics, so there ``slot``
is not the slot the forward pass claimed and adjoints indexed by it go to
the wrong elements (measured on Warp 1.14 and 1.19).  A run confirms it
(TW206) when such a kernel is launched on a differentiated tape.

The same rule covers reading an accumulator in the launch that accumulates
into it (``wp.atomic_add(denom, 0, e)`` then ``e / denom[0]``): each
thread of the forward pass sees a partial sum, whatever the threads before
it added, while the backward pass replays against the final sum.  The
finding sits on the read; splitting the kernel (accumulate in one launch,
read in the next) fixes both.
"""

from __future__ import annotations

import ast
from typing import Iterator

from tapewatch.model import Finding
from tapewatch.warpsrc.vocabulary import ATOMICS

from .. import findings
from ..context import FileContext
from ..kernels import FUNC_REPLAY, KERNEL, WarpFunction

CODE = "TW308"



FUNCTIONS = "differentiated"  # check_function runs on each function Warp differentiates


def check_function(ctx: FileContext, fn: WarpFunction) -> Iterator[Finding]:
    yield from _reads_after_accumulating(ctx, fn)
    if fn.kind != KERNEL and fn.name in _replayed(ctx):
        return  # a @wp.func_replay gives the backward pass the forward's results (a slot table)
    if fn.kind == KERNEL and not _writes_differentiable(ctx, fn):
        return  # only integer arrays written (a neighbour list): no adjoint to send to a wrong element
    discarded = fn.index.statement_calls
    for node in fn.index.calls:
        if id(node) in discarded:
            continue
        q = ctx.names.qualname(node.func) or ""
        op = q.rsplit(".", 1)[-1]
        if not q.startswith("warp.") or op not in ATOMICS:
            continue
        yield findings.make(
            ctx.src, CODE,
            "`%s` uses the return value of `wp.%s`: the backward pass does not replay atomics, so there the "
            "value differs from the forward pass and adjoints indexed by it land on the wrong elements"
            % (fn.name, op),
            node,
            data={"function": fn.name, "operation": op},
        )


_INTEGER_DTYPES = frozenset("int int8 int16 int32 int64 uint8 uint16 uint32 uint64 bool".split())


def _integer_array(fn: WarpFunction, name: str) -> bool:
    """A kernel array parameter annotated with an integer dtype (``wp.array2d(dtype=wp.int32)``)."""
    ann = fn.params.get(name)
    dtype = None
    if isinstance(ann, ast.Call):
        dtype = next((k.value for k in ann.keywords if k.arg == "dtype"), ann.args[0] if ann.args else None)
    elif isinstance(ann, ast.Subscript):
        dtype = ann.slice
    text = ast.unparse(dtype) if dtype is not None else ""
    return name in fn.array_params and text.rsplit(".", 1)[-1] in _INTEGER_DTYPES


def _writes_differentiable(ctx: FileContext, fn: WarpFunction) -> bool:
    """Whether the kernel may write a float array (what its adjoint propagates from); False only when every
    write is provably into an integer array parameter and no function it calls is handed a float array."""
    for node in ast.walk(fn.node):
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
        for target in targets:
            if not isinstance(target, ast.Subscript):
                continue
            base = target.value
            if isinstance(base, ast.Name) and base.id not in fn.params:
                continue  # a local vector's component, not an array
            if not (isinstance(base, ast.Name) and _integer_array(fn, base.id)):
                return True
        if isinstance(node, ast.Call):
            q = ctx.names.qualname(node.func) or ""
            if q.startswith("warp.") and q.rsplit(".", 1)[-1] in ATOMICS:
                first = node.args[0] if node.args else None
                if not (isinstance(first, ast.Name) and _integer_array(fn, first.id)):
                    return True
            elif not q.startswith("warp.") and any(
                    isinstance(a, ast.Name) and a.id in fn.params and not _integer_array(fn, a.id)
                    and (a.id in fn.array_params or a.id in fn.struct_params) for a in node.args):
                return True  # a user function handed a float array (or a struct) may write it
    return False


def _replayed(ctx: FileContext) -> frozenset:
    """Names of the functions the file gives a ``@wp.func_replay``."""
    out = set()
    for fn in ctx.functions:
        if fn.kind == FUNC_REPLAY and isinstance(fn.decorator, ast.Call) and fn.decorator.args:
            target = fn.decorator.args[0]
            if isinstance(target, ast.Name):
                out.add(target.id)
    return frozenset(out)


def _reads_after_accumulating(ctx: FileContext, fn) -> Iterator[Finding]:
    """A kernel array parameter read after a ``wp.atomic_*`` statement accumulated into it."""
    if fn.kind != KERNEL:
        return
    first: dict = {}  # array parameter -> its first atomic statement
    for node in fn.index.calls:
        if id(node) not in fn.index.statement_calls or not node.args or not isinstance(node.args[0], ast.Name):
            continue
        q = ctx.names.qualname(node.func) or ""
        if q.startswith("warp.") and q.rsplit(".", 1)[-1] in ATOMICS and node.args[0].id in fn.array_params:
            first.setdefault(node.args[0].id, node)
    elements = None  # id(Name) -> the subscript reading through it, built once per kernel when needed
    for name, atomic in first.items():
        after = (atomic.end_lineno or atomic.lineno, atomic.end_col_offset or 0)
        for position, read in fn.index.loads_of(name):
            if id(read) in fn.index.write_bases or position < after:
                continue
            if elements is None:
                elements = {id(n.value): n for n in ast.walk(fn.node)
                            if isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Load)}
            element = elements.get(id(read))
            if element is None:
                continue  # passed on whole (to a function, another atomic): not a read of a value here
            op = (ctx.names.qualname(atomic.func) or "").rsplit(".", 1)[-1]
            yield findings.make(
                ctx.src, CODE,
                "`%s` reads `%s` after accumulating into it with `wp.%s` in the same launch: in the forward pass "
                "each thread sees a partial sum (what the threads before it added), while the backward pass "
                "replays against the final sum. Accumulate in one launch and read in the next"
                % (fn.name, name, op),
                element,
                data={"function": fn.name, "kernel": fn.name, "operation": op, "array": name},
            )
            break  # one finding per accumulator: the first read

