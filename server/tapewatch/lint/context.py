"""Everything the rules share about one file, gathered in one parse and one pass.

The module pass visits *statements* only and records file-level facts
(imports, Warp functions, structs, constants, module options, tape blocks).
Each Warp function body gets one full walk (``body.build``); host-code
expressions are walked lazily, only when a rule asks for ``host_calls``.
"""

from __future__ import annotations

import ast
import contextlib
import contextvars
import functools
import os
import stat
from typing import Dict, Iterator, List, Optional, Set, Tuple

from tapewatch.warpsrc.source import dotted
from tapewatch.warpsrc.vocabulary import VALUE_FREE_ADJOINTS

from . import body
from .exprs import Number, numeric_value, walk
from .findings import Source
from .kernels import (
    FUNC,
    KERNEL,
    WarpFunction,
    collect_struct_fields,
    decorator_kind,
    dict_entries,
    struct_array_fields,
    warp_function,
)
from .names import Names, unparse
from .vectypes import ValueType, constructed_type, user_type_from_factory, varying_components

# Attribute calls the module pass resolves (``wp.set_module_options(...)``, ``wp.kernel(f)``).
_CALLS_OF_INTEREST = frozenset({"set_module_options", "kernel", "func"})
# Statement fields holding nested statements (match cases and except handlers hold ``.body``).
_BODIES = ("body", "orelse", "handlers", "finalbody", "cases")

DEFAULT_MAX_UNROLL = 16  # warp.config.max_unroll's default in every supported release

_VALUE_FREE_ADJOINTS = frozenset("warp." + n for n in VALUE_FREE_ADJOINTS)


class OptionSite:
    """A place that sets a Warp option: ``enable_backward=False``, ``{"max_unroll": 4}``..."""

    __slots__ = ("scope", "key", "value", "start", "end", "kernel")

    def __init__(self, scope: str, key: str, value: ast.expr, start: ast.AST, end: ast.AST,
                 kernel: Optional[str] = None) -> None:
        self.scope = scope  # "kernel", "kernel-module", "module" or "global"
        self.key = key
        self.value = value
        self.start = start
        self.end = end
        self.kernel = kernel


class FileContext:
    def __init__(self, tree: ast.Module, src: Source, memo=None) -> None:
        self.tree = tree
        self.src = src
        self._memo = memo  # lint.memo.FunctionMemo of the editor's parser, if any
        self.names = Names()
        self.functions: List[WarpFunction] = []
        self.structs: Dict[str, Dict[str, ast.expr]] = {}
        self.constants: Dict[str, Number] = {}
        self.user_types: Dict[str, ValueType] = {}
        self.options: List[OptionSite] = []  # every option site, in source order
        self._diff_sites: Optional[List[ast.Call]] = None  # see the diff_sites property
        self._host_exprs: List[ast.AST] = []  # host code, statement by statement, for host_calls
        self._host_calls: Optional[List[ast.Call]] = None
        # calls that are a whole statement (``wp.launch(...)``, ``x = f(...)``,
        # ``with wp.Tape():``): almost every launch and tape, found without a walk
        self.stmt_calls: List[ast.Call] = []
        self._differentiated: Optional[List[WarpFunction]] = None
        self._kernels: Optional[Dict[str, WarpFunction]] = None
        self.withs: List[Tuple[ast.With, Optional[ast.AST]]] = []  # (with, enclosing def)
        # texts bound to ``wp.Tape()``: per enclosing def for plain names,
        # file-wide for attributes (``self.tape = wp.Tape()`` in __init__).
        self.tape_names: Dict[Optional[ast.AST], Set[str]] = {}
        self.tape_attrs: Set[str] = set()
        self._struct_arrays: Dict[str, frozenset] = {}
        self._returned: Optional[Dict[str, Tuple[ValueType, tuple]]] = None  # see returned_types
        self._collect()

    # ------------------------------------------------------------------ queries

    @property
    def path(self) -> str:
        return self.src.path

    def kernel(self, expr: Optional[ast.expr]) -> Optional[WarpFunction]:
        """The ``@wp.kernel`` in this file that ``expr`` (a launch's kernel argument) names."""
        if not isinstance(expr, ast.Name):
            return None
        if self._kernels is None:
            self._kernels = {}
            for fn in self.functions:  # the first definition wins, as for a reader of the file
                if fn.kind == KERNEL:
                    self._kernels.setdefault(fn.name, fn)
        return self._kernels.get(expr.id)

    def differentiated_functions(self) -> List[WarpFunction]:
        """Kernels and functions Warp generates an adjoint for.

        Custom adjoints/replays are adjoint code themselves, and a kernel
        compiled with ``enable_backward=False`` (its own option, its module's,
        or ``wp.config``) has no backward pass for a gradient bug to corrupt.
        """
        if self._differentiated is None:
            self._differentiated = [f for f in self.functions if f.kind in (KERNEL, FUNC) and self.backward_enabled(f)]
        return self._differentiated

    def backward_enabled(self, fn: WarpFunction) -> bool:
        # The most specific setting wins: kernel option, kernel module_options, module, global.
        for value in (fn.options.get("enable_backward"), fn.module_options.get("enable_backward"),
                      self.option("enable_backward")):
            if isinstance(value, ast.Constant) and value.value is not None and value.value in (True, False, 0, 1):
                return bool(value.value)
        return True

    @property
    def host_calls(self) -> List[ast.Call]:
        """Every call outside Warp bodies, in source order (computed on first use)."""
        if self._host_calls is None:
            found = [n for root in self._host_exprs for n in walk(root) if isinstance(n, ast.Call)]
            self._host_calls = sorted(found, key=lambda n: (n.lineno, n.col_offset))
        return self._host_calls

    def facts(self) -> tuple:
        """The file-level facts a kernel rule may read, as one comparable value (``lint.memo``)."""
        return (
            self.names.key(),
            tuple(sorted((k, repr(v)) for k, v in self.constants.items())),
            tuple(sorted((k, repr(v)) for k, v in self.user_types.items())),
            tuple(sorted((k, tuple((f, ast.dump(e)) for f, e in v.items())) for k, v in self.structs.items())),
            tuple((s.scope, s.key, ast.dump(s.value), s.kernel) for s in self.options),
            tuple(sorted((k, repr(v)) for k, v in self.returned_types.items())),
        )

    @property
    def returned_types(self) -> Dict[str, Tuple[ValueType, tuple]]:
        """``@wp.func`` name -> (the value type each of its ``return`` statements builds, the components
        the constructors give a non-constant value: ``((0, 2), (1, 2))``, or ``((),)`` for all of them).
        ``t = link(q, l)`` then gives ``t`` the components ``link``'s ``return wp.mat33(...)`` computes."""
        if self._returned is None:
            self._returned = {}
            for fn in self.functions:
                if fn.kind == FUNC:
                    found = self._returned_type(fn)
                    if found is not None:
                        self._returned.setdefault(fn.name, found)
        return self._returned

    def _returned_type(self, fn: WarpFunction) -> Optional[Tuple[ValueType, tuple]]:
        vtype: Optional[ValueType] = None
        keys: Set[tuple] = set()
        returns = [n.value for n in ast.walk(fn.node) if isinstance(n, ast.Return)]
        for value in returns:
            built = constructed_type(value, self.names, self.user_types) if isinstance(value, ast.Call) else None
            if built is None or built.constant or (vtype is not None and built != vtype):
                return None
            vtype = built
            keys.update(varying_components(value, built, self.is_constant))  # type: ignore[arg-type]
        if vtype is None or not keys:
            return None
        return vtype, tuple(sorted(keys, key=repr))

    def numeric(self, node: ast.AST) -> Optional[Number]:
        return numeric_value(node, self.names, self.constants)

    def is_constant(self, node: ast.AST) -> bool:
        return self.numeric(node) is not None

    def is_invariant(self, node: ast.AST, fn: WarpFunction) -> bool:
        """A constant, or a kernel's scalar/vector parameter: no gradient an adjoint must get right.

        Warp computes adjoints of value parameters of a kernel but never hands
        them back (only arrays have ``.grad``), so ``s * k`` needs ``s``'s value
        only for a gradient nobody reads.  A ``@wp.func`` parameter does pass
        its adjoint to the caller and is not invariant.
        """
        if isinstance(node, ast.Name) and node.id in fn.value_params:
            return True
        return self.numeric(node) is not None

    def is_linear_call(self, call: ast.Call) -> bool:
        """Calls whose adjoint never needs an argument's value (constructors, casts, atomics)."""
        if isinstance(call.func, ast.Name) and call.func.id in ("float", "int"):
            return True
        if constructed_type(call, self.names, self.user_types) is not None:
            return True
        return self.names.qualname(call.func) in _VALUE_FREE_ADJOINTS

    def struct_arrays(self, struct: str) -> frozenset:
        if struct not in self._struct_arrays:
            self._struct_arrays[struct] = struct_array_fields(self.structs.get(struct, {}), self.names)
        return self._struct_arrays[struct]

    def option(self, key: str, fn: Optional[WarpFunction] = None) -> Optional[ast.expr]:
        """The value Warp would use for a module option: the kernel's own, else the file's last."""
        if fn is not None and key in fn.module_options:
            return fn.module_options[key]
        # set_module_options is more specific than wp.config, so it wins; within
        # one scope the last assignment in the file is the one in force.
        found = {}
        for site in self.options:
            if site.key == key and site.scope in ("module", "global"):
                found[site.scope] = site.value
        return found.get("module", found.get("global"))

    def max_unroll(self, fn: Optional[WarpFunction] = None) -> int:
        node = self.option("max_unroll", fn)
        value = self.numeric(node) if node is not None else None
        return int(value) if isinstance(value, (int, float)) else DEFAULT_MAX_UNROLL

    def is_tape_expr(self, expr: ast.expr, scope: Optional[ast.AST]) -> bool:
        """``wp.Tape()``, or a name/attribute bound to one, used as a context manager."""
        if isinstance(expr, ast.Call) and self.names.is_warp(expr.func, "Tape"):
            return True
        if isinstance(expr, ast.Name):
            # A local binding in the same function, or a module-level one (a global).
            return expr.id in self.tape_names.get(scope, ()) or expr.id in self.tape_names.get(None, ())
        return isinstance(expr, ast.Attribute) and unparse(expr) in self.tape_attrs

    # ------------------------------------------------------------------ the walk

    def _collect(self) -> None:
        tree = self.tree
        # Imports first (they are at the top in practice) so decorators resolve
        # during the walk; imports found later still count for the final pass.
        for stmt in tree.body:
            if isinstance(stmt, (ast.Import, ast.ImportFrom)):
                self.names.add_import(stmt)
        self.names.finish()
        self._imported_constants(tree)
        self._module_constants(tree)

        defs: List[ast.FunctionDef] = []
        wrapped: Dict[str, str] = {}  # k = wp.kernel(f): function name -> kind
        # Statements only: everything the file-level facts need is a statement
        # (imports, defs, classes, ``with``, assignments, expression calls).
        stack: List[Tuple[ast.stmt, Optional[ast.AST]]] = [(s, None) for s in reversed(tree.body)]
        while stack:
            node, scope = stack.pop()
            kind = type(node)
            if kind is ast.FunctionDef or kind is ast.AsyncFunctionDef:
                defs.append(node)
                if any(decorator_kind(d, self.names) for d in node.decorator_list):
                    continue  # a Warp body: body.build walks it
                stack.extend((child, node) for child in reversed(node.body))
                continue
            if kind is ast.Import or kind is ast.ImportFrom:
                self.names.add_import(node)
            elif kind is ast.ClassDef:
                self._class(node)
            elif kind is ast.Assign:
                self._assign(node, scope)
                if isinstance(node.value, ast.Call):
                    self._call(node.value, wrapped)
                    self.stmt_calls.append(node.value)
            elif kind is ast.Expr or kind is ast.Return:
                if isinstance(node.value, ast.Call):
                    self._call(node.value, wrapped)
                    self.stmt_calls.append(node.value)
            elif kind is ast.With or kind is ast.AsyncWith:
                self.withs.append((node, scope))
                self.stmt_calls.extend(i.context_expr for i in node.items if isinstance(i.context_expr, ast.Call))
            if kind is not ast.ClassDef:
                self._host_exprs.extend(_own_expressions(node))
            for field in _BODIES:
                block = getattr(node, field, None)
                if block:
                    for child in reversed(block):
                        if isinstance(child, ast.excepthandler) or child.__class__.__name__ == "match_case":
                            stack.extend((c, scope) for c in reversed(child.body))
                        else:
                            stack.append((child, scope))
        self.names.finish()

        for d in defs:
            hint = wrapped.get(d.name)
            if self._memo is not None:
                key = (self.names.key(), tuple(sorted(self.structs)), hint)
                fn = self._memo.function(d, key, lambda d=d, hint=hint: warp_function(d, self.names, self.structs,
                                                                                      hint))
            else:
                fn = warp_function(d, self.names, self.structs, hint)
            if fn is not None:
                fn.builder = functools.partial(body.build, fn.node, functools.partial(self.is_invariant, fn=fn),
                                               self.is_linear_call)
                self.functions.append(fn)
                self._kernel_options(fn)
        self.functions.sort(key=lambda f: f.node.lineno)
        self.withs.sort(key=lambda w: (w[0].lineno, w[0].col_offset))
        self.options.sort(key=lambda s: (s.start.lineno, s.start.col_offset))
        self.stmt_calls.sort(key=lambda n: (n.lineno, n.col_offset))

    @property
    def diff_sites(self) -> List[ast.Call]:
        """Calls that differentiate: ``wp.Tape()``, ``.backward(...)``, ``wp.autograd.*`` (source order).

        Computed on first use (only TW305 needs it, and only when the file
        disables backward): statement-level calls first, which is where tapes
        and ``backward`` calls live in practice, else every call in host code
        (Warp bodies cannot record tapes).
        """
        if self._diff_sites is None:
            found = [n for n in self.stmt_calls if self._differentiates(n)]
            if not found:
                found = [n for n in self.host_calls if self._differentiates(n)]
            self._diff_sites = sorted(found, key=lambda n: (n.lineno, n.col_offset))
        return self._diff_sites

    @property
    def records_a_tape(self) -> bool:
        """Whether the file makes a ``wp.Tape`` or calls ``warp.autograd`` (the import aliases resolved): the
        one static answer to "does this script record a tape", by which a folder's scripts are picked
        (``cli``).  What a run really did is ``RunResult.recorded_a_tape``."""
        return any(not (isinstance(c.func, ast.Attribute) and c.func.attr == "backward") for c in self.diff_sites)

    def _differentiates(self, call: ast.Call) -> bool:
        func = call.func
        if isinstance(func, ast.Attribute):
            if func.attr == "backward":
                return True
            if func.attr != "Tape" and "autograd" not in (dotted(func.value) or ""):
                return False
        elif not (isinstance(func, ast.Name) and self.names.binds(func.id)):
            return False
        q = self.names.qualname(func) or ""
        return q == "warp.Tape" or q.startswith("warp.autograd.")

    def _imported_constants(self, tree: ast.Module) -> None:
        """``from config import SUBSTEPS``: numbers a sibling module (a file beside this one) defines at
        its top level, so a loop bound imported from it is known (Warp resolves it at code generation)."""
        folder = os.path.dirname(os.path.abspath(self.src.path)) if self.src.path else None
        if not folder:
            return
        for stmt in tree.body:
            if not isinstance(stmt, ast.ImportFrom) or not stmt.module or stmt.level > 1:
                continue
            known = _sibling_constants(os.path.join(folder, *stmt.module.split(".")) + ".py")
            for alias in stmt.names:
                if alias.name in known:
                    self.constants[alias.asname or alias.name] = known[alias.name]

    def _module_constants(self, tree: ast.Module) -> None:
        for stmt in tree.body:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
                target, value = stmt.targets[0], stmt.value
            elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
                target, value = stmt.target, stmt.value
            else:
                continue
            if not isinstance(target, ast.Name):
                continue
            number = numeric_value(value, self.names, self.constants)
            if number is not None:
                self.constants[target.id] = number
                continue
            vtype = user_type_from_factory(value, self.names)
            if vtype is not None:
                self.user_types[target.id] = vtype

    def _class(self, node: ast.ClassDef) -> None:
        if any(self.names.is_warp(d.func if isinstance(d, ast.Call) else d, "struct") for d in node.decorator_list):
            self.structs[node.name] = collect_struct_fields(node)
        for base in node.bases:  # class vec5(wp.types.vector(length=5, dtype=float)): pass
            vtype = user_type_from_factory(base, self.names)
            if vtype is not None:
                self.user_types[node.name] = vtype

    def _call(self, node: ast.Call, wrapped: Dict[str, str]) -> None:
        """A statement-level call: ``wp.set_module_options({...})``, ``k = wp.kernel(f)``."""
        func = node.func
        if isinstance(func, ast.Attribute):
            if func.attr not in _CALLS_OF_INTEREST:
                return
        elif not (isinstance(func, ast.Name) and self.names.binds(func.id)):
            return
        q = self.names.qualname(func)
        if q == "warp.set_module_options" and node.args:
            for key, value in dict_entries(node.args[0]).items():
                self._option("module", key, value, node.args[0])
        elif q in ("warp.kernel", "warp.func") and node.args and isinstance(node.args[0], ast.Name):
            wrapped[node.args[0].id] = q[5:]

    def _option(self, scope: str, key: str, value: ast.expr, container: ast.expr,
                kernel: Optional[str] = None) -> None:
        # Underline ``"key": value`` inside a dict, ``key=value`` in dict(...).
        start = value
        if isinstance(container, ast.Dict):
            for k, v in zip(container.keys, container.values):
                if v is value and k is not None:
                    start = k
        elif isinstance(container, ast.Call):
            for kw in container.keywords:
                if kw.value is value:
                    start = kw
        self.options.append(OptionSite(scope, key, value, start, value, kernel))

    def _assign(self, node: ast.Assign, scope: Optional[ast.AST]) -> None:
        value = node.value
        is_tape = isinstance(value, ast.Call) and self.names.is_warp(value.func, "Tape")
        for target in node.targets:
            if is_tape:
                if isinstance(target, ast.Name):
                    self.tape_names.setdefault(scope, set()).add(target.id)
                elif isinstance(target, ast.Attribute):
                    self.tape_attrs.add(unparse(target))
            elif isinstance(target, ast.Attribute):
                q = self.names.qualname(target.value)
                if q == "warp.config":  # wp.config.enable_backward = False
                    self.options.append(OptionSite("global", target.attr, value, node, node))

    def _kernel_options(self, fn: WarpFunction) -> None:
        dec = fn.decorator
        if not isinstance(dec, ast.Call):
            return
        for kw in dec.keywords:
            if kw.arg == "enable_backward":
                self.options.append(OptionSite("kernel", kw.arg, kw.value, kw, kw, fn.name))
            elif kw.arg == "module_options":
                for key, value in fn.module_options.items():
                    self._option("kernel-module", key, value, kw.value, fn.name)


_COMPOUND = tuple(c for c in (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try,
                               getattr(ast, "TryStar", None), getattr(ast, "Match", None)) if c is not None)


def _own_expressions(stmt: ast.stmt) -> List[ast.AST]:
    """A statement without its nested statements: itself if simple, its header if compound."""
    if not isinstance(stmt, _COMPOUND):
        return [stmt]
    out: List[ast.AST] = []
    for field in ("test", "iter", "subject", "items"):
        value = getattr(stmt, field, None)
        if isinstance(value, list):
            out.extend(value)
        elif value is not None:
            out.append(value)
    return out


def parse(source: str, path: str, parser=None) -> Optional[FileContext]:
    """The file's context, or None when it is not Python (the server reports syntax errors).

    ``parser``: a ``chunks.ChunkParser`` that keeps the chunks of the last parse (the editor's)."""
    try:
        if parser is not None:
            tree = parser.parse(source, path or "<unknown>")
        else:
            tree = ast.parse(source, filename=path or "<unknown>")
    except (SyntaxError, ValueError, TypeError, MemoryError, RecursionError):
        return None
    return FileContext(tree, Source(source, path), parser.memo if parser is not None else None)


_SIBLINGS: Dict[tuple, Dict[str, Number]] = {}  # (path, mtime, size) -> its module-level numbers
MAX_SIBLINGS = 64

# The files a lint read besides its own source, while ``recording_reads`` is active: what a kept
# lint result depends on (``lint_cache``).  ``(path, mtime_ns, size)``; ``(path, None, None)`` for a
# file looked for and missing (creating it changes the result too).
_READS: contextvars.ContextVar[Optional[list]] = contextvars.ContextVar("tapewatch_lint_reads", default=None)


@contextlib.contextmanager
def recording_reads() -> Iterator[list]:
    reads: list = []
    token = _READS.set(reads)
    try:
        yield reads
    finally:
        _READS.reset(token)


def _sibling_constants(path: str) -> Dict[str, Number]:
    """The top-level numeric constants of a Python file (none when it is missing or does not parse)."""
    reads = _READS.get()
    try:
        st = os.stat(path)
        key = (path, st.st_mtime_ns, st.st_size)
    except OSError:
        if reads is not None:
            reads.append((path, None, None))
        return {}
    if not stat.S_ISREG(st.st_mode):
        # A FIFO, a socket or a device named like a module: never opened (a FIFO would block the lint).
        if reads is not None:
            reads.append(key)
        return {}
    if reads is not None:
        reads.append(key)
    known = _SIBLINGS.get(key)
    if known is None:
        known = {}
        try:
            with open(path, encoding="utf-8") as f:
                tree = ast.parse(f.read(), path)
        except (OSError, SyntaxError, ValueError, UnicodeDecodeError, RecursionError):
            tree = None
        if tree is not None:
            names = Names()
            for stmt in tree.body:
                if isinstance(stmt, (ast.Import, ast.ImportFrom)):
                    names.add_import(stmt)
            names.finish()
            for stmt in tree.body:
                if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                    number = numeric_value(stmt.value, names, known)
                    if number is not None:
                        known[stmt.targets[0].id] = number
        if len(_SIBLINGS) >= MAX_SIBLINGS:
            _SIBLINGS.clear()
        _SIBLINGS[key] = known
    return known
