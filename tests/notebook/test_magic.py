"""``%load_ext tapewatch`` and ``%%tapewatch`` in a real Jupyter kernel (ipykernel, driven by nbclient).

One notebook, executed once, holds every case: a ping-pong overwrite (the copy of
``examples/pingpong_helper.py``: the launch inside a helper defined in an earlier cell), the same
program with fresh arrays (clean), a syntax error, a cell that records no tape, a cell whose
exception message is HTML, a hanging cell (TW905 on its line), and a bad option.  Each
``%%tapewatch`` cell is run by the real probe, in a subprocess of the kernel.
"""

from __future__ import annotations

import html
import json
import re
import sys
import textwrap
from html.parser import HTMLParser
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.notebook, pytest.mark.timeout(600)]

DEFINITIONS = '''\
import numpy as np
import warp as wp

N = 8
DT = 0.05


@wp.kernel
def integrate(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), dt: float, x_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    x_out[i] = x[i] + (v[i] - 0.5 * x[i] * wp.length(x[i])) * dt


@wp.kernel
def height_loss(x: wp.array(dtype=wp.vec3), loss: wp.array(dtype=float)):
    i = wp.tid()
    p = x[i]
    wp.atomic_add(loss, 0, p[1] * p[1])


def simulate_step(x_in, velocity, x_out):
    wp.launch(integrate, dim=N, inputs=[x_in, velocity, DT], outputs=[x_out])
'''

PINGPONG = '''\
%%tapewatch --device cpu
start = np.random.default_rng(0).standard_normal((N, 3)).astype(np.float32)
a = wp.array(start, dtype=wp.vec3, requires_grad=True)
b = wp.array(start, dtype=wp.vec3, requires_grad=True)
velocity = wp.array(np.ones((N, 3), dtype=np.float32), dtype=wp.vec3, requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    for step in range(3):
        simulate_step(a, velocity, b)
        simulate_step(b, velocity, a)
    wp.launch(height_loss, dim=N, inputs=[a], outputs=[loss])
tape.backward(loss)
'''

CLEAN = '''\
%%tapewatch --device cpu --timeout 120
start = np.random.default_rng(0).standard_normal((N, 3)).astype(np.float32)
states = [wp.array(start, dtype=wp.vec3, requires_grad=True)]
velocity = wp.array(np.ones((N, 3), dtype=np.float32), dtype=wp.vec3, requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    for step in range(6):
        states.append(wp.zeros_like(states[-1]))
        simulate_step(states[-2], velocity, states[-1])
    wp.launch(height_loss, dim=N, inputs=[states[-1]], outputs=[loss])
tape.backward(loss)
'''

SYNTAX_ERROR = '''\
%%tapewatch
x = 1
def broken(:
    pass
'''

NO_TAPE = '''\
%%tapewatch
print("no tape here", N)
'''

HOSTILE = '''\
%%tapewatch
raise ValueError("<img src=x onerror=alert(1)> & <script>alert(2)</script>")
'''

HANGS = '''\
%%tapewatch --timeout 8
def forever():
    while True:
        pass
forever()
'''

CELLS = [
    ("load", "%load_ext tapewatch"),
    ("defs", DEFINITIONS),
    ("shell", "!echo from-the-shell\n%env TAPEWATCH_NOTEBOOK_TEST=1"),
    ("pingpong", PINGPONG),
    ("clean", CLEAN),
    ("syntax", SYNTAX_ERROR),
    ("notape", NO_TAPE),
    ("hostile", HOSTILE),
    ("hangs", HANGS),
    ("badopt", "%%tapewatch --no-such-option\nx = 1\n"),
    ("alone", "%%tapewatch --no-history -q\nprint(N)\n"),
]


def kernel_env(tmp) -> pytest.MonkeyPatch:
    """A kernelspec ``tapewatch-test`` for this interpreter, and Jupyter's folders, under ``tmp``."""
    spec = tmp / "jupyter" / "kernels" / "tapewatch-test"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Tapewatch test", "language": "python",
        "env": {"PYTHONPATH": str(ROOT / "server")},
    }))
    mp = pytest.MonkeyPatch()
    mp.setenv("JUPYTER_PATH", str(tmp / "jupyter"))
    mp.setenv("JUPYTER_RUNTIME_DIR", str(tmp / "runtime"))
    mp.setenv("JUPYTER_DATA_DIR", str(tmp / "data"))
    mp.setenv("IPYTHONDIR", str(tmp / "ipython"))
    return mp


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    """The notebook, executed in a fresh kernel of this interpreter (its kernelspec written here)."""
    tmp = tmp_path_factory.mktemp("nb")
    mp = kernel_env(tmp)
    work = tmp / "work"
    work.mkdir()
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(textwrap.dedent(src), metadata={"name": name}) for name, src in CELLS]
    client = nbclient.NotebookClient(nb, timeout=300, kernel_name="tapewatch-test", allow_errors=True,
                                     resources={"metadata": {"path": str(work)}})
    try:
        client.execute()
    finally:
        mp.undo()
    nbformat.write(nb, str(tmp / "executed.ipynb"))  # to look at when a test fails
    return {cell.metadata["name"]: cell for cell in nb.cells}


def report(cell) -> str:
    [out] = [o for o in cell.outputs if o.output_type == "display_data" and "text/html" in o.data]
    return out.data["text/html"]


def findings(page: str) -> list:
    """Every finding in the report: its attributes, and the text of its parts."""
    class Parse(HTMLParser):
        def __init__(self):
            super().__init__()
            self.found, self.stack = [], []

        def handle_starttag(self, tag, attrs):
            attrs = dict(attrs)
            if "tw-finding" in (attrs.get("class") or "").split():
                self.found.append(dict(attrs, text="", related=[]))
            elif tag == "li" and self.found and "data-where" in attrs:
                self.found[-1]["related"].append(attrs["data-where"])

        def handle_data(self, data):
            if self.found:
                self.found[-1]["text"] += data

    parser = Parse()
    parser.feed(page)
    return parser.found


def exit_status(page: str) -> int:
    return int(re.search(r'data-exit-status="(\d)"', page).group(1))


def line_in(source: str, text: str) -> int:
    return next(n for n, line in enumerate(source.splitlines(), start=1) if text in line)


def test_the_pingpong_overwrite_on_the_launch_line_of_the_earlier_cell(executed):
    page = report(executed["pingpong"])
    assert exit_status(page) == 1
    tw101 = [f for f in findings(page) if f["data-code"] == "TW101"]
    assert tw101, page
    launch = line_in(DEFINITIONS, "wp.launch(integrate")
    # In [1] is %load_ext, In [2] the definitions: the launch inside the helper is the line to change.
    assert {f["data-where"] for f in tw101} == {"In [2], line %d" % launch}
    assert {f["data-line"] for f in tw101} == {str(launch)}
    # The cell's lines as the notebook numbers them: the %%tapewatch line is line 1.
    callers = {"this cell, line %d" % line_in(PINGPONG, "simulate_step(a, velocity, b)"),
               "this cell, line %d" % line_in(PINGPONG, "simulate_step(b, velocity, a)")}
    assert callers <= set(sum((f["related"] for f in tw101), []))
    # The source line shown is the cell's, and the code links to its page.
    assert "wp.launch(integrate, dim=N" in tw101[0]["text"]
    assert 'href="https://github.com/tapewatch/tapewatch/blob/main/docs/diagnostics/TW101.md"' in page
    # The messages speak of the cells' lines, not the generated script's.
    assert "of In [2]" in tw101[0]["text"] or "of this cell" in tw101[0]["text"]
    # The per-launch checks, and the tape graph drawn from its nodes and edges.
    assert "Per-launch adjoint checks: " in page
    assert '<details class="tw-graph"' in page and "<svg" in page and "[TW101]" in page
    # The shell escape and the line magic of an earlier cell were left out of the run, not fatal.
    assert "not run" not in page


def test_a_clean_program_exits_0_with_its_checks(executed):
    page = report(executed["clean"])
    assert exit_status(page) == 0, page
    assert [f for f in findings(page) if f["class"].split()[1] in ("tw-error", "tw-warning")] == []
    assert "no findings" in page or "information" in page
    assert re.search(r"Per-launch adjoint checks: [1-9]\d* checked \([1-9]\d* passed, 0 failed", page)
    # Another %%tapewatch cell (the ping-pong) ran in its own process: left out, and said so.
    assert "In [4]: another %%tapewatch cell" in html.unescape(page)


def test_a_syntax_error_on_the_cells_line(executed):
    page = report(executed["syntax"])
    assert exit_status(page) == 2
    [f] = findings(page)
    assert f["data-code"] == "TW902"
    assert f["data-where"] == "this cell, line %d" % line_in(SYNTAX_ERROR, "def broken(:")
    assert "Not verified" in page


def test_a_cell_that_records_no_tape_says_so(executed):
    page = report(executed["notape"])
    assert exit_status(page) == 2
    [f] = findings(page)
    assert f["data-code"] == "TW912" and "without recording a launch on a wp.Tape" in f["text"]
    stdout = "".join(o.get("text", "") for o in executed["notape"].outputs if o.output_type == "stream")
    assert "no tape here 8" in stdout  # the earlier cells ran first: N was defined


def test_user_text_is_escaped(executed):
    page = report(executed["hostile"])
    assert exit_status(page) == 2
    assert "<img" not in page and "<script>alert" not in page
    assert "&lt;img src=x onerror=alert(1)&gt; &amp; &lt;script&gt;alert(2)&lt;/script&gt;" in page
    [f] = [f for f in findings(page) if f["data-code"] == "TW901"]
    assert f["data-where"] == "this cell, line 2"


def test_a_hanging_cell_is_stopped_on_its_line(executed):
    page = report(executed["hangs"])
    assert exit_status(page) == 2
    [f] = findings(page)
    assert f["data-code"] == "TW905"
    # Python places a frame spinning in `while True: pass` on the loop's line or its body's.
    assert f["data-where"] in ("this cell, line %d" % line_in(HANGS, "while True"),
                               "this cell, line %d" % line_in(HANGS, "pass"))
    assert f["related"] == ["this cell, line 5"]  # `forever()` called from here


def test_a_bad_option_is_a_usage_error(executed):
    outputs = executed["badopt"].outputs
    shown = "".join(o.get("text", "") for o in outputs if o.output_type == "stream" and o.name == "stderr")
    assert "UsageError: unrecognized arguments: --no-such-option" in shown
    assert "usage: %%tapewatch [--device DEVICE] [--timeout SECONDS]" in shown
    assert not [o for o in outputs if o.output_type == "display_data"]  # nothing ran


def test_no_history_runs_the_cell_alone(executed):
    page = report(executed["alone"])
    assert exit_status(page) == 2
    [f] = findings(page)
    assert f["data-code"] == "TW901" and "NameError" in f["text"] and f["data-where"] == "this cell, line 2"
    assert not [o for o in executed["alone"].outputs if o.output_type == "stream"]  # -q: no script output


def test_importing_the_package_does_not_import_ipython():
    import subprocess

    code = "import sys, tapewatch; assert callable(tapewatch.load_ipython_extension); print('IPython' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(ROOT / "server"), "PATH": "/usr/bin:/bin"})
    assert out.stdout.strip() == "False"


def test_the_stop_button_ends_the_run_and_shows_what_it_had(tmp_path):
    """A kernel interrupt while the cell runs: the run's process tree is killed and the report says the
    run was interrupted (exit status 2), in the same cell."""
    import os
    import time

    from jupyter_client.manager import start_new_kernel

    mp = kernel_env(tmp_path)
    pidfile = tmp_path / "probe.pid"
    try:
        km, kc = start_new_kernel(kernel_name="tapewatch-test", cwd=str(tmp_path))
    finally:
        mp.undo()
    try:
        kc.execute_interactive("%load_ext tapewatch", timeout=60)
        msg_id = kc.execute("%%%%tapewatch -q\nimport os, time\nopen(%r, 'w').write(str(os.getpid()))\n"
                            "while True:\n    time.sleep(0.05)\n" % str(pidfile))
        deadline = time.monotonic() + 60
        while not pidfile.exists() or not pidfile.read_text():
            assert time.monotonic() < deadline, "the cell's script never started"
            time.sleep(0.1)
        pid = int(pidfile.read_text())
        km.interrupt_kernel()
        pages = []
        while True:
            msg = kc.get_iopub_msg(timeout=60)
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            if msg["msg_type"] == "display_data":
                pages.append(msg["content"]["data"]["text/html"])
            if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
                break
        [page] = pages
        assert exit_status(page) == 2 and "interrupted after" in page
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)  # the script's process is gone (killed and reaped)
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
