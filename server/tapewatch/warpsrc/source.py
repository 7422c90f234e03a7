"""Parsing a Warp kernel's source and the user's files once, and naming the parts of their syntax.

Warp keeps each kernel's and ``@wp.func``'s ``def`` text (indented as in its
file); several checks read the same kernel, so its parse is cached by that
text.  A cached tree is shared: a caller that rewrites it (an instrumented
variant) deep-copies it first.
"""

from __future__ import annotations

import ast
import functools
import linecache
import textwrap
from typing import Dict, Iterable, List, Mapping, Optional, Tuple


@functools.lru_cache(maxsize=512)
def parse_module(source: Optional[str]) -> Optional[ast.Module]:
    """The module tree of a dedented ``def``'s text; None when there is none or it does not parse."""
    if not source:
        return None
    try:
        return ast.parse(textwrap.dedent(source))
    except (SyntaxError, ValueError):
        return None


def parse_def(source: Optional[str]) -> Optional[ast.FunctionDef]:
    """The first ``def`` in a kernel's or function's source; None without one."""
    tree = parse_module(source)
    if tree is None:
        return None
    return next((n for n in tree.body if isinstance(n, ast.FunctionDef)), None)


def callee(func: ast.expr) -> str:
    """The name a call is spelled with: ``f`` for ``f(...)`` and ``mod.f(...)``; ``""`` otherwise."""
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return ""


def dotted_parts(node: ast.AST) -> Optional[List[str]]:
    """``["a", "b", "c"]`` for the chain ``a.b.c``; None for anything else (a call, a subscript)."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return parts[::-1]


def dotted(node: ast.AST) -> Optional[str]:
    """``a.b.c`` for a Name/Attribute chain, else None."""
    parts = dotted_parts(node)
    return ".".join(parts) if parts is not None else None


def root_name(node: ast.AST) -> Optional[ast.Name]:
    """``a`` for ``a``, ``a[i]``, ``a.b[i].c``: the variable an access path starts from."""
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        node = node.value
    return node if isinstance(node, ast.Name) else None


def resolve(node: ast.AST, namespaces: Iterable[Mapping], default=None):
    """The object ``a.b.c`` names in the first namespace that defines ``a`` (a kernel's globals, a
    frame's locals): a missing attribute gives None; ``default`` when the chain or its root is unknown."""
    parts = dotted_parts(node)
    if parts is None:
        return default
    for namespace in namespaces:
        if parts[0] in namespace:
            value = namespace[parts[0]]
            for attr in parts[1:]:
                value = getattr(value, attr, None)
            return value
    return default


# path -> (linecache's lines for it, their tree).  A file is parsed once for every reader in a run (the
# launch sites' calls, loops, rings, rebindings, host losses, view writes); it is parsed again only when
# linecache's lines for it change (an edited and reloaded module).
_FILE_TREES: Dict[str, Tuple[List[str], Optional[ast.Module]]] = {}
MAX_FILE_TREES = 64


def file_tree(path: str, module_globals: Optional[dict] = None) -> Optional[ast.Module]:
    """The syntax tree of a Python file (as linecache holds it, so a module loaded by a custom loader
    reads too); None when it cannot be read or parsed."""
    lines = linecache.getlines(path, module_globals)
    kept = _FILE_TREES.get(path)
    if kept is not None and kept[0] is lines:
        return kept[1]
    try:
        tree: Optional[ast.Module] = ast.parse("".join(lines), path) if lines else None
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        tree = None
    if len(_FILE_TREES) >= MAX_FILE_TREES:
        _FILE_TREES.clear()
    _FILE_TREES[path] = (lines, tree)
    return tree
