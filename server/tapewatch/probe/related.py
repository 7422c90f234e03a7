"""Related locations every sensor attaches: allocations, call chains, kernels.

Each builder is tolerant: it returns fewer locations rather than raise, so
a finding never depends on them.
"""

from __future__ import annotations

import ast
import linecache
import os
from typing import List, Optional, Tuple

from ..model import Location, Related
from . import frames, warp_seams
from .sites import Site, def_location

MAX_VIEW_DEPTH = 8
# Related locations that many findings share (an array's allocation, a kernel's def) are made once:
# a run keeps every finding, and each Related is one more object for the collector to walk.
# Nothing edits a Related in place.  Keyed by identity, with the keyed object kept in the value.
_SHARED: dict = {}
MAX_SHARED = 1 << 12


def _shared(key, keep, make) -> list:
    known = _SHARED.get(key)
    if known is None or known[0] is not keep:
        known = (keep, make())
        if len(_SHARED) < MAX_SHARED:
            _SHARED[key] = known
    return list(known[1])


def alloc_site(arr) -> Optional[Site]:
    """Where an array (or the array it is a view of) was allocated."""
    depth = 0
    while arr is not None and depth < MAX_VIEW_DEPTH:
        site = getattr(arr, "__dict__", {}).get("_tw_alloc_site")
        if site is not None:
            return site
        arr = warp_seams.view_parent(arr)
        depth += 1
    return None


def allocation(arr, what: str) -> List[Related]:
    """The allocation, then the line that called the factory or ``State()`` that allocated it."""
    site = alloc_site(arr)
    if site is None or not site.snaps:
        return []

    def make():
        out = [Related(site.location(), "`%s` allocated here" % what, "allocation")]
        for outer, inner in zip(site.snaps[1:], site.snaps):
            out.append(Related(outer.location((inner.f_code.co_name,)),
                               "`%s()` called from here for that allocation" % called_name(outer, inner),
                               "allocation-caller"))
        return out

    return _shared(("allocation", id(site), what), site, make)


def called_name(outer, inner) -> str:
    """What the caller wrote: ``State`` for a constructor, not ``__init__``."""
    call = frames.call_at(outer, (inner.f_code.co_name,))
    name = frames.callee_name(call) if call is not None else ""
    return name or inner.f_code.co_name


def caller_chain(site: Site, role: str = "caller", suffix: str = "") -> List[Related]:
    """``helper()`` called from here, for every frame outside the innermost."""
    out = []
    for outer, inner in zip(site.snaps[1:], site.snaps):
        loc = outer.location((inner.f_code.co_name,))
        out.append(Related(loc, "`%s()` called from here%s" % (inner.f_code.co_name, suffix), role))
    return out


def kernel_def(kernel, message: str, role: str = "kernel") -> List[Related]:
    loc = def_location(getattr(kernel, "func", None))
    if loc is None:
        return []
    return _shared(("kernel", id(loc), message, role), loc, lambda: [Related(loc, message, role)])


def library_frame(site: Site) -> List[Related]:
    """The library line a user call led to (when the innermost frame was a library's)."""
    lib = getattr(site, "library", None)
    if lib is None:
        return []
    return [Related(lib.location(), "inside `%s` (library code)" % lib.f_code.co_name, "library")]


def short_where(loc: Optional[Location], here: Optional[Location], reader_site: Site, site: Site) -> str:
    """``at line 41``; with the caller's line when both launches share a helper."""
    if loc is None:
        return "earlier"
    text = line_ref(loc, here)
    if here is not None and (loc.path, loc.line) == (here.path, here.line):
        for r_snap, w_snap in zip(reader_site.snaps[1:], site.snaps[1:]):
            if (r_snap.f_code.co_filename, r_snap.f_lineno) != (w_snap.f_code.co_filename, w_snap.f_lineno):
                return "%s (called from %s)" % (text, line_ref(r_snap.location(), here)[3:])
    return text


def line_ref(loc: Location, here: Optional[Location]) -> str:
    if here is not None and here.path == loc.path:
        return "at line %d" % loc.line
    return "at %s:%d" % (os.path.basename(loc.path), loc.line)


# -- two names for one array made by a statement ----------------------------------------
_REBINDINGS: dict = {}  # file -> [(kind, key, Location, statement text)]
MAX_REBINDING_FILES = 64
MAX_STATEMENT = 80  # longer statements are named by their start


def rebinding(what: str, other: str, sites) -> Optional[Tuple[Location, str]]:
    """The statement that made ``what`` and ``other``, two expressions the script wrote apart, one array,
    in the files of the ``sites`` given: ``(Location, statement text)``, or None.

    - Two entries of one container: ``states[0] = states[-1]`` (``states[f + 1]`` and ``states[f]``), or
      a list built with one array twice, ``acts = [x, buf_a, buf_b, buf_a, out]``.
    - Two names: ``h_norm = h`` before a launch given ``h`` and ``h_norm``, in the launch's function."""
    if not what or not other or what == other:
        return None
    container = _container(what)
    if container is not None and container == _container(other):
        return _find(sites, lambda kind, key: kind == "container" and key == container)
    if what.isidentifier() and other.isidentifier():
        pair = {(what, other), (other, what)}
        for site in sites:
            found = _before_in_function(site, lambda kind, key: kind == "names" and key in pair)
            if found is not None:
                return found
    return None


def pool_pick(what: str, site) -> Optional[Tuple[Location, str]]:
    """``x_next = self.pool[(s + 1) % 2]`` before the launch that writes ``x_next``, in its function: the
    statement that hands a step a buffer of a ring an earlier step used.  ``(Location, text)`` or None."""
    if not what or not what.isidentifier():
        return None
    return _before_in_function(site, lambda kind, key: kind == "pool" and key == what)


def _before_in_function(site, wanted) -> Optional[Tuple[Location, str]]:
    """The last statement ``wanted`` accepts in the function of the site's innermost frame, before its line."""
    snaps = getattr(site, "snaps", ())
    if not snaps:
        return None
    code, line = snaps[0].f_code, snaps[0].f_lineno
    return _find([site], wanted, within=(code.co_firstlineno, line))


def _find(sites, wanted, within=None) -> Optional[Tuple[Location, str]]:
    seen = set()
    for site in sites:
        for snap in getattr(site, "snaps", ())[:1] if within is not None else getattr(site, "snaps", ()):
            path = snap.f_code.co_filename
            if path in seen:
                continue
            seen.add(path)
            hits = [(loc, text) for kind, key, loc, text in _rebindings_in(path, snap.f_globals)
                    if wanted(kind, key) and (within is None or within[0] <= loc.line < within[1])]
            if hits:
                return hits[-1] if within is not None else hits[0]  # the alias nearest the launch
    return None


def _container(expr: Optional[str]) -> Optional[str]:
    if not expr:
        return None
    try:
        node = ast.parse(expr, mode="eval").body
    except (SyntaxError, ValueError):
        return None
    return ast.unparse(node.value) if isinstance(node, ast.Subscript) else None


def _located(path: str, node: ast.stmt) -> Tuple[Location, str]:
    text = ast.unparse(node)
    if len(text) > MAX_STATEMENT:
        text = text[:MAX_STATEMENT - 4].rstrip() + " ..."
    return Location(path, node.lineno, node.col_offset + 1, node.end_lineno, (node.end_col_offset or 0) + 1), text


def _rebindings_in(path: str, module_globals) -> list:
    known = _REBINDINGS.get(path)
    if known is None:
        known = []
        try:
            tree = ast.parse("".join(linecache.getlines(path, module_globals)), path)
        except (SyntaxError, ValueError, RecursionError):
            tree = None
        for node in ast.walk(tree) if tree is not None else ():
            if not isinstance(node, ast.Assign) or len(node.targets) != 1:
                continue
            target, value = node.targets[0], node.value
            entry = None
            if isinstance(target, ast.Subscript) and isinstance(value, ast.Subscript) and \
                    ast.unparse(target.value) == ast.unparse(value.value):
                entry = ("container", ast.unparse(target.value))
            elif isinstance(target, (ast.Name, ast.Attribute)) and isinstance(value, (ast.List, ast.Tuple)):
                # (only references: ``[fresh(), fresh()]`` makes two arrays)
                items = [ast.unparse(e) for e in value.elts if isinstance(e, (ast.Name, ast.Attribute, ast.Subscript))]
                if len(items) != len(set(items)):
                    entry = ("container", ast.unparse(target))
            elif isinstance(target, ast.Name) and isinstance(value, ast.Name):
                entry = ("names", (target.id, value.id))
            else:
                # A buffer picked from a ring: ``x_next = pool[(s + 1) % 2]``, ``src, dst = f[t % 2], f[(t + 1) % 2]``.
                pairs = zip(target.elts, value.elts) if isinstance(target, ast.Tuple) and \
                    isinstance(value, ast.Tuple) and len(target.elts) == len(value.elts) else [(target, value)]
                for name, picked in pairs:
                    if isinstance(name, ast.Name) and isinstance(picked, ast.Subscript) and any(
                            isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mod) for n in ast.walk(picked.slice)):
                        known.append(("pool", name.id) + _located(path, node))
                continue
            if entry is not None:
                known.append(entry + _located(path, node))
        known.sort(key=lambda entry: (entry[2].line, entry[2].column))
        if len(_REBINDINGS) >= MAX_REBINDING_FILES:
            _REBINDINGS.clear()
        _REBINDINGS[path] = known
    return known
