"""The lint process (``tapewatch.lsp.lint_worker``): requests coalesce per document, a closed last
document ends the process, and a server whose child cannot start lints in a thread."""

from __future__ import annotations

import asyncio
import sys

import pytest
import tapewatch.lint  # noqa: F401 (imported, and rewritten by pytest, before any thread lints)
from tapewatch.lsp import lint_worker
from tapewatch.lsp.lint_worker import LintWorker

from .lsp_helpers import alive, wait_for

KERNEL = """
@wp.kernel
def k{i}(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] *= x[i]
"""


def module(kernels: int) -> str:
    return "import warp as wp\n" + "".join(KERNEL.format(i=i) for i in range(kernels))


@pytest.mark.timeout(60)
async def test_a_newer_request_replaces_one_that_has_not_started():
    worker = LintWorker()
    try:
        slow = asyncio.ensure_future(worker.lint("big", module(3000), "/tmp/big.py"))
        await asyncio.sleep(0.2)  # the big file is being linted: the next requests wait
        first = asyncio.ensure_future(worker.lint("small", module(2), "/tmp/small.py"))
        second = asyncio.ensure_future(worker.lint("small", module(3), "/tmp/small.py"))
        assert await first is None  # replaced before it started
        assert len(await second) == 3
        assert len(await slow) == 3000
    finally:
        await worker.close()


@pytest.mark.timeout(60)
async def test_the_process_ends_when_its_last_document_closes():
    worker = LintWorker()
    try:
        assert len(await worker.lint("a", module(2), "/tmp/a.py")) == 2
        assert len(await worker.lint("b", module(1), "/tmp/b.py")) == 1
        pid = worker.pid
        assert pid is not None and alive(pid)
        worker.forget("a")
        assert worker.pid == pid and alive(pid)  # still holds b
        worker.forget("b")
        await wait_for(lambda: not alive(pid))
        assert len(await worker.lint("a", module(4), "/tmp/a.py")) == 4  # a fresh one
        assert worker.pid not in (None, pid)
    finally:
        await worker.close()


@pytest.mark.timeout(60)
async def test_a_syntax_error_is_one_tw902(tmp_path):
    worker = LintWorker()
    try:
        found = await worker.lint("bad", "import warp as wp\ndef broken(:\n", str(tmp_path / "bad.py"))
        assert [(f.code, f.location.line) for f in found] == [("TW902", 2)]
    finally:
        await worker.close()


@pytest.mark.timeout(60)
async def test_without_a_child_the_lints_run_in_a_thread(monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "executable", str(tmp_path / "no-such-python"))
    worker = LintWorker()
    try:
        assert len(await worker.lint("a", module(2), "/tmp/a.py")) == 2
        assert worker.pid is None
    finally:
        await worker.close()


def test_the_child_reads_frames_until_end_of_input(tmp_path):
    import os
    import pickle

    r, w = os.pipe()
    body = pickle.dumps(("forget", "x"))
    os.write(w, lint_worker._HEADER.pack(len(body)) + body)
    os.close(w)
    frames = lint_worker._Frames(r)
    assert frames.next() == ("forget", "x")
    assert frames.next() is None
    os.close(r)
