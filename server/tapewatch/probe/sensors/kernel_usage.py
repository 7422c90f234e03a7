"""Which kernels the run launched, from which files, and whether a backward() differentiated them.

Sent at exit as one ``kernels`` event: the runner lints the user's files
the run involved and marks a static finding *confirmed* when the run
launched its kernel on a differentiated tape (with that launch as a
related location).  Files of installed packages and of Warp are flagged
``user: false`` and are not linted.
"""

from __future__ import annotations

import ast
from typing import Dict

from ..core import user_code, warp_seams
from ...warpsrc.source import callee, dotted_parts, parse_module
from ..core.sites import Site, def_location
from ..core.sensor import Sensor

MAX_KERNELS = 256
LAUNCH_CALLS = ("launch", "launch_tiled")


class KernelUsage(Sensor):
    """Which kernels ran, from where, and whether a backward differentiated them (the ``kernels`` event)."""

    CODES = ()

    def __init__(self, tracker):
        self.tracker = tracker
        # id(kernel) -> {kernel, first, differentiated}: the sites of its first launch and of its first launch
        # on a differentiated tape (sites, not launch records: a record holds the launch's arrays alive)
        self._kernels: Dict[int, dict] = {}

    def on_launch(self, state, record) -> None:
        entry = self._kernels.get(id(record.kernel))
        if entry is None and len(self._kernels) < MAX_KERNELS:
            self._kernels[id(record.kernel)] = {"kernel": record.kernel, "first": record.site, "differentiated": None}

    def on_untaped_kernel(self, kernel) -> None:
        if id(kernel) not in self._kernels and len(self._kernels) < MAX_KERNELS:
            self._kernels[id(kernel)] = {"kernel": kernel, "first": Site.here(), "differentiated": None}

    def on_adjoint_launch(self, kernel) -> None:
        entry = self._kernels.get(id(kernel))
        if entry is None and len(self._kernels) < MAX_KERNELS:
            entry = self._kernels[id(kernel)] = {"kernel": kernel, "first": Site.here(), "differentiated": None}
        if entry is not None and entry["differentiated"] is None:
            entry["differentiated"] = Site.here()  # its adjoint launch

    def before_backward(self, tape, state, site, args=(), kwargs=None) -> None:
        for record in state.launches:
            entry = self._kernels.get(id(record.kernel))
            if entry is not None and entry["differentiated"] is None:
                entry["differentiated"] = record.site

    def kernels_event(self) -> list:
        out = []
        registry = self.tracker.registry
        for entry in self._kernels.values():
            kernel = entry["kernel"]
            func = getattr(kernel, "func", None)
            loc = def_location(func)
            if loc is None:
                continue
            launch = entry["differentiated"] or entry["first"]
            where = registry.attempt("locating a launch", lambda: launch.location(LAUNCH_CALLS))
            out.append({
                "name": warp_seams.kernel_name(kernel),
                "path": loc.path,
                "line": loc.line,
                "user": user_code.is_user_file(loc.path),
                "differentiated": entry["differentiated"] is not None,
                "launch": where.to_json() if where is not None else None,
                "calls": sorted(_called_names(kernel)),
                "functions": registry.attempt("finding the functions a kernel calls",
                                              lambda: called_functions(kernel), []),
            })
        return out


MAX_FUNCTIONS = 64  # per kernel, through every level of calls


def called_functions(kernel) -> list:
    """``[{"name", "path", "user"}]``: the ``@wp.func``s a kernel calls, directly or through other
    ``@wp.func``s, resolved in the globals of the function that calls them (``horner(...)``,
    ``helpers.horner(...)``). Their files are linted with the kernel's (a helper module of functions
    has no kernel of its own)."""
    out: list = []
    seen, todo = {id(kernel)}, [kernel]
    while todo and len(out) < MAX_FUNCTIONS:
        caller = todo.pop()
        scope = getattr(getattr(caller, "func", None), "__globals__", None) or {}
        for chain in _called_chains(caller):
            target = _resolve(scope, chain)
            path = warp_seams.kernel_file(target) if target is not None else None
            if path is None or id(target) in seen:
                continue
            seen.add(id(target))
            out.append({"name": chain[-1], "path": path, "user": user_code.is_user_file(path)})
            todo.append(target)
    return out


def _called_chains(fn) -> list:
    """Dotted callee names in a Warp function's source: ``[("horner",), ("helpers", "horner")]``."""
    tree = parse_module(warp_seams.kernel_source(fn))
    if tree is None:
        return []
    chains = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            parts = dotted_parts(node.func)
            if parts is not None:
                chains.append(tuple(parts))
    return chains


def _resolve(scope: dict, chain: tuple):
    """The object a dotted name means in a module's globals, if it is a user's Warp function."""
    if chain[0] not in scope:
        return None
    obj = scope[chain[0]]
    for part in chain[1:]:
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    # A Warp function (``@wp.func``): a Python function under ``.func`` and Warp's adjoint under ``.adj``.
    if not callable(getattr(obj, "func", None)) or getattr(obj, "adj", None) is None:
        return None
    return obj


def _called_names(kernel) -> set:
    tree = parse_module(warp_seams.kernel_source(kernel))
    if tree is None:
        return set()
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = callee(func)
            if name:
                out.add(name)
    return out
