"""TW306: ``zero_()`` / ``fill_()`` / ``wp.copy`` / ``assign`` inside a tape block onto an array a launch read.

Warp's tape keeps no snapshots: in ``tape.backward()`` each launch's adjoint
reads its input arrays' *current* contents.  Overwriting an input of an
earlier launch on the same tape therefore feeds that adjoint the wrong
values ("Array Overwrites" in Warp's Differentiability guide).  The overwrite
tracker (``verify_autograd_array_access``) never sees ``zero_()``/``fill_()``
and saw ``wp.copy`` without a location before Warp 1.17, so this is worth
catching before a run.

A launch's arguments count as read unless the kernel is defined in the same
file and only writes through that parameter (Warp's examples often pass
outputs in ``inputs=``).  Arrays are matched by expression text (``state.q``, ``x``): a later
``x = wp.zeros(...)`` rebinds the name and ends the match.  In a loop inside
the tape block, an overwrite that comes *before* a launch reading the same
array is reported too: it clobbers what the previous iteration's launch read,
unless the expression changes per iteration (``states[i].q``).
"""

from __future__ import annotations

import ast
from typing import Dict, Iterator, List, Optional, Set, Tuple

from tapewatch.model import Finding

from .. import findings
from ..context import FileContext
from ..exprs import end_pos, pos, walk
from ..names import unparse

CODE = "TW306"

_METHODS = {"zero_": "TW103", "fill_": "TW103", "assign": "TW102"}


class _Read:
    __slots__ = ("launch", "kernel")

    def __init__(self, launch: ast.Call, kernel: str) -> None:
        self.launch = launch
        self.kernel = kernel


Reads = Dict[str, _Read]


def check(ctx: FileContext) -> Iterator[Finding]:
    out: List[Finding] = []
    covered_until = (0, 0)  # end of the last tape block analysed (ctx.withs is in source order)
    for with_node, scope in ctx.withs:
        if pos(with_node) < covered_until:
            continue  # nested in a tape block already analysed as a whole
        if any(ctx.is_tape_expr(item.context_expr, scope) for item in with_node.items):
            _Block(ctx, out).run(with_node.body, {})
            covered_until = end_pos(with_node)
    return iter(out)


class _Loop:
    """What one pass over a loop body saw, for the previous-iteration check."""

    __slots__ = ("launches", "overwrites", "bound")

    def __init__(self) -> None:
        self.launches: List[Tuple[ast.Call, str, List[str]]] = []
        self.overwrites: List[Tuple[ast.Call, Tuple[str, str, ast.expr]]] = []
        self.bound: Set[str] = set()  # names rebound in the body: per-iteration values


class _Block:
    def __init__(self, ctx: FileContext, out: List[Finding]) -> None:
        self.ctx = ctx
        self.out = out
        self._launches: Dict[int, Optional[Tuple[str, List[str]]]] = {}
        self._overwrites: Dict[int, Optional[Tuple[str, str, ast.expr]]] = {}
        self._loops: List[_Loop] = []  # loops we are inside, innermost last

    def run(self, stmts: List[ast.stmt], reads: Reads) -> Reads:
        for s in stmts:
            reads = self.stmt(s, reads)
        return reads

    def stmt(self, s: ast.stmt, reads: Reads) -> Reads:
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return reads  # defined here, run elsewhere
        if isinstance(s, ast.If):
            self.expr(s.test, reads)
            return _union(self.run(s.body, dict(reads)), self.run(s.orelse, dict(reads)))
        if isinstance(s, (ast.For, ast.AsyncFor, ast.While)):
            self.expr(s.iter if isinstance(s, (ast.For, ast.AsyncFor)) else s.test, reads)
            loop = _Loop()
            if isinstance(s, (ast.For, ast.AsyncFor)):
                _rebind(reads, s.target)
                loop.bound.update(n.id for n in walk(s.target) if isinstance(n, ast.Name))
            self._loops.append(loop)
            after = self.run(s.body, dict(reads))
            self._loops.pop()
            self.loop_carried(loop)
            if self._loops:  # the enclosing loop saw everything this one did
                outer = self._loops[-1]
                outer.launches += loop.launches
                outer.overwrites += loop.overwrites
                outer.bound |= loop.bound
            return _union(reads, self.run(s.orelse, after))
        if isinstance(s, (ast.With, ast.AsyncWith)):
            for item in s.items:
                self.expr(item.context_expr, reads)
            return self.run(s.body, reads)
        if isinstance(s, ast.Try):
            reads = self.run(s.body, reads)
            for h in s.handlers:
                reads = _union(reads, self.run(h.body, dict(reads)))
            return self.run(s.finalbody, self.run(s.orelse, reads))
        self.expr(s, reads)
        if isinstance(s, ast.Assign):
            for t in s.targets:
                _rebind(reads, t)
        elif isinstance(s, (ast.AnnAssign, ast.AugAssign)):
            _rebind(reads, s.target)
        return reads

    def expr(self, node: ast.AST, reads: Reads) -> None:
        """Overwrites in ``node`` are checked against earlier reads, then its launches become reads."""
        calls = []
        loop = self._loops[-1] if self._loops else None
        for n in walk(node):
            if isinstance(n, ast.Call):
                calls.append(n)
            elif loop is not None and isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                loop.bound.add(n.id)
        calls.sort(key=pos)
        for call in calls:
            hit = self.overwrite(call)
            if hit is None:
                continue
            if loop is not None:
                loop.overwrites.append((call, hit))
            if hit[0] in reads:
                self.report(call, hit, reads[hit[0]], previous_iteration=False)
        for call in calls:
            launch = self.launch(call)
            if launch is not None:
                kernel, inputs = launch
                if loop is not None:
                    loop.launches.append((call, kernel, inputs))
                for text in inputs:
                    reads[text] = _Read(call, kernel)

    def loop_carried(self, loop: _Loop) -> None:
        """An overwrite before a launch that reads the same array, both in the loop body."""
        for call, hit in loop.overwrites:
            text, _, target = hit
            if _mentions_any(target, loop.bound):
                continue
            for launch, kernel, inputs in loop.launches:
                if text in inputs and pos(launch) > pos(call):
                    self.report(call, hit, _Read(launch, kernel), previous_iteration=True)
                    break

    def launch(self, call: ast.Call) -> Optional[Tuple[str, List[str]]]:
        """(kernel, input texts) for a taped ``wp.launch`` (memoised: loops ask twice)."""
        key = id(call)
        if key not in self._launches:
            self._launches[key] = self._launch(call)
        return self._launches[key]

    def _launch(self, call: ast.Call) -> Optional[Tuple[str, List[str]]]:
        func = call.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if not name.startswith("launch") or not self.ctx.names.is_warp(func, "launch", "launch_tiled"):
            return None
        kw = {k.arg: k.value for k in call.keywords if k.arg}
        record = kw.get("record_tape")
        if isinstance(record, ast.Constant) and record.value is False:
            return None
        kernel = kw.get("kernel", call.args[0] if call.args else None)
        inputs = kw.get("inputs", call.args[2] if len(call.args) > 2 else None)
        if not isinstance(inputs, (ast.List, ast.Tuple)) or any(isinstance(e, ast.Starred) for e in inputs.elts):
            return None
        # Warp binds inputs then outputs to the kernel's parameters in order.
        # When the kernel is in this file, an argument it only writes through
        # (``q_out[tid] = ...``, ``+=``, atomic_add) is not a read, even if the
        # user listed it in ``inputs=``.
        fn = self.ctx.kernel(kernel)
        params = list(fn.params) if fn is not None else []
        texts = []
        for i, e in enumerate(inputs.elts):
            if fn is not None and i < len(params) and not fn.index.reads(params[i]):
                continue
            texts.append(unparse(e))
        return (unparse(kernel) if kernel is not None else "?"), texts

    def overwrite(self, call: ast.Call) -> Optional[Tuple[str, str, ast.expr]]:
        """(array text, operation, array expression) for ``x.zero_()``, ``wp.copy(x, ...)``..."""
        key = id(call)
        if key not in self._overwrites:
            self._overwrites[key] = self._overwrite(call)
        return self._overwrites[key]

    def _overwrite(self, call: ast.Call) -> Optional[Tuple[str, str, ast.expr]]:
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr in _METHODS:
            if self.ctx.names.qualname(func.value) is None:  # not wp.<something>.assign
                return unparse(func.value), func.attr, func.value
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name == "copy" and self.ctx.names.is_warp(func, "copy"):
            kw = {k.arg: k.value for k in call.keywords if k.arg}
            dest = kw.get("dest", call.args[0] if call.args else None)
            if dest is not None:
                return unparse(dest), "copy", dest
        return None

    def report(self, call: ast.Call, hit, read: _Read, previous_iteration: bool) -> None:
        text, operation, _ = hit
        shown = "wp.copy(%s, ...)" % text if operation == "copy" else "%s.%s()" % (text, operation)
        when = "in the previous iteration of this loop" if previous_iteration else "earlier in this tape block"
        self.out.append(findings.make(
            self.ctx.src, CODE,
            "`%s` overwrites `%s`, which the taped launch of `%s` (line %d) read %s: in tape.backward() "
            "that launch's adjoint reads the overwritten values" % (shown, text, read.kernel, read.launch.lineno, when),
            call,
            related=[findings.related(self.ctx.src, read.launch, "`%s` reads `%s` here" % (read.kernel, text), "reader")],
            data={"array": text, "operation": operation, "kernel": read.kernel, "reader_line": read.launch.lineno,
                  "runtime_code": _METHODS.get(operation, "TW102"), "previous_iteration": previous_iteration},
        ))


def _rebind(reads: Reads, target: ast.AST) -> None:
    """``x = ...`` makes ``x`` (and ``x.q``, ``x[i]``) a different array from the one read."""
    if isinstance(target, (ast.Tuple, ast.List)):
        for elt in target.elts:
            _rebind(reads, elt)
        return
    text = unparse(target)
    for key in [k for k in reads if k == text or k.startswith(text + ".") or k.startswith(text + "[")]:
        del reads[key]


def _union(a: Reads, b: Reads) -> Reads:
    out = dict(a)
    for k, v in b.items():
        out.setdefault(k, v)
    return out


def _mentions_any(expr: ast.expr, names: Set[str]) -> bool:
    return any(isinstance(n, ast.Name) and n.id in names for n in walk(expr))
