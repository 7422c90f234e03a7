"""TW204: a backward pass seeded differently from the objective the program uses.

Programs that call ``tape.backward()`` without a loss seed it themselves,
by writing ``.grad`` (``fill_``, ``assign``, NumPy) or through ``grads=``.
Two mismatches are caught, each measured on what the program did:

- **Sum versus mean.** A uniform seed c over the N elements of a
  per-element loss differentiates c times their *sum*; when the program
  reports or uses their *mean* (``losses.numpy().mean()``, ``np.mean(...)``,
  ``.sum() / N``), whose seed is 1/N, the gradient is c·N times the gradient
  of the loss it reports (N for a ones-seed; W for ``1 / H`` over an H×W
  image).
- **Partial seeding in a chained (checkpointed) backward.** Segments of a
  rollout on separate tapes are differentiated last to first, each seeded
  with the adjoints the previous backward left on the next segment's inputs.
  When that backward produced non-zero adjoints for k inputs of one shape
  and type, but fewer than k outputs of the same shape and type are seeded
  here (positions but not velocities), the unseeded adjoints are lost.
"""

from __future__ import annotations

import ast
import linecache
from typing import Any, Dict, List, NamedTuple, Optional

from .. import codes
from ..model import Finding, Location, Related
from . import frames
from .sites import Site


class Leaf(NamedTuple):
    key: tuple  # (shape, dtype name)
    nonzero: bool
    crc: Optional[int]  # of its values: a chained segment's output holds the same values


class Seeding:
    def __init__(self, tracker):
        self.tracker = tracker
        self._seed_sites: Dict[int, Site] = {}  # id(grad array) -> where the script wrote it
        self._previous: Optional[List[Leaf]] = None  # the leaves of the last differentiated tape

    # -- where seeds are written ---------------------------------------------
    def on_seed_write(self, grad) -> None:
        """``x.grad.fill_()`` / ``assign`` by the script: remember the line."""
        self._seed_sites[id(grad)] = Site.here()
        while len(self._seed_sites) > 256:
            self._seed_sites.pop(next(iter(self._seed_sites)))

    def before_backward(self, tape, state, site: Site, args=(), kwargs=None) -> None:
        kwargs = kwargs or {}
        loss = args[0] if args else kwargs.get("loss")
        grads = args[1] if len(args) > 1 else kwargs.get("grads")
        if loss is not None:
            self._previous = None
            return
        outputs = _terminal_outputs(state)
        seeds = []  # (array, seed values as NumPy, where it was written)
        if grads:
            for arr, g in grads.items():
                seeds.append((arr, _host(g), site))
        else:
            for arr in outputs:
                g = getattr(arr, "grad", None)
                if g is not None:
                    seeds.append((arr, _host(g), self._seed_sites.get(id(g), site)))
        self._check_mean(state, seeds, site)
        self._check_chain(state, outputs, seeds, site)

    def after_backward(self, tape, state) -> None:
        self._previous = [Leaf(_key(a), _nonzero(getattr(a, "grad", None)), _crc(a)) for a in _leaves(state)]

    # -- sum versus mean -------------------------------------------------------
    def _check_mean(self, state, seeds, backward_site: Site) -> None:
        registry = self.tracker.registry
        for arr, values, seed_site in seeds:
            if values is None or values.size < 2 or values.dtype.kind != "f":
                continue
            flat = values.reshape(-1)
            c = float(flat[0])
            n = int(values.size)
            # A uniform seed c over n elements differentiates c times their sum; their mean needs 1/n.
            if c == 0.0 or not (flat == flat[0]).all() or abs(c * n - 1.0) <= 1e-3:
                continue
            names = self._names(state, arr)
            mean, name = None, None
            for candidate in names:
                mean = _mean_of(candidate, seed_site) or _mean_of(candidate, backward_site)
                if mean is not None:
                    name = candidate
                    break
            if mean is None:
                continue
            key = ("TW204", "mean", seed_site.key(), name)
            if registry.bump(key):
                continue
            factor = c * n
            if c == 1.0:
                seeded = "with ones over the %d elements of `%s`, which differentiates their sum" % (n, name)
            else:
                seeded = "with %.6g over the %d elements of `%s`, which differentiates %.6g times their sum" % (
                    c, n, name, c)
            message = ("The backward pass is seeded %s, but the program uses their mean (line %d), whose seed is "
                       "1/%d: the gradient is %.6g times the gradient of that loss. Seed with 1/%d "
                       "(`wp.full(%d, 1.0 / %d)`, or `fill_(1.0 / %s.size)`), or average inside the kernel."
                       % (seeded, mean.line, n, factor, n, n, n, name))
            related = [Related(mean, "the mean of `%s` the program uses" % name, "objective")]
            back = backward_site.location((".backward", "backward"))
            if back is not None and seed_site is not backward_site:
                related.append(Related(back, "the backward() seeded here", "backward"))
            registry.report(key, Finding(
                code="TW204", message=message, location=seed_site.location(("fill_", "assign", "backward")),
                severity=codes.severity("TW204"), related=related,
                data={"array": name, "elements": n, "kind": "sum-vs-mean", "factor": factor, "seed": c}),
                arrays=[arr])

    def _names(self, state, arr) -> List[str]:
        """What the program calls ``arr``: at the launch that wrote it, and in the frames around backward()."""
        registry = self.tracker.registry
        out = []
        first = self._name(state, arr, None, None)
        if first:
            out.append(first)
        frame = frames.innermost_user_frame()
        while frame is not None and len(out) < 6:
            if frames.is_user_file(frame.f_code.co_filename):
                name = registry.attempt("naming an array", lambda: frames.name_by_identity(arr, frame))
                if name and name not in out:
                    out.append(name)
            frame = frame.f_back
        return out

    def _name(self, state, arr, backward_site, seed_site) -> Optional[str]:
        registry = self.tracker.registry
        entry = None
        for record in state.launches:
            for access in record.accesses:
                if access.array is arr and access.write:
                    entry = (record, access)
        if entry is not None:
            name = registry.attempt("naming an array", lambda: entry[0].access_name(entry[1]))
            if name:
                return name
        return registry.attempt("naming an array", lambda: frames.name_by_identity(arr))

    # -- chained segments ------------------------------------------------------
    def _check_chain(self, state, outputs, seeds, backward_site: Site) -> None:
        previous = self._previous
        self._previous = None
        if not previous or not outputs:
            return
        seeded = {id(arr) for arr, values, _ in seeds if values is not None and (values != 0).any()}
        carried: Dict[tuple, int] = {}
        for leaf in previous:
            if leaf.nonzero:
                carried[leaf.key] = carried.get(leaf.key, 0) + 1
        values = {leaf.crc for leaf in previous if leaf.crc is not None}
        if not any(_crc(a) in values for a in outputs):
            return  # not a continuation: no output here holds what the previous tape started from
        for key, wanted in carried.items():
            group = [a for a in outputs if _key(a) == key]
            got = [a for a in group if id(a) in seeded]
            if not got or len(group) < wanted or len(got) >= wanted:
                continue  # nothing of this kind is seeded here at all, or all of it is
            missing = [a for a in group if id(a) not in seeded][: wanted - len(got)]
            self._report_partial(state, missing, got, backward_site, wanted)

    def _report_partial(self, state, missing, got, backward_site: Site, wanted: int) -> None:
        registry = self.tracker.registry
        names = [self._display_name(state, a) for a in missing]
        seeded = [self._display_name(state, a) for a in got]
        key = ("TW204", "partial", backward_site.key(), tuple(names))
        if registry.bump(key):
            return
        # Where the missing seed belongs: next to the line that seeds its sibling.
        seed_site = next((self._seed_sites[id(a.grad)] for a in got
                          if getattr(a, "grad", None) is not None and id(a.grad) in self._seed_sites), None)
        back = backward_site.location((".backward", "backward"))
        related = [Related(back, "the backward() of this segment", "backward")] if seed_site and back else []
        message = ("This backward continues a chain of tapes: the previous backward left non-zero adjoints on %d "
                   "inputs of this shape and type, but only %s %s seeded here; %s get%s no adjoint, so its share "
                   "of the gradient from the later segments is lost. Seed every carried state variable."
                   % (wanted, ", ".join("`%s`" % n for n in seeded), "is" if len(seeded) == 1 else "are",
                      ", ".join("`%s`" % n for n in names), "s" if len(names) == 1 else ""))
        loc = seed_site.location(("assign", "fill_", "copy")) if seed_site is not None else back
        registry.report(key, Finding(
            code="TW204", message=message, location=loc, severity=codes.severity("TW204"), related=related,
            data={"kind": "partial-seed", "unseeded": names, "seeded": seeded}), arrays=list(missing))

    def _display_name(self, state, arr) -> str:
        """The name in the frames around backward() (where seeds are written), else at the launch."""
        names = self._names(state, arr)
        return (names[1:] or names or ["an output"])[0]


def _terminal_outputs(state) -> list:
    """Float arrays with gradients written on the tape and not read afterwards, in write order."""
    from .tracker import differentiable  # noqa: PLC0415

    last_write: Dict[int, int] = {}
    last_read: Dict[int, int] = {}
    arrays: Dict[int, Any] = {}
    for n, record in enumerate(state.launches):
        for access in record.accesses:
            arrays[id(access.array)] = access.array
            if access.write:
                last_write[id(access.array)] = n
            if access.read:
                last_read[id(access.array)] = n
    # Read in the launch that wrote it (write-then-read inside a kernel) still counts as an output.
    out = [arrays[i] for i in sorted(last_write, key=last_write.get)
           if differentiable(arrays[i]) and last_read.get(i, -1) <= last_write[i]]
    return out


def _leaves(state) -> list:
    from .tracker import differentiable  # noqa: PLC0415

    written = {id(a.array) for r in state.launches for a in r.accesses if a.write}
    seen, out = set(), []
    for record in state.launches:
        for access in record.accesses:
            arr = access.array
            if access.read and id(arr) not in written and id(arr) not in seen and differentiable(arr):
                seen.add(id(arr))
                out.append(arr)
    return out


def _key(arr) -> tuple:
    return (tuple(getattr(arr, "shape", ())), str(getattr(arr, "dtype", "")))


def _crc(arr) -> Optional[int]:
    import zlib  # noqa: PLC0415

    values = _host(arr) if getattr(arr, "size", 0) <= (1 << 22) else None
    return zlib.crc32(values.tobytes()) if values is not None else None


def _host(g):
    try:
        return g.numpy()
    except Exception:
        return None


def _nonzero(g) -> bool:
    values = _host(g) if g is not None else None
    return values is not None and bool((values != 0).any())


def _mean_of(name: str, site: Site) -> Optional[Location]:
    """A line in the site's file that averages ``name`` (``name.numpy().mean()``, ``np.mean(name...)``).

    None when the same file also sums ``name`` (``np.sum(name...)``, ``name.numpy().sum()`` not
    divided): the program may well optimise the sum, as the seed says, and only report the mean;
    and a mean under a square root is a root-mean-square, a metric rather than the objective."""
    snap = site.primary
    if snap is None:
        return None
    path = snap.f_code.co_filename
    try:
        tree = ast.parse("".join(linecache.getlines(path, snap.f_globals)))
    except (SyntaxError, ValueError):
        return None
    parents = {id(child): node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    found = None
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Call, ast.BinOp)):
            continue
        if isinstance(node, ast.Call) and _method(node) == "sum" and not _divided(node, parents):
            if any(_mentions(s, name) for s in [node.func.value] + list(node.args)):
                return None  # the sum is taken too
            continue
        if isinstance(node, ast.Call) and _method(node) == "mean":
            subject = [node.func.value] + list(node.args)
        elif isinstance(node, ast.Call) and _method(node) == "average":
            subject = list(node.args)
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div) and isinstance(node.left, ast.Call) and \
                _method(node.left) == "sum":
            subject = [node.left.func.value] + list(node.left.args)
        else:
            continue
        if found is None and any(_mentions(s, name) for s in subject) and not _under_sqrt(node, parents):
            found = Location(path, node.lineno, node.col_offset + 1)
    return found


def _method(call: ast.Call) -> Optional[str]:
    return call.func.attr if isinstance(call.func, ast.Attribute) else None


def _divided(node, parents) -> bool:
    parent = parents.get(id(node))
    return isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Div) and parent.left is node


def _under_sqrt(node, parents) -> bool:
    parent = parents.get(id(node))
    return isinstance(parent, ast.Call) and (_method(parent) == "sqrt" or
                                             isinstance(parent.func, ast.Name) and parent.func.id == "sqrt")


def _mentions(expr, name: str) -> bool:
    return any(ast.unparse(n) == name for n in ast.walk(expr) if isinstance(n, (ast.Name, ast.Attribute,
                                                                                  ast.Subscript)))
