"""The values a kernel really passed to a ``@wp.func``: an instrumented copy of the kernel records them.

A custom adjoint is checked on its own at the inputs the launch saw
(``custom_adjoints``).  An argument is often an expression
(``softplus(w[0] * x[i] + b)``, ``yukawa(wp.length(x[i] - x[j]), ...)``)
whose values no array holds, so a copy of the kernel evaluates each scalar
or vector argument of the kernel's own calls of the function just before the
statement that calls it, and stores it in a slot taken with an atomic
counter; the copy runs once, on private copies of the launch's arrays, off
every tape.  Struct arguments are not recorded (the launch's own value is
used).  None when the kernel cannot be rewritten this way (the call is in a
``@wp.func``, a loop header or a condition).
"""

from __future__ import annotations

import ast
import copy
from typing import List, Optional

from ..core import warp_seams
from ...warpsrc.source import callee, parse_def

CAPACITY = 4096  # recorded calls; more threads call it than this: the first ones are kept


def captured_arguments(wp, kernel, entry, func_name: str, kinds: List[Optional[type]]) -> Optional[list]:
    """Per argument of ``func_name``: a NumPy array of the values the launch passed (one row per recorded
    call), or None for an argument not recorded (``kinds[k]`` None: a struct, an integer)."""
    from .singular_ops import load_variant  # noqa: PLC0415
    from .finite_diff import copy_struct  # noqa: PLC0415

    fdef = parse_def(warp_seams.kernel_source(kernel))
    func = getattr(kernel, "func", None)
    if fdef is None or func is None:
        return None
    recorded = [k for k, t in enumerate(kinds) if t is not None]
    variant_def = _instrument(fdef, func_name, recorded, kinds)
    if variant_def is None:
        return None
    env = dict(getattr(func, "__globals__", {}) or {})
    env.update({"_tw_t%d" % k: kinds[k] for k in recorded})
    variant = load_variant(kernel, variant_def.name, "import warp as wp\n\n\n" + ast.unparse(variant_def) + "\n", env)
    if variant is None:
        return None
    copies: dict = {}

    def copy_of(a):
        if id(a) not in copies:
            copies[id(a)] = warp_seams.device_snapshot(wp, a)
        return copies[id(a)]

    args = []
    for a in entry.args:
        if isinstance(a, wp.array):
            args.append(copy_of(a))
        elif a is not None and warp_seams.is_struct_instance(wp, a):
            clone = copy_struct(wp, a, copy_of, {}, 0, "")
            if clone is None:
                return None
            args.append(clone)
        else:
            args.append(a)
    count = wp.zeros(1, dtype=wp.int32, device=entry.device)
    slots = [wp.zeros(CAPACITY, dtype=kinds[k], device=entry.device) for k in recorded]
    n_in = len(entry.inputs)
    with warp_seams.suspended_tape(wp):
        warp_seams.real_launch(wp)(variant, dim=entry.dim, inputs=args[:n_in], outputs=args[n_in:] + [count] + slots,
                                   device=entry.device, record_tape=False, max_blocks=entry.max_blocks,
                                   block_dim=entry.block_dim)
    n = min(int(warp_seams.host_values(count)[0]), CAPACITY)
    if n == 0:
        return None
    out: list = [None] * len(kinds)
    for k, values in zip(recorded, slots):
        out[k] = warp_seams.host_values(values)[:n].copy()
    return out


def _instrument(fdef: ast.FunctionDef, func_name: str, recorded: List[int], kinds) -> Optional[ast.FunctionDef]:
    new = copy.deepcopy(fdef)
    new.name = "_tw_arguments_" + fdef.name
    new.decorator_list = [ast.parse("wp.kernel", mode="eval").body]
    new.args.args.append(ast.arg(arg="_tw_count", annotation=ast.parse("wp.array(dtype=wp.int32)", mode="eval").body))
    for k in recorded:
        new.args.args.append(ast.arg(arg="_tw_a%d" % k,
                                     annotation=ast.parse("wp.array(dtype=_tw_t%d)" % k, mode="eval").body))
    found = []

    def rewrite(body):
        out = []
        for stmt in body:
            if isinstance(stmt, (ast.If, ast.For, ast.While)):
                headers = [stmt.test] if isinstance(stmt, (ast.If, ast.While)) else [stmt.iter, stmt.target]
                if any(_calls(h, func_name) for h in headers):
                    return None  # a call in a condition or a loop header: not recorded this way
                for field in ("body", "orelse"):
                    inner = rewrite(getattr(stmt, field))
                    if inner is None:
                        return None
                    setattr(stmt, field, inner)
                out.append(stmt)
                continue
            call = next((n for n in ast.walk(stmt) if isinstance(n, ast.Call) and callee(n.func) == func_name), None)
            if call is not None and not call.keywords and len(call.args) >= len(kinds):
                found.append(call)
                lines = ["_tw_slot = wp.atomic_add(_tw_count, 0, 1)", "if _tw_slot < %d:" % CAPACITY]
                lines += ["    _tw_a%d[_tw_slot] = %s" % (k, ast.unparse(call.args[k])) for k in recorded]
                out.extend(ast.parse("\n".join(lines)).body)
            out.append(stmt)
        return out

    body = rewrite(new.body)
    if body is None or not found:
        return None
    new.body = body
    ast.fix_missing_locations(new)
    return new


def _calls(node, name: str) -> bool:
    return any(isinstance(n, ast.Call) and callee(n.func) == name for n in ast.walk(node))
