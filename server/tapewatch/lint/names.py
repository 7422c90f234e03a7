"""Resolve what a name in the user's file means in Warp: ``wp.kernel`` -> ``warp.kernel``.

Users spell Warp three ways (``import warp as wp``, ``import warp``, ``from
warp import kernel``) and Warp re-exports the same object from several
modules (``warp.types.vector`` is ``wp.vector`` to a reader).  Every rule asks
this module instead of matching spellings, so a rule written against
``warp.launch`` works for all of them.
"""

from __future__ import annotations

import ast
from typing import Dict, Optional

from tapewatch.warpsrc.source import dotted

WARP = "warp"

# Sub-modules whose members users also reach as ``wp.<member>``.  Collapsing
# them gives each Warp object one canonical name.  ``autograd`` and
# ``config`` are *not* collapsed: their members mean something else at top
# level (``wp.config.enable_backward`` is not a kernel option).
_COLLAPSE = frozenset({"_src", "types", "context", "tape", "builtins", "lang", "codegen"})


def canonical(qualname: str) -> str:
    parts = qualname.split(".")
    if parts[0] != WARP or len(parts) < 3:
        return qualname
    middle = [p for p in parts[1:-1] if p not in _COLLAPSE]
    return ".".join([WARP] + middle + [parts[-1]])


class Names:
    """Import aliases of one file, and Warp-qualified names of expressions."""

    def __init__(self) -> None:
        self._aliases: Dict[str, str] = {}
        self._cache: Dict[str, Optional[str]] = {}

    def add_import(self, node: ast.AST) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if not _is_warp_module(alias.name):
                    continue
                if alias.asname:
                    self._aliases[alias.asname] = alias.name
                else:  # ``import warp.autograd`` binds ``warp``
                    top = alias.name.split(".")[0]
                    self._aliases[top] = top
        elif isinstance(node, ast.ImportFrom):
            if node.level or not node.module or not _is_warp_module(node.module):
                return
            for alias in node.names:
                if alias.name != "*":
                    self._aliases[alias.asname or alias.name] = node.module + "." + alias.name
        self._cache.clear()

    def finish(self) -> None:
        # Snippets pasted without their import still say ``wp.``: that spelling
        # is universal enough to assume, unless the file binds ``wp`` itself.
        self._aliases.setdefault("wp", WARP)
        self._cache.clear()

    def key(self) -> tuple:
        """The aliases as a comparable value: what every qualified name depends on."""
        return tuple(sorted(self._aliases.items()))

    def binds(self, name: str) -> bool:
        """True if ``name`` is bound to something from Warp (cheap pre-check before ``qualname``)."""
        return name in self._aliases

    def qualname(self, node: ast.AST) -> Optional[str]:
        """``warp.<...>`` for an expression naming a Warp object, else None."""
        text = dotted(node)
        if text is None:
            return None
        try:
            return self._cache[text]
        except KeyError:
            pass
        head, _, rest = text.partition(".")
        base = self._aliases.get(head)
        result = None
        if base is not None:
            result = canonical(base + "." + rest if rest else base)
        self._cache[text] = result
        return result

    def is_warp(self, node: ast.AST, *names: str) -> bool:
        """True if ``node`` names ``warp.<n>`` for one of ``names``."""
        q = self.qualname(node)
        return q is not None and q.startswith("warp.") and q[5:] in names


def _is_warp_module(name: str) -> bool:
    return name == WARP or name.startswith(WARP + ".")


def unparse(node: ast.AST) -> str:
    """Source text of an expression, normalised the way users compare it by eye.

    Identical to ``ast.unparse``; names, attributes and simple subscripts
    (``state.q``, ``states[i].q``, ``x[0]``), by far the most common
    arguments of a launch, are built directly because ``ast.unparse`` costs
    tens of microseconds per call.
    """
    fast = _simple_text(node)
    if fast is not None:
        return fast
    try:
        return ast.unparse(node)
    except Exception:  # noqa: BLE001 (malformed trees from odd sources: never let a label crash a rule)
        return "<expr>"


def _simple_text(node: ast.AST) -> Optional[str]:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _simple_text(node.value)
        if base is None or not isinstance(node.value, (ast.Name, ast.Attribute, ast.Subscript)):
            return None
        return base + "." + node.attr
    if isinstance(node, ast.Subscript):
        index = node.slice
        if isinstance(index, ast.Constant) and type(index.value) is int:
            inner = repr(index.value)
        elif isinstance(index, (ast.Name, ast.Attribute)):
            inner = _simple_text(index)
        else:
            return None
        base = _simple_text(node.value)
        if base is None or inner is None or not isinstance(node.value, (ast.Name, ast.Attribute, ast.Subscript)):
            return None
        return base + "[" + inner + "]"
    return None
