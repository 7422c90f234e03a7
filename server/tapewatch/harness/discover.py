"""What a harness needs from a script: its parameters and its loss.

Parameters are the arrays the optimizer updates: allocated with
``requires_grad=True`` and whose ``.grad`` the program reads (an optimizer
step, a print, an ``optim`` call).  A ``.grad`` the program *writes*
(``y.grad.fill_(1.0)``, ``assign``, the destination of a copy) is a seed of
an argument-less ``backward()``, not a parameter.  The loss is what
``tape.backward`` differentiates (or what the seeds weight).  The script's
AST gives names and lines, and so do the user's own modules it imports
(files next to it); the last run's tape graphs (when there was one) fill in
allocation sites the AST cannot see, such as an array allocated inside a
helper.
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
    seeds: List[str] = field(default_factory=list)  # arrays whose .grad the program writes before backward()
    chosen: Optional[str] = None  # how the parameters were chosen, when no optimizer or .grad read named them


_SEED_WRITES = {"fill_", "zero_", "assign"}


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
    alloc_paths: Dict[str, str] = {}  # expression -> the module file that allocates it (not the script)
    grad_reads: Dict[str, int] = {}
    seeds = _seed_writes(tree)
    plan.seeds = sorted(seeds)
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and _requires_grad_call(node.value):
            for target in node.targets:
                if isinstance(target, (ast.Name, ast.Attribute, ast.Subscript)):
                    allocations.setdefault(ast.unparse(target), node.lineno)
        elif isinstance(node, ast.Attribute) and node.attr == "grad" and isinstance(node.ctx, ast.Load):
            if id(node) not in seeds.values():
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
    if plan.loss is None and plan.backward_lines and seeds:
        plan.loss = "the outputs seeded through %s" % ", ".join("`%s.grad`" % s for s in sorted(seeds))
    # The user's own modules next to the script: where helpers allocate parameters.
    for path, module_tree in _local_modules(script, tree):
        for node in ast.walk(module_tree):
            if isinstance(node, ast.Assign) and _requires_grad_call(node.value):
                for target in node.targets:
                    if isinstance(target, (ast.Name, ast.Attribute, ast.Subscript)):
                        key = ast.unparse(target)
                        if key not in allocations:
                            allocations[key] = node.lineno
                            alloc_paths[key] = path

    # The loss's own gradient is the seed, not a parameter.
    for expr, line in sorted(grad_reads.items(), key=lambda kv: kv[1]):
        if expr == plan.loss or expr in seeds:
            continue
        alloc_line = allocations.get(expr) or _by_attribute(expr, allocations)
        path = alloc_paths.get(expr) or alloc_paths.get(_attribute_match(expr, allocations) or "")
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
        # No optimizer and no gradient read: the leaves of the tape (arrays with requires_grad=True that a
        # taped launch read and nothing on the tape wrote), as Warp's own ``gradcheck_tape`` does.
        plan.params = _tape_leaves(tapes, plan.loss) or _source_leaves(tree, allocations, plan.loss)
        if plan.params:
            plan.chosen = ("no optimizer and no `.grad` read was found: the parameters are the arrays with "
                           "requires_grad=True that the tape reads and nothing on it writes (%s)"
                           % ", ".join("`%s`" % p.name for p in plan.params))
    if not plan.params:
        plan.problems.append("no parameter was found: no array allocated with requires_grad=True whose "
                             "`.grad` the script reads")
    return plan


def _tape_leaves(tapes, loss: Optional[str]) -> List[ParamPlan]:
    """The leaves of the last run's first tape: array nodes with requires_grad, read, never written."""
    for tape in tapes:
        written = {e.target for e in tape.edges if e.kind == "write"}
        read = {e.source for e in tape.edges if e.kind == "read"}
        out = []
        for node in tape.nodes:
            if node.kind == "array" and node.requires_grad and node.id in read and node.id not in written \
                    and node.names and node.location is not None and node.names[0] != loss:
                out.append(ParamPlan(node.names[0], node.location.line, node.location.path))
        if out:
            return out
    return []


def _source_leaves(tree, allocations: Dict[str, int], loss: Optional[str]) -> List[ParamPlan]:
    """Without a last run: arrays allocated with requires_grad=True that some ``wp.launch`` passes in
    ``inputs`` and no launch passes in ``outputs``."""
    inputs, outputs = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _callee(node) in ("launch", "launch_tiled"):
            for kw in node.keywords:
                if kw.arg in ("inputs", "outputs") and isinstance(kw.value, (ast.List, ast.Tuple)):
                    (inputs if kw.arg == "inputs" else outputs).update(ast.unparse(e) for e in kw.value.elts)
    return [ParamPlan(name, line) for name, line in sorted(allocations.items(), key=lambda kv: kv[1])
            if name in inputs and name not in outputs and name != loss]


def _seed_writes(tree) -> Dict[str, int]:
    """``y`` for every ``y.grad.fill_(...)`` / ``.zero_()`` / ``.assign(...)`` / ``wp.copy(y.grad, ...)``:
    expression -> id of that ``.grad`` attribute node."""
    out: Dict[str, int] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        target = None
        if isinstance(func, ast.Attribute) and func.attr in _SEED_WRITES and isinstance(func.value, ast.Attribute) \
                and func.value.attr == "grad":
            target = func.value
        elif _callee(node) == "copy" and node.args and isinstance(node.args[0], ast.Attribute) \
                and node.args[0].attr == "grad":
            target = node.args[0]
        if target is not None:
            out.setdefault(ast.unparse(target.value), id(target))
    return out


def _local_modules(script: str, tree) -> List[tuple]:
    """``(path, tree)`` of the modules the script imports that are files next to it."""
    import os  # noqa: PLC0415

    folder = os.path.dirname(os.path.abspath(script))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    out = []
    for name in sorted(names):
        candidate = os.path.join(folder, *name.split(".")) + ".py"
        if not os.path.isfile(candidate):
            continue
        try:
            with open(candidate, encoding="utf-8") as f:
                out.append((candidate, ast.parse(f.read(), candidate)))
        except (OSError, SyntaxError, ValueError):
            continue
    return out


def _attribute_match(expr: str, allocations: Dict[str, int]) -> Optional[str]:
    if "." not in expr:
        return None
    attr = expr.rsplit(".", 1)[1]
    hits = [target for target in allocations if target.endswith("." + attr)]
    return hits[0] if len(hits) == 1 else None


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
