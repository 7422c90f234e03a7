"""Tapewatch in Jupyter: ``%load_ext tapewatch``, then ``%%tapewatch`` on a cell.

The cell runs as ``tapewatch check`` runs a script: in a subprocess, under the probe, with every
check (``runner.run_verification``), on the device asked for.  The script is what the kernel has
run so far, in order (its input history: each earlier cell's source, their magics and shell
escapes left out), followed by the cell; every line of it is mapped back to the cell it came
from, and the findings are shown as HTML in the notebook: each one with its code (linked to its
page), message, the cell lines it points at, its related locations, the per-launch checks, what
was not measured, and the tape graph.

Only this module imports IPython, and only when the extension is loaded: ``import tapewatch``
never does.  Every string shown in the HTML is the user's (cell source, file names, messages
quoting exceptions) and is escaped.
"""

from __future__ import annotations

import argparse
import asyncio
import html
import os
import re
import shlex
import shutil
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

from . import codes, defaults
from .model import Finding, Location, TapeGraph
from .report.escape import terminal

# Cell magics whose body is plain Python that runs in the kernel: kept (the magic line left out).
PYTHON_CELL_MAGICS = {"time", "capture", "prun"}
HEADER_LINES = 4  # the generated script's first lines (say what it is; the notebook's folder on sys.path)


@dataclass
class Segment:
    """A cell's lines in the generated script: script lines ``start`` .. ``start + len(lines) - 1``."""

    label: str  # "this cell", "In [3]"
    start: int
    lines: List[str]  # the cell's own source, as the user wrote it (for the HTML)
    current: bool = False

    def holds(self, line: int) -> bool:
        return self.start <= line < self.start + len(self.lines)


@dataclass
class CellScript:
    """The script a ``%%tapewatch`` cell runs, and where each of its lines came from."""

    text: str
    segments: List[Segment]
    skipped: List[Tuple[str, str]] = field(default_factory=list)  # (label, why) of cells left out
    path: str = ""

    def cell_of(self, line: int) -> Optional[Tuple[Segment, int]]:
        for seg in self.segments:
            if seg.holds(line):
                return seg, line - seg.start + 1
        return None

    def where(self, loc: Optional[Location], base: str) -> Tuple[str, Optional[str], Optional[int]]:
        """(label, the source line shown with it, the cell's line) of a location: "this cell, line 5",
        "In [3], line 2", or a file's path (relative to ``base``) and line."""
        if loc is None:
            return "the run", None, None
        if self.path and os.path.abspath(loc.path) == self.path:
            found = self.cell_of(loc.line)
            if found is None:  # line 1 of the whole run (a timeout, no tape): the cell as a whole
                return "the cell (the run as a whole)", None, None
            seg, line = found
            return "%s, line %d" % (seg.label, line), seg.lines[line - 1], line
        path = loc.path
        rel = os.path.relpath(path, base) if os.path.isabs(path) else path
        shown = path if rel.startswith("..") else rel
        return "%s, line %d" % (shown, loc.line), _file_line(path, loc.line), loc.line

    def relabel(self, text: str) -> str:
        """``line N`` (and ``cell_5.py:N``) of the generated script, in a message, as the cell's line."""
        def one(match) -> str:
            found = self.cell_of(int(match.group(1)))
            if found is None:
                return match.group(0)
            seg, line = found
            return "line %d of %s" % (line, seg.label)
        text = re.sub(r"\bline (\d+)\b", one, text)
        if self.path:
            text = re.sub(r"\b%s:(\d+)\b" % re.escape(os.path.basename(self.path)), one, text)
        return text


def _file_line(path: str, line: int) -> Optional[str]:
    try:
        with open(path, "rb") as f:
            for number, raw in enumerate(f, start=1):
                if number == line:
                    return raw.rstrip(b"\r\n").decode("utf-8", "replace")
                if number > line:
                    break
    except OSError:
        pass
    return None


# ------------------------------------------------------------------ the script

_MAGIC_CALL = re.compile(r"^(\s*)(?:([\w.\[\], ]+?)\s*=\s*)?get_ipython\(\)\.\w+\(.*\)\s*$")


def _cell_magic(source: str) -> Optional[str]:
    """The name of the cell magic a cell starts with (``%%time`` -> ``time``), or None."""
    for line in source.splitlines():
        if line.strip():
            match = re.match(r"\s*%%\s*(\S+)", line)
            return match.group(1) if match else None
    return None


def python_lines(source: str) -> Tuple[Optional[List[str]], str]:
    """A cell's source as plain Python, line for line: line magics, shell escapes and help (``x?``)
    become ``pass`` (``y = !ls`` becomes ``y = None``); a cell magic of Python (``%%time``) keeps
    its body.  (None, why) for a cell that is not Python (``%%bash``, another ``%%tapewatch``)."""
    lines = source.splitlines()
    magic = _cell_magic(source)
    if magic is not None:
        if magic not in PYTHON_CELL_MAGICS:
            return None, ("another %%tapewatch cell (it ran in its own process, not in the kernel)"
                          if magic == "tapewatch" else "a %%%%%s cell, not Python" % magic)
        first = next(i for i, line in enumerate(lines) if line.strip())
        lines = [""] * (first + 1) + lines[first + 1:]  # the magic's line left out, numbering kept
    out = list(lines)
    try:
        from IPython.core.inputtransformer2 import TransformerManager  # noqa: PLC0415

        transformed = TransformerManager().transform_cell("\n".join(lines) + "\n").splitlines()
    except Exception:  # noqa: BLE001 (no IPython, or a cell its tokenizer refuses: the source as it is)
        transformed = lines
    if len(transformed) == len(lines):
        for i, (raw, new) in enumerate(zip(lines, transformed)):
            if raw != new:
                match = _MAGIC_CALL.match(new)
                timed = re.match(r"(\s*)%time\s+(\S.*)$", raw)
                if timed:  # %time STATEMENT runs the statement: it stays
                    out[i] = timed.group(1) + timed.group(2)
                elif match:
                    indent, target = match.group(1), match.group(2)
                    out[i] = indent + ("%s = None" % target if target else "pass") + "  # (a magic, not run)"
                else:
                    out[i] = new
    return out, ""


def _compiles(lines: List[str]) -> str:
    """Why the lines are not a module Python compiles ("" when they are)."""
    try:
        compile("\n".join(lines) + "\n", "<cell>", "exec", dont_inherit=True)
    except SyntaxError as exc:
        return "it does not compile as plain Python (line %s: %s)" % (exc.lineno, exc.msg)
    except (ValueError, OverflowError) as exc:
        return "it does not compile as plain Python (%s)" % exc
    return ""


def build_script(history: List[Tuple[str, str]], cell: str, cwd: str, magic: str = "%%tapewatch") -> CellScript:
    """The script for ``cell``: each earlier cell of ``history`` ((label, source), in the order they
    ran) that is plain Python, then the cell.  Earlier cells that are not (a ``%%bash`` cell, one
    that does not compile, another ``%%tapewatch`` cell) are left out, and said so.  ``magic``: the
    cell's first line, which IPython does not pass with its body: the cell's lines are numbered as
    the notebook numbers them, that line first."""
    out = ["# Written by Tapewatch's %%tapewatch: the cells this kernel ran before it, then the cell.",
           "import sys as _tapewatch_sys",
           "_tapewatch_sys.path.insert(1, %r)  # the notebook's folder, as in the kernel" % cwd,
           "del _tapewatch_sys"]
    assert len(out) == HEADER_LINES
    segments: List[Segment] = []
    skipped: List[Tuple[str, str]] = []
    parts = [(label, source, False) for label, source in history] + [("this cell", cell, True)]
    for label, source, current in parts:
        if current:  # the magic's line is the cell's line 1: an empty line in the script
            source = magic + "\n" + source
            lines, why = python_lines(cell)
            lines = None if lines is None else [""] + lines
        else:
            lines, why = python_lines(source)
        if lines is None:
            skipped.append((label, why))
            continue
        if not current:
            why = _compiles(lines)
            if why:
                skipped.append((label, why))
                continue
            if not any(line.strip() for line in lines):
                continue
        out.append("# %s" % label)
        segments.append(Segment(label, len(out) + 1, source.splitlines() or [""], current))
        out.extend(lines or [""])
    return CellScript("\n".join(out) + "\n", segments, skipped)


def kernel_history(ip) -> List[Tuple[str, str]]:
    """The cells this kernel ran before the running one: (``In [n]``, raw source), in order."""
    raw = list(getattr(ip.history_manager, "input_hist_raw", []) or [])
    earlier = raw[1:-1] if len(raw) > 1 else []  # [0] is empty; the last one is this cell
    return [("In [%d]" % n, source) for n, source in enumerate(earlier, start=1) if source.strip()]


# ------------------------------------------------------------------ running it

class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # not SystemExit inside a kernel
        raise _UsageError("%s\n%s" % (message, self.format_usage().strip()))


def build_parser() -> argparse.ArgumentParser:
    from .cli import _timeout  # noqa: PLC0415 (the same rule as `tapewatch check --timeout`)

    parser = _Parser(prog="%%tapewatch", add_help=False,
                     description="Run this cell, after the cells the kernel ran before it, under Tapewatch.")
    parser.add_argument("--device", default=defaults.DEVICE, help="Warp device (default: %s)" % defaults.DEVICE)
    parser.add_argument("--timeout", type=_timeout, default=defaults.TIMEOUT_S, metavar="SECONDS",
                        help="seconds before the run is killed, or `none` (default %g)" % defaults.TIMEOUT_S)
    parser.add_argument("--python", default=sys.executable,
                        help="interpreter that has Warp (default: the kernel's)")
    parser.add_argument("--no-history", action="store_true",
                        help="run the cell alone, without the cells the kernel ran before it")
    parser.add_argument("--no-check-launches", action="store_true", help="skip the per-launch adjoint checks")
    parser.add_argument("--no-lint", action="store_true", help="no static lints of the code the run used")
    parser.add_argument("--no-graph", action="store_true", help="do not capture tape graphs")
    parser.add_argument("--library-frames", action="store_true",
                        help="place findings inside installed packages too")
    parser.add_argument("-q", "--quiet", action="store_true", help="do not show the script's own output")
    return parser


@dataclass
class NotebookRun:
    """What the last ``%%tapewatch`` ran and found (``tapewatch.notebook.last_run``)."""

    script: CellScript
    result: object  # runner.RunResult
    exit_status: int
    html: str
    text: str


last_run: Optional[NotebookRun] = None


def run_cell(line: str, cell: str, ip=None) -> NotebookRun:
    """The magic: parse the options, build the script, run it, show the report."""
    global last_run
    try:
        ns = build_parser().parse_args(shlex.split(line))
    except (_UsageError, ValueError) as exc:
        from IPython.core.error import UsageError  # noqa: PLC0415

        raise UsageError(str(exc))
    history = [] if ns.no_history or ip is None else kernel_history(ip)
    cwd = os.getcwd()
    script = build_script(history, cell, cwd, ("%%tapewatch " + line).rstrip())
    folder = tempfile.mkdtemp(prefix="tapewatch-cell-")
    number = getattr(ip, "execution_count", None) if ip is not None else None
    script.path = os.path.join(folder, "cell_%s.py" % (number if isinstance(number, int) else "run"))
    try:
        with open(script.path, "w", encoding="utf-8") as f:
            f.write(script.text)
        result = _run(script.path, ns, cwd)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    run = NotebookRun(script, result, result.exit_status(), "", "")
    run.html = render_html(script, result, cwd)
    run.text = render_text(script, result, cwd)
    last_run = run
    return run


def _run(path: str, ns, cwd: str):
    from . import config as configuration  # noqa: PLC0415
    from .runner import RunResult, Verification, run_verification  # noqa: PLC0415
    from .spawn import RunRequest  # noqa: PLC0415

    req = RunRequest(script=path, python=ns.python, device=ns.device, timeout=ns.timeout, cwd=cwd,
                     graph=not ns.no_graph, check_launches=not ns.no_check_launches,
                     library_frames=ns.library_frames, lint=not ns.no_lint)
    into = Verification(RunResult(script=path))

    def echo(stream: str, text: str) -> None:
        if not ns.quiet:
            (sys.stdout if stream == "stdout" else sys.stderr).write(text)

    # The kernel's own event loop may be running in this thread: the run gets a loop of its own in
    # another thread; an interrupt (the stop button) cancels it, which kills its process tree.
    loop = asyncio.new_event_loop()
    box: Dict[str, object] = {}
    done = threading.Event()  # (not Thread.join: a join interrupted by Ctrl-C may never wait again)

    def target() -> None:
        asyncio.set_event_loop(loop)
        try:
            box["task"] = task = loop.create_task(run_verification(req, on_output=echo, into=into,
                                                                   with_harness=False))
            loop.run_until_complete(task)
        except BaseException as exc:  # noqa: BLE001 (cancelled, or Tapewatch's own failure: shown below)
            box["error"] = exc
        finally:
            loop.close()
            done.set()

    threading.Thread(target=target, name="tapewatch-cell", daemon=True).start()
    try:
        while not done.wait(0.1):
            pass
    except KeyboardInterrupt:
        task = box.get("task")
        if task is not None:
            loop.call_soon_threadsafe(task.cancel)  # kills the run's process tree
        done.wait()
        into.result.outcome = "cancelled"
    error = box.get("error")
    result = into.result
    if error is not None and not isinstance(error, asyncio.CancelledError):
        result.findings.append(codes.tool_finding(
            "TW910", "Internal error in Tapewatch while running the cell (%s: %s): results may be incomplete."
            % (type(error).__name__, error)))
    try:
        cfg = configuration.load(os.path.join(cwd, "notebook.py"))
    except configuration.ConfigError as exc:
        result.findings.append(codes.tool_finding("TW910", "tapewatch: %s; the defaults were used" % exc))
    else:
        result.findings = cfg.apply(result.findings, [path])
    return result


# ------------------------------------------------------------------ the report

STATUS_WORDS = {0: "verified clean", 1: "findings", 2: "could not verify"}
_SEVERITY_ORDER = {"error": 0, "warning": 1, "information": 2, "hint": 3}


def _h(text: object) -> str:
    """The user's text as HTML text: control characters shown as escapes, then escaped."""
    return html.escape(terminal(text, newlines=True), quote=True)


def _h_message(text: object) -> str:
    """A message as HTML: escaped, its `code spans` (as Tapewatch's messages write names) in <code>."""
    return re.sub(r"`([^`\n]+)`", r"<code>\1</code>", _h(text))


def _ordered(result) -> List[Finding]:
    return sorted(result.findings, key=lambda f: (_SEVERITY_ORDER.get(f.severity, 9), f.code))


def _message(script: CellScript, f: Finding) -> str:
    """The message, its lines of the generated script as the cells' lines when every location it has
    is in the script (otherwise a ``line N`` might be another file's)."""
    paths = [f.location.path] if f.location else []
    paths += [r.location.path for r in f.related]
    if paths and all(os.path.abspath(p) == script.path for p in paths):
        return script.relabel(f.message)
    return f.message


def summary(result, exit_status: int) -> str:
    counts = result.counts()
    plural = {"error": "errors", "warning": "warnings", "information": "information", "hint": "hints"}
    found = ", ".join("%d %s" % (n, sev if n == 1 else plural[sev]) for sev, n in counts.items() if n)
    where = " on %s" % result.device if result.device else ""
    warp = " with Warp %s" % result.warp_version if result.warp_version else ""
    ran = "interrupted after %.1fs" % result.seconds if result.outcome == "cancelled" else "in %.1fs" % result.seconds
    return "Tapewatch: %s — ran%s%s %s; exit status %d (%s)" % (
        found or "no findings", where, warp, ran, exit_status, STATUS_WORDS.get(exit_status, "?"))


def _checks_line(result) -> Optional[str]:
    checks = result.launch_checks
    if not checks or not (checks.get("checked") or checks.get("skipped")):
        return None
    reasons = "; ".join("%d %s" % (n, why) for why, n in sorted((checks.get("skip_reasons") or {}).items()))
    return ("Per-launch adjoint checks: %d checked (%d passed, %d failed, %d inconclusive), %d skipped%s"
            % (checks.get("checked", 0), checks.get("passed", 0), checks.get("failed", 0),
               checks.get("inconclusive", 0), checks.get("skipped", 0), " (%s)" % reasons if reasons else ""))


def _not_measured_lines(result) -> List[str]:
    by_reason: Dict[str, List[str]] = {}
    for item in result.not_measured:
        by_reason.setdefault(item["reason"], []).append("%s (x%d)" % (item["what"], item["count"]))
    return ["Not measured %s: %s" % (reason, "; ".join(what)) for reason, what in by_reason.items()]


def render_text(script: CellScript, result, base: str) -> str:
    """The plain-text twin of the HTML (what a terminal front end or ``nbconvert --to script`` shows)."""
    lines = []
    for f in _ordered(result):
        label, _, _ = script.where(f.location, base)
        lines.append("%s: %s %s: %s%s" % (label, f.severity, f.code, _message(script, f),
                                          " (x%d)" % f.count if f.count > 1 else ""))
        for r in f.related:
            lines.append("    %s: note: %s" % (script.where(r.location, base)[0], script.relabel(r.message)))
    lines += [x for x in [_checks_line(result)] if x] + _not_measured_lines(result)
    lines.append(summary(result, result.exit_status()))
    return "\n".join(terminal(line, newlines=True) for line in lines) + "\n"


_STYLE = """<style>
.tapewatch-report{font-family:var(--jp-ui-font-family,sans-serif);font-size:13px;line-height:1.4}
.tapewatch-report .tw-summary{font-weight:600;padding:4px 8px;border-radius:3px;margin-bottom:6px}
.tapewatch-report .tw-status-0{background:#e6f4ea}.tapewatch-report .tw-status-1{background:#fff4e5}
.tapewatch-report .tw-status-2{background:#fdecea}
.tapewatch-report .tw-finding{border-left:4px solid #999;padding:4px 8px;margin:6px 0}
.tapewatch-report .tw-error{border-color:#d93025}.tapewatch-report .tw-warning{border-color:#f29900}
.tapewatch-report .tw-information,.tapewatch-report .tw-hint{border-color:#1a73e8}
.tapewatch-report .tw-message{white-space:pre-wrap}
.tapewatch-report pre.tw-source{margin:4px 0;padding:2px 6px;background:rgba(127,127,127,.1);overflow-x:auto}
.tapewatch-report .tw-where{font-family:var(--jp-code-font-family,monospace);color:#555}
.tapewatch-report ul{margin:2px 0 2px 1em;padding-left:1em}
</style>"""


def render_html(script: CellScript, result, base: str) -> str:
    status = result.exit_status()
    out = ['<div class="tapewatch-report" data-exit-status="%d" data-status="%s">' % (status, _h(result.status)),
           _STYLE,
           '<div class="tw-summary tw-status-%d">%s</div>' % (status, _h(summary(result, status)))]
    failure = result.failure() if status == 2 else None
    if failure:
        out.append('<div class="tw-not-verified"><b>Not verified</b>: the gradients were not checked (%s, below, '
                   "says why).</div>" % _h(failure["code"]))
    for f in _ordered(result):
        out.append(_finding_html(script, f, base))
    checks = _checks_line(result)
    if checks:
        out.append('<div class="tw-checks">%s</div>' % _h(checks))
    for line in _not_measured_lines(result):
        out.append('<div class="tw-not-measured">%s</div>' % _h(line))
    for tape in result.tapes[:8]:
        out.append(graph_html(script, tape, result.findings, base))
    if len(result.tapes) > 8:
        out.append("<div>... and %d more tapes</div>" % (len(result.tapes) - 8))
    if script.skipped:
        items = "".join("<li>%s: %s</li>" % (_h(label), _h(why)) for label, why in script.skipped)
        out.append('<details class="tw-skipped"><summary>%d earlier cell(s) left out of the run</summary>'
                   "<ul>%s</ul></details>" % (len(script.skipped), items))
    out.append("</div>")
    return "\n".join(out)


def _source_html(script: CellScript, loc: Optional[Location], base: str) -> str:
    label, text, line = script.where(loc, base)
    if text is None or line is None:
        return ""
    return '<pre class="tw-source">%s</pre>' % _h("%5d | %s" % (line, text))


def _finding_html(script: CellScript, f: Finding, base: str) -> str:
    label, _, line = script.where(f.location, base)
    code = _h(f.code)
    link = ('<a href="%s" target="_blank" rel="noopener noreferrer">%s</a>' % (_h(codes.doc_url(f.code)), code)
            if re.fullmatch(r"TW\d{3}", f.code) else code)
    count = " (x%d)" % f.count if f.count > 1 else ""
    parts = ['<div class="tw-finding tw-%s" data-code="%s" data-where="%s" data-line="%s">'
             % (_h(f.severity), code, _h(label), line if line is not None else ""),
             '<div class="tw-head"><b>%s</b> %s <span class="tw-where">%s</span>%s</div>'
             % (link, _h(f.severity), _h(label), count),
             '<div class="tw-message">%s</div>' % _h_message(_message(script, f)),
             _source_html(script, f.location, base)]
    if f.related:
        parts.append('<ul class="tw-related">')
        for r in f.related:
            r_label, r_text, r_line = script.where(r.location, base)
            source = '<br><code class="tw-src">%s</code>' % _h(r_text.strip()) if r_text else ""
            parts.append('<li data-where="%s"><span class="tw-where">%s</span>: %s%s</li>'
                         % (_h(r_label), _h(r_label), _h_message(script.relabel(r.message)), source))
        parts.append("</ul>")
    parts.append("</div>")
    return "\n".join(p for p in parts if p)


# ------------------------------------------------------------------ the tape graph

MAX_GRAPH_NODES = 200


def graph_html(script: CellScript, tape: TapeGraph, findings: List[Finding], base: str) -> str:
    """The tape as SVG: its arrays on the left, its launches on the right in the order they were
    recorded, a blue arrow for each read (array -> launch) and a red one for each write (launch ->
    array); a node a finding is about is outlined in red with the finding's code."""
    code_of = {f.id: f.code for f in findings if f.id}
    where, _, _ = script.where(tape.location, base)
    title = "Tape graph: %s (created at %s, captured at %s)" % (script.relabel(tape.label), where, tape.captured_at)
    nodes = tape.nodes[:MAX_GRAPH_NODES]
    more = len(tape.nodes) - len(nodes)
    arrays = [n for n in nodes if n.kind == "array"]
    steps = [n for n in nodes if n.kind != "array"]
    row, width, left, right = 26, 860, 10, 330
    box_w, launch_w = 260, 520
    pos: Dict[str, Tuple[int, int]] = {}
    for i, n in enumerate(arrays):
        pos[n.id] = (left, 30 + i * row)
    for i, n in enumerate(steps):
        pos[n.id] = (right, 30 + i * row)
    height = 40 + max(len(arrays), len(steps), 1) * row
    svg = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
           'font-family="monospace" font-size="11">' % (width, height, width, height),
           '<defs><marker id="tw-arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" '
           'markerHeight="6" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#555"/></marker></defs>',
           '<text x="%d" y="16" font-weight="bold">arrays</text>' % left,
           '<text x="%d" y="16" font-weight="bold">launches, in order</text>' % right]
    for e in tape.edges:
        if e.source not in pos or e.target not in pos:
            continue
        (x1, y1), (x2, y2) = pos[e.source], pos[e.target]
        if e.kind == "read":  # array (left) -> launch (right)
            a, b, colour = (x1 + box_w, y1 + 9), (x2, y2 + 9), "#1a73e8"
        else:  # launch (right) -> array (left)
            a, b, colour = (x1, y1 + 9), (x2 + box_w, y2 + 9), "#d93025"
        svg.append('<path d="M%d,%d C%d,%d %d,%d %d,%d" fill="none" stroke="%s" stroke-width="1.2" '
                   'marker-end="url(#tw-arrow)"><title>%s</title></path>'
                   % (a[0], a[1], (a[0] + b[0]) // 2, a[1], (a[0] + b[0]) // 2, b[1], b[0], b[1], colour,
                      _h("%s `%s`" % (e.kind, e.arg) if e.arg else e.kind)))
    for n in nodes:
        x, y = pos[n.id]
        flagged = sorted({code_of.get(i, "") for i in n.finding_ids} - {""})
        label = n.label or n.id
        if n.kind == "array" and n.shape:
            label += " %s" % "x".join(str(s) for s in n.shape)
        if n.kind != "array" and n.names:
            label += " — " + script.relabel(n.names[0])
        if flagged:
            label += " [%s]" % ", ".join(flagged)
        n_where, _, _ = script.where(n.location, base)
        w = box_w if n.kind == "array" else launch_w
        fits = (w - 8) // 7  # characters of 11px monospace
        svg.append('<g class="tw-node" data-kind="%s"><rect x="%d" y="%d" width="%d" height="18" rx="3" '
                   'fill="%s" stroke="%s" stroke-width="%s"/><text x="%d" y="%d">%s</text><title>%s</title></g>'
                   % (_h(n.kind), x, y, w, "#eef3fd" if n.kind == "array" else "#f3f3f3",
                      "#d93025" if flagged else "#999", "2" if flagged else "1", x + 4, y + 13,
                      _h(label if len(label) <= fits else label[:fits - 1] + "…"), _h("%s: %s" % (label, n_where))))
    svg.append("</svg>")
    note = "<div>%d more nodes not drawn</div>" % more if more > 0 else ""
    return ('<details class="tw-graph" open><summary>%s</summary>%s%s</details>'
            % (_h(title), "".join(svg), note))


# ------------------------------------------------------------------ IPython

def tapewatch_magic(line: str, cell: str) -> None:
    """%%tapewatch [--device D] [--timeout S] [--python PATH] [--no-history] [-q] ...

    Run this cell, after the cells the kernel ran before it, under Tapewatch (as `tapewatch check`
    runs a script) and show the findings."""
    from IPython import get_ipython  # noqa: PLC0415
    from IPython.display import display  # noqa: PLC0415

    run = run_cell(line, cell, get_ipython())
    display({"text/html": run.html, "text/plain": run.text}, raw=True)


def load_ipython_extension(ip) -> None:
    """``%load_ext tapewatch``: registers the ``%%tapewatch`` cell magic."""
    ip.register_magic_function(tapewatch_magic, magic_kind="cell", magic_name="tapewatch")
    try:
        tapewatch_magic.__doc__ = (tapewatch_magic.__doc__ or "") + "\n" + build_parser().format_help()
    except Exception:  # noqa: BLE001 (the help text only)
        pass


def unload_ipython_extension(ip) -> None:
    magics = ip.magics_manager.magics.get("cell", {})
    magics.pop("tapewatch", None)
