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

import os

from typing import Any, Callable, Dict, List, NamedTuple, Optional

from ... import codes
from ...warpsrc.source import file_tree
from ...model import Finding, Related
from ..core import call_expressions, naming, user_code, warp_seams
from . import host_loss, objectives
from ..core.sites import Site
from ..core.sensor import Sensor


class Leaf(NamedTuple):
    key: tuple  # (shape, dtype name)
    nonzero: bool
    crc: Optional[int]  # of its values: a chained segment's output holds the same values
    array: Any  # its adjoint (``array.grad``) is what the next segment's seed of that output must hold


class Seeding(Sensor):
    CODES = ("TW204",)

    def __init__(self, tracker):
        self.tracker = tracker
        self._seed_sites: Dict[int, Site] = {}  # id(grad array) -> where the script wrote it
        self._previous: Optional[List[Leaf]] = None  # the leaves of the last differentiated tape
        self._spelled: Dict[int, str] = {}  # id(output) -> its key as written in this backward's ``grads={}``

    # -- where seeds are written ---------------------------------------------
    def on_seed_write(self, grad) -> None:
        """``x.grad.fill_()`` / ``assign`` by the script: remember the line."""
        self._seed_sites[id(grad)] = Site.here()
        while len(self._seed_sites) > 256:
            self._seed_sites.pop(next(iter(self._seed_sites)))

    def _filled_seed(self, g) -> Optional[Site]:
        """Where the script filled the array it passes in ``grads={out: g}`` by a call of its own
        (``g.fill_(value)``, ``g.assign(values)``): the seed's values are decided there.  None for a seed made
        by a factory (``wp.full``, ``wp.ones``) or never filled."""
        at = self._seed_sites.get(id(g))
        snap = at.primary if at is not None else None
        call = self.tracker.registry.attempt("reading where a seed was filled",
                                             lambda: call_expressions.call_at(snap, ("fill_", "assign"))) \
            if snap is not None else None
        return at if call is not None and call_expressions.callee_name(call) in ("fill_", "assign") else None

    def before_backward(self, tape, state, site: Site, args=(), kwargs=None) -> None:
        kwargs = kwargs or {}
        loss = args[0] if args else kwargs.get("loss")
        grads = args[1] if len(args) > 1 else kwargs.get("grads")
        if loss is not None or self.tracker.capturing:
            self._previous = None
            return
        outputs = _terminal_outputs(state)
        seeds = []  # (array, seed values as NumPy, where it was written)
        self._spelled = {}
        if grads:
            # ``grads={press[-1]: seed}``: the key as written is how the host code near it spells the output
            # (its launch wrote ``press[s + 1]`` in a loop).
            keys = self.tracker.registry.attempt("reading the backward() call's seeds",
                                                 lambda: _grads_keys(site), None) or []
            for n, (arr, g) in enumerate(grads.items()):
                seeds.append((arr, _host(g), self._filled_seed(g) or site))
                if n < len(keys) and keys[n]:
                    self._spelled[id(arr)] = keys[n]
        else:
            for arr in outputs:
                g = getattr(arr, "grad", None)
                if g is not None:
                    seeds.append((arr, _host(g), self._seed_sites.get(id(g), site)))
        self._check_mean(state, seeds, site)
        self._check_chain(state, outputs, seeds, site)

    def after_backward(self, tape, state) -> None:
        self._previous = []
        for a, _, _ in state.parameters():
            g = getattr(a, "grad", None)
            self._previous.append(Leaf(_key(a), _nonzero(g), _crc(a), a))

    # -- the seed versus the objective ------------------------------------------
    def _check_mean(self, state, seeds, backward_site: Site) -> None:
        for arr, values, seed_site in seeds:
            if values is None or values.size < 2 or values.dtype.kind != "f":
                continue
            flat = values.reshape(-1)
            c = float(flat[0])
            uniform = bool((flat == flat[0]).all())
            if c == 0.0 and uniform:
                continue
            found = self._objective(state, arr, seed_site, backward_site)
            finding = None
            if found is not None:
                name, objective = found
                finding = _mismatch(objective, c, int(values.size), name, seed_site) if uniform else \
                    _scaled_weights(objective, flat, name, seed_site)
            if finding is None:
                # Not a mean or weighted sum seeded wrong: is it the derivative of what the host computes?
                self._check_host_loss(state, arr, values, seed_site, backward_site)
            if finding is None:
                continue
            message, data = finding
            self._report(arr, ("TW204", objective.kind, seed_site.key(), name), message,
                         dict(data, array=name, elements=int(values.size), seed=c if uniform else None),
                         Related(objective.location, "the %s of `%s` the program uses" % (
                             "mean" if objective.kind == "mean" else "weighted sum", name), "objective"),
                         seed_site, backward_site)

    def _report(self, arr, key: tuple, message: str, data: dict, objective: Related, seed_site: Site,
                backward_site: Site, at: Optional[Callable[[], Any]] = None) -> None:
        """TW204 on the line that seeds (``at()``: the statement that computes the seed it passes, looked for
        once the finding is new), with the objective and the seeded backward() related."""
        registry = self.tracker.registry
        if registry.bump(key):
            return
        related = [objective]
        seeds = seed_site.location(("fill_", "assign", "backward"))
        seed_statement = at() if at is not None else None
        back = backward_site.location((".backward", "backward"))
        if seed_statement is not None and seeds is not None:
            related.append(Related(seeds, "the seed passed here", "seed"))
        if back is not None and seed_site is not backward_site:
            related.append(Related(back, "the backward() seeded here", "backward"))
        registry.report(key, Finding(
            code="TW204", message=message, location=seed_statement or seeds,
            severity=codes.severity("TW204"), related=related, data=data), arrays=[arr])

    def _check_host_loss(self, state, arr, seed, seed_site: Site, backward_site: Site) -> None:
        """TW204 when a seed computed from the output is not the derivative of the loss the program computes
        from the output's host copy (``host_loss``)."""
        registry = self.tracker.registry
        frame = user_code.innermost_user_frame()
        for site in (seed_site, backward_site):
            snap = site.primary
            if snap is None or frame is None or frame.f_code is not snap.f_code:
                continue  # the loss's other names live in the seeding frame: nothing to evaluate it with
            namespaces = [frame.f_locals, snap.f_globals]
            for name in self._names(state, arr):
                found = registry.attempt("reading the host loss", lambda: _host_loss(
                    name, snap.f_code.co_filename, snap.f_lineno, namespaces))
                if not found:
                    continue
                values = _host(arr)
                if values is None:
                    return
                mismatch = registry.attempt("differentiating the host loss", lambda: host_loss.judge(
                    found, values, seed, namespaces))
                if mismatch is not None:
                    self._report_host_loss(arr, name, mismatch, seed_site, backward_site)
                return

    def _report_host_loss(self, arr, name: str, mismatch, seed_site: Site, backward_site: Site) -> None:
        loss = mismatch.loss
        scale = (" (the gradient is %.6g times that loss's)" % (1.0 / mismatch.ratio)
                 if mismatch.ratio not in (None, 0.0) else "")
        message = ("The backward pass is seeded with values that are not the derivative of the loss the program "
                   "computes from `%s` (`%s`, line %d) with respect to `%s`: along random directions the loss "
                   "changes at rates the seed does not predict%s. Seed with the derivative of that expression "
                   "with respect to `%s`." % (name, loss.target, loss.location.line, loss.variable, scale,
                                             loss.variable))
        self._report(arr, ("TW204", "host-loss", seed_site.key(), name), message,
                     {"kind": "host-loss", "array": name, "loss": loss.target, "ratio": mismatch.ratio},
                     Related(loss.location, "the loss `%s` the program computes on the host" % loss.target,
                             "objective"),
                     seed_site, backward_site, at=lambda: self._seed_statement(seed_site, loss.variable))

    def _seed_statement(self, seed_site: Site, values: str):
        """The statement that computes the seed from the output's host values (``values``), when the seeding
        call only passes it on."""
        snap = seed_site.primary
        if snap is None:
            return None

        def find():
            tree = file_tree(snap.f_code.co_filename, snap.f_globals)
            call = call_expressions.call_at(snap, ("backward", "assign", "fill_"))
            return host_loss.seed_assignment(tree, call, snap.f_code.co_filename, values) \
                if tree is not None else None

        return self.tracker.registry.attempt("finding the seed's statement", find)

    def _objective(self, state, arr, seed_site: Site, backward_site: Site):
        """``(name, Objective)``: what the program computes from ``arr`` near the seed or the backward()."""
        frame = user_code.innermost_user_frame()
        for candidate in self._names(state, arr):
            for site in (seed_site, backward_site):
                snap = site.primary
                if snap is None:
                    continue
                namespaces = [snap.f_globals]
                if frame is not None and frame.f_code is snap.f_code:
                    namespaces.insert(0, frame.f_locals)  # the live frame: its weights are in reach
                found = self.tracker.registry.attempt(
                    "reading the objective", lambda: objectives.find(candidate, snap.f_code.co_filename, namespaces))
                if found is not None:
                    return candidate, found
        return None

    def _names(self, state, arr) -> List[str]:
        """What the program calls ``arr``: at the launch that wrote it, and in the frames around backward()."""
        registry = self.tracker.registry
        spelled = self._spelled.get(id(arr))
        out = [spelled] if spelled else []
        first = self._name(state, arr, None, None)
        if first and first not in out:
            out.append(first)
        frame = user_code.innermost_user_frame()
        while frame is not None and len(out) < 6:
            if user_code.is_user_file(frame.f_code.co_filename):
                name = registry.attempt("naming an array", lambda: naming.name_by_identity(arr, frame))
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
        return registry.attempt("naming an array", lambda: naming.name_by_identity(arr))

    # -- chained segments ------------------------------------------------------
    def _check_chain(self, state, outputs, seeds, backward_site: Site) -> None:
        previous = self._previous
        self._previous = None
        if not previous or not outputs:
            return
        seeded = {id(arr) for arr, values, _ in seeds if values is not None and (values != 0).any()}
        # The segment's state can be read again after its last write (the closing force evaluation of a
        # Verlet step reads the new positions): the seeded arrays and the latest arrays written of each
        # carried kind are candidates too.
        # Only for pairing by value (exact, so more candidates cannot pair wrongly; constant arrays, which
        # match any constant input, are left out); the count below stays with the terminal outputs.
        terminal = {id(a) for a in outputs}
        extras = [a for a in _candidates(state, outputs, [arr for arr, _, _ in seeds],
                                         {leaf.key for leaf in previous if leaf.nonzero}) if id(a) not in terminal]
        # A candidate seeded by writing its ``.grad`` (``wp.copy(x_end.grad, saved)``) is seeded too.
        seeded |= {id(a) for a in extras if id(a) not in seeded and _nonzero(getattr(a, "grad", None))}
        carried: Dict[tuple, int] = {}
        for leaf in previous:
            if leaf.nonzero:
                carried[leaf.key] = carried.get(leaf.key, 0) + 1
        values = {leaf.crc for leaf in previous if leaf.crc is not None}
        crcs = {id(a): _crc(a) for a in outputs}  # each output read back once
        crcs.update({id(a): _crc(a, varied=True) for a in extras})
        if not any(crc in values for crc in crcs.values()):
            return  # not a continuation: no output here holds what the previous tape started from
        self._check_sources(state, previous, seeds, crcs)
        sites = {id(arr): seed_site for arr, _, seed_site in seeds}
        pairs = _continued(previous, list(outputs) + extras, crcs)
        if pairs:
            # Each continued input matched to this segment's output by value: exact, whatever else of the
            # same shape (a parameter, a coefficient array) the previous segment also differentiated.
            got = [out for leaf, out in pairs if id(out) in seeded]
            missing = [out for leaf, out in pairs if leaf.nonzero and id(out) not in seeded]
            if got and missing:
                self._report_partial(state, missing, got, backward_site,
                                     len([leaf for leaf, _ in pairs if leaf.nonzero]), sites)
            return
        for key, wanted in carried.items():
            group = [a for a in outputs if _key(a) == key]
            got = [a for a in group if id(a) in seeded]
            if not got or len(group) < wanted or len(got) >= wanted:
                continue  # nothing of this kind is seeded here at all, or all of it is
            missing = [a for a in group if id(a) not in seeded][: wanted - len(got)]
            self._report_partial(state, missing, got, backward_site, wanted, sites)

    def _check_sources(self, state, previous: List[Leaf], seeds, crcs: Dict[int, Optional[int]]) -> None:
        """An output seeded with the adjoint of another input of the previous segment than its own copy
        (``v_mid.grad.assign(x_cp.grad)``): its own adjoint is lost and the other one counted twice."""
        for arr, values, seed_site in seeds:
            if values is None or not (values != 0).any():
                continue
            crc = crcs[id(arr)] if id(arr) in crcs else _crc(arr)
            own = [leaf for leaf in previous if leaf.crc is not None and leaf.crc == crc]
            if len(own) != 1 or not own[0].nonzero:
                continue  # no unique counterpart to tell which adjoint belongs here
            seed_crc = _crc_of(values)
            if seed_crc == _grad_crc(own[0]):
                continue
            source = next((leaf for leaf in previous if leaf is not own[0] and leaf.nonzero
                           and _grad_crc(leaf) == seed_crc), None)
            if source is None:
                continue
            self._report_source(state, arr, own[0], source, seed_site)

    def _report_source(self, state, arr, own: Leaf, source: Leaf, seed_site: Site) -> None:
        registry = self.tracker.registry
        name = self._display_name(state, arr)
        own_name = registry.attempt("naming an array", lambda: naming.name_by_identity(own.array)) or "its copy"
        source_name = registry.attempt("naming an array", lambda: naming.name_by_identity(source.array)) or \
            "another input"
        key = ("TW204", "source", seed_site.key(), name)
        if registry.bump(key):
            return
        message = ("This backward continues a chain of tapes, and `%s` is seeded with the adjoint of `%s`, but "
                   "the previous segment started from `%s`'s values in `%s`: seed it from `%s.grad`. As it is, "
                   "`%s`'s share of the gradient from the later segments is lost and `%s`'s is counted twice."
                   % (name, source_name, name, own_name, own_name, own_name, source_name))
        registry.report(key, Finding(
            code="TW204", message=message, location=seed_site.location(("assign", "fill_", "copy", "backward")),
            severity=codes.severity("TW204"), data={"kind": "wrong-source", "seeded": name, "from": source_name,
                                                    "expected": own_name}), arrays=[arr])

    def _report_partial(self, state, missing, got, backward_site: Site, wanted: int, sites) -> None:
        registry = self.tracker.registry
        names = [self._display_name(state, a) for a in missing]
        seeded = [self._display_name(state, a) for a in got]
        key = ("TW204", "partial", backward_site.key(), tuple(names))
        if registry.bump(key):
            return
        # Where the missing seed belongs: next to the line that seeds its sibling.
        # (``grads=`` seeds at the backward() itself: that is the line then)
        seed_site = next((sites[id(a)] for a in got if sites.get(id(a)) not in (None, backward_site)), None)
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
    from ..core.records import differentiable  # noqa: PLC0415

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
    out = [arrays[i] for i in sorted(last_write, key=lambda i: last_write[i])
           if differentiable(arrays[i]) and last_read.get(i, -1) <= last_write[i]]
    return out


MAX_RECENT_WRITES = 16  # written arrays per carried kind looked at, newest first


def _candidates(state, outputs: list, seeded: list, kinds: set) -> list:
    """The terminal outputs, the seeded arrays, and the last few arrays written on the tape of each kind
    (shape and dtype) the previous segment carried an adjoint for, each once."""
    out, seen = [], set()
    for arr in list(outputs) + list(seeded):
        if id(arr) not in seen:
            seen.add(id(arr))
            out.append(arr)
    taken: Dict[tuple, int] = {}
    for record in reversed(state.launches):
        if len(taken) == len(kinds) and all(n >= MAX_RECENT_WRITES for n in taken.values()):
            break
        for access in record.accesses:
            arr = access.array
            if not access.write or id(arr) in seen:
                continue
            key = _key(arr)
            if key in kinds and taken.get(key, 0) < MAX_RECENT_WRITES:
                taken[key] = taken.get(key, 0) + 1
                seen.add(id(arr))
                out.append(arr)
    return out


def _continued(previous: List[Leaf], outputs: list, crcs: Dict[int, Optional[int]]) -> list:
    """``[(leaf, output)]``: inputs of the previous segment that continue this one, each paired with the
    one output here holding exactly its values (values shared by two inputs or two outputs pair nothing)."""
    by_crc: Dict[int, list] = {}
    for out in outputs:
        crc = crcs.get(id(out))
        if crc is not None:
            by_crc.setdefault(crc, []).append(out)
    leaves: Dict[int, list] = {}
    for leaf in previous:
        if leaf.crc is not None and leaf.crc in by_crc:
            leaves.setdefault(leaf.crc, []).append(leaf)
    return [(found[0], by_crc[crc][0]) for crc, found in leaves.items()
            if len(found) == 1 and len(by_crc[crc]) == 1 and _key(found[0].array) == _key(by_crc[crc][0])]


def _key(arr) -> tuple:
    return (tuple(getattr(arr, "shape", ())), str(getattr(arr, "dtype", "")))


def _crc(arr, varied: bool = False) -> Optional[int]:
    """A CRC of the array's values (``varied``: None for a constant array, which matches any other)."""
    values = _host(arr) if getattr(arr, "size", 0) <= (1 << 22) else None
    if values is None or (varied and (values.size < 2 or bool((values == values.reshape(-1)[0]).all()))):
        return None
    return _crc_of(values)


def _grad_crc(leaf: Leaf) -> Optional[int]:
    """A CRC of a previous segment's input adjoint, read only when a seed is checked against it."""
    grad = getattr(leaf.array, "grad", None)
    return _crc(grad) if grad is not None else None


def _crc_of(values) -> int:
    import zlib  # noqa: PLC0415

    return zlib.crc32(values.tobytes())


def _host_loss(name: str, path: str, line: int, namespaces) -> list:
    """The scalars computed from ``name``'s values in ``path`` before ``line`` (``host_loss.find``)."""
    tree = file_tree(path, namespaces[-1] if namespaces else None)
    if tree is None:
        return []
    return host_loss.find(tree, path, name, objectives.host_copies(tree, name), line)


def _host(g):
    return warp_seams.readable_values(g)


def _nonzero(g) -> bool:
    values = _host(g) if g is not None else None
    return values is not None and bool((values != 0).any())


def _where(location, seed_site: Site) -> str:
    """``line 12`` in the seeding file, ``helpers.py:12`` in another."""
    snap = seed_site.primary
    if snap is not None and snap.f_code.co_filename == location.path:
        return "line %d" % location.line
    return "%s:%d" % (os.path.basename(location.path), location.line)


def _scaled_weights(objective, seed, name: str, seed_site: Site):
    """``(message, data)`` when a seed vector is the weighted objective's weights times a factor other than
    one (``np.average(e, weights=W)`` seeded with ``W``: the weights before ``np.average`` divides them by
    their sum).  A seed not proportional to the weights says nothing: a nonlinear host loss seeds by the
    chain rule."""
    import numpy as np  # noqa: PLC0415

    weights = objective.weights
    if objective.kind != "weighted" or weights is None or weights.size != seed.size:
        return None
    seed = seed.astype(np.float64)
    on = weights != 0
    if not on.any() or (seed[~on] != 0).any():
        return None
    ratios = seed[on] / weights[on]
    factor = float(ratios[0])
    if factor == 0.0 or not np.allclose(ratios, factor, rtol=1e-4, atol=0.0) or abs(factor - 1.0) <= 1e-3:
        return None
    line = _where(objective.location, seed_site)
    # The objective's weights sum to one (a weighted mean): the seed is the raw weights, their sum the factor.
    why = (" (the weights before the mean divides them by their sum, %.6g)" % factor
           if np.isclose(weights.sum(), 1.0, rtol=1e-4) else "")
    return (("The backward pass is seeded with %.6g times the weights of the program's objective (%s)%s: the "
             "gradient is %.6g times the gradient of that loss. Seed with the weights the objective uses "
             "(`W / W.sum()` for `np.average(..., weights=W)`)." % (factor, line, why, factor)),
            {"kind": "scaled-weights", "factor": factor})


def _mismatch(objective, c: float, n: int, name: str, seed_site: Site):
    """``(message, data)`` when a uniform seed ``c`` over ``n`` elements is not the objective's derivative."""
    import numpy as np  # noqa: PLC0415

    line = _where(objective.location, seed_site)
    seeded = ("with ones over the %d elements of `%s`" % (n, name) if c == 1.0 else
              "with %.6g over the %d elements of `%s`" % (c, n, name))
    if objective.kind == "mean":
        if abs(c * n - 1.0) <= 1e-3:
            return None
        factor = c * n
        differentiates = "their sum" if c == 1.0 else "%.6g times their sum" % c
        return (("The backward pass is seeded %s, which differentiates %s, but the program uses their mean "
                 "(%s), whose seed is 1/%d: the gradient is %.6g times the gradient of that loss. Seed with "
                 "1/%d (`wp.full(%d, 1.0 / %d)`, or `fill_(1.0 / %s.size)`), or average inside the kernel."
                 % (seeded, differentiates, line, n, factor, n, n, n, name)),
                {"kind": "sum-vs-mean", "factor": factor})
    weights = objective.weights
    if weights is None or weights.size != n or np.allclose(weights, c, rtol=1e-4, atol=0.0):
        return None
    shown = ", ".join("%.4g" % w for w in weights[:6]) + (", ..." if n > 6 else "")
    return (("The backward pass is seeded %s, but the program's objective weights them (%s: %s): the "
             "gradient is that of a different combination of the terms. Seed with the weights "
             "(`grads={%s: wp.array(weights, dtype=float)}`), or weight inside the kernel."
             % (seeded, line, shown, name)),
            {"kind": "sum-vs-weighted", "weights": [float(w) for w in weights[:16]]})


def _grads_keys(site: Site) -> List[Optional[str]]:
    """The keys of a literal ``grads={...}`` dict at the ``backward()`` call of ``site``, as written, in order
    (None for a ``**spread``)."""
    import ast  # noqa: PLC0415

    snap = site.primary
    call = call_expressions.call_at(snap, ("backward",)) if snap is not None else None
    if call is None:
        return []
    grads = next((k.value for k in call.keywords if k.arg == "grads"), None)
    if grads is None and len(call.args) > 1:
        grads = call.args[1]
    if not isinstance(grads, ast.Dict):
        return []
    return [ast.unparse(k) if k is not None else None for k in grads.keys]

