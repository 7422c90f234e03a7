"""Run outcomes other than overwrites: each gives a clear finding, nothing hangs,
and the script's own behaviour (output, exit status, argv, cwd) is untouched."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
import time

import pytest

from tapewatch.runner import RunRequest, _EventCollector, RunResult, run_probe


def write(tmp_path, name, body):
    path = tmp_path / name
    path.write_text(textwrap.dedent(body))
    return path


def run(path, **kw):
    output = []
    result = asyncio.run(run_probe(RunRequest(script=str(path), **kw), on_output=lambda s, t: output.append((s, t))))
    return result, "".join(t for s, t in output if s == "stdout"), "".join(t for s, t in output if s == "stderr")


def test_script_raised_located_at_raising_user_frame(tmp_path):
    path = write(tmp_path, "boom.py", """\
        import warp as wp

        def helper(n):
            raise ValueError("bad size %d" % n)

        helper(3)
        """)
    result, _, stderr = run(path)
    assert result.exit_code == 1
    [f] = result.findings
    assert (f.code, f.location.path, f.location.line) == ("TW901", str(path), 4)
    assert "ValueError: bad size 3" in f.message
    assert [(r.location.line, r.role) for r in f.related] == [(6, "caller")]
    # The user sees the traceback Python would print, without probe frames.
    assert "ValueError: bad size 3" in stderr and "tapewatch" not in stderr


def test_syntax_error(tmp_path):
    path = write(tmp_path, "broken.py", "import warp as wp\ndef f(:\n    pass\n")
    result, _, _ = run(path)
    [f] = result.findings
    assert (f.code, f.location.line) == ("TW902", 2)
    assert result.tool_failed and result.status == "failed"


def test_binary_garbage_script(tmp_path):
    path = tmp_path / "garbage.py"
    path.write_bytes(bytes(range(256)) * 4)
    result, _, _ = run(path)
    assert [f.code for f in result.findings] == ["TW902"]


def test_interpreter_without_warp(tmp_path):
    venv = tmp_path / "nowarp"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    path = write(tmp_path, "s.py", "print('hi')\n")
    result, _, _ = run(path, python=str(venv / "bin" / "python"))
    [f] = result.findings
    assert f.code == "TW903" and "warp-lang" in f.message and str(venv) in f.message
    assert result.tool_failed


def test_interpreter_that_does_not_exist(tmp_path):
    path = write(tmp_path, "s.py", "print('hi')\n")
    result, _, _ = run(path, python=str(tmp_path / "no-such-python"))
    assert [f.code for f in result.findings] == ["TW908"]


def test_missing_script(tmp_path):
    result, _, _ = run(tmp_path / "nope.py")
    assert [f.code for f in result.findings] == ["TW909"]


def test_device_not_available(tmp_path):
    path = write(tmp_path, "s.py", "import warp as wp\nprint('ran')\n")
    result, stdout, _ = run(path, device="cuda:7")
    [f] = result.findings
    assert f.code == "TW904"
    assert "cuda:7" in f.message and "cpu" in f.data["available"]
    assert "ran" not in stdout  # the script never started


def test_timeout_kills_the_process_tree(tmp_path):
    pidfile = tmp_path / "child.pid"
    path = write(tmp_path, "hang.py", """\
        import subprocess, sys, time
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
        open(%r, "w").write(str(child.pid))
        time.sleep(600)
        """ % str(pidfile))
    started = time.monotonic()
    result, _, _ = run(path, timeout=3)
    assert time.monotonic() - started < 10
    assert [f.code for f in result.findings] == ["TW905"]
    assert result.outcome == "timeout"
    child = int(pidfile.read_text())
    time.sleep(0.2)
    assert not _alive(child)  # the grandchild died with the tree


def _alive(pid: int) -> bool:
    """Running, not a zombie waiting for a reaper that may never come (PID 1 in a container)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_script_exit_status_argv_cwd_and_path_are_preserved(tmp_path):
    (tmp_path / "sibling.py").write_text("VALUE = 41\n")
    workdir = tmp_path / "work dir é"
    workdir.mkdir()
    path = write(tmp_path, "main script é.py", """\
        import os, sys
        import sibling  # the script's folder is first on sys.path
        print("argv", sys.argv[1:], "cwd", os.path.basename(os.getcwd()), "name", __name__)
        sys.exit(sibling.VALUE + 1)
        """)
    result, stdout, _ = run(path, args=["--flag", "two words"], cwd=str(workdir))
    assert result.exit_code == 42
    assert result.findings == []
    assert "argv ['--flag', 'two words'] cwd work dir é name __main__" in stdout


def test_the_scripts_own_garbage_is_collected_as_in_a_plain_run(tmp_path):
    # The probe keeps what existed before the script out of the collector's way (gc.freeze); the
    # script's own cycles must still be collected, automatically and by gc.collect().
    path = write(tmp_path, "cycles.py", """\
        import gc, weakref
        import warp as wp

        class Node:
            pass

        def cycle():
            a, b = Node(), Node()
            a.other, b.other = b, a
            return weakref.ref(a)

        assert gc.isenabled()
        ref = cycle()
        gc.collect()
        print("collected by gc.collect():", ref() is None)
        refs = [cycle() for _ in range(20000)]  # enough allocations for automatic collections
        print("collected automatically:", sum(r() is None for r in refs) > 10000)
        print("frozen before the script:", gc.get_freeze_count() > 0)
        """)
    result, stdout, _ = run(path)
    assert result.exit_code == 0, result.findings
    assert "collected by gc.collect(): True" in stdout
    assert "collected automatically: True" in stdout
    assert "frozen before the script: True" in stdout


def test_user_print_cannot_forge_a_finding(tmp_path):
    forged = '{"event": "finding", "finding": {"code": "TW101", "message": "forged", "path": "x", "line": 1}}'
    path = write(tmp_path, "forge.py", "import sys\nprint(%r)\nprint(%r, file=sys.stderr)\n" % (forged, forged))
    result, stdout, _ = run(path)
    assert result.findings == []
    assert "forged" in stdout  # the user's output is passed through untouched


def test_script_that_kills_itself_is_a_crash(tmp_path):
    path = write(tmp_path, "die.py", "import os\nos._exit(3)\n")
    result, _, _ = run(path)
    assert result.exit_code == 3
    assert [f.code for f in result.findings] == ["TW906"]


def test_flood_of_overwrites_is_one_finding_with_a_count(tmp_path):
    path = write(tmp_path, "flood.py", """\
        import warp as wp

        @wp.kernel
        def scale(x: wp.array(dtype=float), y: wp.array(dtype=float)):
            i = wp.tid()
            y[i] = 2.0 * x[i]

        a = wp.zeros(1000, requires_grad=True)
        b = wp.zeros(1000, requires_grad=True)
        tape = wp.Tape()
        with tape:
            for _ in range(1000):
                wp.launch(scale, dim=1000, inputs=[a], outputs=[b])
                wp.launch(scale, dim=1000, inputs=[b], outputs=[a])
        """)
    result, _, stderr = run(path)
    assert sorted((f.data["array"], f.count) for f in result.findings) == [("a", 1000), ("b", 999)]
    assert all(f.data["warp_reported"] for f in result.findings)  # `2.0 * x[i]` is marked by Warp
    assert "is being written to" not in stderr  # no per-warning copy of the array, no flood


def test_garbage_on_the_event_channel_is_reported_not_fatal():
    result = RunResult(script="s.py")
    collector = _EventCollector(result, None)
    collector.line(b'{"event": "start", "warp_version": "1.19.0", "device": "cpu"}\n')
    collector.line(b"\xff\xfe not json\n")
    collector.line(b'{"no_event_key": 1}\n')
    collector.line(b'{"event": "end", "status": 0, "outcome": "ok"}\n')
    collector.finish(0, "")
    assert result.warp_version == "1.19.0"
    assert [f.code for f in result.findings] == ["TW907"]
    assert "2 unreadable" in result.findings[0].message


def test_cancel_kills_the_run_quickly(tmp_path):
    path = write(tmp_path, "slow.py", "import time\ntime.sleep(600)\n")

    async def go():
        task = asyncio.ensure_future(run_probe(RunRequest(script=str(path))))
        await asyncio.sleep(1.5)
        started = time.monotonic()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return time.monotonic() - started

    assert asyncio.run(go()) < 1.0


def test_a_background_child_holding_the_output_does_not_hold_the_run(tmp_path):
    path = write(tmp_path, "bg.py", """\
        import subprocess, sys
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])  # inherits stdout/stderr
        print("done")
        """)
    started = time.monotonic()
    result, stdout, _ = run(path, timeout=60)
    assert time.monotonic() - started < 15
    assert result.exit_code == 0 and result.findings == [] and "done" in stdout
