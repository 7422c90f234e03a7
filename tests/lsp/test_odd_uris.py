"""Files whose URIs are percent-encoded (spaces, non-ASCII) get every feature:
lints on open and diagnostics that move with edits."""

from __future__ import annotations

import pytest

from .lsp_helpers import change, open_doc, wait_for, write


@pytest.mark.timeout(60)
async def test_lints_and_edits_on_a_quoted_uri(client, tmp_path):
    path = write(tmp_path / "dir with space" / "kérnel lint.py", (
        "import warp as wp\n"
        "\n"
        "@wp.kernel\n"
        "def k(a: wp.array(dtype=float), b: wp.array(dtype=float)):\n"
        "    i = wp.tid()\n"
        "    a[i] *= b[i]\n"))
    uri = open_doc(client, path)
    assert "%20" in uri and "%C3%A9" in uri
    await wait_for(lambda: [d.code for d in client.diagnostics.get(uri, [])] == ["TW301"], timeout=20)
    assert client.diagnostics[uri][0].range.start.line == 5
    change(client, uri, 2, (0, 0), (0, 0), "# a comment\n")
    await wait_for(lambda: [d.range.start.line for d in client.diagnostics.get(uri, [])] == [6], timeout=20)
