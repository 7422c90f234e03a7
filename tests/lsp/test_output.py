"""The script-output batcher: whole lines, few messages, bounded, clean."""

from __future__ import annotations

import asyncio

from tapewatch.lsp.output import OutputBatcher


async def test_batches_whole_lines():
    sent = []
    out = OutputBatcher(sent.append, interval=0.05)
    for i in range(1000):
        out.add("stdout", "line %d\n" % i)
    out.add("stdout", "partial")
    await asyncio.sleep(0.1)
    assert len(sent) <= 2
    text = "\n".join(sent)
    assert "line 0" in text and "line 999" in text and "partial" not in text
    out.close()
    assert sent[-1] == "partial"


async def test_flood_is_bounded_and_announced():
    sent = []
    out = OutputBatcher(sent.append, interval=0.05, max_pending=10_000, max_total=50_000)
    for i in range(100_000):
        out.add("stdout", "line %06d\n" % i)
    out.close()
    total = sum(len(s) for s in sent)
    assert total < 70_000
    assert "line 099999" in "".join(sent)  # the newest output is kept
    assert any("dropped" in s or "not shown" in s for s in sent)


async def test_binary_and_control_characters():
    sent = []
    out = OutputBatcher(sent.append)
    out.add("stderr", "\x00\x1b[31mred\x07\n")
    out.add("stdout", "x" * 20000)  # one long line without a newline is still sent
    out.close()
    text = "".join(sent)
    assert "\x00" not in text and "\x1b" not in text and "\x07" not in text and "red" in text
    assert text.count("x") == 20000
