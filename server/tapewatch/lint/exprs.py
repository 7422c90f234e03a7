"""Small questions rules ask about expressions: is it a constant, does it mention ``x``.

Warp resolves module-level numbers and ``wp.constant(...)`` at code
generation, so for a kernel they are as constant as a literal; the rules use
the same notion (a damping factor ``DAMP = 0.99`` is not a variable).
"""

from __future__ import annotations

import ast
from typing import Dict, Iterator, Optional, Union

from .names import Names

Number = Union[int, float]

# Scalar casts keep a literal a literal: ``wp.float32(0.5)``, ``float(2)``.
_CASTS = frozenset(
    "float16 float32 float64 half float double int8 int16 int32 int64 uint8 uint16 uint32 uint64 "
    "constant".split()
)


def numeric_value(node: ast.AST, names: Names, constants: Dict[str, Number]) -> Optional[Number]:
    """The value of a compile-time numeric constant expression, else None."""
    if isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return value
        return None
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        inner = numeric_value(node.operand, names, constants)
        if inner is None:
            return None
        return -inner if isinstance(node.op, ast.USub) else inner
    if isinstance(node, ast.Name) and node.id in constants:
        return constants[node.id]
    if isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords:
        func = node.func
        is_cast = (isinstance(func, ast.Name) and func.id in ("float", "int")) or (
            (names.qualname(func) or "").rpartition(".")[2] in _CASTS and names.qualname(func) is not None
        )
        if is_cast:
            return numeric_value(node.args[0], names, constants)
    return None


# Fields that never hold a node a rule looks for: expression contexts
# (``Load``/``Store`` objects), operators, and plain values.  Skipping them
# cuts the nodes a walk visits by about a third.
_NOT_CHILDREN = frozenset(
    "ctx op ops id attr name arg asname module level kind type_comment conversion is_async".split()
)
_CHILD_FIELDS: Dict[type, tuple] = {ast.Constant: ()}


def _child_fields(cls: type) -> tuple:
    fields = _CHILD_FIELDS.get(cls)
    if fields is None:
        fields = _CHILD_FIELDS[cls] = tuple(f for f in cls._fields if f not in _NOT_CHILDREN)
    return fields


def walk(root: ast.AST) -> Iterator[ast.AST]:
    """Every statement, expression and helper node under ``root`` (included), depth-first.

    A leaner ``ast.walk``: it skips expression contexts and operator nodes
    and reads fields directly instead of going through ``iter_child_nodes``,
    which more than halves the cost of the walks the engine runs on every
    keystroke.  Order is not source order.
    """
    AST = ast.AST
    stack = [root]
    pop, push = stack.pop, stack.append
    fields_of = _CHILD_FIELDS.get
    while stack:
        node = pop()
        yield node
        cls = node.__class__
        fields = fields_of(cls)
        if fields is None:
            fields = _child_fields(cls)
        for name in fields:
            value = getattr(node, name, None)
            if value.__class__ is list:
                for item in value:
                    if isinstance(item, AST):
                        push(item)
            elif isinstance(value, AST):
                push(value)


def mentions(node: ast.AST, name: str) -> bool:
    """True if the expression reads the local ``name``."""
    for sub in walk(node):
        if isinstance(sub, ast.Name) and sub.id == name:
            return True
    return False


def pos(node: ast.AST):
    """Sort key for source order."""
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


def end_pos(node: ast.AST):
    return (getattr(node, "end_lineno", 0) or 0, getattr(node, "end_col_offset", 0) or 0)
