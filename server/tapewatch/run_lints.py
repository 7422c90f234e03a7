"""The static lints of every user file a run involved, next to its runtime findings.

A lint whose problem the run measured on the same line (its runtime twin in
``codes.RUNTIME_TWINS``) is left out: the run's finding says it, once.

A verification run lints the script, every module whose kernels it
launched or whose ``@wp.func``s those kernels call, and every file its
findings point at; installed packages and
Warp are left out.  A lint inside a kernel the run launched on a
differentiated tape is *confirmed*: that launch is added as a related
location (the pattern is not just possible, it was executed where a
gradient flows through it).  ``# noqa`` is honoured by the lint engine.
"""

from __future__ import annotations

import ast
import os
from typing import Dict, Iterable, List, Optional, Set, Tuple

from . import codes, lint_cache
from .installed import is_installed
from .model import Finding, Location, Related


def involved_files(script: str, kernels: Iterable[dict], findings: Iterable[Finding]) -> List[str]:
    paths = [os.path.abspath(script)]
    for k in kernels:
        if k.get("user") and k.get("path"):
            paths.append(str(k["path"]))
        # the @wp.func modules its kernels call (a module of functions launches nothing itself)
        paths.extend(str(fn["path"]) for fn in k.get("functions") or () if fn.get("user") and fn.get("path"))
    for f in findings:
        if f.location is not None and not f.code.startswith("TW9"):
            paths.append(f.location.path)
    out, seen = [], set()
    for p in paths:
        p = os.path.abspath(p)
        if p in seen or not p.endswith(".py") or not os.path.isfile(p) or (_is_library(p) and p != paths[0]):
            continue
        seen.add(p)
        out.append(p)
    return out


Prelinted = Dict[str, Tuple[bytes, List[Finding]]]  # path -> (the source linted, its lints)


def prelint(script: str) -> Prelinted:
    """The script's lints, computed while the probe runs (they need only the file)."""
    path = os.path.abspath(script)
    with open(path, "rb") as fh:
        source = fh.read()
    return {path: (source, lint_cache.lint(source, path))}


def lint_run(script: str, kernels: List[dict], findings: List[Finding],
             prelinted: Optional[Prelinted] = None,
             checks: Optional[Dict[Tuple[str, str], Set[str]]] = None) -> List[Finding]:
    """Lint findings for the files of a run, confirmed by the launches the run made.

    ``prelinted`` (from ``prelint``) is used for files whose content has not changed since.
    ``checks``: (kernel file, kernel name) -> the statuses of its per-launch finite-difference checks."""
    by_def: Dict[Tuple[str, str], dict] = {}
    calls: Dict[str, dict] = {}  # function name -> a differentiated kernel that calls it
    undifferentiated: Dict[Tuple[str, str], dict] = {}  # launched, but never on a differentiated tape
    for k in kernels:
        where = (os.path.abspath(str(k.get("path"))), str(k.get("name")))
        if not k.get("differentiated"):
            undifferentiated[where] = k
            continue
        by_def[where] = k
        for name in k.get("calls") or ():
            calls.setdefault(str(name), k)
    runtime: Dict[Tuple[str, int], set] = {}  # (path, line) -> runtime codes there or related there
    nan_seen = any(f.code in ("TW403", "TW407") for f in findings)
    absolute: Dict[str, str] = {}  # a run's thousands of locations name a handful of files
    for f in findings:
        for loc in [f.location] + [r.location for r in f.related]:
            if loc is not None:
                path = absolute.get(loc.path)
                if path is None:
                    path = absolute[loc.path] = os.path.abspath(loc.path)
                runtime.setdefault((path, loc.line), set()).add(f.code)
    out: List[Finding] = []
    for path in involved_files(script, kernels, findings):
        try:
            with open(path, "rb") as fh:
                source = fh.read()
        except OSError:
            continue
        early = (prelinted or {}).get(path)
        lints = early[1] if early is not None and early[0] == source else lint_cache.lint(source, path)
        if not lints:
            continue
        defs = _enclosing_defs(source)
        for n, f in enumerate(lints, start=1):
            if f.location is not None and codes.superseded(f.code, runtime.get((path, f.location.line), ())):
                continue  # the run measured the same problem on this line
            f.id = "lint-%s-%d" % (os.path.basename(path), n)
            name = defs(f.location.line) if f.location is not None else None
            kernel = by_def.get((path, name)) if name else None
            via = "" if kernel is not None else "called by "
            kernel = kernel or (calls.get(name) if name else None)
            launch = kernel.get("launch") if kernel else None
            if launch:
                loc = Location.from_json(launch)
                f.related = list(f.related) + [Related(
                    loc, "confirmed: %s`%s` was launched here on a tape that is differentiated"
                    % (via, kernel.get("name")), "confirmed-by")]
                f.data = dict(f.data, confirmed=True)
                passed = (checks or {}).get((path, name)) if not via else None
                if f.code in _MEASURED_BY_CHECKS and passed == {"pass"} and f.severity in ("warning", "error"):
                    # The kernel's own adjoint, checked against finite differences at its launches in this
                    # run, agreed every time: the carried value does not change this run's gradients.
                    f.severity = "information"
                    f.message += (" (Measured: at every launch this run checked, `%s`'s adjoint agreed with "
                                  "finite differences, so it does not change this run's gradients; other inputs "
                                  "may.)" % name)
                    f.data = dict(f.data, measured_harmless=True)
                elif f.code in _NAN_HAZARDS and not nan_seen and f.severity in ("warning", "error"):
                    # A hazard for other inputs: at this run's values every backward() left finite
                    # gradients (a NaN would have been a TW403), so it is not shown to matter here.
                    f.severity = "information"
                    f.message += (" (Not triggered in this run: every gradient `%s` reached after backward() "
                                  "was finite.)" % kernel.get("name"))
                    f.data = dict(f.data, triggered=False)
            elif name and (path, name) in undifferentiated and f.severity in ("warning", "error"):
                # The run launched it, but never where a gradient flows: possible, not shown to matter.
                f.severity = "information"
                f.message += (" (Not confirmed: this run launched `%s` only outside differentiated tapes.)"
                              % name)
                f.data = dict(f.data, confirmed=False)
            out.append(f)
    explain_launch_failures(kernels, findings, out)
    return out


# Kernel-code lints of a wrong adjoint the per-launch finite-difference check measures directly: a kernel
# whose every checked launch passed does not have one at this run's values (a mean subtracted inside a
# dynamic loop whose error cancels: only the deviations from it are used).
_MEASURED_BY_CHECKS = ("TW302", "TW303")

# Lints of a NaN the backward pass could produce for some inputs (a wp.where operand that overflows):
# the run's non-finite check measures whether it did.
_NAN_HAZARDS = ("TW304",)

# Kernel-code lints that make a kernel's own adjoint wrong: a measured TW404 on that kernel is most
# likely one of them, so it moves from the kernel's ``def`` onto the statement to change.
_ADJOINT_LINTS = ("TW301", "TW302", "TW303", "TW308")


def explain_launch_failures(kernels: List[dict], runtime: List[Finding], lints: List[Finding]) -> None:
    """A TW404 placed on a kernel's ``def`` (no custom adjoint to blame) moves to the first lint of
    ``_ADJOINT_LINTS`` inside that kernel or a ``@wp.func`` it calls, keeping the ``def`` related."""
    by_name = {str(k.get("name")): k for k in kernels}
    for f in runtime:
        if f.code != "TW404" or f.location is None or f.data.get("custom_adjoint"):
            continue
        kernel = by_name.get(str(f.data.get("kernel")))
        if kernel is None or (os.path.abspath(str(kernel.get("path"))), kernel.get("line")) != \
                (os.path.abspath(f.location.path), f.location.line):
            continue
        scopes = {(os.path.abspath(str(kernel["path"])), str(kernel["name"]))}
        scopes.update((os.path.abspath(str(fn.get("path"))), str(fn.get("name")))
                      for fn in kernel.get("functions") or ())
        causes = sorted((lint for lint in lints if lint.code in _ADJOINT_LINTS and lint.location is not None
                         and (os.path.abspath(lint.location.path), lint.data.get("kernel")) in scopes),
                        key=lambda lint: (lint.location.path != f.location.path, lint.location.line))
        if not causes:
            continue
        cause = causes[0]
        f.related = [Related(f.location, "kernel `%s` whose adjoint disagrees" % kernel["name"], "kernel")] + \
            [r for r in f.related if r.location != f.location]
        f.location = cause.location
        f.message += " Likely cause: the %s on this line (%s)." % (cause.code, codes.get(cause.code).name)
        f.data = dict(f.data, likely_cause=cause.code)


def _is_library(path: str) -> bool:
    """Installed code (``installed.is_installed``): never linted, except the script itself."""
    return is_installed(path)


def _enclosing_defs(source: bytes):
    """line -> the name of the innermost top-level-or-nested ``def`` containing it."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return lambda line: None
    # A def's decorators belong to it (TW305 sits on ``@wp.kernel(enable_backward=False)``).
    spans = [(min([n.lineno] + [d.lineno for d in n.decorator_list]), getattr(n, "end_lineno", n.lineno), n.name)
             for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    spans.sort(key=lambda s: s[1] - s[0])

    def find(line: int) -> Optional[str]:
        for start, end, name in spans:
            if start <= line <= end:
                return name
        return None

    return find
