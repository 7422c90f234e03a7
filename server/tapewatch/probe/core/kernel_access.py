"""What a kernel does with its array arguments, from its source.

Warp's codegen marks arguments read or written, but not always: measured on
Warp 1.16 and 1.19, ``y[i] = x[i] + 1.0`` leaves ``x`` unmarked (while
``y[i] = 2.0 * x[i]`` marks it), so the classic ping-pong integrator on one
tape produces no warning; arrays inside ``@wp.struct`` arguments are never
marked.  This analysis reads the kernel's AST and is combined with Warp's
marks (a union), so the probe sees what Warp misses.

Accesses are named by *path*: ``x`` for an array parameter, ``state.q`` for
an array field of a struct parameter (nested structs give longer paths).

It also finds:

- write-after-read *inside* one kernel, in statement order
  (``x[i] = f(x[i])``, and ``x[i] *= s`` which is a read plus a write);
- whether the kernel's adjoint *uses the values* of a read path (a reader
  linear in ``x`` gives the same gradient after ``x`` is overwritten);
- atomic operations whose return value the kernel uses (re-executed by the
  backward replay).
"""

from __future__ import annotations

import ast
from collections import Counter
import operator
from typing import AbstractSet, Any, Dict, FrozenSet, List, NamedTuple, Optional, Set, Tuple

from . import warp_seams
from ...warpsrc.source import callee, parse_def, resolve
from ...warpsrc.vocabulary import (
    ACCUMULATING_ATOMICS, ATOMICS, BILINEAR_CALLS, LINEAR_CALLS, METADATA_ATTRS, METADATA_CALLS, WRITERS,
)


class IntraKernelWrite(NamedTuple):
    param: str  # an access path: ``x`` or ``state.q``
    line: int  # absolute line in the kernel's file
    column: int
    read_line: int
    # "=" for a store after a load, "*=" / "/=" for an in-place product; in ``accumulated_after_read``
    # "+=" / "-=", an atomic's name or "a call of `f`".
    op: str = "="
    # ``x[i] *= 0.01``: the factor is a number fixed at compile time, so no adjoint needs the old value.
    constant_factor: bool = False


class AtomicUse(NamedTuple):
    line: int
    column: int
    op: str  # atomic_add, ...
    target: Optional[str]  # the array path it updates


class KernelAccess(NamedTuple):
    reads: Set[str]
    writes: Set[str]
    intra: List[IntraKernelWrite]
    # Paths whose values reach the adjoint unconditionally (nonlinear use, branch, index...).
    nonlinear: Set[str]
    # Paths used only linearly, but multiplied by values from these other parameters: the
    # adjoint of those uses this path's values when they carry gradients.
    products: Dict[str, FrozenSet[str]]
    atomic_results: List[AtomicUse]
    # Paths assigned with a plain store (``x[i] = v``), as opposed to accumulated into.
    stores: FrozenSet[str] = frozenset()
    # Paths stored before they are read (write-then-read in one kernel): a launch does not
    # continue from their old values.  Computed once with the rest (kernel_access caches).
    rewritten_first: FrozenSet[str] = frozenset()
    # path -> (index forms of its reads, of its writes); a form is a tuple with one entry per
    # index (``(name, offset)`` for ``name + offset``, ``(None, c)`` for a constant, None for
    # anything else), or None for an access without a visible index (passed whole).
    index_forms: Dict[str, Tuple[tuple, tuple]] = {}
    # Scalar parameters never assigned in the body: the same value for every thread of a launch.
    uniform: FrozenSet[str] = frozenset()
    # Accumulations (``+=``, ``wp.atomic_*``, a ``@wp.func`` that writes) into a path read earlier in
    # the body: harmless unless the adjoint needs the values read (the backward pass replays the
    # forward code against the updated array).  ``op`` is ``+=`` / ``-=`` or the call's name.
    accumulated_after_read: Tuple[IntraKernelWrite, ...] = ()
    # Names bound by ``wp.tid()`` (one thread's own index), and loop variables of ascending
    # ``range`` loops never assigned elsewhere: with these an access pattern can be thread-private
    # and "written ahead" (``x[i, s + 1]`` stored where ``x[i, s]`` is read).
    thread: FrozenSet[str] = frozenset()
    ascending: FrozenSet[str] = frozenset()
    # Paths whose values can reach what the kernel writes through differentiable operations (stored,
    # accumulated, passed to a call): the only inputs its adjoint can give a gradient.  A path used
    # only in comparisons, branch conditions or indices is not among them.  None: not known.
    flows_out: Optional[FrozenSet[str]] = None
    # path -> read forms after the thread wrote the path (outside loops): the new value, for the kernel itself
    late_reads: Dict[str, tuple] = {}
    # Names bound once to a 1-D launch's thread index, with the uniform parameter added to it (``f = first +
    # wp.tid()``; None for ``i = wp.tid()``): with the launch's dim, the range of elements such an index spans.
    thread_offsets: Dict[str, Optional[str]] = {}
    # path -> write forms stored before any read of the path, outside loops (``x[i, 0] = x0`` before a loop
    # that reads ``x[i, s]``): they come first in every thread, so no read of that thread's row precedes them.
    early_writes: Dict[str, tuple] = {}
    # path -> the line of each write form (``index_forms[path][1]``, in order; None where unknown)
    write_lines: Dict[str, tuple] = {}

    def gradient_reaches(self, path: str) -> bool:
        """Whether this kernel's adjoint can give ``path`` a gradient (True when not known)."""
        if self.flows_out is None:
            return True
        return any(p in self.flows_out or any(f.startswith(p + ".") for f in self.flows_out)
                   for p in _prefixes(path))

    def reads_apart_from_writes(self, path: str, line: Optional[int] = None) -> bool:
        """Every read of ``path`` and every write of it index different elements in any launch
        (``temp[t]`` read, ``temp[t + 1]`` written, ``t`` a scalar parameter): the kernel never
        overwrites an element it read, whatever ``t`` is.  ``line``: only the writes of that statement
        (all of them where no write is known there)."""
        forms = self.index_forms.get(path)
        if not forms or not forms[0] or not forms[1]:
            return False
        late = Counter(self.late_reads.get(path, ()))
        early = []
        for r in forms[0]:  # each read after the write leaves the comparison once
            if late[r] > 0:
                late[r] -= 1
            else:
                early.append(r)
        first = Counter(self.early_writes.get(path, ()))
        writes, before = [], []
        lines = self.write_lines.get(path, ())
        only = line is not None and line in lines
        for n, w in enumerate(forms[1]):  # each write before every read is compared as such once
            at_line = n < len(lines) and lines[n] == line
            if first[w] > 0:
                first[w] -= 1
                if not only or at_line:
                    before.append(w)
            elif not only or at_line:
                writes.append(w)
        return all(_apart(r, w, self.uniform) or _written_ahead(r, w, self.thread, self.uniform, self.ascending)
                   for r in early for w in writes) and \
            all(_apart(r, w, self.uniform) or _same_thread(r, w, self.thread) for r in early for w in before)

    def adjoint_uses(self, path: str, differentiable_params=None) -> bool:
        """Whether the backward pass of this kernel needs the values of ``path``.

        ``differentiable_params``: the parameter paths that carry gradients in
        this launch (None: assume all do).
        """
        for p in _prefixes(path):
            if p in self.nonlinear:
                return True
            partners = self.products.get(p)
            if partners:
                if differentiable_params is None:
                    return True
                if any(any(q == d or d.startswith(q + ".") or q.startswith(d + ".") for d in differentiable_params)
                       for q in partners):
                    return True
        return False


EMPTY = KernelAccess(set(), set(), [], set(), {}, [], frozenset(), frozenset(), {}, frozenset())


def _prefixes(path: str) -> List[str]:
    parts = path.split(".")
    return [".".join(parts[: i + 1]) for i in range(len(parts))]


def analyze_source(source: str, first_line: int, globals_: Optional[dict] = None) -> KernelAccess:
    """Analyse a ``def`` (kernel or function) given its source and file line."""
    func = parse_def(source)
    return EMPTY if func is None else _analyze_def(func, first_line, globals_)


def _analyze_def(func: ast.FunctionDef, first_line: int, globals_: Optional[dict] = None) -> KernelAccess:
    params = [a.arg for a in func.args.args]
    # Parsed line 1 is the first line of the source (a decorator, if any).
    visitor = _AccessVisitor(set(params), first_line - 1, globals_ or {})
    visitor.windows = _windows(func, globals_ or {})
    for stmt in func.body:
        visitor.visit(stmt)
    values = _ValueFlow(set(params), globals_ or {}, _array_params(func))
    values.aliases = visitor.aliases
    try:
        values.run(func.body)
        flows_out: Optional[FrozenSet[str]] = frozenset(values.written)
    except RecursionError:
        values.nonlinear = set(params)
        flows_out = None
    loaded_first = {w.param for w in visitor.intra}
    rewritten_first = frozenset(p for p in visitor.stores if p in visitor.reads and p not in loaded_first)
    assigned = {n.id for n in ast.walk(func) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    forms = {path: (tuple(visitor.read_forms.get(path, ())), tuple(visitor.write_forms.get(path, ())))
             for path in set(visitor.read_forms) | set(visitor.write_forms)}
    return KernelAccess(visitor.reads, visitor.writes, visitor.intra, values.nonlinear,
                        {k: frozenset(v) for k, v in values.products.items()},
                        _used_atomics(func, set(params), first_line - 1), frozenset(visitor.stores),
                        rewritten_first, forms, frozenset(p for p in params if p not in assigned),
                        tuple(visitor.accumulated), *_thread_and_ascending(func), flows_out,
                        {k: tuple(v) for k, v in visitor.late_reads.items()}, _thread_offsets(func, set(params)),
                        {k: tuple(v) for k, v in visitor.early_writes.items()},
                        {k: tuple(v) for k, v in visitor.write_lines.items()})


def _thread_offsets(func: ast.FunctionDef, params: Set[str]) -> Dict[str, Optional[str]]:
    """``i = wp.tid()`` -> {"i": None}; ``f = first + wp.tid()`` (either order) -> {"f": "first"}; names
    bound once only (see ``KernelAccess.thread_offsets``)."""
    out: Dict[str, Optional[str]] = {}
    once = _bound_once(func)

    def is_tid(node) -> bool:
        return isinstance(node, ast.Call) and callee(node.func) == "tid" and not node.args

    for node in ast.walk(func):
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)):
            continue
        name, value = node.targets[0].id, node.value
        if name not in once:
            continue
        if is_tid(value):
            out[name] = None
        elif isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add):
            for tid, other in ((value.left, value.right), (value.right, value.left)):
                if is_tid(tid) and isinstance(other, ast.Name) and other.id in params:
                    out[name] = other.id
    return out


def _thread_and_ascending(func: ast.FunctionDef) -> Tuple[FrozenSet[str], FrozenSet[str]]:
    """Names bound by ``wp.tid()``, and the targets of ascending ``range`` loops (one step ``+k``,
    ``k > 0``), each bound nowhere else in the body."""
    thread, loops = set(), set()
    for node in ast.walk(func):
        if isinstance(node, ast.For) and isinstance(node.target, ast.Name) and _ascending_range(node.iter):
            loops.add(node.target.id)
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and \
                callee(node.value.func) == "tid":
            for name in ast.walk(node.targets[0]):
                if isinstance(name, ast.Name):
                    thread.add(name.id)
    once = _bound_once(func)
    return frozenset(thread & once), frozenset(loops & once)


def _bound_once(func: ast.FunctionDef) -> Set[str]:
    """Names stored exactly once in the body (by an assignment or as a ``for`` target)."""
    bound: Dict[str, int] = {}
    for node in ast.walk(func):
        targets: list = []
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        elif isinstance(node, ast.For):
            targets = [node.target]
        for target in targets:
            for name in ast.walk(target):
                if isinstance(name, ast.Name) and isinstance(name.ctx, ast.Store):
                    bound[name.id] = bound.get(name.id, 0) + 1
    return {name for name, n in bound.items() if n == 1}


def _ascending_range(expr: ast.expr) -> bool:
    if not (isinstance(expr, ast.Call) and callee(expr.func) == "range") or not 1 <= len(expr.args) <= 3:
        return False
    if len(expr.args) < 3:
        return True
    step = expr.args[2]
    return isinstance(step, ast.Constant) and type(step.value) is int and step.value > 0


# -- which elements an access touches -------------------------------------------
def index_form(node: ast.AST, windows: Optional[Dict[str, Tuple[int, int]]] = None) -> Optional[tuple]:
    """The index of a subscript access as a tuple of affine terms (see ``KernelAccess.index_forms``);
    ``windows``: loop variables with compile-time bounds (``_windows``)."""
    if not isinstance(node, ast.Subscript):
        return None
    slices: list = []
    while isinstance(node, ast.Subscript):
        part = node.slice
        slices[:0] = list(part.elts) if isinstance(part, ast.Tuple) else [part]
        node = node.value
    return tuple(_affine(e, windows or {}) for e in slices)


# A term is ``(name, offset)``: the value of ``name`` (None: zero) plus an offset, an int or, where a loop
# variable of fixed bounds is added (``x[k - 1 - s]`` for ``s`` in ``range(6)``), the range ``(lo, hi)``
# of offsets it spans.
def _affine(expr: ast.expr, windows: Dict[str, Tuple[int, int]]) -> Optional[Tuple[Optional[str], Any]]:
    if isinstance(expr, ast.Constant) and type(expr.value) is int:
        return None, expr.value
    if isinstance(expr, ast.Name):
        return (None, windows[expr.id]) if expr.id in windows else (expr.id, 0)
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Mult):
        # ``2 * day``: a strided index, named "day*2" (no launch value or thread range is known for it;
        # ``_written_ahead`` reads its base and stride).
        for name, k in ((expr.left, expr.right), (expr.right, expr.left)):
            if isinstance(name, ast.Name) and name.id not in windows and isinstance(k, ast.Constant) \
                    and type(k.value) is int and k.value >= 1:
                return (name.id if k.value == 1 else "%s*%d" % (name.id, k.value)), 0
        return None
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.Add, ast.Sub)):
        left, right = _affine(expr.left, windows), _affine(expr.right, windows)
        if left is None or right is None or (left[0] is not None and right[0] is not None):
            return None
        sign = 1 if isinstance(expr.op, ast.Add) else -1
        if right[0] is not None and sign < 0:
            return None  # c - name: not a shift of name
        return (left[0] or right[0]), _shift(left[1], right[1], sign)
    return None


def _shift(a, b, sign: int):
    if isinstance(a, int) and isinstance(b, int):
        return a + sign * b
    (alo, ahi), (blo, bhi) = _interval(a), _interval(b)
    return (alo + blo, ahi + bhi) if sign > 0 else (alo - bhi, ahi - blo)


def _interval(offset) -> Tuple[int, int]:
    return (offset, offset) if isinstance(offset, int) else offset


def _disjoint(a, b) -> bool:
    """Two offsets (ints or ranges) that share no value."""
    (alo, ahi), (blo, bhi) = _interval(a), _interval(b)
    return ahi < blo or bhi < alo


def _windows(func: ast.FunctionDef, globals_: dict) -> Dict[str, Tuple[int, int]]:
    """Loop variables of ``range`` loops with compile-time bounds and a positive step, bound nowhere
    else: ``s`` of ``for s in range(6)`` spans 0..5."""
    spans: Dict[str, Tuple[int, int]] = {}
    for node in ast.walk(func):
        if isinstance(node, ast.For) and isinstance(node.target, ast.Name):
            span = _range_span(node.iter, globals_)
            if span is not None:
                spans[node.target.id] = span
    once = _bound_once(func)
    return {name: span for name, span in spans.items() if name in once}


def _range_span(expr: ast.expr, globals_: dict) -> Optional[Tuple[int, int]]:
    if not (isinstance(expr, ast.Call) and callee(expr.func) == "range") or not 1 <= len(expr.args) <= 3 \
            or expr.keywords:
        return None
    values = []
    for arg in expr.args:
        if isinstance(arg, ast.Constant) and type(arg.value) is int:
            values.append(arg.value)
        elif isinstance(arg, ast.UnaryOp) and isinstance(arg.op, ast.USub) and \
                isinstance(arg.operand, ast.Constant) and type(arg.operand.value) is int:
            values.append(-arg.operand.value)
        else:
            number = _global_number(arg, globals_)
            if number is None or number != int(number):
                return None
            values.append(int(number))
    start, stop = (0, values[0]) if len(values) == 1 else (values[0], values[1])
    if len(values) == 3 and values[2] <= 0:
        return None
    return (start, stop - 1) if stop > start else None


def _apart(read: Optional[tuple], write: Optional[tuple], uniform: FrozenSet[str]) -> bool:
    """Some index differs by a constant between two accesses, over a value every thread shares."""
    if read is None or write is None:
        return False
    for r, w in zip(read, write):
        if r is not None and w is not None and r[0] == w[0] and (r[0] is None or r[0] in uniform) \
                and _disjoint(r[1], w[1]):
            return True
    return False


def _written_ahead(read: Optional[tuple], write: Optional[tuple], thread: FrozenSet[str],
                   uniform: FrozenSet[str], ascending: FrozenSet[str]) -> bool:
    """One thread's own elements, stored ahead of where it reads in an ascending loop (reads
    ``x[i, s]``, stores ``x[i, s + 1]``): every element is stored before the iteration that reads it,
    so none is read and then overwritten.  Every other index is the same thread index, uniform
    scalar or constant in both, and at least one is a thread index."""
    if read is None or write is None or len(read) != len(write):
        return False
    ahead = own = False
    for r, w in zip(read, write):
        if r is None or w is None:
            return False
        # A positive stride keeps the order: ``x[2 * s + 2]`` is read only by a later iteration's ``x[2 * s]``.
        if r[0] is not None and r[0] == w[0] and r[0].split("*", 1)[0] in ascending:
            if not (isinstance(r[1], int) and isinstance(w[1], int)) or w[1] <= r[1]:
                return False
            ahead = True
        elif r != w or (r[0] is not None and r[0] not in thread and r[0] not in uniform):
            return False
        elif r[0] in thread:
            own = True
    return ahead and own


def _same_thread(read: Optional[tuple], write: Optional[tuple], thread: FrozenSet[str]) -> bool:
    """Both index one thread's own elements (the same thread index, with the same offset, at some
    position): a write that precedes every read in the thread cannot overwrite what another read."""
    if read is None or write is None or len(read) != len(write):
        return False
    return any(r is not None and r == w and r[0] in thread for r, w in zip(read, write))


def launch_elements(access: KernelAccess, path: str, write: bool, values: Dict[str, Any],
                    threads: Optional[int] = None) -> Optional[list]:
    """The elements a launch reads (or writes) of ``path``, as index patterns with ints where the
    index is a uniform scalar known from the launch's arguments (``values``), ranges where it is the
    thread index of a 1-D launch of ``threads`` threads (plus a known scalar: ``first + wp.tid()``),
    and None elsewhere; None when some access of it is not followed or has no known index
    (``patterns_apart`` could only say False then)."""
    forms = access.index_forms.get(path)
    if not forms:
        return None
    out = []
    for form in forms[1 if write else 0]:
        if form is None:
            return None
        pattern = []
        for term in form:
            value = None
            if term is not None and (term[0] is None or term[0] in access.uniform):
                base = 0 if term[0] is None else _as_int(values.get(term[0]))
                if base is not None:
                    value = _shift(base, term[1], 1)
            elif term is not None and threads and term[0] in access.thread_offsets:
                start = access.thread_offsets[term[0]]
                base = 0 if start is None else (_as_int(values.get(start)) if start in access.uniform else None)
                if base is not None:
                    value = _shift((base, base + threads - 1), term[1], 1)
            pattern.append(value)
        if all(v is None for v in pattern):
            return None  # an access at no known index (``x[tid]``) can touch any element: nothing is apart
        out.append(tuple(pattern))
    return out


def _as_int(value) -> Optional[int]:
    """A launch's integer argument: a Python or NumPy integer, or a Warp scalar holding one."""
    if isinstance(value, bool) or isinstance(value, float):
        return None
    try:
        return operator.index(value)
    except TypeError:
        inner = getattr(value, "value", None)
        return inner if isinstance(inner, int) and not isinstance(inner, bool) else None


def patterns_apart(a: list, b: list) -> bool:
    """No element matches both: every pair differs at some index both know (an int, or a range of them)."""
    return all(any(x is not None and y is not None and _disjoint(x, y) for x, y in zip(p, q)) for p in a for q in b)


def _atomic_index(call: ast.Call) -> Optional[tuple]:
    """``wp.atomic_add(x, i, j, v)``'s index as an index form, ``(("i", 0), ("j", 0))``; None when
    it is not all positional (an index given as a vector, keywords)."""
    if call.keywords or len(call.args) < 3 or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    return tuple(_affine(e, {}) for e in call.args[1:-1])


def _used_atomics(func: ast.FunctionDef, params: Set[str], offset: int) -> List[AtomicUse]:
    """Atomic operations whose return value the code uses (not a bare statement)."""
    discarded = {id(n.value) for n in ast.walk(func) if isinstance(n, ast.Expr)}
    out = []
    for node in ast.walk(func):
        if isinstance(node, ast.Call) and callee(node.func) in ATOMICS and id(node) not in discarded:
            target = param_path(node.args[0], params) if node.args else None
            out.append(AtomicUse(node.lineno + offset, node.col_offset + 1, callee(node.func), target))
    return out


class _AccessVisitor(ast.NodeVisitor):
    def __init__(self, params: Set[str], line_offset: int, globals_: dict):
        self.params = params
        self.offset = line_offset
        self.globals = globals_
        self.reads: Set[str] = set()
        self.writes: Set[str] = set()
        self.intra: List[IntraKernelWrite] = []
        self.accumulated: List[IntraKernelWrite] = []
        self.stores: Set[str] = set()
        self._first_read: Dict[str, int] = {}
        self.read_forms: Dict[str, List[Optional[tuple]]] = {}
        self.write_forms: Dict[str, List[Optional[tuple]]] = {}
        self.windows: Dict[str, Tuple[int, int]] = {}  # loop variables of fixed bounds (``_windows``)
        # ``local = State(state_out.x, state_out.v)``: ``local.x`` is ``state_out.x`` (a struct value holds
        # the same arrays): local field path -> parameter path
        self.aliases: Dict[str, str] = {}
        self._loops = 0  # loops around the statement being visited
        self.late_reads: Dict[str, List[Optional[tuple]]] = {}  # read forms after the thread wrote the path
        self.early_writes: Dict[str, List[Optional[tuple]]] = {}  # write forms before any read of the path
        self.write_lines: Dict[str, List[Optional[int]]] = {}  # the line of each write form

    def visit_For(self, node: ast.For) -> None:
        self._loops += 1
        try:
            self.generic_visit(node)
        finally:
            self._loops -= 1

    def visit_While(self, node: ast.While) -> None:
        self._loops += 1
        try:
            self.generic_visit(node)
        finally:
            self._loops -= 1

    def _path(self, node: ast.expr) -> Optional[str]:
        """The parameter path an expression indexes into, through struct values built from parameters."""
        return _aliased_path(node, self.params, self.aliases)

    def _struct_alias(self, node: ast.Assign) -> bool:
        """``local = State(state_out.x, ...)``: remember which parameter arrays its fields are; the arrays
        passed are neither read nor written by the construction.  True when ``node`` was one."""
        if len(node.targets) != 1 or not isinstance(node.targets[0], ast.Name) or \
                not isinstance(node.value, ast.Call):
            return False
        fields = _struct_fields(node.value.func, self.globals)
        if fields is None:
            return False
        local = node.targets[0].id
        given = list(zip(fields, node.value.args)) + [(k.arg, k.value) for k in node.value.keywords if k.arg]
        for field, arg in given:
            path = self._path(arg)
            if path is not None and not isinstance(arg, ast.Subscript):
                self.aliases["%s.%s" % (local, field)] = path
            else:
                self.visit(arg)
        return True

    # -- reads -------------------------------------------------------------
    def visit_Subscript(self, node: ast.Subscript) -> None:
        name = self._path(node.value)
        if name is not None:
            if isinstance(node.ctx, ast.Load):
                self._read(name, node)
            else:
                self._write(name, node)
        else:
            self.visit(node.value)
        self.visit(node.slice)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if node.attr in METADATA_ATTRS and self._path(node.value):
            return  # x.shape[0] reads no data
        name = self._path(node)
        if name is not None and isinstance(node.ctx, ast.Load) and "." in name:
            # A struct field used whole (passed to a function, aliased): conservatively a read.
            self._read(name, node)
            return
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        target = node.target
        if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Subscript):
            target = target.value  # x[i].y += v: a component of an element
        if isinstance(target, ast.Subscript):
            name = self._path(target.value)
            if name is not None:
                self.visit(target.slice)
                self.visit(node.value)
                if isinstance(node.op, (ast.Add, ast.Sub)):
                    # ``x[i] += v`` accumulates: Warp treats it as a write only, and its
                    # adjoint does not need the old value.
                    self._accumulate(name, target, _op_text(node.op), node)
                else:
                    # ``x[i] *= s`` reads the old value: the adjoint of ``s`` needs it.
                    self._read(name, target, in_place=True)
                    self._write(name, target, op=_op_text(node.op),
                                constant_factor=_compile_time_number(node.value, self.globals))
                return
        self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign) -> None:
        if self._struct_alias(node):
            return
        # Right-hand side first: its reads happen before the store.
        self.visit(node.value)
        for target in node.targets:
            if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Subscript):
                # ``y[i].x = v`` stores a component: a write to y, not a read.
                name = self._path(target.value.value)
                if name is not None:
                    self._write(name, target)
                    self.visit(target.value.slice)
                    continue
            self.visit(target)

    def visit_Call(self, node: ast.Call) -> None:
        fname = callee(node.func)
        if fname in METADATA_CALLS:
            return
        if fname in WRITERS and node.args:
            name = self._path(node.args[0])
            if name is not None:
                # Its index and value are evaluated (read) before it writes.
                for arg in node.args[1:]:
                    self.visit(arg)
                for kw in node.keywords:
                    self.visit(kw.value)
                self._accumulate(name, _atomic_index(node), fname, node)
                return
        target = self._user_function(node.func)
        for index, arg in enumerate(node.args):
            name = self._path(arg)
            if name is None:
                self.visit(arg)
                continue
            # An array passed to a @wp.func: follow it into the function.
            access = target.get(index) if target is not None else None
            if access is None:
                self._read(name, arg)
            elif access == "wr" and not isinstance(arg, ast.Subscript):
                self._accumulate(name, None, "a call of `%s`" % callee(node.func), node)
                self._read(name, arg)
            else:
                if "r" in access or isinstance(arg, ast.Subscript):
                    self._read(name, arg)
                if "w" in access and not isinstance(arg, ast.Subscript):
                    # (an element, ``light[0]``, is passed by value: the function writes its copy)
                    self._accumulate(name, None, "a call of `%s`" % callee(node.func), node)
        for kw in node.keywords:
            self.visit(kw.value)
        self.visit(node.func)

    def visit_Name(self, node: ast.Name) -> None:
        if node.id in self.params and isinstance(node.ctx, ast.Load):
            # Aliased (``a = x``) or passed somewhere we can't follow.
            self._read(node.id, node)

    # -- helpers -----------------------------------------------------------
    def _read(self, name: str, node: Any, in_place: bool = False) -> None:
        self.reads.add(name)
        self._first_read.setdefault(name, node.lineno + self.offset)
        form = index_form(node, self.windows)
        self.read_forms.setdefault(name, []).append(form)
        # An in-place update's own read is never late: it overwrites what it read (``x[i] = a`` then
        # ``x[i] *= s``: the factor's adjoint needs ``a``, gone).
        if name in self.writes and not self._loops and not in_place:
            # Read after this thread wrote it (``x[t + 1] = f(x[t])`` then ``y = x[t + 1]``), outside any loop: it
            # reads the new value, which the kernel's own adjoint reads too.  Within the kernel only the reads
            # before a write can see it changed (another launch's later write still can: ``read_forms`` keep it).
            self.late_reads.setdefault(name, []).append(form)

    def _accumulate(self, name: str, node, op: Optional[str] = None, statement: Any = None) -> None:
        """A write that reads no old value (``+=``, an atomic, a ``@wp.func`` that writes it);
        ``node`` is the subscript written, or the atomic's index as a tuple (``_atomic_index``)."""
        self.writes.add(name)
        # A read of the thread's own earlier write is safe only while nothing writes the path again: this
        # write overwrites what it read (``y[i] = a`` then ``y[i] = y[i] * f``), so those reads count again.
        self.late_reads.pop(name, None)
        form = node if isinstance(node, tuple) else index_form(node, self.windows)
        self.write_forms.setdefault(name, []).append(form)
        where = statement if statement is not None else node
        line = getattr(where, "lineno", None)
        self.write_lines.setdefault(name, []).append(None if line is None else line + self.offset)
        if name not in self._first_read and not self._loops:
            self.early_writes.setdefault(name, []).append(form)
        if op is not None and statement is not None and name in self._first_read:
            self.accumulated.append(IntraKernelWrite(name, statement.lineno + self.offset,
                                                     statement.col_offset + 1, self._first_read[name], op))

    def _write(self, name: str, node: Any, op: str = "=", constant_factor: bool = False) -> None:
        self._accumulate(name, node)
        if op == "=":
            self.stores.add(name)
        if name in self._first_read:
            self.intra.append(IntraKernelWrite(name, node.lineno + self.offset, node.col_offset + 1,
                                               self._first_read[name], op, constant_factor))

    def _user_function(self, func: ast.expr) -> Optional[Dict[int, str]]:
        """Per-argument access ('r', 'w', 'rw') of a user ``@wp.func``, if resolvable."""
        target = self.globals.get(func.id) if isinstance(func, ast.Name) else None
        source = warp_seams.kernel_source(target) if target is not None else None
        if target is None or not source or getattr(target, "func", None) is None:
            return None
        code = target.func.__code__
        fdef = parse_def(source)
        access = EMPTY if fdef is None else _analyze_def(fdef, code.co_firstlineno,
                                                          getattr(target.func, "__globals__", {}))
        params = code.co_varnames[: code.co_argcount]
        arrays = _array_params(fdef) if fdef is not None else set(params)
        out = {}
        for i, p in enumerate(params):
            # A value parameter (``l: wp.vec3``) is the function's own copy: storing into it writes nothing
            # of the caller's.
            writes = p in access.writes and (p in arrays or not _annotated(fdef, p))
            reads = p in access.reads
            # Stored before the function reads it (``scratch[i] = x; return scratch[i] * 2.0``): at the
            # call, the write comes first, and a read after a write is fine (Warp's rule).
            written_first = p in access.rewritten_first
            out[i] = "wr" if reads and writes and written_first else ("r" if reads else "") + ("w" if writes else "")
        return out


class _ValueFlow:
    """Which parameters' values the adjoint needs (a conservative taint analysis).

    A value derived from parameter ``x`` is used *linearly* when it is only
    added, subtracted, negated, stored, accumulated, put into vectors or
    scaled by values that do not come from arrays; then the adjoint never
    reads ``x``.  A product with another array's values makes that array's
    adjoint read ``x`` (``products``); anything else (a nonlinear function, a
    branch, an index, a division by it) makes ``x`` needed (``nonlinear``).
    """

    def __init__(self, params: Set[str], globals_: dict, arrays: AbstractSet[str] = frozenset()):
        self.params = params
        self.arrays = set(arrays)  # parameters annotated as arrays: used whole (tile_load(x)), still values
        self.globals = globals_
        self.taint: Dict[str, Set[str]] = {}  # local name -> parameter paths its value depends on
        self.nonlinear: Set[str] = set()
        self.products: Dict[str, Set[str]] = {}
        self.written: Set[str] = set()  # parameter paths whose values reach a write (see ``flows_out``)
        self.aliases: Dict[str, str] = {}  # struct values built from parameters (``_AccessVisitor.aliases``)

    def _path(self, node: ast.expr) -> Optional[str]:
        return _aliased_path(node, self.params, self.aliases)

    def run(self, body) -> None:
        # Twice: a loop can carry a value from a later statement to an earlier one.
        for _ in range(2):
            for stmt in body:
                self.stmt(stmt)

    # -- statements --------------------------------------------------------
    def stmt(self, node) -> None:
        if isinstance(node, ast.Assign):
            deps = self.expr(node.value)
            for target in node.targets:
                self.assign(target, deps)
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            self.assign(node.target, self.expr(node.value))
        elif isinstance(node, ast.AugAssign):
            value = self.expr(node.value)
            old = self.target_deps(node.target)
            if not isinstance(node.op, (ast.Add, ast.Sub)):
                self.product(old, value, node.op)
            self.assign(node.target, value | old, augment=True)
        elif isinstance(node, (ast.If, ast.While)):
            self.need(self.expr(node.test))
            for s in node.body + node.orelse:
                self.stmt(s)
        elif isinstance(node, ast.For):
            self.need(self.expr(node.iter))
            for s in node.body + node.orelse:
                self.stmt(s)
        elif isinstance(node, ast.Expr):
            self.expr(node.value)
        elif isinstance(node, ast.Return) and node.value is not None:
            self.expr(node.value)
        elif isinstance(node, (ast.With,)):
            for s in node.body:
                self.stmt(s)
        else:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.expr):
                    self.need(self.expr(child))
                elif isinstance(child, ast.stmt):
                    self.stmt(child)

    def assign(self, target, deps: Set[str], augment: bool = False) -> None:
        if isinstance(target, ast.Name):
            if augment:
                self.taint[target.id] = self.taint.get(target.id, set()) | deps
            else:
                self.taint[target.id] = set(deps)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for elt in target.elts:
                self.assign(elt, deps, augment)
        elif isinstance(target, ast.Subscript):
            self.need(self.expr(target.slice))
            root = _root_name(target.value)
            if root is not None and root not in self.params:
                self.taint[root] = self.taint.get(root, set()) | deps  # a component of a local vector
            elif root is not None:
                self.written |= deps  # an element of an array parameter
        elif isinstance(target, ast.Attribute):
            root = _root_name(target)
            if root is not None and root not in self.params:
                self.taint[root] = self.taint.get(root, set()) | deps
            elif root is not None:
                self.written |= deps

    def target_deps(self, target) -> Set[str]:
        if isinstance(target, ast.Name):
            return set(self.taint.get(target.id, set()))
        if isinstance(target, ast.Subscript):
            path = self._path(target.value)
            if path is not None:
                self.need(self.expr(target.slice))
                return {path}
        return self.expr(target)

    # -- expressions: the parameter paths a value depends on ----------------
    def expr(self, node) -> Set[str]:
        if node is None:
            return set()
        if isinstance(node, ast.Constant):
            return set()
        if isinstance(node, ast.Name):
            if node.id in self.arrays:
                return {node.id}  # an array passed whole (to tile_load, a @wp.func...)
            if node.id in self.params:
                return set()  # a scalar parameter
            return set(self.taint.get(node.id, set()))
        if isinstance(node, ast.Subscript):
            self.need(self.expr(node.slice))  # an index is a branch on values
            path = self._path(node.value)
            if path is not None:
                return {path}
            return self.expr(node.value)  # a component of a local vector
        if isinstance(node, ast.Attribute):
            if node.attr in METADATA_ATTRS:
                return set()
            path = self._path(node)
            if path is not None:
                return set()  # a struct's scalar field, or an array used whole (the access visitor reads it)
            return self.expr(node.value)  # v.x of a local vector
        if isinstance(node, ast.UnaryOp):
            deps = self.expr(node.operand)
            if not isinstance(node.op, (ast.USub, ast.UAdd)):
                self.need(deps)
            return deps
        if isinstance(node, ast.BinOp):
            left, right = self.expr(node.left), self.expr(node.right)
            if isinstance(node.op, (ast.Add, ast.Sub)):
                return left | right
            if isinstance(node.op, (ast.Mult, ast.MatMult)):
                self.product(left, right, node.op)
                return left | right
            if isinstance(node.op, ast.Div):
                self.product(left, right, node.op)
                self.need(right)  # d(a/b)/db needs b
                return left | right
            self.need(left | right)  # pow, mod, floor division, bit operations
            return left | right
        if isinstance(node, ast.BoolOp):
            deps = set()
            for v in node.values:
                deps |= self.expr(v)
            self.need(deps)
            return deps
        if isinstance(node, ast.Compare):
            deps = self.expr(node.left)
            for c in node.comparators:
                deps |= self.expr(c)
            self.need(deps)
            return set()
        if isinstance(node, ast.IfExp):
            self.need(self.expr(node.test))
            return self.expr(node.body) | self.expr(node.orelse)
        if isinstance(node, (ast.Tuple, ast.List)):
            deps = set()
            for elt in node.elts:
                deps |= self.expr(elt)
            return deps
        if isinstance(node, ast.Call):
            return self.call(node)
        deps = set()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                deps |= self.expr(child)
        self.need(deps)
        return deps

    def call(self, node: ast.Call) -> Set[str]:
        name = callee(node.func)
        if name in METADATA_CALLS:
            return set()
        if name in ATOMICS and node.args:
            # atomic_add(arr, index..., value): the value is accumulated (linear); the rest index.
            for arg in node.args[1:-1]:
                self.need(self.expr(arg))
            value = self.expr(node.args[-1]) if len(node.args) > 1 else set()
            if name not in ACCUMULATING_ATOMICS:
                self.need(value)  # min/max/exchange select by value
            self.written |= value
            return set()
        args = [self.expr(a) for a in node.args] + [self.expr(k.value) for k in node.keywords]
        deps = set().union(*args) if args else set()
        # Arrays passed whole (``f(x)``, ``f(state.q)``): the call reads them, and may write them
        # (``tile_store``, a ``@wp.func`` that assigns an element).
        whole = {path for path in (self._path(a) for a in node.args
                                   if isinstance(a, (ast.Name, ast.Attribute))) if path is not None}
        if whole:
            self.written |= deps | whole
        if name in LINEAR_CALLS:
            return deps
        if name in BILINEAR_CALLS and len(args) >= 2:
            self.product(args[0], set().union(*args[1:]), ast.Mult())
            return deps
        if name == "where" or name == "select":
            if args:
                self.need(args[0])
            return deps
        self.need(deps)  # sin, sqrt, length, min, clamp, a @wp.func...
        return deps

    def product(self, left: Set[str], right: Set[str], op) -> None:
        for a in left:
            if right:
                self.products.setdefault(a, set()).update(right - {a})
                if a in right:
                    self.nonlinear.add(a)  # x * x
        if not isinstance(op, ast.Div):
            for b in right:
                if left:
                    self.products.setdefault(b, set()).update(left - {b})

    def need(self, deps: Set[str]) -> None:
        self.nonlinear |= deps


def _annotated(func, name: str) -> bool:
    return any(a.arg == name and a.annotation is not None for a in getattr(getattr(func, "args", None), "args", ()))


def _array_params(func: ast.FunctionDef) -> Set[str]:
    """Parameters annotated as arrays (``wp.array(...)``, ``wp.array2d[...]``, ``indexedarray``...)."""
    out = set()
    for a in func.args.args:
        text = ast.unparse(a.annotation) if a.annotation is not None else ""
        if "array" in text:
            out.add(a.arg)
    return out


def param_path(node: ast.expr, params: Set[str]) -> Optional[str]:
    """The parameter path an expression indexes into: ``x`` in ``x[i][j]``, ``s.q`` in ``s.q[i]``."""
    while isinstance(node, ast.Subscript):
        node = node.value
    attrs: List[str] = []
    while isinstance(node, ast.Attribute):
        attrs.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name) and node.id in params:
        return ".".join([node.id] + attrs[::-1])
    return None


def _aliased_path(node: ast.expr, params: Set[str], aliases: Dict[str, str]) -> Optional[str]:
    """``param_path``, and through a local struct value built from parameter arrays (``aliases``)."""
    found = param_path(node, params)
    if found is not None or not aliases:
        return found
    local = _local_path(node)
    if local is None:
        return None
    for key, path in aliases.items():
        if local == key or local.startswith(key + "."):
            return path + local[len(key):]
    return None


def _local_path(node: ast.expr) -> Optional[str]:
    """``s.x`` for ``s.x[i]`` on a local ``s`` (no parameter check)."""
    while isinstance(node, ast.Subscript):
        node = node.value
    attrs: List[str] = []
    while isinstance(node, ast.Attribute):
        attrs.append(node.attr)
        node = node.value
    return ".".join([node.id] + attrs[::-1]) if isinstance(node, ast.Name) else None


def _struct_fields(func: ast.expr, globals_: dict) -> Optional[List[str]]:
    """The field names, in order, when ``func`` names a ``@wp.struct`` (its constructor)."""
    obj: Any = None
    parts = (_local_path(func) or "").split(".")
    if parts and parts[0]:
        obj = globals_.get(parts[0])
        for part in parts[1:]:
            obj = getattr(obj, part, None)
    fields = getattr(obj, "vars", None)
    if isinstance(fields, dict) and fields and hasattr(obj, "cls"):
        return list(fields)
    return None


def _root_name(node) -> Optional[str]:
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _op_text(op) -> str:
    return {ast.Mult: "*=", ast.Div: "/=", ast.FloorDiv: "//=", ast.Pow: "**=", ast.Mod: "%=", ast.Add: "+=",
            ast.Sub: "-="}.get(type(op), "op=")


_cache: Dict[int, tuple] = {}


def kernel_access(kernel) -> KernelAccess:
    """Access sets of a ``wp.Kernel`` (or ``@wp.func``), cached per object."""
    key = id(kernel)
    hit = _cache.get(key)
    if hit is not None and hit[0] is kernel:
        return hit[1]
    result = EMPTY
    func = getattr(kernel, "func", None)
    source = warp_seams.kernel_source(kernel)
    if func is not None and source:
        try:
            result = analyze_source(source, func.__code__.co_firstlineno, getattr(func, "__globals__", {}))
        except RecursionError:
            result = EMPTY
    _cache[key] = (kernel, result)
    return result


def call_argument_sources(kernel, func_name: str, count: int) -> list:
    """Where each argument of the kernel's first call to ``func_name`` comes from.

    Per argument: ``("array", position)`` when its value depends on an array
    parameter (the first such), ``("param", position)`` for a bare scalar
    parameter, ``("constant", value)`` for a number, else None.
    """
    parsed = _kernel_flow(kernel)
    if parsed is None:
        return [None] * count
    fdef, params, flow = parsed
    func = kernel.func
    call = next((node for node in ast.walk(fdef) if isinstance(node, ast.Call) and callee(node.func) == func_name),
                None)
    if call is None:
        return [None] * count
    out = []
    for arg in call.args[:count]:
        deps = flow.expr(arg)
        if deps:
            root = sorted(deps)[0].split(".")[0]
            out.append(("array", params.index(root)) if root in params else None)
        elif isinstance(arg, ast.Name) and arg.id in params:
            out.append(("param", params.index(arg.id)))
        elif isinstance(arg, ast.Constant) and isinstance(arg.value, (int, float)):
            out.append(("constant", float(arg.value)))
        elif isinstance(arg, ast.UnaryOp) and isinstance(arg.op, ast.USub) and isinstance(arg.operand, ast.Constant) \
                and isinstance(arg.operand.value, (int, float)):
            out.append(("constant", -float(arg.operand.value)))
        else:
            number = _global_number(arg, getattr(func, "__globals__", {}) or {})
            out.append(("constant", number) if number is not None else None)
    return out + [None] * (count - len(out))


def _compile_time_number(expr: ast.expr, globals_: dict) -> bool:
    """An expression of literals and module-level numbers (``0.01``, ``1.0 / SCALE``, ``-wp.pi``)."""
    if isinstance(expr, ast.Constant):
        return isinstance(expr.value, (int, float)) and not isinstance(expr.value, bool)
    if isinstance(expr, ast.UnaryOp):
        return _compile_time_number(expr.operand, globals_)
    if isinstance(expr, ast.BinOp):
        return _compile_time_number(expr.left, globals_) and _compile_time_number(expr.right, globals_)
    if isinstance(expr, ast.Call) and callee(expr.func) in ("float", "float32", "float64", "int") and \
            len(expr.args) == 1 and not expr.keywords:
        return _compile_time_number(expr.args[0], globals_)
    return isinstance(expr, (ast.Name, ast.Attribute)) and _global_number(expr, globals_) is not None


def _global_number(expr: ast.expr, globals_: dict) -> Optional[float]:
    """The value of a module-level number the kernel names (``DELTA``, ``cfg.DELTA``, a ``wp.constant``):
    fixed when the kernel is compiled, so no gradient flows into it."""
    value = resolve(expr, [globals_])
    value = getattr(value, "val", value)  # wp.constant(...) of older Warp wraps the value
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        try:
            import numpy as np  # noqa: PLC0415

            if isinstance(value, np.number) and not isinstance(value, np.bool_):
                return float(value)
        except ImportError:
            pass
        return None
    return float(value)


def nested_argument_arrays(kernel, func_name: str, count: int) -> List[Optional[Set[int]]]:
    """For a ``func_name`` the kernel reaches through one ``@wp.func`` of its own (the kernel calls
    ``reflectance(p[0], p[1], lam[k])``, which calls ``film_cos(n, d, lam)``): per argument of that inner
    call, the positions of the kernel's array parameters its value depends on (an empty set: only numbers
    and scalar parameters, which carry no gradient); None where it cannot be told.  Where the kernel calls
    ``func_name`` itself, or nothing can be told, every entry is None (``call_argument_sources`` says it)."""
    unknown: List[Optional[Set[int]]] = [None] * count
    parsed = _kernel_flow(kernel)
    if parsed is None:
        return unknown
    fdef, params, outer = parsed
    if any(isinstance(n, ast.Call) and callee(n.func) == func_name for n in ast.walk(fdef)):
        return unknown
    globals_ = getattr(kernel.func, "__globals__", {}) or {}
    arrays = _array_params(fdef)
    for call in (n for n in ast.walk(fdef) if isinstance(n, ast.Call)):
        inner_def = _wp_func_def(call.func, globals_)
        if inner_def is None:
            continue
        inner_params = [a.arg for a in inner_def.args.args]
        inner_call = next((n for n in ast.walk(inner_def) if isinstance(n, ast.Call) and callee(n.func) == func_name),
                          None)
        if inner_call is None or call.keywords or inner_call.keywords:
            continue
        taint = _scalar_taint(inner_def, set(inner_params))
        out: List[Optional[Set[int]]] = []
        for arg in inner_call.args[:count]:
            positions: Optional[Set[int]] = set()
            for root in _names_in(arg, taint, set(inner_params)):
                k = inner_params.index(root)
                if k >= len(call.args):
                    positions = None
                    break
                for outer_path in outer.expr(call.args[k]):
                    root = outer_path.split(".")[0]
                    if root in arrays and positions is not None:
                        positions.add(params.index(root))
            out.append(positions)
        return out + [None] * (count - len(out))
    return unknown


def _scalar_taint(fdef: ast.FunctionDef, params: Set[str]) -> Dict[str, Set[str]]:
    """Each local of a ``@wp.func`` -> the parameters its value is computed from (scalars included, which
    ``_ValueFlow`` leaves out: it follows array values)."""
    taint: Dict[str, Set[str]] = {}
    assigns = [n for n in ast.walk(fdef) if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign))]
    for _ in range(2):  # a loop can carry a value from a later statement to an earlier one
        for node in assigns:
            value = getattr(node, "value", None)
            if value is None:
                continue
            deps = _names_in(value, taint, params)
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for name in (n.id for n in ast.walk(target) if isinstance(n, ast.Name)):
                    taint[name] = taint.get(name, set()) | deps
    return taint


def _names_in(expr: ast.expr, taint: Dict[str, Set[str]], params: Set[str]) -> Set[str]:
    """The parameters ``expr``'s value depends on: those it names, and those its locals came from."""
    out: Set[str] = set()
    for node in ast.walk(expr):
        if isinstance(node, ast.Name):
            out |= {node.id} if node.id in params else taint.get(node.id, set())
    return out


def _wp_func_def(func_expr: ast.expr, globals_: dict) -> Optional[ast.FunctionDef]:
    """The definition of the ``@wp.func`` a call names, or None."""
    obj = globals_.get(func_expr.id) if isinstance(func_expr, ast.Name) else None
    source = warp_seams.kernel_source(obj) if getattr(obj, "func", None) is not None else None
    return parse_def(source) if source else None


def _kernel_flow(kernel) -> Optional[tuple]:
    """``(definition, parameter names, _ValueFlow run over its body)`` of a kernel, or None."""
    func = getattr(kernel, "func", None)
    source = warp_seams.kernel_source(kernel) if func is not None else None
    fdef = parse_def(source) if source else None
    if fdef is None:
        return None
    params = [a.arg for a in fdef.args.args]
    flow = _ValueFlow(set(params), getattr(func, "__globals__", {}) or {}, _array_params(fdef))
    # Every local's dependencies first (a call inside an ``if``, after ``r = wp.length(x[i] - x[j])`` there).
    try:
        flow.run(fdef.body)
    except RecursionError:
        return None
    return fdef, params, flow
