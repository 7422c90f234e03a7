"""TW404: each taped launch's adjoint against finite differences of that launch.

Run before the user's ``tape.backward()``, on private copies (see
``finite_diff``).  The first and last launch of each call site are
checked, once per tape structure, within a budget counted in launches (not
seconds), so two runs of one script check the same launches and say the
same thing.  Every launch not checked is counted with its reason, and the
counts go out in a ``launch_checks`` summary event.

A failure is reported where the fix goes: the custom adjoint
(``@wp.func_grad``) that disagrees with finite differences of its own
forward function, when the kernel calls one; else the kernel.  The launch
is a related location.
"""

from __future__ import annotations

import sys
from collections import Counter
from typing import Dict, List, Optional

from ... import codes
from ...model import Finding, Related
from ..core import related as rel, user_code, warp_seams
from .adjoint_disabled import launch_key, launch_location
from ..fd.judge import ATOL, RTOL
from .finite_diff import check_launch, skipped

INSTANCES_PER_SITE = 2  # first and last launch of one call site on a tape
MAX_CHECKED_LAUNCHES = 64  # per run: a deterministic budget, in launches
ADJOINT_CHECKS_PER_KERNEL = 2  # custom adjoints on their own: at the first and the last launch checked


RECORD_FUNC_REASON = ("Tape.record_func backward (its forward is host code, not rerun here: the FD harness checks it "
                      "end to end)")


class LaunchCheck:
    def __init__(self, wp, tracker, checks):
        self.wp = wp
        self.tracker = tracker
        self.checks = checks
        self._checked_signatures: set = set()
        self.checked = 0
        self.outcomes: Counter = Counter()  # status -> launches
        self.skipped: Counter = Counter()  # reason -> launches
        # id(kernel) -> times its custom adjoints were checked on their own (at most ADJOINT_CHECKS_PER_KERNEL)
        self._adjoints_checked: dict = {}

    def check_tape(self, tape, signature: tuple) -> None:
        if signature in self._checked_signatures:
            return
        self._checked_signatures.add(signature)
        records = self.checks.records(tape)
        by_site: Dict[tuple, List] = {}
        # A hand-written backward recorded with Tape.record_func: its forward was host code, which cannot be
        # rerun here, so it is not checked; said in the summary, never counted as passed.  Warp's own
        # (``wp.copy`` records its adjoint copy as one) are Warp's to get right, not a skipped check.
        functions = sum(1 for item in warp_seams.tape_items(tape)
                        if item.func is not None and not warp_seams.warps_own_function(item.func))
        if functions:
            self.skipped[RECORD_FUNC_REASON] += functions
        for item in warp_seams.tape_launches(tape):
            entry = item.launch
            if not self.checks.disabled.enabled(entry.kernel)[0]:
                continue  # TW405, never "passed"
            by_site.setdefault((launch_key(entry, records.get(item.index)), entry.kernel.key), []).append(item)
        chosen = []
        for items in by_site.values():
            chosen.extend([items[0]] if INSTANCES_PER_SITE == 1 or len(items) == 1 else [items[0], items[-1]])
        for item in sorted(chosen, key=lambda it: it.index):
            if self.checked >= MAX_CHECKED_LAUNCHES:
                self.skipped["budget of %d launches per run reached" % MAX_CHECKED_LAUNCHES] += 1
                continue
            self.checked += 1
            self._check_one(item.launch, records.get(item.index))

    def check_adjoint_launch(self, kernel, args, kwargs) -> None:
        """An adjoint the program launched itself: the first at each call site, within the budget."""
        caller = user_code.innermost_user_frame(sys._getframe(1))
        where = (caller.f_code.co_filename, caller.f_lineno) if caller is not None else None
        if where is None or ("adjoint", where, kernel.key) in self._checked_signatures:
            return
        self._checked_signatures.add(("adjoint", where, kernel.key))
        if not self.checks.disabled.enabled(kernel)[0]:
            return  # built without a backward: Warp raises at this very launch
        if self.tracker.capturing:
            # The check's copies would become nodes of the program's graph.
            self.skipped["an adjoint launch inside a graph capture"] += 1
            return
        if self.checked >= MAX_CHECKED_LAUNCHES:
            self.skipped["budget of %d launches per run reached" % MAX_CHECKED_LAUNCHES] += 1
            return
        entry = adjoint_launch_entry(self.wp, kernel, args, kwargs, where)
        if entry is None:
            self.skipped["an adjoint launch whose forward arguments could not be read"] += 1
            return
        self.checked += 1
        self._check_one(entry, None)

    def _check_one(self, entry, record) -> None:
        registry = self.tracker.registry
        reads, writes = _access_keys(entry, record)

        def label(pos, field):
            name = None
            if record is not None:
                name = registry.attempt("naming a launch argument", lambda: record.arg_name(pos))
            params = warp_seams.kernel_params(entry.kernel)
            base = name or (params[pos].label if pos < len(params) else "arg%d" % pos)
            return base + field

        try:
            if _uses_atomic_results(self.wp, entry.kernel):
                # A slot counter has moved on since the launch: relaunched on today's values the
                # kernel claims other slots, and no difference would mean anything.
                result = skipped("uses an atomic's result (a counter the relaunch cannot rewind)")
            else:
                with self.checks.quiet():
                    result = check_launch(self.wp, self.checks.real_launch, entry, reads, writes, label)
        except Exception as exc:  # a kernel we cannot relaunch: say so, never fail the run
            result = skipped("%s: %s" % (type(exc).__name__, exc))
        status = result.status
        self.outcomes[status] += 1
        if status == "skipped":
            self.skipped[result.reason or "unknown"] += 1
        loc = launch_location(entry, record)
        event = dict(result.event_fields(), kernel=entry.kernel.key, path=loc.path if loc else None,
                     line=loc.line if loc else None, kernel_name=warp_seams.kernel_name(entry.kernel),
                     kernel_path=warp_seams.kernel_file(entry.kernel))
        self.tracker.registry.emit("launch_check", **event)
        if status == "fail":
            if self._confirms_in_place(entry, record, reads & writes, result):
                return
            self._report(entry, record, loc, result)
        elif status in ("pass", "inconclusive"):
            self.tracker.registry.attempt("checking the custom adjoints a kernel calls",
                                          lambda: self._check_custom_adjoints(entry, record, loc, result))

    def _check_custom_adjoints(self, entry, record, launch_loc, result) -> None:
        """Each custom adjoint a kernel calls, checked on its own against finite differences of its forward
        function at inputs around the launch's values, at the first and the last launch checked: a launch's
        own check can be swamped (float32 rounding of a large accumulated loss) and pass a wrong adjoint, and
        a first step from rest may never take the branch that is wrong (a fin moving backwards later)."""
        from .custom_adjoints import custom_adjoints_called, locate_wrong_adjoint  # noqa: PLC0415

        kernel = entry.kernel
        done = self._adjoints_checked.get(id(kernel), 0)
        if done >= ADJOINT_CHECKS_PER_KERNEL or not custom_adjoints_called(self.wp, kernel):
            return
        self._adjoints_checked[id(kernel)] = done + 1
        culprit = locate_wrong_adjoint(self.wp, kernel, entry, self.checks, spread=False)
        if culprit is None:
            return
        registry = self.tracker.registry
        key = ("TW404", (culprit.location.path, culprit.location.line), kernel.key)
        if registry.bump(key):
            return
        kname = warp_seams.kernel_name(kernel)
        launch_said = ("agreed with finite differences within tolerance" if result.status == "pass" else
                       "could not be judged by finite differences")
        message = ("The custom adjoint of `%s` disagrees with finite differences of `%s` itself: %s. At its launch "
                   "the adjoint of `%s` as a whole %s (a large accumulated output hides the difference in float32 "
                   "rounding), but the gradient it gives is the custom adjoint's."
                   % (culprit.func_name, culprit.func_name, culprit.numbers, kname, launch_said))
        related: List[Related] = []
        if launch_loc is not None:
            related.append(Related(launch_loc, "launch of `%s`, which calls `%s`" % (kname, culprit.func_name),
                                   "launch"))
        related.extend(culprit.related)
        if record is not None:
            related.extend(rel.caller_chain(record.site))
        registry.report(key, Finding(code="TW404", message=message, location=culprit.location,
                                     severity=codes.severity("TW404"), related=related,
                                     data={"kernel": kname, "custom_adjoint": culprit.func_name,
                                           "launch": record.index if record is not None else None}))

    def _confirms_in_place(self, entry, record, in_place, result) -> bool:
        """A failed check of a kernel that reads and writes an array in one launch measures what its TW104
        (on the statement that overwrites it, the line to change) says: the numbers go there, and no
        TW404 on the kernel sends the user to check its math.  True when a TW104 took them."""
        if not in_place or result.worst is None:
            return False
        registry = self.tracker.registry
        kname = warp_seams.kernel_name(entry.kernel)
        statements = [(k, f) for k, f in registry.keyed("TW104")
                      if (f.data or {}).get("kernel") == kname and f.severity != "information"]
        w = result.worst
        for key, finding in statements:
            if "measured" in finding.data:
                continue  # (the first and the last launch of a site are both checked: say it once)
            measured = dict(finding.data, measured={"output": w["output"], "input": w["input"], "element": w["element"],
                                                    "ad": w["ad"], "fd": w["fd"]})
            message = finding.message + (
                " Measured at its launch: the adjoint gives d`%s`/d`%s`[%d] = %.6g, finite differences %.6g."
                % (w["output"], w["input"], w["element"], w["ad"], w["fd"]))
            registry.revise(key, Finding(code="TW104", message=message, location=finding.location,
                                         severity=finding.severity, related=finding.related, data=measured))
        return bool(statements)

    def summary(self) -> dict:
        return {"checked": sum(n for s, n in self.outcomes.items() if s != "skipped"),
                "passed": self.outcomes.get("pass", 0), "failed": self.outcomes.get("fail", 0),
                "inconclusive": self.outcomes.get("inconclusive", 0),
                "skipped": sum(self.skipped.values()), "skip_reasons": dict(self.skipped)}

    def _report(self, entry, record, launch_loc, result) -> None:
        from .custom_adjoints import locate_wrong_adjoint  # noqa: PLC0415

        registry = self.tracker.registry
        kernel = entry.kernel
        culprit = registry.attempt("checking the custom adjoints the kernel calls",
                                   lambda: locate_wrong_adjoint(self.wp, kernel, entry, self.checks))
        loc = culprit.location if culprit is not None else (
            rel.kernel_def(kernel, "")[0].location if rel.kernel_def(kernel, "") else launch_loc)
        key = ("TW404", (loc.path, loc.line) if loc else None, kernel.key)
        if registry.bump(key):
            return
        w = result.worst
        kname = warp_seams.kernel_name(kernel)
        # A larger output's numbers are projections on a fixed random weighting w of its elements (one
        # adjoint launch measures every input at once): say so, or they read as derivatives the user can
        # compute and do not match.
        over = w.get("projected_over")
        what = ("d(w·`%s`)/d`%s`[%d] (w: a fixed random weighting of `%s`'s %d elements)"
                % (w["output"], w["input"], w["element"], w["output"], over) if over else
                "d`%s`/d`%s`[%d]" % (w["output"], w["input"], w["element"]))
        numbers = ("worst %s: adjoint %.6g vs finite difference %.6g (one-sided %.6g / %.6g); max abs "
                   "error %.3g, max rel error %.3g; %d of %d compared derivatives fail (tolerance atol=%g, rtol=%g)"
                   % (what, w["ad"], w["fd"], w["fd_forward"], w["fd_backward"],
                      result.max_abs, result.max_rel, result.failed, result.checked,
                      w.get("atol", ATOL), RTOL))
        ternary = registry.attempt("looking for a conditional expression over arrays",
                                   lambda: ternary_over_arrays(self.wp, kernel)) if culprit is None else None
        if ternary is not None:
            loc = ternary
            message = ("The adjoint of `%s` disagrees with finite differences at its launch: %s. This line is a "
                       "conditional expression whose branches read array elements (`a[i] / t[i] if flag else "
                       "a[i]`): Warp before 1.17 gives no gradient through it (NVIDIA/warp#1736; this run uses "
                       "Warp %s). Write it as an `if`/`else` statement, or upgrade Warp."
                       % (kname, numbers, getattr(self.wp.config, "version", "?")))
        elif culprit is not None:
            message = ("The custom adjoint of `%s` makes the adjoint of `%s` disagree with finite differences at "
                       "its launch: %s. Checked on its own, %s." % (culprit.func_name, kname, numbers, culprit.numbers))
        else:
            message = ("The adjoint of `%s` disagrees with finite differences at its launch: %s. Check the kernel's "
                       "math%s." % (kname, numbers, ", and the custom adjoints (@wp.func_grad) it calls"
                                    if _calls_custom_adjoints(self.wp, kernel) else ""))
        related: List[Related] = []
        if launch_loc is not None:
            related.append(Related(launch_loc, "launch of `%s` whose adjoint disagrees" % kname, "launch"))
        if culprit is not None:
            related.extend(culprit.related)
        kdef = rel.kernel_def(kernel, "kernel `%s`" % kname)
        if kdef and kdef[0].location != loc:
            related.extend(kdef)
        if record is not None:
            related.extend(rel.caller_chain(record.site))
        data = {"kernel": kname, "max_abs_error": result.max_abs, "max_rel_error": result.max_rel,
                "input": w["input"], "output": w["output"], "element": w["element"], "ad": w["ad"],
                "fd": w["fd"], "checked": result.checked, "failed": result.failed,
                "launch": record.index if record is not None else None,
                # every compared derivative: the picture of AD, FD and their difference
                "samples": result.samples, "cotangent": result.cotangent}
        if culprit is not None:
            data["custom_adjoint"] = culprit.func_name
        if ternary is not None:
            data["warp_issue"] = 1736
        registry.report(key, Finding(code="TW404", message=message, location=loc, severity=codes.severity("TW404"),
                                     related=related, data=data), launches=[data["launch"]])


def adjoint_launch_entry(wp, kernel, args, kwargs, where) -> Optional[warp_seams.LaunchEntry]:
    """The tape entry Warp would have recorded for the forward launch of ``wp.launch(kernel, dim, inputs,
    outputs, ..., adjoint=True)``, with its call site as Warp's caller metadata."""
    names = ("dim", "inputs", "outputs")
    given = dict(zip(names, args[:3]))
    given.update({k: kwargs[k] for k in names if k in kwargs})
    if "dim" not in given:
        return None
    device = wp.get_device(kwargs.get("device"))
    inputs = _differentiable(wp, list(given.get("inputs") or []), kwargs.get("adj_inputs"))
    outputs = _differentiable(wp, list(given.get("outputs") or []), kwargs.get("adj_outputs"))
    return warp_seams.LaunchEntry(kernel, given["dim"], kwargs.get("max_blocks", 0), inputs, outputs, device,
                                  kwargs.get("block_dim", 256), {"caller": {"file": where[0], "lineno": where[1]}})


def _differentiable(wp, arrays: list, adjoints) -> list:
    """The forward arguments as the check sees them: an array the call gives an adjoint array for is
    differentiated there, also when it was allocated without ``requires_grad`` (the program passes the
    gradients explicitly): a copy with a gradient stands for it."""
    out = list(arrays)
    for i, (a, adj) in enumerate(zip(arrays, adjoints or ())):
        if isinstance(a, wp.array) and isinstance(adj, wp.array) and not a.requires_grad:
            with warp_seams.suspended_tape(wp):
                c = wp.clone(a)
            c.requires_grad = True
            out[i] = c
    return out


def _access_keys(entry, record):
    """(reads, writes) as sets of (position, field)."""
    if record is not None:
        reads = {(a.pos, a.field) for a in record.accesses if a.read}
        writes = {(a.pos, a.field) for a in record.accesses if a.write}
        return reads, writes
    n_in = len(entry.inputs)
    return {(i, "") for i in range(n_in)}, {(i, "") for i in range(n_in, len(entry.args))}


def _calls_custom_adjoints(wp, kernel) -> bool:
    from .custom_adjoints import custom_adjoints_called  # noqa: PLC0415

    return bool(custom_adjoints_called(wp, kernel))


def _uses_atomic_results(wp, kernel) -> bool:
    """The kernel, or a ``@wp.func`` it reaches, uses the value an atomic returns."""
    from ..core.kernel_access import kernel_access  # noqa: PLC0415
    from .reached_functions import reached_functions  # noqa: PLC0415

    if kernel_access(kernel).atomic_results:
        return True
    return any(kernel_access(obj).atomic_results for _, obj in reached_functions(wp, kernel))


# Warp 1.17 made a conditional expression's branches that read array elements pass their gradient on
# (NVIDIA/warp#1736, measured: 1.16 gives 0, 1.17 the right value).  A fixed bug has no API to detect.
TERNARY_FIXED = (1, 17)


def ternary_over_arrays(wp, kernel):
    """On a Warp before 1.17, the first conditional expression (``x if c else y``) of ``kernel`` whose
    branches read elements of its parameters: its ``Location``, else None."""
    import ast  # noqa: PLC0415

    from ...model import Location  # noqa: PLC0415
    from ...warpsrc.source import parse_def  # noqa: PLC0415

    version = tuple(int(p) for p in str(getattr(wp.config, "version", "0.0")).split(".")[:2] if p.isdigit())
    if version >= TERNARY_FIXED:
        return None
    code = getattr(getattr(kernel, "func", None), "__code__", None)
    fdef = parse_def(warp_seams.kernel_source(kernel)) if code is not None else None
    if fdef is None:
        return None
    params = {a.arg for a in fdef.args.args}
    for expr in ast.walk(fdef):
        if isinstance(expr, ast.IfExp) and all(
                any(isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id in params
                    for n in ast.walk(branch)) for branch in (expr.body, expr.orelse)):
            # (the kernel's own source, parsed from its first decorator: lines counted from there)
            return Location(code.co_filename, code.co_firstlineno + expr.lineno - 1, expr.col_offset + 1)
    return None
