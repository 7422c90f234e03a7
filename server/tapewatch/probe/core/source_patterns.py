"""Patterns in the user's host source that explain a finding and hold the line to change: two names
for one array made by one statement (a rebinding, an alias), a buffer picked from a pool or a slot, a swap
of two buffers, a ring of buffers indexed ``step % n`` and where its length is set, the loop around a call.

Each reader parses a file once (``warpsrc.source``), answers ``(Location, statement text)`` or None, and
never raises past its caller's ``registry.attempt``.
"""

from __future__ import annotations

import ast
import linecache
import re
from typing import Any, Optional, Tuple

from ...model import Location
from ...warpsrc.source import dotted, file_tree
from ...warpsrc.vocabulary import DEVICE_DECORATORS
from . import call_expressions, naming
from .sites import Site

# -- two names for one array made by a statement ----------------------------------------
_REBINDINGS: dict = {}  # file -> [(kind, key, Location, statement text)]
MAX_REBINDING_FILES = 64
MAX_STATEMENT = 80  # longer statements are named by their start


def rebinding(what: str, other: str, sites) -> Optional[Tuple[Location, str]]:
    """The statement that made ``what`` and ``other``, two expressions the script wrote apart, one array,
    in the files of the ``sites`` given: ``(Location, statement text)``, or None.

    - Two entries of one container: ``states[0] = states[-1]`` (``states[f + 1]`` and ``states[f]``), or
      a list built with one array twice, ``acts = [x, buf_a, buf_b, buf_a, out]``.
    - Two names: ``h_norm = h`` (or ``t_down = self.temp``) before a launch given both, in the launch's
      function."""
    if not what or not other or what == other:
        return None
    container = _container(what)
    if container is not None and container == _container(other):
        # (the container as the statement spells it: ``self.states`` for ``states`` taken from it)
        last = container.rsplit(".", 1)[-1]
        return _find(sites, lambda kind, key: kind == "container" and (key == container or key.rsplit(".", 1)[-1] == last))
    if (what.isidentifier() or _DOTTED.fullmatch(what)) and (other.isidentifier() or _DOTTED.fullmatch(other)):
        pair = {(what, other), (other, what)}

        def same_attribute(a: str, b: str) -> bool:
            # ``self.temp`` in the method is ``chan.temp`` where the reader's frame names the object
            return "." in a and "." in b and a.rsplit(".", 1)[-1] == b.rsplit(".", 1)[-1]

        def aliases(kind, key) -> bool:
            return kind == "names" and (key in pair or any(key[0] == x and same_attribute(key[1], y)
                                                           for x, y in pair))

        for site in sites:
            found = _before_in_function(site, aliases)
            if found is not None:
                return found
    return None


_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")


def pool_pick(what: str, site) -> Optional[Tuple[Location, str]]:
    """``x_next = self.pool[(s + 1) % 2]`` before the launch that writes ``x_next``, in its function: the
    statement that hands a step a buffer of a ring an earlier step used.  ``(Location, text)`` or None."""
    if not what or not what.isidentifier():
        return None
    return _before_in_function(site, lambda kind, key: kind == "pool" and key == what)


def slot_pick(site, names) -> Optional[Tuple[Location, str]]:
    """``dst = 1 - src`` before the launch, in its function, naming an index the launch passes as a scalar
    argument (``inputs=[U, src, dst]``): the statement that hands a step the row of one array an earlier
    step read.  ``(Location, text)`` or None.  (An index inside an argument, ``self.x[b]``, picks a list
    entry: that finding stays on the launch, where the evaluation sets mark it.)"""
    snap = site.primary if site is not None else None
    call = call_expressions.call_at(snap, names) if snap is not None else None
    if call is None:
        return None
    used = {e.id for e in call_expressions.launch_arg_exprs(call) if isinstance(e, ast.Name)}
    return _before_in_function(site, lambda kind, key: kind == "slot" and key in used)


def reuse_pick(what: str, site) -> Optional[Tuple[Location, str]]:
    """``rho = self.rho`` before the launch that writes ``rho``, in the same loop of its function: the
    statement that hands every step the one buffer an earlier step read.  ``(Location, text)`` or None."""
    snaps = getattr(site, "snaps", ())
    if not what or not what.isidentifier() or not snaps:
        return None
    line = snaps[0].f_lineno

    def in_step(span) -> bool:
        # A loop around the statement in its function, or (a step method) a caller's loop around its call.
        return span[0] <= line <= span[1] if span is not None else any(_loops_around(s) for s in snaps[1:])

    return _before_in_function(site, lambda kind, key: kind == "reuse" and key[0] == what and in_step(key[1]))


def _loops_of(snap) -> list:
    """``[(first line, last line, Location)]`` of the ``for``/``while`` statements in a frame's file."""
    path = snap.f_code.co_filename
    loops = _LOOPS.get(path)
    if loops is None:
        tree = file_tree(path, snap.f_globals)
        loops = _LOOPS[path] = [(n.lineno, n.end_lineno or n.lineno, Location(path, n.lineno, n.col_offset + 1))
                                for n in ast.walk(tree) if isinstance(n, (ast.For, ast.While))] if tree else []
    return loops


def swap(what: str, site) -> Optional[Tuple[Location, str]]:
    """``a, b = b, a`` in the function that launched the write of ``what`` (or, where a helper launched
    it, in a caller that passed the swapped names): the statement that hands each step the buffer the
    step before read.  The one nearest after the launch (a loop's swap follows its launch), else before.
    ``(Location, text)`` or None."""
    # Only a swap in a loop that also runs a frame's line hands *this* launch the other buffer.  Most
    # findings have none in any frame: the names are followed through the helpers only when one does.
    around = {id(snap): [(key, loc, text) for key, loc, text in _swaps_in(snap.f_code.co_filename, snap.f_globals)
                         if key[1][0] <= snap.f_lineno <= key[1][1]]
              for snap in getattr(site, "snaps", ())}
    if not any(around.values()):
        return None
    for snap, name in _names_up(site, what):
        code = snap.f_code
        swaps = around.get(id(snap))
        if not swaps:
            continue
        first, last = code.co_firstlineno, _last_line(code)
        hits = [(loc, text) for key, loc, text in swaps if first <= loc.line <= last and
                any(name == k or name.startswith(k + "[") or name.startswith(k + ".") for k in key[0])]
        if hits:
            after = [h for h in hits if h[0].line > snap.f_lineno]
            return after[0] if after else hits[-1]
    return None


_SWAPS: dict = {}  # file -> its swaps in loops, [(key, Location, text)] (most files: none)


def _swaps_in(path: str, module_globals) -> list:
    known = _SWAPS.get(path)
    if known is None:
        known = [(key, loc, text) for kind, key, loc, text in _rebindings_in(path, module_globals)
                 if kind == "swap" and key[1] is not None]
        if len(_SWAPS) >= MAX_REBINDING_FILES:
            _SWAPS.clear()
        _SWAPS[path] = known
    return known


_LOOPS: dict = {}  # file -> [(first line, last line, Location)] of its for/while statements


def enclosing_loop(site: Site) -> Optional[Location]:
    """The innermost ``for``/``while`` of the user's code that repeats the event: in the innermost frame of
    ``site`` that runs inside a loop (a helper's launch repeated by its caller's loop counts)."""
    for snap in site.snaps:
        around = _loops_around(snap)
        if around:
            return min(around, key=lambda loop: loop[1] - loop[0])[2]
    return None


def function_def(snap) -> Optional[Tuple[Any, Any]]:
    """``(module tree, def node)`` of the user function a frame runs (by its name and the line it is at)."""
    tree = file_tree(snap.f_code.co_filename, snap.f_globals)
    fn = next((n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and
               n.name == snap.f_code.co_name and n.lineno <= snap.f_lineno <= (n.end_lineno or n.lineno)),
              None) if tree is not None else None
    return (tree, fn) if fn is not None else None


def call_in_loop(site: Site, names) -> Optional[Location]:
    """A call of one of ``names`` (``opt.zero_grad()``) in the innermost loop of the user's code around the
    event, in the frame that runs that loop: the statement of the iteration that decides what the event sees."""
    for snap in site.snaps:
        around = _loops_around(snap)
        if not around:
            continue
        first, last, _ = min(around, key=lambda loop: loop[1] - loop[0])
        tree = file_tree(snap.f_code.co_filename, snap.f_globals)
        calls = sorted((n for n in ast.walk(tree) if isinstance(n, ast.Call) and first <= n.lineno <= last and
                        call_expressions.callee_name(n) in names), key=lambda n: n.lineno) if tree else []
        if calls:
            return Location(snap.f_code.co_filename, calls[0].lineno, calls[0].col_offset + 1)
        return None
    return None


def iteration_count(site: Site, iterations: int, named=lambda name: True) -> Optional[Tuple[Location, str]]:
    """Where the count of the loop that repeats the event is set, when that loop is
    ``for _ in range(N_SWEEP)`` and the file sets ``N_SWEEP`` once, to a number within one of
    ``iterations`` (the times the loop ran), and ``named(name)`` accepts its name:
    ``(location of N_SWEEP = 15, "N_SWEEP")``.  Changing the count is changing that statement, not the
    loop (as a ring's length is changed where it is set)."""
    for n, snap in enumerate(site.snaps):
        around = _loops_around(snap)
        if not around:
            continue
        first = min(around, key=lambda loop: loop[1] - loop[0])[0]
        path = snap.f_code.co_filename
        tree = file_tree(path, snap.f_globals)
        loop = next((n for n in ast.walk(tree) if isinstance(n, ast.For) and n.lineno == first), None) \
            if tree is not None else None
        count = loop.iter.args[0] if loop is not None and isinstance(loop.iter, ast.Call) and \
            isinstance(loop.iter.func, ast.Name) and loop.iter.func.id == "range" and len(loop.iter.args) == 1 \
            else None
        if not isinstance(count, ast.Name) or tree is None:
            return None
        if count.id in snap.f_code.co_varnames[:snap.f_code.co_argcount] and n + 1 < len(site.snaps):
            # ``def relax(self, sweeps): for _ in range(sweeps)``: the count is what the caller passed
            # (``ring.relax(N_SWEEPS)``), set where the caller's file sets it.
            return _passed_count(snap, site.snaps[n + 1], count.id, iterations, named)
        return _count_set(tree, snap, count.id, iterations, named)
    return None


def _count_set(tree, snap, name: str, iterations: int, named) -> Optional[Tuple[Location, str]]:
    """The statement of ``snap``'s file that sets the loop count ``name`` once to about ``iterations``."""
    if not named(name):
        return None
    sets = [n for n in ast.walk(tree) if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and any(
        isinstance(t, ast.Name) and t.id == name for t in (n.targets if isinstance(n, ast.Assign) else [n.target]))]
    node = sets[0] if len(sets) == 1 and isinstance(sets[0], ast.Assign) else None
    if node is None or not isinstance(node.value, ast.Constant) or type(node.value.value) is not int or \
            abs(node.value.value - iterations) > 1:
        return None
    in_frame = snap.f_code.co_firstlineno <= node.lineno <= _last_line(snap.f_code)
    if not in_frame and (node not in getattr(tree, "body", []) or name in snap.f_code.co_varnames):
        return None  # a parameter or a local of another function: not the count this loop read
    return Location(snap.f_code.co_filename, node.lineno, node.col_offset + 1), name


def _passed_count(callee_snap, caller, param: str, iterations: int, named) -> Optional[Tuple[Location, str]]:
    """Where the count the caller passed for ``param`` is set: a name of the caller's file, set once."""
    code = callee_snap.f_code
    call = call_expressions.call_at(caller, (code.co_name,))
    if call is None or call_expressions.callee_name(call) != code.co_name:
        return None
    index = code.co_varnames.index(param)
    if isinstance(call.func, ast.Attribute) and code.co_varnames[:1] in (("self",), ("cls",)):
        index -= 1  # a method called on its object
    arg = call_expressions.positional_arg(call, index, param)
    if not isinstance(arg, ast.Name):
        return None  # (a number written in the call: the loop stays the place the count is seen)
    tree = file_tree(caller.f_code.co_filename, caller.f_globals)
    return _count_set(tree, caller, arg.id, iterations, named) if tree is not None else None


def _loops_around(snap) -> list:
    """The ``(first line, last line, Location)`` of each ``for``/``while`` of the frame's function that
    holds the line it runs."""
    return [loop for loop in _loops_of(snap)
            if loop[0] < snap.f_lineno <= loop[1] and loop[0] >= snap.f_code.co_firstlineno]


_RINGS: dict = {}  # file -> [(Location, size expression, size)] of ring sizes used as ``% size`` picks


def ring_size(site: Site) -> Optional[Tuple[Location, str, int]]:
    """Where the length of a ring of buffers is set, when the launch's frames pick buffers with ``% n``
    (``states[step % self.num_buffers]``) and a statement sets ``n`` to a number (``self.num_buffers = 2``):
    ``(location, "self.num_buffers", 2)``.  The innermost file that has one wins."""
    for snap in site.snaps:
        path = snap.f_code.co_filename
        known = _RINGS.get(path)
        if known is None:
            known = _RINGS[path] = _rings_in(path, snap.f_globals)
        if known:
            return known[0]
    return None


def _rings_in(path: str, module_globals) -> list:
    tree = file_tree(path, module_globals)
    if tree is None:
        return []
    # Host code only: a kernel's ``u[(i + 1) % NX]`` wraps a periodic grid, it picks no buffer.
    host = list(_host_nodes(tree))
    sizes = {ast.unparse(n.slice.right) for n in host if isinstance(n, ast.Subscript)
             and isinstance(n.slice, ast.BinOp) and isinstance(n.slice.op, ast.Mod)}
    # ``a, b = t % RING, (t + 1) % RING`` then ``pos[a]``: a modulus that also sizes a list of buffers
    # (``[wp.zeros(...) for _ in range(RING)]``, ``[...] * RING``), not any ``t % PRINT_EVERY``.
    moduli = {ast.unparse(n.right) for n in host if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mod)}
    lengths = {ast.unparse(n.args[0]) for n in host if isinstance(n, ast.Call)
               and isinstance(n.func, ast.Name) and n.func.id == "range" and len(n.args) == 1}
    lengths |= {ast.unparse(n.right) for n in host if isinstance(n, ast.BinOp)
                and isinstance(n.op, ast.Mult) and isinstance(n.left, ast.List)}
    sizes |= moduli & lengths
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.value, ast.Constant) \
                and isinstance(node.value.value, int) and not isinstance(node.value.value, bool):
            name = ast.unparse(node.targets[0])
            if name in sizes:
                out.append((Location(path, node.lineno, node.col_offset + 1), name, node.value.value))
    return out


def _host_nodes(tree: ast.AST):
    """Every node outside Warp kernels and functions (``@wp.kernel``, ``@wp.func``...)."""
    todo = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.FunctionDef) and any(
                (dotted(d.func if isinstance(d, ast.Call) else d) or "").rsplit(".", 1)[-1] in DEVICE_DECORATORS
                for d in node.decorator_list):
            continue
        yield node
        todo.extend(ast.iter_child_nodes(node))


MAX_LAST_LINES = 1 << 12
_LAST_LINES: dict = {}  # code object -> its last line (a module's code spans thousands)


def _last_line(code) -> int:
    last = _LAST_LINES.get(code)
    if last is None:
        last = max((line for _, _, line in code.co_lines() if line is not None), default=code.co_firstlineno)
        if len(_LAST_LINES) >= MAX_LAST_LINES:
            _LAST_LINES.clear()
        _LAST_LINES[code] = last
    return last


def _names_up(site, what: str):
    """``(frame, expression)`` of ``what`` in each frame of the site, innermost first, translated through
    each helper's parameters to what its caller passed (``step(x, x_next)`` for ``def step(src, dst)``)."""
    snaps = getattr(site, "snaps", ())
    name: Optional[str] = what
    for i, snap in enumerate(snaps):
        if name:
            yield snap, name
        if name != what:
            yield snap, what  # the name may already be the caller's (naming follows helper parameters)
        if i + 1 >= len(snaps):
            return
        name = naming.caller_expression(name, snap, snaps[i + 1]) if name else None


def loop_over_part(loc: Optional[Location], module_globals=None) -> Optional[Tuple[Location, str]]:
    """The iterable of ``for arr in params[:1]:`` (or ``for a in (self.m, self.v):``) when the statement at
    ``loc`` is in that loop's body and uses its variable: the slice or list that leaves the other arrays out
    is the line to change.
    ``(Location of the iterable, its text)`` or None."""
    if loc is None:
        return None
    loops = [(key, where, text) for kind, key, where, text in _rebindings_in(loc.path, module_globals)
             if kind == "part_loop" and key[0] <= loc.line <= key[1]]
    if not loops:
        return None
    lines = linecache.getlines(loc.path, module_globals)
    used = set(re.findall(r"\w+", lines[loc.line - 1])) if 0 < loc.line <= len(lines) else set()
    inside = [(where, text) for key, where, text in loops if key[2] in used]
    return inside[-1] if inside else None  # the innermost such loop (sorted by line)


def _before_in_function(site, wanted) -> Optional[Tuple[Location, str]]:
    """The last statement ``wanted`` accepts in the function of the site's innermost frame, before its line."""
    snaps = getattr(site, "snaps", ())
    if not snaps:
        return None
    code, line = snaps[0].f_code, snaps[0].f_lineno
    return _find([site], wanted, within=(code.co_firstlineno, line))


def _find(sites, wanted, within=None) -> Optional[Tuple[Location, str]]:
    seen = set()
    for site in sites:
        for snap in getattr(site, "snaps", ())[:1] if within is not None else getattr(site, "snaps", ()):
            path = snap.f_code.co_filename
            if path in seen:
                continue
            seen.add(path)
            hits = [(loc, text) for kind, key, loc, text in _rebindings_in(path, snap.f_globals)
                    if wanted(kind, key) and (within is None or within[0] <= loc.line < within[1])]
            if hits:
                return hits[-1] if within is not None else hits[0]  # the alias nearest the launch
    return None


def _container(expr: Optional[str]) -> Optional[str]:
    if not expr or not expr.endswith("]"):
        return None  # not a subscript (asked for every finding: most name a plain array)
    try:
        node = ast.parse(expr, mode="eval").body
    except (SyntaxError, ValueError):
        return None
    return ast.unparse(node.value) if isinstance(node, ast.Subscript) else None


def _located(path: str, node: Any, source: str = "") -> Tuple[Location, str]:
    text = " ".join((ast.get_source_segment(source, node) or "").split()) or ast.unparse(node)
    if len(text) > MAX_STATEMENT:
        text = text[:MAX_STATEMENT - 4].rstrip() + " ..."
    return Location(path, node.lineno, node.col_offset + 1, node.end_lineno, (node.end_col_offset or 0) + 1), text


def _loop_around(loops, line: int) -> Optional[Tuple[int, int]]:
    """The innermost loop body span that contains ``line``, or None."""
    inside = [span for span in loops if span[0] <= line <= span[1]]
    return min(inside, key=lambda span: span[1] - span[0]) if inside else None


def _slot_index(value: ast.expr) -> bool:
    """An index that cycles through a few slots: ``t % 2``, ``(s + 1) % RING``, ``1 - src``, ``src ^ 1``."""
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Mod):
        return True
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Sub) and isinstance(value.left, ast.Constant) \
            and value.left.value == 1 and isinstance(value.right, ast.Name):
        return True
    return isinstance(value, ast.BinOp) and isinstance(value.op, ast.BitXor) and \
        isinstance(value.right, ast.Constant) and value.right.value == 1


def _is_swap(target, value) -> bool:
    """``a, b = b, a`` (names or attributes, permuted, not the same order): ping-pong buffers."""
    if not (isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple)) or len(target.elts) != len(value.elts):
        return False
    if not all(isinstance(e, (ast.Name, ast.Attribute)) for e in target.elts + value.elts):
        return False
    left, right = [ast.unparse(e) for e in target.elts], [ast.unparse(e) for e in value.elts]
    return sorted(left) == sorted(right) and left != right and len(set(left)) == len(left)


def _part(iterable: ast.expr) -> bool:
    """A loop's iterable that picks some arrays: a slice (``params[:1]``), a listed few (``(self.m, self.v)``)
    or a list the script built (``self.buffers``); asked only where the loop's clears missed an array."""
    if isinstance(iterable, ast.Subscript):
        return isinstance(iterable.slice, ast.Slice)
    if isinstance(iterable, (ast.Name, ast.Attribute)):
        return True
    return isinstance(iterable, (ast.Tuple, ast.List)) and bool(iterable.elts) and \
        all(isinstance(e, (ast.Name, ast.Attribute)) for e in iterable.elts)


def _statements(body):
    """Every statement, nested ones included, without visiting expressions (a module of thousands of
    launch lines has ten times more expression nodes than statements, and the walk is paid per run)."""
    for node in body:
        yield node
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(node, field, None)
            if isinstance(inner, list):
                yield from _statements(inner)
        for handler in getattr(node, "handlers", ()) or ():
            yield from _statements(handler.body)
        for case in getattr(node, "cases", ()) or ():
            yield from _statements(case.body)


def _rebindings_in(path: str, module_globals) -> list:
    known = _REBINDINGS.get(path)
    if known is None:
        known = []
        tree = file_tree(path, module_globals)
        source = "".join(linecache.getlines(path, module_globals))
        statements = list(_statements(tree.body)) if tree is not None else []
        # The body span of every loop, for a swap: (first body line, last body line).
        loops = [(n.body[0].lineno, n.body[-1].end_lineno or n.body[-1].lineno)
                 for n in statements if isinstance(n, (ast.For, ast.While)) and n.body]
        for node in statements:
            if isinstance(node, ast.For) and isinstance(node.target, ast.Name) and node.body and _part(node.iter):
                # ``for p in params[:1]:``, ``for a in (self.m, self.v):`` (the iterable located, for loop_over_part)
                span = (node.body[0].lineno, node.body[-1].end_lineno or node.body[-1].lineno, node.target.id)
                known.append(("part_loop", span) + _located(path, node.iter, source))
            if not isinstance(node, ast.Assign) or len(node.targets) != 1:
                continue
            target, value = node.targets[0], node.value
            entry: Optional[Tuple[str, Any]] = None
            if isinstance(target, ast.Subscript) and isinstance(value, ast.Subscript) and \
                    ast.unparse(target.value) == ast.unparse(value.value):
                entry = ("container", ast.unparse(target.value))
            elif isinstance(target, (ast.Name, ast.Attribute)) and isinstance(value, (ast.List, ast.Tuple)):
                # (only references: ``[fresh(), fresh()]`` makes two arrays)
                items = [ast.unparse(e) for e in value.elts if isinstance(e, (ast.Name, ast.Attribute, ast.Subscript))]
                if len(items) != len(set(items)):
                    entry = ("container", ast.unparse(target))
            elif isinstance(target, (ast.Name, ast.Attribute)) and isinstance(value, ast.BinOp) and \
                    isinstance(value.op, ast.Mult) and any(isinstance(side, ast.List) and len(side.elts) == 1
                                                           for side in (value.left, value.right)):
                # ``[wp.zeros(n)] * (steps + 1)``: one array, referenced by every entry
                entry = ("container", ast.unparse(target))
            elif isinstance(target, ast.Name) and isinstance(value, ast.Name):
                entry = ("names", (target.id, value.id))
            elif isinstance(target, ast.Name) and isinstance(value, ast.Attribute) and \
                    _loop_around(loops, node.lineno) is not None:
                # ``rho = self.rho`` in a loop's body: every step gets the one buffer the object holds
                entry = ("reuse", (target.id, _loop_around(loops, node.lineno)))
            elif isinstance(target, ast.Name) and isinstance(value, ast.Attribute) and \
                    isinstance(value.value, ast.Name) and value.value.id == "self":
                # ``rho = self.rho`` in a method a caller's loop runs each step (judged by the frames)
                entry = ("reuse", (target.id, None))
            elif _is_swap(target, value) and isinstance(target, ast.Tuple):
                entry = ("swap", (tuple(ast.unparse(e) for e in target.elts), _loop_around(loops, node.lineno)))
            else:
                # A buffer picked from a ring: ``x_next = pool[(s + 1) % 2]``, ``src, dst = f[t % 2], f[(t + 1) % 2]``.
                pairs = zip(target.elts, value.elts) if isinstance(target, ast.Tuple) and \
                    isinstance(value, ast.Tuple) and len(target.elts) == len(value.elts) else [(target, value)]
                for name, picked in pairs:
                    if isinstance(name, ast.Name) and isinstance(picked, ast.Subscript) and any(
                            isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mod) for n in ast.walk(picked.slice)):
                        known.append(("pool", name.id) + _located(path, node, source))
                    elif isinstance(name, ast.Name) and _slot_index(picked):
                        known.append(("slot", name.id) + _located(path, node, source))
                    elif isinstance(name, ast.Name) and isinstance(picked, ast.Name) and isinstance(target, ast.Tuple):
                        # ``x_out, v_out = x, v``: two names for each array, as ``x_out = x`` makes
                        known.append(("names", (name.id, picked.id)) + _located(path, node, source))
                continue
            if entry is not None:
                known.append(entry + _located(path, node, source))
            if isinstance(target, ast.Name) and isinstance(value, ast.Attribute) and dotted(value) is not None:
                # ``t_down = self.temp``: two names for the one array, as ``x_out = x`` makes
                known.append(("names", (target.id, ast.unparse(value))) + _located(path, node, source))
        known.sort(key=lambda entry: (entry[2].line, entry[2].column))
        if len(_REBINDINGS) >= MAX_REBINDING_FILES:
            _REBINDINGS.clear()
        _REBINDINGS[path] = known
    return known
