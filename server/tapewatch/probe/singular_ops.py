"""Inside a kernel whose adjoint produced NaN/Inf: which operation, at which values.

The kernel's statements are searched for operations whose derivative is
singular somewhere: ``sqrt`` and ``log`` at zero, a division by ~0,
``acos``/``asin`` at ±1, ``pow`` with a base ≤ 0, and an ``exp`` inside a
``wp.where``/``wp.select`` operand (both operands are differentiated, so an
unselected overflow still gives inf·0 = NaN).  ``wp.length`` and
``wp.normalize`` are guarded at zero by Warp and are not suspects.

To say which one fired, a copy of the kernel is generated with a counter
before each suspect statement (``if sqrt's argument <= 0: count``) and
launched forward on private copies of the launch's arguments: the counts
are measured, not guessed.  When that cannot be done, a single suspect is
named as the likely cause and several are not named at all.
"""

from __future__ import annotations

import ast
import atexit
import os
import shutil
import tempfile
import textwrap
import types
from typing import List, NamedTuple, Optional

from ..model import Location, Related
from . import warp_seams

# name -> (helper testing its operand, how its derivative is singular)
_SUSPECTS = {
    "sqrt": ("_tw_le0", "the derivative of sqrt(x), 1/(2·sqrt(x)), is infinite at x = 0 (NaN below)"),
    "log": ("_tw_le0", "the derivative of log(x), 1/x, is infinite at x = 0 (NaN below)"),
    "log2": ("_tw_le0", "the derivative of log2(x) is infinite at x = 0"),
    "log10": ("_tw_le0", "the derivative of log10(x) is infinite at x = 0"),
    "acos": ("_tw_abs_ge1", "the derivative of acos(x), -1/sqrt(1-x²), is infinite at x = ±1"),
    "asin": ("_tw_abs_ge1", "the derivative of asin(x), 1/sqrt(1-x²), is infinite at x = ±1"),
    "pow": ("_tw_le0", "the derivative of pow(b, e) is infinite or NaN for a base b ≤ 0"),
}
_HELPERS = '''
from typing import Any

import warp as wp


@wp.func
def _tw_le0(x: Any):
    return x <= type(x)(0.0)


@wp.func
def _tw_abs_ge1(x: Any):
    return wp.abs(x) >= type(x)(1.0)


@wp.func
def _tw_tiny(x: Any):
    return wp.abs(x) <= type(x)(1.0e-18)


@wp.func
def _tw_exp_overflows(x: Any):
    return not wp.isfinite(wp.exp(x))

'''


class Suspect(NamedTuple):
    index: int
    op: str  # "sqrt", "division", "exp in where"...
    line: int  # in the parsed source (1-based)
    column: int
    test: str  # source of the condition inserted before the statement
    reason: str


class Statement(NamedTuple):
    location: Location
    op: str
    reason: str  # a sentence: what is singular, and the measured count
    related: List[Related]


def locate(wp, kernel, entry) -> Optional[Statement]:
    source = warp_seams.kernel_source(kernel)
    func = getattr(kernel, "func", None)
    if not source or func is None:
        return None
    tree = ast.parse(textwrap.dedent(source))
    fdef = next((n for n in tree.body if isinstance(n, ast.FunctionDef)), None)
    if fdef is None:
        return None
    suspects = find_suspects(fdef)
    if not suspects:
        return None
    path = func.__code__.co_filename
    first = func.__code__.co_firstlineno - 1  # parsed line 1 is the first source line (a decorator)

    def loc(s: Suspect) -> Location:
        return Location(path, first + s.line, s.column)

    counts = None
    try:
        counts = _measure(wp, kernel, entry, tree, fdef, suspects)
    except Exception:
        counts = None
    if counts is None:
        if len(suspects) != 1:
            return None
        s = suspects[0]
        return Statement(loc(s), s.op, "The likely cause is `%s` on this line: %s (the kernel has no other "
                         "suspect operation; the values could not be measured)" % (s.op, s.reason), [])
    fired = [s for s in suspects if counts[s.index] > 0]
    if not fired:
        return None
    s = fired[0]
    threads = _threads(entry)
    reason = ("At the values this launch saw, `%s` on this line is singular in %d of %d threads: %s"
              % (s.op, counts[s.index], threads, s.reason)) if threads else \
        ("At the values this launch saw, `%s` on this line is singular in %d threads: %s"
         % (s.op, counts[s.index], s.reason))
    related = [Related(loc(o), "`%s` is singular here too (%d threads)" % (o.op, counts[o.index]), "also-singular")
               for o in fired[1:]]
    return Statement(loc(s), s.op, reason, related)


def find_suspects(fdef: ast.FunctionDef) -> List[Suspect]:
    out: List[Suspect] = []
    in_where: set = set()
    for node in ast.walk(fdef):
        if isinstance(node, ast.Call) and _callee(node.func) in ("where", "select"):
            for operand in node.args[1:]:
                for sub in ast.walk(operand):
                    in_where.add(id(sub))
    for node in ast.walk(fdef):
        if isinstance(node, ast.Call):
            name = _callee(node.func)
            if name in _SUSPECTS and node.args:
                helper, reason = _SUSPECTS[name]
                out.append(Suspect(len(out), "wp.%s" % name, node.lineno, node.col_offset + 1,
                                   "%s(%s)" % (helper, ast.unparse(node.args[0])), reason))
            elif name == "exp" and node.args and id(node) in in_where:
                out.append(Suspect(len(out), "wp.exp", node.lineno, node.col_offset + 1,
                                   "_tw_exp_overflows(%s)" % ast.unparse(node.args[0]),
                                   "it overflows to inf inside a wp.where/wp.select operand; the forward value "
                                   "is fine where that operand is not selected, but both operands are "
                                   "differentiated, so its adjoint gives inf·0 = NaN"))
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            out.append(Suspect(len(out), "division", node.lineno, node.col_offset + 1,
                               "_tw_tiny(%s)" % ast.unparse(node.right),
                               "the derivative of a/b, -a/b², is infinite where the divisor b is 0"))
    out.sort(key=lambda s: (s.line, s.column))
    return [s._replace(index=i) for i, s in enumerate(out)]


def _measure(wp, kernel, entry, tree, fdef, suspects) -> Optional[List[int]]:
    """Launch an instrumented copy of the kernel forward on copies of the launch's arguments."""
    from .finite_diff import _copy_struct  # noqa: PLC0415

    if entry is None or len(entry.args) != len(fdef.args.args):
        return None
    instrumented = _instrument(fdef, suspects)
    source = _HELPERS + "\n" + ast.unparse(instrumented) + "\n"
    variant = _load(kernel, instrumented.name, source)
    if variant is None:
        return None
    copies: dict = {}

    def copy_of(a):
        if id(a) not in copies:
            copies[id(a)] = wp.clone(a)
        return copies[id(a)]

    args = []
    for a in entry.args:
        if isinstance(a, wp.array):
            args.append(copy_of(a))
        elif a is not None and warp_seams.is_struct_instance(wp, a):
            clone = _copy_struct(wp, a, copy_of, {}, 0, "")
            if clone is None:
                return None
            args.append(clone)
        else:
            args.append(a)
    hits = wp.zeros(len(suspects), dtype=wp.int32, device=entry.device)
    n_in = len(entry.inputs)
    launch = warp_seams.real_launch(wp)
    with warp_seams.suspended_tape(wp):
        launch(variant, dim=entry.dim, inputs=args[:n_in], outputs=args[n_in:] + [hits], device=entry.device,
               record_tape=False, max_blocks=entry.max_blocks, block_dim=entry.block_dim)
    return [int(v) for v in hits.numpy()]


def _instrument(fdef: ast.FunctionDef, suspects: List[Suspect]) -> ast.FunctionDef:
    """The kernel with ``if <test>: wp.atomic_add(_tw_hits, k, 1)`` before each suspect's statement."""
    import copy  # noqa: PLC0415

    new = copy.deepcopy(fdef)
    new.name = "_tw_singular_" + fdef.name
    new.decorator_list = [ast.parse("wp.kernel").body[0].value]
    new.args.args.append(ast.arg(arg="_tw_hits", annotation=ast.parse("wp.array(dtype=wp.int32)").body[0].value))
    by_line = {}
    for s in suspects:
        by_line.setdefault((s.line, s.column), s)

    def rewrite(body):
        out = []
        for stmt in body:
            for field in ("body", "orelse"):
                if isinstance(getattr(stmt, field, None), list) and getattr(stmt, field) and \
                        isinstance(stmt, (ast.If, ast.For, ast.While)):
                    setattr(stmt, field, rewrite(getattr(stmt, field)))
            own = [s for s in suspects if _owns(stmt, s)]
            for s in own:
                out.append(ast.parse("if %s:\n    wp.atomic_add(_tw_hits, %d, 1)" % (s.test, s.index)).body[0])
            out.append(stmt)
        return out

    new.body = rewrite(new.body)
    ast.fix_missing_locations(new)
    return new


def _owns(stmt, suspect: Suspect) -> bool:
    """Whether the suspect is in this statement itself (not in a nested block)."""
    if isinstance(stmt, (ast.If, ast.While)):
        nodes = [stmt.test]
    elif isinstance(stmt, ast.For):
        nodes = [stmt.iter]
    else:
        nodes = [stmt]
    for n in nodes:
        for sub in ast.walk(n):
            if getattr(sub, "lineno", None) == suspect.line and getattr(sub, "col_offset", -1) + 1 == suspect.column:
                return True
    return False


_folder: Optional[str] = None


def _load(kernel, name: str, source: str):
    global _folder
    if _folder is None:
        _folder = tempfile.mkdtemp(prefix="tapewatch-variants-")
        atexit.register(shutil.rmtree, _folder, True)
    func = kernel.func
    path = os.path.join(_folder, "%s_%d.py" % (name, id(kernel)))
    with open(path, "w", encoding="utf-8") as f:
        f.write(source)
    module = types.ModuleType("_tapewatch_variant_%d" % id(kernel))
    module.__dict__.update(func.__globals__)
    module.__dict__.update({"__name__": module.__name__, "__file__": path})
    exec(compile(source, path, "exec"), module.__dict__)
    return module.__dict__.get(name)


def _threads(entry) -> int:
    dim = entry.dim
    try:
        if isinstance(dim, int):
            return dim
        n = 1
        for d in dim:
            n *= int(d)
        return n
    except Exception:
        return 0


def _callee(func) -> str:
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return ""
