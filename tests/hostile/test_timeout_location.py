"""A run stopped at its timeout (TW905) is placed where the script was when it was stopped.

Real hanging scripts under the real probe: before the kill the runner asks the probe for its stacks
(a signal its faulthandler answers from C) and places TW905 on the innermost line of the user's code
in the main thread.  A process that cannot answer keeps line 1, and the message says why.
"""

from __future__ import annotations

import asyncio
import textwrap
import time

from tapewatch import runner
from tapewatch.runner import RunRequest, run_probe

# Long enough for Python and Warp to start on a busy machine, short enough for a test.
TIMEOUT = 6.0


def write(folder, name, text):
    path = folder / name
    path.write_text(textwrap.dedent(text))
    return path


def run(path, python=None):
    req = RunRequest(script=str(path), timeout=TIMEOUT, lint=False, device="cpu")
    if python:
        req.python = python
    began = time.monotonic()
    result = asyncio.run(run_probe(req))
    assert result.outcome == "timeout"
    [finding] = result.findings
    assert finding.code == "TW905"
    return finding, time.monotonic() - began


def line_of(path, text):
    return next(n for n, line in enumerate(path.read_text().splitlines(), start=1) if text in line)


def test_a_busy_loop_in_a_function(tmp_path, python):
    script = write(tmp_path, "spin.py", """\
        import warp as wp


        def spin():
            n = 0
            while True:
                n += 1


        spin()
        """)
    finding, _ = run(script, python)
    loc = finding.location
    # The stack dump may catch the loop on its jump back, which Python books on the `while` line:
    # either line of the loop is where it spins, and the squiggle spans that line's statement.
    spans = {line_of(script, "while True"): (5, "while True:"), line_of(script, "n += 1"): (9, "n += 1")}
    assert loc.path == str(script) and loc.line in spans
    column, text = spans[loc.line]
    assert (loc.column, loc.end_column) == (column, column + len(text))
    assert "stopped here, in `spin`" in finding.message
    assert [(r.location.line, r.role, r.message) for r in finding.related] == [
        (10, "caller", "`spin()` called from here")]
    assert finding.data["stopped_at"] == {"path": str(script), "line": loc.line, "function": "spin"}


def test_a_sleep_loop_in_a_module_of_the_users(tmp_path):
    write(tmp_path, "helpers.py", """\
        import time


        def wait_for_ever():
            while True:
                time.sleep(0.05)
        """)
    script = write(tmp_path, "main.py", """\
        import helpers

        def train():
            helpers.wait_for_ever()

        train()
        """)
    finding, _ = run(script)
    assert (finding.location.path, finding.location.line) == (str(tmp_path / "helpers.py"), 6)
    assert "in `wait_for_ever`" in finding.message
    assert [(r.location.path, r.location.line, r.message) for r in finding.related] == [
        (str(script), 4, "`wait_for_ever()` called from here"),
        (str(script), 6, "`train()` called from here"),
    ]


def test_a_module_level_sleep_loop(tmp_path):
    script = write(tmp_path, "top.py", """\
        import time
        while True:
            time.sleep(0.05)
        """)
    finding, _ = run(script)
    assert (finding.location.line, finding.location.column) == (3, 5)
    assert "stopped here (the whole" in finding.message and finding.related == []


def test_inside_a_library_call_the_user_line_with_the_library_line_related(tmp_path):
    script = write(tmp_path, "event.py", """\
        import threading

        def wait():
            threading.Event().wait()

        wait()
        """)
    finding, _ = run(script)
    assert finding.location.line == 4
    library = finding.related[0]
    assert library.role == "library" and library.location.path.endswith("threading.py")
    assert "(library code)" in library.message
    assert [(r.location.line, r.role) for r in finding.related[1:]] == [(6, "caller")]


def test_a_native_call_that_never_returns_to_python(tmp_path):
    """A catastrophic regular expression: C code that holds the GIL and never checks for signals, so
    no Python-level signal handler could run; faulthandler answers from C."""
    script = write(tmp_path, "regex.py", """\
        import re

        def parse(text):
            return re.match(r"(a+)+$", text)

        parse("a" * 64 + "b")
        """)
    finding, _ = run(script)
    assert finding.location.line == 4 and "in `parse`" in finding.message


def test_the_main_threads_line_not_another_threads(tmp_path):
    script = write(tmp_path, "threads.py", """\
        import threading, time

        def worker():
            while True:
                pass

        def main():
            threading.Thread(target=worker, daemon=True).start()
            while True:
                time.sleep(0.05)

        main()
        """)
    finding, _ = run(script)
    assert finding.location.line == 10 and "in `main`" in finding.message


def test_a_process_that_cannot_answer_stays_on_line_1_and_says_so(tmp_path):
    """A stopped process runs no signal handler at all: the runner waits a moment, then kills it."""
    script = write(tmp_path, "stopped.py", """\
        import os, signal

        def stop():
            os.kill(os.getpid(), signal.SIGSTOP)

        stop()
        """)
    finding, seconds = run(script)
    assert (finding.location.path, finding.location.line) == (str(script), 1)
    assert "Where it was could not be told: it did not answer" in finding.message
    assert finding.data["stopped_at"] is None
    assert seconds < TIMEOUT + runner.WHERE_WAIT_S + 5  # asked, waited a moment, killed


def test_a_program_that_took_the_signal_over_is_not_misplaced(tmp_path):
    """The program replaces the handler with SIG_IGN: no answer, line 1, and the run still ends."""
    script = write(tmp_path, "ignores.py", """\
        import signal, time
        for sig in range(signal.SIGRTMIN, signal.SIGRTMAX + 1):
            signal.signal(sig, signal.SIG_IGN)
        while True:
            time.sleep(0.05)
        """)
    finding, _ = run(script)
    assert finding.location.line == 1 and "could not be told" in finding.message
