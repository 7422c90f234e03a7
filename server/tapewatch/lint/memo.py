"""What the kernel rules found in each Warp function, kept between lints of one open file.

A function's findings depend on its own text and on a few facts of the whole
file: import aliases, constants, user-defined vector types, structs and
option sites.  ``ChunkParser`` hands back the very same nodes for a
definition whose text did not change, so a function is checked again only
when its node is new, its kind changed, or those facts changed.  A
definition that moved (lines inserted above it) gets its findings back moved
by as many lines: every line a kernel rule names lies inside the function.
"""

from __future__ import annotations

import ast
import dataclasses
import re
from typing import Callable, Dict, List, Tuple

from tapewatch.model import Finding, Location, Related

_LINE_MENTION = re.compile(r"\bline (\d+)")


class FunctionMemo:
    def __init__(self) -> None:
        self._entries: Dict[int, _Entry] = {}
        self._used: Dict[int, _Entry] = {}
        self._functions: Dict[int, tuple] = {}  # id(def) -> (def, key, WarpFunction or None)
        self._functions_used: Dict[int, tuple] = {}
        self.checked = 0  # functions checked by the last lint (the others came from the memo)

    def begin(self) -> None:
        self._used = {}
        self._functions_used = {}
        self.checked = 0

    def end(self) -> None:
        self._entries = self._used  # definitions gone from the file are forgotten
        self._functions = self._functions_used

    def function(self, node: ast.AST, key: tuple, describe: Callable[[], object]):
        """``kernels.warp_function`` of a definition, kept while its node and the names it resolves stay:
        a fresh copy each time (the context gives it this lint's index builder)."""
        known = self._functions.get(id(node))
        if known is None or known[0] is not node or known[1] != key:
            known = (node, key, describe())
        self._functions_used[id(node)] = known
        fn = known[2]
        return dataclasses.replace(fn, builder=None, _index=None) if fn is not None else None

    def findings(self, node: ast.AST, key: tuple, check: Callable[[], List[Finding]]) -> List[Finding]:
        entry = self._entries.get(id(node))
        if entry is None or entry.node is not node or entry.key != key:
            self.checked += 1
            entry = _Entry(node, key, check())
        self._used[id(node)] = entry
        return entry.moved_to(node)


class _Entry:
    __slots__ = ("node", "key", "first", "last", "found")

    def __init__(self, node: ast.AST, key: tuple, found: List[Finding]) -> None:
        self.node = node  # kept alive so that id(node) cannot be reused by another node
        self.key = key
        self.first, self.last = _span(node)
        self.found = found

    def moved_to(self, node: ast.AST) -> List[Finding]:
        """Fresh copies (callers edit findings), moved to where the node is now."""
        first, _ = _span(node)
        delta = first - self.first
        return [_moved(f, delta, self.first, self.last) for f in self.found]


def _span(node: ast.AST) -> Tuple[int, int]:
    decorators = getattr(node, "decorator_list", None) or []
    first = min([node.lineno] + [d.lineno for d in decorators])
    return first, getattr(node, "end_lineno", None) or node.lineno


def _moved(f: Finding, delta: int, first: int, last: int) -> Finding:
    def line(n: int) -> int:
        return n + delta if first <= n <= last else n

    def location(loc):
        if loc is None or not delta:
            return loc
        return Location(loc.path, line(loc.line), loc.column,
                        line(loc.end_line) if loc.end_line is not None else None, loc.end_column)

    def text(message: str) -> str:
        return _LINE_MENTION.sub(lambda m: "line %d" % line(int(m.group(1))), message) if delta else message

    data = dict(f.data)
    if delta:
        for k, v in data.items():
            if k.endswith("_line") and isinstance(v, int):
                data[k] = line(v)
    return Finding(code=f.code, message=text(f.message), location=location(f.location), severity=f.severity,
                   related=[Related(location(r.location), text(r.message), r.role) for r in f.related],
                   count=f.count, id=f.id, data=data)
