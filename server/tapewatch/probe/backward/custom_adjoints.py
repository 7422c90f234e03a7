"""Which custom adjoint (``@wp.func_grad``) makes a launch's adjoint wrong.

When a launch disagrees with finite differences (TW404) and its kernel
calls ``@wp.func``s that have custom adjoints, each custom adjoint is
checked on its own: a small generated kernel calls the function on inputs
drawn around the values the launch saw (array elements for arguments that
come from arrays, a third of them with the sign flipped and a sixth spread
around zero, so that each branch on the sign is taken; the launch's own
scalars and constants for the rest), and
its adjoint (which is the custom one) is compared with finite differences
of the function's forward, at every sample.  The first one that fails is
where the fix goes: its ``wp.adjoint[x]`` statement for the input that
disagrees, in the branch the failing inputs took (the adjoint's ``if``s
followed in Python for those inputs).
"""

from __future__ import annotations

import ast
import hashlib
import os
import tempfile
import types
from typing import Any, List, NamedTuple, Optional

from ...model import Location, Related
from ..core import warp_seams
from .reached_functions import reached_functions
from ...warpsrc.source import callee, parse_def, parse_module
from ..core.kernel_access import call_argument_sources, nested_argument_arrays
from ..core.sites import def_location

SAMPLES = 24


class Culprit(NamedTuple):
    func_name: str
    location: Location
    numbers: str
    related: List[Related]




def custom_adjoints_called(wp, kernel) -> List[tuple]:
    """``[(name, Function)]`` of the ``@wp.func``s with a custom adjoint the kernel reaches: called
    directly or through other ``@wp.func``s (``reached_functions``)."""
    return [(name, obj) for name, obj in reached_functions(wp, kernel) if warp_seams.custom_grad(obj) is not None]


def locate_wrong_adjoint(wp, kernel, entry, checks, spread: bool = True) -> Optional[Culprit]:
    """The first custom adjoint the kernel calls that disagrees with finite differences of its own forward
    function.  ``spread``: besides the launch's values, inputs of both signs (after the launch itself
    failed, to find the branch); without it only around the launch's values (a check of its own, which must
    not accuse a branch the program never takes).  After a failed launch (``spread``) a custom adjoint that
    assigns ``wp.adjoint[x]`` is the culprit when every one is right on its own; a launch that passed shows
    that the assignment dropped nothing (``x`` used once)."""
    from .finite_diff import check_launch  # noqa: PLC0415

    called = custom_adjoints_called(wp, kernel)
    for name, fn in called:
        harness = _Harness(wp, kernel, entry, name, fn, spread)
        built = harness.build()
        if built is None:
            continue
        test_entry, reads, writes = built
        scaled = False
        with checks.quiet():
            # Every sample is its own input and output: all of them are compared, so a wrong branch that
            # only some inputs take is seen.
            result = check_launch(wp, checks.real_launch, test_entry, reads, writes,
                                  lambda pos, field: harness.labels[pos], cotangent="ones", samples_per_input=SAMPLES)
            if result.status == "pass":
                # With an output adjoint of 1 an adjoint that ignores ``adj_ret`` looks right:
                # check again with other output adjoints.
                scaled = True
                result = check_launch(wp, checks.real_launch, test_entry, reads, writes,
                                      lambda pos, field: harness.labels[pos], cotangent="random",
                                      samples_per_input=SAMPLES)
        worst = result.worst
        if result.status != "fail" or worst is None:
            continue
        grad = warp_seams.custom_grad(fn)
        # The statements the failing inputs ran (a branch of several may be the wrong one).
        taken = _statements_taken(grad, harness.sample_inputs(worst))
        # Right for an output adjoint of 1 only: the statement that does not use the output's adjoint.
        loc = _adjoint_statement(grad, worst["input"], _output_adjoint(grad) if scaled else None, taken) or \
            def_location(getattr(grad, "func", None))
        if loc is None:
            continue
        signs = ", of both signs" if spread else ""
        if scaled:
            numbers = ("it is right when the output's adjoint is 1 but not otherwise: does it multiply by "
                       "`adj_ret`? (random output adjoints: it fails at %d of %d inputs around this launch's "
                       "values%s; worst: custom adjoint %.6g vs finite difference %.6g)"
                       % (result.failed, result.checked, signs, worst["ad"], worst["fd"]))
        else:
            numbers = ("d %s/d `%s` fails at %d of %d inputs around this launch's values%s (worst: custom "
                       "adjoint %.6g vs finite difference %.6g)"
                       % (name, worst["input"], result.failed, result.checked, signs, worst["ad"], worst["fd"]))
        related = []
        fdef = def_location(getattr(fn, "func", None))
        if fdef is not None:
            related.append(Related(fdef, "the forward function `%s` the adjoint must match" % name, "function"))
        return Culprit(name, loc, numbers, related)
    if not spread:
        return None
    # Each custom adjoint is right on its own: one that assigns instead of adding drops the
    # other contributions its input receives in this kernel.
    for name, fn in called:
        grad = warp_seams.custom_grad(fn)
        for input_name, loc in _adjoint_assignments(grad):
            numbers = ("its math matches finite differences, but it assigns `wp.adjoint[%s]` "
                       "instead of adding to it, so the other contributions `%s` receives in this kernel are "
                       "overwritten" % (input_name, input_name))
            fdef = def_location(getattr(fn, "func", None))
            related = [Related(fdef, "the forward function `%s`" % name, "function")] if fdef else []
            return Culprit(name, loc, numbers, related)
    return None


class _Harness:
    """A generated kernel ``out[i] = fn(a0[i], a1[i], ...)`` over sampled inputs."""

    def __init__(self, wp, kernel, entry, name, fn, spread: bool = True):
        self.wp, self.kernel, self.entry, self.name, self.fn = wp, kernel, entry, name, fn
        self.spread = spread
        self.labels: List[str] = []
        self.values: List = []  # the sampled inputs, one NumPy array per parameter (a row per sample)
        self.fixed: dict = {}  # parameter -> the launch's own struct value (the same for every sample)

    def build(self):
        wp = self.wp
        import numpy as np  # noqa: PLC0415

        fn = self.fn
        inputs, ret_type = warp_seams.function_signature(fn)
        if not inputs or ret_type is None:
            return None
        params = [p for p, _ in inputs]
        sources = call_argument_sources(self.kernel, self.name, len(params))
        nested = nested_argument_arrays(self.kernel, self.name, len(params))
        rng = np.random.default_rng(7)
        # The values the launch really passed (an instrumented copy of the kernel records them); else drawn
        # around the arrays they come from.
        kinds = [None if warp_seams.is_struct_type(wp, t) else _warp_type(wp, t) for _, t in inputs]
        self.captured = _capture(wp, self.kernel, self.entry, self.name, kinds)
        arrays, differentiable = [], []
        for k, (param, ptype) in enumerate(inputs):
            source = sources[k] if k < len(sources) else None
            if warp_seams.is_struct_type(wp, ptype):
                # A struct of settings (``cut: Cutoff``) taken from the launch's own argument: the same for every
                # sample, no derivative.
                given = self.entry.args[source[1]] if source is not None and source[0] == "param" and \
                    source[1] < len(self.entry.args) else None
                if given is None or not warp_seams.is_struct_instance(wp, given):
                    return None
                arrays.append(wp.array([given] * SAMPLES, dtype=ptype, device=self.entry.device))
                self.fixed[param] = given
                self.values.append(np.zeros(SAMPLES))
                differentiable.append(False)
                continue
            dtype = _warp_type(wp, ptype)
            if dtype is None:
                return None
            seen = self.captured[k] if self.captured is not None else None
            values = _rows(seen, rng) if seen is not None else self._values(source, dtype, rng)
            if values is None:
                return None
            # An argument taken from an array without requires_grad needs no derivative in this program: its
            # adjoint may be left out (its custom adjoint need not write ``wp.adjoint`` for it).
            if source is None:
                # Reached through another @wp.func: the kernel's arrays the argument depends on decide.
                through = nested[k] if k < len(nested) else None
                wants_grad = through is None or any(self._carries_grad(pos) for pos in through)
            else:
                wants_grad = source[0] == "array" and self._carries_grad(source[1])
            arrays.append(wp.array(values, dtype=dtype, requires_grad=wants_grad, device=self.entry.device))
            self.values.append(np.asarray(values, dtype=np.float64))
            differentiable.append(wants_grad)
        out = wp.zeros(SAMPLES, dtype=ret_type, requires_grad=True, device=self.entry.device)
        test_kernel = self._kernel([t if warp_seams.is_struct_type(wp, t) else _warp_type(wp, t) for _, t in inputs],
                                   ret_type)
        if test_kernel is None:
            return None
        self.labels = params + ["return value"]
        test_entry = warp_seams.LaunchEntry(test_kernel, SAMPLES, 0, arrays, [out], self.entry.device, 256, {})
        reads = {(i, "") for i in range(len(arrays)) if differentiable[i]}
        writes = {(len(arrays), "")}
        return test_entry, reads, writes

    def sample_inputs(self, worst: dict) -> Optional[dict]:
        """``{parameter: value}`` of the sample a check's worst element belongs to (a row of every input)."""
        label, element = worst.get("input"), int(worst.get("element", 0))
        if label not in self.labels[: len(self.values)]:
            return None
        column = self.values[self.labels.index(label)]
        width = column.shape[1] if column.ndim > 1 else 1
        row = element // max(width, 1)
        names = self.labels[: len(self.values)]
        found = {n: (v[row] if v.ndim > 1 else float(v[row])) for n, v in zip(names, self.values) if row < len(v)}
        found.update(self.fixed)
        return found

    def _carries_grad(self, position: int) -> bool:
        """The launch's argument at ``position`` has a gradient in the program (True when not known)."""
        arg = self.entry.args[position] if position < len(self.entry.args) else None
        return bool(getattr(arg, "requires_grad", True))

    def _values(self, source, dtype, rng):
        """Sampled inputs: from the launch's arrays, its scalars, or a seeded spread."""
        import numpy as np  # noqa: PLC0415

        wp = self.wp
        shape_of = warp_seams.type_shape(dtype)  # () for scalars
        length = 1
        for n in shape_of:
            length *= n
        length = length if shape_of else 0
        shape = (SAMPLES, length) if length else (SAMPLES,)
        if source is not None and source[0] == "constant":
            return np.full(shape, source[1], dtype=np.float64)
        if source is not None and source[0] == "param":
            value = self.entry.args[source[1]] if source[1] < len(self.entry.args) else None
            try:
                return np.full(shape, float(value), dtype=np.float64) if not length else \
                    np.tile(np.asarray(value, dtype=np.float64).reshape(-1)[:length], (SAMPLES, 1))
            except (TypeError, ValueError):
                return None
        pool = []
        if source is not None and source[0] == "array" and source[1] < len(self.entry.args):
            arr = self.entry.args[source[1]]
            if isinstance(arr, wp.array):
                try:
                    data = warp_seams.host_values(arr).astype(np.float64)
                    pool = data.reshape(-1, length) if length else data.reshape(-1)
                except Exception:
                    pool = []
        if len(pool):
            picks = rng.choice(len(pool), size=SAMPLES, replace=len(pool) < SAMPLES)
            values = np.asarray(pool)[picks]
            scale = np.abs(values).mean() if values.size else 1.0
            values = values + rng.standard_normal(values.shape) * 0.05 * (scale or 1.0)
            # The argument is often an expression of the array (``softplus(w * x + b)``), whose values reach
            # both signs: a third of the samples flipped, a sixth spread around zero, so each branch on the
            # sign is taken.
            if self.spread:
                third, sixth = SAMPLES // 3, SAMPLES // 6
                values[-third:] = -values[-third:]
                values[:sixth] = rng.standard_normal(values[:sixth].shape) * (scale or 1.0)
            return values
        return rng.standard_normal(shape)

    def _kernel(self, in_types, ret_type):
        names = ["a%d" % i for i in range(len(in_types))]
        header = ", ".join("%s: wp.array(dtype=_tw_t%d)" % (n, i) for i, n in enumerate(names))
        source = (
            "import warp as wp\n\n\n"
            "@wp.kernel\n"
            "def _tw_check_%s(%s, out: wp.array(dtype=_tw_ret)):\n"
            "    i = wp.tid()\n"
            "    out[i] = _tw_fn(%s)\n" % (self.name, header, ", ".join("%s[i]" % n for n in names))
        )
        folder = tempfile.mkdtemp(prefix="tapewatch-adjoint-")
        path = os.path.join(folder, "check_%s.py" % self.name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(source)
        # A name that is the same in every run for the same function and types: Warp keeps compiled
        # modules by name, so a later run loads this check from its cache instead of compiling it again.
        fingerprint = hashlib.sha1(("%s\n%s.%s\n%r\n%r" % (
            source, getattr(self.fn, "__module__", ""), getattr(self.fn, "__qualname__", self.name),
            in_types, ret_type)).encode("utf-8", "replace")).hexdigest()[:12]
        module = types.ModuleType("_tapewatch_check_%s_%s" % (self.name, fingerprint))
        module.__file__ = path
        module.__dict__.update({"_tw_fn": self.fn, "_tw_ret": ret_type,
                                **{"_tw_t%d" % i: t for i, t in enumerate(in_types)}})
        exec(compile(source, path, "exec"), module.__dict__)
        return module.__dict__.get("_tw_check_%s" % self.name)


def _capture(wp, kernel, entry, name, kinds):
    from .call_arguments import captured_arguments  # noqa: PLC0415

    try:
        return captured_arguments(wp, kernel, entry, name, kinds)
    except warp_seams.CaptureInProgress:
        raise
    except Exception:  # a kernel this rewrite cannot handle: the inputs are drawn around the arrays instead
        return None


def _rows(seen, rng):
    """``SAMPLES`` of the recorded values: every recorded call when there are fewer, else a seeded pick."""
    import numpy as np  # noqa: PLC0415

    picks = rng.choice(len(seen), size=SAMPLES, replace=len(seen) < SAMPLES)
    return np.asarray(seen, dtype=np.float64)[picks]


def _warp_type(wp, ptype):
    if ptype is float:
        return wp.float32
    if ptype is int:
        return None  # integers have no derivative to check
    if warp_seams.scalar_type_name(ptype) in ("float32", "float64"):
        return ptype
    return None


def _adjoint_assignments(grad) -> List[tuple]:
    """``[(input, location)]`` of ``wp.adjoint[input] = ...`` statements (not ``+=``)."""
    func = getattr(grad, "func", None)
    tree = parse_module(warp_seams.kernel_source(grad))
    code = getattr(func, "__code__", None)
    if tree is None or code is None:
        return []
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Subscript) and callee(t.value) == "adjoint" and isinstance(t.slice, ast.Name):
                    out.append((t.slice.id, Location(code.co_filename, code.co_firstlineno + node.lineno - 1,
                                                     node.col_offset + 1)))
    return out


def _output_adjoint(grad) -> Optional[str]:
    """The custom adjoint's last parameter: the output's adjoint (``adj_ret``)."""
    code = getattr(getattr(grad, "func", None), "__code__", None)
    return code.co_varnames[code.co_argcount - 1] if code is not None and code.co_argcount else None


def _adjoint_statement(grad, input_name: str, without_name: Optional[str] = None,
                       taken: Optional[set] = None) -> Optional[Location]:
    """The line that writes ``wp.adjoint[input]`` in a custom adjoint (the first of several; of those the
    failing inputs ran, when known (``taken``: their lines in the source); with ``without_name``, the first
    whose value does not use that name)."""
    func = getattr(grad, "func", None)
    tree = parse_module(warp_seams.kernel_source(grad))
    code = getattr(func, "__code__", None)
    if tree is None or code is None:
        return None
    found: list = []
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, ast.AugAssign) else []
        for t in targets:
            if isinstance(t, ast.Subscript) and callee(t.value) == "adjoint" and \
                    isinstance(t.slice, ast.Name) and t.slice.id == input_name:
                found.append(node)
    if taken:
        found = [n for n in found if n.lineno in taken] or found
    if without_name is not None:
        # The statement that forgets ``adj_ret`` (one branch of several may).
        missing = [n for n in found if not any(isinstance(x, ast.Name) and x.id == without_name
                                               for x in ast.walk(n.value))]
        found = missing or found
    found.sort(key=lambda n: (n.lineno, n.col_offset))
    if not found:
        return None
    node = found[0]
    return Location(code.co_filename, code.co_firstlineno + node.lineno - 1, node.col_offset + 1)


# -- which branch the failing inputs took ------------------------------------------------------------
_MATH = {"abs": abs, "min": min, "max": max, "float": float, "int": int}


def _statements_taken(grad, inputs: Optional[dict]) -> Optional[set]:
    """The lines (in the dedented source) of the statements a custom adjoint runs for ``inputs``, by
    following its straight-line assignments and ``if``s in Python; None when it cannot be followed (a
    loop, a call it does not know): then nothing is assumed."""
    if not inputs:
        return None
    fdef = parse_def(warp_seams.kernel_source(grad))
    if fdef is None:
        return None
    try:
        # The module's numbers first (``if v < V_STALL:`` compares with a constant of the helper module),
        # then the inputs, which shadow them.
        module = getattr(getattr(grad, "func", None), "__globals__", None) or {}
        env = {k: v for k, v in module.items() if type(v) in (int, float) and not k.startswith("__")}
        env.update(inputs)
        code = getattr(getattr(grad, "func", None), "__code__", None)
        if code is not None and code.co_argcount:
            env.setdefault(code.co_varnames[code.co_argcount - 1], 1.0)  # the output's adjoint
        taken: set = set()
        _run(fdef.body, env, taken)
        return taken
    except Exception:  # not followable in Python: no branch is assumed
        return None


def _run(body, env: dict, taken: set) -> None:
    for stmt in body:
        taken.add(stmt.lineno)
        if isinstance(stmt, ast.If):
            _run(stmt.body if _eval(stmt.test, env) else stmt.orelse, env, taken)
        elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            env[stmt.targets[0].id] = _value_or_unknown(stmt.value, env)
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
            env[stmt.target.id] = _value_or_unknown(stmt.value, env)
        elif isinstance(stmt, (ast.Assign, ast.AugAssign, ast.Expr, ast.Pass)):
            continue  # ``wp.adjoint[x] += ...``: what it adds does not decide a branch
        elif isinstance(stmt, ast.Return):
            return
        else:
            raise ValueError("a statement not followed: %s" % type(stmt).__name__)


class _Unknown:
    """A local whose value could not be followed (a call of another @wp.func): fine until a branch needs it."""


def _value_or_unknown(node, env: dict):
    try:
        return _eval(node, env)
    except Exception:
        return _Unknown


def _eval(node, env: dict):
    import numpy as np  # noqa: PLC0415

    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        value = env[node.id]
        if value is _Unknown:
            raise ValueError("a value not followed: %s" % node.id)
        return value
    if isinstance(node, ast.BinOp):
        a, b = _eval(node.left, env), _eval(node.right, env)
        ops = {ast.Add: np.add, ast.Sub: np.subtract, ast.Mult: np.multiply, ast.Div: np.divide,
               ast.Pow: np.power, ast.Mod: np.mod}
        return ops[type(node.op)](a, b)
    if isinstance(node, ast.UnaryOp):
        value = _eval(node.operand, env)
        return {ast.USub: lambda v: -v, ast.UAdd: lambda v: v, ast.Not: lambda v: not v}[type(node.op)](value)
    if isinstance(node, ast.BoolOp):
        values = [bool(_eval(v, env)) for v in node.values]
        return all(values) if isinstance(node.op, ast.And) else any(values)
    if isinstance(node, ast.Compare):
        left = _eval(node.left, env)
        compare: dict = {ast.Gt: np.greater, ast.GtE: np.greater_equal, ast.Lt: np.less, ast.LtE: np.less_equal,
               ast.Eq: np.equal, ast.NotEq: np.not_equal}
        for op, right in zip(node.ops, node.comparators):
            value = _eval(right, env)
            if not bool(compare[type(op)](left, value)):
                return False
            left = value
        return True
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        return _eval(node.value, env)[node.slice.value]
    if isinstance(node, ast.Attribute) and (not isinstance(node.value, ast.Name) or node.value.id in env):
        return getattr(_eval(node.value, env), node.attr)  # a struct's field (``cut.r_on``)
    if isinstance(node, ast.Call) and not node.keywords:
        name = callee(node.func)
        args = [_eval(a, env) for a in node.args]
        fn: Any = _MATH.get(name) if isinstance(node.func, ast.Name) else getattr(np, name, None)
        if name == "sign":
            fn = np.sign
        elif name == "clamp":
            fn = np.clip
        elif name in ("length", "norm"):
            fn = np.linalg.norm
        elif name == "dot":
            fn = np.dot
        if fn is None:
            raise ValueError("a call not followed: %s" % name)
        return fn(*args)
    raise ValueError("an expression not followed: %s" % type(node).__name__)
