"""Hostile programs and hostile bytes against the runner and the CLI: nothing lost, nothing left running."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tapewatch.model import Finding, Location, Related
from tapewatch.report import to_sarif, to_text
from tapewatch.runner import RunRequest, RunResult, _EventCollector, is_harness, run_probe
from tapewatch.spawn import start

ROOT = Path(__file__).resolve().parents[2]


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def alive(marker: str) -> list:
    out = subprocess.run(["pgrep", "-f", marker], capture_output=True, text=True)
    return [int(p) for p in out.stdout.split()]


def test_a_forked_child_cannot_end_the_run(tmp_path):
    """The child exits 0 and would send the end event; the parent then dies of a signal: a crash, TW906."""
    script = write(tmp_path, "fork.py", """\
        import os, signal, sys, time
        import warp as wp
        pid = os.fork()
        if pid == 0:
            sys.exit(0)
        os.waitpid(pid, 0)
        os.kill(os.getpid(), signal.SIGSEGV)
        """)
    result = asyncio.run(run_probe(RunRequest(script=str(script), lint=False)))
    assert result.outcome == "crashed" and result.tool_failed
    assert [f.code for f in result.findings] == ["TW906"]


def test_a_forked_childs_exception_is_not_the_scripts(tmp_path):
    script = write(tmp_path, "fork_raise.py", """\
        import os
        import warp as wp
        pid = os.fork()
        if pid == 0:
            raise RuntimeError("only the child")
        os.waitpid(pid, 0)
        print("parent done")
        """)
    result = asyncio.run(run_probe(RunRequest(script=str(script), lint=False)))
    assert result.outcome == "ok" and result.findings == []


def test_setsid_grandchildren_do_not_outlive_the_run(tmp_path):
    marker = "sleep 4%d" % (os.getpid() % 10000)
    script = write(tmp_path, "escape.py", """\
        import subprocess, time
        subprocess.Popen(["setsid", "bash", "-c", "%s"])
        subprocess.Popen(["bash", "-c", "setsid %s &"])
        time.sleep(1.0)
        """ % (marker, marker))
    result = asyncio.run(run_probe(RunRequest(script=str(script), lint=False)))
    assert result.outcome == "ok"
    time.sleep(0.3)
    assert alive(marker) == []


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_to_check_ends_the_whole_tree(tmp_path, sig):
    marker = "sleep 5%d%d" % (sig, os.getpid() % 1000)
    script = write(tmp_path, "hang.py", """\
        import subprocess, time
        subprocess.Popen(["bash", "-c", "%s & %s"])
        print("started", flush=True)
        time.sleep(300)
        """ % (marker, marker))
    proc = subprocess.Popen([sys.executable, "-m", "tapewatch.cli", "check", str(script), "--no-lint"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 60
    while not alive(marker) and time.time() < deadline:
        time.sleep(0.2)
    assert alive(marker), "the script's children never started"
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 128 + sig
    assert "interrupted by %s" % signal.Signals(sig).name in err
    time.sleep(0.3)
    assert alive(marker) == []


def test_a_probe_started_early_that_no_run_took_over_ends_with_its_tree(tmp_path):
    """``tapewatch check`` starts the probe before its event loop: interrupted before that, nothing stays."""
    marker = "sleep 6%d" % (os.getpid() % 10000)
    script = write(tmp_path, "hang_early.py", """\
        import subprocess, time
        subprocess.Popen(["bash", "-c", "%s & %s"])
        time.sleep(300)
        """ % (marker, marker))
    started = start(RunRequest(script=str(script), lint=False))
    deadline = time.time() + 60
    while not alive(marker) and time.time() < deadline:
        time.sleep(0.2)
    assert alive(marker), "the script's children never started"
    started.abandon()
    assert started.proc.returncode is not None
    time.sleep(0.3)
    assert alive(marker) == []


def test_a_run_takes_over_a_probe_started_early():
    req = RunRequest(script=str(ROOT / "examples" / "copy_overwrite.py"), lint=False, check_launches=False)
    started = start(req)
    result = asyncio.run(run_probe(req, started=started))
    started.abandon()  # the run owned it: nothing to do, and nothing raised
    assert result.outcome == "ok" and result.exit_code == 0
    assert "TW102" in [f.code for f in result.findings]
    assert result.seconds > 0


@pytest.mark.skipif(not hasattr(__import__("fcntl"), "F_SETPIPE_SZ"), reason="pipe sizes are Linux's")
def test_a_busy_reader_does_not_stall_the_probe(tmp_path):
    """The CLI's reader can be busy for a moment (its lint of a long script): the probe's writes must
    not wait for it.  299 distinct findings (~500 KB of events) with nobody reading the channel."""
    lines = "".join("    wp.launch(k, dim=4, inputs=[%s], outputs=[%s])\n" % (("a", "b") if n % 2 else ("b", "a"))
                    for n in range(300))
    script = write(tmp_path, "many.py", """\
        import warp as wp

        @wp.kernel
        def k(x: wp.array(dtype=float), y: wp.array(dtype=float)):
            i = wp.tid()
            y[i] = wp.sin(x[i])

        a = wp.full(4, 0.5, dtype=float, requires_grad=True)
        b = wp.zeros(4, dtype=float, requires_grad=True)
        with wp.Tape():
        """)
    script.write_text(script.read_text() + lines)
    started = start(RunRequest(script=str(script), lint=False, check_launches=False))
    try:
        started.proc.wait(timeout=60)  # the events are not read until it ended (~4 s)
        with os.fdopen(started.events_fd, "rb", closefd=False) as events:
            kept = events.read()
    finally:
        started.abandon()  # closes the channel's read end
    assert started.proc.returncode == 0
    assert len(kept) > 200_000 and kept.count(b'"TW101"') == 299 and kept.rstrip().endswith(b'"event": "end"}')


@pytest.mark.parametrize("line", [
    b'{"event": "finding", "finding": []}',
    b'{"event": "counts", "counts": {"f1": 1e999}}',
    b'{"event": "finding", "finding": {"code": "TW101", "message": "x", "line": 1e999, "path": "a.py"}}',
    b'[' * 100000 + b']' * 100000,
    b'{"event": ["not", "a", "name"]}',
    b'\xff\xfe garbage',
    b'{"event": "tape", "tape": {"nodes": 3}}',
])
def test_one_malformed_event_line_is_tw907_and_the_rest_is_kept(line):
    result = RunResult(script="s.py")
    collector = _EventCollector(result, None)
    good = Finding(code="TW101", message="real", location=Location("s.py", 3, 1), id="f1")
    collector.line(b'{"event": "start", "warp_version": "1.19.0"}')
    collector.line(json.dumps({"event": "finding", "finding": good.to_json()}).encode())
    collector.line(line)
    collector.line(b'{"event": "end", "status": 0, "outcome": "ok"}')
    collector.finish(0, "")
    codes = [f.code for f in result.findings]
    assert codes == ["TW101", "TW907"], codes
    assert result.warp_version == "1.19.0" and result.outcome == "ok"


def test_utf8_split_across_reads_is_decoded_whole(tmp_path):
    text = "é€𝄞" * 20000  # 2-, 3- and 4-byte characters across many 8 KiB reads
    script = write(tmp_path, "utf8.py", "print(%r)\n" % text)
    chunks = []
    asyncio.run(run_probe(RunRequest(script=str(script), lint=False, graph=False),
                          on_output=lambda stream, t: chunks.append(t) if stream == "stdout" else None))
    out = "".join(chunks)
    assert "\ufffd" not in out and text in out


def test_only_the_harness_header_makes_a_harness(tmp_path):
    doc = write(tmp_path, "doc.py", '''\
        """Mentions the marker:
        # tapewatch-harness-for: other.py
        """
        print("plain script")
        ''')
    header = write(tmp_path, "h.py", '"""A harness."""\n# tapewatch-harness-for: other.py\n')
    assert not is_harness(str(doc)) and is_harness(str(header))


def test_sarif_survives_spaces_unknown_codes_and_relative_paths(tmp_path):
    folder = tmp_path / "with space"
    folder.mkdir()
    src = folder / "sim é.py"
    src.write_text("x = 1  # é\nwp.launch(kernel, dim=4)\n")
    result = RunResult(script=str(src), findings=[
        Finding(code="TW999", message="unknown", location=Location(str(src), 2, 1)),
        Finding(code="TW101", message="m", location=Location(str(src), 1, 12),
                related=[Related(Location("relative/other.py", 3, 1), "r", "reader")]),
    ])
    doc = json.loads(to_sarif(result, base=str(tmp_path)))
    run = doc["runs"][0]
    assert run["columnKind"] == "unicodeCodePoints"
    uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run["results"]]
    assert all(" " not in u for u in uris) and "with%20space/sim%20%C3%A9.py" in uris
    col = run["results"][1]["locations"][0]["physicalLocation"]["region"]["startColumn"]
    assert col == 11  # after "x = 1  # é": 11 bytes, 10 code points
    assert [r["id"] for r in run["tool"]["driver"]["rules"]] == ["TW101", "TW999"]


def test_text_output_is_bounded_json_keeps_everything():
    findings = [Finding(code="TW101", message="m%d" % i, location=Location("s.py", i + 1, 1)) for i in range(3000)]
    result = RunResult(script="s.py", findings=findings)
    text = to_text(result)
    assert len(text) < 20000 and "and 2980 more TW101 findings" in text


def test_a_crash_names_its_signal_not_warps_startup_notices(tmp_path):
    script = write(tmp_path, "segv.py", """\
        import os, signal, sys
        import warp as wp
        wp.init()
        print("Warp CUDA warning: Could not find or load the NVIDIA CUDA driver.", file=sys.stderr)
        os.kill(os.getpid(), signal.SIGSEGV)
        """)
    result = asyncio.run(run_probe(RunRequest(script=str(script), lint=False)))
    [f] = result.findings
    assert f.code == "TW906" and "killed by SIGSEGV" in f.message and "CUDA" not in f.message


def test_forged_positions_are_clamped_to_the_document(tmp_path):
    from tapewatch.lsp.convert import LineSource, span_of

    path = write(tmp_path, "s.py", "x = 1\ny = 2\n")
    span = span_of(Location(str(path), 999, 500, 1200, 7), LineSource())
    assert span.start_line == span.end_line <= 2 and span.start_char <= 5  # (line 2: after the last newline)


@pytest.mark.internal_error
def test_a_warp_warning_of_an_unknown_shape_is_a_tw910_quoting_it(tmp_path):
    """Warp's intra-kernel warning without a kernel name cannot be placed: it is shown, never dropped."""
    script = write(tmp_path, "bare.py", """\
        import warp as wp
        wp.init()
        wp._src.codegen.log_warning("Array velocity is being written to after it has been read from within "
                                    "the same kernel. This may corrupt gradient computation in the backward pass.")
        """)
    result = asyncio.run(run_probe(RunRequest(script=str(script), lint=False)))
    assert result.outcome == "ok"
    [finding] = [f for f in result.findings if f.code == "TW910"]
    assert "names no kernel" in finding.message and "Array velocity" in finding.message


def _events_fd_line(event: str) -> str:
    """Script lines that forge one line on the probe's event channel (its descriptor is on the command line)."""
    return textwrap.dedent('''\
        _args = open("/proc/self/cmdline", "rb").read().split(b"\\0")
        _fd = int(_args[_args.index(b"--events") + 1].split(b":")[1])
        os.write(_fd, %r)
        ''' % (event.encode() + b"\n",))


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="finds the channel through /proc")
def test_a_forged_end_event_does_not_hide_a_crash(tmp_path):
    """The exit status wins: a process killed by a signal is TW906, whatever it wrote before dying."""
    script = tmp_path / "forge_end.py"
    script.write_text("import os, signal\nimport warp as wp\n"
                      + _events_fd_line('{"event": "end", "status": 0, "outcome": "ok", "seconds": 0.1}')
                      + "os.kill(os.getpid(), signal.SIGSEGV)\n")
    result = asyncio.run(run_probe(RunRequest(script=str(script), lint=False)))
    assert result.exit_code == -signal.SIGSEGV
    assert result.outcome == "crashed" and result.tool_failed and result.status == "failed"
    [f] = [f for f in result.findings if f.code == "TW906"]
    assert "killed by SIGSEGV" in f.message


def test_a_crash_quotes_stdout_when_stderr_is_silent(tmp_path):
    script = write(tmp_path, "quiet_death.py", """\
        import os
        import warp as wp
        print("the real reason: the reactor ran out of coolant", flush=True)
        os._exit(7)
        """)
    result = asyncio.run(run_probe(RunRequest(script=str(script), lint=False)))
    [f] = result.findings
    assert f.code == "TW906" and "exit status 7" in f.message
    assert "the real reason: the reactor ran out of coolant" in f.message and "(none)" not in f.message


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="finds the channel through /proc")
def test_forged_line_numbers_are_clamped(tmp_path):
    script = tmp_path / "forge_lines.py"
    finding = {"code": "TW101", "message": "forged", "path": str(script), "line": -5, "column": -5,
               "end_line": -9, "end_column": -2,
               "related": [{"path": str(script), "line": -3, "column": 0, "message": "r", "role": "reader"}]}
    script.write_text("import os\nimport warp as wp\n"
                      + _events_fd_line(json.dumps({"event": "finding", "finding": finding})))
    out = subprocess.run([sys.executable, "-m", "tapewatch.cli", "check", str(script), "-q", "--no-lint",
                          "--no-evidence", "--no-check-launches"], cwd=str(tmp_path), capture_output=True, text=True,
                         timeout=180)
    assert "forge_lines.py:1:1: warning TW101: forged" in out.stdout, out.stdout
    assert "forge_lines.py:1:1: note: r" in out.stdout and ":-" not in out.stdout
    data = json.loads(subprocess.run(
        [sys.executable, "-m", "tapewatch.cli", "check", str(script), "-q", "--no-lint", "--no-evidence",
         "--no-check-launches", "--format", "json"], cwd=str(tmp_path), capture_output=True, text=True,
        timeout=180).stdout)
    [f] = data["findings"]
    assert (f["line"], f["column"], f["end_line"], f["end_column"]) == (1, 1, None, None)
    assert (f["related"][0]["line"], f["related"][0]["column"]) == (1, 1)


def test_sigkill_to_check_ends_the_probe_tree(tmp_path):
    """Nothing can catch SIGKILL in the CLI: the run's process tree must end anyway."""
    marker = "sleep 8%d" % (os.getpid() % 10000)
    script = write(tmp_path, "hang_killed.py", """\
        import subprocess, time
        subprocess.Popen(["bash", "-c", "%s & %s"])
        time.sleep(300)
        """ % (marker, marker))
    proc = subprocess.Popen([sys.executable, "-m", "tapewatch.cli", "check", str(script), "--no-lint"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 60
        while not alive(marker) and time.time() < deadline:
            time.sleep(0.2)
        assert alive(marker), "the script's children never started"
        proc.kill()
        proc.wait()
        deadline = time.time() + 10
        while (alive(marker) or alive(str(script))) and time.time() < deadline:
            time.sleep(0.2)
        assert alive(marker) == [] and alive(str(script)) == []
    finally:
        for pid in alive(marker) + alive(str(script)):  # only what this test started (its unique marker)
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def test_a_report_path_that_cannot_be_written_does_not_hide_the_failures(tmp_path):
    """``--tapewatch-report afile/rep.json``: known to be impossible at the start, it is a usage error;
    made impossible during the session, the failures are still shown and the reason is said."""
    (tmp_path / "test_grad.py").write_text(textwrap.dedent("""\
        def test_fails_and_makes_a_file():
            open("afile", "w").write("x")
            assert 1 == 2, "the real failure"
        """))
    late = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--tapewatch",
                           "--tapewatch-report", "afile/rep.json", "test_grad.py"], cwd=str(tmp_path),
                          capture_output=True, text=True, timeout=180)
    assert late.returncode == 2, late.stdout + late.stderr  # no tape in the session: not verified (TW912)
    assert "the real failure" in late.stdout and "INTERNALERROR" not in late.stdout + late.stderr
    assert "could not write the report afile/rep.json" in late.stdout, late.stdout
    early = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--tapewatch",
                            "--tapewatch-report", "afile/rep.json", "test_grad.py"], cwd=str(tmp_path),
                           capture_output=True, text=True, timeout=180)
    assert early.returncode == 4 and "afile" in early.stderr and "not a folder" in early.stderr
    assert "INTERNALERROR" not in early.stdout + early.stderr
