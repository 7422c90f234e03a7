"""The plugin once it is on: the probe in the test process, findings per test.

The probe is installed with ``probe.startup``, exactly the routine
``python -m tapewatch.probe`` runs, before conftest files and test modules
load.  Its findings arrive as ``finding`` events on ``emit``; each one
belongs to the test running when it was born (setup, call or teardown).
Every test gets a fresh ``FindingRegistry`` (``tracker.registry``), so a
bug that two tests exercise is reported in both of them; findings born
outside any test (collection, a module-level tape) go to the session.

A test's gradient findings (warning or error severity) fail it in fail
mode, with the findings' text as the failure message, or become
``TapewatchWarning`` warnings at the finding's line in warn mode.
Information never fails.  Internal errors of Tapewatch (TW9xx) are
``TapewatchInternalError`` warnings in both modes and are listed in the
terminal summary.  A test's findings travel on its teardown report
(``tapewatch_findings``), so the process that prints the summary and
writes the report also sees them under pytest-xdist.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
import warnings
from typing import Dict, List, Optional

import pytest

from ..model import Finding
from ..report.text import finding_lines
from . import TapewatchInternalError, TapewatchWarning

REPORT_ATTRIBUTE = "tapewatch_findings"
WORKER_OUTPUT = "tapewatch"
PROBLEM_SEVERITIES = ("error", "warning")
UNVERIFIED_STATUS = 2  # as `tapewatch check` and `tapewatch lint`: could not verify (pytest's own 2 is "interrupted")


def is_tool(finding: Finding) -> bool:
    """A finding about Tapewatch itself (TW9xx), not about the program's gradients."""
    return finding.code.startswith("TW9")


def is_problem(finding: Finding) -> bool:
    return finding.severity in PROBLEM_SEVERITIES and not is_tool(finding)


class _Scope:
    """The findings of one test (or of the session outside tests), in the order they were born."""

    def __init__(self, nodeid: Optional[str], registry):
        self.nodeid = nodeid
        self.registry = registry
        self.findings: List[Finding] = []
        self._by_id: Dict[str, Finding] = {}
        # Findings already turned into a failure, a warning or a report section (held, so that ids stay unique).
        self._settled: Dict[int, Finding] = {}

    def add(self, finding: Finding) -> None:
        old = self._by_id.get(finding.id) if finding.id and not is_tool(finding) else None
        if old is not None:  # the registry revised it (a harmless overwrite that now corrupts a gradient)
            self.findings[self.findings.index(old)] = finding
        else:
            self.findings.append(finding)
        if finding.id and not is_tool(finding):
            self._by_id[finding.id] = finding

    def unsettled(self) -> List[Finding]:
        """Findings not acted on yet (a revised finding is a new one), now marked as acted on."""
        new = [f for f in self.findings if id(f) not in self._settled]
        self._settled.update((id(f), f) for f in new)
        return new

    def sync_counts(self) -> None:
        """Repeats only bump the registry's count: copy them onto the findings."""
        if self.registry is None:
            return
        counts = self.registry.counts()
        for finding in self.findings:
            if not is_tool(finding) and finding.id in counts:
                finding.count = counts[finding.id]


class TapewatchSession:
    def __init__(self, config, mode: str, report_path: Optional[str]):
        self.config = config
        self.mode = mode
        self.report_path = report_path
        self.base = str(config.rootpath)
        self.probe = None
        self.warp_version: Optional[str] = None
        self.started = time.perf_counter()
        self._lock = threading.Lock()
        self._scope: Optional[_Scope] = None
        self._outside = _Scope(None, None)
        self.tests: Dict[str, List[Finding]] = {}  # nodeid -> findings, from the teardown reports
        self.workers: List[dict] = []  # what each xdist worker said about itself and outside its tests
        self.report_written: Optional[str] = None
        self.report_error: Optional[str] = None  # why the report could not be written
        self.differentiated = False  # a test (here) differentiated a tape that recorded a launch
        self._test_dirs: set = set()  # folders of the collected test files (their realpaths)
        self.unverified: Optional[str] = None  # why the session could not verify (exit status 2)
        from .. import config as configuration  # noqa: PLC0415

        try:  # [tool.tapewatch] of the project: the codes it selects (the same loader as the CLI)
            self.settings = configuration.load(self.base)
        except configuration.ConfigError as exc:
            raise pytest.UsageError("--tapewatch: %s" % exc)

    # ------------------------------------------------------------ the probe
    def start(self) -> None:
        from ..probe.core import startup  # noqa: PLC0415

        wp = startup.import_warp(self.emit)
        if wp is None:
            raise pytest.UsageError("--tapewatch: " + self._outside.findings[-1].message)
        startup.prepare(wp, user_root=self.base)
        startup.track(wp)
        # Tape graphs are for the editor's panel: not captured here.
        self.probe = startup.install(wp, self.emit, graph=False)
        self._outside.registry = self.probe.registry
        self.warp_version = wp.config.version

    def emit(self, event: str, **fields) -> None:
        """The probe's event channel, in-process: findings go to the running test."""
        if event == "kernels":  # at the end: did any test differentiate a tape?
            self.differentiated = self.differentiated or any(
                isinstance(k, dict) and k.get("differentiated") for k in fields.get("kernels") or [])
        if event != "finding":
            return  # per-launch check totals: nothing to report here
        # Exactly what the channel would carry (its JSON, non-JSON values as text).
        finding = Finding.from_json(json.loads(json.dumps(fields["finding"], default=str)))
        if not self.settings.keep(finding):
            return  # a code [tool.tapewatch] does not select
        finding.related = [r for r in finding.related if not self._runner_frame(r.location.path)]
        if finding.code.startswith(("TW1", "TW2", "TW4")):
            self.differentiated = True  # only a tape gives these
        with self._lock:
            (self._scope or self._outside).add(finding)

    def _runner_frame(self, path: str) -> bool:
        """A related location in the code that runs the tests, not the user's: the interpreter's
        ``bin/pytest`` and standard library, and installed packages (pytest, pluggy) outside the
        folders of the collected test files (Warp's own tests live in its installed package)."""
        from ..installed import is_installed  # noqa: PLC0415

        if _runner_file(path):
            return True
        real = os.path.realpath(path)
        return is_installed(real) and not any(real.startswith(d + os.sep) for d in self._test_dirs)

    def _begin(self, item) -> None:
        from ..probe.core import user_code  # noqa: PLC0415
        from ..probe.core.registry import FindingRegistry  # noqa: PLC0415

        path = getattr(item, "path", None) or getattr(item, "fspath", None)
        if path is not None:
            self._test_dirs.add(os.path.dirname(os.path.realpath(str(path))))
            # The files pytest collected are the user's, wherever they live (Warp's own tests inside its
            # installed package): findings name the test's lines, not the runner's frames.
            user_code.user_script(str(path))
        registry = FindingRegistry(self.emit)
        with self._lock:
            self._scope = _Scope(item.nodeid, registry)
        self.probe.tracker.registry = registry

    def _end(self) -> Optional[_Scope]:
        self.probe.tracker.registry = self.probe.registry
        with self._lock:
            scope, self._scope = self._scope, None
        return scope

    # ---------------------------------------------------------- each test
    @pytest.hookimpl(wrapper=True, tryfirst=True)
    def pytest_runtest_setup(self, item):
        self._begin(item)
        try:
            return (yield)
        except BaseException:
            self._settle(item, "setup", raised=True)
            raise

    @pytest.hookimpl(wrapper=True, tryfirst=True)
    def pytest_runtest_call(self, item):
        try:
            result = yield
        except BaseException:
            self._settle(item, "call", raised=True)
            raise
        self._settle(item, "call", raised=False)  # setup's findings too: they fail the test, not its setup
        return result

    @pytest.hookimpl(wrapper=True, tryfirst=True)
    def pytest_runtest_teardown(self, item, nextitem):
        try:
            result = yield
        except BaseException:
            self._settle(item, "teardown", raised=True)
            raise
        self._settle(item, "teardown", raised=False)
        return result

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self, item, call):
        report = yield
        if call.when == "teardown" and self._scope is not None and self._scope.nodeid == item.nodeid:
            scope = self._end()
            scope.sync_counts()
            setattr(report, REPORT_ATTRIBUTE, [f.to_json() for f in scope.findings])
        return report

    def pytest_runtest_logreport(self, report) -> None:
        found = getattr(report, REPORT_ATTRIBUTE, None)
        if report.when == "teardown" and found:
            self.tests[report.nodeid] = [Finding.from_json(f) for f in found]

    def _settle(self, item, when: str, raised: bool) -> None:
        """Turn the test's findings not yet acted on into a failure, warnings or a report section."""
        scope = self._scope
        if scope is None:
            return
        with self._lock:
            new = scope.unsettled()
        if not new:
            return
        scope.sync_counts()
        for finding in new:
            if is_tool(finding):
                _warn(TapewatchInternalError, finding, item, self.base)
        problems = [f for f in new if is_problem(f)]
        if not problems:
            return
        if self.mode == "warn":
            for finding in problems:
                _warn(TapewatchWarning, finding, item, self.base)
            return
        text = failure_text(problems, self.base)
        if raised:  # the test failed on its own: its error stays, the findings are shown beside it
            item.add_report_section(when, "tapewatch", text)
        else:
            pytest.fail(text, pytrace=False)

    # ------------------------------------------------------------ session
    def pytest_sessionfinish(self, session, exitstatus) -> None:
        if self.probe is not None:
            with self._lock:
                self._scope = None
            self.probe.finish()
        outside = list(self._outside.findings)
        if getattr(self.config, "workerinput", None) is not None:  # an xdist worker: the controller reports
            self.config.workeroutput[WORKER_OUTPUT] = {"device": self._device(), "differentiated": self.differentiated,
                                                       "outside": [f.to_json() for f in outside]}
            return
        if self.mode == "fail" and any(is_problem(f) for f in self.outside()) and \
                session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
        self._judge(session)
        if self.report_path:
            try:
                self.write_report(session.exitstatus)
            except OSError as exc:
                # Never raised from here: the failures section and the summary still print.
                shown = os.path.relpath(self.report_path, str(self.config.invocation_params.dir))
                self.report_error = "could not write the report %s (%s)" % (shown, exc.strerror or exc)
                if session.exitstatus == pytest.ExitCode.OK:
                    session.exitstatus = pytest.ExitCode.USAGE_ERROR

    def _judge(self, session) -> None:
        """Exit status 2, "could not verify", as ``tapewatch check`` says it: no test differentiated a
        tape (TW912: nothing was verified), or something inside Tapewatch failed (TW910).  A session
        that pytest itself ended otherwise (interrupted, usage, no tests) keeps its status."""
        from .. import codes  # noqa: PLC0415

        if session.exitstatus not in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED) or not session.testscollected:
            return
        differentiated = self.differentiated or any(said.get("differentiated") for said in self.workers)
        found = [f for fs in self.tests.values() for f in fs] + self.outside()
        if not differentiated:
            self.unverified = "no test differentiated a wp.Tape: nothing was verified (TW912)"
            self._outside.findings.append(codes.tool_finding(
                "TW912", "No test recorded a launch on a wp.Tape and differentiated it: there was no gradient "
                "to check, so nothing was verified.", tests_run=session.testscollected))
        elif any(f.code == "TW910" for f in found):
            self.unverified = "results may be incomplete: an internal error in Tapewatch (TW910)"
        if self.unverified:
            session.exitstatus = UNVERIFIED_STATUS

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node, error) -> None:
        """pytest-xdist: a worker finished; keep what it saw outside its tests."""
        said = getattr(node, "workeroutput", {}).get(WORKER_OUTPUT)
        if said:
            self.workers.append(said)

    def outside(self) -> List[Finding]:
        """Findings born outside any test, in this process and in xdist workers."""
        out = list(self._outside.findings)
        for said in self.workers:
            out += [Finding.from_json(f) for f in said.get("outside") or []]
        return out

    def _device(self) -> Optional[str]:
        """Warp's device here, else the one an xdist worker used (None while Warp was never initialised)."""
        device = self.probe.device() if self.probe is not None else None
        for said in self.workers:
            device = device or said.get("device")
        return device

    # ------------------------------------------------------------- report
    def result(self, exitstatus):
        """The session as one ``RunResult``: identical findings of several tests merged, with their tests."""
        from ..runner import RunResult  # noqa: PLC0415

        merged: Dict[tuple, Finding] = {}
        pairs = [(nodeid, f) for nodeid, found in self.tests.items() for f in found]
        pairs += [(None, f) for f in self.outside()]
        for nodeid, f in pairs:
            loc = f.location
            key = (f.code, loc.path if loc else None, loc.line if loc else None, loc.column if loc else None,
                   f.message)
            known = merged.get(key)
            if known is None:
                known = merged[key] = Finding.from_json(f.to_json())
                known.count = 0
                known.data = dict(known.data, tests=[])
            known.count += f.count
            if nodeid is not None and nodeid not in known.data["tests"]:
                known.data["tests"].append(nodeid)
        findings = list(merged.values())
        for n, f in enumerate(findings, start=1):
            f.id = "f%d" % n
        device = self._device()
        return RunResult(
            script=self.base, findings=findings, warp_version=self.warp_version, device=device,
            python=sys.executable, features=dict(self.probe.features) if self.probe is not None else {},
            seconds=time.perf_counter() - self.started, exit_code=int(exitstatus))

    def write_report(self, exitstatus) -> None:
        from ..report import to_json, to_sarif  # noqa: PLC0415

        result = self.result(exitstatus)
        if self.report_path.endswith(".sarif"):
            text = to_sarif(result, base=self.base)
        else:
            obj = json.loads(to_json(result))
            tests = {nodeid: [f.id for f in result.findings if nodeid in f.data["tests"]] for nodeid in self.tests}
            obj["pytest"] = {"mode": self.mode, "tests_with_findings": tests}
            text = json.dumps(obj, indent=2)
        folder = os.path.dirname(self.report_path)
        if folder:
            os.makedirs(folder, exist_ok=True)
        with open(self.report_path, "w", encoding="utf-8") as f:
            f.write(text + "\n")
        self.report_written = self.report_path

    def pytest_terminal_summary(self, terminalreporter) -> None:
        if getattr(self.config, "workerinput", None) is not None:
            return
        tr = terminalreporter
        found = [(nodeid, f) for nodeid, fs in self.tests.items() for f in fs]
        problems = [(nodeid, f) for nodeid, f in found if is_problem(f)]
        tools = [(nodeid, f) for nodeid, f in found if is_tool(f)] + [(None, f) for f in self.outside()
                                                                         if is_tool(f)]
        outside = [f for f in self.outside() if not is_tool(f) and f.severity in PROBLEM_SEVERITIES]
        quiet = not problems and not tools and not outside
        if quiet and tr.config.get_verbosity() < 0 and not self.report_written and not self.report_error:
            return
        tr.write_sep("-", "tapewatch")
        information = len([f for _, f in found if f.severity not in PROBLEM_SEVERITIES and not is_tool(f)])
        if problems:
            said = "%s in %s%s" % (_plural(len(problems), "gradient finding"),
                                   _plural(len({nodeid for nodeid, _ in problems}), "test"),
                                   " (reported as warnings)" if self.mode == "warn" else "")
        else:
            said = "no gradient findings in the tests"
        if information:
            said += ", %d information (in the report)" % information if self.report_path else \
                ", %d information" % information
        tr.write_line("tapewatch (%s mode): %s; Warp %s on %s" % (
            self.mode, said, self.warp_version or "?", self._device() or "no device used"))
        if self.mode == "warn":
            for nodeid, f in problems:
                tr.write_line("%s: %s" % (nodeid, finding_lines(f, self.base)[0]))
        for f in outside:
            tr.write_line("outside any test: %s" % finding_lines(f, self.base)[0])
        for nodeid, f in tools:
            tr.write_line("%s: %s" % (nodeid or "outside any test", finding_lines(f, self.base)[0]),
                          red=True)
        if any(f.code == "TW910" for _, f in tools):
            tr.write_line("tapewatch: results may be incomplete (internal error in Tapewatch, see TW910)", red=True)
        if self.unverified:
            tr.write_line("tapewatch: %s; exit status %d (could not verify)" % (self.unverified, UNVERIFIED_STATUS),
                          red=True)
        if self.report_written:
            tr.write_line("tapewatch: report written to %s" % self.report_written)
        if self.report_error:
            tr.write_line("tapewatch: %s" % self.report_error, red=True)


def _runner_dirs() -> tuple:
    """Folders of the code that runs the tests, never the user's: the interpreter's scripts folder
    (``.venv/bin/pytest``), its standard library (``runpy`` under ``python -m pytest``)."""
    import sysconfig  # noqa: PLC0415

    dirs = {os.path.dirname(os.path.realpath(sys.executable))}
    for prefix in {sys.prefix, sys.base_prefix, sys.exec_prefix}:
        for key in ("scripts", "stdlib", "platstdlib"):
            try:
                dirs.add(os.path.realpath(sysconfig.get_path(key, vars={"base": prefix, "platbase": prefix,
                                                                        "installed_base": prefix,
                                                                        "installed_platbase": prefix})))
            except (KeyError, TypeError):
                continue
    return tuple(sorted(d for d in dirs if d and d != os.sep))


_RUNNER_DIRS: Optional[tuple] = None


def _runner_file(path: str) -> bool:
    """A related location in the test runner (``.venv/bin/pytest:6``: "`test_x()` called from here") is
    not one to show: the test's own frames end the call chain."""
    global _RUNNER_DIRS
    if _RUNNER_DIRS is None:
        _RUNNER_DIRS = _runner_dirs()
    folder = os.path.dirname(os.path.realpath(path))
    return any(folder == d or (folder.startswith(d + os.sep) and "site-packages" not in folder[len(d):])
               for d in _RUNNER_DIRS)


def _plural(n: int, word: str) -> str:
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


def failure_text(findings: List[Finding], base: Optional[str]) -> str:
    """The failure message: its first line (pytest's short summary) names the first finding and its place."""
    first = findings[0]
    where = finding_lines(first, base)[0].split(": ", 1)[0]
    more = len(findings) - 1
    lines = ["tapewatch found %s at %s%s" % (first.code, where, " and %d more gradient finding%s"
                                              % (more, "" if more == 1 else "s") if more else "")]
    for f in findings:
        lines += finding_lines(f, base)
    lines.append("(--tapewatch=warn reports gradient findings as warnings without failing the test)")
    return "\n".join(lines)


def _warn(category, finding: Finding, item, base: Optional[str]) -> None:
    """A warning at the finding's own line (the test's when it has none)."""
    lines = finding_lines(finding, base)
    head = "%s: %s" % (finding.code, lines[0].split(" %s: " % finding.code, 1)[-1])
    text = "\n".join([head] + lines[1:])
    if finding.location is not None:
        path, line = finding.location.path, finding.location.line
    else:
        path, lineno, _ = item.location
        path, line = os.path.join(base or "", path), (lineno or 0) + 1
    warnings.warn_explicit(category(text), category, filename=path, lineno=line)

