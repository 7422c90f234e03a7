"""Which array arguments a kernel reads and writes, from its source.

Warp's codegen marks arguments read or written, but not always: measured on
Warp 1.16 and 1.19, ``y[i] = x[i] + 1.0`` leaves ``x`` unmarked (while
``y[i] = 2.0 * x[i]`` marks it), so the classic ping-pong integrator on one
tape produces no warning.  This analysis reads the kernel's AST and is
combined with Warp's marks (a union), so the probe sees what Warp misses.

It also finds write-after-read *inside* one kernel, in statement order:
``x[i] = f(x[i])``-style overwrites whose adjoint needs the old value.
"""

from __future__ import annotations

import ast
import textwrap
from typing import Dict, List, NamedTuple, Optional, Set

# Builtins that write their first argument (Warp treats them as writes).
_WRITERS = {
    "atomic_add", "atomic_sub", "atomic_min", "atomic_max", "atomic_cas", "atomic_exch",
    "atomic_and", "atomic_or", "atomic_xor", "tile_store", "tile_atomic_add", "array_store",
}
# Uses of an array that do not read its data.
_METADATA_ATTRS = {"shape", "ndim", "size", "dtype", "strides", "ptr"}
_METADATA_CALLS = {"len", "address", "view"}


class IntraKernelWrite(NamedTuple):
    param: str
    line: int  # absolute line in the kernel's file
    column: int
    read_line: int


class KernelAccess(NamedTuple):
    reads: Set[str]
    writes: Set[str]
    intra: List[IntraKernelWrite]


EMPTY = KernelAccess(set(), set(), [])


def analyze_source(source: str, first_line: int, globals_: Optional[dict] = None) -> KernelAccess:
    """Analyse a ``def`` (kernel or function) given its source and file line."""
    try:
        tree = ast.parse(textwrap.dedent(source))
    except (SyntaxError, ValueError):
        return EMPTY
    func = next((n for n in tree.body if isinstance(n, ast.FunctionDef)), None)
    if func is None:
        return EMPTY
    params = [a.arg for a in func.args.args]
    # Parsed line 1 is the first line of the source (a decorator, if any).
    visitor = _AccessVisitor(set(params), first_line - 1, globals_ or {})
    for stmt in func.body:
        visitor.visit(stmt)
    return KernelAccess(visitor.reads, visitor.writes, visitor.intra)


class _AccessVisitor(ast.NodeVisitor):
    def __init__(self, params: Set[str], line_offset: int, globals_: dict):
        self.params = params
        self.offset = line_offset
        self.globals = globals_
        self.reads: Set[str] = set()
        self.writes: Set[str] = set()
        self.intra: List[IntraKernelWrite] = []
        self._first_read: Dict[str, int] = {}

    # -- reads -------------------------------------------------------------
    def visit_Subscript(self, node: ast.Subscript) -> None:
        name = _param_name(node.value, self.params)
        if name is not None:
            if isinstance(node.ctx, ast.Load):
                self._read(name, node)
            else:
                self._write(name, node)
        else:
            self.visit(node.value)
        self.visit(node.slice)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if node.attr in _METADATA_ATTRS and _param_name(node.value, self.params):
            return  # x.shape[0] reads no data
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        # ``x[i] += v`` accumulates: Warp treats it as a write only, and its
        # adjoint does not need the old value.
        target = node.target
        if isinstance(target, ast.Subscript):
            name = _param_name(target.value, self.params)
            if name is not None:
                self.visit(target.slice)
                self.visit(node.value)
                self.writes.add(name)
                return
        self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign) -> None:
        # Right-hand side first: its reads happen before the store.
        self.visit(node.value)
        for target in node.targets:
            if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Subscript):
                # ``y[i].x = v`` stores a component: a write to y, not a read.
                name = _param_name(target.value, self.params)
                if name is not None:
                    self._write(name, target)
                    self.visit(target.value.slice)
                    continue
            self.visit(target)

    def visit_Call(self, node: ast.Call) -> None:
        fname = _callee_name(node.func)
        if fname in _METADATA_CALLS:
            return
        if fname in _WRITERS and node.args:
            name = _param_name(node.args[0], self.params)
            if name is not None:
                self.writes.add(name)
                for arg in node.args[1:]:
                    self.visit(arg)
                for kw in node.keywords:
                    self.visit(kw.value)
                return
        callee = self._user_function(node.func)
        for index, arg in enumerate(node.args):
            name = _param_name(arg, self.params)
            if name is None:
                self.visit(arg)
                continue
            # An array passed to a @wp.func: follow it into the function.
            access = callee.get(index) if callee is not None else None
            if access is None:
                self._read(name, arg)
            else:
                if "r" in access:
                    self._read(name, arg)
                if "w" in access:
                    self.writes.add(name)
        for kw in node.keywords:
            self.visit(kw.value)
        self.visit(node.func)

    def visit_Name(self, node: ast.Name) -> None:
        if node.id in self.params and isinstance(node.ctx, ast.Load):
            # Aliased (``a = x``) or passed somewhere we can't follow.
            self._read(node.id, node)

    # -- helpers -----------------------------------------------------------
    def _read(self, name: str, node: ast.AST) -> None:
        self.reads.add(name)
        self._first_read.setdefault(name, node.lineno + self.offset)

    def _write(self, name: str, node: ast.AST) -> None:
        self.writes.add(name)
        if name in self._first_read:
            self.intra.append(
                IntraKernelWrite(name, node.lineno + self.offset, node.col_offset + 1, self._first_read[name])
            )

    def _user_function(self, func: ast.expr) -> Optional[Dict[int, str]]:
        """Per-argument access ('r', 'w', 'rw') of a user ``@wp.func``, if resolvable."""
        target = None
        if isinstance(func, ast.Name):
            target = self.globals.get(func.id)
        source = getattr(target, "adj", None) and getattr(target.adj, "source", None)
        if not source or getattr(target, "func", None) is None:
            return None
        code = target.func.__code__
        access = analyze_source(source, code.co_firstlineno, getattr(target.func, "__globals__", {}))
        params = code.co_varnames[: code.co_argcount]
        out = {}
        for i, p in enumerate(params):
            out[i] = ("r" if p in access.reads else "") + ("w" if p in access.writes else "")
        return out


def _param_name(node: ast.expr, params: Set[str]) -> Optional[str]:
    """The kernel parameter an expression indexes into (``x`` in ``x[i]``/``x[i][j]``)."""
    while isinstance(node, ast.Subscript):
        node = node.value
    if isinstance(node, ast.Name) and node.id in params:
        return node.id
    return None


def _callee_name(func: ast.expr) -> str:
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return ""


_cache: Dict[int, KernelAccess] = {}


def kernel_access(kernel) -> KernelAccess:
    """Access sets of a ``wp.Kernel``, cached per kernel object."""
    key = id(kernel)
    hit = _cache.get(key)
    if hit is not None:
        return hit
    result = EMPTY
    func = getattr(kernel, "func", None)
    adj = getattr(kernel, "adj", None)
    source = getattr(adj, "source", None)
    if func is not None and source:
        try:
            result = analyze_source(source, func.__code__.co_firstlineno, getattr(func, "__globals__", {}))
        except RecursionError:
            result = EMPTY
    _cache[key] = result
    return result
