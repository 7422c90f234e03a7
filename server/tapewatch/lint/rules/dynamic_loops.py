"""TW303: values carried through a dynamic loop that the backward pass cannot reconstruct.

Warp's backward pass does not replay dynamic loops ("Dynamic Loops" in Warp's
Differentiability guide): the reverse loop re-runs each iteration's body
starting from the *final* values of loop-carried locals, and code after the
loop in a kernel's backward sees those locals as they were *before* the loop.
Three shapes follow, all reported:

- **recurrence** (kernels and functions): ``p *= x`` / ``p = p * x`` /
  ``x = wp.sin(x)``: the update's adjoint needs the previous iteration's
  value, which is gone (Warp's ``dynamic_loop_mult`` example).
- **local used after the loop** (kernels; in functions a use that needs its value): ``w = weights[i]`` in the loop,
  ``w`` read after it.
- **accumulator needed after the loop** (kernels and functions): ``norm += w`` is safe by
  itself, but ``sum / norm`` after the loop needs ``norm``'s value, which the
  backward pass does not have (Warp's ``dynamic_loop_sum`` example: inf);
  so does ``r = value - y`` followed by ``r * r`` (needed through a local
  computed from it).

Additive accumulation (``s += x``, ``s = s + x``) whose value is only passed
on linearly (stored, atomically added, scaled by a constant) is correct and
stays silent, as do loops Warp unrolls.  Inside a ``@wp.func`` the same
holds for uses after the loop in the function's own body (measured on Warp
1.14 and 1.19: ``return wp.exp(-g)`` after ``g += wp.log(...)`` gets the
factor of ``g = 0``); returning the value for the caller to use is right,
which is Warp's documented remedy, so there only a use that needs the
value is reported, not one that passes it on.
"""

from __future__ import annotations

import ast
from typing import Dict, Iterator, List, Optional, Tuple

from tapewatch.model import Finding
from tapewatch.warpsrc.source import root_name

from .. import findings
from ..context import FileContext
from ..exprs import end_pos, mentions, pos, walk
from ..kernels import KERNEL, WarpFunction
from ..loops import dynamic_reason, unrollable

CODE = "TW303"

PLAIN, LINEAR, MULTIPLICATIVE, NONLINEAR = "plain", "linear", "multiplicative", "nonlinear"


FUNCTIONS = "differentiated"  # check_function runs on each function Warp differentiates


def check_function(ctx: FileContext, fn: WarpFunction) -> Iterator[Finding]:
    for loop in fn.index.loops:
        reason = dynamic_reason(loop, fn, ctx)
        if reason is not None:
            yield from _check_loop(ctx, fn, loop, reason)


class _Update:
    __slots__ = ("stmt", "target", "kind")

    def __init__(self, stmt: ast.stmt, target: ast.AST, kind: str) -> None:
        self.stmt = stmt
        self.target = target  # the Name (or component) written
        self.kind = kind


class _Carried:
    """One value a dynamic loop carries wrongly: what to say, where, and with what related places."""

    __slots__ = ("var", "node", "alone", "in_loop", "related", "data")

    def __init__(self, var, node, alone, in_loop, related, data) -> None:
        self.var = var
        self.node = node  # the update (or assignment) in the loop
        self.alone = alone  # the message when the finding sits on that statement
        self.in_loop = in_loop  # the clause when it sits on the loop's header
        self.related = related
        self.data = data


def _check_loop(ctx: FileContext, fn: WarpFunction, loop: ast.stmt, reason: str) -> Iterator[Finding]:
    # Point at the loop's header (``for i in range(n)``), not its whole body.
    header_end = loop.iter if isinstance(loop, ast.For) else loop.test
    loop_related = findings.related(ctx.src, loop, "the dynamic loop", "loop", end=header_end)
    carried = list(_carried_values(ctx, fn, loop, reason))
    if not carried:
        return
    if not unrollable(loop, ctx):
        # A query loop or a ``while`` cannot be unrolled: the statement is what to change.
        for c in carried:
            yield findings.make(ctx.src, CODE, c.alone, c.node, related=c.related + [loop_related], data=c.data)
        return
    # A ``range`` loop Warp would unroll given a compile-time trip count: that header is the line to change
    # (the fix the evaluation sets' authors made every time), the statements are related.
    advice = ("raise `max_unroll` (`wp.set_module_options({\"max_unroll\": N})`) or split the loop"
              if "max_unroll" in reason else
              "remove the `break`" if "`break`" in reason else
              "make the trip count a compile-time constant (a module-level constant or `wp.static(...)`) so "
              "Warp unrolls the loop")
    message = ("This loop is dynamic (%s) and Warp does not replay dynamic loops in the backward pass: %s. "
               "To differentiate it, %s, or restructure so nothing non-linear is carried across iterations."
               % (reason, "; ".join(c.in_loop for c in carried), advice))
    related = []
    for c in carried:
        related.append(findings.related(ctx.src, c.node, "`%s` is carried here" % c.var, "update"))
        related.extend(c.related)
    data = dict(carried[0].data)
    data["variables"] = [c.var for c in carried]
    yield findings.make(ctx.src, CODE, message, loop, end=header_end, related=related, data=data)


def _carried_values(ctx: FileContext, fn: WarpFunction, loop: ast.stmt, reason: str) -> Iterator[_Carried]:
    updates = _updates_in(ctx, fn, loop)
    start, end = pos(loop), end_pos(loop)
    for var, ups in updates.items():
        carried = [u for u in ups if u.kind in (MULTIPLICATIVE, NONLINEAR) and _carried(fn, var, u, ups, start)]
        if carried and _is_integer(ctx, fn, var, start):
            carried = []  # integers have no adjoint: an int recurrence (a factorial) is not a gradient bug
        for u in carried:
            what = _recurrence_words(u)
            yield _Carried(
                var, u.stmt,
                "`%s` is %s in a dynamic loop (%s): Warp does not replay dynamic loops in the backward pass, "
                "so the adjoint of this update uses the loop's final `%s` instead of each iteration's"
                % (var, what, reason, var),
                "`%s` is %s in it (line %d), so the adjoint of that update uses the loop's final `%s` instead "
                "of each iteration's" % (var, what, u.stmt.lineno, var),
                [],
                {"kernel": fn.name, "variable": var, "kind": "recurrence", "loop_line": loop.lineno,
                 "update_line": u.stmt.lineno},
            )
        if carried:
            continue
        cross = _cross_recurrence(ctx, fn, var, ups, updates, start)
        if cross is not None:
            u, other = cross
            yield _Carried(
                var, u.stmt,
                "`%s` is updated from `%s` through a non-linear use in a dynamic loop (%s), and `%s` is carried "
                "from iteration to iteration too: Warp does not replay dynamic loops in the backward pass, so the "
                "adjoint of this update uses the loop's final `%s` instead of each iteration's"
                % (var, other, reason, other, other),
                "`%s` is updated from `%s` through a non-linear use (line %d) and `%s` is carried from iteration "
                "to iteration too, so the adjoint of that update uses the loop's final `%s` instead of each "
                "iteration's" % (var, other, u.stmt.lineno, other, other),
                [],
                {"kernel": fn.name, "variable": var, "kind": "recurrence", "loop_line": loop.lineno,
                 "through": other, "update_line": u.stmt.lineno},
            )
            continue
        plain = [u for u in ups if u.kind == PLAIN]
        window = _after_loop(fn, var, end)
        if plain and fn.kind == KERNEL:
            use = _first(fn.index.loads_of(var), window)
            if use is not None:
                yield _after_value(ctx, fn, loop, var, plain[0], use, reason,
                                   "is assigned in a dynamic loop", "local-used-after-loop")
        else:
            # In a @wp.func, passing the value on (``return v``, ``return s``) is right (the caller's
            # adjoint gets it): only a use that needs its value is wrong (measured: ``return v * v``
            # after ``v = w[k]`` gives 0, ``return s / norm`` NaN).
            use = _first(fn.index.value_uses_of(var), window)
            via = None
            if use is None:
                # ``r = value - target[i]`` then ``r * r``: needed through a local computed from it.
                use, via = _derived_value_use(fn, var, window)
            if use is not None:
                what, kind = (("is assigned in a dynamic loop", "local-used-after-loop") if plain else
                              ("is accumulated in a dynamic loop", "accumulator-used-after-loop"))
                yield _after_value(ctx, fn, loop, var, (plain or ups)[0], use, reason, what, kind, via)


def _cross_recurrence(ctx, fn, var, ups, updates, start):
    """``om = om - k * wp.sin(th)`` with ``th = th + om * dt`` in the same dynamic loop: the update of a
    carried ``om`` needs the per-iteration value of another carried variable.  (update, that variable)."""
    if _is_integer(ctx, fn, var, start) or not any(_carried(fn, var, u, ups, start) for u in ups):
        return None
    for u in ups:
        value = getattr(u.stmt, "value", None)
        if value is None or not isinstance(u.target, ast.Name):
            continue
        for other, theirs in updates.items():
            if other == var or _is_integer(ctx, fn, other, start):
                continue
            if not any(_carried(fn, other, t, theirs, start) for t in theirs):
                continue
            if any(t.kind in (MULTIPLICATIVE, NONLINEAR) and _carried(fn, other, t, theirs, start) for t in theirs):
                continue  # ``other``'s own recurrence is reported: that is the line to change
            if mentions(value, other) and not _linear(ctx, fn, other, value):
                return u, other
    return None


def _recurrence_words(update: _Update) -> str:
    if update.kind != MULTIPLICATIVE:
        return "updated from its own value"
    op = update.stmt.op if isinstance(update.stmt, ast.AugAssign) else None
    return {ast.Mult: "multiplied", ast.Div: "divided"}.get(type(op), "multiplied/divided")


def _after_value(ctx, fn, loop, var, update, use, reason, what, kind, via=None) -> _Carried:
    use_pos, use_node = use
    through = ", through `%s`" % via if via else ""
    return _Carried(
        var, update.target,
        "`%s` %s (%s) and its value is used after the loop (line %d%s): Warp does not replay dynamic loops "
        "in the backward pass, so there the adjoint sees `%s` as it was before the loop"
        % (var, what, reason, use_pos[0], through, var),
        "`%s` %s (line %d) and its value is used after the loop (line %d%s), where the adjoint sees `%s` as it "
        "was before the loop" % (var, what.replace("in a dynamic loop", "in it"), update.target.lineno,
                                 use_pos[0], through, var),
        [findings.related(ctx.src, use_node, "`%s` is used here, after the loop" % var, "use")],
        {"kernel": fn.name, "variable": var, "kind": kind, "loop_line": loop.lineno, "use_line": use_pos[0],
         "update_line": update.target.lineno},
    )


def _updates_in(ctx: FileContext, fn: WarpFunction, loop: ast.stmt) -> Dict[str, List[_Update]]:
    """Locals written in the loop body, by variable, in source order."""
    out: Dict[str, List[_Update]] = {}
    # The loop's own (and nested loops') targets are counters, not carried values.
    skip = set(fn.array_params) | set(fn.struct_params)
    start = pos(loop)
    # Only locals each iteration computes afresh: a variable carried into the loop is a recurrence of
    # its own, reported (or not) at its own update.
    locals_ = {name: entries for name, entries in _iteration_locals(loop).items()
               if name not in fn.params and not any(p < start for p in fn.index.stores.get(name, ()))}
    for stmt in loop.body:
        for node in walk(stmt):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    _assign_target(ctx, fn, out, node, target, node.value, skip, _expanded(node.value, locals_, node))
            elif isinstance(node, ast.AnnAssign) and node.value is not None:
                _assign_target(ctx, fn, out, node, node.target, node.value, skip,
                               _expanded(node.value, locals_, node))
            elif isinstance(node, ast.AugAssign):
                root = root_name(node.target)
                if root is None or root.id in skip:
                    continue
                if not _fixed_component(ctx, node.target):
                    # ``arr[i] *= s``: a different element each iteration, not a recurrence.
                    out.setdefault(root.id, []).append(_Update(node, node.target, PLAIN))
                    continue
                value = _expanded(node.value, locals_, node)
                if isinstance(node.op, (ast.Add, ast.Sub)) and not _linear(ctx, fn, root.id, value):
                    kind = NONLINEAR  # ``x += h * f(x)``: an Euler step is an update from its own value
                elif isinstance(node.op, (ast.Add, ast.Sub)) or (
                    isinstance(node.op, (ast.Mult, ast.Div)) and ctx.is_invariant(node.value, fn)
                ):
                    kind = LINEAR
                elif isinstance(node.op, (ast.Mult, ast.Div, ast.MatMult)):
                    kind = MULTIPLICATIVE
                else:
                    kind = NONLINEAR
                out.setdefault(root.id, []).append(_Update(node, node.target, kind))
    for ups in out.values():
        ups.sort(key=lambda u: pos(u.stmt))
    return out


def _iteration_locals(loop: ast.stmt) -> Dict[str, List[Tuple[tuple, ast.expr]]]:
    """``name -> [(position, value)]`` of the plain assignments in the loop body, in source order:
    what a local holds when a later statement of the same iteration reads it."""
    out: Dict[str, List[Tuple[tuple, ast.expr]]] = {}
    for stmt in loop.body:
        for node in walk(stmt):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                out.setdefault(node.targets[0].id, []).append((pos(node), node.value))
    for entries in out.values():
        entries.sort(key=lambda e: e[0])
    return out


def _expanded(value: ast.expr, locals_, stmt: ast.stmt, depth: int = 3) -> ast.expr:
    """``value`` with the locals this iteration computed before ``stmt`` replaced by what they hold:
    ``dx = a * x - b * x * y`` then ``x = x + dt * dx`` updates ``x`` from its own value nonlinearly,
    which the update alone does not show."""
    if depth <= 0 or not locals_:
        return value
    at = pos(stmt)
    names = {n.id for n in walk(value) if isinstance(n, ast.Name)}
    found = {}
    for name in names:
        before = [v for p, v in locals_.get(name, ()) if p < at]
        if before:
            found[name] = before[-1]
    if not found:
        return value

    class _Substitute(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.AST:
            held = found.get(node.id)
            if held is None or not isinstance(node.ctx, ast.Load):
                return node
            return _expanded(held, locals_, stmt, depth - 1)

    import copy  # noqa: PLC0415

    return _Substitute().visit(copy.deepcopy(value))


def _assign_target(ctx, fn, out, stmt, target, value, skip, expanded=None) -> None:
    if isinstance(target, (ast.Tuple, ast.List)):
        for elt in target.elts:
            if isinstance(elt, ast.Name) and elt.id not in skip:
                out.setdefault(elt.id, []).append(_Update(stmt, elt, PLAIN))
        return
    root = root_name(target)
    if root is None or root.id in skip:
        return
    kind = _update_kind(ctx, fn, root.id, value) if _fixed_component(ctx, target) else PLAIN
    if kind in (PLAIN, LINEAR) and expanded is not None and expanded is not value and _fixed_component(ctx, target):
        # Linear as written, but through a local this iteration computed from it (``x = x + dt * dx``).
        if _update_kind(ctx, fn, root.id, expanded) in (MULTIPLICATIVE, NONLINEAR):
            kind = NONLINEAR
    out.setdefault(root.id, []).append(_Update(stmt, target, kind))


def _fixed_component(ctx: FileContext, target: ast.expr) -> bool:
    """``v``, ``v.x``, ``v[0]``, ``m[1, 2]``: the same variable/component every iteration."""
    node = target
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        if isinstance(node, ast.Subscript):
            index = node.slice
            parts = index.elts if isinstance(index, ast.Tuple) else [index]
            if not all(ctx.is_constant(p) for p in parts):
                return False
        node = node.value
    return True


def _update_kind(ctx: FileContext, fn: WarpFunction, var: str, value: ast.expr) -> str:
    if not mentions(value, var):
        return PLAIN
    if _linear(ctx, fn, var, value):
        return LINEAR
    for node in walk(value):
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mult, ast.Div, ast.MatMult)):
            if mentions(node.left, var) or mentions(node.right, var):
                return MULTIPLICATIVE
    return NONLINEAR


def _linear(ctx: FileContext, fn: WarpFunction, var: str, e: ast.expr) -> bool:
    """True if ``e``'s adjoint with respect to ``var`` does not need ``var``'s value."""
    if not mentions(e, var):
        return True
    if isinstance(e, ast.Name):
        return True
    if isinstance(e, ast.BinOp):
        if isinstance(e.op, (ast.Add, ast.Sub)):
            return _linear(ctx, fn, var, e.left) and _linear(ctx, fn, var, e.right)
        if isinstance(e.op, (ast.Mult, ast.MatMult)):
            if ctx.is_invariant(e.left, fn):
                return _linear(ctx, fn, var, e.right)
            return ctx.is_invariant(e.right, fn) and _linear(ctx, fn, var, e.left)
        if isinstance(e.op, ast.Div):
            return ctx.is_invariant(e.right, fn) and _linear(ctx, fn, var, e.left)
        return False
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, (ast.USub, ast.UAdd)):
        return _linear(ctx, fn, var, e.operand)
    if isinstance(e, ast.Subscript):  # a component of the carried vector: v[0]
        return not mentions(e.slice, var) and _linear(ctx, fn, var, e.value)
    if isinstance(e, ast.Attribute):
        return _linear(ctx, fn, var, e.value)
    if isinstance(e, ast.Call):
        return ctx.is_linear_call(e) and all(_linear(ctx, fn, var, a) for a in e.args)
    return False


def _carried(fn: WarpFunction, var: str, update: _Update, ups: List[_Update], loop_start) -> bool:
    """The update reads the previous iteration's value: defined before the loop, not reset in it first."""
    before = var in fn.params or any(p < loop_start for p in fn.index.stores.get(var, ()))
    if not before:
        return False
    here = pos(update.stmt)
    return not any(u.kind == PLAIN and pos(u.stmt) < here and isinstance(u.target, ast.Name) for u in ups)


_INT_CASTS = frozenset("int8 int16 int32 int64 uint8 uint16 uint32 uint64 tid".split())


def _is_integer(ctx: FileContext, fn: WarpFunction, var: str, loop_start) -> bool:
    """The variable's last binding before the loop is visibly an integer (``int(1)``, ``0``, ``wp.tid()``)."""
    if var in fn.params:
        ann = fn.params[var]
        return isinstance(ann, ast.Name) and ann.id == "int" or (ctx.names.qualname(ann) or "")[5:] in _INT_CASTS
    value = None
    for at, v in fn.index.bindings.get(var, ()):
        if at < loop_start:
            value = v
    if isinstance(value, ast.Constant):
        return type(value.value) is int
    if isinstance(value, ast.Call):
        if isinstance(value.func, ast.Name):
            return value.func.id == "int"
        q = ctx.names.qualname(value.func) or ""
        return q.startswith("warp.") and q[5:] in _INT_CASTS
    return False


def _after_loop(fn: WarpFunction, var: str, loop_end) -> Tuple[tuple, Optional[tuple]]:
    """Positions after the loop where ``var`` still holds the loop's value (until it is rebound)."""
    rebind = next((p for p in fn.index.stores.get(var, ()) if p > loop_end), None)
    return loop_end, rebind


def _derived_value_use(fn: WarpFunction, var: str, window, depth: int = 3):
    """((position, node), local) of the first value use of a local computed from ``var`` after the loop
    (``r = value - y`` then ``r * r``), following up to ``depth`` assignments; (None, None) if none."""
    lo, hi = window
    frontier, seen = [(var, lo)], {var}
    for _ in range(depth):
        following = []
        for name, after in frontier:
            for assign in fn.index.assigns:
                at = pos(assign)
                if at <= after or (hi is not None and at >= hi) or not mentions(assign.value, name):
                    continue
                targets = assign.targets if isinstance(assign, ast.Assign) else [assign.target]
                for target in targets:
                    if isinstance(target, ast.Name) and target.id not in seen:
                        use = _first(fn.index.value_uses_of(target.id), (at, None))
                        if use is not None:
                            return use, target.id
                        seen.add(target.id)
                        following.append((target.id, at))
        frontier = following
    return None, None


def _first(entries, window):
    lo, hi = window
    for p, node in entries:
        if p > lo and (hi is None or p < hi):
            return p, node
    return None

