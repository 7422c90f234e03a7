"""What a harness needs from a script: its parameters and its loss.

Parameters are the arrays the optimizer updates: allocated with
``requires_grad=True`` and whose ``.grad`` the program reads (an optimizer
step, a print, an ``optim`` call).  The loss is what ``tape.backward``
differentiates.  The script's AST gives names and lines; the last run's tape
graphs (when there was one) fill in allocation sites the AST cannot see,
such as an array allocated inside a helper.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence

_OPTIMIZERS = {"SGD", "Adam"}


@dataclass
class ParamPlan:
    name: str
    line: Optional[int]  # allocation line, None when it must be filled in
    path: Optional[str] = None  # None: the script itself
    grad_read_line: Optional[int] = None


@dataclass
class Plan:
    script: str
    params: List[ParamPlan] = field(default_factory=list)
    loss: Optional[str] = None
    backward_lines: List[int] = field(default_factory=list)
    problems: List[str] = field(default_factory=list)


def discover(script: str, source: Optional[str] = None, tapes: Sequence = ()) -> Plan:
    plan = Plan(script=script)
    if source is None:
        with open(script, encoding="utf-8") as f:
            source = f.read()
    try:
        tree = ast.parse(source, script)
    except SyntaxError as exc:
        plan.problems.append("the script is not valid Python (line %s): %s" % (exc.lineno, exc.msg))
        return plan

    allocations: Dict[str, int] = {}
    grad_reads: Dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and _requires_grad_call(node.value):
            for target in node.targets:
                if isinstance(target, (ast.Name, ast.Attribute, ast.Subscript)):
                    allocations.setdefault(ast.unparse(target), node.lineno)
        elif isinstance(node, ast.Attribute) and node.attr == "grad" and isinstance(node.ctx, ast.Load):
            grad_reads.setdefault(ast.unparse(node.value), node.lineno)
        elif isinstance(node, ast.Call):
            name = _callee(node)
            if name == "backward":
                plan.backward_lines.append(node.lineno)
                loss = _loss_expr(node)
                if loss is not None and plan.loss is None:
                    plan.loss = loss
            elif name in _OPTIMIZERS and node.args and isinstance(node.args[0], (ast.List, ast.Tuple)):
                for elt in node.args[0].elts:
                    grad_reads.setdefault(ast.unparse(elt), node.lineno)

    # The loss's own gradient is the seed, not a parameter.
    for expr, line in sorted(grad_reads.items(), key=lambda kv: kv[1]):
        if expr == plan.loss:
            continue
        alloc_line = allocations.get(expr) or _by_attribute(expr, allocations)
        path = None
        if alloc_line is None:
            alloc_line, path = _from_tapes(expr, tapes)
        if alloc_line is None and expr not in allocations:
            # Reading .grad of something never allocated with requires_grad in sight:
            # keep it only if the last run says it is an array with a gradient.
            if not tapes:
                plan.problems.append("`%s.grad` is read at line %d but no allocation of `%s` with "
                                     "requires_grad=True was found" % (expr, line, expr))
                plan.params.append(ParamPlan(expr, None, None, line))
            continue
        plan.params.append(ParamPlan(expr, alloc_line, path, line))
    if not plan.backward_lines:
        plan.problems.append("no `tape.backward(...)` call was found")
    if not plan.params:
        plan.problems.append("no parameter was found: no array allocated with requires_grad=True whose "
                             "`.grad` the script reads")
    return plan


def _requires_grad_call(node) -> bool:
    if not isinstance(node, ast.Call):
        return False
    return any(kw.arg == "requires_grad" and isinstance(kw.value, ast.Constant) and kw.value.value is True
               for kw in node.keywords)


def _callee(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def _loss_expr(call: ast.Call) -> Optional[str]:
    if call.args:
        return ast.unparse(call.args[0])
    for kw in call.keywords:
        if kw.arg == "loss":
            return ast.unparse(kw.value)
        if kw.arg == "grads" and isinstance(kw.value, ast.Dict) and kw.value.keys:
            key = kw.value.keys[0]
            return ast.unparse(key) if key is not None else None
    return None


def _by_attribute(expr: str, allocations: Dict[str, int]) -> Optional[int]:
    """``state.q`` read, ``self.q`` allocated: match on the attribute."""
    if "." not in expr:
        return None
    attr = expr.rsplit(".", 1)[1]
    hits = [line for target, line in allocations.items() if target.endswith("." + attr)]
    return hits[0] if len(hits) == 1 else None


def _from_tapes(expr: str, tapes) -> tuple:
    for tape in tapes:
        for node in tape.nodes:
            if node.kind == "array" and expr in node.names and node.location is not None:
                return node.location.line, node.location.path
    return None, None
