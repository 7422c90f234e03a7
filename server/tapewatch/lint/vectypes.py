"""Recognise Warp value types built in kernel code: ``wp.vec3(...)``, ``wp.mat33()``, user ``vec5()``.

Warp's vector, matrix, quaternion and transform locals are values in
registers; their components have assignment rules of their own (TW302), and
their constructors are linear (they never need an operand's value in the
adjoint), which the dynamic-loop rule relies on.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Dict, Optional, Tuple

from .names import Names

VECTOR, MATRIX, QUAT, TRANSFORM = "vector", "matrix", "quaternion", "transform"

_BUILTIN = re.compile(
    r"^(?:vec(?P<vlen>\d)[a-z]*|mat(?P<rows>\d)(?P<cols>\d)[a-z]*|(?P<quat>quat[a-z]?)"
    r"|(?P<xform>transform[a-z]?)|spatial_vector[a-z]?|spatial_matrix[a-z]?"
    r"|(?P<generic>vector|matrix|quaternion|transformation))$"
)
# Built-ins that return a constant value type: like default construction.
_CONSTANT_MAKERS = {"identity": MATRIX, "quat_identity": QUAT, "transform_identity": TRANSFORM}
# Module-level factories of user types: ``vec5 = wp.types.vector(length=5, dtype=float)``.
_FACTORIES = {"vector": VECTOR, "vec": VECTOR, "matrix": MATRIX, "mat": MATRIX,
              "quaternion": QUAT, "transformation": TRANSFORM}


@dataclass(frozen=True)
class ValueType:
    family: str
    length: Optional[int] = None  # vector/quaternion/transform component count
    shape: Optional[Tuple[int, int]] = None  # matrix rows, cols
    constant: bool = False  # identity-like: its components carry no gradient


def varying_components(call: ast.Call, vtype: ValueType, is_constant) -> list:
    """The components a constructor of ``vtype`` gives a non-constant value (constants carry no gradient):
    ``[(0, 2), (1, 2)]`` for a matrix written element by element, ``[(1,)]`` for a vector, ``[()]`` (every
    component) for one argument, a transform, or a matrix given by rows."""
    if vtype.constant or not call.args:
        return []
    args = call.args
    varying = [i for i, a in enumerate(args) if not (isinstance(a, ast.Constant) or is_constant(a))]
    if not varying:
        return []
    if len(args) == 1 or vtype.family == TRANSFORM:
        return [()]
    if vtype.family == MATRIX:
        if vtype.shape and len(args) == vtype.shape[0] * vtype.shape[1]:
            cols = vtype.shape[1]
            return [(i // cols, i % cols) for i in varying]
        return [()]  # rows/columns given as vectors
    return [(i,) for i in varying]


def builtin_type(qualname: Optional[str]) -> Optional[ValueType]:
    if not qualname or not qualname.startswith("warp.") or qualname.count(".") != 1:
        return None
    short = qualname[5:]
    if short in _CONSTANT_MAKERS:
        return ValueType(_CONSTANT_MAKERS[short], constant=True)
    m = _BUILTIN.match(short)
    if m is None:
        return None
    if m.group("vlen"):
        return ValueType(VECTOR, length=int(m.group("vlen")))
    if m.group("rows"):
        return ValueType(MATRIX, shape=(int(m.group("rows")), int(m.group("cols"))))
    if m.group("quat"):
        return ValueType(QUAT, length=4)
    if m.group("xform"):
        return ValueType(TRANSFORM, length=7)
    if short.startswith("spatial_vector"):
        return ValueType(VECTOR, length=6)
    if short.startswith("spatial_matrix"):
        return ValueType(MATRIX, shape=(6, 6))
    family = {"vector": VECTOR, "matrix": MATRIX, "quaternion": QUAT, "transformation": TRANSFORM}
    return ValueType(family[m.group("generic")])


def user_type_from_factory(call: ast.expr, names: Names) -> Optional[ValueType]:
    """The type a module-level ``wp.types.vector(length=5, ...)`` call defines, if it is one."""
    if not isinstance(call, ast.Call):
        return None
    q = names.qualname(call.func)
    if not q or not q.startswith("warp.") or q[5:] not in _FACTORIES:
        return None
    family = _FACTORIES[q[5:]]
    kw = {k.arg: k.value for k in call.keywords if k.arg}
    length, shape = None, None
    node = kw.get("length", call.args[0] if call.args else None)
    if family != MATRIX and isinstance(node, ast.Constant) and isinstance(node.value, int):
        length = node.value
    node = kw.get("shape", call.args[0] if call.args else None)
    if family == MATRIX and isinstance(node, ast.Tuple) and len(node.elts) == 2:
        dims = [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, int)]
        shape = (dims[0], dims[1]) if len(dims) == 2 else None
    return ValueType(family, length=length, shape=shape)


def constructed_type(call: ast.AST, names: Names, user_types: Dict[str, ValueType]) -> Optional[ValueType]:
    """The value type a call inside a kernel constructs, if it is a vector/matrix/... constructor."""
    if not isinstance(call, ast.Call):
        return None
    if isinstance(call.func, ast.Name) and call.func.id in user_types:
        return user_types[call.func.id]
    return builtin_type(names.qualname(call.func))


def annotated_type(annotation: Optional[ast.expr], names: Names,
                   user_types: Dict[str, ValueType]) -> Optional[ValueType]:
    """The value type a parameter annotation names (``p: wp.vec3``, ``m: mat33``, ``v: vec5``)."""
    if annotation is None:
        return None
    if isinstance(annotation, ast.Name) and annotation.id in user_types:
        return user_types[annotation.id]
    vtype = builtin_type(names.qualname(annotation))
    return None if vtype is None or vtype.constant else vtype
