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
from typing import Any, Callable, Dict, List, Tuple

from tapewatch.model import Finding, Location, Related

_LINE_MENTION = re.compile(r"\bline (\d+)")


class FunctionMemo:
    def __init__(self) -> None:
        self._findings = _Kept()  # the kernel rules' findings, with the span they were found at
        self._functions = _Kept()  # kernels.warp_function of each definition

    @property
    def checked(self) -> int:
        """Functions checked by the last lint (the others came from the memo)."""
        return self._findings.made

    def begin(self) -> None:
        self._findings.begin()
        self._functions.begin()

    def end(self) -> None:
        self._findings.end()
        self._functions.end()

    def function(self, node: ast.AST, key: tuple, describe: Callable[[], object]):
        """``kernels.warp_function`` of a definition, kept while its node and the names it resolves stay:
        a fresh copy each time (the context gives it this lint's index builder)."""
        fn = self._functions.get(node, key, describe)
        return dataclasses.replace(fn, builder=None, _index=None) if fn is not None else None

    def findings(self, node: ast.AST, key: tuple, check: Callable[[], List[Finding]]) -> List[Finding]:
        """Fresh copies (callers edit findings), moved to where the node is now."""
        (first, last), found = self._findings.get(node, key, lambda: (_span(node), check()))
        delta = _span(node)[0] - first
        return [_moved(f, delta, first, last) for f in found]


class _Kept:
    """A value per definition node, kept while the node (the same object: its text is unchanged) and
    its key stay; what one lint did not ask for is forgotten at its end."""

    def __init__(self) -> None:
        self._kept: Dict[int, tuple] = {}
        self._used: Dict[int, tuple] = {}
        self.made = 0

    def begin(self) -> None:
        self._used = {}
        self.made = 0

    def end(self) -> None:
        self._kept = self._used

    def get(self, node: ast.AST, key: tuple, make: Callable[[], Any]) -> Any:
        known = self._kept.get(id(node))
        if known is None or known[0] is not node or known[1] != key:
            # The node itself is kept alive, so that its id cannot be reused by another node.
            known = (node, key, make())
            self.made += 1
        self._used[id(node)] = known
        return known[2]


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
