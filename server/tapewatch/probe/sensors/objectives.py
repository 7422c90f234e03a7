"""The objective a program computes on the host from a taped output (for TW204).

A backward pass seeded by hand differentiates ``sum(seed * output)``.  That
is the program's objective only when the seed is the objective's derivative
with respect to the output: 1/N for a mean, the weights for a weighted sum.
This module reads the program's source for what it does with the output:

- ``out.numpy().mean()``, ``np.mean(out...)``, ``np.average(out...)``,
  ``out...sum() / N`` -> a mean;
- ``W @ out.numpy()``, ``np.dot(W, ...)``, ``(W * out.numpy()).sum()`` with
  ``W`` a constant the program holds (a module global, a local, a literal)
  -> a weighted sum, with the weights' values; ``out.numpy()[M].sum()`` with
  ``M`` a boolean vector it holds -> a weighted sum with weights 1 and 0;

in the file of the line that seeds or calls ``backward()``, and one call
deep in a user function that file passes the output to (``objective(err)``
in a helper module).  A plain sum of the output anywhere in the same scope
vetoes a finding: the program may well optimise the sum, as the seed says,
and only report the mean; a mean under a square root is a root mean square,
a metric rather than an objective.
"""

from __future__ import annotations

import ast
import inspect
from typing import Any, Dict, Iterable, NamedTuple, Optional

from ...model import Location
from ..core import user_code
from ...warpsrc.source import file_tree, resolve


class Objective(NamedTuple):
    location: Location
    kind: str  # "mean" or "weighted"
    weights: Any = None  # NumPy float64 values of a weighted sum's weights


_VETO = object()  # the scope also sums the output: no objective can be told


def find(name: str, path: str, namespaces: Iterable[Dict[str, Any]]) -> Optional[Objective]:
    """The objective ``name`` (as the program spells the output) enters in the file ``path``."""
    namespaces = list(namespaces)
    tree = file_tree(path, namespaces[-1] if namespaces else None)
    if tree is None:
        return None
    found = None
    for spelling in [name] + host_copies(tree, name):
        here = _in_scope(tree, spelling, path, namespaces)
        if here is _VETO:
            return None
        found = found or here
    if found is not None:
        return found
    for function, parameter in _user_calls(tree, name, namespaces):
        inner = _in_function(function, parameter)
        if isinstance(inner, Objective):
            return inner
    return None


def _in_scope(tree, name: str, path: str, namespaces) -> Any:
    """An ``Objective`` over ``name`` in ``tree``, ``_VETO`` or None."""
    parents = {id(child): node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    found = None
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _method(node) == "sum" and not _divided(node, parents):
            subjects = _subjects(node)
            weighted = _weighted_product(subjects, name, namespaces)
            if weighted is None:
                weighted = _masked(subjects, name, namespaces)
            if weighted is not None:
                found = found or Objective(_loc(path, node), "weighted", weighted)
                continue
            if any(_mentions(s, name) for s in subjects):
                return _VETO
            continue
        if found is not None:
            continue
        kind, weights = _average(node, name, namespaces)
        if kind == "mean" and not _under_sqrt(node, parents):
            found = Objective(_loc(path, node), "mean")
        elif kind == "weighted":
            found = Objective(_loc(path, node), "weighted", weights)
    return found


def host_copies(tree, name: str) -> list:
    """Names bound to the output's host values as they are (``r = res.numpy()``, ``.reshape(...)``,
    ``np.array(res.numpy())``): the program's mean of ``r`` is the mean of the output."""
    out = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)):
            continue
        value = node.value
        if any(isinstance(n, (ast.BinOp, ast.Subscript, ast.Compare)) for n in ast.walk(value)):
            continue  # computed from the values (a part of them, a product): not the output itself
        if any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "numpy"
               and ast.unparse(n.func.value) == name
               for n in ast.walk(value)) and node.targets[0].id != name:
            out.append(node.targets[0].id)
    return out


def _average(node, name: str, namespaces):
    """("mean", None), ("weighted", weights) or (None, None) for one expression."""
    if isinstance(node, ast.Call):
        method = _method(node)
        if method == "mean" and any(_mentions(s, name) for s in _subjects(node)):
            return "mean", None
        if method == "average" and any(_mentions(a, name) for a in node.args):
            weights_arg = next((k.value for k in node.keywords if k.arg == "weights"), None)
            if weights_arg is None:
                return "mean", None
            weights = _constant(weights_arg, namespaces)
            return ("weighted", weights / weights.sum()) if weights is not None and weights.sum() else (None, None)
        if method in ("dot", "inner", "vdot"):
            operands = list(node.args) if len(node.args) == 2 else _subjects(node)
            weights = _weights_of(operands, name, namespaces)
            if weights is not None:
                return "weighted", weights
    if isinstance(node, ast.BinOp):
        if isinstance(node.op, ast.MatMult):
            weights = _weights_of([node.left, node.right], name, namespaces)
            if weights is not None:
                return "weighted", weights
        if isinstance(node.op, ast.Div) and isinstance(node.left, ast.Call) and _method(node.left) == "sum":
            weighted = _weighted_product(_subjects(node.left), name, namespaces)
            if weighted is not None:
                # ``np.sum(W * e) / np.sum(W)``: a weighted mean (the weights over what divides them)
                divisor = _divisor(node.right, namespaces)
                return ("weighted", weighted / divisor) if divisor else (None, None)
            if any(_mentions(s, name) for s in _subjects(node.left)):
                return "mean", None
    return None, None


def _divisor(expr, namespaces) -> Optional[float]:
    """The value of what divides a weighted sum: a number, or the sum of a constant vector
    (``np.sum(W)``, ``W.sum()``); None when it cannot be told without running the program."""
    if isinstance(expr, ast.Call) and _method(expr) == "sum":
        constants = [v for v in (_constant(s, namespaces) for s in _subjects(expr)) if v is not None]
        return float(constants[0].sum()) if len(constants) == 1 else None
    if isinstance(expr, ast.Constant) and isinstance(expr.value, (int, float)) and not isinstance(expr.value, bool):
        return float(expr.value)
    return None


def _weighted_product(subjects, name: str, namespaces):
    """The weights of ``(W * out).sum()`` / ``np.sum(W * out)``, else None."""
    for subject in subjects:
        if isinstance(subject, ast.BinOp) and isinstance(subject.op, ast.Mult):
            weights = _weights_of([subject.left, subject.right], name, namespaces)
            if weights is not None:
                return weights
    return None


def _masked(subjects, name: str, namespaces):
    """The weights of ``out.numpy()[M].sum()`` / ``np.sum(out.numpy()[M])`` with ``M`` a boolean vector the
    program holds (one zone of a grid, the valid samples): 1 where ``M`` selects, 0 elsewhere; else None."""
    import numpy as np  # noqa: PLC0415

    for subject in subjects:
        if not (isinstance(subject, ast.Subscript) and _mentions(subject.value, name)
                and not _mentions(subject.slice, name)):
            continue
        mask = resolve(subject.slice, namespaces)
        if type(mask).__module__ == "numpy" and getattr(mask, "dtype", None) == np.bool_ and mask.ndim == 1 \
                and 0 < int(mask.sum()) < mask.size:
            return mask.astype(np.float64)
    return None


def _weights_of(operands, name: str, namespaces):
    """Of two operands, one spelling the output and the other a constant vector: that vector."""
    if len(operands) != 2:
        return None
    for this, other in (operands, operands[::-1]):
        if _mentions(this, name) and not _mentions(other, name):
            weights = _constant(other, namespaces)
            if weights is not None and weights.ndim >= 1 and weights.size > 1:
                return weights
    return None


def _constant(expr, namespaces):
    """The float64 values of a literal or a name the program holds, else None (never evaluates calls)."""
    import numpy as np  # noqa: PLC0415

    value: Any = None
    try:
        value = ast.literal_eval(expr)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        value = resolve(expr, namespaces)
    if isinstance(value, (list, tuple)) or type(value).__module__ == "numpy":
        try:
            values = np.asarray(value, dtype=np.float64)
        except (TypeError, ValueError):
            return None
        return values.reshape(-1) if values.ndim else None
    return None


def _user_calls(tree, name: str, namespaces):
    """``(function, parameter)`` for calls in ``tree`` of a user function with ``name`` among its
    positional arguments (``objective(err)``, ``metrics.objective(err.numpy())``)."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        for position, arg in enumerate(node.args):
            if not _mentions(arg, name):
                continue
            function = resolve(node.func, namespaces)
            code = getattr(function, "__code__", None)
            if code is None or not user_code.is_user_file(code.co_filename):
                break
            params = list(inspect.signature(function).parameters)
            if position < len(params):
                yield function, params[position]
            break


def _in_function(function, parameter: str) -> Any:
    code = function.__code__
    tree = file_tree(code.co_filename, function.__globals__)
    if tree is None:
        return None
    node = next((n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                 and n.name == code.co_name and _def_line(n) == code.co_firstlineno), None)
    if node is None:
        return None
    return _in_scope(node, parameter, code.co_filename, [function.__globals__])


def _def_line(node) -> int:
    return node.decorator_list[0].lineno if node.decorator_list else node.lineno


def _loc(path: str, node) -> Location:
    return Location(path, node.lineno, node.col_offset + 1)


def _subjects(call: ast.Call) -> list:
    """What a method call works on: its receiver (``x.numpy().mean()``) and its arguments."""
    receiver = [call.func.value] if isinstance(call.func, ast.Attribute) else []
    return receiver + list(call.args)


def _method(call: ast.Call) -> Optional[str]:
    return call.func.attr if isinstance(call.func, ast.Attribute) else None


def _divided(node, parents) -> bool:
    parent = parents.get(id(node))
    return isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Div) and parent.left is node


def _under_sqrt(node, parents) -> bool:
    parent = parents.get(id(node))
    return isinstance(parent, ast.Call) and (_method(parent) == "sqrt" or
                                             isinstance(parent.func, ast.Name) and parent.func.id == "sqrt")


def _mentions(expr, name: str) -> bool:
    return any(ast.unparse(n) == name for n in ast.walk(expr) if isinstance(n, (ast.Name, ast.Attribute,
                                                                                  ast.Subscript)))
