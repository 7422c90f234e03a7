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
import hashlib
import os
import shutil
import tempfile
import types
from typing import List, NamedTuple, Optional

from ...model import Location, Related
from ..core import user_code, warp_seams
from .reached_functions import reached_functions
from ...warpsrc.source import callee, parse_def
from ...warpsrc.vocabulary import ANY, HAZARDS, LOW, SINGULAR_DERIVATIVES

# name -> (helper testing its operand, how its derivative is singular); the helper tests the side of the
# operation's domain where it is singular.
_TESTS = {LOW: "_tw_le0", ANY: "_tw_abs_ge1"}
_SUSPECTS = {name: (_TESTS[HAZARDS[name]], why) for name, why in SINGULAR_DERIVATIVES.items()}
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
    index: int  # type: ignore[assignment]  # shadows tuple.index: the suspect's counter slot
    op: str  # "wp.sqrt", "division", "wp.exp"...
    line: int  # in the parsed source of its body (1-based)
    column: int
    test: str  # source of the condition inserted before the statement
    reason: str
    body: str = ""  # "" for the kernel, else the name of the @wp.func it is in
    # A division inside a wp.where/wp.select operand by a local assigned once (``kr = k * r``): (line,
    # column) of that assignment, parsed, and the local's name.
    masked_divisor: Optional[tuple] = None


class Statement(NamedTuple):
    location: Location
    op: str
    reason: str  # a sentence: what is singular, and the measured count
    related: List[Related]


class _Body(NamedTuple):
    """The kernel, or a ``@wp.func`` it calls, parsed."""

    name: str  # "" for the kernel
    fdef: ast.FunctionDef
    path: str
    first: int  # file line of parsed line 1, minus one
    globals: dict


def locate(wp, kernel, entry, guess: bool = True) -> Optional[Statement]:
    """The suspect operation measured singular at this launch's values (``guess``: else, when nothing could
    be measured, the kernel's only suspect named as the likely cause)."""
    kernel_body = _parse(kernel, "")
    if kernel_body is None:
        return None
    bodies = [kernel_body] + _called_functions(wp, kernel)
    suspects: List[Suspect] = []
    for body in bodies:
        suspects.extend(s._replace(body=body.name) for s in find_suspects(body.fdef))
    if not suspects:
        return None
    suspects = [s._replace(index=i) for i, s in enumerate(suspects)]
    by_name = {b.name: b for b in bodies}

    def loc(s: Suspect) -> Location:
        b = by_name[s.body]
        return Location(b.path, b.first + s.line, s.column)

    def where(s: Suspect) -> str:
        return "in `%s`, called from the kernel" % s.body if s.body else "on this line"

    try:
        counts = _measure(wp, kernel, entry, bodies, suspects)
    except Exception:
        counts = None
    if counts is None:
        if len(suspects) != 1 or not guess:
            return None
        s = suspects[0]
        return Statement(loc(s), s.op, "The likely cause is `%s` %s: %s (the kernel has no other suspect "
                         "operation; the values could not be measured)" % (s.op, where(s), s.reason), [])
    fired = [s for s in suspects if counts[s.index] > 0]
    if not fired:
        return None
    s = fired[0]
    threads = _threads(entry)
    of = "%d of %d threads" % (counts[s.index], threads) if threads else "%d threads" % counts[s.index]
    reason = "At the values this launch saw, `%s` %s is singular in %s: %s" % (s.op, where(s), of, s.reason)
    related = [Related(loc(o), "`%s` is singular here too (%d threads)" % (o.op, counts[o.index]), "also-singular")
               for o in fired[1:]]
    if s.masked_divisor is not None:
        # ``wp.where(kr > eps, wp.sin(kr) / kr, 1.0)``: the mask keeps the value finite, not the derivative
        # (both operands are differentiated, and 0 times the infinite one is NaN); the divisor is made
        # safe where it is computed, which also covers its other uses.
        line, column, name = s.masked_divisor
        b = by_name[s.body]
        at = "at line %d" % loc(s).line if not s.body else "in `%s`, called from the kernel" % s.body
        reason = ("At the values this launch saw, `%s` is 0 in %s, and the division by it %s feeds a "
                  "wp.where/wp.select operand: the mask keeps the value finite but not the derivative (both "
                  "operands are differentiated, and 0 times the infinite -a/b² is NaN). Make `%s` safe where it "
                  "is computed (e.g. wp.max(..., eps), or wp.where on the value itself)" % (name, of, at, name))
        related.insert(0, Related(loc(s), "the masked division by `%s`" % name, "singular-op"))
        return Statement(Location(b.path, b.first + line, column), s.op, reason, related)
    return Statement(loc(s), s.op, reason, related)


def _parse(obj, name: str) -> Optional[_Body]:
    fdef = parse_def(warp_seams.kernel_source(obj))
    func = getattr(obj, "func", None)
    if fdef is None or func is None:
        return None
    return _Body(name, fdef, func.__code__.co_filename, func.__code__.co_firstlineno - 1,
                 getattr(func, "__globals__", {}) or {})


def _called_functions(wp, kernel) -> List[_Body]:
    """The user ``@wp.func``s the kernel reaches (``reached_functions``), parsed; custom adjoints
    excluded: theirs is the math."""
    bodies = (_parse(obj, name) for name, obj in reached_functions(wp, kernel)
              if warp_seams.custom_grad(obj) is None)
    return [body for body in bodies if body is not None]


def find_suspects(fdef: ast.FunctionDef) -> List[Suspect]:
    out: List[Suspect] = []
    in_where: set = set()
    masked: set = set()  # locals whose values flow into a wp.where/wp.select operand
    for node in ast.walk(fdef):
        if isinstance(node, ast.Call) and callee(node.func) in ("where", "select"):
            for operand in node.args[1:]:
                for sub in ast.walk(operand):
                    in_where.add(id(sub))
                    if isinstance(sub, ast.Name):
                        masked.add(sub.id)
    # ``u = qq / r`` then ``wp.where(i == j, 0.0, u)``: the division is masked through the local.
    assigns = [({t.id for t in (n.targets if isinstance(n, ast.Assign) else [n.target]) if isinstance(t, ast.Name)},
                n.value) for n in ast.walk(fdef) if isinstance(n, (ast.Assign, ast.AugAssign))]
    grew = True
    while grew:
        grew = False
        for targets, value in assigns:
            if targets & masked:
                for sub in ast.walk(value):
                    if isinstance(sub, ast.Name) and sub.id not in masked:
                        masked.add(sub.id)
                        grew = True
    through_local = {id(sub) for targets, value in assigns if targets & masked for sub in ast.walk(value)}
    for node in ast.walk(fdef):
        if isinstance(node, ast.Call):
            name = callee(node.func)
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
            divisor = _assigned_once(fdef, node.right) if id(node) in in_where or id(node) in through_local else None
            out.append(Suspect(len(out), "division", node.lineno, node.col_offset + 1,
                               "_tw_tiny(%s)" % ast.unparse(node.right),
                               "the derivative of a/b, -a/b², is infinite where the divisor b is 0",
                               masked_divisor=divisor))
    out.sort(key=lambda s: (s.line, s.column))
    return [s._replace(index=i) for i, s in enumerate(out)]


def _assigned_once(fdef: ast.FunctionDef, divisor: ast.expr) -> Optional[tuple]:
    """``(line, column, name)`` of the one assignment of a local divisor, or None."""
    if not isinstance(divisor, ast.Name):
        return None
    stores = [n for n in ast.walk(fdef) if isinstance(n, ast.Name) and n.id == divisor.id
              and not isinstance(n.ctx, ast.Load)]
    assigns = [n for n in ast.walk(fdef) if isinstance(n, ast.Assign) and len(n.targets) == 1
               and isinstance(n.targets[0], ast.Name) and n.targets[0].id == divisor.id]
    if len(stores) != 1 or len(assigns) != 1 or assigns[0].lineno >= divisor.lineno:
        return None
    return assigns[0].lineno, assigns[0].col_offset + 1, divisor.id


def _measure(wp, kernel, entry, bodies, suspects) -> Optional[List[int]]:
    """Launch an instrumented copy of the kernel forward on copies of the launch's arguments."""
    from .finite_diff import copy_struct  # noqa: PLC0415

    kernel_body = bodies[0]
    if entry is None or len(entry.args) != len(kernel_body.fdef.args.args):
        return None
    renamed = {b.name: "_tw_singular_" + b.name for b in bodies[1:]}
    parts = [_HELPERS]
    for body in bodies[1:]:
        mine = [s for s in suspects if s.body == body.name]
        parts.append(ast.unparse(_instrument(body.fdef, mine, renamed, "wp.func", renamed[body.name])))
    kernel_mine = [s for s in suspects if not s.body]
    instrumented = _instrument(kernel_body.fdef, kernel_mine, renamed, "wp.kernel",
                               "_tw_singular_" + kernel_body.fdef.name)
    parts.append(ast.unparse(instrumented))
    env = {}
    for body in reversed(bodies):
        env.update(body.globals)
    variant = load_variant(kernel, instrumented.name, "\n\n".join(parts) + "\n", env)
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
            clone = copy_struct(wp, a, copy_of, {}, 0, "")
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
    return [int(v) for v in warp_seams.host_values(hits)]


def _instrument(fdef: ast.FunctionDef, suspects: List[Suspect], renamed: dict, decorator: str,
                name: str) -> ast.FunctionDef:
    """A copy with ``if <test>: wp.atomic_add(_tw_hits, k, 1)`` before each suspect's statement,
    calls to instrumented functions passing ``_tw_hits`` on."""
    import copy  # noqa: PLC0415

    new = copy.deepcopy(fdef)
    new.name = name
    new.decorator_list = [ast.parse(decorator, mode="eval").body]
    new.args.args.append(ast.arg(arg="_tw_hits", annotation=ast.parse("wp.array(dtype=wp.int32)", mode="eval").body))

    class Calls(ast.NodeTransformer):
        def visit_Call(self, node):
            self.generic_visit(node)
            target = callee(node.func)
            if target in renamed:
                node.func = ast.Name(id=renamed[target], ctx=ast.Load())
                node.args.append(ast.Name(id="_tw_hits", ctx=ast.Load()))
            return node

    def rewrite(body):
        out = []
        for stmt in body:
            for field in ("body", "orelse"):
                if isinstance(stmt, (ast.If, ast.For, ast.While)) and getattr(stmt, field):
                    setattr(stmt, field, rewrite(getattr(stmt, field)))
            for s in [s for s in suspects if _owns(stmt, s)]:
                out.append(ast.parse("if %s:\n    wp.atomic_add(_tw_hits, %d, 1)" % (s.test, s.index)).body[0])
            out.append(stmt)
        return out

    new.body = rewrite(new.body)
    new = Calls().visit(new)
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


def load_variant(kernel, name: str, source: str, env: dict):
    global _folder
    if _folder is None:
        _folder = tempfile.mkdtemp(prefix="tapewatch-variants-")
        atexit.register(shutil.rmtree, _folder, True)
        # Tapewatch's own code: Warp's warnings about an instrumented copy are never the user's findings.
        user_code.skip_package(_folder)
    # Named by its source, not by object identity: Warp keeps compiled modules by name, so the same
    # instrumented kernel in a later run loads from the cache instead of compiling again.
    fingerprint = hashlib.sha1(source.encode("utf-8", "replace")).hexdigest()[:12]
    path = os.path.join(_folder, "%s_%s.py" % (name, fingerprint))
    with open(path, "w", encoding="utf-8") as f:
        f.write(source)
    module = types.ModuleType("_tapewatch_variant_%s" % fingerprint)
    module.__dict__.update(env)
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
