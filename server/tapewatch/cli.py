"""The ``tapewatch`` command: ``check`` a script, ``lint`` files, serve ``lsp``, write a ``harness``.

Exit status of ``check`` (and of ``lint``, the pytest plugin's session and
the pre-commit hook): 0 verified clean, 1 findings, 2 could not verify (a
syntax or import error, an exception, no tape recorded, a timeout, a crash,
no Warp or no such device, an internal error: the TW9xx says which) or bad
usage.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import signal
import sys
from typing import List, Optional

from . import __version__, defaults
from .report.escape import terminal

EXIT_CLEAN, EXIT_FINDINGS, EXIT_TOOL = 0, 1, 2

EXIT_CODES = """exit status:
  0  verified clean: the scripts ran, recorded their tapes, and nothing was found
  1  findings (with --baseline: new findings only)
  2  could not verify: a syntax or import error, an exception (TW901), no tape
     recorded (TW912), a timeout (TW905), a crash (TW906), no Warp or no such
     device, an internal error (TW910); or bad usage (no such file, a bad
     option, an invalid [tool.tapewatch])"""


def _wrap(text: str) -> str:
    import textwrap  # noqa: PLC0415

    return textwrap.fill(text, 79)


def _timeout(text: str) -> Optional[float]:
    """``--timeout``: seconds greater than 0, or ``none`` for no limit (0 is an error, not "none")."""
    if text.strip().lower() in ("none", "inf", "infinity"):
        return None
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("expected seconds (greater than 0) or `none`, got %r" % text)
    if not value > 0 or value != value or value == float("inf"):
        raise argparse.ArgumentTypeError("expected seconds greater than 0 (or `none` for no limit), got %s" % text)
    return value


def build_parser() -> argparse.ArgumentParser:
    raw = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(
        prog="tapewatch", formatter_class=raw,
        description=_wrap("Find gradient bugs in NVIDIA Warp programs: check a script, lint files, write an FD "
                          "harness, bisect a horizon, serve the language server."),
        epilog=EXIT_CODES + "\n\n`tapewatch COMMAND --help` describes each command.")
    parser.add_argument("--version", action="version", version="tapewatch " + __version__)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    check = sub.add_parser(
        "check", help="run scripts with the overwrite tracker and report findings", formatter_class=raw,
        usage="tapewatch check [options] SCRIPT... [-- ARGS...]",
        description=_wrap("Run each script (or every script in a folder that records a wp.Tape) under the probe, "
                          "with every check, its lints and its FD harness, and report the findings. Defaults for "
                          "the codes and the excluded paths come from [tool.tapewatch] in the nearest "
                          "pyproject.toml."),
        epilog="arguments after `--` are passed to the script as its sys.argv[1:] (one script only):\n"
        "  tapewatch check sim.py --device cpu -- --steps 10\n\n" + EXIT_CODES)
    check.add_argument("scripts", nargs="+", metavar="SCRIPT",
                       help="scripts, or folders: every .py in them that records a wp.Tape")
    check.add_argument("-j", "--jobs", type=int, default=None,
                       help="scripts run at once (default: the number of cores)")
    check.add_argument("--device", default=defaults.DEVICE, help="Warp device (default: %s)" % defaults.DEVICE)
    check.add_argument("--python", default=sys.executable, help="interpreter that has Warp (default: this one)")
    check.add_argument("--timeout", type=_timeout, default=defaults.TIMEOUT_S, metavar="SECONDS",
                       help="seconds before a run is killed, greater than 0, or `none` for no limit (default %g)"
                       % defaults.TIMEOUT_S)
    check.add_argument("--cwd", default=None, help="working directory of the run (default: the script's folder)")
    check.add_argument("--format", choices=("text", "json", "sarif"), default="text")
    check.add_argument("--no-graph", action="store_true", help="do not capture tape graphs")
    check.add_argument("--check-launches", dest="check_launches", action="store_true",
                       default=defaults.CHECK_LAUNCHES,
                       help="check each taped launch's adjoint against finite differences (the default)")
    check.add_argument("--no-check-launches", dest="check_launches", action="store_false",
                       help="skip the per-launch adjoint checks")
    check.add_argument("--baseline", default=None, metavar="RUN.json",
                       help="compare with an earlier run (from .tapewatch/runs/): new, fixed and unchanged findings")
    check.add_argument("--no-evidence", action="store_true",
                       help="do not keep this run under .tapewatch/runs/ in the project")
    check.add_argument("--cold", action="store_true",
                       help="rebuild every kernel module, as Warp's tracker does (default: reuse cached binaries)")
    check.add_argument("--no-harness", action="store_true",
                       help="do not run the FD harness written for the script (SCRIPT_fdcheck*.py next to it)")
    check.add_argument("--no-lint", action="store_true", default=not defaults.LINT,
                       help="do not run the static lints on the files the run involved")
    check.add_argument("--library-frames", action="store_true",
                       help="place findings inside installed packages too (default: at your call into them)")
    check.add_argument("-q", "--quiet", action="store_true", help="do not echo the script's output")
    # Arguments for the script follow ``--``; main() splits them off first.

    bis = sub.add_parser(
        "bisect", help="find the first step at which AD and finite differences diverge", formatter_class=raw,
        epilog="exit status: 0 AD and FD agree over the whole horizon, 1 they diverge (TW410), 2 could not "
        "verify (no horizon found, no FD verdict: TW406) or bad usage")
    bis.add_argument("script")
    bis.add_argument("--knob", default=None, help="the module-level constant that sets the horizon (default: found)")
    bis.add_argument("--device", default=defaults.DEVICE, help="Warp device (default: %s)" % defaults.DEVICE)
    bis.add_argument("--python", default=sys.executable, help="interpreter that has Warp (default: this one)")
    bis.add_argument("--timeout", type=_timeout, default=defaults.TIMEOUT_S, metavar="SECONDS",
                     help="seconds per FD run, greater than 0, or `none` (default %g)" % defaults.TIMEOUT_S)
    bis.add_argument("--format", choices=("text", "json"), default="text")

    history = sub.add_parser("history", help="list the kept runs of a script (.tapewatch/runs/)")
    history.add_argument("script")
    history.add_argument("--format", choices=("text", "json"), default="text")

    harness = sub.add_parser("harness", help="write a finite-difference harness next to a script")
    harness.add_argument("script")
    harness.add_argument("-o", "--output", default=None, help="harness path (default: a free SCRIPT_fdcheck*.py)")
    harness.add_argument("--python", default=sys.executable, help="interpreter that has Warp (picks the FD form)")

    from . import lint_cli  # noqa: PLC0415 (stdlib only; the lint engine loads when used)

    lint_cli.add_parser(sub)
    sub.add_parser("lsp", help="serve the Language Server Protocol over stdio")
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    script_args: List[str] = []
    if "--" in argv:
        cut = argv.index("--")
        argv, script_args = argv[:cut], argv[cut + 1:]
    ns = parser.parse_args(argv)
    ns.args = script_args
    python = getattr(ns, "python", None)
    if python and os.sep in python and not os.path.isabs(python):
        # A path like .venv/bin/python means the caller's folder; the script runs in its own.
        ns.python = os.path.abspath(python)
    if ns.command == "check":
        return check(ns)
    if ns.command == "harness":
        return write_harness(ns)
    if ns.command == "history":
        return show_history(ns)
    if ns.command == "bisect":
        return run_bisect(ns)
    if ns.command == "lint":
        from . import lint_cli  # noqa: PLC0415

        return lint_cli.main(ns)
    if ns.command == "lsp":
        from .lsp import serve  # noqa: PLC0415 (pygls only when serving)

        return serve()
    parser.print_help()
    return EXIT_TOOL


def write_harness(ns) -> int:
    from .harness.generate import generate  # noqa: PLC0415

    if not os.path.isfile(ns.script):
        print(terminal("tapewatch: no such script: %s" % ns.script), file=sys.stderr)
        return EXIT_TOOL
    try:
        path = generate(ns.script, ns.python, ns.output)
    except FileExistsError as exc:
        print(terminal("tapewatch: %s exists; not overwriting it" % exc), file=sys.stderr)
        return EXIT_TOOL
    print(terminal(path))
    print(terminal("tapewatch: run it with `tapewatch check %s`" % os.path.relpath(path)), file=sys.stderr)
    return EXIT_CLEAN


def run_bisect(ns) -> int:
    import asyncio  # noqa: PLC0415
    import json  # noqa: PLC0415

    from .bisect import bisect  # noqa: PLC0415
    from .report.text import finding_lines  # noqa: PLC0415

    if not os.path.isfile(ns.script):
        print(terminal("tapewatch: no such script: %s" % ns.script), file=sys.stderr)
        return EXIT_TOOL

    def progress(step: dict) -> None:
        sys.stderr.write(terminal("tapewatch bisect: horizon %s: %s" % (step["k"], step["verdict"])) + "\n")
        sys.stderr.flush()

    findings, signum = asyncio.run(_until_signalled(bisect(os.path.abspath(ns.script), ns.python, ns.knob,
                                                           ns.timeout, progress, device=ns.device)))
    if findings is None:
        return 128 + signum
    if ns.format == "json":
        print(json.dumps([f.to_json() for f in findings], indent=2))
    else:
        for f in findings:
            print("\n".join(finding_lines(f, os.getcwd())))
    if any(f.code == "TW406" for f in findings):
        return EXIT_TOOL
    return EXIT_FINDINGS if any(f.code == "TW410" for f in findings) else EXIT_CLEAN


def show_history(ns) -> int:
    import json  # noqa: PLC0415

    from . import evidence  # noqa: PLC0415

    problems: list = []
    runs = evidence.history(ns.script, problems=problems)
    for path, why in problems:
        print(terminal("tapewatch: skipped %s: %s" % (os.path.relpath(path), why.replace(path, "it", 1))),
              file=sys.stderr)
    status = EXIT_TOOL if problems else EXIT_CLEAN
    if ns.format == "json":
        print(json.dumps([dict(data, file=path) for path, data in runs], indent=1))
        return status
    if not runs:
        print(terminal("tapewatch: no kept runs of %s (runs are kept under %s)" % (ns.script, evidence.FOLDER)))
        return status
    for path, data in runs:
        counts = data.get("counts") or {}
        print(terminal("%s  %-8s  %d errors, %d warnings  Warp %s on %s  script %s  %s" % (
            data.get("time"), data.get("status"), counts.get("error", 0), counts.get("warning", 0),
            data.get("warp_version"), data.get("device"), data.get("script_hash"), os.path.relpath(path))))
    return status


def check(ns) -> int:
    from .spawn import RunRequest, start  # noqa: PLC0415 (no event loop yet: see below)

    from . import config as configuration  # noqa: PLC0415

    if ns.cwd and not os.path.isdir(ns.cwd):
        print(terminal("tapewatch: --cwd %s is not a directory" % ns.cwd), file=sys.stderr)
        return EXIT_TOOL
    try:
        cfg = configuration.load(ns.scripts[0])
    except configuration.ConfigError as exc:
        print(terminal("tapewatch: %s" % exc), file=sys.stderr)
        return EXIT_TOOL
    notes: List[str] = []
    scripts, problems = collect_scripts(ns.scripts, notes, cfg, with_harness=not ns.no_harness)
    for line in notes + problems:
        print(terminal("tapewatch: %s" % line), file=sys.stderr)
    if problems or not scripts:
        if not scripts and not problems:
            print(terminal("tapewatch: no script that records a wp.Tape in %s" % " ".join(ns.scripts)),
                  file=sys.stderr)
        return EXIT_TOOL
    if len(scripts) > 1 and (ns.args or ns.baseline):
        print("tapewatch: script arguments (after --) and --baseline need a single script", file=sys.stderr)
        return EXIT_TOOL
    if ns.jobs is not None and ns.jobs < 1:
        print("tapewatch: --jobs must be at least 1", file=sys.stderr)
        return EXIT_TOOL
    baseline = None
    if ns.baseline:
        from . import evidence  # noqa: PLC0415

        try:
            baseline = evidence.load(ns.baseline)
        except OSError as exc:
            print(terminal("tapewatch: --baseline: %s cannot be read (%s)" % (ns.baseline, exc.strerror or exc)),
                  file=sys.stderr)
            return EXIT_TOOL
        except evidence.EvidenceError as exc:
            print(terminal("tapewatch: --baseline: %s" % exc), file=sys.stderr)
            return EXIT_TOOL
    requests = [RunRequest(script=script, python=ns.python, device=ns.device, timeout=ns.timeout,
                           cwd=ns.cwd, args=ns.args, graph=not ns.no_graph, check_launches=ns.check_launches,
                           library_frames=ns.library_frames, lint=not ns.no_lint, cold=ns.cold)
               for script in scripts]
    err = sys.stderr
    jobs = min(ns.jobs or os.cpu_count() or 1, len(requests))
    for req in requests:
        err.write(terminal("tapewatch: running %s on %s with %s" % (req.script, ns.device, ns.python)) + "\n")
    err.flush()
    # The first runs start now, before asyncio and the runner load: the user's interpreter starts
    # (and imports Warp) on another core meanwhile.  Each run owns its process from then on.
    early = {}
    try:
        for i, req in enumerate(requests[:jobs]):
            with contextlib.suppress(OSError, ValueError):  # the run itself says why (TW908)
                early[i] = start(req)
        import asyncio  # noqa: PLC0415

        results, signum = asyncio.run(_until_signalled(
            _run_all(requests, jobs, ns.quiet, err, not ns.no_harness, early)))
    finally:
        for started in early.values():
            started.abandon()  # only those no run took over (interrupted before the loop ran)
    if results is None:
        # Every run's process tree is gone (cancelling a run kills its process group).
        err.write("tapewatch: interrupted by %s; the runs were stopped\n" % signal.Signals(signum).name)
        return 128 + signum
    # The results live until the CLI exits: out of the collector's way while the report and the
    # evidence allocate a dict per finding and location (with thousands of findings its full
    # collections were a third of the report's time).
    gc.freeze()
    named = [s for s in ns.scripts if not os.path.isdir(s)]
    for result in results:  # [tool.tapewatch]: codes ignored, lints of excluded files
        result.findings = cfg.apply(result.findings, named)
    against = _baseline_states(baseline, results[0], ns.baseline) if baseline is not None else None
    out = _report(results, ns.format, os.getcwd(), against)
    sys.stdout.write(out if out.endswith("\n") else out + "\n")
    if not ns.no_evidence:
        from . import evidence  # noqa: PLC0415

        for result in results:
            if result.tool_failed:
                continue
            kept, why = evidence.keep(result)
            if kept:
                err.write(terminal("tapewatch: this run is kept as %s" % os.path.relpath(kept)) + "\n")
            else:
                err.write(terminal("tapewatch: %s: this run could not be kept under %s (%s); the report above "
                                   "stands" % (os.path.basename(result.script), evidence.FOLDER, why)) + "\n")
    if baseline is not None:
        return _report_baseline(baseline, results[0], err)
    return max(r.exit_status() for r in results)


def collect_scripts(paths: List[str], notes: Optional[List[str]] = None, config=None,
                    with_harness: bool = True) -> tuple:
    """Files as given; folders searched for scripts that record a tape (not helpers, ``_*.py``), less
    what ``config`` ([tool.tapewatch]) excludes.

    Only regular files are read: in a folder, a FIFO, a socket or a device named ``*.py`` is never
    opened (a FIFO would block for good) and goes to ``notes``, as does a symbolic link to nothing;
    named on the command line, either is a problem.  An FD harness found in a folder runs with its
    script (``run_verification``), never a second time alone; alone only when its script is not run
    (or with ``with_harness=False``, not at all)."""
    from .config import Config  # noqa: PLC0415
    from .spawn import find_harness, is_harness, regular_file  # noqa: PLC0415

    config = config if config is not None else Config()
    scripts, problems, found_harnesses = [], [], []
    for path in paths:
        if config.excluded(path, named=True):
            continue
        if os.path.isdir(path):
            for folder, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith((".", "_")) and d not in ("node_modules",)
                                 and not config.excluded(os.path.join(folder, d)))
                for name in sorted(files):
                    full = os.path.join(folder, name)
                    if not name.endswith(".py") or name.startswith("_") or config.excluded(full):
                        continue
                    why = regular_file(full)
                    if why:
                        if notes is not None:
                            notes.append("skipped %s: %s" % (full, why))
                    elif is_harness(full):
                        found_harnesses.append(full)
                    elif _records_a_tape(full):
                        scripts.append(full)
        elif os.path.lexists(path):
            why = regular_file(path)
            if why:
                problems.append("%s: %s" % (path, why))
            else:
                scripts.append(path)
        else:
            problems.append("no such file or folder: %s" % path)
    if with_harness:
        # The harness each script runs with (its newest); any other harness found runs alone.
        runs_with = {os.path.realpath(h) for h in (find_harness(s) for s in scripts) if h}
        scripts += [h for h in found_harnesses if os.path.realpath(h) not in runs_with]
    elif notes is not None:
        notes += ["skipped %s: an FD harness (--no-harness)" % h for h in found_harnesses]
    seen: set = set()
    unique = [s for s in scripts if not (os.path.realpath(s) in seen or seen.add(os.path.realpath(s)))]
    return unique, problems


def _records_a_tape(path: str) -> bool:
    """A folder's script is run when it records a tape (``lint.context.FileContext.records_a_tape``); one
    that does not parse is run too when it mentions a tape, so that its syntax error is reported."""
    from .lint.context import parse  # noqa: PLC0415
    from .spawn import read_head  # noqa: PLC0415

    text = read_head(path, 1 << 20).decode("utf-8", "replace")
    ctx = parse(text, path)
    if ctx is None:
        return "Tape(" in text
    return ctx.records_a_tape


async def _run_all(requests, jobs: int, quiet: bool, err, with_harness: bool = True, early=None) -> list:
    """Every request (and its FD harness), ``jobs`` at a time, in the given order; the scripts' output
    prefixed by name.  ``early``: request index -> its probe, already started."""
    import asyncio  # noqa: PLC0415

    from .runner import run_verification  # noqa: PLC0415

    gate = asyncio.Semaphore(jobs)
    several = len(requests) > 1

    async def one(req, started):
        name = terminal(os.path.basename(req.script))  # the scripts' own output is passed through as written
        partial = [""]

        def echo(stream: str, text: str) -> None:
            # The report owns stdout; the scripts' own output goes to stderr, line by line.
            if quiet:
                return
            if not several:
                err.write(text)
                err.flush()
                return
            lines = (partial[0] + text).split("\n")
            partial[0] = lines.pop()
            for line in lines:
                err.write("[%s] %s\n" % (name, line))
            err.flush()

        def harness_note(path: str) -> None:
            err.write("tapewatch: %s: FD check with %s\n" % (name, terminal(os.path.basename(path))))

        async with gate:
            result = (await run_verification(req, on_output=echo, with_harness=with_harness,
                                             on_harness=harness_note, started=started)).combined()
        if partial[0] and not quiet:
            err.write("[%s] %s\n" % (name, partial[0]))
        if several:
            err.write("tapewatch: %s: %s\n" % (name, result.status))
            err.flush()
        return result

    return list(await asyncio.gather(*(one(r, (early or {}).get(i)) for i, r in enumerate(requests))))


def _baseline_states(baseline: dict, result, given: str) -> dict:
    """Each finding's state against the baseline (``new``, ``unchanged``) and the baseline's findings now
    gone (``absent``), for SARIF's ``baselineState`` and the JSON report."""
    from . import evidence  # noqa: PLC0415
    from .model import Finding  # noqa: PLC0415

    root = evidence.project_root(result.script)
    states, gone = evidence.baseline_states(baseline, result.findings, root)
    absent = []
    for obj in gone:
        obj = dict(obj, related=[])
        if obj.get("path"):
            obj["path"] = os.path.join(root, str(obj["path"]))
        try:
            absent.append(Finding.from_json(obj))
        except (KeyError, TypeError, ValueError):
            continue
    return {"file": given, "time": baseline.get("time"), "states": states, "absent": absent}


def _report(results: list, fmt: str, base: str, baseline: Optional[dict] = None) -> str:
    from .report import to_json, to_sarif, to_text  # noqa: PLC0415
    from .json_layout import dumps  # noqa: PLC0415
    from .report.sarif import findings_to_sarif  # noqa: PLC0415

    if len(results) == 1:
        result = results[0]
        if fmt == "json" and baseline is not None:
            import json  # noqa: PLC0415

            obj = json.loads(to_json(result))
            for finding, state in zip(obj["findings"], baseline["states"]):
                finding["baseline_state"] = state
            obj["baseline"] = {"file": baseline["file"], "time": baseline["time"],
                               "new": baseline["states"].count("new"),
                               "unchanged": baseline["states"].count("unchanged"),
                               "absent": [f.to_json() for f in baseline["absent"]]}
            return dumps(obj)
        return {"json": lambda: to_json(result), "sarif": lambda: to_sarif(result, base=base, baseline=baseline)}.get(
            fmt, lambda: to_text(result, base=base))()
    if fmt == "json":
        import json  # noqa: PLC0415

        worst = max(results, key=lambda r: r.exit_status()).status
        return dumps({"status": worst, "runs": [json.loads(to_json(r)) for r in results]}, depth=4)
    if fmt == "sarif":
        findings = [f for r in results for f in r.findings]
        return findings_to_sarif(findings, base, {"scripts": [os.path.relpath(r.script, base) for r in results]})
    texts = [to_text(r, base=base) for r in results]
    statuses = [r.status for r in results]
    texts.append("tapewatch: %d scripts: %d with findings, %d failed, %d clean\n"
                 % (len(results), statuses.count("findings"), statuses.count("failed"), statuses.count("ok")))
    return "".join(texts)


def _report_baseline(baseline: dict, result, err) -> int:
    """Before/after a fix: what is new, what is fixed, how the FD errors moved (exit 1 on anything new)."""
    from . import evidence  # noqa: PLC0415

    diff = evidence.compare(baseline, result.findings, evidence.project_root(result.script))
    err.write(terminal("tapewatch: against the run of %s: %d new, %d fixed, %d unchanged"
                       % (baseline.get("time"), len(diff["new"]), len(diff["fixed"]), len(diff["unchanged"]))) + "\n")
    for label in ("new", "fixed"):
        for obj in diff[label]:
            err.write(terminal("  %s %s %s:%s %s" % (label, obj.get("code"), obj.get("path"), obj.get("line"),
                                                    str(obj.get("message", ""))[:160])) + "\n")
    for move in diff["fd"]:
        err.write(terminal("  FD error of %s: %.3g -> %.3g" % (move["key"][2], move["before"], move["after"])) + "\n")
    if result.unverified or result.incomplete:
        return EXIT_TOOL
    new_problems = [o for o in diff["new"] if o.get("severity") in ("error", "warning")]
    return EXIT_FINDINGS if new_problems else EXIT_CLEAN


async def _until_signalled(coro):
    """Run ``coro``; SIGINT, SIGTERM or SIGHUP (what ``timeout`` and CI job limits send) cancel it.

    Returns ``(result, None)``, or ``(None, signal number)`` when a signal stopped it.
    """
    import asyncio  # noqa: PLC0415

    loop = asyncio.get_running_loop()
    task = asyncio.ensure_future(coro)
    received = []

    def stop(signum):
        received.append(signum)
        task.cancel()

    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError, AttributeError):
            loop.add_signal_handler(sig, stop, sig)
    try:
        return await task, None
    except asyncio.CancelledError:
        return None, (received[0] if received else signal.SIGINT)


if __name__ == "__main__":
    sys.exit(main())
