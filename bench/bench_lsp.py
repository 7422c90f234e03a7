"""Language-server responsiveness, measured over stdio against the real server.

1. ``textDocument/codeAction`` latency while a verification run is in
   progress (target: p95 <= 100 ms), next to the same requests with the
   server idle.  The run is a real Warp script (ping-pong example) that
   then prints a line every 2 ms, so the server is also streaming output.
2. Lint latency on a generated file of many kernels: from ``didChange`` to
   the ``publishDiagnostics`` carrying the lint result, and that minus the
   debounce (the time the server spends linting and publishing; target
   p95 <= 50 ms).  The edits alternate between a kernel typed at the end
   of the file and a statement added inside a kernel in the middle (which
   moves every line below it); each adds one finding (TW301), so the lint's
   publish differs from what the server published before it (a publish
   identical to the last one is not sent, and there would be nothing to
   time).

Usage: python bench/bench_lsp.py [--seconds S] [--kernels N] [--python PATH]
(run from a checkout: the server is started as ``python -m tapewatch lsp``
with ``server/`` on PYTHONPATH).
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types
from pytest_lsp import client_capabilities
from pytest_lsp.client import make_test_lsp_client

ROOT = Path(__file__).resolve().parents[1]
DEBOUNCE = 0.3


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, max(0, int(round(q * len(values))) - 1))]


def describe(name, latencies_s):
    ms = [x * 1000 for x in latencies_s]
    return "%-34s n=%-5d p50=%7.2f ms  p95=%7.2f ms  max=%7.2f ms" % (
        name, len(ms), statistics.median(ms), pct(ms, 0.95), max(ms))


async def start(python: str):
    client = make_test_lsp_client()
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "server"), env.get("PYTHONPATH")]))
    await client.start_io(sys.executable, "-m", "tapewatch", "lsp", env=env)
    await client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        workspace_folders=[types.WorkspaceFolder(uri=ROOT.as_uri(), name="root")],
        initialization_options={"settings": {"interpreter": python, "timeout": 600}}))
    return client


def open_doc(client, path: Path, text: str) -> str:
    uri = path.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
        uri=uri, language_id="python", version=1, text=text)))
    return uri


async def code_action_latencies(client, uri, diags, seconds, until=None):
    params = types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=diags[0].range if diags else types.Range(start=types.Position(line=0, character=0),
                                                       end=types.Position(line=0, character=0)),
        context=types.CodeActionContext(diagnostics=list(diags)))
    out = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not (until is not None and until.done()):
        t0 = time.perf_counter()
        await client.protocol.send_request_async(types.TEXT_DOCUMENT_CODE_ACTION, params)
        out.append(time.perf_counter() - t0)
        await asyncio.sleep(0.01)
    return out


async def bench_code_actions(client, seconds: float) -> None:
    source = (ROOT / "examples" / "pingpong_helper.py").read_text(encoding="utf-8")
    source += ("\nimport time\nfor _i in range(1000000):\n"
               "    print('streaming output line', _i)\n    time.sleep(0.002)\n")
    folder = Path(tempfile.mkdtemp(prefix="tapewatch-bench-"))
    atexit.register(shutil.rmtree, folder, True)
    script = folder / "busy_pingpong.py"
    script.write_text(source, encoding="utf-8")
    uri = open_doc(client, script, source)
    # A first, short run (the same file without the loop) gives real diagnostics to ask about.
    quick = folder / "pingpong.py"
    quick.write_text((ROOT / "examples" / "pingpong_helper.py").read_text(encoding="utf-8"), encoding="utf-8")
    quick_uri = open_doc(client, quick, quick.read_text(encoding="utf-8"))
    await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="tapewatch.runVerification", arguments=[quick_uri]))
    diags = list(client.diagnostics.get(quick_uri, []))

    idle = await code_action_latencies(client, quick_uri, diags, min(seconds, 3.0))
    run = asyncio.ensure_future(client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="tapewatch.runVerification", arguments=[uri], work_done_token="bench-run")))
    client.progress_reports.setdefault("bench-run", [])
    await asyncio.sleep(0.5)
    busy = await code_action_latencies(client, quick_uri, diags, seconds, until=run)
    logs = len(client.log_messages)
    client.protocol.notify(types.WINDOW_WORK_DONE_PROGRESS_CANCEL,
                           types.WorkDoneProgressCancelParams(token="bench-run"))
    await asyncio.wait_for(run, 10)
    print(describe("codeAction, server idle", idle))
    print(describe("codeAction, run in progress", busy))
    print("  (%d diagnostics in the request; %d log messages received during the run)" % (len(diags), logs))
    print("  target p95 <= 100 ms: %s" % ("met" if pct(busy, 0.95) <= 0.1 else "NOT met"))


KERNEL = '''
@wp.kernel
def k{i}(x: wp.array(dtype=float), y: wp.array(dtype=float), v: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    s = x[i] * 2.0
    s *= 3.0
    p = v[i]
    p = wp.vec3(p[0] + s, p[1], p[2])
    for j in range(4):
        s = s + wp.sin(s)
    y[i] = wp.where(s > 0.0, s, 0.0)
    y[i] *= x[i]
'''


async def bench_lints(client, kernels: int, repeat: int) -> None:
    text = "import warp as wp\n" + "".join(KERNEL.format(i=i) for i in range(kernels))
    folder = Path(tempfile.mkdtemp(prefix="tapewatch-bench-lint-"))
    atexit.register(shutil.rmtree, folder, True)
    path = folder / "many_kernels.py"
    path.write_text(text, encoding="utf-8")
    arrivals = []
    # A publishDiagnostics is timed when the client has read and parsed it, before the test
    # client converts its 200 diagnostics into lsprotocol objects (an editor has no such step;
    # in this client it is ~10 ms of the measurement, spent after the server's work is done).
    protocol = client.protocol
    original = protocol.structure_message

    def spy(data):
        if data.get("method") == types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS and isinstance(data.get("params"), dict):
            params = data["params"]
            arrivals.append((time.perf_counter(), params.get("uri"), len(params.get("diagnostics") or ())))
        return original(data)

    protocol.structure_message = spy
    uri = open_doc(client, path, text)
    deadline = time.monotonic() + 30
    while not any(u == uri for _, u, _ in arrivals) and time.monotonic() < deadline:
        await asyncio.sleep(0.01)
    first = [n for _, u, n in arrivals if u == uri]
    latencies, at_end, inside = [], [], []
    version = 1
    for r in range(repeat):
        version += 1
        arrivals.clear()
        lines = text.split("\n")
        if r % 2 == 0:
            # A kernel typed at the end of the file.
            line, character = len(lines) - 1, len(lines[-1])
            new = ("\n@wp.kernel\ndef e%d(x: wp.array(dtype=float), y: wp.array(dtype=float)):\n"
                   "    i = wp.tid()\n    y[i] *= x[i]\n" % r)
        else:
            # A statement added in the middle kernel: the lines below it move down.
            line = lines.index("def k%d(x: wp.array(dtype=float), y: wp.array(dtype=float), "
                               "v: wp.array(dtype=wp.vec3)):" % (kernels // 2)) + 2
            character, new = 0, "    y[i] *= x[i]\n"
        t0 = time.perf_counter()
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangePartial(
                range=types.Range(start=types.Position(line=line, character=character),
                                  end=types.Position(line=line, character=character)),
                text=new)]))
        lines[line] = lines[line][:character] + new + lines[line][character:]
        text = "\n".join(lines)
        deadline = time.monotonic() + 30
        while not any(u == uri for _, u, _ in arrivals) and time.monotonic() < deadline:
            await asyncio.sleep(0.002)
        # The lint's publish comes after the debounce (moving diagnostics with the edit may publish first).
        while not any(u == uri and t - t0 >= DEBOUNCE for t, u, _ in arrivals) and time.monotonic() < deadline:
            await asyncio.sleep(0.002)
        got = [t for t, u, _ in arrivals if u == uri and t - t0 >= DEBOUNCE]
        if got:
            latencies.append(got[0] - t0)
            (at_end if r % 2 == 0 else inside).append(got[0] - t0 - DEBOUNCE)
    protocol.structure_message = original
    print("lint: %d kernels, %d lines, %d diagnostics" % (kernels, text.count("\n") + 1, first[-1] if first else -1))
    print(describe("didChange -> lint published", latencies))
    print(describe("  minus the %.0f ms debounce" % (DEBOUNCE * 1000), [x - DEBOUNCE for x in latencies]))
    print(describe("    a kernel typed at the end", at_end))
    print(describe("    a line inserted in a kernel", inside))


async def main_async(ns) -> None:
    client = await start(ns.python)
    try:
        await bench_code_actions(client, ns.seconds)
        await bench_lints(client, ns.kernels, ns.repeat)
    finally:
        await client.shutdown_session()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8.0, help="codeAction requests during the run (s)")
    parser.add_argument("--kernels", type=int, default=200, help="kernels in the generated lint file")
    parser.add_argument("--repeat", type=int, default=10, help="lint measurements")
    parser.add_argument("--python", default=sys.executable, help="interpreter with Warp for the run")
    ns = parser.parse_args()
    asyncio.run(main_async(ns))
    return 0


if __name__ == "__main__":
    sys.exit(main())
