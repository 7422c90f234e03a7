"""One pass over a Warp function body, indexing what the kernel rules ask about.

Rules read these lists instead of walking the body again, so linting costs
one walk per kernel however many rules there are.  Derived tables that only
one rule needs, for few kernels (which reads need a value, in source order),
are computed from the recorded nodes on first request.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from typing import Callable, Dict, List, Optional, Set, Tuple

from tapewatch.warpsrc.vocabulary import ACCUMULATING_ATOMICS

from .exprs import end_pos, pos, walk

Pos = Tuple[int, int]

# Binary operators whose adjoint needs the value of the *other* operand (or,
# for the divisor and exponent, of the operand itself).
_NONLINEAR_BINOPS = (ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow, ast.MatMult)


class FunctionIndex:
    """Nodes of one function body, in source order."""

    def __init__(self, is_constant: Callable[[ast.AST], bool], is_linear_call: Callable[[ast.Call], bool]) -> None:
        self._is_constant = is_constant
        self._is_linear_call = is_linear_call
        self.augassigns: List[ast.AugAssign] = []
        self.assigns: List[ast.stmt] = []  # Assign and AnnAssign with a value
        self.calls: List[ast.Call] = []
        self.loops: List[ast.stmt] = []  # For and While
        # name -> positions where a new binding of the name takes effect (``=``, ``for``, ``with``)
        self.stores: Dict[str, List[Pos]] = defaultdict(list)
        # name -> Name nodes reading its value (``x += 1`` reads x); see loads_of
        self.loads: Dict[str, List[ast.Name]] = defaultdict(list)
        # nodes whose operands may be reads an adjoint needs the value of; see value_uses_of
        self._users: List[ast.AST] = []  # nonlinear BinOps, Compares, Subscripts (calls: self.calls)
        self._value_uses: Optional[Dict[str, List[Tuple[ast.AST, ast.AST]]]] = None
        # name -> (position, value) of each ``name = value``
        self.bindings: Dict[str, List[Tuple[Pos, ast.expr]]] = defaultdict(list)
        # ids of Name nodes that are only written through: ``a`` in ``a[i] = v``,
        # ``a[i] += v``, ``wp.atomic_add(a, i, v)`` (none of these read a's values)
        self.write_bases: Set[int] = set()
        # ids of calls that are a whole statement (their value is discarded)
        self.statement_calls: Set[int] = set()

    def reads(self, name: str) -> bool:
        """True if the body reads the value of ``name`` (not only writes through it)."""
        return any(id(node) not in self.write_bases for node in self.loads.get(name, ()))

    # Most names are never asked about: their reads are sorted on first request.

    def loads_of(self, name: str) -> List[Tuple[Pos, ast.AST]]:
        """(position, node) of each read of ``name``, in source order."""
        return sorted(((pos(n), n) for n in self.loads.get(name, ())), key=_first)

    def value_uses_of(self, name: str) -> List[Tuple[Pos, ast.AST]]:
        """(position, user) of each read of ``name`` whose value an adjoint needs, in source order.

        A divisor, a factor next to a non-constant, an argument of a non-linear
        call, an index, a comparison operand.
        """
        if self._value_uses is None:
            self._value_uses = _value_uses(self)
        return sorted(((pos(operand), user) for operand, user in self._value_uses.get(name, ())), key=_first)


def build(fn_node: ast.FunctionDef, is_constant: Callable[[ast.AST], bool],
          is_linear_call: Callable[[ast.Call], bool]) -> FunctionIndex:
    idx = FunctionIndex(is_constant, is_linear_call)
    users = idx._users
    for stmt in fn_node.body:
        for node in walk(stmt):
            kind = type(node)
            if kind is ast.Name:
                if node.ctx.__class__ is ast.Load:
                    idx.loads[node.id].append(node)
            elif kind is ast.Call:
                idx.calls.append(node)
                if node.args and _is_atomic_accumulate(node.func):
                    _write_base(idx, node.args[0])
            elif kind is ast.BinOp:
                if isinstance(node.op, _NONLINEAR_BINOPS):
                    users.append(node)
            elif kind is ast.Compare or kind is ast.Subscript:
                users.append(node)
            elif kind is ast.Expr:
                idx.statement_calls.add(id(node.value))
            elif kind is ast.Assign:
                idx.assigns.append(node)
                for target in node.targets:
                    _record_stores(idx, target, node.value, end_pos(node))
                    _write_base(idx, target)
            elif kind is ast.AnnAssign:
                if node.value is not None:
                    idx.assigns.append(node)
                    _record_stores(idx, node.target, node.value, end_pos(node))
            elif kind is ast.AugAssign:
                idx.augassigns.append(node)
                if isinstance(node.op, (ast.Add, ast.Sub)):
                    _write_base(idx, node.target)
                if isinstance(node.target, ast.Name):
                    idx.loads[node.target.id].append(node.target)
            elif kind is ast.For or kind is ast.While:
                idx.loops.append(node)
                if kind is ast.For:
                    _record_stores(idx, node.target, None, pos(node.target))
            elif kind is ast.withitem and node.optional_vars is not None:
                _record_stores(idx, node.optional_vars, None, pos(node.optional_vars))
    # The walk is not in source order; rules want source order.
    idx.loops.sort(key=pos)
    idx.assigns.sort(key=pos)
    idx.augassigns.sort(key=pos)
    idx.calls.sort(key=pos)
    for entries in idx.stores.values():
        entries.sort()
    for bound in idx.bindings.values():
        bound.sort(key=lambda e: e[0])
    return idx


def _first(entry):
    return entry[0]


def _is_atomic_accumulate(func: ast.expr) -> bool:
    # By attribute name only: body.py has no import table, and no other
    # ``atomic_add`` is callable inside a kernel.
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return name in ACCUMULATING_ATOMICS


def _write_base(idx: FunctionIndex, target: ast.AST) -> None:
    if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
        idx.write_bases.add(id(target.value))


def _value_uses(idx: FunctionIndex) -> Dict[str, List[Tuple[ast.AST, ast.AST]]]:
    table: Dict[str, List[Tuple[ast.AST, ast.AST]]] = defaultdict(list)
    is_constant, is_linear_call = idx._is_constant, idx._is_linear_call

    def use(operand: ast.AST, user: ast.AST) -> None:
        # See through casts and one-argument constructors: ``s / float(n)`` needs n.
        while isinstance(operand, ast.Call) and len(operand.args) == 1 and is_linear_call(operand):
            operand = operand.args[0]
        if isinstance(operand, ast.Name):
            table[operand.id].append((operand, user))
        elif isinstance(operand, ast.UnaryOp) and isinstance(operand.op, (ast.USub, ast.UAdd)):
            use(operand.operand, user)  # ``wp.exp(-g)`` needs g
        elif isinstance(operand, ast.BinOp) and isinstance(operand.op, (ast.Add, ast.Sub)):
            use(operand.left, user)  # ``wp.exp(g - c)`` needs g (and c)
            use(operand.right, user)
        elif isinstance(operand, ast.BinOp) and isinstance(operand.op, ast.Mult):
            # ``wp.exp(2.0 * g)`` needs g; a product of two values is a user of its own.
            if is_constant(operand.left):
                use(operand.right, user)
            elif is_constant(operand.right):
                use(operand.left, user)

    for node in idx.calls:
        if not is_linear_call(node):
            for arg in node.args:
                use(arg, node)
    for node in idx._users:
        if isinstance(node, ast.Compare):
            use(node.left, node)
            for c in node.comparators:
                use(c, node)
        elif isinstance(node, ast.Subscript):
            index = node.slice
            for part in index.elts if isinstance(index, ast.Tuple) else (index,):
                use(part, node)
        elif isinstance(node.op, (ast.Mult, ast.MatMult)):
            # a * b: the adjoint of a needs b and vice versa; a constant factor needs nothing.
            if not is_constant(node.right):
                use(node.left, node)
            if not is_constant(node.left):
                use(node.right, node)
        else:
            # a / b, a ** b, a % b: the divisor/exponent is always needed, the
            # numerator only when the divisor is not a constant.
            use(node.right, node)
            if isinstance(node.op, ast.Pow) or not is_constant(node.right):
                use(node.left, node)
    return table


def _record_stores(idx: FunctionIndex, target: ast.AST, value, at: Pos) -> None:
    # ``at`` is where the new binding takes effect: the end of an assignment
    # (its right-hand side still reads the old value), the target of a ``for``.
    if isinstance(target, ast.Name):
        idx.stores[target.id].append(at)
        if value is not None:
            idx.bindings[target.id].append((at, value))
    elif isinstance(target, (ast.Tuple, ast.List)):
        for elt in target.elts:
            _record_stores(idx, elt.value if isinstance(elt, ast.Starred) else elt, None, at)
