"""TW302: a component of a local vector/matrix/quaternion is assigned a second time.

Warp lets each component of a local value type be assigned once; after that
only ``+=`` / ``-=`` are safe ("Vector, Matrix, and Quaternion Component
Assignment" in Warp's Differentiability guide).  The adjoint of a component
assignment adds the component's adjoint to the new value without clearing
it, so the value assigned first (or passed to the constructor) receives a
gradient it never earned.

The walk follows control flow loosely: ``if``/``else`` branches are
exclusive, loops may run zero times, and rebinding the name starts a new
vector.  Silent when the file sets ``wp.config.enable_vector_component_overwrites
= True`` (Warp then copies on write and the gradient is right).
"""

from __future__ import annotations

import ast
from typing import Dict, Iterator, List, Optional, Tuple

from tapewatch.model import Finding

from .. import findings
from ..context import FileContext
from ..kernels import FUNC, WarpFunction
from ..names import unparse
from ..vectypes import MATRIX, TRANSFORM, VECTOR, ValueType, annotated_type, constructed_type, varying_components

CODE = "TW302"

_ATTR_INDEX = {"x": 0, "y": 1, "z": 2, "w": 3}

Key = Tuple  # component path: (0,), (1, 2), ("p",), ("expr", "i"); () = every component


class _Mark:
    """Where a component was first given a value, and how."""

    __slots__ = ("node", "how")

    def __init__(self, node: ast.AST, how: str) -> None:
        self.node = node
        self.how = how  # "=", "+=", "update" (``v *= s``), "constructor", "parameter"


class _Vector:
    __slots__ = ("vtype", "marks")

    def __init__(self, vtype: ValueType, marks: Dict[Key, _Mark]) -> None:
        self.vtype = vtype
        self.marks = marks

    def copy(self) -> "_Vector":
        return _Vector(self.vtype, dict(self.marks))


State = Dict[str, _Vector]


FUNCTIONS = "differentiated"  # check_function runs on each function Warp differentiates


def check_function(ctx: FileContext, fn: WarpFunction) -> Iterator[Finding]:
    # A global config flag, usually set once at start-up (or in a test's setup
    # function): if the file turns it on anywhere, trust that it is on.
    for site in ctx.options:
        if site.key == "enable_vector_component_overwrites" and isinstance(site.value, ast.Constant) \
                and site.value.value is True:
            return
    out: List[Finding] = []
    _Walker(ctx, fn, out).block(fn.node.body, _parameters(ctx, fn))
    yield from out


def _scaled_vector(value: ast.expr, state: State, ctx: Optional[FileContext] = None,
                   loaded=None) -> Optional[ValueType]:
    """The type of ``k * v``, ``v / k``, ``v + w``, ``c - v``, ``-v`` for tracked values ``v`` (and ``w``)
    of one type; of matrix products ``F * P * wp.transpose(F)`` and ``M * v``; of ``wp.transpose(M)``.
    ``loaded`` types an array element (``a[i]`` of a ``wp.array(dtype=wp.mat22)``)."""
    names = ctx.names if ctx is not None else None
    if isinstance(value, ast.UnaryOp) and isinstance(value.op, (ast.USub, ast.UAdd)):
        return _scaled_vector(value.operand, state, ctx, loaded)
    if isinstance(value, ast.Call) and names is not None and len(value.args) == 1 and \
            names.qualname(value.func) in ("warp.transpose", "warp.inverse"):
        inner = _side_type(value.args[0], state, ctx, loaded)
        if inner is not None and inner.family == MATRIX:
            return ValueType(MATRIX, shape=inner.shape[::-1] if inner.shape else None) \
                if names.qualname(value.func) == "warp.transpose" else inner
        return None
    if not isinstance(value, ast.BinOp) or not isinstance(value.op, (ast.Mult, ast.Div, ast.Add, ast.Sub)):
        return None
    sides = [_side_type(v, state, ctx, loaded) for v in (value.left, value.right)]
    known = [t for t in sides if t is not None]
    if isinstance(value.op, ast.Mult) and len(known) == 2 and MATRIX in (known[0].family, known[1].family):
        left, right = known
        if left.family == MATRIX and right.family == MATRIX:  # a matrix product
            shape = (left.shape[0], right.shape[1]) if left.shape and right.shape else None
            return ValueType(MATRIX, shape=shape)
        vector = right if left.family == MATRIX else left
        return ValueType(VECTOR, length=vector.length) if vector.family == VECTOR else None
    if not known or any(t != known[0] for t in known):
        return None
    # ``WIND - v``: Warp has no vector plus scalar (measured: no ``sub`` overload for float32, vec3f), so
    # the other side of a sum with a tracked vector is a vector of its type (a constant, a global).
    if isinstance(value.op, ast.Div) and sides[0] is None:
        return None  # k / v: not a scaled vector
    if isinstance(value.op, ast.Mult) and len(known) == 2:
        return None  # v * w: Warp's component-wise product needs cw_mul; not followed
    return known[0]


# Built-ins that return a 3-vector computed from their arguments (never constants).
_VEC3_MAKERS = {"warp.quat_rotate", "warp.quat_rotate_inv", "warp.transform_point", "warp.transform_vector",
                "warp.cross"}


def _made_vector(value: ast.expr, ctx: FileContext) -> Optional[ValueType]:
    """``wp.quat_rotate_inv(q, v[i])``, ``wp.cross(a, b)``: a 3-vector every component of which a
    built-in computed from its arguments (as ``k * v`` is)."""
    if isinstance(value, ast.Call) and ctx.names.qualname(value.func) in _VEC3_MAKERS:
        return ValueType(VECTOR, length=3)
    return None


def _side_type(v: ast.expr, state: State, ctx: Optional[FileContext], loaded) -> Optional[ValueType]:
    if isinstance(v, ast.Name) and v.id in state:
        return state[v.id].vtype
    if isinstance(v, ast.Call) and ctx is not None:
        names = ctx.names
        # ``wp.quat_rotate(q, p) + wp.vec3(t[0], t[1], t[2])``: a sum of vectors the statement builds.
        if names.qualname(v.func) in _VEC3_MAKERS:
            return ValueType(VECTOR, length=3)
        built = constructed_type(v, names, ctx.user_types)
        if built is not None and not built.constant:
            return built
    if loaded is not None:
        found = loaded(v)
        if found is not None:
            return found
    return _scaled_vector(v, state, ctx, loaded)


def _parameters(ctx: FileContext, fn: WarpFunction) -> State:
    """A ``@wp.func``'s value-type parameters: the caller gave every component a value, and the
    adjoint of the parameter flows back to the caller's argument. (A kernel's value parameters get no
    adjoint back, so assigning their components corrupts nothing.)"""
    if fn.kind != FUNC:
        return {}
    state: State = {}
    for arg in list(getattr(fn.node.args, "posonlyargs", [])) + list(fn.node.args.args):
        vtype = annotated_type(arg.annotation, ctx.names, ctx.user_types)
        if vtype is not None:
            state[arg.arg] = _Vector(vtype, {(): _Mark(arg, "parameter")})
    return state


class _Walker:
    def __init__(self, ctx: FileContext, fn: WarpFunction, out: List[Finding]) -> None:
        self.ctx = ctx
        self.fn = fn
        self.out = out

    def block(self, stmts: List[ast.stmt], state: State) -> State:
        for s in stmts:
            state = self.stmt(s, state)
        return state

    def stmt(self, s: ast.stmt, state: State) -> State:
        if isinstance(s, ast.If):
            return _merge(self.block(s.body, _copy(state)), self.block(s.orelse, _copy(state)))
        if isinstance(s, (ast.For, ast.While)):
            # The body may run zero times; an assignment repeated by a dynamic
            # loop is not reported (the index usually changes per iteration).
            return _merge(state, self.block(s.body + s.orelse, _copy(state)))
        if isinstance(s, ast.With):
            return self.block(s.body, state)
        if isinstance(s, ast.Try):
            state = self.block(s.body, state)
            for h in s.handlers:
                state = _merge(state, self.block(h.body, _copy(state)))
            return self.block(s.finalbody, self.block(s.orelse, state))
        if isinstance(s, ast.Assign):
            for target in s.targets:
                self.assign(target, s.value, state, s)
        elif isinstance(s, ast.AnnAssign) and s.value is not None:
            self.assign(s.target, s.value, state, s)
        elif isinstance(s, ast.AugAssign):
            found = self.component(s.target, state)
            if found is not None:
                var, key = found
                if not _overlapping(state[var].marks, key):
                    state[var].marks[key] = _Mark(s.target, "+=")
            elif isinstance(s.target, ast.Name) and s.target.id in state:
                # ``v += w`` gives every component a value from ``w``.
                how = "+=" if isinstance(s.op, (ast.Add, ast.Sub)) else "update"
                state[s.target.id].marks.setdefault((), _Mark(s, how))
        return state

    def assign(self, target: ast.expr, value: ast.expr, state: State, stmt: ast.stmt) -> None:
        if isinstance(target, ast.Name):
            vtype = constructed_type(value, self.ctx.names, self.ctx.user_types)
            loaded = None if vtype is not None else self.loaded_type(value)
            if vtype is not None:
                state[target.id] = _Vector(vtype, self.constructor_marks(value, vtype))
            elif loaded is not None:
                # ``vel = v[i]``: assigning one of its components is wrong only when ``v`` needs a
                # gradient, which the source does not say; assigning one *twice* is wrong either way
                # (measured: d(damping) -0.96 for 1.44), so the load itself marks nothing.
                state[target.id] = _Vector(loaded, {})
            elif isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and \
                    value.func.id in self.ctx.returned_types:
                # ``t1 = link(q, l)``: a @wp.func of this file that returns a value type built from its
                # arguments: the components it computes have their value (constants carry no gradient).
                returned, keys = self.ctx.returned_types[value.func.id]
                state[target.id] = _Vector(returned, {key: _Mark(value, "=") for key in keys})
            else:
                scaled = _scaled_vector(value, state, self.ctx, self.loaded_type) or _made_vector(value, self.ctx)
                if scaled is not None:
                    # ``f = k * pen``: every component computed from values (a gradient flows through each).
                    state[target.id] = _Vector(scaled, {(): _Mark(value, "=")})
                else:
                    state.pop(target.id, None)  # rebound to something we do not track
            return
        if isinstance(target, (ast.Tuple, ast.List)):
            for elt in target.elts:
                if isinstance(elt, ast.Name):
                    state.pop(elt.id, None)
            return
        found = self.component(target, state)
        if found is None:
            return
        var, key = found
        vec = state[var]
        earlier = _overlapping(vec.marks, key)
        if earlier is not None:
            self.report(target, var, earlier)
        else:
            vec.marks[key] = _Mark(target, "=")

    def loaded_type(self, value: ast.expr) -> Optional[ValueType]:
        """The element type of ``a[i]`` for an array parameter ``a: wp.array(dtype=wp.vec3)``."""
        if not (isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name)):
            return None
        name = value.value.id
        if name not in self.fn.array_params:
            return None
        for arg in list(getattr(self.fn.node.args, "posonlyargs", [])) + list(self.fn.node.args.args):
            if arg.arg == name and isinstance(arg.annotation, ast.Call):
                for kw in arg.annotation.keywords:
                    if kw.arg == "dtype":
                        return annotated_type(kw.value, self.ctx.names, self.ctx.user_types)
        return None

    def constructor_marks(self, call: ast.Call, vtype: ValueType) -> Dict[Key, _Mark]:
        """Components the constructor sets from non-constant values (constants carry no gradient)."""
        mark = _Mark(call, "constructor")
        return {key: mark for key in varying_components(call, vtype, self.ctx.is_constant)}

    def component(self, target: ast.expr, state: State) -> Optional[Tuple[str, Key]]:
        """(variable, component key) if ``target`` is a component of a tracked local value."""
        parts: List = []
        node = target
        while isinstance(node, (ast.Subscript, ast.Attribute)):
            if isinstance(node, ast.Attribute):
                parts.insert(0, ("attr", node.attr))
            else:
                index = node.slice
                if isinstance(index, ast.Slice):
                    return None
                elts = index.elts if isinstance(index, ast.Tuple) else [index]
                parts[0:0] = [("index", e) for e in elts]
            node = node.value
        if not isinstance(node, ast.Name) or node.id not in state or not parts:
            return None
        vec = state[node.id]
        key = []
        for i, (kind, part) in enumerate(parts):
            if kind == "attr":
                key.append(_ATTR_INDEX.get(part, part) if vec.vtype.family != TRANSFORM else part)
                continue
            value = self.ctx.numeric(part)
            if isinstance(value, int):
                size = _size(vec.vtype, i)
                key.append(value + size if value < 0 and size else value)
            else:
                key.append(("expr", unparse(part)))
        return node.id, tuple(key)

    def report(self, target: ast.expr, var: str, earlier: _Mark) -> None:
        line = getattr(earlier.node, "lineno", 0)
        if earlier.how == "parameter":
            first = "it is a parameter: the caller gave it its value"
        elif earlier.how == "constructor":
            first = "it was set by the constructor at line %d" % line
        elif earlier.how == "+=":
            first = "it was updated with `+=`/`-=` at line %d" % line
        elif earlier.how == "update":
            first = "it was updated at line %d" % line
        else:
            first = "first assigned at line %d" % line
        text = unparse(target)
        self.out.append(findings.make(
            self.ctx.src, CODE,
            "Component `%s` of %s `%s` is assigned again (%s): Warp allows one assignment per component, "
            "re-assigning invalidates the gradient of `%s`"
            % (text, "parameter" if earlier.how == "parameter" else "local", var, first, var),
            target,
            related=[findings.related(self.ctx.src, earlier.node, "`%s` got its first value here" % text, "first-assignment")],
            data={"kernel": self.fn.name, "variable": var, "component": text, "first_line": line},
        ))


def _size(vtype: ValueType, axis: int) -> Optional[int]:
    if vtype.shape:
        return vtype.shape[axis] if axis < 2 else None
    return vtype.length if axis == 0 else None


def _overlapping(marks: Dict[Key, _Mark], key: Key) -> Optional[_Mark]:
    """A mark for ``key``, a whole row containing it, or a component inside it."""
    for k, mark in marks.items():
        n = min(len(k), len(key))
        if k[:n] == key[:n]:
            return mark
    return None


def _copy(state: State) -> State:
    return {k: v.copy() for k, v in state.items()}


def _merge(a: State, b: State) -> State:
    """After a branch: a variable is tracked if both paths track it; marks from either path count."""
    out: State = {}
    for var, vec in a.items():
        other = b.get(var)
        if other is None or other.vtype != vec.vtype:
            continue
        merged = vec.copy()
        for k, m in other.marks.items():
            merged.marks.setdefault(k, m)
        out[var] = merged
    return out
