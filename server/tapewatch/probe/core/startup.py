"""Turns the probe on inside the current process.

One routine for both hosts of the probe: ``python -m tapewatch.probe``
(a script run as ``__main__``) and the pytest plugin (the test process
itself).  The steps, in the order a host must call them:

1. ``import_warp``: Warp, or a TW903 finding when it cannot be imported;
2. ``prepare``: frames inside Warp's package are never the user's, and the
   host's folder (the script's, the test suite's root) always is;
3. ``track``: Warp's tracker on *before* the user's kernels load: Warp's
   code generation is what marks argument reads and writes;
4. ``install``: the tracker, its sensors, the backward-time checks, the
   tape-graph capture and the patch table on Warp (``patches``); returns
   the ``Probe``.

``Probe.finish`` reports what is known only at the end (tapes never
differentiated, per-launch check totals, the kernels launched).  Findings
leave through the ``emit`` callback given to ``install``, as ``finding``
events, the moment they are born.  Stdlib plus Warp, like the rest of the
probe.
"""

from __future__ import annotations

import os
import sys
from typing import Callable, Optional

from ... import codes
from . import user_code
from .sensor import Sensor

Emit = Callable[..., None]


def import_warp(emit: Emit):
    """``import warp``, or None after emitting a TW903 finding that says how to install it."""
    try:
        import warp as wp  # noqa: PLC0415
    except Exception as exc:  # ImportError, or a broken install
        finding = codes.tool_finding(
            "TW903",
            "Warp cannot be imported in %s (%s: %s). Install it there with `%s -m pip install warp-lang`, "
            "or choose an interpreter that has it." % (sys.executable, type(exc).__name__, exc, sys.executable),
            interpreter=sys.executable,
        )
        emit("finding", finding=finding.to_json())
        return None
    return wp


def prepare(wp, library_frames: bool = False, user_root: Optional[str] = None) -> None:
    """Where findings may be placed: never in Warp; in installed packages only with ``library_frames``."""
    user_code.skip_package(os.path.dirname(wp.__file__))
    if library_frames:
        user_code.show_library_frames()
    if user_root:
        user_code.user_root(user_root)


def track(wp) -> None:
    """Warp's tracker on (the program still sees its own setting: ``patches.track``).  Must come before
    the user's kernels are defined and loaded."""
    from . import patches  # noqa: PLC0415 (imports Warp internals)

    patches.track(wp)


class Probe:
    """The probe installed in this process: what a host needs after ``install``."""

    def __init__(self, wp, emit: Emit, registry, tracker, checks, capture, features: dict, hooks=None):
        self.wp = wp
        self.hooks = hooks  # the patches' hooks (``patches.Hooks``)
        self.emit = emit
        self.registry = registry  # the hooks' own: internal errors of the hooks report through it
        self.tracker = tracker  # ``tracker.registry`` is where every sensor reports
        self.checks = checks
        self.capture = capture
        self.features = features

    def device(self) -> Optional[str]:
        """Warp's current device, without initialising Warp just to ask (None before ``wp.init()``)."""
        from . import warp_seams  # noqa: PLC0415

        try:
            if warp_seams.runtime(self.wp) is None:
                return None
            return str(self.wp.get_device())
        except Exception as exc:
            self.registry.internal_error("reading Warp's device", exc)
            return None

    def finish(self) -> None:
        """End-of-run reports: Warp's warnings for kernels no tape recorded, graphs of tapes never
        differentiated, launch-check totals, kernels launched."""
        from ..sensors.overwrites import report_intra_off_tape  # noqa: PLC0415 (imports Warp internals)

        self.registry.attempt("reporting Warp's warnings for kernels no tape recorded",
                              lambda: report_intra_off_tape(self.tracker))
        try:
            if self.capture is not None:
                self.capture.at_exit()
            self.checks.at_exit()
            self.tracker.bus.tell(Sensor.at_exit, "finishing a sensor")
            for sensor in self.tracker.bus.listeners(Sensor.kernels_event):
                self.emit("kernels", kernels=sensor())
            skipped = self.registry.skipped()
            if skipped:
                self.emit("not_measured", items=skipped)
        except Exception as exc:  # pragma: no cover - defensive
            self.registry.internal_error("finishing the run", exc)


def install(wp, emit: Emit, graph: bool = True, check_launches: bool = False, cold: bool = False) -> Probe:
    """Install the probe on ``wp`` in this process (once per process: the hooks wrap Warp's classes)."""
    from . import graph as graphs, patches, warp_seams  # noqa: PLC0415 (imports Warp internals)
    from ..backward.backward_checks import BackwardChecks  # noqa: PLC0415
    from .registry import FindingRegistry  # noqa: PLC0415
    from .tracker import Tracker  # noqa: PLC0415

    detected = warp_seams.features(wp)  # before the hooks wrap what it inspects
    detected["warm_cache"] = False if cold else patches.reuse_cached_binaries(wp)
    registry = FindingRegistry(emit)
    tracker = Tracker(wp, registry)
    tracker.listen([sensor(tracker) for sensor in sensor_classes()])
    capture = graphs.GraphCapture(wp, tracker, emit) if graph else None
    checks = BackwardChecks(wp, tracker, emit, check_launches=check_launches)
    hooks = patches.Hooks(wp, tracker, registry, checks, capture.on_backward if capture else None)
    patches.apply(wp, hooks)
    return Probe(wp, emit, registry, tracker, checks, capture, detected, hooks)


def sensor_classes() -> list:
    """Every sensor: each ``Sensor`` subclass defined in a module of ``probe/sensors/`` (a new check is a new
    module there, nothing to list; as ``lsp/server.py``'s ``FEATURE_MODULES``, one place), in the order each
    event is heard: those with ``HEARS_FIRST`` (the overwrite engine, then the gradient chain: a launch's
    writes are judged before its reads are recorded), then the others by module name."""
    import importlib  # noqa: PLC0415
    import pkgutil  # noqa: PLC0415

    from .. import sensors  # noqa: PLC0415

    found: list = []
    for info in sorted(pkgutil.iter_modules(sensors.__path__), key=lambda m: m.name):
        module = importlib.import_module("%s.%s" % (sensors.__name__, info.name))
        found.extend(value for value in vars(module).values()
                     if isinstance(value, type) and issubclass(value, Sensor) and value is not Sensor
                     and value.__module__ == module.__name__)
    return sorted(found, key=lambda cls: -cls.HEARS_FIRST)  # stable: module order among equals
