"""A loss the program computes on the host from the output's values, differentiated by the numbers (TW204).

``cost = 0.5 * np.sum((r / SIGMA) ** 2)`` with ``r = res.numpy()``, then ``tape.backward(grads={res: seed})``:
the seed must be the derivative of ``cost`` with respect to ``r`` (``r / SIGMA**2``).  The shapes the
objectives module reads (means, weighted sums) have known derivatives; any other expression is evaluated
instead, in the scope that seeded the backward pass, at the output's values moved along a few fixed random
directions: the central difference of the loss along ``d`` must be ``seed · d``.

Only expressions the program uses afterwards (returned, printed, kept) are losses; only NumPy arithmetic and
reductions are evaluated (no call of the program's own functions, nothing that could launch, print or
write); a square root at the top (a root mean square) is a metric, not a loss.
"""

from __future__ import annotations

import ast
from typing import Any, Dict, List, NamedTuple, Optional

from ..model import Location

# What an expression may call to be evaluated: NumPy's elementwise arithmetic and reductions.
_NUMPY = frozenset({"sum", "mean", "average", "dot", "vdot", "inner", "square", "abs", "absolute", "exp", "log",
                    "log1p", "expm1", "power", "maximum", "minimum", "where", "clip", "tanh", "sin", "cos",
                    "sqrt", "asarray", "float64", "float32", "cosh", "sinh", "arctan", "hypot"})
_BUILTINS = frozenset({"float", "abs", "sum", "min", "max"})
_METHODS = frozenset({"sum", "mean", "astype", "reshape", "ravel", "flatten", "clip", "dot", "copy", "item"})
_REDUCTIONS = frozenset({"sum", "mean", "average", "dot", "vdot", "inner"})

DIRECTIONS = 3
AGREE = 1e-3  # relative: float64 differences of a smooth host expression agree far better than this
DIFFER = 2e-2  # relative, in every direction: a seed this far off is another loss's derivative


class HostLoss(NamedTuple):
    location: Location
    target: str  # the name the loss is bound to
    variable: str  # the name of the output's host copy inside the expression
    code: Any  # the compiled expression


class Mismatch(NamedTuple):
    loss: HostLoss
    ratio: Optional[float]  # the loss's change over the seed's prediction, when one factor fits every direction


def find(tree: ast.AST, path: str, copies: List[str], line: int) -> Optional[HostLoss]:
    """The loss over one of ``copies`` (names bound to the output's host values) assigned in the innermost
    function of ``tree`` that holds ``line`` (the seed or the backward()), before that line."""
    scope = _scope_of(tree, line)
    assigns = [n for n in ast.walk(scope) if isinstance(n, ast.Assign) and len(n.targets) == 1
               and isinstance(n.targets[0], ast.Name) and n.lineno <= line]
    for node in sorted(assigns, key=lambda n: n.lineno, reverse=True):
        variable = next((c for c in copies if _uses(node.value, c)), None)
        if variable is None or not _loss_shaped(node.value, variable) or not _used_after(scope, node):
            continue
        try:
            code = compile(ast.Expression(node.value), path, "eval")
        except (SyntaxError, ValueError, TypeError):
            continue
        return HostLoss(Location(path, node.lineno, node.col_offset + 1), node.targets[0].id, variable, code)
    return None


def compare(loss: HostLoss, values, seed, namespaces: List[Dict[str, Any]]) -> Optional[Mismatch]:
    """A ``Mismatch`` when ``seed`` is not the loss's derivative at ``values`` (the output's host values);
    None when it is, or when the loss could not be evaluated there."""
    import numpy as np  # noqa: PLC0415

    x0 = np.asarray(values, dtype=np.float64)
    seed = np.asarray(seed, dtype=np.float64).reshape(x0.shape) if seed.size == x0.size else None
    if seed is None or x0.size < 2 or not np.isfinite(x0).all() or not np.isfinite(seed).all():
        return None
    scope: Dict[str, Any] = {}
    for namespace in reversed(namespaces):
        scope.update(namespace)

    def at(x):
        scope[loss.variable] = x
        with np.errstate(all="ignore"):
            value = eval(loss.code, {"__builtins__": __builtins__}, scope)  # only what _loss_shaped allowed
        return float(value)

    try:
        if not np.isfinite(at(x0)):
            return None
        rng = np.random.default_rng(20261204)
        changes, predicted = [], []
        for _ in range(DIRECTIONS):
            d = rng.standard_normal(x0.shape)
            step = 1e-6 * max(1.0, float(np.abs(x0).max()))
            changes.append((at(x0 + step * d) - at(x0 - step * d)) / (2 * step))
            predicted.append(float((seed * d).sum()))
    except Exception:  # an expression that does not evaluate outside its own run: nothing to say
        return None
    changes_a, predicted_a = np.array(changes), np.array(predicted)
    if not (np.isfinite(changes_a).all() and np.isfinite(predicted_a).all()):
        return None
    scale = np.maximum(np.abs(changes_a), np.abs(predicted_a))
    gap = np.abs(changes_a - predicted_a)
    if (gap <= AGREE * scale + 1e-300).all() or not (gap > DIFFER * scale).all():
        return None
    ratios = changes_a / np.where(predicted_a == 0, np.nan, predicted_a)
    ratio = float(ratios[0]) if np.isfinite(ratios).all() and np.allclose(ratios, ratios[0], rtol=1e-3) else None
    return Mismatch(loss, ratio)


def _scope_of(tree: ast.AST, line: int) -> ast.AST:
    best = tree
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                node.lineno <= line <= (node.end_lineno or node.lineno):
            if best is tree or node.lineno >= best.lineno:  # type: ignore[attr-defined]
                best = node
    return best


def _uses(expr: ast.AST, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(expr))


def _loss_shaped(expr: ast.AST, variable: str) -> bool:
    """A scalar reduction over something nonlinear in, or scaled from, the host copy, made only of NumPy
    arithmetic: not the plain mean or sum the objectives module judges, not a root mean square."""
    if isinstance(expr, ast.Call) and _called(expr) == "sqrt":
        return False
    reduced = False
    for node in ast.walk(expr):
        if isinstance(node, ast.Call):
            name = _called(node)
            if name is None:
                return False
            if isinstance(node.func, ast.Attribute) and not _is_numpy(node.func.value) and \
                    not _uses(node.func.value, variable):
                return False  # a method of another object (``self.model.copy()``): not the values' own
            if name in _REDUCTIONS:
                subjects = ([node.func.value] if isinstance(node.func, ast.Attribute) and name in _METHODS
                            and not _is_numpy(node.func.value) else []) + list(node.args)
                if any(isinstance(s, ast.Name) and s.id == variable for s in subjects):
                    return False  # np.sum(r), r.mean(): the shapes the objectives module reads
                reduced = reduced or any(_uses(s, variable) for s in subjects)
        elif isinstance(node, (ast.Lambda, ast.NamedExpr, ast.Await, ast.Yield, ast.YieldFrom,
                               ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            return False
        elif isinstance(node, ast.Attribute) and not isinstance(node.ctx, ast.Load):
            return False
    return reduced


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
