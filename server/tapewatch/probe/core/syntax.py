"""Small facts about Python syntax trees that the probe's source readers share."""

from __future__ import annotations

import ast


def innermost_function(tree: ast.AST, line: int) -> ast.AST:
    """The innermost function definition of ``tree`` that holds ``line``, or ``tree`` itself (module code)."""
    scope: ast.AST = tree
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                node.lineno <= line <= (node.end_lineno or node.lineno) and node.lineno >= getattr(scope, "lineno", 0):
            scope = node
    return scope
