"""``python -m tapewatch.probe --device D --events CHANNEL -- script.py [args]``

Order matters: Warp is imported, its tracker switched on and the device
selected *before* any of the user's modules load; then the script runs as
``__main__`` with its own ``sys.argv`` and its folder first on ``sys.path``,
exactly as ``python script.py`` would run it.  The exit status is the
script's own.  The steps that turn the probe on are ``startup``'s, shared
with the pytest plugin (which runs them inside the test process).
"""

from __future__ import annotations

import argparse
import faulthandler
import gc
import os
import platform
import runpy
import signal
import sys
import sysconfig
import threading
import time

from .. import codes
from .core import outcomes, startup, user_code
from .core.channel import EventChannel

# Exit statuses of the probe itself when the script could not start (the
# runner reads the events; these only make a bare run understandable).
EXIT_TOOL_ERROR = 2


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="python -m tapewatch.probe")
    parser.add_argument("--device", default=None, help="Warp device, e.g. cpu or cuda:0")
    parser.add_argument("--events", default=None, help="event channel: fd:N or a file path")
    parser.add_argument("--no-graph", action="store_true", help="do not capture tape graphs")
    parser.add_argument("--list-devices", action="store_true", help="report Warp's devices and exit")
    parser.add_argument("--cold", action="store_true",
                        help="rebuild every kernel module as Warp's tracker does (default: reuse cached binaries)")
    parser.add_argument("--library-frames", action="store_true",
                        help="place findings inside installed packages too (default: at the user's call)")
    parser.add_argument("--check-launches", action="store_true",
                        help="check each taped launch's adjoint against finite differences (slow)")
    parser.add_argument("script", nargs="?")
    parser.add_argument("args", nargs=argparse.REMAINDER)
    ns = parser.parse_args(argv)
    if ns.args and ns.args[0] == "--":
        ns.args = ns.args[1:]
    return ns


# Container allocations between young collections while the script runs (Python's default: 700).
YOUNG_GC_THRESHOLD = 10_000


def main(argv=None) -> int:
    ns = parse_args(sys.argv[1:] if argv is None else argv)
    channel = EventChannel(ns.events)
    try:
        return _run(ns, channel)
    finally:
        channel.close()


def _run(ns, channel: EventChannel) -> int:
    started = time.perf_counter()
    wp = startup.import_warp(channel.emit)
    if wp is None:
        channel.emit("end", status=EXIT_TOOL_ERROR, outcome="warp-missing")
        return EXIT_TOOL_ERROR
    startup.prepare(wp, library_frames=ns.library_frames)
    if ns.list_devices:
        wp.init()
        channel.emit("devices", devices=[str(d) for d in wp.get_devices()], warp_version=wp.config.version)
        return 0

    script = os.path.abspath(ns.script) if ns.script else None
    if script is None or not os.path.isfile(script):
        finding = codes.tool_finding("TW909", "Script not found: %s" % (ns.script or "(none given)"))
        channel.emit("finding", finding=finding.to_json())
        channel.emit("end", status=EXIT_TOOL_ERROR, outcome="script-not-found")
        return EXIT_TOOL_ERROR
    try:
        with open(script, "rb") as f:
            source = f.read()
        # Compiled once, here, and run below: no future flags of this module leak into the script.
        code = compile(source, script, "exec", dont_inherit=True)
    except SyntaxError as exc:  # also ValueError for NUL bytes, below
        channel.emit("finding", finding=outcomes.syntax_error(exc, script).to_json())
        channel.emit("end", status=1, outcome="syntax-error")
        return 1
    except OSError as exc:
        finding = codes.tool_finding("TW909", "The script cannot be read: %s" % exc)
        channel.emit("finding", finding=finding.to_json())
        channel.emit("end", status=EXIT_TOOL_ERROR, outcome="script-not-found")
        return EXIT_TOOL_ERROR
    except (ValueError, UnicodeDecodeError) as exc:
        finding = codes.tool_finding("TW902", "The script cannot be compiled: %s" % exc,
                                      location=_loc(script))
        channel.emit("finding", finding=finding.to_json())
        channel.emit("end", status=1, outcome="syntax-error")
        return 1

    user_code.user_script(script)  # the user's, wherever it lives (inside Warp's own examples too)
    # The tracker must be on before the user's kernels are defined/loaded.
    startup.track(wp)
    device = ns.device
    if device:
        wp.init()
        try:
            wp.get_device(device)
        except Exception as exc:
            available = [str(d) for d in wp.get_devices()]
            finding = codes.tool_finding(
                "TW904",
                "Device `%s` is not available here (%s). Available: %s."
                % (device, exc, ", ".join(available) or "none"),
                device=device, available=available,
            )
            channel.emit("finding", finding=finding.to_json())
            channel.emit("end", status=EXIT_TOOL_ERROR, outcome="device-unavailable")
            return EXIT_TOOL_ERROR
        wp.set_device(device)

    probe = startup.install(wp, channel.emit, graph=not ns.no_graph, check_launches=ns.check_launches,
                            cold=ns.cold)
    channel.emit(
        "start",
        warp_version=wp.config.version,
        device=device or str(wp.get_device()),
        python=sys.executable,
        python_version=platform.python_version(),
        script=script,
        features=probe.features,
        check_launches=bool(ns.check_launches),
    )

    _answer_where(channel, wp)
    status = 0
    outcome = "ok"
    sys.argv = [script] + list(ns.args)
    user_code.user_root(os.path.dirname(script))
    sys.path[0] = os.path.dirname(script)
    # What exists now (Warp, numpy, Tapewatch: hundreds of thousands of objects) lives as long as the
    # run: out of the collector's way.  Otherwise every full collection walks it all again, and the
    # probe's own records make full collections more frequent than in a plain run (0.3 s of a run
    # with 3,000 findings).  The script's own objects are collected as usual.
    gc.freeze()
    # The probe keeps a few records per launch and per finding for the whole run: each young
    # collection they trigger walks them once more before they settle.  A larger young generation
    # lets fewer collections do that (with 3,000 findings, 0.16 s of collection became 0.10 s); the
    # script's unreachable cycles are still freed, after 10,000 new containers instead of 700.
    threshold = gc.get_threshold()
    gc.set_threshold(max(threshold[0], YOUNG_GC_THRESHOLD), *threshold[1:])
    try:
        _run_main(code, script)
    except SystemExit as exc:
        status = _exit_status(exc.code)
    except BaseException as exc:  # the user's exception, reported and re-printed
        status = 1
        outcome = "raised"
        channel.emit("finding", finding=outcomes.script_raised(exc, script).to_json())
        outcomes.print_user_traceback(exc)
    finally:
        probe.finish()
        channel.emit("counts", counts=probe.registry.counts())
        channel.emit("end", status=status, outcome=outcome, seconds=time.perf_counter() - started)
    sys.stdout.flush()
    sys.stderr.flush()
    return status


# The signal the runner sends, before it kills a run that timed out, to learn where the script was
# (TW905 on that line).  A real-time signal: no library is known to claim one this far from SIGRTMIN
# (glibc and its timers use the ones below it), and the default handler is checked before taking it.
WHERE_SIGNAL_OFFSET = 5


def _answer_where(channel: EventChannel, wp) -> None:
    """Make the process answer ``where`` requests: on the signal, ``faulthandler`` writes every
    thread's Python stack into an anonymous file, from its C handler: no bytecode has to run, so it
    answers inside a hung native call too (not when the process is stopped).  The runner reads the
    file through ``/proc/PID/fd/N`` before the kill: nothing is left behind on disk.  Linux only
    (real-time signals, ``/proc``); the ``where`` event tells the runner how to ask."""
    rtmin = getattr(signal, "SIGRTMIN", None)  # (Python 3.11+; before, the first real-time signal the C library
    if rtmin is None and sys.platform.startswith("linux"):  # leaves to programs: glibc keeps 32 and 33)
        rtmin = min((int(s) for s in signal.valid_signals() if int(s) > 31), default=None)
    if rtmin is None or not hasattr(faulthandler, "register") or not os.path.isdir("/proc/self/fd"):
        return
    sig = int(rtmin) + WHERE_SIGNAL_OFFSET
    try:
        if signal.getsignal(sig) != signal.SIG_DFL:
            return  # someone's already: leave it to them
        if hasattr(os, "memfd_create"):
            fd = os.memfd_create("tapewatch-where", os.MFD_CLOEXEC)
        else:
            import tempfile  # noqa: PLC0415 (Linux before 3.17 only)

            fd = os.dup(tempfile.TemporaryFile().fileno())  # unlinked already
            os.set_inheritable(fd, False)
        faulthandler.register(sig, file=fd, all_threads=True, chain=False)
    except (OSError, ValueError, RuntimeError):
        return
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the tapewatch package
    paths = sysconfig.get_paths()
    exclude = {here, os.path.dirname(os.path.abspath(wp.__file__))}
    exclude.update(os.path.abspath(paths[k]) for k in ("stdlib", "platstdlib") if paths.get(k))
    channel.emit("where", signal=sig, fd=fd, main_thread=threading.main_thread().ident,
                 exclude=sorted(exclude))


def _run_main(code, script: str) -> None:
    """``runpy.run_path(script)`` with the code already compiled for the syntax check: compiling a
    long script twice is a visible share of a short run."""
    run_code = getattr(runpy, "_run_module_code", None)  # runpy's own step after compiling (3.4+)
    if run_code is None:
        runpy.run_path(script, run_name="__main__")
        return
    run_code(code, None, "__main__", pkg_name="", script_name=script)


def _exit_status(code) -> int:
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    sys.stderr.write("%s\n" % code)
    return 1


def _loc(path):
    from ..model import Location  # noqa: PLC0415

    return Location(path, 1, 1)


if __name__ == "__main__":
    sys.exit(main())
