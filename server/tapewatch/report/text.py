"""Compiler-style text: ``path:line:col: warning TW101: message``.

Related locations are indented under their finding, so editors and
terminals that link ``path:line:col`` make every one of them clickable.

Every line goes through ``escape.terminal``: file names and messages (which
quote exception text and the script's output) are the user's, and a control
character in them must not reach the terminal as a command.
"""

from __future__ import annotations

import os
from typing import Optional

from ..model import Finding, Location
from ..runner import RunResult
from .escape import terminal

__all__ = ["finding_lines", "terminal", "to_text"]


def _where(loc: Optional[Location], base: Optional[str]) -> str:
    if loc is None:
        return "tapewatch"
    path = loc.path
    if base:
        rel = os.path.relpath(path, base)
        if not rel.startswith(".."):
            path = rel
    return "%s:%d:%d" % (path, max(1, loc.line), max(1, loc.column))


def finding_lines(f: Finding, base: Optional[str] = None) -> list:
    count = " (x%d)" % f.count if f.count > 1 else ""
    message_lines = [line[:-1] if line.endswith("\r") else line for line in f.message.split("\n")]
    lines = ["%s: %s %s: %s%s" % (_where(f.location, base), f.severity, f.code, message_lines[0], count)]
    lines += ["    " + extra for extra in message_lines[1:]]
    for r in f.related:
        lines.append("    %s: note: %s" % (_where(r.location, base), r.message))
    return [terminal(line) for line in lines]


MAX_PER_CODE = 20  # findings printed per code; JSON and SARIF keep every one


def to_text(result: RunResult, base: Optional[str] = None, max_per_code: int = MAX_PER_CODE) -> str:
    lines = []
    shown: dict = {}
    for f in result.findings:
        shown[f.code] = shown.get(f.code, 0) + 1
        if shown[f.code] <= max_per_code:
            lines += finding_lines(f, base)
    for code, n in sorted(shown.items()):
        if n > max_per_code:
            lines.append("tapewatch: ... and %d more %s findings (--format json lists every one)"
                         % (n - max_per_code, code))
    counts = result.counts()
    plural = {"error": "errors", "warning": "warnings", "information": "information", "hint": "hints"}
    parts = ["%d %s" % (n, sev if n == 1 else plural[sev]) for sev, n in counts.items() if n]
    checks = result.launch_checks
    if checks and (checks.get("checked") or checks.get("skipped")):
        reasons = "; ".join("%d %s" % (n, why) for why, n in sorted((checks.get("skip_reasons") or {}).items()))
        lines.append(
            "tapewatch: per-launch adjoint checks: %d checked (%d passed, %d failed, %d inconclusive), %d skipped%s"
            % (checks.get("checked", 0), checks.get("passed", 0), checks.get("failed", 0),
               checks.get("inconclusive", 0), checks.get("skipped", 0), " (%s)" % reasons if reasons else ""))
    by_reason: dict = {}
    for item in result.not_measured:
        by_reason.setdefault(item["reason"], []).append("%s (x%d)" % (item["what"], item["count"]))
    for reason, what in by_reason.items():
        lines.append("tapewatch: not measured %s: %s" % (reason, "; ".join(what)))
    lines.append(summary_line(result, ", ".join(parts) or "no findings"))
    return "\n".join(terminal(line) for line in lines) + "\n"


# Outcomes of a run whose script never started: no Warp version or exit status to speak of.
NOT_RUN = {"syntax-error", "script-not-found", "warp-missing", "device-unavailable", "interpreter-unusable"}


def summary_line(result: RunResult, found: str) -> str:
    """The closing line: what ran where and what came of it, or why the script did not run."""
    name = os.path.basename(result.script)
    failure = result.failure()
    if result.outcome in NOT_RUN or (result.exit_code is None and result.outcome not in ("timeout", "cancelled")):
        why = "%s %s" % (failure["code"], failure["message"]) if failure else result.outcome
        return "tapewatch: %s: not run: %s" % (name, why)
    where = "%s on %s%s in %.1fs" % (name, result.device or "?",
                                     " with Warp %s" % result.warp_version if result.warp_version else "",
                                     result.seconds)
    line = "tapewatch: %s: %s (%s)" % (where, found, _ended(result))
    if result.status == "failed" and failure:
        line += "; not verified: %s" % failure["code"]
    if result.incomplete:
        line += "; results may be incomplete (internal error, see TW910)"
    return line


def _ended(result: RunResult) -> str:
    if result.outcome == "timeout":
        return "stopped at the timeout"
    if result.outcome == "cancelled":
        return "cancelled"
    code = result.exit_code
    if code is None:
        return "the script did not run"
    if code < 0:
        import signal  # noqa: PLC0415

        try:
            return "killed by %s" % signal.Signals(-code).name
        except ValueError:
            return "killed by signal %d" % -code
    return "script exit status %d" % code
