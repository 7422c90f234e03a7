"""What the user called an array: the expression written at the call, followed up through helper
parameters to the frame the user reads (``state.q``, ``states[i + 1]``), else a local bound to it."""

from __future__ import annotations

import ast
import copy
import sys
from typing import Dict, Optional

from ...warpsrc.source import callee, root_name
from .call_expressions import call_at
from .user_code import innermost_user_frame

def user_expression(expr: Optional[ast.expr], frames: list) -> Optional[str]:
    """The name the user wrote, followed through helper parameters.

    If the launch is in ``def step(s_in, s_out)`` and passes ``s_out.q``, and
    the caller wrote ``step(a, b)``, the answer is ``b.q``: the name in the
    frame the user reads.
    """
    if expr is None:
        return None
    for depth, frame in enumerate(frames):
        outer = _outer_expression(expr, frame, frames[depth + 1] if depth + 1 < len(frames) else None)
        if outer is None:
            break
        expr = outer
    if isinstance(expr, ast.Name):
        return expr.id  # what ast.unparse gives, without its visitor (one per launch argument)
    if isinstance(expr, ast.Constant) or (isinstance(expr, ast.UnaryOp) and isinstance(expr.operand, ast.Constant)):
        return None  # a number is never an array's name (a helper's parameter followed to a literal)
    return ast.unparse(expr) if hasattr(ast, "unparse") else None


def caller_expression(text: str, frame, caller) -> Optional[str]:
    """``text``, an expression written in ``frame``, as ``caller`` wrote it (``x_next`` for ``dst`` of
    ``def step(src, dst)`` called as ``step(x, x_next)``), or None where it is not the caller's."""
    try:
        expr = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None
    outer = _outer_expression(expr, frame, caller)
    return ast.unparse(outer) if outer is not None else None


def _outer_expression(expr: ast.expr, frame, caller) -> Optional[ast.expr]:
    """``expr`` (written in ``frame``) as the caller wrote it, or None to stop there."""
    root = root_name(expr)
    if root is None or caller is None:
        return None
    code = frame.f_code
    param = _param_position(code, root.id)
    if param is None or root.id in _stored_names(code):
        return None  # a parameter the function rebinds (``c = c_next`` in a loop) is the caller's only at first
    # ``states[s + 1]`` means nothing outside the frame that defines ``s``.
    others = {n.id for n in ast.walk(expr) if isinstance(n, ast.Name) and n is not root}
    if others & set(code.co_varnames):
        return None
    caller_call = call_at(caller, (code.co_name,))
    if caller_call is None or callee(caller_call.func) != code.co_name:
        return None
    if param == 0 and code.co_varnames[:1] in (("self",), ("cls",)) and isinstance(caller_call.func, ast.Attribute):
        return _replace_root(expr, caller_call.func.value)  # obj.method(): ``self`` is ``obj``
    if code.co_varnames[:1] in (("self",), ("cls",)) and isinstance(caller_call.func, ast.Attribute):
        param -= 1  # obj.method(a, b): ``self`` is bound implicitly
    if param >= code.co_argcount:
        return _keyword_argument(caller_call, root.id, expr)  # keyword-only
    outer = _bound_argument(caller_call, param, root.id)
    return _replace_root(expr, outer) if outer is not None else None


def _keyword_argument(call: ast.Call, name: str, expr: ast.expr) -> Optional[ast.expr]:
    for kw in call.keywords:
        if kw.arg == name:
            return _replace_root(expr, kw.value)
    return None


def _replace_root(expr: ast.expr, new_root: ast.expr) -> ast.expr:
    if isinstance(expr, ast.Name):
        return new_root

    expr = copy.copy(expr)
    assert isinstance(expr, (ast.Attribute, ast.Subscript))  # root_name walked through these
    expr.value = _replace_root(expr.value, new_root)
    return expr


_STORES: Dict[object, frozenset] = {}  # code object -> the local names it assigns
MAX_STORE_CODES = 1 << 12


def _stored_names(code) -> frozenset:
    """Locals a function assigns (``STORE_FAST``), read once per code object from its bytecode."""
    names = _STORES.get(code)
    if names is None:
        import dis  # noqa: PLC0415  (only when a launch is named through a helper)

        names = frozenset(ins.argval for ins in dis.get_instructions(code) if ins.opname == "STORE_FAST")
        if len(_STORES) >= MAX_STORE_CODES:
            _STORES.clear()
        _STORES[code] = names
    return names


def _param_position(code, name: str) -> Optional[int]:
    nparams = code.co_argcount + code.co_kwonlyargcount
    params = code.co_varnames[:nparams]
    if name not in params:
        return None
    return params.index(name)


def _bound_argument(call: ast.Call, position: int, name: str) -> Optional[ast.expr]:
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
    if position < 0 or any(isinstance(a, ast.Starred) for a in call.args[: position + 1]):
        return None
    if position < len(call.args):
        return call.args[position]
    return None


def name_by_identity(obj, frame=None) -> Optional[str]:
    """Fallback naming: a local bound to ``obj``, one attribute or item deep, in ``frame`` (by default
    the innermost user frame)."""
    frame = frame if frame is not None else innermost_user_frame(sys._getframe(1))
    if frame is None:
        return None
    try:
        items = list(frame.f_locals.items())
    except Exception:
        return None
    for name, value in items:
        if value is obj:
            return name
    for name, value in items:
        if isinstance(value, (list, tuple)) and len(value) <= 4096:
            for i, item in enumerate(value):
                if item is obj:
                    return "%s[%d]" % (name, i)
        elif hasattr(value, "__dict__") and not isinstance(value, type):
            try:
                attrs = vars(value)
            except TypeError:
                continue
            for attr, item in attrs.items():
                if item is obj:
                    return "%s.%s" % (name, attr)
    return None
