"""Small facts about Python syntax trees that the probe's source readers share."""

from __future__ import annotations

import ast


def callee(func: ast.expr) -> str:
    """The name a call is spelled with: ``f`` for ``f(...)`` and ``mod.f(...)``; ``""`` otherwise."""
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return ""
