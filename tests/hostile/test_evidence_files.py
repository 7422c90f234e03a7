"""Kept runs come from other people (the README invites committing them): a baseline or a kept run that
is not what Tapewatch writes is a clear error (status 2), never a traceback, an unbounded read or a
crash of the editor's "compare with previous"; a run that could not be kept says so and leaves no
empty file behind."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest

FINDING = {"id": "f1", "code": "TW201", "severity": "warning", "message": "m", "path": "s.py", "line": 3,
           "column": 1, "end_line": None, "end_column": None, "related": [], "count": 1, "data": {"array": "a"}}


def run_file(script="s.py", time="2026-12-04T10:00:00.000000+00:00", findings=(FINDING,)) -> dict:
    return {"script": script, "script_hash": "0123456789abcdef", "time": time, "warp_version": "1.19.0",
            "device": "cpu", "status": "findings", "seconds": 1.0, "counts": {"error": 0, "warning": 1},
            "launch_checks": None, "findings": list(findings), "truncated": 0}


def tapewatch(*args, cwd, timeout=120, **kw):
    return subprocess.run([sys.executable, "-m", "tapewatch.cli", *args], cwd=str(cwd), capture_output=True,
                          text=True, timeout=timeout, **kw)


@pytest.fixture
def project(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    (tmp_path / "s.py").write_text("import warp as wp\nwith wp.Tape() as t:\n    pass\nt.backward()\n")
    (tmp_path / ".tapewatch" / "runs").mkdir(parents=True)
    return tmp_path


BAD_BASELINES = {
    "finding_is_a_number.json": json.dumps(dict(run_file(), findings=[3])),
    "deep.json": "[" * 100000 + "]" * 100000,
    "top_level_list.json": "[]",
    "line_is_text.json": json.dumps(run_file(findings=[dict(FINDING, line="three")])),
    "related_is_a_number.json": json.dumps(run_file(findings=[dict(FINDING, related=5)])),
    "data_nested_deep.json": json.dumps(run_file(findings=[dict(FINDING, data={"a": "[" * 10})]))
                             .replace('"[[[[[[[[[["', "[" * 500 + "]" * 500),
    "fd_error_is_text.json": json.dumps(run_file(findings=[dict(FINDING, data={"max_abs_error": "big"})])),
    "not_json.json": "{'findings': []}",
    "infinity.json": json.dumps(run_file(findings=[dict(FINDING, line=float("inf"))])),
    "binary.json": "\udcff\udcfe",
}


@pytest.mark.parametrize("name", sorted(BAD_BASELINES))
def test_a_bad_baseline_is_a_clear_error(project, name):
    path = project / name
    path.write_bytes(BAD_BASELINES[name].encode("utf-8", "surrogateescape"))
    out = tapewatch("check", "s.py", "--baseline", name, cwd=project)
    assert out.returncode == 2, out.stderr
    assert "Traceback" not in out.stderr and "--baseline" in out.stderr and name in out.stderr, out.stderr
    assert "is not a Tapewatch run" in out.stderr or "cannot be read" in out.stderr, out.stderr


def test_a_device_as_baseline_is_refused_without_reading_it(project):
    """``/dev/zero`` was read until memory ran out (2.9 GB)."""
    out = tapewatch("check", "s.py", "--baseline", "/dev/zero", cwd=project, timeout=30)
    assert out.returncode == 2 and "not a regular file" in out.stderr and "Traceback" not in out.stderr


def test_an_oversized_baseline_is_refused(project):
    big = project / "big.json"
    with open(big, "w") as f:
        f.write('{"findings": [], "pad": "')
        f.write("x" * (40 << 20))
        f.write('"}')
    out = tapewatch("check", "s.py", "--baseline", "big.json", cwd=project, timeout=60)
    assert out.returncode == 2 and "MiB" in out.stderr and "Traceback" not in out.stderr


@pytest.mark.parametrize("content", ["[]", json.dumps(run_file(time=5)), "{", json.dumps(run_file(findings=[7]))])
def test_history_names_a_bad_kept_run_and_lists_the_others(project, content):
    runs = project / ".tapewatch" / "runs"
    (runs / "s-20261204T100000.000000Z-01234567.json").write_text(json.dumps(run_file()))
    (runs / "s-20261204T110000.000000Z-01234567.json").write_text(content)
    out = tapewatch("history", "s.py", cwd=project)
    assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
    assert "s-20261204T110000.000000Z-01234567.json" in out.stderr and "not a Tapewatch run" in out.stderr
    assert out.stdout.count("2026-12-04T10:00:00") == 1  # the good run is still listed
    listed = json.loads(tapewatch("history", "s.py", "--format", "json", cwd=project).stdout)
    assert [r["time"] for r in listed] == ["2026-12-04T10:00:00.000000+00:00"]


def _frame(obj: dict) -> bytes:
    body = json.dumps(obj).encode()
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


def _read_message(stream) -> dict:
    length = None
    while True:
        line = stream.readline()
        assert line, "the server closed its output"
        if line in (b"\r\n", b"\n"):
            break
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return json.loads(stream.read(length))


@pytest.mark.timeout(120)
def test_compare_with_previous_skips_bad_kept_runs(project):
    """The editor's command read the same files: a run holding ``[]`` answered -32603."""
    runs = project / ".tapewatch" / "runs"
    (runs / "s-20261204T100000.000000Z-01234567.json").write_text(json.dumps(run_file()))
    (runs / "s-20261204T110000.000000Z-01234567.json").write_text(json.dumps(run_file(
        time="2026-12-04T11:00:00.000000+00:00", findings=[])))
    (runs / "s-20261204T120000.000000Z-01234567.json").write_text("[]")
    (runs / "s-20261204T130000.000000Z-01234567.json").write_text(json.dumps(run_file(time=5)))
    server = subprocess.Popen([sys.executable, "-m", "tapewatch", "lsp"], cwd=str(project),
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        uri = (project / "s.py").as_uri()
        server.stdin.write(_frame({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                   "params": {"processId": None, "rootUri": project.as_uri(), "capabilities": {}}}))
        server.stdin.write(_frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
        server.stdin.write(_frame({"jsonrpc": "2.0", "id": 2, "method": "workspace/executeCommand",
                                   "params": {"command": "tapewatch.compareWithPrevious", "arguments": [uri]}}))
        server.stdin.flush()
        while True:
            message = _read_message(server.stdout)
            if message.get("id") == 2 and "method" not in message:
                break
        assert "error" not in message, message
        result = message["result"]
        assert result["compared"] is True and [o["code"] for o in result["fixed"]] == ["TW201"]
    finally:
        server.kill()
        server.wait()


# A correct program that records and differentiates a tape: a run verified clean.
TAPED = """import warp as wp


@wp.kernel
def double(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = 2.0 * x[i]


x = wp.ones(2, dtype=float, requires_grad=True)
y = wp.zeros(2, dtype=float, requires_grad=True)
with wp.Tape() as tape:
    wp.launch(double, dim=2, inputs=[x], outputs=[y])
tape.backward(grads={y: wp.ones(2, dtype=float)})
print('ran')
"""


def _no_file_space():
    """Every file write of this process and its children fails (EFBIG), as on a full disk."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))


def test_a_run_that_could_not_be_kept_says_so_and_leaves_no_empty_file(project):
    (project / "s.py").write_text(TAPED)
    # Once with room, so that Warp's kernel cache holds the kernel: a full disk fails a build too.
    assert tapewatch("check", "s.py", "--no-check-launches", "--no-evidence", cwd=project).returncode == 0
    out = tapewatch("check", "s.py", "--no-check-launches", cwd=project, preexec_fn=_no_file_space)
    assert out.returncode == 0, out.stderr  # the run itself is fine
    assert "could not be kept" in out.stderr, out.stderr
    runs = project / ".tapewatch" / "runs"
    assert [p.name for p in runs.iterdir()] == []  # no 0-byte run file, no temporary file left


def test_a_kept_run_is_written_whole(project):
    (project / "s.py").write_text(TAPED)
    out = tapewatch("check", "s.py", "--no-check-launches", cwd=project)
    assert out.returncode == 0 and "this run is kept as" in out.stderr
    [kept] = (project / ".tapewatch" / "runs").iterdir()
    assert json.loads(kept.read_text())["status"] == "ok" and not kept.name.startswith(".")
    assert os.stat(kept).st_size > 0 and Path(kept).suffix == ".json"


HOSTILE_RUN = {
    "time": "2026 ![t](https://evil.example/t.png)", "warp_version": "<img src=https://evil.example/w.png>",
    "device": "`` ` [cpu](https://evil.example/d)",
}


def _outside_code_spans(markdown: str) -> str:
    """The Markdown text with every code span (CommonMark backtick strings) taken out: what a renderer
    parses for links, images, autolinks and HTML."""
    text = markdown.replace("\\|", "")  # a table cell's escaped bar (literal inside the span)
    out, i = [], 0
    while i < len(text):
        if text[i] != "`":
            out.append(text[i])
            i += 1
            continue
        n = i
        while n < len(text) and text[n] == "`":
            n += 1
        fence = text[i:n]
        j = n
        while True:  # the closing backtick string of exactly the same length
            j = text.find(fence, j)
            if j < 0 or (j + len(fence) >= len(text) or text[j + len(fence)] != "`"):
                break
            while j < len(text) and text[j] == "`":
                j += 1
        if j < 0:
            out.append(fence)  # no closing string: literal backticks
            i = n
        else:
            i = j + len(fence)
    return "".join(out)


def _hostile_comparison():
    from tapewatch import evidence
    from tapewatch.model import Finding, Location

    message = "![x](https://evil.example/x.png) <img src=x onerror=alert(1)> see https://evil.example or www.evil.example"
    before = dict(run_file(findings=[dict(FINDING, code="TW101", path="[a](https://evil.example/a).py",
                                          message="[click](javascript:alert(1)) " + message,
                                          data={"array": "q", "max_abs_error": 2.0})]), **HOSTILE_RUN)
    after_finding = Finding("TW101", "`x` now " + message, Location("/p/[a](https://evil.example/a).py", 9, 1),
                            data={"array": "q", "max_abs_error": 0.5})
    new = Finding("TW201", message, Location("/p/<b>n</b>.py", 2, 1), data={"array": "z|w"})
    diff = evidence.compare(before, [after_finding, new], "/p")
    return before, dict(before, **HOSTILE_RUN), diff


def test_the_markdown_comparison_shows_user_strings_as_code_never_as_links_or_images():
    from tapewatch import evidence

    before, after, diff = _hostile_comparison()
    markdown = evidence.comparison_markdown("s[x](https://evil.example).py", before, after, diff)
    bare = _outside_code_spans(markdown)
    for bad in ("](", "![", "<", "http", "www.", "javascript"):
        assert bad not in bare, (bad, bare)
    assert "evil.example/x.png" in markdown and "1 new, 0 fixed, 1 unchanged" in markdown  # shown, as text
    assert "| 2 | 0.5 |" in markdown


def test_the_editors_comparison_report_has_no_links_from_user_strings():
    from tapewatch.lsp import investigate

    before, after, diff = _hostile_comparison()
    bare = _outside_code_spans(investigate.report("s.py", before, after, diff))
    assert "](" not in bare and "![" not in bare and "<" not in bare
