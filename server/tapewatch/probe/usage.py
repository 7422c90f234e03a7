"""Which kernels the run launched, from which files, and whether a backward() differentiated them.

Sent at exit as one ``kernels`` event: the runner lints the user's files
the run involved and marks a static finding *confirmed* when the run
launched its kernel on a differentiated tape (with that launch as a
related location).  Files of installed packages and of Warp are flagged
``user: false`` and are not linted.
"""

from __future__ import annotations

import ast
import textwrap
from typing import Dict

from . import frames, warp_seams
from .sites import Site, def_location

MAX_KERNELS = 256


class KernelUsage:
    def __init__(self, tracker):
        self.tracker = tracker
        self._kernels: Dict[int, dict] = {}  # id(kernel) -> {kernel, first, differentiated}

    def on_launch(self, state, record) -> None:
        entry = self._kernels.get(id(record.kernel))
        if entry is None and len(self._kernels) < MAX_KERNELS:
            self._kernels[id(record.kernel)] = {"kernel": record.kernel, "first": record, "differentiated": None}

    def on_untaped_kernel(self, kernel) -> None:
        if id(kernel) not in self._kernels and len(self._kernels) < MAX_KERNELS:
            from .tracker import LaunchRecord  # noqa: PLC0415

            record = LaunchRecord(0, kernel, Site.here(), [], [], -1)
            self._kernels[id(kernel)] = {"kernel": kernel, "first": record, "differentiated": None}

    def before_backward(self, tape, state, site, args=(), kwargs=None) -> None:
        for record in state.launches:
            entry = self._kernels.get(id(record.kernel))
            if entry is not None and entry["differentiated"] is None:
                entry["differentiated"] = record

    def event(self) -> list:
        out = []
        registry = self.tracker.registry
        for entry in self._kernels.values():
            kernel = entry["kernel"]
            func = getattr(kernel, "func", None)
            loc = def_location(func)
            if loc is None:
                continue
            launch = entry["differentiated"] or entry["first"]
            where = registry.attempt("locating a launch", launch.location)
            out.append({
                "name": warp_seams.kernel_name(kernel),
                "path": loc.path,
                "line": loc.line,
                "user": frames.is_user_file(loc.path),
                "differentiated": entry["differentiated"] is not None,
                "launch": where.to_json() if where is not None else None,
                "calls": sorted(_called_names(kernel)),
            })
        return out


def _called_names(kernel) -> set:
    source = warp_seams.kernel_source(kernel)
    if not source:
        return set()
    try:
        tree = ast.parse(textwrap.dedent(source))
    except (SyntaxError, ValueError):
        return set()
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if name:
                out.add(name)
    return out
