"""A loss the program computes on the host from the output's values, differentiated by the numbers (TW204).

``cost = 0.5 * np.sum((r / SIGMA) ** 2)`` with ``r = res.numpy()``, then ``tape.backward(grads={res: seed})``:
the seed must be the derivative of ``cost`` with respect to ``r`` (``r / SIGMA**2``).  The shapes the
objectives module reads (means, weighted sums) have known derivatives; any other expression is evaluated
instead, in the scope that seeded the backward pass, at the output's values moved along a few fixed random
directions: the central difference of the loss along ``d`` must be ``seed · d``.

The values may be spelled as a host copy (``r = res.numpy()``) or inline (``(z.numpy() - quote) * 1e4``),
and a loss may be built from intermediates (``lr = np.log(c) - np.log(obs)``, ``0.5 * np.sum(lr * lr)``):
earlier assignments are inlined.  Every scalar computed from the values is a candidate, plain sums and
means too: a seed that is the derivative of any of them is the program's choice, and nothing is said.
Otherwise the latest loss the program uses afterwards (returned, printed, kept) is the one reported.  Only
NumPy arithmetic and reductions are evaluated (no call of the program's own functions, nothing that could
launch, print or write); a square root at the top (a root mean square) is a metric, not a loss.
"""

from __future__ import annotations

import ast
from typing import Any, Dict, List, NamedTuple, Optional

from ...model import Location
from ...warpsrc.source import dotted, resolve
from ..core.syntax import innermost_function

# What an expression may call to be evaluated: NumPy's elementwise arithmetic and reductions.
_NUMPY = frozenset({"sum", "mean", "average", "dot", "vdot", "inner", "square", "abs", "absolute", "exp", "log",
                    "log1p", "expm1", "power", "maximum", "minimum", "where", "clip", "tanh", "sin", "cos",
                    "sqrt", "asarray", "float64", "float32", "cosh", "sinh", "arctan", "hypot", "log10", "log2",
                    "exp2", "tan", "arcsin", "arccos", "arctan2", "cbrt", "reciprocal"})
_BUILTINS = frozenset({"float", "abs", "sum", "min", "max"})
_METHODS = frozenset({"sum", "mean", "astype", "reshape", "ravel", "flatten", "clip", "dot", "copy", "item"})
_REDUCTIONS = frozenset({"sum", "mean", "average", "dot", "vdot", "inner"})

DIRECTIONS = 3
AGREE = 1e-3  # relative: float64 differences of a smooth host expression agree far better than this
DIFFER = 2e-2  # relative, in every direction: a seed this far off is another loss's derivative


PLACEHOLDER = "__tw_output_values__"  # the output's host values, wherever the program spells them
MAX_CANDIDATES = 8
MAX_DEPTH = 4  # intermediates inlined into a loss (``lr = np.log(c) - np.log(obs)``, then ``0.5 * sum(lr * lr)``)


class HostLoss(NamedTuple):
    location: Location
    target: str  # the name the loss is bound to
    variable: str  # how the program spells the output's values in it (a host copy, or ``out.numpy()``)
    code: Any  # the compiled expression, of ``PLACEHOLDER``
    used: bool  # read after it is computed (returned, printed, kept): a loss, not a scratch value
    expression: Any = None  # the expression compiled, for what ``data_arrays`` checks before evaluating


class Mismatch(NamedTuple):
    loss: HostLoss
    ratio: Optional[float]  # the loss's change over the seed's prediction, when one factor fits every direction


def find(tree: ast.AST, path: str, name: str, copies: List[str], line: int) -> List[HostLoss]:
    """Every scalar the innermost function of ``tree`` holding ``line`` computes before that line from the
    output's values (spelled ``name.numpy()`` or one of ``copies``), intermediates inlined; latest first."""
    scope = innermost_function(tree, line)
    assigns = sorted((n for n in ast.walk(scope) if isinstance(n, ast.Assign) and len(n.targets) == 1
                      and isinstance(n.targets[0], ast.Name) and n.lineno <= line), key=lambda n: n.lineno)
    out: List[HostLoss] = []
    copied = set(copies)
    for i in range(len(assigns) - 1, -1, -1):
        node = assigns[i]
        spelled: List[str] = []
        expanded = _expand(node.value, name, copied, assigns[:i], MAX_DEPTH, spelled)
        shape = _shape(expanded, PLACEHOLDER) if spelled else None
        if shape is None:
            continue
        try:
            code = compile(ast.fix_missing_locations(ast.Expression(expanded)), path, "eval")
        except (SyntaxError, ValueError, TypeError):
            continue
        # A plain sum or mean only matches a seed: it is never the loss reported here.
        out.append(HostLoss(Location(path, node.lineno, node.col_offset + 1), ast.unparse(node.targets[0]),
                            spelled[0], code, shape == "loss" and _used_after(scope, node), expanded))
        if len(out) >= MAX_CANDIDATES:
            break
    return out


def judge(losses: List[HostLoss], values, seed, namespaces: List[Dict[str, Any]]) -> Optional[Mismatch]:
    """A ``Mismatch`` when ``seed`` is the derivative of none of the scalars the program computes from the
    output (at ``values``, its host values), reported on the latest one the program uses; None when one
    agrees (the seed is that loss's derivative) or nothing could be evaluated."""
    first: Optional[Mismatch] = None
    for loss in losses:
        verdict = _compare(loss, values, seed, namespaces)
        if verdict is _AGREES:
            return None
        if verdict is not None and first is None and loss.used:
            first = verdict
    return first


_AGREES = object()


def _compare(loss: HostLoss, values, seed, namespaces: List[Dict[str, Any]]):
    """``_AGREES`` when ``seed`` is the loss's derivative at ``values`` (the output's host values), a
    ``Mismatch`` when it is clearly not, None when it could not be told."""
    import numpy as np  # noqa: PLC0415

    x0 = np.array(values, dtype=np.float64)
    seed = np.asarray(seed, dtype=np.float64).reshape(x0.shape) if seed.size == x0.size else None
    if seed is None or x0.size < 2 or not np.isfinite(x0).all() or not np.isfinite(seed).all():
        return None
    if loss.expression is not None and not data_arrays(loss.expression, namespaces):
        return None
    scope: Dict[str, Any] = {}
    for namespace in reversed(namespaces):
        scope.update(namespace)
    dtype = np.asarray(values).dtype

    def at(x):
        scope[PLACEHOLDER] = x
        with np.errstate(all="ignore"):
            value = eval(loss.code, {"__builtins__": __builtins__}, scope)  # only what _shape allowed
        return float(value)

    try:
        if not np.isfinite(at(x0.astype(dtype))):
            return None
        rng = np.random.default_rng(20261204)
        step = 1e-6 * max(1.0, float(np.abs(x0).max()))
        changes, predicted = [], []
        for _ in range(DIRECTIONS):
            d = rng.standard_normal(x0.shape)
            # Evaluated in float64 whatever the copy's type (``.astype(np.float64)`` in the program or not).
            changes.append((at(x0 + step * d) - at(x0 - step * d)) / (2 * step))
            predicted.append(float((seed * d).sum()))
    except Exception:  # an expression that does not evaluate outside its own run: nothing to say
        return None
    changes_a, predicted_a = np.array(changes), np.array(predicted)
    if not (np.isfinite(changes_a).all() and np.isfinite(predicted_a).all()):
        return None
    scale = np.maximum(np.abs(changes_a), np.abs(predicted_a))
    gap = np.abs(changes_a - predicted_a)
    if (gap <= AGREE * scale + 1e-300).all():
        return _AGREES
    if not (gap > DIFFER * scale).all():
        return None
    ratios = changes_a / np.where(predicted_a == 0, np.nan, predicted_a)
    ratio = float(ratios[0]) if np.isfinite(ratios).all() and np.allclose(ratios, ratios[0], rtol=1e-3) else None
    return Mismatch(loss, ratio)


def _expand(expr: ast.expr, name: str, copies: set, earlier: list, depth: int, spelled: List[str]) -> ast.expr:
    """``expr`` with the output's values as ``PLACEHOLDER`` (``name.numpy()``, a host copy) and the names
    of earlier assignments that compute from them inlined (up to ``depth`` deep); ``spelled`` collects how
    the program spelled the values."""
    import copy  # noqa: PLC0415

    definitions = {}
    for node in earlier:  # the latest definition of each name before ``expr``
        definitions[node.targets[0].id] = node

    class Inline(ast.NodeTransformer):
        def visit_Call(self, node):
            if isinstance(node.func, ast.Attribute) and node.func.attr == "numpy" and not node.args and \
                    ast.unparse(node.func.value) == name:
                spelled.append("%s.numpy()" % name)
                return ast.copy_location(ast.Name(id=PLACEHOLDER, ctx=ast.Load()), node)
            return self.generic_visit(node)

        def visit_Name(self, node):
            if not isinstance(node.ctx, ast.Load):
                return node
            if node.id in copies:
                spelled.append(node.id)
                return ast.copy_location(ast.Name(id=PLACEHOLDER, ctx=ast.Load()), node)
            defined = definitions.get(node.id)
            if defined is not None and depth > 0:
                inner: List[str] = []
                value = _expand(defined.value, name, copies, [n for n in earlier if n.lineno < defined.lineno],
                                depth - 1, inner)
                if inner:
                    spelled.extend(inner)
                    return value
            return node

    return Inline().visit(copy.deepcopy(expr))


def _uses(expr: ast.AST, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(expr))


def _shape(expr: ast.AST, variable: str) -> Optional[str]:
    """``"loss"``: a scalar reduction over something nonlinear in, or scaled from, the values, made only of
    NumPy arithmetic; ``"plain"``: their plain sum or mean (``np.sum(r)``, ``r.mean()``: the objectives
    module judges those, here they only match a seed); None: neither, or a root mean square (a metric)."""
    if isinstance(expr, ast.Call) and _called(expr) == "sqrt":
        return None
    reduced = plain = False
    for node in ast.walk(expr):
        if isinstance(node, ast.Call):
            name = _called(node)
            if name is None:
                return None
            if isinstance(node.func, ast.Attribute) and not _is_numpy(node.func.value) and \
                    not _uses(node.func.value, variable) and not _data_method(node):
                return None  # a method of another object (``self.model.copy()``): not the values' own
            if name in _REDUCTIONS:
                subjects = ([node.func.value] if isinstance(node.func, ast.Attribute) and name in _METHODS
                            and not _is_numpy(node.func.value) else []) + list(node.args)
                if any(isinstance(s, ast.Name) and s.id == variable for s in subjects):
                    plain = True
                reduced = reduced or any(_uses(s, variable) for s in subjects)
        elif isinstance(node, (ast.Lambda, ast.NamedExpr, ast.Await, ast.Yield, ast.YieldFrom,
                               ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            return None
        elif isinstance(node, ast.Attribute) and not isinstance(node.ctx, ast.Load):
            return None
    if not reduced:
        return None
    return "plain" if plain else "loss"


# Methods of the program's constant data an expression may call (``np.log(OBS.astype(np.float64))``), when
# the object is a NumPy array (checked before evaluating: ``data_arrays``).
_DATA_METHODS = frozenset({"astype", "reshape", "ravel", "flatten"})


def _data_method(call: ast.Call) -> bool:
    func = call.func
    return isinstance(func, ast.Attribute) and func.attr in _DATA_METHODS and dotted(func.value) is not None


def data_arrays(code_tree: ast.AST, namespaces: List[Dict[str, Any]]) -> bool:
    """Every object a data method is called on (``OBS`` in ``OBS.astype(...)``) is a NumPy array."""
    import numpy as np  # noqa: PLC0415

    for node in ast.walk(code_tree):
        func = node.func if isinstance(node, ast.Call) and _data_method(node) else None
        if isinstance(func, ast.Attribute) and not _uses(func.value, PLACEHOLDER) and \
                not isinstance(resolve(func.value, namespaces), np.ndarray):
            return False
    return True


def _called(call: ast.Call) -> Optional[str]:
    """The name of a call an evaluation may make, or None."""
    func = call.func
    if isinstance(func, ast.Name):
        return func.id if func.id in _BUILTINS else None
    if isinstance(func, ast.Attribute):
        if _is_numpy(func.value):
            return func.attr if func.attr in _NUMPY else None
        return func.attr if func.attr in _METHODS else None
    return None


def _is_numpy(expr: ast.AST) -> bool:
    return isinstance(expr, ast.Name) and expr.id in ("np", "numpy")


def _used_after(scope: ast.AST, assign: ast.Assign) -> bool:
    name = assign.targets[0].id  # type: ignore[attr-defined]
    return any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
               and (n.lineno, n.col_offset) > (assign.end_lineno or assign.lineno, 0) for n in ast.walk(scope))


def seed_assignment(tree: ast.AST, call: Optional[ast.Call], path: str, values: str) -> Optional[Location]:
    """Where the seed a call passes was computed, when that is a statement of its own: ``seed = 2 * r / n``
    then ``tape.backward(grads={out: wp.array(seed)})`` or ``out.grad.assign(seed)``.  The seed's one local
    name, assigned once before the call in the call's function, read nowhere else, and affine in the
    output's host values (spelled ``values``: ``seed = 2 * (y_np - obs) / n``, ``adj = residual`` with
    ``residual = OBS - y.numpy()``): that statement computes the wrong derivative.  None where the seed is
    spelled in the call itself, or goes through a nonlinear intermediate of the loss (``seed = 2 * r / n``
    with ``r = np.log(c) - ...``): there the chain rule's factor is missing, and the call that passes the
    seed is where it goes."""
    if call is None:
        return None
    seed: Optional[ast.expr] = None
    name = dotted(call.func) or ""
    if name.endswith("backward"):
        grads = next((k.value for k in call.keywords if k.arg == "grads"), None)
        if grads is None and len(call.args) > 1:
            grads = call.args[1]
        if isinstance(grads, ast.Dict) and len(grads.values) == 1:
            seed = grads.values[0]
    elif name.endswith(("assign", "fill_")) and call.args:
        seed = call.args[0]
    if seed is None:
        return None
    scope = innermost_function(tree, call.lineno)
    assigned: Dict[str, List[ast.Assign]] = {}
    for node in ast.walk(scope):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            assigned.setdefault(node.targets[0].id, []).append(node)
    names = {n.id for n in ast.walk(seed) if isinstance(n, ast.Name) and n.id in assigned}
    if len(names) != 1:
        return None
    (only,) = names
    nodes = assigned[only]
    if len(nodes) != 1 or nodes[0].lineno >= call.lineno:
        return None
    node = nodes[0]
    first, last = call.lineno, call.end_lineno or call.lineno
    if any(isinstance(n, ast.Name) and n.id == only and isinstance(n.ctx, ast.Load) and not first <= n.lineno <= last
           for n in ast.walk(scope)):
        return None  # also read elsewhere (``r`` of the loss, scaled into the seed): not the seed's own statement
    calls = [c for c in ast.walk(node.value) if isinstance(c, ast.Call)]
    if any((dotted(c.func) or "").endswith("numpy") or (_warp_call(c) and not _array_of_arithmetic(c))
           for c in calls):
        # A host copy, or a Warp array of a value computed elsewhere (``wp.array(seed_np)``): the seed's
        # arithmetic is not in this statement.  ``wp.array((2.0 * r).astype(np.float32))`` keeps it.
        return None
    earlier = {name: nodes[-1].value for name, nodes in assigned.items() if nodes[-1].lineno < node.lineno}
    if _affine_in(node.value, values, earlier, MAX_DEPTH) is not True:
        return None
    return Location(path, node.lineno, node.col_offset + 1, node.end_lineno, (node.end_col_offset or 0) + 1)


def _warp_call(call: ast.Call) -> bool:
    return (dotted(call.func) or "").split(".", 1)[0] in ("wp", "warp")


def _array_of_arithmetic(call: ast.Call) -> bool:
    """``wp.array(<arithmetic>, dtype=...)``: a Warp array made from values this call computes."""
    name = (dotted(call.func) or "").rsplit(".", 1)[-1]
    return name in ("array", "from_numpy") and bool(call.args) and \
        any(isinstance(n, ast.BinOp) for n in ast.walk(call.args[0]))


_PASS_THROUGH = frozenset({"astype", "reshape", "ravel", "flatten", "copy", "asarray", "array", "from_numpy", "float64",
                           "float32"})


def _affine_in(expr: ast.expr, values: str, earlier: Dict[str, ast.expr], depth: int) -> Optional[bool]:
    """Whether ``expr`` is an affine function of the output's host values (spelled ``values``), earlier
    assignments followed ``depth`` deep: True (``2 * (y - obs) / n``, ``obs - y``), False (it depends on
    them through anything else: ``np.log(y)``, ``y * y``), None (it does not depend on them)."""
    if ast.unparse(expr) == values or (isinstance(expr, ast.Name) and expr.id == values):
        return True
    if isinstance(expr, ast.Name):
        inner = earlier.get(expr.id)
        if inner is None or depth <= 0:
            return None
        return _affine_in(inner, values, {k: v for k, v in earlier.items() if k != expr.id}, depth - 1)
    if isinstance(expr, ast.Constant):
        return None
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.USub, ast.UAdd)):
        return _affine_in(expr.operand, values, earlier, depth)
    if isinstance(expr, ast.BinOp):
        left = _affine_in(expr.left, values, earlier, depth)
        right = _affine_in(expr.right, values, earlier, depth)
        if left is False or right is False:
            return False
        if isinstance(expr.op, (ast.Add, ast.Sub)):
            return left or right
        if isinstance(expr.op, ast.Mult):
            return False if left and right else (left or right)
        if isinstance(expr.op, ast.Div):
            return False if right else left
        return False if left or right else None
    if isinstance(expr, ast.Call):
        # ``y.numpy().astype(...)``: a method of a call's result has no dotted name, only its attribute.
        name = expr.func.attr if isinstance(expr.func, ast.Attribute) else (dotted(expr.func) or "")
        parts = [_affine_in(a, values, earlier, depth) for a in expr.args]
        if isinstance(expr.func, ast.Attribute) and name in _PASS_THROUGH:
            parts.append(_affine_in(expr.func.value, values, earlier, depth))
        if name in _PASS_THROUGH:
            return False if False in parts else (True if True in parts else None)
        return False if any(v is not None for v in parts) else None
    if isinstance(expr, ast.Attribute):
        return None if ast.unparse(expr.value) != values else True
    return False if any(_affine_in(c, values, earlier, depth) for c in ast.iter_child_nodes(expr)
                        if isinstance(c, ast.expr)) else None
