"""The user ``@wp.func``s a kernel reaches, breadth first through the functions it calls.

A kernel's singular op (TW403) or wrong custom adjoint (TW404) often sits
two calls down, in a helper module: ``disk_coverage()`` calling its
``coverage()``.  Each call is resolved in the module of the code that makes
it (``distance(...)``, ``geometry.distance(...)``).  A function with a custom
adjoint is listed but not entered: its adjoint is the math, not its body.
"""

from __future__ import annotations

import ast
from typing import Any, Iterator, Optional, Tuple

from ..core import warp_seams
from ...warpsrc.source import callee, parse_module

MAX_FUNCTIONS = 32  # distinct functions listed per kernel (a bound on the parsing, not a hint)


def reached_functions(wp, kernel) -> Iterator[Tuple[str, Any]]:
    """``(name as called, Function)`` for each distinct user ``@wp.func`` the kernel reaches."""
    function_cls = warp_seams.function_class(wp)
    if function_cls is None:
        return
    queue = [(warp_seams.kernel_source(kernel) or "", _globals_of(kernel))]
    seen: set = set()
    while queue:
        source, env = queue.pop(0)
        tree = parse_module(source)
        if tree is None:
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            obj = _resolve(node.func, env)
            if not isinstance(obj, function_cls) or id(obj) in seen:
                continue
            seen.add(id(obj))
            yield callee(node.func), obj
            if len(seen) >= MAX_FUNCTIONS:
                return
            inner = warp_seams.kernel_source(obj)
            if warp_seams.custom_grad(obj) is None and inner:
                queue.append((inner, _globals_of(obj)))


def _globals_of(obj) -> dict:
    return getattr(getattr(obj, "func", None), "__globals__", None) or {}


def _resolve(func, env: dict) -> Optional[Any]:
    if isinstance(func, ast.Name):
        return env.get(func.id)
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return getattr(env.get(func.value.id), func.attr, None)
    return None
