"""Find the Warp code in a file: kernels, functions, custom adjoints, and their array parameters.

Only bodies Warp compiles get kernel rules: ``@wp.kernel`` and ``@wp.func``
(Warp differentiates both).  ``@wp.func_grad`` / ``@wp.func_replay`` bodies
are found too, but they *are* adjoint / replay code and are never themselves
differentiated, so the differentiation rules skip them.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Callable, Dict, FrozenSet, Optional

from .names import Names

KERNEL = "kernel"
FUNC = "func"
FUNC_GRAD = "func_grad"
FUNC_REPLAY = "func_replay"
FUNC_NATIVE = "func_native"

_DECORATOR_KINDS = {
    "warp.kernel": KERNEL,
    "warp.func": FUNC,
    "warp.func_grad": FUNC_GRAD,
    "warp.func_replay": FUNC_REPLAY,
    "warp.func_native": FUNC_NATIVE,
}

# Parameter annotations that make a parameter a Warp array (global memory the
# tape tracks), as opposed to a value type passed by copy.
ARRAY_TYPES = frozenset(
    "warp." + n
    for n in (
        "array array1d array2d array3d array4d indexedarray indexedarray1d indexedarray2d "
        "indexedarray3d indexedarray4d fabricarray fabricarrayarray indexedfabricarray"
    ).split()
)


@dataclass
class WarpFunction:
    node: ast.FunctionDef
    kind: str
    decorator: ast.expr
    params: Dict[str, Optional[ast.expr]]
    array_params: FrozenSet[str]
    struct_params: Dict[str, str]  # parameter -> name of a @wp.struct defined in this file
    options: Dict[str, ast.expr] = field(default_factory=dict)  # decorator keywords
    module_options: Dict[str, ast.expr] = field(default_factory=dict)  # module_options={...}
    # Builds the body.FunctionIndex on first use (the context sets it): a function whose findings
    # the editor's memo already holds is never walked.
    builder: Optional[Callable[[], object]] = None
    _index: object = None

    @property
    def index(self):
        if self._index is None and self.builder is not None:
            self._index = self.builder()
        return self._index

    @property
    def value_params(self) -> FrozenSet[str]:
        """Kernel parameters passed by value (scalars, vectors): their adjoints are never returned."""
        if self.kind != KERNEL:
            return frozenset()
        return frozenset(p for p in self.params if p not in self.array_params and p not in self.struct_params)

    @property
    def name(self) -> str:
        return self.node.name

    @property
    def differentiated(self) -> bool:
        """Warp generates an adjoint for this body (custom grads/replays are adjoints themselves)."""
        return self.kind in (KERNEL, FUNC)


def decorator_kind(decorator: ast.expr, names: Names) -> Optional[str]:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    q = names.qualname(target)
    return _DECORATOR_KINDS.get(q) if q else None


def is_array_annotation(annotation: Optional[ast.expr], names: Names) -> bool:
    if annotation is None:
        return False
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        # Quoted annotations: parse them; a broken string is simply not an array.
        try:
            annotation = ast.parse(annotation.value, mode="eval").body
        except (SyntaxError, ValueError):
            return False
    if isinstance(annotation, (ast.Subscript, ast.Call)):  # wp.array[float], wp.array(dtype=float)
        annotation = annotation.value if isinstance(annotation, ast.Subscript) else annotation.func
    return names.qualname(annotation) in ARRAY_TYPES


def _keyword_dict(call: ast.expr) -> Dict[str, ast.expr]:
    if not isinstance(call, ast.Call):
        return {}
    return {k.arg: k.value for k in call.keywords if k.arg}


def dict_entries(node: Optional[ast.expr]) -> Dict[str, ast.expr]:
    """String-keyed entries of ``{"k": v}`` or ``dict(k=v)``; other forms give {}."""
    out: Dict[str, ast.expr] = {}
    if isinstance(node, ast.Dict):
        for key, value in zip(node.keys, node.values):
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                out[key.value] = value
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict":
        out.update(_keyword_dict(node))
    return out


def warp_function(
    node: ast.FunctionDef, names: Names, structs: Dict[str, Dict[str, ast.expr]], kind_hint: Optional[str] = None
) -> Optional[WarpFunction]:
    """Describe ``node`` if Warp compiles it (by decorator, or ``kind_hint`` from ``wp.kernel(f)``)."""
    kind, decorator = None, None
    for dec in node.decorator_list:
        kind = decorator_kind(dec, names)
        if kind:
            decorator = dec
            break
    if kind is None:
        if kind_hint is None:
            return None
        kind, decorator = kind_hint, node
    args = node.args
    params: Dict[str, Optional[ast.expr]] = {}
    for a in list(getattr(args, "posonlyargs", [])) + list(args.args) + list(args.kwonlyargs):
        params[a.arg] = a.annotation
    arrays = frozenset(p for p, ann in params.items() if is_array_annotation(ann, names))
    struct_params = {}
    for p, ann in params.items():
        if isinstance(ann, ast.Name) and ann.id in structs:
            struct_params[p] = ann.id
    options = _keyword_dict(decorator)
    return WarpFunction(
        node=node,
        kind=kind,
        decorator=decorator,
        params=params,
        array_params=arrays,
        struct_params=struct_params,
        options=options,
        module_options=dict_entries(options.get("module_options")),
    )


def struct_array_fields(struct_fields: Dict[str, ast.expr], names: Names) -> FrozenSet[str]:
    return frozenset(f for f, ann in struct_fields.items() if is_array_annotation(ann, names))


def collect_struct_fields(node: ast.ClassDef) -> Dict[str, ast.expr]:
    return {
        s.target.id: s.annotation
        for s in node.body
        if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)
    }
