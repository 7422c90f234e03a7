"""The core loop under the capabilities of each editor docs/editors.md promises.

VS Code, Neovim (0.7, the oldest Debian ships, and the newest profile) and
Emacs announce different capabilities: progress or none, code action
literals or commands only, related information or not.  For each: a run
puts TW102 on the `wp.copy` line, the documentation action is offered,
and the tape-graph request answers.
"""

from __future__ import annotations

import shutil

import pytest

from .lsp_helpers import EXAMPLES, as_dict, initialize, markers, open_doc, run, run_diagnostics
from .test_code_actions import actions_for

PROFILES = ["visual-studio-code", "neovim@v0.7.0", "neovim@latest", "emacs"]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("spec", PROFILES)
async def test_core_loop_in_each_client(lsp, tmp_path, spec):
    await initialize(lsp, {"checkLaunches": False}, folder=tmp_path, spec=spec)
    script = tmp_path / "copy_overwrite.py"
    shutil.copy(EXAMPLES / "copy_overwrite.py", script)
    uri = open_doc(lsp, script)
    summary = await run(lsp, uri)
    assert summary["status"] == "findings"
    line = markers(script)["expect:TW102"][0]
    diags = [d for d in run_diagnostics(lsp, uri) if d.code == "TW102"]
    assert [d.range.start.line + 1 for d in diags] == [line]
    related = diags[0].related_information or []
    if lsp.capabilities.text_document.publish_diagnostics.related_information:
        assert related, "related locations promised by the client's capabilities"
    actions = await actions_for(lsp, uri, diags)
    titles = [a.get("title") for a in actions]
    assert "Show documentation for TW102" in titles
    graph = as_dict(await lsp.protocol.send_request_async("tapewatch/tapeGraph", {"uri": uri}))
    assert graph["tapes"] and any(n["kind"] == "launch" for n in graph["tapes"][0]["nodes"])
