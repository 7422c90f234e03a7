"""TW405: a kernel without adjoint on a tape that is differentiated.

A kernel built with ``enable_backward=False`` (kernel option, module option
or ``wp.config.enable_backward``) is skipped by ``tape.backward()``:
everything upstream of it silently gets no gradient through it.  Reported
at the line that sets the option (the one to change), with the forward
launch as a related location; at the launch when no option line is found.
"""

from __future__ import annotations

import linecache
from typing import Dict, List, Optional, Tuple

from ... import codes
from ...model import Finding, Location, Related
from ..core import facts, memory, related as rel, warp_seams
from ..core.sites import def_location


class DisabledAdjoint:
    def __init__(self, wp, tracker):
        self.wp = wp
        self.tracker = tracker
        self._enabled: Dict[int, tuple] = {}  # id(kernel) -> (kernel, enabled, source)

    def enabled(self, kernel) -> Tuple[bool, str]:
        hit = self._enabled.get(id(kernel))
        if hit is not None and hit[0] is kernel:
            return hit[1], hit[2]
        enabled, source = warp_seams.backward_enabled(self.wp, kernel)
        self._enabled[id(kernel)] = (kernel, enabled, source)
        return enabled, source

    def check(self, tape, records: dict, seeds=None) -> None:
        """``seeds``: the arrays backward() is seeded with (None when it is seeded some other way)."""
        items = None
        for item in warp_seams.tape_launches(tape):
            if not self.enabled(item.launch.kernel)[0]:
                if items is None:
                    items = warp_seams.tape_items(tape)
                off_path = seeds is not None and self.tracker.registry.attempt(
                    "following a skipped launch's outputs to the loss",
                    lambda: off_gradient_path(items, records, item.index, seeds), False)
                self._report(item.launch, records.get(item.index), off_path)

    def _report(self, entry: warp_seams.LaunchEntry, record, off_path: bool = False) -> None:
        """At the option that disables the adjoint (the line to change), the launch related.

        Without a findable option line, at the launch.  ``off_path``: nothing the launch writes reaches
        the arrays backward() is seeded with (render-only outputs): information.
        """
        registry = self.tracker.registry
        kernel = entry.kernel
        _, source = self.enabled(kernel)
        option = registry.attempt("finding where enable_backward is set", lambda: option_location(kernel, source))
        factory = None
        if option is None and source == "kernel":
            # ``@wp.kernel(enable_backward=not fast)`` in a factory: the call that passed ``fast=True``.
            factory = registry.attempt("finding the kernel factory's call", lambda: factory_call(kernel))
            if factory is not None:
                option = factory[0]
        key = ("TW405", (option.path, option.line) if option is not None else launch_key(entry, record), kernel.key)
        existing = registry.get(key)
        if existing is not None and (off_path or existing.severity != "information"):
            registry.bump(key)
            return

        def build():
            launch = launch_location(entry, record)
            upstream = upstream_names(self.wp, entry, record)
            where = {"kernel": "kernel option", "module": "module option",
                     "config": "wp.config.enable_backward"}[source]
            gets = " (%s)" % ", ".join("`%s`" % n for n in upstream) if upstream else ""
            if factory is not None:
                message = (
                    "`%s()` makes `%s` here with its adjoint turned off (`%s` in the factory), but it is launched on "
                    "a tape that is differentiated%s: tape.backward() silently skips it, so everything upstream of "
                    "it%s gets no gradient through it." % (factory[1], warp_seams.kernel_name(kernel), factory[2],
                                                           " (line %d)" % launch.line if launch else "", gets))
            elif option is not None:
                message = (
                    "enable_backward=False (%s) leaves `%s` without an adjoint, but it is launched on a tape that "
                    "is differentiated%s: tape.backward() silently skips it, so everything upstream of it%s gets "
                    "no gradient through it." % (where, kernel.key, " (line %d)" % launch.line if launch else "",
                                                 gets))
            else:
                message = (
                    "`%s` is compiled with enable_backward=False (%s), but this launch is on a tape that is "
                    "differentiated: tape.backward() silently skips it, so everything upstream of it%s gets no "
                    "gradient through it." % (kernel.key, where, gets))
            related: List[Related] = []
            if option is not None and launch is not None:
                related.append(Related(launch, "`%s` launched on the differentiated tape here" % kernel.key,
                                       "launch"))
            if factory is not None and factory[3] is not None:
                related.append(Related(factory[3], "`%s` in the factory" % factory[2], "option"))
            related += rel.kernel_def(kernel, "kernel `%s`" % kernel.key)
            if record is not None:
                related.extend(rel.caller_chain(record.site))
            data = {"kernel": kernel.key, "option": source, "upstream": upstream,
                    "launch": record.index if record is not None else None}
            if off_path:
                data["harmless"] = "nothing it writes reaches what backward() is seeded with"
                message += (" Harmless here: nothing it writes reaches what backward() is seeded with, through "
                            "the launches recorded after it (outputs for display or logging).")
            return Finding(code="TW405", message=message, location=option or launch,
                           severity="information" if off_path else codes.severity("TW405"), related=related,
                           data=data)

        if existing is not None:  # harmless on an earlier tape, on the gradient path of this one
            registry.replace(key, build())
            return
        registry.report(key, build, launches=[record.index if record is not None else None])


def off_gradient_path(items, records: dict, index: int, seeds) -> bool:
    """Nothing the launch at tape position ``index`` writes reaches ``seeds`` through the launches
    recorded after it.  Arrays are matched by memory (views, reshapes).  False when anything is unknown:
    a ``record_func`` after it, a launch without the tracker's record, a launch that writes nothing."""
    seeds = list(seeds)
    wanted = [(a, s) for a, s in ((a, memory.span(a)) for a in seeds) if s is not None]
    if len(wanted) < len(seeds):
        return False

    def reaches(arr) -> bool:  # (an array whose memory is unknown may reach them)
        s = memory.span(arr)
        return s is None or any(memory.overlaps(arr, s, b, sb) for b, sb in wanted)

    for item in reversed(items):
        if item.index < index:
            break
        record = records.get(item.index)
        if item.launch is None or record is None:
            return False  # a recorded function or an untracked launch: its data flow is unknown
        written = [a.array for a in record.accesses if a.write]
        if item.index == index:
            return bool(written) and not any(reaches(w) for w in written)
        if any(reaches(w) for w in written):
            wanted.extend((a.array, s) for a in record.accesses if a.read
                          for s in (memory.span(a.array),) if s is not None)
    return False


# -- helpers shared by the backward-time checks ----------------------------------
def launch_location(entry: Optional[warp_seams.LaunchEntry], record) -> Optional[Location]:
    """The forward call site of a tape entry: the tracker's record, else Warp's own metadata."""
    if record is not None:
        loc = record.location()
        if loc is not None:
            return loc
    caller = entry.caller if entry is not None else None
    if caller and caller.get("file") and caller.get("lineno"):
        return Location(str(caller["file"]), int(caller["lineno"]), 1)
    return None


def launch_key(entry: warp_seams.LaunchEntry, record):
    """A cheap key for a launch's call site (file and line of the innermost user frame)."""
    if record is not None and record.site.snaps:
        return record.site.key()
    caller = entry.caller
    return (caller.get("file"), caller.get("lineno")) if caller else None


def arg_name(entry: warp_seams.LaunchEntry, record, pos: int) -> str:
    params = warp_seams.kernel_params(entry.kernel)
    label = params[pos].label if pos < len(params) else "arg%d" % pos
    try:
        name = record.arg_name(pos) if record is not None else None
    except Exception:
        name = None
    return name or label


def read_positions(entry: warp_seams.LaunchEntry, record) -> List[int]:
    if record is not None:
        return list(record.reads)
    return list(range(len(entry.inputs)))


def upstream_names(wp, entry: warp_seams.LaunchEntry, record) -> List[str]:
    """Names of the arrays a skipped launch reads that want a gradient."""
    fwd = entry.args
    out = []
    for pos in read_positions(entry, record):
        a = fwd[pos] if pos < len(fwd) else None
        if isinstance(a, wp.array) and a.requires_grad:
            name = arg_name(entry, record, pos)
            if name not in out:
                out.append(name)
    return out


def factory_call(kernel):
    """(location of the call, factory name, the option's text, its location) for a kernel a user
    function made with ``enable_backward=<expression>`` in its decorator; None otherwise."""
    made = getattr(facts.known_kernel(kernel), "made_at", None)
    func = getattr(kernel, "func", None)
    code = getattr(func, "__code__", None)
    if made is None or len(made.snaps) < 2 or code is None:
        return None
    lines = linecache.getlines(code.co_filename, getattr(func, "__globals__", None))
    kdef = def_location(func)
    last = kdef.line if kdef is not None else code.co_firstlineno
    option = None
    for i in range(code.co_firstlineno - 1, min(last, len(lines))):
        text = lines[i]
        if "enable_backward" in text:
            start = text.index("enable_backward")
            end = text.find(")", start)
            option = (text[start:end if end > 0 else len(text)].strip().rstrip(","),
                      Location(code.co_filename, i + 1, start + 1))
            break
    if option is None:
        return None
    factory = made.snaps[0].f_code.co_name
    call = made.snaps[1].location((factory,))
    return (call, factory, option[0], option[1]) if call is not None else None


def option_location(kernel, source: str) -> Optional[Location]:
    """Where enable_backward=False is written, found cheaply in the kernel's file."""
    func = getattr(kernel, "func", None)
    code = getattr(func, "__code__", None)
    if code is None:
        return None
    lines = linecache.getlines(code.co_filename, getattr(func, "__globals__", None))
    if source == "kernel":
        kdef = def_location(func)
        last = kdef.line if kdef is not None else code.co_firstlineno
        candidates = range(code.co_firstlineno - 1, min(last, len(lines)))
    else:
        candidates = range(len(lines))
    for i in candidates:
        text = lines[i]
        if "enable_backward" in text and "False" in text:
            if source == "kernel" or "set_module_options" in text or "config" in text or "module_options" in text:
                return Location(code.co_filename, i + 1, text.index("enable_backward") + 1)
    return None
